"""The quota plots of a ranking: Qrecall with PEM's areas, the hit rate, the lift.

Every value drawn comes from the `Ranking` through the library's quota functions
(Arbel & Rokach 2006); ties count m2/m1 per position, so no curve depends on the row
order. ``draw_*`` draw on a given Axes (the HTML report calls them); ``plot_*`` are the
public functions (see `informed.plots`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.inputs import ranking_of
from informed.plots.roc import MAX_POINTS
from informed.plots.style import BLUE, GREEN, GREY, ORANGE, RED, SKY, legend_below
from informed.ranking import (
    Ranking,
    hit_rate,
    lift_table,
    optimal_qrecall,
    pem,
    qrecall,
    random_qrecall,
    undefined_reason,
)

__all__ = [
    "HIT_RATE_FRAME",
    "LIFT_FRAME",
    "QRECALL_FRAME",
    "draw_hit_rate",
    "draw_lift",
    "draw_qrecall",
    "lift_reason",
    "lift_title",
    "plot_hit_rate",
    "plot_lift",
    "plot_qrecall",
    "quota_reason",
]

QRECALL_FRAME = HIT_RATE_FRAME = Frame(5.0, 4.3, bottom=0.65)
LIFT_FRAME = Frame(5.6, 5.0, bottom=0.65)


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


def quota_reason(ranking: Ranking) -> str | None:
    """Why the quota curves of `ranking` are undefined, or None."""
    if ranking.n == 0:
        return "no data: the ranking is empty"
    return undefined_reason(ranking, "qrecall", float(ranking.n))


def draw_qrecall(axes: Axes, ranking: Ranking) -> str:
    """Draw Qrecall against the quota with the random and optimal orders and PEM's areas
    (`quota_reason(ranking)` is None); return PEM as the title writes it."""
    x = _quotas(ranking)
    model_recall = qrecall(ranking, x)
    random_recall = random_qrecall(ranking, x)
    best_recall = optimal_qrecall(ranking, x)
    value = pem(ranking)
    pem_text = "undefined" if math.isnan(value) else f"{value:.4f}"
    for where, colour, label, gid in (
        (model_recall >= random_recall, GREEN, "S1: above random (adds to PEM)", "pem-above"),
        (model_recall <= random_recall, RED, "S2: below random (subtracts)", "pem-below"),
    ):
        axes.fill_between(
            x,
            model_recall,
            random_recall,
            where=where,
            interpolate=True,
            color=colour,
            alpha=0.25,
            linewidth=0,
            label=label,
            gid=gid,
        )
    axes.plot(
        x, best_recall, color=ORANGE, linestyle="--", label="optimal order", gid="qrecall-optimal"
    )
    axes.plot(
        x, random_recall, color=GREY, linestyle="--", label="random order", gid="qrecall-random"
    )
    axes.plot(x, model_recall, color=BLUE, linewidth=1.8, label="scores", gid="qrecall")
    axes.set_title(f"Qrecall (PEM {pem_text})")
    axes.set_xlabel("quota j (instances taken from the top)")
    axes.set_ylabel("Qrecall(j): share of all positives caught")
    axes.set_xlim(0, float(ranking.n))
    axes.set_ylim(-0.02, 1.02)
    legend_below(axes)
    return pem_text


def draw_hit_rate(axes: Axes, ranking: Ranking) -> None:
    """Draw the hit rate against the quota with the random and optimal orders."""
    x = _quotas(ranking)
    best = hit_rate(_reference(ranking, optimal=True), x)
    axes.plot(x, best, color=ORANGE, linestyle="--", label="optimal order", gid="hit-optimal")
    axes.plot(
        x,
        hit_rate(_reference(ranking, optimal=False), x),
        color=GREY,
        linestyle="--",
        label="random order (prevalence)",
        gid="hit-random",
    )
    axes.plot(x, hit_rate(ranking, x), color=BLUE, linewidth=1.8, label="scores", gid="hit-rate")
    axes.set_title("Hit rate")
    axes.set_xlabel("quota j (instances taken from the top)")
    axes.set_ylabel("hit rate(j): share of positives in the top j")
    axes.set_xlim(0, float(ranking.n))
    axes.set_ylim(-0.02, 1.02)
    legend_below(axes)


def plot_qrecall(
    ranking: Any,
    scores: Any = None,
    *,
    positive: Any = None,
    weights: Any = None,
    ax: Axes | None = None,
) -> Axes:
    """Qrecall against the quota, with the random and optimal orders and PEM's areas.

    Qrecall(j) is the share of all positives among the top j rows (Arbel & Rokach 2006,
    eq. 6). The area between it and the random order is shaded: above (S1, green) adds
    to PEM, below (S2, red) subtracts; PEM = (S1 - S2) / S3 (eq. 14-15).

    Parameters
    ----------
    ranking, scores, positive, weights, ax
        As for `plot_roc`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines with gid "qrecall", "qrecall-random", "qrecall-optimal"; the shaded areas
        (collections) "pem-above" and "pem-below".

    Examples
    --------
    >>> import informed
    >>> ax = informed.plot_qrecall([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1], positive=1)
    >>> ax.get_title()  # PEM = 2 AUC - 1 = 2 (8/9) - 1: 8 of the 9 pairs ordered right
    'Qrecall (PEM 0.7778)'
    >>> sorted(c.get_gid() for c in ax.collections)
    ['pem-above', 'pem-below']
    """
    data = ranking_of("plot_qrecall", ranking, scores, positive, weights)
    with drawing(ax, QRECALL_FRAME, "plot-quota") as axes:
        reason = quota_reason(data)
        if reason is not None:
            draw_message(axes, "Qrecall", reason)
        else:
            draw_qrecall(axes, data)
    return axes


def plot_hit_rate(
    ranking: Any,
    scores: Any = None,
    *,
    positive: Any = None,
    weights: Any = None,
    ax: Axes | None = None,
) -> Axes:
    """The hit rate against the quota, with the random and optimal orders.

    The hit rate at quota j is the share of positives among the top j rows (Arbel &
    Rokach 2006, eq. 4): the prevalence for a random order, 1 up to j = n+ for the
    optimal one. Ties count m2/m1 per position (eq. 5).

    Parameters
    ----------
    ranking, scores, positive, weights, ax
        As for `plot_roc`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines with gid "hit-rate", "hit-random", "hit-optimal".

    Examples
    --------
    >>> import informed
    >>> ax = informed.plot_hit_rate([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1], positive=1)
    >>> [line.get_gid() for line in ax.get_lines()]
    ['hit-optimal', 'hit-random', 'hit-rate']
    """
    data = ranking_of("plot_hit_rate", ranking, scores, positive, weights)
    with drawing(ax, HIT_RATE_FRAME, "plot-quota-hit-rate") as axes:
        reason = quota_reason(data)
        if reason is not None:
            draw_message(axes, "Hit rate", reason)
        else:
            draw_hit_rate(axes, data)
    return axes


def lift_reason(ranking: Ranking) -> str | None:
    """Why the lift of `ranking` is undefined, or None."""
    if ranking.n == 0:
        return "no data: the ranking is empty"
    return undefined_reason(ranking, "lift", float(ranking.n))


def lift_title(bins: int) -> str:
    """The lift plot's title: by decile, or by `bins` bins."""
    return "Lift by decile" if bins == 10 else f"Lift by bin ({bins} bins)"


