"""Each label's informedness against its markedness: the per-label scatter.

Every value drawn comes from the `Evaluation`'s per-label columns; axis titles and
ranges come from the registry `informed.measures.MEASURES`. `draw_per_label` draws on a
given Axes (the HTML report calls it); `plot_per_label` is the public function (see
`informed.plots`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from matplotlib.axes import Axes
from matplotlib.transforms import Bbox

from informed.coding.labels import Label, as_label, keyed
from informed.measures import MEASURES
from informed.plots.axes import Frame, drawing
from informed.plots.contingency import label_index
from informed.plots.inputs import evaluation_of
from informed.plots.style import (
    BLUE,
    GREY,
    ORANGE,
    legend_below,
    measurable,
    named,
    root_figure,
    short_label,
)
from informed.table.evaluation import Evaluation
from informed.table.frequent import top_labels
from informed.table.per_label import LabelValues

__all__ = ["LABELS_FRAME", "MAX_SCATTER_LABELS", "NAMED_LABELS", "draw_per_label", "plot_per_label"]

MAX_SCATTER_LABELS = 2000
"""The per-label scatter draws at most this many labels (the most frequent): beyond, the
points hide each other and the page grows by a path per label."""

NAMED_LABELS = 30
"""`plot_per_label` names at most this many points by default, the most frequent labels'."""

LABELS_FRAME = Frame(5.6, 5.4)  # a 4.4 in square


def _points(
    evaluation: Evaluation, drawn: Sequence[int] | None
) -> list[tuple[Label, float, float]]:
    """(label, B, M) of the labels at positions `drawn` (None: every label) whose B and
    M are both defined, read from the per-label columns."""
    labels = evaluation.table.labels
    per_label = evaluation.per_label
    index = range(len(labels)) if drawn is None else drawn
    if isinstance(per_label, LabelValues):
        b = per_label.column("informedness")
        m = per_label.column("markedness")
        pairs = [(labels[k], float(b[k]), float(m[k])) for k in index]
    else:
        pairs = [
            (labels[k], per_label[labels[k]]["informedness"], per_label[labels[k]]["markedness"])
            for k in index
        ]
    return [p for p in pairs if math.isfinite(p[1]) and math.isfinite(p[2])]


def draw_per_label(
    axes: Axes,
    evaluation: Evaluation,
    annotate: Sequence[Label],
    *,
    drawn: Sequence[int] | None = None,
) -> str:
    """Draw per-label informedness (x) against markedness (y), with the B = M diagonal
    and the overall value; return the title.

    The labels at positions `drawn` (default every label) with both values defined are
    drawn; the labels in `annotate` are named where their names fit.
    """
    informedness, markedness = MEASURES["informedness"], MEASURES["markedness"]
    title = f"{informedness.title} and {markedness.title} per label"
    names = label_index(annotate)
    points = _points(evaluation, drawn)
    low = min(informedness.low, markedness.low)
    high = max(informedness.high, markedness.high)
    axes.plot(
        [low, high],
        [low, high],
        color=GREY,
        linestyle="--",
        linewidth=1,
        label="B = M",
        gid="diagonal",
    )
    if informedness.chance is not None:
        axes.axvline(informedness.chance, color="#bbbbbb", linewidth=0.9)
    if markedness.chance is not None:
        axes.axhline(markedness.chance, color="#bbbbbb", linewidth=0.9)
    if points:
        axes.scatter(
            [p[1] for p in points],
            [p[2] for p in points],
            s=34,
            color=BLUE,
            edgecolor="white",
            linewidth=0.6,
            zorder=3,
            label="one label (one-vs-rest)",
            gid="labels",
        )
    overall_b = evaluation.measures["informedness"]
    overall_m = evaluation.measures["markedness"]
    if math.isfinite(overall_b) and math.isfinite(overall_m):
        axes.scatter(
            [overall_b],
            [overall_m],
            s=120,
            marker="*",
            color=ORANGE,
            edgecolor="#333333",
            linewidth=0.5,
            zorder=4,
            label="overall" if evaluation.positive is None else "positive label",
            gid="overall",
        )
    axes.set_xlim(*_extent(points, (overall_b, overall_m), low, high))
    axes.set_ylim(*axes.get_xlim())
    # labels drawn at one spot (as both labels of a binary table are) share one note
    spots: dict[tuple[float, float], list[str]] = {}
    for label, b, m in points:
        if keyed(label) in names:
            spots.setdefault((round(b, 3), round(m, 3)), []).append(short_label(label, 16))
    axes.set_aspect("equal")
    star = (overall_b, overall_m) if math.isfinite(overall_b + overall_m) else None
    _annotate(axes, spots, star)
    axes.set_xlabel(named(informedness, "Youden's J", "B"))
    axes.set_ylabel(named(markedness, "deltaP", "M"))
    axes.set_title(title)
    legend_below(axes, columns=3)
    return title


