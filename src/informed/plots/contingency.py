"""The contingency table as a heat map of counts, each cell with its payoff per unit stake.

Every value drawn comes from the `Table` and its `Payoff` (Powers 2003, Figure 1).
`draw_contingency` draws on a given Axes (the HTML report calls it); `plot_contingency`
is the public function (see `informed.plots`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text

from informed.coding.labels import Label, as_label, keyed
from informed.errors import InputError
from informed.plots.axes import Frame, drawing
from informed.plots.inputs import table_of
from informed.plots.style import measurable, root_figure, short_labels
from informed.table.frequent import top_labels
from informed.table.payoff import Payoff, payoff
from informed.table.table import Table

__all__ = [
    "MAX_HEATMAP_LABELS",
    "PAYOFF_IN_CELLS",
    "contingency_frame",
    "draw_contingency",
    "label_index",
    "plot_contingency",
]

PAYOFF_IN_CELLS = 12
"""The heat map writes each cell's payoff under its count up to this many labels; beyond,
the cells are too small for two numbers, and the payoffs are in the payoff table."""

MAX_HEATMAP_LABELS = 20
"""The heat map shows at most this many labels (the most frequent): beyond, its cells
would be too small to read their counts and payoffs."""


def label_index(labels: Sequence[Label]) -> dict[tuple[str, Label], int]:
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


def _cell_size(rows: Sequence[Label], columns: Sequence[Label]) -> float:
    size = max(len(rows), len(columns), 1)
    return 1.0 if size <= 4 else (0.75 if size <= 10 else 0.5)


def contingency_frame(rows: Sequence[Label], columns: Sequence[Label]) -> Frame:
    """The heat map's figure: cells of 1, 0.75 or 0.5 inch, laid out by matplotlib."""
    cell = _cell_size(rows, columns)
    width = min(max(3.0 + cell * len(columns), 5.0), 12.5)
    height = min(max(2.0 + cell * len(rows), 3.2), 12.0)
    return Frame(width, height, layout="constrained")


def draw_contingency(
    axes: Axes,
    table: Table,
    pay: Payoff,
    rows: Sequence[Label],
    columns: Sequence[Label],
) -> str:
    """Draw the contingency table as a heat map of counts, each cell annotated with its
    payoff per unit stake (up to `PAYOFF_IN_CELLS` labels); return the title.

    `pay` is `informed.payoff(table)`; `rows` and `columns` are the predicted labels and
    actual classes to show, in order.
    """
    size = max(len(rows), len(columns), 1)
    with_payoff = size <= PAYOFF_IN_CELLS
    title = (
        "Contingency table: counts and payoff per unit stake"
        if with_payoff
        else ("Contingency table: counts")
    )
    if with_payoff and size <= 4:  # a narrow figure (5 inches): the title on two lines
        title = title.replace(": ", "\n", 1)
    where = label_index(pay.labels)
    row_at, col_at = [where[keyed(x)] for x in rows], [where[keyed(x)] for x in columns]
    payoffs = pay.block(row_at, col_at)
    kind = float if table.weighted else int
    counts = [[kind(v) for v in line] for line in pay.block(row_at, col_at, counts=True).tolist()]
    grid = np.array(counts, dtype=np.float64).reshape(len(rows), len(columns))
    cell = _cell_size(rows, columns)
    big = 12 if size <= 6 else (10 if size <= PAYOFF_IN_CELLS else 9)
    # characters of bold digits (0.64 em wide) that fit 95 % of a cell's width
    room = 0.95 * cell * 72.0 / (0.64 * big)
    rounded = any(_count_text(v, room) != _count_text(v, math.inf) for line in counts for v in line)
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
    axes.set_xticks(range(len(columns)), short_labels(columns))
    axes.set_yticks(range(len(rows)), short_labels(rows))
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
    figure = root_figure(axes)
    if len(columns) > 6 or _crowded(figure, names):  # slanted when level ones would meet
        for name_text in names:
            name_text.set(rotation=35, ha="right", rotation_mode="anchor")
    return title


def _shown(table: Table, labels: Sequence[Any] | None) -> list[Label]:
    """The labels the heat map shows: `labels` (checked), else at most
    `MAX_HEATMAP_LABELS`, the most frequent."""
    if labels is None:
        return [table.labels[i] for i in top_labels(table, MAX_HEATMAP_LABELS)]
    known = {keyed(x) for x in table.labels}
    chosen = [as_label(x) for x in labels]
    missing = [x for x in chosen if keyed(x) not in known]
    if missing or not chosen:
        msg = (
            f"`labels` must name labels of the table; {missing[:5]!r} are not among "
            f"{list(table.labels[:10])!r}{' ...' if len(table.labels) > 10 else ''}."
            if missing
            else "`labels` names no label; give some, or None for the most frequent."
        )
        raise InputError(msg)
    return chosen


def plot_contingency(
    table: Any,
    predicted: Any = None,
    *,
    weights: Any = None,
    labels: Sequence[Any] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """The contingency table as a heat map of counts, each cell with its payoff.

    Rows are predicted labels, columns actual classes (Powers 2003). Each cell gives its
    count and, up to 12 labels, its fair-odds payoff per unit stake (`informed.payoff`):
    a bet on predicted label l pays 1/pR(l) per case whose class is l and costs
    1/(1 - pR(l)) per other case, so each row adds up to the label's informedness
    (Powers 2003, Figure 1).

    Parameters
    ----------
    table : Table, Evaluation or array-like
        A `Table`, an `Evaluation` (its table), or the actual classes of the rows (then
        `predicted`).
    predicted : array-like, optional
        The predictions, when `table` holds the actual classes.
    weights : array-like, optional
        Frequency weights of the rows, when built from rows.
    labels : sequence of labels, optional
        The labels to show (rows and columns, in the table's order). By default every
        label, or the 20 most frequent (by the larger of prevalence and bias) of a table
        of more; the axis title then says how many are left out.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        The cells as one mesh (a collection with gid "cells"); in each cell, row by row,
        its count (bold) and, up to 12 labels, its payoff (as its texts).

    Examples
    --------
    >>> import informed
    >>> t = informed.Table.binary(tp=12, fp=28, fn=18, tn=42)  # Powers' guessing punter
    >>> ax = informed.plot_contingency(t)
    >>> [x.get_text() for x in ax.texts]  # count, payoff; each row wins 0.4 - 0.4 = 0
    ['12', '+0.400', '28', '-0.400', '18', '-0.600', '42', '+0.600']
    """
    data = table_of("plot_contingency", table, predicted, weights)
    shown = _shown(data, labels)
    keep = {keyed(x) for x in shown}
    rows = [x for x in data.predicted if keyed(x) in keep]
    columns = [x for x in data.actual if keyed(x) in keep]
    with drawing(ax, contingency_frame(rows, columns), "plot-heatmap") as axes:
        draw_contingency(axes, data, payoff(data), rows, columns)
        hidden = len(data.labels) - len(shown)
        if hidden:
            axes.set_xlabel(
                f"{axes.get_xlabel()}; {len(shown)} of {len(data.labels)} labels shown, "
                "the most frequent"
            )
    return axes


def _crowded(figure: Figure, names: Sequence[Text]) -> bool:
    """Whether any two of the level column `names` would touch, as the renderer lays out
    `figure` (a 6 % gap kept between neighbours)."""
    if len(names) < 2:
        return False
    measurable(figure).draw_without_rendering()
    boxes = [name.get_window_extent() for name in names]
    return any(right.x0 - left.x1 < 0.06 * left.width for left, right in pairwise(boxes))
