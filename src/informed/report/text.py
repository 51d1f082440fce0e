"""The terminal report, drawn with rich: readable in thirty seconds, as wide as the terminal.

Order: the contingency table with its margins and the fair-odds payoff; the headline
(informedness, markedness, correlation, with intervals when computed); every measure,
an undefined one saying why; per label with the label-bias diagnostics; then the ranking.
Many labels are summarised (the most frequent shown, by the larger of how often a label
is predicted and how often it occurs; the rest pooled into one row and column) unless
`all_labels` is set. Every heading, formula and name comes from the registries
(`informed.measures.MEASURES`, `informed.ranking.RANKING_MEASURES`).

Presentation only: each function formats typed results computed before (an `Evaluation`
and its `Payoff`, a `RankingSummary`, a `Bootstrap`, a `TallySummary`). Text given by the
user (labels, file names, categories) is shown with its control characters escaped
(`informed._common.printable`) and never read as rich markup. Colour is used only on a
terminal; redirected output is plain text, `width` columns wide (100 by default; the
command line passes the terminal's width). An interval is never wrapped over two lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text

from informed._common import cut_apart, printable
from informed._terminal import MIN_WIDTH, WIDTH
from informed._terminal import fits as _fits
from informed._terminal import grid as _grid
from informed._terminal import render as _render
from informed._terminal import split as _split
from informed._terminal import titled as _titled
from informed._terminal import value as _value
from informed.inference.design import design_note
from informed.inference.interval import Interval, undefined_notes
from informed.inference.table_bootstrap import Bootstrap
from informed.measures import MEASURES
from informed.ranking.document import AREAS, SUMMARIES, RankingSummary, value_range
from informed.ranking.registry import LIFT_COLUMNS, RANKING_MEASURES
from informed.report.contents import (
    HEADLINE,
    PER_LABEL,
    PER_LABEL_HEADINGS,
    pooled_square,
    top_labels,
)
from informed.report.document import bootstrap_document
from informed.report.references import references_of
from informed.report.rows import STREAMED_LABELS, per_label_lines
from informed.report.tally_text import render_tally
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff, payoff

__all__ = [
    "MIN_WIDTH",
    "SHOWN_LABELS",
    "WIDTH",
    "render_evaluation",
    "render_ranking",
    "render_tally",
]

SHOWN_LABELS = 8
"""Labels shown in the contingency and payoff tables before the rest are pooled."""


def _count(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else f"{value:,}"


def _interval(intervals: Bootstrap | None, name: str) -> Text | None:
    """`[low, high]` of a measure as one unbreakable piece, "undefined", or None."""
    if intervals is None or name not in intervals.intervals:
        return None
    found: Interval = intervals.intervals[name]
    if math.isnan(found.low) or math.isnan(found.high):
        return Text("undefined", no_wrap=True)
    return Text(f"[{found.low:.4f}, {found.high:.4f}]", no_wrap=True)


def _shown_labels(evaluation: Evaluation, limit: int | None) -> tuple[list[int], int]:
    """Positions in the table's labels of at most `limit` labels to show (None: all) and
    how many are pooled: the most frequent first, by the larger of how often a label is
    predicted and how often it occurs."""
    table = evaluation.table
    count = len(table.labels)
    if limit is None or count <= limit:
        return list(range(count)), 0
    keep = top_labels(table, max(limit - 1, 1))
    return keep, count - len(keep)


def _label_limit(
    build: Callable[[int], Sequence[tuple[str, RichTable]]], all_labels: bool, width: int
) -> int | None:
    """The most labels (up to SHOWN_LABELS, at least 2) whose tables `build(limit)` fit in
    `width` columns; None (every label, however wide) with `all_labels`."""
    if all_labels:
        return None
    for limit in range(SHOWN_LABELS, 2, -1):
        if all(_fits(grid, width) for _, grid in build(limit)):
            return limit
    return 2


def _contingency(evaluation: Evaluation, limit: int | None) -> tuple[str, RichTable]:
    index, pooled = _shown_labels(evaluation, limit)
    labels = evaluation.table.labels
    shown = [labels[i] for i in index]
    square = pooled_square(evaluation.table, index)  # the last row and column: the rest
    integer = not evaluation.table.weighted
    title = "Contingency table: rows predicted, columns actual"
    if pooled:
        title += (
            f" ({pooled} least frequent labels, by the larger of predicted and actual "
            "counts, pooled as 'other')"
        )
    grid = _grid()
    grid.add_column("predicted \\ actual", style="bold", no_wrap=True)
    names = [Text(x) for x in cut_apart(shown, 12)] + ([Text("other")] if pooled else [])
    for name in names:
        grid.add_column(name, justify="right", no_wrap=True)
    grid.add_column("total", justify="right", style="dim", no_wrap=True)
    size = len(shown) + (1 if pooled else 0)
    heads = [Text(x) for x in cut_apart(shown, 18)] + ([Text("other")] if pooled else [])

    def number(value: float) -> str:
        return _count(int(value) if integer else float(value))

    for k, head in enumerate(heads):
        row = square[k]
        grid.add_row(head, *(number(c) for c in row[:size]), number(row.sum()))
    totals = square.sum(axis=0)
    grid.add_row("total", *(number(c) for c in totals[:size]), number(square.sum()), style="dim")
    return title, grid


def _payoff(evaluation: Evaluation, pay: Payoff, limit: int | None) -> tuple[str, RichTable]:
    index, pooled = _shown_labels(evaluation, limit)
    labels = evaluation.table.labels
    block = pay.block(index, index)
    grid = _grid()
    grid.add_column("bet on", style="bold", no_wrap=True)
    tops = cut_apart([labels[i] for i in index], 10)
    sides = cut_apart([labels[i] for i in index], 18)
    for top in tops:
        grid.add_column(Text(top), justify="right", no_wrap=True)
    grid.add_column("won", justify="right")
    grid.add_column("weighted", justify="right")
    for k, i in enumerate(index):
        grid.add_row(
            Text(sides[k]),
            *(_value(float(v), 3) for v in block[k]),
            _value(float(pay.won[i]), 3),
            _value(float(pay.weighted[i]), 3),
        )
    if pooled:
        grid.caption = f"{pooled} labels not shown; their rows add to the total below"
    grid.add_row("total", *([""] * len(index)), "", _value(pay.informedness, 3), style="bold")
    title = (
        "Fair-odds payoff per unit stake: each row wins its label's informedness "
        "(weighted = won x pP)"
    )
    return title, grid


def _headline(result: Evaluation, intervals: Bootstrap | None) -> RichTable | Group:
    grid = _grid(header=False)
    grid.add_column("measure", style="bold", no_wrap=True)
    grid.add_column("value", justify="right", style="bold cyan", no_wrap=True)
    grid.add_column("interval", no_wrap=True)
    for name in HEADLINE:
        grid.add_row(
            MEASURES[name].title, _value(result.measures[name]), _interval(intervals, name)
        )
    if intervals is None:
        return grid
    note = Text(design_note(bootstrap_document(intervals)), style="dim")
    return Group(grid, note, *_undefined_replicates(intervals, HEADLINE))


def _undefined_replicates(intervals: Bootstrap, names: Sequence[str]) -> list[Text]:
    """How many replicates were undefined and left out of the measures' intervals, one
    line per count with the measures it holds for (as the calibration report says it)."""
    titles = {name: MEASURES[name].title for name in names}
    notes = undefined_notes(intervals.intervals, titles)
    return [Text("\n".join(notes), style="yellow")] if notes else []


def _measures(result: Evaluation, intervals: Bootstrap | None) -> Group:
    title = "Every measure"
    if result.positive is not None:
        title += f" (label {printable(repr(result.positive))} against the rest)"
    grid = _grid(expand=True)
    grid.add_column("measure", no_wrap=True)
    grid.add_column("value", justify="right", no_wrap=True)
    if intervals is not None:
        grid.add_column("interval", justify="right", no_wrap=True)
    grid.add_column("formula / why undefined", overflow="ellipsis", no_wrap=True, ratio=1)
    for name, measure in MEASURES.items():
        note = (
            Text(f"undefined: {printable(result.reasons[name])}", style="yellow")
            if name in result.reasons
            else Text(measure.formula, style="dim")
        )
        cells: list[Any] = [measure.title, _value(result.measures[name])]
        if intervals is not None:
            cells.append(_interval(intervals, name) or "")
        grid.add_row(*cells, note)
    if intervals is None:
        return _titled(title, grid)
    return Group(_titled(title, grid), *_undefined_replicates(intervals, list(MEASURES)))


def _per_label(result: Evaluation, all_labels: bool, width: int) -> Group | None:
    every = result.table.labels
    if not every:
        return None
    hidden = 0
    keep = list(range(len(every)))
    if not all_labels and len(every) > 2 * SHOWN_LABELS:
        keep = top_labels(result.table, 2 * SHOWN_LABELS)
        hidden = len(every) - len(keep)
    labels = [every[i] for i in keep]

    def grid_of(names: Sequence[str]) -> RichTable:
        grid = _grid()
        grid.add_column("label", no_wrap=True)
        for name in names:
            grid.add_column(PER_LABEL_HEADINGS[name], justify="right")
        for label, shown in zip(labels, cut_apart(labels, 16), strict=True):
            values = result.per_label[label]
            grid.add_row(Text(shown), *(_value(values[n], 3) for n in names))
        return grid

    grids = _split(grid_of, PER_LABEL, width)
    if hidden:
        grids[-1].caption = (
            f"{hidden} less frequent labels not shown (--all-labels lists them; "
            "frequency is the larger of bias and prevalence)"
        )
    title = "Per label, one against the rest (an unbiased label predicts as often as it occurs)"
    return Group(Text(title, style="bold"), *grids)


def render_evaluation(
    result: Evaluation,
    source: str,
    intervals: Bootstrap | None = None,
    *,
    pay: Payoff | None = None,
    all_labels: bool = False,
    color: bool = False,
    width: int = WIDTH,
    per_label: bool = True,
) -> str:
    """The contingency report as text (ANSI colours only when `color`).

    `intervals` is a `Bootstrap` of the same table (`informed.bootstrap`), `pay` the
    table's `Payoff` (computed here only when not given); `width` is the number of
    columns (at least `MIN_WIDTH`). With `all_labels` and more than `STREAMED_LABELS`
    labels, the contingency and payoff tables stay summarised and the per-label rows are
    plain lines (`informed.report.rows.per_label_lines`, which the command line streams;
    `per_label=False` leaves them out).
    """
    if pay is None:
        pay = payoff(result.table)
    many = all_labels and len(result.table.labels) > STREAMED_LABELS
    head = Text(f"{printable(source)}: N = {_count(result.table.n)}", style="bold")
    if result.positive is not None:
        head.append(f", positive label {printable(repr(result.positive))}")
    parts: list[Any] = [head, "", _headline(result, intervals), ""]

    def tables(limit: int | None) -> list[tuple[str, RichTable]]:
        assert pay is not None
        return [_contingency(result, limit), _payoff(result, pay, limit)]

    limit = _label_limit(tables, all_labels and not many, width)
    parts += [_titled(*part) for part in tables(limit)]
    parts.append(_measures(result, intervals))
    if per_label and not many:
        section = _per_label(result, all_labels, width)
        if section is not None:
            parts.append(section)
    text = _render(parts, color, width)
    if per_label and many:
        text += "\n" + "\n".join(per_label_lines(result, width))
    return text


def _legend(names: Sequence[str]) -> Text:
    """Each measure's title, definition and source, from the registry."""
    text = Text(style="dim")
    for name in names:
        measure = RANKING_MEASURES[name]
        text.append(f"{measure.title}: {measure.definition}. {measure.source}.\n")
    text.rstrip()
    return text


