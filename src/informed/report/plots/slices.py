"""The plots of slices: a forest of per-slice informedness against the overall value, and
for time windows a line per group with its interval band, the windows that differ from
the reference window marked."""

from __future__ import annotations

import math

import numpy as np

from informed.inference.disparities import Disparities
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.report.plots.figure import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    RED,
    SKY,
    legend_below,
    short_label,
    sized_figure,
    style,
    svg,
)
from informed.report.slices import differs

__all__ = ["slices_forest_svg", "slices_time_svg"]


def slices_forest_svg(
    result: SliceBootstrap, shown: list[int], overall: float, *, name: str = "plot-slices"
) -> str:
    """Each shown slice's informedness with its interval; the overall value as a line;
    a slice flagged as too small drawn hollow, in the colour of a warning."""
    evaluation = result.evaluation
    slices = evaluation.slices
    title = "Informedness by slice"
    height = 1.0 + 0.26 * max(len(shown), 1)
    with style(name):
        figure = sized_figure(7.2, height, left=2.4, right=0.25, bottom=0.6, top=0.4)
        axes = figure.subplots()
        if not math.isnan(overall):
            axes.axvline(overall, color=GREY, linewidth=1, linestyle="--", gid="overall")
        labels = []
        for y, s in enumerate(reversed(shown)):
            labels.append(short_label(_compact(slices.keys[s]), 26))
            interval = result.intervals["informedness"][s]
            if math.isnan(interval.estimate):
                continue
            small = evaluation.flags[s] is not None
            colour = RED if small else BLUE
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
                linestyle="none",
                color=colour,
                markerfacecolor="white" if small else colour,
                gid=f"estimate-{y}",
            )
        axes.set_yticks(range(len(shown)))
        axes.set_yticklabels(labels)
        axes.set_ylim(-0.6, max(len(shown), 1) - 0.4)
        axes.grid(axis="y", visible=False)
        axes.set_xlabel(
            f"informedness, {100 * result.level:g} % interval (dashed: all rows; hollow: few cases)"
        )
        axes.set_title(title)
        return svg(figure, name, f"{title}: {len(shown)} slices with intervals")


def _compact(key: tuple[object, ...]) -> str:
    """A slice's name on a plot's axis: its values, crossed ones joined by " · "."""
    return " · ".join("missing" if value is None else str(value) for value in key)


def slices_time_svg(
    result: SliceBootstrap,
    disparities: Disparities | None,
    overall: float,
    *,
    name: str = "plot-slices-time",
    groups: int = 6,
) -> tuple[str, str]:
    """Informedness window by window (keys in time order) with its interval band: one
    line per group when windows are crossed with groups (the `groups` largest), the
    windows that differ from the reference marked, the reference itself a square.
    Returns the SVG and its caption (what is drawn, what is left out)."""
    evaluation = result.evaluation
    slices = evaluation.slices
    title = "Informedness over time"
    values = evaluation.values["informedness"]
    windows = sorted({str(key[0]) for key in slices.keys if key[0] is not None})
    at = {window: x for x, window in enumerate(windows)}
    members: dict[tuple[object, ...], list[int]] = {}
    for s, key in enumerate(slices.keys):
        if key[0] is not None:
            members.setdefault(tuple(key[1:]), []).append(s)
    size = {g: float(evaluation.n[found].sum()) for g, found in members.items()}
    drawn = sorted(members, key=lambda g: -size[g])[:groups]
    colours = [BLUE, ORANGE, GREEN, RED, SKY, GREY]
    with style(name):
        figure = sized_figure(7.2, 3.4, left=0.7, right=0.25, bottom=1.1, top=0.4)
        axes = figure.subplots()
        for i, group in enumerate(drawn):
            found = members[group]
            x = np.array([at[str(slices.keys[s][0])] for s in found], dtype=np.float64)
            low = np.array([result.intervals["informedness"][s].low for s in found])
            high = np.array([result.intervals["informedness"][s].high for s in found])
            colour = colours[i % len(colours)]
            label = ", ".join(str(v) if v is not None else "missing" for v in group) or None
            axes.fill_between(x, low, high, color=colour, alpha=0.18, linewidth=0, gid=f"band-{i}")
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
                verdict = differs(disparities, s)
                if verdict == "differs" and not math.isnan(values[s]):
                    axes.plot(
                        [position],
                        [values[s]],
                        marker="o",
                        markersize=8,
                        markerfacecolor="none",
                        markeredgecolor=RED,
                        markeredgewidth=1.6,
                        linestyle="none",
                        gid=f"differs-{s}",
                    )
                elif verdict == "reference" and not math.isnan(values[s]):
                    axes.plot(
                        [position],
                        [values[s]],
                        marker="s",
                        markersize=7,
                        markerfacecolor="none",
                        markeredgecolor="black",
                        linestyle="none",
                        gid="reference",
                    )
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
        image = svg(figure, name, f"{title}: {len(windows)} windows with interval bands")
    caption = (
        "Informedness window by window, its bootstrap interval as a band (none where every "
        "replicate agrees); the dashed line is the value of all rows."
    )
    if disparities is not None:
        caption += (
            " Circled in red: windows whose informedness minus the reference's (the square) "
            "has an interval that excludes 0."
        )
    if len(drawn) < len(members):
        caption += f" The {len(drawn)} largest of {len(members)} groups are drawn."
    if any(key[0] is None for key in slices.keys):
        caption += ' Rows without a timestamp (the window "missing") are in the table only.'
    return image, caption
