"""matplotlib, imported only when a plot is asked for."""

from __future__ import annotations

import os
from typing import Any

from .exceptions import InputError

__all__ = ["pyplot"]


def pyplot() -> Any:
    """matplotlib.pyplot, on the Agg backend when there is no display."""
    try:
        import matplotlib

        if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'sigfast[plot]'") from None
    return plt
