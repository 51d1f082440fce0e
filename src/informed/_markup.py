"""Small escaped HTML pieces: numbers, cells, tables, and the fragments notebooks show.

Jupyter shows an object by its `_repr_html_`; Table, Evaluation, Ranking, Tally and the
comparison of models build theirs from these pieces, and the HTML report uses the same
ones, so a number reads the same everywhere. It sits low in the layers (it imports only
`informed._common`) so that the summaries can use it without importing the report. Every
piece of user text (labels, names, reasons) is HTML-escaped, quotes too, with its control
characters shown escaped as on the terminal; a fragment holds no script and no style
sheet, only a few inline styles.

>>> html_table(["label", "n"], [[text_cell("<script>"), count_cell(3)]]).split("<tbody>")[1]
'<tr><td>&lt;script&gt;</td><td class="num">3</td></tr></tbody></table>'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from informed._common import printable

__all__ = [
    "FIGURES",
    "LONG_LABEL",
    "bound",
    "count",
    "count_cell",
    "escaped",
    "figure_element",
    "fragment",
    "header_cell",
    "html_table",
    "label_css",
    "note_cell",
    "number",
    "percent",
    "sentence",
    "text_cell",
    "value_cell",
    "value_range",
]

_FRAGMENT_STYLE = "font-family: inherit; font-size: 0.92em; line-height: 1.35"
_TABLE_STYLE = "border-collapse: collapse; margin: 4px 0"


def number(value: float | None, digits: int = 4) -> str:
    """`value` with `digits` decimals; "undefined" for None or nan, "∞" or "−∞" if infinite.

    >>> number(0.25), number(float("nan")), number(float("-inf"))
    ('0.2500', 'undefined', '−∞')
    """
    if value is None or math.isnan(value):
        return "undefined"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{digits}f}"


def count(value: float) -> str:
    """A count with thousands separators: an int exactly, a weighted count to 6 digits.

    >>> count(1234567), count(2.5)
    ('1,234,567', '2.5')
    """
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def bound(value: float) -> str:
    """An end of a range or a chance value, shortest form; "∞" or "−∞" if infinite."""
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


def escaped(value: object) -> str:
    r"""`value` as text, HTML-escaped (quotes too), safe in an element or an attribute;
    control characters are shown escaped (`informed._common.printable`).

    >>> escaped('<b a="1">\x1b')
    '&lt;b a=&quot;1&quot;&gt;\\x1b'
    """
    return escape(printable(value), quote=True)


def sentence(text: str) -> str:
    """`text` escaped, ending with one full stop."""
    return escaped(text) if text.endswith(".") else escaped(text) + "."


def value_range(low: float, high: float) -> str:
    """[low, high], with an open bracket at an infinite end."""
    return (
        f"{'(' if math.isinf(low) else '['}{bound(low)}, "
        f"{bound(high)}{')' if math.isinf(high) else ']'}"
    )


def value_cell(value: float | None, reason: str | None = None, digits: int = 4) -> str:
    """A numeric <td>: red when negative; "undefined" with `reason` as its title for nan."""
    if value is None or math.isnan(value):
        why = reason or "undefined"
        return f'<td class="num undefined" title="{escaped(why)}">undefined</td>'
    css = "num neg" if value < 0 else "num"
    return f'<td class="{css}">{number(value, digits)}</td>'


def count_cell(value: float) -> str:
    """A <td> holding a count (`count`)."""
    return f'<td class="num">{count(value)}</td>'


def text_cell(value: object) -> str:
    """A <td> holding `value` as escaped text."""
    return f"<td>{escaped(value)}</td>"


def header_cell(value: object, *, row: bool = False) -> str:
    """A <th> holding `value` as escaped text; `row=True` heads a row (scope="row")."""
    return f'<th scope="row">{escaped(value)}</th>' if row else f"<th>{escaped(value)}</th>"


def note_cell(reason: str | None) -> str:
    """The note cell of a table row: why its value is undefined, or empty."""
    return f'<td class="small">{"" if reason is None else "undefined: " + escaped(reason)}</td>'


def html_table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    caption: str | None = None,
    styled: bool = False,
) -> str:
    """A <table>: `head` as escaped column headings; `rows` of cells already made by the
    functions above (their text escaped there). `caption` is escaped text; `styled` adds
    the inline styles a notebook needs (the report page has its own style sheet)."""
    style = f' style="{_TABLE_STYLE}"' if styled else ""
    top = f"<caption>{escaped(caption)}</caption>" if caption else ""
    heading = "".join(f"<th>{escaped(h)}</th>" for h in head)
    body = "".join(f"<tr>{''.join(cells)}</tr>" for cells in rows)
    return (
        f'<table class="informed"{style}>{top}<thead><tr>{heading}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def fragment(title: str, parts: Sequence[str], *, note: str | None = None) -> str:
    """A notebook's view of an object: an escaped `title` line, then the HTML `parts` (made
    by the functions above), then an escaped `note`. No script, no style sheet."""
    footer = f'<div style="opacity: 0.75">{escaped(note)}</div>' if note else ""
    return (
        f'<div class="informed-repr" style="{_FRAGMENT_STYLE}">'
        f"<div><strong>{escaped(title)}</strong></div>{''.join(parts)}{footer}</div>"
    )


# ---------------------------------------------------------------------- the report's figures
FIGURES = {
    "heatmap": "figure-heatmap",
    "labels": "figure-labels",
    "roc": "figure-roc",
    "quota": "figure-quota",
    "lift": "figure-lift",
    "compare-roc": "figure-compare-roc",
    "forest": "figure-forest",
    "net-benefit-difference": "figure-net-benefit-difference",
    "reliability": "figure-reliability",
    "decision": "figure-decision",
}
"""The id of each <figure> element of the HTML report: table plots need an evaluation,
the next three a ranking, the next three a comparison of models (the last of them for
probabilities), the last two a ranking of probabilities (the calibration section)."""


def percent(value: float, low: float, high: float) -> float:
    """Where `value` sits between `low` and `high`, in percent of the meter (clipped)."""
    return min(max(100.0 * (value - low) / (high - low), 0.0), 100.0)


def figure_element(key: str, svg: str, caption: str, *, wide: bool = False) -> str:
    """The <figure> of plot `key` (id from `FIGURES`); `caption` is HTML; wide spans the grid."""
    css = ' class="wide"' if wide else ""
    return f'<figure id="{FIGURES[key]}"{css}>{svg}<figcaption>{caption}</figcaption></figure>'


LONG_LABEL = 24
"""A label longer than this many characters may wrap inside a word (in a column about 12
em wide); a shorter one wraps at spaces only, and its column grows to hold its words."""


def label_css(label: object) -> str:
    """The class of a label's cell: "label", or "label long" past `LONG_LABEL` characters,
    so that one very long name cannot push a table's numbers out of view."""
    return "label long" if len(printable(label)) > LONG_LABEL else "label"
