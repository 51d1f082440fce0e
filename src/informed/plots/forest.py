"""A forest plot: estimates with their intervals, one row each, against a reference line.

One drawing for every forest of the library: the slices' informedness against the value
of all rows (`informed.plots.slices`), a comparison's paired differences against 0
(`informed.comparison.plots`), a tally's categories against the micro and macro values
(`informed.plots.tally`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from informed.plots.axes import Frame
from informed.plots.style import BLUE, GREY

__all__ = ["ForestRow", "Reference", "draw_forest", "forest_frame"]


@dataclass(frozen=True)
class ForestRow:
    """One row of a forest: its name, the estimate and its interval (nan: not drawn), its
    colour, hollow for a value that says little (a small slice)."""

    name: str
    estimate: float
    low: float = math.nan
    high: float = math.nan
    colour: str = BLUE
    hollow: bool = False


@dataclass(frozen=True)
class Reference:
    """A vertical line the rows are read against: its value, its gid, its style."""

    value: float
    gid: str
    colour: str = GREY
    linestyle: str = "--"
    label: str | None = None


def forest_frame(rows: int, width: float = 5.0) -> Frame:
    """A forest's figure: a quarter inch per row; the left margin grows to the longest row
    name when the figure is fitted (`informed.plots.style.fit`)."""
    return Frame(width, 1.0 + 0.28 * max(rows, 1), left=0.3, right=0.25)


def draw_forest(
    axes: Axes,
    rows: Sequence[ForestRow],
    references: Sequence[Reference],
    *,
    xlabel: str,
    title: str,
) -> None:
    """Draw `rows` top to bottom: each interval a bar (gid "interval-<y>"), each estimate
    a dot (gid "estimate-<y>", y counted from the bottom), every reference a vertical line.
    """
    for reference in references:
        if not math.isnan(reference.value):
            axes.axvline(
                reference.value,
                color=reference.colour,
                linewidth=1,
                linestyle=reference.linestyle,
                gid=reference.gid,
                label=reference.label,
            )
    for y, row in enumerate(reversed(rows)):
        if math.isnan(row.estimate):
            continue
        if not (math.isnan(row.low) or math.isnan(row.high)):
            axes.plot(
                [row.low, row.high], [y, y], color=row.colour, linewidth=2.2, gid=f"interval-{y}"
            )
        axes.plot(
            [row.estimate],
            [y],
            marker="o",
            markersize=5,
            linestyle="none",
            color=row.colour,
            markerfacecolor="white" if row.hollow else row.colour,
            gid=f"estimate-{y}",
        )
    axes.set_yticks(range(len(rows)))
    axes.set_yticklabels([row.name for row in reversed(rows)])
    axes.set_ylim(-0.6, max(len(rows), 1) - 0.4)
    axes.grid(axis="y", visible=False)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=6))  # "−0.125" needs room
    axes.set_xlabel(xlabel)
    axes.set_title(title)
