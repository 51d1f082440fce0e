"""The plots of a comparison of models: their ROC curves on one plane, and a forest plot
of the paired differences from the best model.

Every value drawn is read from the `Comparison` (`informed.compare`): the models'
Rankings through the library's ROC function, their operating points, and the bootstrap
intervals of the differences. Colours follow Okabe & Ito's palette, a model keeping its
colour in both plots. ``draw_*`` draw on a given Axes (the HTML report calls them);
``plot_*`` are the public functions (`informed.plot_differences`,
`informed.plot_models_roc`; see `informed.plots` for the Axes they draw on).
"""

from __future__ import annotations

import math
from typing import Any

from matplotlib.axes import Axes

from informed.comparison.result import Comparison, measure_title
from informed.errors import InputTypeError
from informed.measures import MEASURES
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.forest import ForestRow, Reference, draw_forest, forest_frame
from informed.plots.roc import MAX_POINTS
from informed.plots.style import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    PINK,
    RED,
    SKY,
    YELLOW,
    legend_below,
    named,
    short_label,
)
from informed.ranking import roc_curve, undefined_reason

__all__ = [
    "MODELS_ROC_FRAME",
    "MODEL_COLOURS",
    "differences_frame",
    "differences_title",
    "draw_differences",
    "draw_models_roc",
    "model_colour",
    "models_roc_reason",
    "plot_differences",
    "plot_models_roc",
]

MODEL_COLOURS = (BLUE, ORANGE, GREEN, RED, SKY, PINK, YELLOW, GREY)
"""One colour per model, in the comparison's order (best first); cycled past eight."""

MODELS_ROC_FRAME = Frame(5.6, 5.2)


def model_colour(rank: int) -> str:
    """The colour of the model ranked `rank` (1 = best)."""
    return MODEL_COLOURS[(rank - 1) % len(MODEL_COLOURS)]


def _comparison(function: str, comparison: Any) -> Comparison:
    if not isinstance(comparison, Comparison):
        msg = (
            f"{function}() draws a comparison of models: pass the result of "
            f"`informed.compare(actual, predicted, scores=...)`; got {type(comparison).__name__}."
        )
        raise InputTypeError(msg)
    return comparison


def models_roc_reason(comparison: Comparison) -> str | None:
    """Why no model of `comparison` can be drawn on the ROC plane, or None."""
    drawable = [
        m for m in comparison.models.values() if m.ranking is not None or m.table is not None
    ]
    return None if drawable else "no model has scores or predictions"


