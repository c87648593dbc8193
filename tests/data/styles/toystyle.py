"""A toy output style, the one file of README's "Adding an output style": tab-separated tables.

``tests/test_output_styles.py`` registers it through the entry point group ``sigfast.styles`` (as a
package declaring ``[project.entry-points."sigfast.styles"] tsv = "toystyle"`` would) and runs every
command with ``--tsv`` and ``--output x.tsv``.
"""

from sigfast.results.styles import Style


def table(t):
    """One table: its title and notes as ``#`` lines around tab-separated rows."""
    lines = [f"# {t.title}"] if t.title else []
    lines += ["\t".join(str(h) for h in t.header)]
    lines += ["\t".join(str(c) for c in r) for r in t.rows]
    lines += [f"# {n}" for n in t.note_lines()]
    return "\n".join(lines) + "\n"


STYLES = (
    Style(
        "tsv",
        (".tsv",),
        help="print tab-separated tables instead of the text table",
        table=table,
        heading=lambda title: f"# {title}",
        note=lambda note: f"# {note}",
        comment=lambda line: f"# {line}",
    ),
)
