"""The plots of a comparison of models: their ROC curves on one plane, and a forest plot
of the paired differences from the best model.

Every value drawn is read from the `Comparison` (`informed.inference.compare`): the
models' Rankings through the library's ROC function, their operating points, and the
bootstrap intervals of the differences. Colours follow Okabe & Ito's palette, a model
keeping its colour in both plots.
"""

from __future__ import annotations

import math

from matplotlib.ticker import MaxNLocator

from informed.inference.comparison import Comparison, measure_title
from informed.measures import MEASURES
from informed.ranking import roc_curve, undefined_reason
from informed.report.plots.figure import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    RED,
    SKY,
    legend_below,
    message_svg,
    named,
    short_label,
    sized_figure,
    style,
    svg,
)
from informed.report.plots.ranking import MAX_POINTS

__all__ = ["MODEL_COLOURS", "forest_svg", "model_colour", "roc_models_svg"]

MODEL_COLOURS = (BLUE, ORANGE, GREEN, RED, SKY, "#CC79A7", "#F0E442", GREY)
"""One colour per model, in the comparison's order (best first); cycled past eight."""


def model_colour(rank: int) -> str:
    """The colour of the model ranked `rank` (1 = best)."""
    return MODEL_COLOURS[(rank - 1) % len(MODEL_COLOURS)]


def roc_models_svg(comparison: Comparison, *, name: str = "plot-compare-roc") -> str:
    """Every model on one ROC plane: the curve of its scores, its operating point (the
    threshold its scores were cut at, or the point of its predicted labels)."""
    fallout, recall = MEASURES["fallout"], MEASURES["recall"]
    title = "ROC curves of the models"
    drawable = [
        m for m in comparison.models.values() if m.ranking is not None or m.table is not None
    ]
    if not drawable:
        return message_svg(name, title, "no model has scores or predictions")
    with style(name):
        figure = sized_figure(5.6, 5.2, left=0.75, right=0.2, bottom=0.6, top=0.4)
        axes = figure.subplots()
        axes.plot(
            [0, 1], [0, 1], color=GREY, linestyle="--", linewidth=1, label="chance", gid="chance"
        )
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
                label = f"{short_label(model.name, 22)} cut"
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
        axes.set_title(title)
        legend_below(axes)
        return svg(figure, name, f"{title}: {len(drawable)} models")


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


def forest_svg(comparison: Comparison, *, name: str = "plot-forest") -> str:
    """Each model's difference from the best, measure by measure, with its interval."""
    title = f"Paired differences from {short_label(comparison.reference, 24)}"
    rows = [
        (model, measure, interval)
        for measure in comparison.measures
        for model, by_measure in comparison.differences.items()
        for interval in [by_measure[measure]]
    ]
    if not rows:
        return message_svg(name, title, "a single model: nothing to compare")
    height = 1.0 + 0.28 * len(rows)
    with style(name):
        # the left margin grows to the longest row label when the figure is fitted (`svg`)
        figure = sized_figure(5.0, height, left=0.3, right=0.25, bottom=0.6, top=0.4)
        axes = figure.subplots()
        axes.axvline(0.0, color=GREY, linewidth=1, linestyle="--", gid="zero")
        labels = []
        for y, (model, measure, interval) in enumerate(reversed(rows)):
            labels.append(f"{measure_title(measure)}: {short_label(model, 16)}")
            rank = comparison.models[model].rank
            if math.isnan(interval.estimate):
                continue
            colour = model_colour(rank)
            if not (math.isnan(interval.low) or math.isnan(interval.high)):
                axes.plot(
                    [interval.low, interval.high],
                    [y, y],
                    color=colour,
                    linewidth=2.2,
                    gid=f"interval-{y}",
                )
            axes.plot(
                [interval.estimate],
                [y],
                marker="o",
                markersize=5,
                color=colour,
                linestyle="none",
                gid=f"estimate-{y}",
            )
        axes.set_yticks(range(len(rows)))
        axes.set_yticklabels(labels)
        axes.set_ylim(-0.6, len(rows) - 0.4)
        axes.grid(axis="y", visible=False)
        axes.xaxis.set_major_locator(MaxNLocator(nbins=6))  # "−0.125" needs room
        axes.set_xlabel(
            f"model − {short_label(comparison.reference, 24)} "
            f"({100 * comparison.level:g} % paired bootstrap interval)"
        )
        axes.set_title(title)
        return svg(figure, name, f"{title}: {len(rows)} differences with intervals")
