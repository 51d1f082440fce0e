"""The small pieces of HTML every section of the report writes.

Numbers with a fixed count of digits ("undefined" for nan, "∞" for infinities), counts
with thousands separators, ranges with open brackets at infinite ends, user text
HTML-escaped (control characters shown escaped, as on the terminal), table cells that say
why a value is undefined, and the <figure> element that holds a plot, with its id from
`FIGURES`.
"""

from __future__ import annotations

# the pieces the notebooks' views share, defined once low in the layers (informed._markup)
from informed._common import printable
from informed._markup import (
    bound,
    count,
    escaped,
    note_cell,
    number,
    sentence,
    value_cell,
    value_range,
)

__all__ = [
    "FIGURES",
    "bound",
    "count",
    "escaped",
    "figure_element",
    "label_css",
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
    "compare-roc": "figure-compare-roc",
    "forest": "figure-forest",
}
"""The id of each <figure> element: table plots need an evaluation, the next three a
ranking, the last two a comparison of models."""


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
