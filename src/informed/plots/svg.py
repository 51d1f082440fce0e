"""A plot as one inline ``<svg>`` element, ready to be placed in an HTML page.

The HTML report draws each plot with the same function a notebook calls (``draw_*`` of
`informed.plots`) on a figure of its own, then `svg` renders it: no XML prolog, no
metadata, no namespace URLs, every ``id`` prefixed with the plot's name so that several
plots share one page, and the same bytes for the same input (a fixed hash salt, no
date). The figure's margins are first grown until every text lies inside it (`fit`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from informed.plots.axes import Frame, draw_message, new_figure
from informed.plots.style import fit, style

__all__ = ["drawn_svg", "message_svg", "report_axes", "svg"]

T = TypeVar("T")

_TAG = re.compile(r"<[^>]*>")


@contextmanager
def report_axes(frame: Frame, name: str) -> Iterator[Axes]:
    """The Axes of a new plain figure of `frame`, in the report's style (never pyplot's:
    a report written from a notebook adds no figure to pyplot's list)."""
    with style(name):
        yield new_figure(frame).subplots()


def drawn_svg(
    frame: Frame, name: str, draw: Callable[[Axes], T], description: Callable[[T], str]
) -> str:
    """`draw` on a new figure of `frame`, rendered as <svg id=name>; its aria-label is
    `description` of what `draw` returned (the plot's title, say)."""
    with report_axes(frame, name) as axes:
        drawn = draw(axes)
        figure = axes.get_figure(root=True)
        assert isinstance(figure, Figure)
        return svg(figure, name, description(drawn))


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


def message_svg(name: str, title: str, message: str) -> str:
    """A small figure that says why a plot could not be drawn."""
    frame = Frame(5.0, 1.6, left=0.1, right=0.1, bottom=0.1, top=0.4)
    with report_axes(frame, name) as axes:
        draw_message(axes, title, message)
        figure = axes.get_figure(root=True)
        assert isinstance(figure, Figure)
        return svg(figure, name, f"{title}: undefined, {message}")
