"""The plots of slices: a forest of per-slice informedness against the overall value, and
for time windows a line with its interval band.

Every value drawn is read from a `SliceBootstrap` (`informed.bootstrap_slices`): each
slice's informedness and its interval, the flags of slices too small to say anything.
``draw_*`` draw on a given Axes (the HTML report calls them); ``plot_*`` are the public
functions (see `informed.plots`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from informed.errors import InputError, InputTypeError
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.plots.axes import Frame, drawing
from informed.plots.forest import ForestRow, Reference, draw_forest, forest_frame
from informed.plots.style import BLUE, GREY, RED, SKY, short_label
from informed.slices.evaluation import shown_slices
from informed.table.evaluation import evaluate

__all__ = [
    "TIME_FRAME",
    "draw_slices",
    "draw_slices_over_time",
    "overall_informedness",
    "plot_slices",
    "plot_slices_over_time",
]

TIME_FRAME = Frame(7.2, 3.2, left=0.7, right=0.25, bottom=1.1)


def _result(function: str, result: Any) -> SliceBootstrap:
    if not isinstance(result, SliceBootstrap):
        msg = (
            f"{function}() draws the intervals of slices: pass a SliceBootstrap "
            f"(`informed.bootstrap_slices(slices, ['informedness'])`); got "
            f"{type(result).__name__}."
        )
        raise InputTypeError(msg)
    if "informedness" not in result.intervals:
        msg = (
            f"{function}() draws informedness: bootstrap it "
            "(`informed.bootstrap_slices(slices, ['informedness'])`); the result holds "
            f"{sorted(result.intervals)}."
        )
        raise InputError(msg)
    return result


def overall_informedness(result: SliceBootstrap) -> float:
    """The informedness of all rows (the slices' `overall` Table), nan without it."""
    table = result.evaluation.slices.overall
    if table is None:
        return math.nan
    return evaluate(table, positive=result.evaluation.positive).measures["informedness"]


def draw_slices(axes: Axes, result: SliceBootstrap, shown: Sequence[int], overall: float) -> str:
    """Draw each shown slice's informedness with its interval, the overall value as a
    dashed line, a slice flagged as too small hollow and in the colour of a warning;
    return the title."""
    evaluation = result.evaluation
    slices = evaluation.slices
    rows = []
    for s in shown:
        interval = result.intervals["informedness"][s]
        small = evaluation.flags[s] is not None
        rows.append(
            ForestRow(
                short_label(slices.name(slices.keys[s]), 26),
                interval.estimate,
                interval.low,
                interval.high,
                colour=RED if small else BLUE,
                hollow=small,
            )
        )
    title = "Informedness by slice"
    draw_forest(
        axes,
        rows,
        [Reference(overall, "overall")],
        xlabel=f"informedness, {100 * result.level:g} % interval "
        "(dashed: all rows; hollow: few cases)",
        title=title,
    )
    return title


def plot_slices(
    result: Any,
    *,
    shown: Sequence[int] | None = None,
    overall: float | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Each slice's informedness with its bootstrap interval, against all rows' value.

    Parameters
    ----------
    result : SliceBootstrap
        `informed.bootstrap_slices(slices, ["informedness"], ...)`: each slice resampled
        from its own cells.
    shown : sequence of int, optional
        Positions of the slices to draw, top first. By default all of them up to 30, else
        the largest and those of lowest and highest informedness, as the reports list them
        (`informed.slices.evaluation.shown_slices`), sorted by informedness.
    overall : float, optional
        The value of all rows, a dashed line; by default the informedness of the slices'
        `overall` table.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per drawn slice (y counted from the bottom) a dot (a line with gid
        "estimate-<y>") and its interval ("interval-<y>"); the overall value (gid
        "overall"). A slice resting on too few cases is hollow and red.

    Examples
    --------
    >>> import informed
    >>> s = informed.Slices.from_labels(by=["m", "w"] * 50, actual=[1, 0, 1, 1] * 25,
    ...                                 predicted=[1, 0, 0, 1] * 25)
    >>> result = informed.bootstrap_slices(s, ["informedness"], positive=1, seed=0)
    >>> ax = informed.plot_slices(result)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['m', 'w']
    """
    data = _result("plot_slices", result)
    chosen = list(shown_slices(data.evaluation) if shown is None else shown)
    if any(not 0 <= s < len(data.evaluation.n) for s in chosen):
        msg = f"`shown` must hold positions of slices, 0 to {len(data.evaluation.n) - 1}."
        raise InputError(msg)
    line = overall_informedness(data) if overall is None else float(overall)
    with drawing(ax, forest_frame(len(chosen), width=5.0), "plot-slices") as axes:
        draw_slices(axes, data, chosen, line)
    return axes


def draw_slices_over_time(axes: Axes, result: SliceBootstrap, overall: float) -> str:
    """Draw informedness window by window (keys in time order) with its interval band;
    return the title."""
    evaluation = result.evaluation
    slices = evaluation.slices
    title = "Informedness over time"
    values = evaluation.values["informedness"]
    low = np.array([i.low for i in result.intervals["informedness"]])
    high = np.array([i.high for i in result.intervals["informedness"]])
    x = np.arange(len(slices.keys))
    axes.fill_between(x, low, high, color=SKY, alpha=0.35, linewidth=0, gid="band")
    axes.plot(x, values, color=BLUE, marker="o", markersize=3.5, linewidth=1.6, gid="line")
    if not math.isnan(overall):
        axes.axhline(overall, color=GREY, linewidth=1, linestyle="--", gid="overall")
    step = max(1, len(x) // 12)
    axes.set_xticks(x[::step])
    axes.set_xticklabels(
        [short_label(slices.name(slices.keys[k]), 24) for k in x[::step]],
        rotation=30,
        ha="right",
    )
    axes.set_ylabel("informedness")
    axes.set_title(title)
    return title


def plot_slices_over_time(
    result: Any, *, overall: float | None = None, ax: Axes | None = None
) -> Axes:
    """Informedness window by window, with its interval as a band.

    Parameters
    ----------
    result : SliceBootstrap
        The bootstrap of slices that are time windows (`Slices.from_labels(time=...,
        every=...)`, or `--by-time` on the command line), in time order.
    overall : float, optional
        The value of all rows, a dashed line; by default that of the slices' `overall`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        The values as a line (gid "line"), the band (a collection with gid "band"), the
        overall value (gid "overall").

    Examples
    --------
    >>> import informed
    >>> s = informed.Slices.from_labels(by=["2024-01", "2024-02", "2024-03"] * 40,
    ...                                 actual=[1, 0, 1, 1] * 30, predicted=[1, 0, 0, 1] * 30)
    >>> result = informed.bootstrap_slices(s, ["informedness"], positive=1, seed=0)
    >>> ax = informed.plot_slices_over_time(result)
    >>> ax.get_lines()[0].get_gid(), len(ax.get_lines()[0].get_xdata())
    ('line', 3)
    """
    data = _result("plot_slices_over_time", result)
    line = overall_informedness(data) if overall is None else float(overall)
    with drawing(ax, TIME_FRAME, "plot-slices-time") as axes:
        draw_slices_over_time(axes, data, line)
    return axes
