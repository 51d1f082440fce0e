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
    FIGURES,
    LONG_LABEL,
    bound,
    count,
    escaped,
    figure_element,
    label_css,
    note_cell,
    number,
    percent,
    sentence,
    value_cell,
    value_range,
)

__all__ = [
    "FIGURES",
    "LONG_LABEL",
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
