"""The ranking plots: the ROC curve, the quota curves (Qrecall, hit rate) and the lift.

Every value drawn comes from the `Ranking` through the library's curve functions; axis
titles and ranges of contingency measures come from the registry
`informed.measures.MEASURES`. A ranking on which a curve is undefined gets a small figure
saying why instead.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from informed.measures import MEASURES
from informed.ranking import (
    OperatingPoint,
    Ranking,
    auc,
    hit_rate,
    lift_table,
    optimal_qrecall,
    pem,
    qrecall,
    random_qrecall,
    roc_convex_hull,
    roc_curve,
    undefined_reason,
)
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
    sized_figure,
    style,
    svg,
)

__all__ = ["MAX_POINTS", "lift_svg", "quota_svg", "roc_svg"]

MAX_POINTS = 2000
"""Curves are drawn through at most this many points (plus the hull's vertices): a page
of a million-point polylines would be slow to open and no sharper on screen."""


def _thin(size: int, keep: NDArray[np.intp] | None = None) -> NDArray[np.intp]:
    """Indices 0..size-1, evenly thinned to about MAX_POINTS, always keeping `keep`."""
    if size <= MAX_POINTS:
        return np.arange(size)
    index = np.unique(np.linspace(0, size - 1, MAX_POINTS).round().astype(np.intp))
    return index if keep is None else np.union1d(index, keep)


def _quotas(ranking: Ranking) -> NDArray[np.float64]:
    """Quotas to draw at: every integer position for short rankings, an even grid beyond."""
    n = float(ranking.n)
    steps = math.ceil(n) if n <= MAX_POINTS else MAX_POINTS
    return np.linspace(0.0, n, steps + 1)


def _reference(ranking: Ranking, *, optimal: bool) -> Ranking:
    """The same positives and negatives, ordered optimally (all positives first) or at random.

    A random order is, in expectation, one tie group holding every row: the curves of these
    two rankings are the "optimal" and "random" references of Arbel, R. & Rokach, L. (2006),
    "Classifier evaluation under limited resources", Pattern Recognition Letters 27(14),
    Table 5.
    """
    n_positive, n_negative = ranking.n_positive, ranking.n_negative
    groups = (
        [(1.0, n_positive, 0), (0.0, 0, n_negative)] if optimal else [(0.0, n_positive, n_negative)]
    )
    groups = [g for g in groups if g[1] or g[2]]
    scores = np.array([g[0] for g in groups])
    if ranking.weighted:
        return Ranking(
            scores=scores,
            positives=np.array([g[1] for g in groups], dtype=np.float64),
            negatives=np.array([g[2] for g in groups], dtype=np.float64),
        )
    return Ranking(
        scores=scores,
        positives=np.array([g[1] for g in groups], dtype=np.int64),
        negatives=np.array([g[2] for g in groups], dtype=np.int64),
    )


def roc_svg(
    ranking: Ranking,
    *,
    operating_point: tuple[float, float] | None = None,
    threshold: OperatingPoint | None = None,
    name: str = "plot-roc",
) -> str:
    """The ROC curve of `ranking` with its convex hull and the chance diagonal.

    Parameters
    ----------
    ranking : Ranking
    operating_point : (fallout, recall), optional
        A classifier's point to mark on the plane (the evaluated predictions).
    threshold : OperatingPoint, optional
        A threshold on these scores (`Ranking.best_threshold` or `at_threshold`), marked
        where it cuts the curve.
    name : str
        The id of the <svg> element and the prefix of every id inside it.
    """
    fallout, recall = MEASURES["fallout"], MEASURES["recall"]
    title = "ROC curve"
    reason = undefined_reason(ranking, "roc_curve")
    if reason is not None:
        return message_svg(name, title, reason)
    curve = roc_curve(ranking)
    hull = roc_convex_hull(ranking)
    shown = _thin(curve.index.size, hull.index)
    area = auc(ranking)
    with style(name):
        figure = sized_figure(5.2, 5.0, left=0.75, right=0.2, bottom=0.6, top=0.4)
        axes = figure.subplots()
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
        if threshold is not None and not math.isnan(threshold.threshold):
            how = (
                f"best {MEASURES[threshold.measure].title.lower()}"
                if threshold.chosen_by == "best" and threshold.measure in MEASURES
                else "threshold"
            )
            axes.plot(
                [threshold.false_positive_rate],
                [threshold.true_positive_rate],
                linestyle="none",
                marker="o",
                markersize=9,
                markerfacecolor="none",
                markeredgewidth=2,
                color=GREEN,
                label=f"score ≥ {threshold.threshold:.4g} ({how})",
                gid="threshold",
                clip_on=False,
            )
        axes.set_xlim(fallout.low - 0.01, fallout.high + 0.01)
        axes.set_ylim(recall.low - 0.01, recall.high + 0.01)
        axes.set_aspect("equal")
        axes.set_xlabel(named(fallout, "false positive rate"))
        axes.set_ylabel(named(recall, "true positive rate"))
        axes.set_title(title)
        legend_below(axes)
        return svg(figure, name, f"{title}, AUC {area:.4f}")


def quota_svg(ranking: Ranking, *, name: str = "plot-quota") -> str:
    """Qrecall and hit rate against the quota, with random and optimal references: two
    <svg> elements (ids `name` and `name`-hit-rate) in one <div class="pair">.

    The area between Qrecall and the random reference is shaded: above it (S1) adds to
    PEM, below it (S2) subtracts (Arbel & Rokach 2006, "Classifier evaluation under limited
    resources", eq. 14-15).
    """
    title = "Quota curves"
    reason = (
        "no data: the ranking is empty"
        if ranking.n == 0
        else undefined_reason(ranking, "qrecall", float(ranking.n))
    )
    if reason is not None:
        return message_svg(name, title, reason)
    x = _quotas(ranking)
    model_recall = qrecall(ranking, x)
    random_recall = random_qrecall(ranking, x)
    best_recall = optimal_qrecall(ranking, x)
    model_hits = hit_rate(ranking, x)
    random_hits = hit_rate(_reference(ranking, optimal=False), x)
    best_hits = hit_rate(_reference(ranking, optimal=True), x)
    value = pem(ranking)
    pem_text = "undefined" if math.isnan(value) else f"{value:.4f}"
    # two figures side by side that wrap one under the other on a narrow screen
    with style(name):
        figure = sized_figure(5.0, 4.3, left=0.75, right=0.2, bottom=0.65, top=0.4)
        left = figure.subplots()
        left.fill_between(
            x,
            model_recall,
            random_recall,
            where=model_recall >= random_recall,
            interpolate=True,
            color=GREEN,
            alpha=0.25,
            linewidth=0,
            label="S1: above random (adds to PEM)",
            gid="pem-above",
        )
        left.fill_between(
            x,
            model_recall,
            random_recall,
            where=model_recall <= random_recall,
            interpolate=True,
            color=RED,
            alpha=0.25,
            linewidth=0,
            label="S2: below random (subtracts)",
            gid="pem-below",
        )
        left.plot(
            x,
            best_recall,
            color=ORANGE,
            linestyle="--",
            label="optimal order",
            gid="qrecall-optimal",
        )
        left.plot(
            x, random_recall, color=GREY, linestyle="--", label="random order", gid="qrecall-random"
        )
        left.plot(x, model_recall, color=BLUE, linewidth=1.8, label="scores", gid="qrecall")
        left.set_title(f"Qrecall (PEM {pem_text})")
        left.set_xlabel("quota j (instances taken from the top)")
        left.set_ylabel("Qrecall(j): share of all positives caught")
        left.set_xlim(0, float(ranking.n))
        left.set_ylim(-0.02, 1.02)
        legend_below(left)
        qrecall_svg = svg(figure, name, f"Qrecall against the quota, PEM {pem_text}")
    hits_name = f"{name}-hit-rate"
    with style(hits_name):
        figure = sized_figure(5.0, 4.3, left=0.75, right=0.2, bottom=0.65, top=0.4)
        right = figure.subplots()
        right.plot(
            x, best_hits, color=ORANGE, linestyle="--", label="optimal order", gid="hit-optimal"
        )
        right.plot(
            x,
            random_hits,
            color=GREY,
            linestyle="--",
            label="random order (prevalence)",
            gid="hit-random",
        )
        right.plot(x, model_hits, color=BLUE, linewidth=1.8, label="scores", gid="hit-rate")
        right.set_title("Hit rate")
        right.set_xlabel("quota j (instances taken from the top)")
        right.set_ylabel("hit rate(j): share of positives in the top j")
        right.set_xlim(0, float(ranking.n))
        right.set_ylim(-0.02, 1.02)
        legend_below(right)
        hits_svg = svg(figure, hits_name, "Hit rate against the quota")
    return f'<div class="pair">{qrecall_svg}{hits_svg}</div>'


def lift_svg(ranking: Ranking, *, bins: int = 10, name: str = "plot-lift") -> str:
    """Lift of each bin of the ranking (deciles by default), with the lift = 1 line."""
    title = "Lift by decile" if bins == 10 else f"Lift by bin ({bins} bins)"
    reason = (
        "no data: the ranking is empty"
        if ranking.n == 0
        else undefined_reason(ranking, "lift", float(ranking.n))
    )
    if reason is not None:
        return message_svg(name, title, reason)
    table = lift_table(ranking, bins)
    position = np.arange(1, bins + 1)
    with style(name):
        figure = sized_figure(5.6, 5.0, left=0.75, right=0.2, bottom=0.65, top=0.4)
        axes = figure.subplots()
        bars = axes.bar(position, table.lift, color=SKY, edgecolor=BLUE, label="lift of the bin")
        axes.axhline(
            1.0, color=GREY, linestyle="--", linewidth=1.2, label="chance: lift 1", gid="chance"
        )
        axes.plot(
            position,
            table.cumulative_lift,
            color=ORANGE,
            marker="o",
            markersize=4,
            label="cumulative lift",
            gid="cumulative",
        )
        if bins <= 20:
            # on a white ground: the cumulative line often runs through the tops of the bars
            texts = axes.bar_label(
                bars, labels=[f"{v:.2f}" for v in table.lift], fontsize=8, padding=3
            )
            for text in texts:
                text.set_bbox({"facecolor": "white", "edgecolor": "none", "pad": 0.6})
                if bins > 10:  # upright, the labels of narrow bars would run into each other
                    text.set(rotation=90, va="bottom", ha="center")
        step = max(1, bins // 10)
        ticks = position[::step]
        axes.set_xticks(ticks, [f"{100 * b / bins:.3g} %" for b in ticks.tolist()])
        axes.set_xlabel("top share of the ranking (bin's upper edge)")
        axes.set_ylabel("lift = bin's rate of positives / overall rate")
        axes.set_title(title)
        finite = [v for v in [*table.lift, *table.cumulative_lift] if math.isfinite(v)]
        room = 1.12 if bins <= 10 else 1.22  # room above the bars for their labels
        axes.set_ylim(0.0, max([1.0, *finite]) * room)
        axes.grid(axis="x", visible=False)
        legend_below(axes, columns=3)
        return svg(figure, name, title)
