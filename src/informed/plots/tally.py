"""The plot of a tally: each category's value (informedness by default) with its interval,
against the micro and macro values.

Every value drawn is read from `TallyIntervals` (`informed.inference.tally_intervals`):
each category's value and the bootstrap interval of its own 2x2 table, the micro and
macro values. `draw_tally` draws on a given Axes (the HTML report calls it);
`plot_tally` is the public function (see `informed.plots`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from informed.errors import InputError, InputTypeError
from informed.inference.tally_intervals import TallyIntervals, tally_intervals
from informed.measures import MEASURES, measure_name
from informed.plots.axes import Frame, draw_message, drawing
from informed.plots.forest import ForestRow, Reference, draw_forest, forest_frame
from informed.plots.style import BLUE, GREY, ORANGE, RED, legend_below, short_labels
from informed.tally.tally import Tally

__all__ = ["MAX_CATEGORIES", "draw_tally", "plot_tally", "shown_categories", "tally_frame"]

MAX_CATEGORIES = 40
"""The plot draws at most this many categories: those with the most real positives."""


def shown_categories(result: TallyIntervals, name: str, limit: int = MAX_CATEGORIES) -> list[str]:
    """The categories drawn, top first: at most `limit`, those with the most real
    positives (a + c) kept, sorted by the value of `name` (undefined last)."""
    categories = list(result.tally.categories)
    if len(categories) > limit:
        counts = result.tally.counts
        support = counts[:, 0, 0] + counts[:, 1, 0]
        order = np.lexsort((np.arange(len(categories)), -support))[:limit]
        categories = [categories[i] for i in sorted(order.tolist())]

    def key(category: str) -> tuple[bool, float]:
        value = result.per_category[category][name].estimate
        return math.isnan(value), -value if not math.isnan(value) else 0.0

    return sorted(categories, key=key)


def tally_frame(result: TallyIntervals, name: str) -> Frame:
    """The plot's figure: a quarter inch per category drawn."""
    return forest_frame(len(shown_categories(result, name)), width=5.0)


def draw_tally(axes: Axes, result: TallyIntervals, name: str = "informedness") -> str:
    """Draw each category's value of `name` with its interval (hollow and red where the
    interval is undefined), the micro value (solid line) and the macro value (dashed);
    return the title."""
    shown = shown_categories(result, name)
    rows = []
    for category, label in zip(shown, short_labels(shown, 26), strict=True):
        interval = result.per_category[category][name]
        missing = math.isnan(interval.low)
        rows.append(
            ForestRow(
                label,
                interval.estimate,
                interval.low,
                interval.high,
                colour=RED if missing else BLUE,
                hollow=missing,
            )
        )
    title = f"{MEASURES[name].title} per category"
    left = len(result.tally.categories) - len(shown)
    draw_forest(
        axes,
        rows,
        [
            Reference(result.micro[name].estimate, "micro", ORANGE, "-", "micro (pooled table)"),
            Reference(result.macro[name].estimate, "macro", GREY, "--", "macro (mean)"),
        ],
        xlabel=f"{MEASURES[name].title.lower()}, {100 * result.level:g} % interval"
        + (f"; {len(shown)} of {len(result.tally.categories)} categories" if left else ""),
        title=title,
    )
    if axes.get_legend_handles_labels()[0]:
        legend_below(axes)
    return title


def plot_tally(
    tally: Any,
    measure: str = "informedness",
    *,
    level: float = 0.95,
    replicates: int = 2000,
    seed: int | np.random.Generator | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Each category's value with its interval, against the micro and macro values.

    Parameters
    ----------
    tally : Tally or TallyIntervals
        A `Tally` (its intervals are computed here: `level`, `replicates`, `seed`), or
        the intervals already made (`informed.inference.tally_intervals`).
    measure : str
        A registry measure by any of its names ("recall", "tpr", "F1"); informedness
        by default (Powers 2011).
    level, replicates, seed
        For a Tally: the intervals' level, the bootstrap replicates of each category's
        table, and the seed of its random numbers.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        Per category (y counted from the bottom) its value (a line with gid
        "estimate-<y>") and interval ("interval-<y>"); the micro value (gid "micro") and
        the macro value (gid "macro") as vertical lines. At most 40 categories are drawn,
        those with the most real positives.

    Notes
    -----
    A tally keeps the 2x2 table of each category, not the documents: a category's
    interval is a percentile bootstrap of its table's cells (Wilson's interval for a
    proportion such as recall), treating its (document, category) decisions as
    independent; see `informed.inference.tally_intervals`.

    Examples
    --------
    >>> import informed
    >>> t = informed.Tally(["sports", "politics", "weather"])
    >>> for _ in range(10):
    ...     t.add_result(["sports"], ["sports", "politics"])
    ...     t.add_result(["politics"], ["politics"])
    ...     t.add_result([], ["weather"])
    ...     t.add_result(["weather"], [])
    >>> ax = informed.plot_tally(t, seed=0, replicates=200)
    >>> [t.get_text() for t in ax.get_yticklabels()]  # bottom to top
    ['weather', 'politics', 'sports']
    """
    measure = measure_name(measure)  # any name of the measure: "tpr", "F1"
    if isinstance(tally, Tally):
        result = tally_intervals(tally, [measure], level=level, replicates=replicates, seed=seed)
    elif isinstance(tally, TallyIntervals):
        result = tally
    else:
        msg = (
            "plot_tally() draws a Tally, or its intervals (`informed.inference."
            f"tally_intervals`); got {type(tally).__name__}."
        )
        raise InputTypeError(msg)
    if measure not in result.measures:
        msg = (
            f"the intervals hold {list(result.measures)}, not {measure!r}: make them with "
            f"tally_intervals(tally, [{measure!r}])."
        )
        raise InputError(msg)
    with drawing(ax, tally_frame(result, measure), "plot-tally") as axes:
        if not result.tally.categories:
            draw_message(axes, f"{MEASURES[measure].title} per category", "no categories")
        else:
            draw_tally(axes, result, measure)
    return axes