def _references(sources: Sequence[str]) -> Text:
    """The full reference of every work cited in `sources`."""
    listed = references_of(sources)
    return Text(
        ("References: " if len(listed) > 1 else "Reference: ") + " ".join(listed), style="dim"
    )


def render_ranking(
    summary: RankingSummary, positive: object, *, color: bool = False, width: int = WIDTH
) -> str:
    """The ranking section: AUC, average hit rate, average Qrecall, PEM and its areas, the
    values at the quotas and the lift table, each measure defined from the registry."""
    head = Text(
        f"Ranking by score: positive class {printable(repr(positive))}; tied scores share "
        "their group's positives",
        style="bold",
    )
    shown = (*SUMMARIES, *AREAS)
    with_notes = any(name in summary.reasons for name in shown)
    grid = _grid(expand=with_notes)
    grid.add_column("summary", no_wrap=True)
    grid.add_column("value", justify="right", no_wrap=True)
    grid.add_column("range", justify="right", no_wrap=True)
    grid.add_column("chance", justify="right", no_wrap=True)
    if with_notes:
        grid.add_column("note", overflow="fold", ratio=1)
    for name in shown:
        measure = RANKING_MEASURES[name]
        why = summary.reasons.get(name)
        cells: list[Any] = [
            measure.title,
            _value(summary.values[name]),
            value_range(measure.low, measure.high),
            measure.chance or "",
        ]
        if with_notes:
            cells.append(Text(f"undefined: {why}", style="yellow") if why else "")
        grid.add_row(*cells)
    parts: list[Any] = [head, grid, _legend(shown)]
    if summary.at_quota:
        quota_names = [n for n, m in RANKING_MEASURES.items() if m.kind == "at_quota"]

        def quota_grid(names: Sequence[str]) -> RichTable:
            grid = _grid()
            grid.add_column("J", justify="right", no_wrap=True)
            for name in names:
                grid.add_column(RANKING_MEASURES[name].title, justify="right")
            for quota, values in summary.at_quota.items():
                grid.add_row(quota, *(_value(values[n]) for n in names))
            return grid

        notes = [
            f"{RANKING_MEASURES[name].title} at J = {quota} is undefined: {why}"
            for quota in summary.at_quota
            for name, why in summary.quota_reasons.get(quota, {}).items()
        ]
        grids = _split(quota_grid, quota_names, width)
        parts += ["", Group(Text("At quota J (the top J cases acted on)", style="bold"), *grids)]
        parts.append(_legend(quota_names))
        if notes:
            parts.append(Text("\n".join(notes), style="yellow"))
    records = summary.lift.to_records()
    if records:

        def lift_grid(keys: Sequence[str]) -> RichTable:
            grid = _grid()
            grid.add_column(LIFT_COLUMNS["bin"][0], justify="right", no_wrap=True)
            for key in keys:
                grid.add_column(LIFT_COLUMNS[key][0], justify="right")
            for row in records:
                grid.add_row(
                    str(row["bin"]),
                    *(_value(row[k], 1 if k in ("quota", "positives") else 4) for k in keys),
                )
            return grid

        keys = [key for key in LIFT_COLUMNS if key != "bin"]
        title = (
            "Bins of the ranking: within each bin, then cumulative (lift = hit rate / prevalence)"
        )
        parts += ["", Group(Text(title, style="bold"), *_split(lift_grid, keys, width))]
    parts += ["", _references([RANKING_MEASURES[n].source for n in RANKING_MEASURES])]
    return _render(parts, color, width)
