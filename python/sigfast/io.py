"""Reading per-item scores or statistics from TSV, JSONL or .npy files.

The reader is the ``tsv``/``jsonl``/``npy`` formats' own (:mod:`sigfast.formats.items`): one
reader per format; this module keeps its public name.
"""

from __future__ import annotations

from ._api import checked_module
from .formats.items import read_items

__all__ = ["read_items"]

checked_module(globals())  # every exported function checks its keywords and simple types