def draw_models_roc(axes: Axes, comparison: Comparison) -> int:
    """Draw every model on one ROC plane: the curve of its scores, its operating point
    (the threshold its scores were cut at, or the point of its predicted labels); return
    how many models were drawn."""
    fallout, recall = MEASURES["fallout"], MEASURES["recall"]
    drawable = [
        m for m in comparison.models.values() if m.ranking is not None or m.table is not None
    ]
    axes.plot([0, 1], [0, 1], color=GREY, linestyle="--", linewidth=1, label="chance", gid="chance")
    marked = False
    for model in drawable:
        colour = model_colour(model.rank)
        label = short_label(model.name, 22)
        ranking = model.ranking
        if ranking is not None and undefined_reason(ranking, "roc_curve") is None:
            curve = roc_curve(ranking)
            step = max(1, curve.index.size // MAX_POINTS)
            area = model.measures.get("auc", math.nan)
            suffix = f" (AUC {area:.3f})" if not math.isnan(area) else ""
            axes.plot(
                curve.false_positive_rate[::step],
                curve.true_positive_rate[::step],
                color=colour,
                linewidth=1.6,
                label=label + suffix,
                gid=f"curve-{model.rank}",
            )
        point = _point(model)
        if point is not None:
            axes.plot(
                [point[0]],
                [point[1]],
                linestyle="none",
                marker="D",
                markersize=7,
                markeredgecolor="white",
                color=colour,
                label=label if ranking is None else None,
                gid=f"point-{model.rank}",
                clip_on=False,  # whole, also at the edge of the plane
            )
            marked = marked or ranking is not None
    if marked:
        cut = any(m.threshold is not None for m in drawable)
        axes.plot(
            [],
            [],
            linestyle="none",
            marker="D",
            color=GREY,
            label="cut at its threshold" if cut else "its predicted labels",
        )
    axes.set_xlim(-0.01, 1.01)
    axes.set_ylim(-0.01, 1.01)
    axes.set_aspect("equal")
    axes.set_xlabel(named(fallout, "false positive rate"))
    axes.set_ylabel(named(recall, "true positive rate"))
    axes.set_title("ROC curves of the models")
    legend_below(axes)
    return len(drawable)


def _point(model: object) -> tuple[float, float] | None:
    """(false positive rate, true positive rate) of a model's 2x2 table, if it has one."""
    threshold = getattr(model, "threshold", None)
    if threshold is not None:
        return threshold.false_positive_rate, threshold.true_positive_rate
    table = getattr(model, "table", None)
    if table is None or table.shape != (2, 2) or table.predicted != table.actual:
        return None
    (tp, fp), (fn, tn) = table.counts.tolist()
    if tp + fn == 0 or fp + tn == 0:
        return None
    return fp / (fp + tn), tp / (tp + fn)


def plot_models_roc(comparison: Any, *, ax: Axes | None = None) -> Axes:
    """Every model of a comparison on one ROC plane, each in its colour.

    Parameters
    ----------
    comparison : Comparison
        The result of `informed.compare`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per model ranked r, the curve of its scores (a line with gid "curve-<r>") and its
        operating point (gid "point-<r>": the threshold its scores were cut at, or its
        predicted labels); the chance diagonal (gid "chance").

    Examples
    --------
    >>> import informed
    >>> y = [1, 1, 0, 0, 1, 0] * 5
    >>> result = informed.compare(y, scores={"a": [6, 5, 4, 3, 2, 1] * 5,
    ...                                      "b": [1, 6, 2, 5, 3, 4] * 5},
    ...                           positive=1, replicates=20, permutations=9, seed=0)
    >>> ax = informed.plot_models_roc(result)
    >>> sorted(g for g in (line.get_gid() for line in ax.get_lines()) if g)
    ['chance', 'curve-1', 'curve-2']
    """
    data = _comparison("plot_models_roc", comparison)
    with drawing(ax, MODELS_ROC_FRAME, "plot-compare-roc") as axes:
        reason = models_roc_reason(data)
        if reason is not None:
            draw_message(axes, "ROC curves of the models", reason)
        else:
            draw_models_roc(axes, data)
    return axes


def _rows(comparison: Comparison) -> list[tuple[str, str, Any]]:
    return [
        (model, measure, interval)
        for measure in comparison.measures
        for model, by_measure in comparison.differences.items()
        for interval in [by_measure[measure]]
    ]


def differences_title(comparison: Comparison) -> str:
    """The title of the forest of differences."""
    return f"Paired differences from {short_label(comparison.reference, 24)}"


def differences_frame(comparison: Comparison) -> Frame:
    """The forest's figure: a quarter inch per (model, measure)."""
    return forest_frame(len(_rows(comparison)))


def draw_differences(axes: Axes, comparison: Comparison) -> int:
    """Draw each model's difference from the best, measure by measure, with its paired
    bootstrap interval, against 0; return how many differences were drawn."""
    rows = [
        ForestRow(
            f"{measure_title(measure)}: {short_label(model, 16)}",
            interval.estimate,
            interval.low,
            interval.high,
            colour=model_colour(comparison.models[model].rank),
        )
        for model, measure, interval in _rows(comparison)
    ]
    draw_forest(
        axes,
        rows,
        [Reference(0.0, "zero")],
        xlabel=f"model − {short_label(comparison.reference, 24)} "
        f"({100 * comparison.level:g} % paired bootstrap interval)",
        title=differences_title(comparison),
    )
    return len(rows)


def plot_differences(comparison: Any, *, ax: Axes | None = None) -> Axes:
    """A forest plot of each model's paired difference from the best model.

    Parameters
    ----------
    comparison : Comparison
        The result of `informed.compare`: the differences are model − best, measure by
        measure, with paired bootstrap intervals (the cases resampled once for all
        models; Efron & Tibshirani 1993).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per row (y counted from the bottom) the difference (a line with gid
        "estimate-<y>") and its interval ("interval-<y>"), in the model's colour; the
        zero line (gid "zero"). A bar that misses 0 is a difference beyond resampling
        noise.

    Examples
    --------
    >>> import informed
    >>> y = [1, 1, 0, 0] * 10
    >>> result = informed.compare(y, {"a": [1, 1, 0, 1] * 10, "b": [1, 0, 0, 1] * 10},
    ...                           positive=1, replicates=50, permutations=9, seed=0)
    >>> ax = informed.plot_differences(result)
    >>> [t.get_text() for t in ax.get_yticklabels()][-2:]  # bottom to top: the top rows
    ['Markedness: b', 'Informedness: b']
    """
    data = _comparison("plot_differences", comparison)
    with drawing(ax, differences_frame(data), "plot-forest") as axes:
        if not _rows(data):
            draw_message(axes, differences_title(data), "a single model: nothing to compare")
        else:
            draw_differences(axes, data)
    return axes
