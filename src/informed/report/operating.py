"""The terminal text of an operating point: where the scores were cut, and what it gives.

Presentation only: the numbers are read from an `OperatingPoint`
(`Ranking.best_threshold` or `Ranking.at_threshold`) and its interval, when computed
(`informed.inference.threshold_interval`).
"""

from __future__ import annotations

import math
from typing import Any

from rich.text import Text

from informed._common import cut_apart  # names cut apart, as every report cuts them

# the terminal report's own table, rendering and user text, so both read the same
from informed._terminal import WIDTH, grid, render
from informed.inference.interval import Interval
from informed.measures import MEASURES
from informed.ranking.operating import OperatingPoint

__all__ = ["render_operating_point"]


def _title(measure: str) -> str:
    return MEASURES[measure].title if measure in MEASURES else "Mean cost per case"


def render_operating_point(
    point: OperatingPoint,
    interval: Interval | None = None,
    *,
    color: bool = False,
    width: int = WIDTH,
) -> str:
    """The threshold, how it was chosen, its 2x2 table and the value there."""
    if math.isnan(point.threshold):
        return render([Text(f"No threshold: {point.reason}", style="yellow")], color, width)
    how = (
        f"the best {_title(point.measure).lower()}"
        if point.chosen_by == "best"
        else "the threshold given"
    )
    if point.quota is not None:
        how += f" among cuts predicting at most {point.quota:g} cases"
    head = Text(f"Operating point: score >= {point.threshold:.6g} ({how})", style="bold")
    value = "undefined" if math.isnan(point.value) else f"{point.value:.4f}"
    line = f"{_title(point.measure)} {value}"
    if interval is not None and not math.isnan(interval.low):
        note = "bootstrap, the threshold chosen again in each replicate"
        if point.chosen_by != "best":
            note = "bootstrap at this threshold"
        line += f" [{interval.low:.4f}, {interval.high:.4f}] ({100 * interval.level:g} % {note})"
    if point.reason:
        line += f"; undefined: {point.reason}"
    table = grid()
    table.add_column("predicted \\ actual", style="bold")
    positive, negative = point.positive, point.negative  # the positive class first
    for top in cut_apart([positive, negative], 16):
        table.add_column(Text(top), justify="right")
    tp, fp, fn, tn = point.cells
    sides = cut_apart([positive, negative], 18)
    for side, row in zip(sides, ((tp, fp), (fn, tn)), strict=True):
        table.add_row(Text(side), *(f"{c:,g}" for c in row))
    rates = Text(
        f"true positive rate {point.true_positive_rate:.4f}, false positive rate "
        f"{point.false_positive_rate:.4f}",
        style="dim",
    )
    parts: list[Any] = [head, line, table, rates]
    return render(parts, color, width)
