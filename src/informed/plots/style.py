"""What every plot shares: one style, its colours, fixed-size figures, text that fits.

The plots are drawn with matplotlib's object-oriented API. `style` is a local
`rc_context` (no global state changed): the figures `informed` makes are created and
drawn under it, for a notebook (`informed.plots.axes`) and for the HTML report alike.
Text stays text in SVG (``svg.fonttype = "none"``) and user labels are never read as
mathtext (``text.parse_math = False``): a label "$5" is drawn as written.

Nothing is cut and nothing covers the data: legends go under the axes (`legend_below`),
and `fit` grows a figure's margins until every text lies inside it, measured by
matplotlib's renderer (`measurable`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backend_bases import FigureCanvasBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.transforms import Bbox, offset_copy

from informed._common import cut_apart, printable
from informed.measures import Measure

__all__ = [
    "BLUE",
    "GREEN",
    "GREY",
    "MARGIN",
    "ORANGE",
    "PINK",
    "RED",
    "SKY",
    "YELLOW",
    "fit",
    "legend_below",
    "measurable",
    "named",
    "root_figure",
    "short_label",
    "short_labels",
    "sized_figure",
    "style",
]

# Okabe & Ito's palette: distinguishable with the common colour-vision deficiencies.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
RED = "#D55E00"
SKY = "#56B4E9"
GREY = "#7f7f7f"
PINK = "#CC79A7"
YELLOW = "#F0E442"

_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "text.parse_math": False,  # a label such as "$5" is text, not mathtext
    "font.family": "sans-serif",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e3e3e3",
    "grid.linewidth": 0.6,
    "legend.fontsize": 8.5,
    "legend.frameon": False,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
}

MARGIN = 0.06
"""Inches kept clear between the outermost text of a plot and the edge of its figure."""


@contextmanager
def style(name: str) -> Iterator[None]:
    """Within the block, matplotlib draws in the report's style, for the figure `name`."""
    # the salt makes the clip-path ids depend on the figure only: the same bytes every run
    # (matplotlib types rc keys as literals; this dict is checked when it is applied)
    with rc_context(cast("Any", {**_STYLE, "svg.hashsalt": name})):
        yield


def short_label(label: object, width: int = 18) -> str:
    """`label` as text, control characters escaped, cut to `width` characters with an
    ellipsis."""
    text = printable(label)
    return text if len(text) <= width else text[: width - 1] + "…"


def short_labels(labels: Iterable[object], width: int = 18) -> list[str]:
    """`short_label` of each of `labels`, those that read alike when cut told apart
    (`informed._common.cut_apart`: the start and the end kept, or the whole label)."""
    return cut_apart(labels, width)


def root_figure(axes: Axes) -> Figure:
    """The figure that holds `axes` (the top one, when it sits in a subfigure)."""
    figure = axes.get_figure(root=True)
    if not isinstance(figure, Figure):  # pragma: no cover - an Axes always has a figure
        msg = "the axes belong to no figure"
        raise TypeError(msg)
    return figure


def measurable(figure: Figure) -> Figure:
    """`figure`, ready to measure its texts (`get_window_extent()`, `get_tightbbox()`)
    with the fonts they are drawn with.

    A figure made without a backend (a bare `Figure`, as the report's) gets an Agg
    canvas, whose renderer is cached; a figure with a canvas of its own (pyplot's, a
    notebook's) keeps it: matplotlib measures with that canvas's renderer.
    """
    if type(figure.canvas) is FigureCanvasBase:
        FigureCanvasAgg(figure)
    return figure


def fit(figure: Figure) -> None:
    """Widen `figure`'s margins until every text, tick label and legend lies inside it.

    The axes keep their size in inches; only the margins grow, by what sticks out (a long
    label, an axis title, a legend below the axes) plus `MARGIN`. A figure laid out by a
    layout engine (the heat map) is left to it.
    """
    if figure.get_layout_engine() is not None:
        return
    box = measurable(figure).get_tightbbox()  # inches
    if box is None:  # pragma: no cover - an empty figure
        return
    width, height = figure.get_size_inches()
    left = max(0.0, MARGIN - box.x0)
    right = max(0.0, box.x1 + MARGIN - width)
    bottom = max(0.0, MARGIN - box.y0)
    top = max(0.0, box.y1 + MARGIN - height)
    if not (left or right or bottom or top):
        return
    new_width, new_height = width + left + right, height + bottom + top
    for axes in figure.axes:
        x0, y0, w, h = axes.get_position().bounds
        axes.set_position(
            Bbox.from_bounds(
                (x0 * width + left) / new_width,
                (y0 * height + bottom) / new_height,
                w * width / new_width,
                h * height / new_height,
            )
        )
    figure.set_size_inches(new_width, new_height)


def legend_below(axes: Axes, columns: int = 2) -> Legend:
    """The legend of `axes` under its x-axis title, never over the data it explains.

    `fit` then grows the figure to hold it. In a figure that holds other axes too (a
    user's grid of plots), the legend takes fewer columns until it is no wider than its
    axes, so that it cannot run into the legend of the plot beside it.
    """
    figure = measurable(root_figure(axes))
    axes.apply_aspect()
    inside = axes.get_window_extent()
    outside = axes.get_tightbbox()
    depth = 0.0 if outside is None else max(0.0, inside.y0 - outside.y0)
    below = depth * 72.0 / figure.dpi + 6.0  # points
    crowded = len(figure.axes) > 1
    while True:
        legend = axes.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, 0.0),
            bbox_transform=offset_copy(axes.transAxes, figure, y=-below, units="points"),
            ncols=columns,
            borderaxespad=0.0,
            columnspacing=1.4,
            handlelength=1.8,
        )
        if not crowded or columns == 1 or legend.get_window_extent().width <= inside.width:
            return legend
        columns -= 1


def sized_figure(
    width: float, height: float, *, left: float, right: float, bottom: float, top: float
) -> Figure:
    """A figure with fixed margins in inches: twice as fast as a layout engine, and these
    plots' texts are known in advance (the heat map, whose labels are not, uses one)."""
    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(
        left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - top / height
    )
    return figure


def named(measure: Measure, alias: str, symbol: str = "") -> str:
    """An axis title: the registry's title, its symbol, and one of its aliases if it has it."""
    head = f"{measure.title} {symbol}".rstrip()
    return f"{head} ({alias})" if alias in measure.aliases else head
