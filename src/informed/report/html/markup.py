"""The small pieces of HTML every section of the report writes.

Numbers with a fixed count of digits ("undefined" for nan, "∞" for infinities), counts
with thousands separators, ranges with open brackets at infinite ends, user text
HTML-escaped (control characters shown escaped, as on the terminal), table cells that say
why a value is undefined, and the <figure> element that holds a plot, with its id from
`FIGURES`.
"""

from __future__ import annotations

# the pieces the notebooks' views share, defined once low in the layers (informed._markup)
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
