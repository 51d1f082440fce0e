"""The plot of a slice search: a forest of the slices found, each slice's gap (the rest's
value less the slice's) with its simultaneous interval, against 0.

Every value drawn is read from the `SliceSearch` (`informed.find_slices`). ``draw_found``
draws on a given Axes (the HTML section calls it); ``plot_found_slices`` is the public
function (`informed.plot_found_slices`; see `informed.plots` for the Axes it draws on).
"""

from __future__ import annotations

from typing import Any

from matplotlib.axes import Axes

from informed.disparity.result import MEASURE_TITLES, SliceSearch
from informed.errors import InputTypeError
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.forest import ForestRow, Reference, draw_forest, forest_frame
from informed.plots.style import BLUE, ORANGE, short_label

__all__ = [
    "MAX_DRAWN",
    "draw_found",
    "found_frame",
    "found_title",
    "none_found",
    "plot_found_slices",
]

MAX_DRAWN = 40
"""The most slices one forest draws: the first ones in the search's ranking."""


def _search(function: str, search: Any) -> SliceSearch:
    if not isinstance(search, SliceSearch):
        msg = (
            f"{function}() draws a slice search: pass the result of `informed.find_slices("
            f"data, actual=..., predicted=..., columns=[...])`; got {type(search).__name__}."
        )
        raise InputTypeError(msg)
    return search


def found_title(search: SliceSearch) -> str:
    """The forest's title."""
    return f"Slices less informed than the rest ({MEASURE_TITLES[search.measure]})"


def none_found(search: SliceSearch) -> str:
    """Why the forest is empty."""
    return (
        f"no slice found: of {search.tested:,} tested, no {100 * search.level:g} % "
        "simultaneous interval of a gap excludes 0"
    )


def found_frame(search: SliceSearch, width: float = 6.0) -> Frame:
    """The forest's figure: a quarter inch per slice drawn."""
    return forest_frame(min(len(search.found), MAX_DRAWN), width=width)


def draw_found(axes: Axes, search: SliceSearch) -> int:
    """Draw each slice found (at most `MAX_DRAWN`, in the search's ranking, top first):
    its gap as a dot and its simultaneous interval as a bar, against 0; a slice found
    inside another slice found in orange. Return how many were drawn."""
    shown = search.found[:MAX_DRAWN]
    rows = [
        ForestRow(
            f"{rank}. {short_label(f.name, 40)}",
            f.gap,
            f.interval.low,
            f.interval.high,
            colour=BLUE if f.within is None else ORANGE,
        )
        for rank, f in enumerate(shown, start=1)
    ]
    more = len(search.found) - len(shown)
    draw_forest(
        axes,
        rows,
        [Reference(0.0, "zero")],
        xlabel=f"gap = rest − slice, {100 * search.level:g} % simultaneous interval "
        f"({search.hypotheses:,} hypotheses)" + (f"; {more:,} more not drawn" if more else ""),
        title=found_title(search),
    )
    return len(rows)


def plot_found_slices(search: Any, *, ax: Axes | None = None) -> Axes:
    """A forest plot of the slices a search found, ranked as the search ranks them.

    Parameters
    ----------
    search : SliceSearch
        The result of `informed.find_slices`: each slice found with its gap (the rest's
        informedness, markedness or AUC less the slice's) and the gap's interval, which
        holds simultaneously over every hypothesis the search tested (Bonferroni).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per slice drawn (y counted from the bottom; the first `MAX_DRAWN` of the ranking,
        the first at the top, named "rank. slice") its gap (a line with gid "estimate-<y>")
        and its interval ("interval-<y>"), blue, or orange for a slice found inside
        another slice found; the zero line (gid "zero"). Every bar misses 0: that is
        why the slice is reported. With no slice found, the Axes says so.

    Examples
    --------
    >>> import informed
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> group = rng.choice(["a", "b", "c", "d"], 4000)
    >>> actual = rng.integers(0, 2, 4000)
    >>> right = rng.random(4000) < np.where(group == "d", 0.6, 0.9)
    >>> search = informed.find_slices(columns={"group": group}, actual=actual,
    ...                               predicted=np.where(right, actual, 1 - actual))
    >>> ax = informed.plot_found_slices(search)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['1. group=d']
    """
    data = _search("plot_found_slices", search)
    with drawing(ax, found_frame(data), "plot-found-slices") as axes:
        if not data.found:
            draw_message(axes, found_title(data), none_found(data))
        else:
            draw_found(axes, data)
    return axes
