"""The plots of slices: a forest of per-slice informedness against the overall value, and
for time windows a line per group with its interval band, the windows that differ from
the reference window marked.

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
from informed.inference.disparities import Disparities, differs
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.plots.axes import Frame, drawing
from informed.plots.forest import ForestRow, Reference, draw_forest, forest_frame
from informed.plots.style import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    RED,
    SKY,
    legend_below,
    short_label,
    short_labels,
)
from informed.slices.evaluation import shown_slices
from informed.slices.keys import keyed_key, quoted_columns, value_name
from informed.table.evaluation import evaluate

__all__ = [
    "TIME_FRAME",
    "draw_slices",
    "draw_slices_over_time",
    "overall_informedness",
    "plot_slices",
    "plot_slices_over_time",
    "time_caption",
]

TIME_FRAME = Frame(7.2, 3.4, left=0.7, right=0.25, bottom=1.1)
GROUPS = 6
"""Groups drawn as lines over time when windows are crossed with groups (the largest)."""


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
    quoted = quoted_columns(slices.keys)
    rows = []
    labels = short_labels([_compact(slices.keys[s], quoted) for s in shown], 26)
    for s, label in zip(shown, labels, strict=True):
        interval = result.intervals["informedness"][s]
        small = evaluation.flags[s] is not None
        rows.append(
            ForestRow(
                label,
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


def _compact(key: tuple[Any, ...], quoted: Sequence[bool], joint: str = " · ") -> str:
    """A slice's name on a plot: its values named as the reports name them (`value_name`:
    missing apart from the text "missing"), crossed ones joined by `joint`."""
    return joint.join(
        value_name(value, quote=q, separator=joint if len(key) > 1 else "")
        for value, q in zip(key, quoted, strict=True)
    )


def _time_groups(
    result: SliceBootstrap, groups: int
) -> tuple[list[str], dict[tuple[object, ...], list[int]], list[tuple[object, ...]]]:
    """The windows in time order, each group's slices (windows crossed with the other
    keys; one group when there are none) and the `groups` largest groups, to draw."""
    evaluation = result.evaluation
    slices = evaluation.slices
    windows = sorted({str(key[0]) for key in slices.keys if key[0] is not None})
    members: dict[tuple[object, ...], list[int]] = {}
    for s, key in enumerate(slices.keys):
        if key[0] is not None:
            members.setdefault(tuple(key[1:]), []).append(s)
    size = {g: float(evaluation.n[found].sum()) for g, found in members.items()}
    drawn = sorted(members, key=lambda g: -size[g])[:groups]
    return windows, members, drawn


def _mark(axes: Axes, x: float, y: float, verdict: str, s: int) -> None:
    if verdict == "differs":
        axes.plot(
            [x],
            [y],
            marker="o",
            markersize=8,
            markerfacecolor="none",
            markeredgecolor=RED,
            markeredgewidth=1.6,
            linestyle="none",
            gid=f"differs-{s}",
        )
    elif verdict == "reference":
        axes.plot(
            [x],
            [y],
            marker="s",
            markersize=7,
            markerfacecolor="none",
            markeredgecolor="black",
            linestyle="none",
            gid="reference",
        )


def draw_slices_over_time(
    axes: Axes,
    result: SliceBootstrap,
    overall: float,
    disparities: Disparities | None = None,
    groups: int = GROUPS,
) -> str:
    """Draw informedness window by window (keys in time order) with its interval band:
    one line per group when windows are crossed with groups (the `groups` largest), the
    windows whose difference from the reference window excludes 0 circled in red, the
    reference itself a square; return the title."""
    evaluation = result.evaluation
    slices = evaluation.slices
    title = "Informedness over time"
    values = evaluation.values["informedness"]
    windows, members, drawn = _time_groups(result, groups)
    quoted = quoted_columns(slices.keys)
    at = {window: x for x, window in enumerate(windows)}
    colours = [BLUE, ORANGE, GREEN, RED, SKY, GREY]
    for i, group in enumerate(drawn):
        found = members[group]
        x = np.array([at[str(slices.keys[s][0])] for s in found], dtype=np.float64)
        low = np.array([result.intervals["informedness"][s].low for s in found])
        high = np.array([result.intervals["informedness"][s].high for s in found])
        colour = colours[i % len(colours)]
        label = _compact(group, quoted[1:], ", ") or None
        alpha = 0.35 if len(drawn) == 1 else 0.18
        band = SKY if len(drawn) == 1 else colour
        axes.fill_between(x, low, high, color=band, alpha=alpha, linewidth=0, gid=f"band-{i}")
        axes.plot(
            x,
            values[found],
            color=colour,
            marker="o",
            markersize=3.5,
            linewidth=1.6,
            label=short_label(label, 24) if label else None,
            gid=f"line-{i}",
        )
        for s, position in zip(found, x.tolist(), strict=True):
            if not math.isnan(values[s]):
                _mark(axes, position, float(values[s]), differs(disparities, s), s)
    if not math.isnan(overall):
        axes.axhline(overall, color=GREY, linewidth=1, linestyle="--", gid="overall")
    ticks = np.arange(len(windows))
    step = max(1, len(windows) // 12)
    axes.set_xticks(ticks[::step])
    axes.set_xticklabels(
        [short_label(windows[k], 24) for k in ticks[::step]], rotation=30, ha="right"
    )
    axes.set_ylabel("informedness")
    axes.set_title(title)
    if any(group for group in drawn):
        legend_below(axes, columns=3)
    return title


def time_caption(
    result: SliceBootstrap, disparities: Disparities | None, groups: int = GROUPS
) -> str:
    """What the time plot draws and what it leaves out, for the figure's caption."""
    _, members, drawn = _time_groups(result, groups)
    caption = (
        "Informedness window by window, its bootstrap interval as a band (none where every "
        "replicate agrees); the dashed line is the value of all rows."
    )
    if disparities is not None:
        caption += _reference_caption(result, disparities, drawn)
    if len(drawn) < len(members):
        caption += f" The {len(drawn)} largest of {len(members)} groups are drawn."
    if any(key[0] is None for key in result.evaluation.slices.keys):
        caption += ' Rows without a timestamp (the window "missing") are in the table only.'
    return caption


