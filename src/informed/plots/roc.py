"""The ROC plot of a ranking: its curve, convex hull, chance diagonal and operating points.

Every value drawn comes from the `Ranking` through the library's curve functions; axis
titles and ranges come from the registry `informed.measures.MEASURES`. `draw_roc` draws
on a given Axes (the HTML report calls it); `plot_roc` is the public function (see
`informed.plots`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.text import Text
from numpy.typing import NDArray

from informed.errors import InputTypeError
from informed.measures import MEASURES
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.inputs import ranking_of
from informed.plots.style import BLUE, GREEN, GREY, ORANGE, RED, legend_below, named, short_label
from informed.ranking import (
    OperatingPoint,
    Ranking,
    auc,
    roc_convex_hull,
    roc_curve,
    undefined_reason,
)

__all__ = ["MAX_POINTS", "ROC_FRAME", "draw_roc", "plot_roc", "threshold_label"]

MAX_POINTS = 2000
"""Curves are drawn through at most this many points (plus the hull's vertices): a page
of a million-point polylines would be slow to open and no sharper on screen."""

ROC_FRAME = Frame(5.2, 5.0)


def _thin(size: int, keep: NDArray[np.intp] | None = None) -> NDArray[np.intp]:
    """Indices 0..size-1, evenly thinned to about MAX_POINTS, always keeping `keep`."""
    if size <= MAX_POINTS:
        return np.arange(size)
    index = np.unique(np.linspace(0, size - 1, MAX_POINTS).round().astype(np.intp))
    return index if keep is None else np.union1d(index, keep)


def threshold_label(threshold: OperatingPoint) -> str:
    """The legend's name of an operating point: "score ≥ 0.42 (best informedness)"."""
    how = (
        f"best {MEASURES[threshold.measure].title.lower()}"
        if threshold.chosen_by == "best" and threshold.measure in MEASURES
        else "threshold"
    )
    return f"score ≥ {threshold.threshold:.4g} ({how})"


def _operating_point(ranking: Ranking, threshold: Any) -> OperatingPoint | None:
    """`threshold` as an operating point of `ranking`: itself, or the cut at a number."""
    if threshold is None or isinstance(threshold, OperatingPoint):
        return threshold
    if isinstance(threshold, bool) or not isinstance(threshold, int | float | np.number):
        msg = (
            "`threshold` must be a number (rows scored at least it are predicted positive) "
            f"or an OperatingPoint (`ranking.best_threshold()`); got {type(threshold).__name__}."
        )
        raise InputTypeError(msg)
    return ranking.at_threshold(float(threshold))


def draw_roc(
    axes: Axes,
    ranking: Ranking,
    *,
    operating_point: tuple[float, float] | None = None,
    threshold: OperatingPoint | None = None,
    threshold_name: str | None = None,
) -> Text | None:
    """Draw the ROC curve of `ranking` (defined: `undefined_reason(ranking, "roc_curve")`
    is None) with its convex hull, the chance diagonal, the point of evaluated predictions
    and the threshold's point, named `threshold_name` in the legend (by default
    `threshold_label`); return the threshold's legend text (gid "threshold-label")."""
    fallout, recall = MEASURES["fallout"], MEASURES["recall"]
    curve = roc_curve(ranking)
    hull = roc_convex_hull(ranking)
    shown = _thin(curve.index.size, hull.index)
    area = auc(ranking)
    axes.plot(
        [fallout.low, fallout.high],
        [recall.low, recall.high],
        color=GREY,
        linestyle="--",
        linewidth=1,
        label="chance (informedness 0, AUC 0.5)",
        gid="chance",
    )
    axes.plot(
        hull.false_positive_rate,
        hull.true_positive_rate,
        color=ORANGE,
        linewidth=2.2,
        label="convex hull",
        gid="hull",
    )
    few = curve.index.size <= 60
    axes.plot(
        curve.false_positive_rate[shown],
        curve.true_positive_rate[shown],
        color=BLUE,
        linewidth=1.6,
        marker="o" if few else None,
        markersize=3,
        label=f"scores (AUC {area:.4f})",
        gid="curve",
    )
    if operating_point is not None and all(map(math.isfinite, operating_point)):
        axes.plot(
            [operating_point[0]],
            [operating_point[1]],
            linestyle="none",
            marker="D",
            markersize=7,
            color=RED,
            label="evaluated predictions",
            gid="operating-point",
            clip_on=False,  # whole, also at the edge of the plane
        )
    marked = threshold is not None and not math.isnan(threshold.threshold)
    if threshold is not None and marked:
        axes.plot(
            [threshold.false_positive_rate],
            [threshold.true_positive_rate],
            linestyle="none",
            marker="o",
            markersize=9,
            markerfacecolor="none",
            markeredgewidth=2,
            color=GREEN,
            label=threshold_label(threshold) if threshold_name is None else threshold_name,
            gid="threshold",
            clip_on=False,
        )
    axes.set_xlim(fallout.low - 0.01, fallout.high + 0.01)
    axes.set_ylim(recall.low - 0.01, recall.high + 0.01)
    axes.set_aspect("equal")
    axes.set_xlabel(named(fallout, "false positive rate"))
    axes.set_ylabel(named(recall, "true positive rate"))
    # the class the curve is about, as scikit-learn's RocCurveDisplay says it
    positive = short_label(ranking.positive, 24)
    axes.set_title(f"ROC curve (positive: {positive})")
    legend = legend_below(axes)
    if not marked:
        return None
    text: Text = legend.get_texts()[-1]
    text.set_gid("threshold-label")
    return text


def plot_roc(
    ranking: Any,
    scores: Any = None,
    *,
    positive: Any = None,
    weights: Any = None,
    threshold: Any = None,
    operating_point: tuple[float, float] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """The ROC curve with its convex hull, the chance diagonal and an operating point.

    Parameters
    ----------
    ranking : Ranking or array-like
        A `Ranking`, or the actual classes of the rows (then `scores` and `positive`).
    scores : array-like, optional
        The rows' scores, when `ranking` holds their actual classes.
    positive : label, optional
        The class high scores point to, when built from rows.
    weights : array-like, optional
        Frequency weights of the rows, when built from rows.
    threshold : float or OperatingPoint, optional
        A threshold to mark on the curve: a number (rows scored at least it are predicted
        positive, `Ranking.at_threshold`) or an operating point (`Ranking.best_threshold`).
    operating_point : (fallout, recall), optional
        The point of some predicted labels, marked as a red diamond.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on: lines with gid "chance", "hull", "curve", "threshold" and
        "operating-point"; the reason instead when the curve is undefined (no actual
        positives or no actual negatives).

    Notes
    -----
    Each point is a threshold (fallout, recall); a tie group is one straight segment
    (the fraction-of-positives correction), so no curve depends on the row order. The
    height of a point above the diagonal is the informedness of that threshold (Powers
    2011); the hull joins the thresholds optimal for some costs and priors (Provost &
    Fawcett 2001). At most `MAX_POINTS` points are drawn (and every vertex of the hull).

    Examples
    --------
    >>> import informed
    >>> r = informed.Ranking.from_scores([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1], positive=1)
    >>> ax = informed.plot_roc(r, threshold=r.best_threshold())
    >>> sorted(line.get_gid() for line in ax.get_lines())
    ['chance', 'curve', 'hull', 'threshold']
    >>> ax = informed.plot_roc([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1], positive=1, threshold=0.5)
    """
    data = ranking_of("plot_roc", ranking, scores, positive, weights)
    point = _operating_point(data, threshold)
    with drawing(ax, ROC_FRAME, "plot-roc") as axes:
        reason = undefined_reason(data, "roc_curve")
        if reason is not None:
            draw_message(axes, "ROC curve", reason)
        else:
            draw_roc(axes, data, operating_point=operating_point, threshold=point)
    return axes
