"""The plots of slices: a forest of per-slice informedness against the overall value, and
for time windows a line with its interval band."""

from __future__ import annotations

import math

import numpy as np

from informed.inference.slice_bootstrap import SliceBootstrap
from informed.report.plots.figure import BLUE, GREY, RED, SKY, short_label, sized_figure, style, svg

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
            labels.append(short_label(slices.name(slices.keys[s]), 26))
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


def slices_time_svg(
    result: SliceBootstrap, overall: float, *, name: str = "plot-slices-time"
) -> str:
    """Informedness window by window (keys in time order) with its interval band."""
    evaluation = result.evaluation
    slices = evaluation.slices
    title = "Informedness over time"
    values = evaluation.values["informedness"]
    low = np.array([i.low for i in result.intervals["informedness"]])
    high = np.array([i.high for i in result.intervals["informedness"]])
    x = np.arange(len(slices.keys))
    with style(name):
        figure = sized_figure(7.2, 3.2, left=0.7, right=0.25, bottom=1.1, top=0.4)
        axes = figure.subplots()
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
        return svg(figure, name, f"{title}: {len(x)} windows with interval band")
