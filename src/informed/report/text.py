"""The terminal report, drawn with rich: readable in thirty seconds, 100 columns wide.

Order: the contingency table with its margins and the fair-odds payoff; the headline
(informedness, markedness, correlation, with intervals when computed); every measure,
an undefined one saying why; per label with the label-bias diagnostics; then the ranking.
Many labels are summarised (the most prevalent shown, the rest pooled into one row and
column) unless `all_labels` is set. Every heading, formula and name comes from the
measure registry. Colour is used only on a terminal; redirected output is plain text.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from informed.labels import Label
from informed.measures import MEASURES
from informed.table.evaluation import Evaluation
from informed.table.payoff import payoff
from informed.table.table import Table

__all__ = ["SHOWN_LABELS", "WIDTH", "render_evaluation", "render_ranking", "render_tally"]

WIDTH = 100
SHOWN_LABELS = 8
"""Labels shown in the contingency and payoff tables before the rest are pooled."""
HEADLINE = ("informedness", "markedness", "correlation")
PER_LABEL = {
    "recall": "recall",
    "precision": "precision",
    "f_measure": "F",
    "informedness": "informed.",
    "markedness": "marked.",
    "bias": "bias pP",
    "prevalence": "prev. pR",
    "bias_ratio": "pP / pR",
}


def _console(color: bool) -> Console:
    return Console(
        file=io.StringIO(),
        width=WIDTH,
        force_terminal=color,
        color_system="standard" if color else None,
        highlight=False,
        soft_wrap=False,
    )


def _grid(title: str | None = None, *, header: bool = True) -> RichTable:
    """A borderless table whose title never wraps (the table is at least as wide)."""
    return RichTable(
        title=title,
        box=box.SIMPLE_HEAD,
        title_justify="left",
        title_style="bold",
        pad_edge=False,
        show_header=header,
        min_width=min(len(title) + 1, WIDTH) if title else None,
    )


def _render(parts: Sequence[Any], color: bool) -> str:
    console = _console(color)
    for part in parts:
        console.print(part)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return str(text).rstrip("\n")


def _value(value: float | None, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def _count(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else f"{value:,}"


def _shown_labels(table: Table, all_labels: bool) -> tuple[list[Label], int]:
    """The labels to show (most prevalent, then most predicted) and how many are pooled."""
    labels, square = table.square()
    if all_labels or len(labels) <= SHOWN_LABELS:
        return list(labels), 0
    weight = square.sum(axis=0) * (square.sum() + 1) + square.sum(axis=1)
    order = sorted(range(len(labels)), key=lambda i: -float(weight[i]))[: SHOWN_LABELS - 1]
    keep = sorted(order)
    return [labels[i] for i in keep], len(labels) - len(keep)


def _contingency(table: Table, all_labels: bool) -> RichTable:
    shown, pooled = _shown_labels(table, all_labels)
    labels, square = table.square()
    index = [labels.index(x) for x in shown]
    rest = [i for i in range(len(labels)) if i not in index]
    title = "Contingency table: rows predicted, columns actual"
    if pooled:
        title += f" ({pooled} least frequent labels pooled as 'other')"
    grid = _grid(title)
    grid.add_column("predicted \\ actual", style="bold")
    names = [str(x) for x in shown] + (["other"] if pooled else [])
    for name in names:
        grid.add_column(name[:12], justify="right")
    grid.add_column("total", justify="right", style="dim")
    rows = [square[i] for i in index] + ([square[rest].sum(axis=0)] if pooled else [])
    for name, row in zip(names, rows, strict=True):
        cells = [row[i] for i in index] + ([row[rest].sum()] if pooled else [])
        grid.add_row(name[:18], *(_count(c.item()) for c in cells), _count(row.sum().item()))
    totals = square.sum(axis=0)
    col_cells = [totals[i] for i in index] + ([totals[rest].sum()] if pooled else [])
    grid.add_row(
        "total", *(_count(c.item()) for c in col_cells), _count(square.sum().item()), style="dim"
    )
    return grid


def _payoff(table: Table, all_labels: bool) -> RichTable:
    pay = payoff(table)
    shown, pooled = _shown_labels(table, all_labels)
    grid = _grid("Fair-odds payoff per unit stake: each row wins its label's informedness")
    grid.add_column("bet on", style="bold")
    for label in shown:
        grid.add_column(str(label)[:10], justify="right")
    grid.add_column("won", justify="right")
    grid.add_column("x pP = weighted", justify="right")
    for label in shown:
        i = pay.labels.index(label)
        cells = [_value(float(pay.matrix[i, pay.labels.index(c)]), 3) for c in shown]
        grid.add_row(
            str(label)[:18], *cells, _value(float(pay.won[i]), 3), _value(float(pay.weighted[i]), 3)
        )
    if pooled:
        grid.caption = f"{pooled} labels not shown; their rows add to the total below"
    grid.add_row("total", *([""] * len(shown)), "", _value(pay.informedness, 3), style="bold")
    return grid


def _interval(intervals: Mapping[str, Sequence[float | None]] | None, name: str) -> str:
    if not intervals or name not in intervals:
        return ""
    low, high = intervals[name]
    if low is None or high is None:
        return "undefined"
    return f"[{low:.4f}, {high:.4f}]"


def _headline(
    result: Evaluation,
    intervals: Mapping[str, Sequence[float | None]] | None,
    level: float | None,
    note: str | None = None,
) -> Any:
    line = Text()
    for name in HEADLINE:
        measure = MEASURES[name]
        line.append(f"{measure.title} ", style="bold")
        line.append(_value(result.measures[name]), style="bold cyan")
        shown = _interval(intervals, name)
        if shown:
            line.append(f" {shown}")
        line.append("   ")
    if intervals and level:
        line.append("\n" + (note or f"({100 * level:g} % bootstrap intervals)"), style="dim")
    return line


def _measures(
    result: Evaluation, intervals: Mapping[str, Sequence[float | None]] | None
) -> RichTable:
    title = "Every measure"
    if result.positive is not None:
        title += f" (label {result.positive!r} against the rest)"
    grid = _grid(title)
    grid.add_column("measure")
    grid.add_column("value", justify="right")
    if intervals:
        grid.add_column("interval", justify="right")
    grid.add_column("formula / why undefined", overflow="ellipsis", no_wrap=True, max_width=52)
    for name, measure in MEASURES.items():
        value = result.measures[name]
        note = (
            Text(f"undefined: {result.reasons[name]}", style="yellow")
            if name in result.reasons
            else Text(measure.formula, style="dim")
        )
        cells: list[Any] = [measure.title, _value(value)]
        if intervals:
            cells.append(_interval(intervals, name))
        grid.add_row(*cells, note)
    return grid


def _per_label(result: Evaluation, all_labels: bool) -> RichTable | None:
    labels = list(result.per_label)
    if not labels:
        return None
    hidden = 0
    if not all_labels and len(labels) > 2 * SHOWN_LABELS:
        by_prevalence = sorted(labels, key=lambda x: -result.per_label[x]["prevalence"])
        keep = set(by_prevalence[: 2 * SHOWN_LABELS])
        hidden = len(labels) - len(keep)
        labels = [x for x in labels if x in keep]
    grid = _grid(
        "Per label, one against the rest (an unbiased label predicts as often as it occurs)"
    )
    grid.add_column("label", max_width=16, overflow="ellipsis", no_wrap=True)
    for heading in PER_LABEL.values():
        grid.add_column(heading, justify="right")
    for label in labels:
        values = result.per_label[label]
        grid.add_row(str(label), *(_value(values[n], 3) for n in PER_LABEL))
    if hidden:
        grid.caption = f"{hidden} less prevalent labels not shown (--all-labels lists them)"
    return grid


def render_evaluation(
    result: Evaluation,
    source: str,
    intervals: Mapping[str, Sequence[float | None]] | None = None,
    level: float | None = None,
    *,
    all_labels: bool = False,
    color: bool = False,
    interval_note: str | None = None,
) -> str:
    """The contingency report as text (ANSI colours only when `color`); `interval_note`
    says how the intervals were made (`informed.inference.design_note`)."""
    table = result.table
    head = Text(f"{source}: N = {_count(table.n)}", style="bold")
    if result.positive is not None:
        head.append(f", positive label {result.positive!r}")
    parts: list[Any] = [head, "", _headline(result, intervals, level, interval_note), ""]
    parts += [
        _contingency(table, all_labels),
        _payoff(table, all_labels),
        _measures(result, intervals),
    ]
    per_label = _per_label(result, all_labels)
    if per_label is not None:
        parts.append(per_label)
    return _render(parts, color)


def render_ranking(report: Mapping[str, Any], positive: object, *, color: bool = False) -> str:
    """The ranking section: AUC, average hit rate, average Qrecall, PEM, quotas, bins."""
    head = Text(
        f"Ranking by score: positive class {positive!r}; tied scores share their group's positives",
        style="bold",
    )
    summary = _grid(header=False)
    summary.add_column("summary")
    summary.add_column("value", justify="right")
    summary.add_column("meaning", style="dim")
    for key, title, meaning in (
        ("auc", "AUC", "P(a positive outscores a negative), ties 1/2; chance 0.5"),
        (
            "average_hit_rate",
            "Average hit rate",
            "precision averaged at each positive (seed 004, eq. 12)",
        ),
        ("average_qrecall", "Average Qrecall", "recall averaged over quotas >= n+ (eq. 13)"),
        ("pem", "PEM", "area gained over random / possible (eq. 14-15) = 2 AUC - 1"),
    ):
        why = (report.get("undefined") or {}).get(key)
        summary.add_row(title, _value(report.get(key)), f"undefined: {why}" if why else meaning)
    parts: list[Any] = [head, summary]
    quotas = report.get("at_quota") or {}
    if quotas:
        grid = _grid("At quota J (the top J cases acted on)")
        names = ("hit_rate", "qrecall", "lift", "pearson", "threshold")
        grid.add_column("J", justify="right")
        for name in names:
            grid.add_column(name.replace("_", " "), justify="right")
        notes: list[str] = []
        for quota, values in quotas.items():
            grid.add_row(str(quota), *(_value(values.get(n)) for n in names))
            for name, why in (values.get("undefined") or {}).items():
                notes.append(f"{name} at J = {quota} is undefined: {why}")
        parts.append(grid)
        if notes:
            parts.append(Text("\n".join(notes), style="yellow"))
    bins = report.get("deciles") or []
    if bins:
        columns = {
            "quota": "up to J",
            "positives": "positives",
            "bin_hit_rate": "hit rate",
            "lift": "lift",
            "hit_rate": "cum. hit rate",
            "cumulative_lift": "cum. lift",
            "cumulative_qrecall": "cum. Qrecall",
        }
        keys = [k for k in columns if k in bins[0]]
        grid = _grid(
            "Bins of the ranking: within each bin, then cumulative (lift = hit rate / prevalence)"
        )
        grid.add_column("bin", justify="right")
        for key in keys:
            grid.add_column(columns[key], justify="right")
        for i, row in enumerate(bins, start=1):
            grid.add_row(
                str(i), *(_value(row.get(k), 1 if k in ("quota", "positives") else 4) for k in keys)
            )
        parts.append(grid)
    return _render(parts, color)


def render_tally(document: Mapping[str, Any], *, color: bool = False) -> str:
    """A multi-label tally: the one-glance statistics table of Williams's Perl module
    Statistics::Contingency 0.09, then per category."""
    head = Text(f"Documents: {document.get('documents')}", style="bold")
    parts: list[Any] = [head]
    ignored = document.get("ignored") or {}
    if ignored:  # unknown categories skipped, as Statistics::Contingency skips them
        named = ", ".join(f"{category!r} ({count})" for category, count in ignored.items())
        parts.append(
            Text(
                f"Ignored {len(ignored)} undeclared categor{'y' if len(ignored) == 1 else 'ies'}"
                f" (documents naming each): {named}",
                style="yellow",
            )
        )
    parts.append(Text(str(document.get("stats_table", "")).rstrip()))
    per = document.get("per_category") or {}
    names = ("precision", "recall", "f_measure", "informedness", "markedness")
    grid = _grid("Per category")
    grid.add_column("category", max_width=20, overflow="ellipsis", no_wrap=True)
    for name in names:
        grid.add_column(name.replace("_", " "), justify="right")
    for category, values in per.items():
        grid.add_row(str(category), *(_value(values.get(n)) for n in names))
    parts.append(grid)
    return _render(parts, color)
