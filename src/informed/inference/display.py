"""How the results of `informed.inference` show themselves: a readable repr and a notebook's
HTML view (`_repr_html_`) of a Bootstrap, a ranking bootstrap and a Significance test (an
Interval's own are in `informed.inference.interval`).

Functions of plain values built from the escaped pieces of `informed._markup` (the pieces
the HTML report uses), so that the result classes call them without an import cycle. A
repr is short: one line, or a heading and one line per measure (at most `SHOWN`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from informed._markup import (
    count_cell,
    fragment,
    header_cell,
    html_table,
    number,
    text_cell,
    value_cell,
)
from informed.inference.interval import Interval, interval_bounds, interval_row
from informed.measures import MEASURES
from informed.ranking import RANKING_MEASURES

__all__ = [
    "SHOWN",
    "bootstrap_heading",
    "intervals_html",
    "intervals_lines",
    "paired_html",
    "significance_html",
    "significance_repr",
]

SHOWN = 12
"""Measures a repr lists; the notebook view lists every one."""


def _title(name: str) -> str:
    if name in MEASURES:
        return MEASURES[name].title
    return RANKING_MEASURES[name].title if name in RANKING_MEASURES else name


def _short(value: float) -> str:
    return number(value, 4)


def bootstrap_heading(result: Any) -> str:
    """The first line of a table bootstrap's views: what was resampled, how, how often."""
    positive = result.positive
    about = "" if positive is None else f", label {positive!r} against the rest"
    weights = f", {result.weights_are} weights" if result.weights_are else ""
    return (
        f"Bootstrap of N = {result.table.n:g}{about}: {100 * result.level:g} % "
        f"{result.method} intervals, {result.replicates:,} replicates of {result.size:,} "
        f"cases{weights}"
    )


def intervals_lines(intervals: Mapping[str, Interval], shown: int = SHOWN) -> list[str]:
    """One line per measure, `name  estimate  level method [low, high]`, at most `shown`."""
    names = list(intervals)
    width = max((len(n) for n in names[:shown]), default=0)
    lines = [f"  {n.ljust(width)}  {_bounds_line(intervals[n])}" for n in names[:shown]]
    if len(names) > shown:
        lines.append(f"  ... and {len(names) - shown} more measures")
    return lines


def _bounds_line(interval: Interval) -> str:
    return f"{_short(interval.estimate)}  {interval_bounds(interval)}"


def intervals_html(
    title: str,
    intervals: Mapping[str, Interval],
    per_group: Mapping[Any, Mapping[str, Interval]] | None = None,
    group_caption: str = "",
    note: str | None = None,
) -> str:
    """Every measure's estimate and bounds (or why it has none), then, for each group
    (a label, a quota), its own intervals."""
    head = ["measure", "estimate", "low", "high", "note"]
    parts = [
        html_table(head, [interval_row(_title(n), i) for n, i in intervals.items()], styled=True)
    ]
    for group, by_measure in (per_group or {}).items():
        rows = [interval_row(_title(n), i) for n, i in by_measure.items()]
        parts.append(
            html_table(head, rows, caption=f"{group_caption} {group!r}".strip(), styled=True)
        )
    return fragment(title, parts, note=note)


def significance_repr(
    method: str, statistic: float, pvalue: float, df: float, reason: str | None
) -> str:
    """One line: the test, its statistic and degrees of freedom, the p-value.

    >>> significance_repr("chi-square", 3.84, 0.05, 1.0, None)
    'Significance(chi-square: statistic 3.8400, df 1, p = 0.0500)'
    """
    degrees = "" if math.isnan(df) else f", df {df:g}"
    tail = f"; {reason}" if reason else ""
    return (
        f"Significance({method}: statistic {_short(statistic)}{degrees}, "
        f"p = {_short(pvalue)}{tail})"
    )


def significance_html(
    method: str,
    null: str,
    values: Mapping[str, float],
    details: Mapping[str, float],
    interval: Interval | None,
    reason: str | None,
) -> str:
    """The test's numbers (statistic, p-value, df, estimate) and its details, escaped."""
    rows = [
        [
            header_cell(name, row=True),
            text_cell(f"{value:g}") if name == "df" else value_cell(value, reason),
        ]
        for name, value in values.items()
        if not (name in ("df", "estimate") and math.isnan(value))
    ]
    rows += [[header_cell(name, row=True), value_cell(value)] for name, value in details.items()]
    parts = [html_table(["", "value"], rows, styled=True)]
    if interval is not None:
        grid = html_table(
            ["", "estimate", "low", "high", "note"],
            [interval_row(f"{100 * interval.level:g} % {interval.method}", interval)],
            styled=True,
        )
        parts.append(grid)
    note = f"null hypothesis: {null}" + (f"; {reason}" if reason else "")
    return fragment(f"Significance test: {method}", parts, note=note)


def paired_html(both_right: int, first_only: int, second_only: int, both_wrong: int) -> str:
    """The paired correctness table of two classifiers: rows the first right or wrong,
    columns the second; McNemar's test reads the discordant cells."""
    rows = [
        [header_cell("first right", row=True), count_cell(both_right), count_cell(first_only)],
        [header_cell("first wrong", row=True), count_cell(second_only), count_cell(both_wrong)],
    ]
    grid = html_table(["", "second right", "second wrong"], rows, styled=True)
    title = (
        f"Paired correctness of {both_right + first_only + second_only + both_wrong:,} cases: "
        f"{first_only:,} right by the first only, {second_only:,} by the second only"
    )
    return fragment(title, [grid])
