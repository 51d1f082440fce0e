"""The Axes a plot function draws on, and how a notebook shows it.

Every plot function takes ``ax=``: given, it draws on that Axes of the user's figure and
leaves the figure's size, layout and style as they are. Without it, it makes a figure of
the plot's own size (`Frame`), in the report's style, and fits its margins to its texts
after drawing, exactly as the HTML report draws it:

* when the user works with pyplot (``matplotlib.pyplot`` is imported), the figure is a
  pyplot figure: ``plt.show()``, ``plt.savefig`` and Jupyter's inline backend show it as
  they show every other;
* otherwise it is a plain `matplotlib.figure.Figure`, which changes no global state
  (pyplot's list of open figures stays as it was). A notebook would show a bare Axes of
  such a figure as text (``<Axes: ...>``); the Axes returned is a `ShownAxes`, whose
  `_repr_png_` gives the picture, so the last line of a cell shows the plot.

A plot that cannot be drawn (a ROC curve without actual negatives) says why on its
Axes (`draw_message`), in the colour of a warning.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from informed.errors import InputTypeError
from informed.plots.style import RED, fit, root_figure, sized_figure, style

__all__ = ["Frame", "ShownAxes", "draw_message", "drawing", "new_figure"]


@dataclass(frozen=True)
class Frame:
    """A plot's own figure: its size and fixed margins, in inches.

    With ``layout="constrained"`` matplotlib's layout engine places the axes instead of
    the margins (the heat map, whose label lengths are not known in advance).
    """

    width: float
    height: float
    left: float = 0.75
    right: float = 0.2
    bottom: float = 0.6
    top: float = 0.4
    layout: Literal["constrained"] | None = None


class ShownAxes(Axes):
    """An Axes that a notebook shows as its figure's picture (`_repr_png_`).

    Returned by the plot functions when they make the figure themselves. For a figure
    that pyplot manages, `_repr_png_` gives nothing: the inline backend already shows
    pyplot's figures at the end of the cell, and the plot would appear twice.
    """

    def _repr_png_(self) -> bytes | None:
        figure = root_figure(self)
        if getattr(figure.canvas, "manager", None) is not None:
            return None
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        return buffer.getvalue()


def new_figure(frame: Frame, *, pyplot: bool = False) -> Figure:
    """A figure of `frame`'s size: pyplot's (`pyplot=True`) or a plain `Figure`."""
    if pyplot:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=(frame.width, frame.height), layout=frame.layout)
        if frame.layout is None:
            figure.subplots_adjust(
                left=frame.left / frame.width,
                right=1 - frame.right / frame.width,
                bottom=frame.bottom / frame.height,
                top=1 - frame.top / frame.height,
            )
        return figure
    if frame.layout is not None:
        return Figure(figsize=(frame.width, frame.height), layout=frame.layout)
    return sized_figure(
        frame.width,
        frame.height,
        left=frame.left,
        right=frame.right,
        bottom=frame.bottom,
        top=frame.top,
    )


def _user_axes(ax: Any) -> Axes:
    if not isinstance(ax, Axes):
        msg = (
            "`ax` must be a matplotlib Axes (such as `fig, ax = plt.subplots()`), or None "
            f"for a new figure; got {type(ax).__name__}."
        )
        raise InputTypeError(msg)
    return ax


@contextmanager
def drawing(ax: Any, frame: Frame, name: str) -> Iterator[Axes]:
    """The Axes to draw on: `ax` itself, or a new figure's `ShownAxes` (see the module
    docstring), drawn in the report's style and fitted to its texts when the block ends.

    `name` is the plot's name (the salt of its SVG ids in the report).
    """
    if ax is not None:
        yield _user_axes(ax)
        return
    with style(name):
        figure = new_figure(frame, pyplot="matplotlib.pyplot" in sys.modules)
        axes = figure.add_subplot(axes_class=ShownAxes)
        yield axes
        fit(figure)


def draw_message(axes: Axes, title: str, reason: str) -> Axes:
    """`axes` with no data drawn: its title, and in its middle why the plot is undefined."""
    axes.set_axis_off()
    axes.set_title(title)
    axes.text(
        0.5,
        0.5,
        f"undefined: {reason}",
        ha="center",
        va="center",
        color=RED,
        wrap=True,
        transform=axes.transAxes,
        gid="undefined",
    )
    return axes
