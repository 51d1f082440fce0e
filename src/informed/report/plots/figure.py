"""What every plot of the report shares: one style, fixed-size figures, inline SVG.

A `matplotlib.figure.Figure` renders itself under a local `rc_context` (no pyplot, no
backend state), so importing the plots changes nothing for the caller. `svg` turns a
figure into one ``<svg>`` element ready to be placed in an HTML document: no XML prolog,
no metadata, no namespace URLs, every ``id`` prefixed with the figure's name so that
several plots can share one page, and the same bytes for the same input (a fixed hash
salt, no date). Text stays text (``svg.fonttype = "none"``), so it is searchable and
tested, and user labels are never read as mathtext.

Nothing is cut and nothing covers the data: legends go under the axes (`legend_below`),
and `svg` first grows the figure's margins until every text lies inside it (`fit`),
measured by matplotlib's Agg renderer (`measurable`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.transforms import Bbox, offset_copy

from informed._common import printable
from informed.measures import Measure

__all__ = [
    "BLUE",
    "GREEN",
    "GREY",
    "MARGIN",
    "ORANGE",
    "RED",
    "SKY",
    "fit",
    "legend_below",
    "measurable",
    "message_svg",
    "named",
    "short_label",
    "sized_figure",
    "style",
    "svg",
]

# Okabe & Ito's palette: distinguishable with the common colour-vision deficiencies.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
RED = "#D55E00"
SKY = "#56B4E9"
GREY = "#7f7f7f"

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

_TAG = re.compile(r"<[^>]*>")


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


def measurable(figure: Figure) -> Figure:
    """`figure`, on an Agg canvas: its texts are measured (`get_window_extent()`,
    `get_tightbbox()`) with the fonts they are drawn with, by one cached renderer."""
    if not isinstance(figure.canvas, FigureCanvasAgg):
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

    `fit` (called by `svg`) then grows the figure to hold it.
    """
    figure = axes.get_figure()
    assert isinstance(figure, Figure)
    measurable(figure)
    axes.apply_aspect()
    inside = axes.get_window_extent()
    outside = axes.get_tightbbox()
    depth = 0.0 if outside is None else max(0.0, inside.y0 - outside.y0)
    below = depth * 72.0 / figure.dpi + 6.0  # points
    return axes.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=offset_copy(axes.transAxes, figure, y=-below, units="points"),
        ncols=columns,
        borderaxespad=0.0,
        columnspacing=1.4,
        handlelength=1.8,
    )


def svg(figure: Figure, name: str, description: str) -> str:
    """Render `figure` as an inline <svg id=name> element (see the module docstring)."""
    fit(figure)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.DOTALL)

    def tag(match: re.Match[str]) -> str:
        # rewrite inside tags only: text nodes (user labels) are left as they are
        out = re.sub(r'\s+xmlns(?::\w+)?="[^"]*"', "", match[0])
        out = re.sub(r'\bid="([^"]+)"', rf'id="{name}-\1"', out)
        return re.sub(r'(href="#|url\(#)([^")]+)', rf"\g<1>{name}-\2", out)

    text = _TAG.sub(tag, text)
    size = re.match(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', text)
    if size is None:  # pragma: no cover - matplotlib's SVG header changed
        msg = "unexpected SVG header from matplotlib"
        raise RuntimeError(msg)
    width = size[1]
    text = text.replace(
        size[0],
        f'<svg id="{name}" width="100%" style="max-width:{width}pt" role="img" '
        f'aria-label="{_attribute(description)}"',
        1,
    )
    # matplotlib's one style rule would otherwise apply to the whole page
    return text.replace('<style type="text/css">*{', f'<style type="text/css">#{name} *{{', 1)


def _attribute(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )


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


def message_svg(name: str, title: str, message: str) -> str:
    """A small figure that says why a plot could not be drawn."""
    with style(name):
        figure = sized_figure(5.0, 1.6, left=0.1, right=0.1, bottom=0.1, top=0.4)
        axes = figure.subplots()
        axes.set_axis_off()
        axes.set_title(title)
        axes.text(0.5, 0.45, f"undefined: {message}", ha="center", va="center", color=RED)
        return svg(figure, name, f"{title}: undefined, {message}")


def named(measure: Measure, alias: str, symbol: str = "") -> str:
    """An axis title: the registry's title, its symbol, and one of its aliases if it has it."""
    head = f"{measure.title} {symbol}".rstrip()
    return f"{head} ({alias})" if alias in measure.aliases else head
