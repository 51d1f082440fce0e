"""The plots of a comparison of models: their ROC curves on one plane, a forest plot of
the paired differences from the best model, and the difference in net benefit from it at
every threshold probability with its paired band.

Every value drawn is read from the `Comparison` (`informed.compare`): the models'
Rankings through the library's ROC function, their operating points, and the bootstrap
intervals of the differences. Colours follow Okabe & Ito's palette, a model keeping its
colour in every plot. ``draw_*`` draw on a given Axes (the HTML report calls them);
``plot_*`` are the public functions (`informed.plot_differences`,
`informed.plot_models_roc`, `informed.plot_net_benefit_difference`; see `informed.plots`
for the Axes they draw on).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from informed.comparison.net_benefit import NetBenefitDifference
from informed.comparison.result import Comparison, measure_title
from informed.errors import InputError, InputTypeError
from informed.measures import MEASURES
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.calibration import CALIBRATION_FRAME
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
    short_labels,
)
from informed.ranking import roc_curve, undefined_reason

__all__ = [
    "MODELS_ROC_FRAME",
    "MODEL_COLOURS",
    "differences_frame",
    "differences_title",
    "draw_differences",
    "draw_models_roc",
    "draw_net_benefit_difference",
    "model_colour",
    "models_roc_reason",
    "plot_differences",
    "plot_models_roc",
    "plot_net_benefit_difference",
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
    labels = short_labels([model.name for model in drawable], 22)
    for model, label in zip(drawable, labels, strict=True):
        colour = model_colour(model.rank)
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


def _net_benefit_differences(function: str, result: Any) -> list[tuple[NetBenefitDifference, str]]:
    """(difference, colour) of each model against the reference: every one of a
    Comparison, or one NetBenefitDifference."""
    if isinstance(result, NetBenefitDifference):
        return [(result, model_colour(2))]
    data = _comparison(function, result)
    if not data.net_benefit:
        msg = (
            f"{function}() draws the difference in net benefit, which this comparison does "
            f"not hold: {data.net_benefit_reason}."
        )
        raise InputError(msg)
    return [
        (found, model_colour(data.models[name].rank)) for name, found in data.net_benefit.items()
    ]


def draw_net_benefit_difference(
    axes: Axes, differences: list[tuple[NetBenefitDifference, str]]
) -> int:
    """Draw each difference NB(model) - NB(reference) ("difference-<i>") with its paired
    band ("band-<i>") against 0 ("zero"); return how many were drawn."""
    axes.axhline(0.0, color="black", linewidth=1.0, label="no difference", gid="zero")
    shown: list[float] = []
    for index, (found, colour) in enumerate(differences):
        low, high = found.bands["difference"]
        percent = f"{100 * found.level:g} %"
        axes.fill_between(
            found.thresholds, low, high, color=colour, alpha=0.2, linewidth=0,
            gid=f"band-{index}",
        )  # fmt: skip
        axes.plot(
            found.thresholds,
            found.difference,
            color=colour,
            linewidth=1.8,
            label=f"{short_label(found.model, 18)} − {short_label(found.reference, 18)}",
            gid=f"difference-{index}",
        )
        # the scale follows the band up to p_t = 0.9: past it a false positive costs odds
        # of 9 and more, and one case moves the difference further than the plot is tall
        inside = found.thresholds <= 0.9
        shown += [float(np.nanmin(low[inside], initial=0.0))]
        shown += [float(np.nanmax(high[inside], initial=0.0))]
    first = differences[0][0]
    # one grey key for the bands, each drawn in its model's colour
    axes.fill_between([], [], color=GREY, alpha=0.3, linewidth=0, label=f"{percent} paired band")
    prevalence = first.n_positive / first.n if first.n else 1.0
    bottom = max(min(shown), -prevalence)
    top = min(max(shown), prevalence)
    margin = 0.1 * max(top - bottom, 0.01)
    axes.set_ylim(bottom - margin, top + margin)
    last = float(first.thresholds[-1]) if first.thresholds.size else 1.0
    axes.set_xlim(0.0, last)
    axes.set_xlabel("threshold probability p_t (act when score >= p_t)")
    axes.set_ylabel("difference in net benefit per row")
    axes.set_title(f"Net benefit against {short_label(first.reference, 24)}")
    legend_below(axes)
    return len(differences)


def plot_net_benefit_difference(result: Any, *, ax: Axes | None = None) -> Axes:
    """The difference in net benefit between models on the same cases, with its paired
    bootstrap band, at every threshold probability (Vickers & Elkin 2006).

    Parameters
    ----------
    result : Comparison or NetBenefitDifference
        The result of `informed.compare` whose scores are probabilities (each model against
        the best one, in its colour), or of
        `informed.comparison.net_benefit_difference` (two models).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per difference i the line NB(model) - NB(reference) (gid "difference-<i>") and
        its pointwise band ("band-<i>"), the cases resampled once for both models; the
        zero line ("zero"): above it the model is worth more than the reference when
        acting on the rows scored at least p_t.

    Examples
    --------
    >>> import informed
    >>> y = [1, 1, 0, 0, 1, 0] * 10
    >>> result = informed.compare(y, scores={"a": [.9, .8, .3, .2, .6, .1] * 10,
    ...                                      "b": [.9, .4, .5, .2, .6, .1] * 10},
    ...                           positive=1, replicates=50, permutations=9, seed=0)
    >>> ax = informed.plot_net_benefit_difference(result)
    >>> sorted(line.get_gid() for line in ax.get_lines())
    ['difference-0', 'zero']
    """
    differences = _net_benefit_differences("plot_net_benefit_difference", result)
    with drawing(ax, CALIBRATION_FRAME, "plot-net-benefit-difference") as axes:
        draw_net_benefit_difference(axes, differences)
    return axes
