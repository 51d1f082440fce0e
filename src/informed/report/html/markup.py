"""The small pieces of HTML every section of the report writes.

Numbers with a fixed count of digits ("undefined" for nan, "∞" for infinities), counts
with thousands separators, ranges with open brackets at infinite ends, user text
HTML-escaped (control characters shown escaped, as on the terminal), table cells that say
why a value is undefined, and the <figure> element that holds a plot, with its id from
`FIGURES`.
"""

from __future__ import annotations

import math
from html import escape

from informed._common import printable

__all__ = [
    "FIGURES",
    "bound",
    "count",
    "escaped",
    "figure_element",
    "note_cell",
    "number",
    "percent",
    "sentence",
    "value_cell",
    "value_range",
]

FIGURES = {
    "heatmap": "figure-heatmap",
    "labels": "figure-labels",
    "roc": "figure-roc",
    "quota": "figure-quota",
    "lift": "figure-lift",
}
"""The id of each <figure> element: table plots need an evaluation, the others a ranking."""


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
    """A count with thousands separators: an int exactly, a weighted count to 6 digits."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def bound(value: float) -> str:
    """An end of a range or a chance value, shortest form; "∞" or "−∞" if infinite."""
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


def escaped(value: object) -> str:
    """`value` as text, HTML-escaped (quotes too), safe in an element or an attribute;
    control characters are shown escaped (`informed._common.printable`)."""
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


def percent(value: float, low: float, high: float) -> float:
    """Where `value` sits between `low` and `high`, in percent of the meter (clipped)."""
    return min(max(100.0 * (value - low) / (high - low), 0.0), 100.0)


def figure_element(key: str, svg: str, caption: str, *, wide: bool = False) -> str:
    """The <figure> of plot `key` (id from `FIGURES`); `caption` is HTML; wide spans the grid."""
    css = ' class="wide"' if wide else ""
    return f'<figure id="{FIGURES[key]}"{css}>{svg}<figcaption>{caption}</figcaption></figure>'


def note_cell(reason: str | None) -> str:
    """The note cell of a table row: why its value is undefined, or empty."""
    return f'<td class="small">{"" if reason is None else "undefined: " + escaped(reason)}</td>'
