"""The report's plots as inline SVG, drawn with matplotlib's object-oriented API.

Presentation only: every value drawn comes from a summary (`Table`, `Payoff`,
`Evaluation`, `Ranking`) or from the library's curve functions; axis titles and ranges of
contingency measures come from the registry `informed.measures.MEASURES`. Each function
returns one ``<svg>`` element for an HTML page, the same bytes for the same input.

`informed.report.plots.figure` holds what every plot shares (style, figure sizes, the SVG
rendering); `informed.report.plots.ranking` the ROC, quota and lift plots of a ranking;
`informed.report.plots.table` the heat map and per-label plot of an evaluation.
"""

from __future__ import annotations

from informed.report.plots.figure import short_label
from informed.report.plots.ranking import MAX_POINTS, lift_svg, quota_svg, roc_svg
from informed.report.plots.table import PAYOFF_IN_CELLS, contingency_svg, labels_svg

__all__ = [
    "MAX_POINTS",
    "PAYOFF_IN_CELLS",
    "contingency_svg",
    "labels_svg",
    "lift_svg",
    "quota_svg",
    "roc_svg",
    "short_label",
]