def draw_lift(axes: Axes, ranking: Ranking, bins: int = 10) -> None:
    """Draw the lift of each bin (bars) with the lift = 1 line and the cumulative lift."""
    table = lift_table(ranking, bins)
    position = np.arange(1, bins + 1)
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
        texts = axes.bar_label(bars, labels=[f"{v:.2f}" for v in table.lift], fontsize=8, padding=3)
        for text in texts:
            text.set_bbox({"facecolor": "white", "edgecolor": "none", "pad": 0.6})
            if bins > 10:  # upright, the labels of narrow bars would run into each other
                text.set(rotation=90, va="bottom", ha="center")
    step = max(1, bins // 10)
    ticks = position[::step]
    axes.set_xticks(ticks, [f"{100 * b / bins:.3g} %" for b in ticks.tolist()])
    axes.set_xlabel("top share of the ranking (bin's upper edge)")
    axes.set_ylabel("lift = bin's rate of positives / overall rate")
    axes.set_title(lift_title(bins))
    finite = [v for v in [*table.lift, *table.cumulative_lift] if math.isfinite(v)]
    room = 1.12 if bins <= 10 else 1.22  # room above the bars for their labels
    axes.set_ylim(0.0, max([1.0, *finite]) * room)
    axes.grid(axis="x", visible=False)
    legend_below(axes, columns=3)


def plot_lift(
    ranking: Any,
    scores: Any = None,
    *,
    positive: Any = None,
    weights: Any = None,
    bins: int = 10,
    ax: Axes | None = None,
) -> Axes:
    """The lift of each bin of the ranking (deciles by default), with the lift = 1 line.

    The lift of a bin is its rate of positives over the overall rate (Arbel & Rokach
    2006, sec. 2.2.5); a tie group cut by a bin edge is shared pro rata, so the bars do
    not depend on the row order. The line is the cumulative lift.

    Parameters
    ----------
    ranking, scores, positive, weights, ax
        As for `plot_roc`.
    bins : int
        Bins of equal size, top first (10: deciles).

    Returns
    -------
    matplotlib.axes.Axes
        One bar (a patch) per bin, lines with gid "chance" and "cumulative".

    Examples
    --------
    >>> import informed
    >>> ax = informed.plot_lift([1, 1, 0, 1, 0, 0, 1, 0, 0, 0], range(10, 0, -1), positive=1)
    >>> len(ax.patches), ax.get_title()
    (10, 'Lift by decile')
    """
    data = ranking_of("plot_lift", ranking, scores, positive, weights)
    if isinstance(bins, bool) or not isinstance(bins, int | np.integer):
        msg = f"`bins` must be a positive integer such as 10; got {bins!r}."
        raise InputTypeError(msg)
    if bins < 1:
        msg = f"`bins` must be a positive integer such as 10; got {bins!r}."
        raise InputError(msg)
    with drawing(ax, LIFT_FRAME, "plot-lift") as axes:
        reason = lift_reason(data)
        if reason is not None:
            draw_message(axes, lift_title(bins), reason)
        else:
            draw_lift(axes, data, bins)
    return axes
