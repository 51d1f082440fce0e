"""Every plot of `informed`, drawn on a matplotlib Axes: for a notebook, and for the
HTML report, which draws each of its plots with these same functions.

Each ``plot_*`` function takes the summary it draws (or the rows that make it), draws on
``ax=`` when given, and returns the Axes it drew on. Without ``ax`` it makes a figure of
the plot's own size in the report's style, fitted to its texts: a pyplot figure when the
user works with pyplot (``matplotlib.pyplot`` is imported), shown by ``plt.show()`` and
by Jupyter's inline backend like any other; otherwise a plain Figure, which changes no
global state, whose Axes a notebook shows as a picture (`ShownAxes._repr_png_`).

=========================  ===========================================================
function                   draws
=========================  ===========================================================
`plot_roc`                 ROC curve, convex hull, chance diagonal, an operating point
`plot_qrecall`             Qrecall against the quota with PEM's areas S1 and S2
`plot_hit_rate`            hit rate against the quota
`plot_lift`                lift by decile (or any number of bins), cumulative lift
`plot_contingency`         the table as a heat map of counts with each cell's payoff
`plot_per_label`           per-label informedness against markedness
`plot_slices`              slices' informedness with intervals against all rows' value
`plot_slices_over_time`    informedness window by window with its interval band
`plot_tally`               a tally's categories with intervals, micro and macro
`plot_reliability`         the CORP reliability diagram with its bands and histogram
`plot_decision_curve`      net benefit of models against treating all and none
=========================  ===========================================================

A comparison's two plots, `informed.plot_differences` (the forest of paired
differences) and `informed.plot_models_roc` (every model's ROC curve), live with the
comparison (`informed.comparison`), a layer above; every plot function is also a
top-level name: ``informed.plot_roc(ranking)``.

Modules: `style` (the one style, colours, margins fitted to the texts), `axes` (the Axes
drawn on, the notebook's view), `inputs` (summaries or rows), `svg` (a drawn figure as
inline SVG for the report), `forest` (the forest every interval plot shares), and one
module per plot family: `roc`, `quotas`, `contingency`, `labels`, `slices`, `tally`,
`calibration`.
"""

from __future__ import annotations

from informed.plots.axes import ShownAxes
from informed.plots.calibration import plot_decision_curve, plot_reliability
from informed.plots.contingency import plot_contingency
from informed.plots.labels import plot_per_label
from informed.plots.quotas import plot_hit_rate, plot_lift, plot_qrecall
from informed.plots.roc import plot_roc
from informed.plots.slices import plot_slices, plot_slices_over_time
from informed.plots.tally import plot_tally

__all__ = [
    "ShownAxes",
    "plot_contingency",
    "plot_decision_curve",
    "plot_hit_rate",
    "plot_lift",
    "plot_per_label",
    "plot_qrecall",
    "plot_reliability",
    "plot_roc",
    "plot_slices",
    "plot_slices_over_time",
    "plot_tally",
]
