"""The plots of an evaluation: the contingency heat map and the per-label scatter.

Every value drawn comes from the `Table`, its `Payoff` or the `Evaluation`; axis titles
and ranges come from the registry `informed.measures.MEASURES`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from informed.labels import Label, keyed
from informed.measures import MEASURES
from informed.report.plots.figure import (
    BLUE,
    GREY,
    ORANGE,
    legend_below,
    measurable,
    named,
    short_label,
    sized_figure,
    style,
    svg,
)
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff
from informed.table.per_label import LabelValues
from informed.table.table import Table

__all__ = ["PAYOFF_IN_CELLS", "contingency_svg", "labels_svg"]

PAYOFF_IN_CELLS = 12
"""The heat map writes each cell's payoff under its count up to this many labels; beyond,
the cells are too small for two numbers, and the payoffs are in the payoff table."""


def _index(labels: Sequence[Label]) -> dict[tuple[str, Label], int]:
    return {keyed(x): i for i, x in enumerate(labels)}


def _count_text(value: float, room: float) -> str:
    """A cell's count, written in full if it fits `room` characters, else to three
    significant digits with k, M or G (the tables above give it in full)."""
    full = f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"
    if len(full) <= room:
        return full
    size = abs(float(value))
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if size >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def contingency_svg(
    table: Table,
    pay: Payoff,
    rows: Sequence[Label],
    columns: Sequence[Label],
    *,
    name: str = "plot-heatmap",
) -> str:
    """The contingency table as a heat map of counts, each cell annotated with its payoff.

    Parameters
    ----------
    table : Table
    pay : Payoff
        `informed.table.payoff(table)`: the payoff per unit stake of each cell.
    rows, columns : sequence of labels
        The predicted labels (rows) and actual classes (columns) to show, in order.
    """
    size = max(len(rows), len(columns), 1)
    with_payoff = size <= PAYOFF_IN_CELLS
    title = (
        "Contingency table: counts and payoff per unit stake"
        if with_payoff
        else ("Contingency table: counts")
    )
    where = _index(pay.labels)
    row_at, col_at = [where[keyed(x)] for x in rows], [where[keyed(x)] for x in columns]
    payoffs = pay.block(row_at, col_at)
    kind = float if table.weighted else int
    counts = [[kind(v) for v in line] for line in pay.block(row_at, col_at, counts=True).tolist()]
    grid = np.array(counts, dtype=np.float64).reshape(len(rows), len(columns))
    cell = 1.0 if size <= 4 else (0.75 if size <= 10 else 0.5)
    width = min(max(3.0 + cell * len(columns), 5.0), 12.5)
    height = min(max(2.0 + cell * len(rows), 3.2), 12.0)
    big = 12 if size <= 6 else (10 if size <= PAYOFF_IN_CELLS else 9)
    # characters of bold digits (0.64 em wide) that fit 95 % of a cell's width
    room = 0.95 * cell * 72.0 / (0.64 * big)
    rounded = any(_count_text(v, room) != _count_text(v, math.inf) for line in counts for v in line)
    with style(name):
        figure = Figure(figsize=(width, height), layout="constrained")
        axes = figure.subplots()
        axes.grid(visible=False)
        top = float(grid.max()) if grid.size else 0.0
        # vector cells (a mesh, not an embedded bitmap): crisp at any zoom
        image = axes.pcolormesh(
            np.arange(len(columns) + 1) - 0.5,
            np.arange(len(rows) + 1) - 0.5,
            grid,
            cmap="Blues",
            vmin=0.0,
            vmax=top if top > 0 else 1.0,
            edgecolors="white",
            linewidth=1.0,
        )
        image.set_gid("cells")
        axes.set_xlim(-0.5, len(columns) - 0.5)
        axes.set_ylim(len(rows) - 0.5, -0.5)
        for i in range(len(rows)):
            for j in range(len(columns)):
                count = counts[i][j]
                dark = top > 0 and float(count) > 0.55 * top
                colour = "white" if dark else "#1a1a1a"
                payoff_value = float(payoffs[i, j])
                axes.text(
                    j,
                    i - 0.13 if with_payoff else i,
                    _count_text(count, room),
                    ha="center",
                    va="center",
                    fontsize=big,
                    color=colour,
                    fontweight="bold",
                    in_layout=False,  # inside the axes: the layout need not measure it
                )
                if with_payoff:
                    axes.text(
                        j,
                        i + 0.22,
                        "0" if payoff_value == 0 else f"{payoff_value:+.3f}",  # 0: nothing bet
                        ha="center",
                        va="center",
                        fontsize=big - 1.5,
                        color=colour,
                        in_layout=False,
                    )
        axes.set_xticks(range(len(columns)), [short_label(c) for c in columns])
        axes.set_yticks(range(len(rows)), [short_label(r) for r in rows])
        axes.tick_params(length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        axes.set_xlabel(
            "actual class (counts to 3 digits: k thousand, M million, G billion)"
            if rounded
            else "actual class"
        )
        axes.set_ylabel("predicted label")
        axes.set_title(title)
        names = axes.get_xticklabels()
        if len(columns) > 6 or _crowded(figure, names):  # slanted when level ones would meet
            for name_text in names:
                name_text.set(rotation=35, ha="right", rotation_mode="anchor")
        return svg(figure, name, title)


def _crowded(figure: Figure, names: Sequence[Text]) -> bool:
    """Whether any two of the level column `names` would touch, as the renderer lays out
    `figure` (a 6 % gap kept between neighbours)."""
    if len(names) < 2:
        return False
    measurable(figure).draw_without_rendering()
    boxes = [name.get_window_extent() for name in names]
    return any(right.x0 - left.x1 < 0.06 * left.width for left, right in pairwise(boxes))


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


def labels_svg(
    evaluation: Evaluation,
    annotate: Sequence[Label],
    *,
    drawn: Sequence[int] | None = None,
    name: str = "plot-labels",
) -> str:
    """Per-label informedness (x) against markedness (y), with the B = M diagonal.

    The labels at positions `drawn` (default every label) with both values defined are
    drawn; the labels in `annotate` are named.
    """
    informedness, markedness = MEASURES["informedness"], MEASURES["markedness"]
    title = f"{informedness.title} and {markedness.title} per label"
    names = _index(annotate)
    points = _points(evaluation, drawn)
    low = min(informedness.low, markedness.low)
    high = max(informedness.high, markedness.high)
    with style(name):
        figure = sized_figure(5.6, 5.4, left=0.75, right=0.2, bottom=0.6, top=0.4)  # 4.4 in square
        axes = figure.subplots()
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
        # from chance (or the lowest value, if below it) to the top of the range: the
        # worse-than-chance corner is drawn only when a label lies in it
        chances = [c for c in (informedness.chance, markedness.chance) if c is not None]
        values = [v for p in points for v in p[1:]] + [overall_b, overall_m]
        bottom = max(low, min([*chances, *(v for v in values if math.isfinite(v))], default=low))
        pad = 0.05 * (high - bottom)
        axes.set_xlim(bottom - pad, high + pad)
        axes.set_ylim(bottom - pad, high + pad)
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
        return svg(figure, name, title)


def _annotate(
    axes: Axes, spots: dict[tuple[float, float], list[str]], star: tuple[float, float] | None
) -> None:
    """Name each spot beside it, on the first side where the name lies inside the axes and
    covers neither a name placed before nor the overall `star`; a spot with no such side
    is left unnamed (the tables list every label). Spots are named from the top down, their
    names measured by the renderer, on a faint white ground over the points behind."""
    # offsets in points, clear of the star (5.5 points from its centre) when it is there
    sides = (((6, 6), "left"), ((-6, 6), "right"), ((6, -15), "left"), ((-6, -15), "right"))
    figure = axes.get_figure()
    assert isinstance(figure, Figure)
    measurable(figure)
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