def _extent(
    points: Sequence[tuple[Label, float, float]],
    star: tuple[float, float],
    low: float,
    high: float,
) -> tuple[float, float]:
    """One range for both axes (the diagonal stays at 45 degrees): the square around the
    values drawn, padded, within the measures' range. Ten labels between 0.45 and 0.65
    fill the plot rather than a corner of the 0 to 1 square; chance (0) is inside it only
    when a value is near it.

    >>> _extent([("a", 0.5, 0.6), ("b", 0.45, 0.62)], (0.55, 0.58), -1.0, 1.0)
    (0.41, 0.66)
    """
    values = [v for p in points for v in p[1:]] + [v for v in star if math.isfinite(v)]
    if not values:
        return low, high
    bottom, top = min(values), max(values)
    pad = max(0.1 * (top - bottom), 0.04)
    bottom, top = max(low, bottom - pad), min(high, top + pad)
    return round(bottom, 6), round(top, 6)


def plot_per_label(
    evaluation: Any,
    predicted: Any = None,
    *,
    positive: Any = None,
    weights: Any = None,
    annotate: Sequence[Any] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Each label's informedness B against its markedness M, with the B = M diagonal.

    A label off the diagonal is predicted at a rate (bias pP) other than its prevalence
    pR, as B pR (1 - pR) = M pP (1 - pP) (Powers 2011): a rare label above the diagonal
    is under-predicted, below it over-predicted. The star is the overall value.

    Parameters
    ----------
    evaluation : Evaluation, Table or array-like
        An `Evaluation`, a `Table` (evaluated here), or the actual classes of the rows
        (then `predicted`).
    predicted : array-like, optional
        The predictions, when built from rows.
    positive : label, optional
        Evaluate one-vs-rest for this label (a Table or rows only): the star is its value.
    weights : array-like, optional
        Frequency weights of the rows, when built from rows.
    annotate : sequence of labels, optional
        The labels whose points are named (where the name fits without covering another);
        by default the 30 most frequent. At most 2,000 labels are drawn, the most
        frequent.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        The labels' points (a collection with gid "labels"), the overall star (gid
        "overall"), the diagonal (a line with gid "diagonal"), the names as annotations.

    Examples
    --------
    >>> import informed
    >>> y = ["cat", "cat", "dog", "dog", "dog", "bird", "bird", "cat"]
    >>> p = ["cat", "dog", "dog", "dog", "cat", "bird", "cat", "cat"]
    >>> ax = informed.plot_per_label(y, p)
    >>> [c.get_gid() for c in ax.collections], len(ax.collections[0].get_offsets())
    (['labels', 'overall'], 3)
    """
    data = evaluation_of("plot_per_label", evaluation, predicted, positive, weights)
    table = data.table
    named_labels = (
        [table.labels[i] for i in top_labels(table, NAMED_LABELS)]
        if annotate is None
        else [as_label(x) for x in annotate]
    )
    drawn = (
        top_labels(table, MAX_SCATTER_LABELS) if len(table.labels) > MAX_SCATTER_LABELS else None
    )
    with drawing(ax, LABELS_FRAME, "plot-labels") as axes:
        draw_per_label(axes, data, named_labels, drawn=drawn)
    return axes


def _annotate(
    axes: Axes, spots: dict[tuple[float, float], list[str]], star: tuple[float, float] | None
) -> None:
    """Name each spot beside it, on the first side where the name lies inside the axes and
    covers neither a name placed before nor the overall `star`; a spot with no such side
    is left unnamed (the tables list every label). Spots are named from the top down, their
    names measured by the renderer, on a faint white ground over the points behind."""
    # offsets in points, clear of the star (5.5 points from its centre) when it is there
    sides = (((6, 6), "left"), ((-6, 6), "right"), ((6, -15), "left"), ((-6, -15), "right"))
    figure = measurable(root_figure(axes))
    axes.apply_aspect()
    frame = axes.get_window_extent()
    placed: list[Bbox] = []
    if star is not None:
        x, y = axes.transData.transform(star)
        half = 5.5 * figure.dpi / 72.0  # the star's half width: its size is 120 points²
        placed.append(Bbox.from_extents(x - half, y - half, x + half, y + half))
    for (b, m), texts in sorted(spots.items(), key=lambda item: -item[0][1]):
        text = ", ".join(texts) if len(texts) <= 3 else f"{texts[0]} and {len(texts) - 1} more"
        for offset, align in sides:
            note = axes.annotate(
                text,
                (b, m),
                xytext=offset,
                textcoords="offset points",
                ha=align,
                fontsize=8.5,
                color="#333333",
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.75, "pad": 0.8},
                zorder=5,
            )
            box = note.get_window_extent()
            inside = (
                frame.x0 <= box.x0
                and box.x1 <= frame.x1
                and frame.y0 <= box.y0
                and box.y1 <= frame.y1
            )
            if inside and not any(box.overlaps(other) for other in placed):
                placed.append(box)
                break
            note.remove()
