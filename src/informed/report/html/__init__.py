"""The HTML report: one self-contained page with the terminal report's content and plots.

`informed.report.html.page` writes the page (its CSS, heading, navigation and footer, and
the atomic write to a file); `informed.report.html.evaluation` the sections of an
evaluation; `informed.report.html.ranking` the ranking section, with its live operating
point (`informed.report.html.live`); `informed.report.html.slices` the slices' section;
`informed.report.html.tally` a tally's page; `informed.report.html.figures` the plots,
drawn by `informed.plots`; `informed.report.html.markup` the numbers, cells and escaping
they all use. The section of a comparison of models is the comparison's own
(`informed.comparison.html`).
"""

from __future__ import annotations

from informed.report.html.evaluation import MAX_HEATMAP_LABELS
from informed.report.html.markup import FIGURES
from informed.report.html.page import (
    check_output_path,
    comparison_report,
    html_report,
    write_comparison_report,
    write_html_report,
)

__all__ = [
    "FIGURES",
    "MAX_HEATMAP_LABELS",
    "check_output_path",
    "comparison_report",
    "html_report",
    "write_comparison_report",
    "write_html_report",
]
