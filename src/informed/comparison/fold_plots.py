"""The plot of two models compared across cross-validation folds: per measure, each
fold's difference (b - a) drawn beside the mean difference with its corrected interval
(Nadeau & Bengio's corrected resampled t), and the naive paired t interval, thinner,
for contrast.

Every value drawn is read from the `FoldComparison`
(`informed.comparison.compare_folds`). ``draw_fold_differences`` draws on a given Axes
(the HTML report calls it); ``plot_fold_differences`` is the public function
(`informed.plot_fold_differences`; see `informed.plots` for the Axes it draws on).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from informed.comparison.folds import FoldComparison
from informed.comparison.result import measure_title
from informed.errors import InputTypeError
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.forest import ForestRow, Reference, draw_forest
from informed.plots.style import BLUE, GREY, ORANGE, legend_below, short_label, short_labels

__all__ = [
    "draw_fold_differences",
    "fold_differences_frame",
    "fold_differences_reason",
    "fold_differences_title",
    "plot_fold_differences",
]

_FOLDS_BELOW = 0.24
"""How far under a measure's row its folds' differences are drawn (in rows)."""
_NAIVE_ABOVE = 0.2
"""How far over a measure's row the naive interval is drawn (in rows)."""


def _fold_comparison(comparison: Any) -> FoldComparison:
    if not isinstance(comparison, FoldComparison):
        msg = (
            "plot_fold_differences() draws a comparison across folds: pass the result of "
            f"`informed.comparison.compare_folds(a, b)`; got {type(comparison).__name__}."
        )
        raise InputTypeError(msg)
    return comparison


def fold_differences_title(comparison: FoldComparison) -> str:
    """The plot's title."""
    a, b = short_labels(comparison.names, 20)
    return f"{b} − {a} across {len(comparison.folds)} folds"


def fold_differences_frame(comparison: FoldComparison) -> Frame:
    """Half an inch per measure: its row, its folds' dots under it, the naive bar over it."""
    return Frame(5.4, 1.4 + 0.5 * max(len(comparison.measures), 1), left=0.3, right=0.25)


def fold_differences_reason(comparison: FoldComparison) -> str | None:
    """Why nothing can be drawn (every measure undefined in some fold), or None."""
    drawable = [m for m in comparison.measures if not np.isnan(comparison.differences[m]).all()]
    return None if drawable else "every measure is undefined in every fold of a model"


def draw_fold_differences(axes: Axes, comparison: FoldComparison) -> int:
    """Draw, measure by measure (the first on top), each fold's difference as a dot (gid
    "folds-<y>"), the mean difference with the corrected interval ("estimate-<y>",
    "interval-<y>") and the naive interval ("naive-<y>"), against 0; return how many
    measures were drawn."""
    rows = []
    for m in comparison.measures:
        corrected = comparison.tests[m]["corrected"].interval
        low = math.nan if corrected is None else corrected.low
        high = math.nan if corrected is None else corrected.high
        mean = float(np.mean(comparison.differences[m]))
        rows.append(ForestRow(measure_title(m), mean, low, high, colour=BLUE))
    level = f"{100 * comparison.level:g} %"
    draw_forest(
        axes,
        rows,
        [Reference(0.0, "zero")],
        xlabel=f"{short_label(comparison.names[1], 20)} − {short_label(comparison.names[0], 20)}",
        title=fold_differences_title(comparison),
    )
    count = len(comparison.measures)
    for i, m in enumerate(comparison.measures):
        y = count - 1 - i  # draw_forest counts rows from the bottom
        d = comparison.differences[m]
        shown = d[~np.isnan(d)]
        axes.plot(
            shown,
            np.full(shown.size, y - _FOLDS_BELOW),
            linestyle="none",
            marker="|",
            markersize=7,
            color=GREY,
            alpha=0.8,
            gid=f"folds-{y}",
            label="each fold's difference" if i == 0 else None,
        )
        naive = comparison.tests[m]["naive"].interval
        if naive is not None and not math.isnan(naive.low):
            axes.plot(
                [naive.low, naive.high],
                [y + _NAIVE_ABOVE] * 2,
                color=ORANGE,
                linewidth=1.2,
                gid=f"naive-{y}",
                label=f"naive paired t {level} (too narrow)" if i == 0 else None,
            )
    # the legend's entries for the forest's own artists, drawn unlabelled
    axes.plot([], [], color=BLUE, linewidth=2.2, marker="o", markersize=5,
              label=f"mean, corrected t {level} (Nadeau & Bengio 2003)")  # fmt: skip
    axes.set_ylim(-0.6, count - 0.4)
    legend_below(axes, columns=1)
    return count


def plot_fold_differences(comparison: Any, *, ax: Axes | None = None) -> Axes:
    """Two models across the same folds: each fold's difference beside the corrected
    interval of their mean.

    Parameters
    ----------
    comparison : FoldComparison
        The result of `informed.comparison.compare_folds(a, b)`: per measure, the per-fold
        differences b - a and the corrected resampled t interval of their mean (Nadeau &
        Bengio 2003), which counts the variance that retraining on overlapping training
        sets adds.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per measure (row y counted from the bottom, the first measure on top) the folds'
        differences as ticks under the row (a line with gid "folds-<y>"), the mean
        difference ("estimate-<y>") with its corrected interval ("interval-<y>"), and
        the naive paired t interval over the row ("naive-<y>"), narrower because it
        takes the folds for independent samples; the zero line (gid "zero").

    Examples
    --------
    >>> import informed
    >>> from informed.comparison import compare_folds
    >>> from informed.slices import Folds
    >>> fold, y = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3] * 5, [1, 0, 1, 0] * 15
    >>> a = Folds.from_labels(folds=fold, actual=y, predicted=[1, 1, 1, 0] * 15)
    >>> b = Folds.from_labels(folds=fold, actual=y, predicted=[1, 0, 1, 0] * 14 + [0] * 4)
    >>> ax = informed.plot_fold_differences(compare_folds(a, b, positive=1))
    >>> [t.get_text() for t in ax.get_yticklabels()]  # bottom to top
    ['Markedness', 'Informedness']
    """
    data = _fold_comparison(comparison)
    with drawing(ax, fold_differences_frame(data), "plot-fold-differences") as axes:
        reason = fold_differences_reason(data)
        if reason is not None:
            draw_message(axes, fold_differences_title(data), reason)
        else:
            draw_fold_differences(axes, data)
    return axes