def _reference_caption(
    result: SliceBootstrap,
    disparities: Disparities,
    drawn: list[tuple[object, ...]],
) -> str:
    """What the caption says of the windows compared with the reference: the square only
    where the reference is drawn, and why nothing is circled when it cannot be."""
    keys = result.evaluation.slices.keys
    reference = disparities.reference
    wanted = None if reference is None else keyed_key(reference)
    s = next((k for k, key in enumerate(keys) if keyed_key(key) == wanted), None)
    if reference is None or s is None:  # True is not 1: the key's kind found too
        return ""
    name = _compact(reference, quoted_columns(keys), ", ")
    value = result.evaluation.values["informedness"][s]
    if math.isnan(value):
        return (
            f" No window is compared: the reference ({name}) has no defined informedness,"
            " so no difference from it is defined."
        )
    where = (
        "the square"
        if reference[0] is not None and tuple(reference[1:]) in drawn
        else f"{name}, not drawn"
    )
    return (
        f" Circled in red: windows whose informedness minus the reference's ({where}) "
        "has an interval that excludes 0."
    )


def plot_slices_over_time(
    result: Any,
    *,
    overall: float | None = None,
    disparities: Disparities | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Informedness window by window, with its interval as a band; one line per group
    when the windows are crossed with groups (the six largest).

    Parameters
    ----------
    result : SliceBootstrap
        The bootstrap of slices that are time windows (`Slices.from_labels(time=...,
        every=...)`, or `--by-time` on the command line), in time order.
    overall : float, optional
        The value of all rows, a dashed line; by default that of the slices' `overall`.
    disparities : Disparities, optional
        `informed.disparities(slices, reference=...)` of the same slices: the windows
        whose informedness minus the reference window's has an interval that excludes 0
        are circled in red, the reference is a square.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per group i (largest first) its values as a line (gid "line-<i>") and its band (a
        collection with gid "band-<i>"); the overall value (gid "overall"); with
        `disparities`, a red circle per window that differs ("differs-<slice>") and a
        square on the reference ("reference").

    Examples
    --------
    >>> import informed
    >>> s = informed.Slices.from_labels(by=["2024-01", "2024-02", "2024-03"] * 40,
    ...                                 actual=[1, 0, 1, 1] * 30, predicted=[1, 0, 0, 1] * 30)
    >>> result = informed.bootstrap_slices(s, ["informedness"], positive=1, seed=0)
    >>> ax = informed.plot_slices_over_time(result)
    >>> ax.get_lines()[0].get_gid(), len(ax.get_lines()[0].get_xdata())
    ('line-0', 3)
    """
    data = _result("plot_slices_over_time", result)
    line = overall_informedness(data) if overall is None else float(overall)
    with drawing(ax, TIME_FRAME, "plot-slices-time") as axes:
        draw_slices_over_time(axes, data, line, disparities)
    return axes
