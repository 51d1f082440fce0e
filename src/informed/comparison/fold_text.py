"""The terminal report of two models compared across cross-validation folds.

Presentation only: every number is read from the `FoldComparison`
(`informed.comparison.compare_folds`); measures' headings from the registry or the
ranking measures' titles; model and fold names are the user's text, escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.text import Text

from informed._common import cut_apart, printable
from informed._terminal import WIDTH, grid, render, split, titled, value
from informed.comparison.fold_pairs import FoldPairs
from informed.comparison.folds import FOLD_TEST_NAMES, FoldComparison
from informed.comparison.result import measure_title
from informed.slices.folds import FoldSummary

__all__ = ["render_fold_comparison", "render_fold_pairs"]


def render_fold_comparison(
    comparison: FoldComparison, source: str, *, color: bool = False, width: int = WIDTH
) -> str:
    """The comparison across folds as text, `width` columns wide: each model's mean and
    pooled value per measure, the mean difference with its corrected interval, every
    test's p-value (Holm across the measures), and the naive test labelled as such."""
    a, b = comparison.names
    head = Text(
        f"{printable(source)}: {printable(b)} - {printable(a)} over {len(comparison.folds)} "
        f"folds (mean test set {comparison.test.mean():,g} cases, training set "
        f"{comparison.train.mean():,g})",
        style="bold",
    )
    values = _values(list(comparison.names), comparison.summaries, comparison.measures, width)
    parts: list[Any] = [head, "", values, *_pair(comparison, width)]
    return render(parts, color, width)


def render_fold_pairs(
    result: FoldPairs, source: str, *, color: bool = False, width: int = WIDTH
) -> str:
    """Three or more models compared pair by pair across the same folds, as text: each
    model's mean, spread and pooled value per measure, then each pair's mean difference
    with its intervals and its tests, the p-values Holm-adjusted over every pair and
    measure together (`informed.comparison.compare_fold_pairs`)."""
    if len(result.pairs) == 1:
        return render_fold_comparison(result.pairs[0], source, color=color, width=width)
    first = result.pairs[0]
    head = Text(
        f"{printable(source)}: {len(result.names)} models over {len(first.folds)} folds, "
        f"every pair compared (mean test set {first.test.mean():,g} cases, training set "
        f"{first.train.mean():,g})",
        style="bold",
    )
    summaries: dict[str, dict[str, FoldSummary]] = {}
    for pair in result.pairs:
        summaries.update(pair.summaries)
    parts: list[Any] = [head, "", _values(list(result.names), summaries, first.measures, width)]
    for pair in result.pairs:
        a, b = (printable(name) for name in pair.names)
        parts += ["", Text(f"{b} - {a}", style="bold"), *_pair(pair, width)]
    return render(parts, color, width)


def _pair(comparison: FoldComparison, width: int) -> list[Any]:
    """One pair's differences, tests and notes."""
    parts: list[Any] = [_differences(comparison, width), _tests(comparison)]
    notes = _notes(comparison)
    if notes:
        parts.append(Text("\n".join(notes), style="yellow"))
    return parts


def _values(
    names: list[str],
    summaries: dict[str, dict[str, FoldSummary]],
    measures: Sequence[str],
    width: int,
) -> Any:
    """Each model's mean, std and pooled value per measure; a model a table of its own
    where they do not all fit."""

    def build(models: Sequence[str]) -> Any:
        table = grid()
        table.add_column("measure", no_wrap=True)
        for head in cut_apart([f"{model} mean" for model in models], 24):
            table.add_column(Text(head), justify="right", no_wrap=True)
            table.add_column("(std)", justify="right", no_wrap=True)
            table.add_column("pooled", justify="right", no_wrap=True)
        for m in measures:
            cells = []
            for model in models:
                s = summaries[model][m]
                cells += [value(s.mean), value(s.std), value(s.pooled)]
            table.add_row(measure_title(m), *cells)
        return table

    tables = split(build, names, width)
    title = "Each model across the folds: mean, standard deviation, pooled"
    return Group(titled(title, tables[0]), *tables[1:])


def _differences(comparison: FoldComparison, width: int) -> Any:
    a, b = comparison.names

    def cells(m: str) -> dict[str, list[str]]:
        corrected = comparison.tests[m]["corrected"]
        naive = comparison.tests[m]["naive"]
        return {
            "difference": [value(float(comparison.differences[m].mean()))],
            "corrected interval": [_interval(corrected.interval), _verdict(corrected.interval)],
            "naive interval": [_interval(naive.interval)],
        }

    def build(headings: Sequence[str]) -> Any:
        table = grid()
        table.add_column("measure", no_wrap=True)
        for heading in headings:
            table.add_column(heading, justify="right", no_wrap=True)
            if heading == "corrected interval":
                table.add_column("", style="dim")
        for m in comparison.measures:
            row = cells(m)
            table.add_row(measure_title(m), *(c for h in headings for c in row[h]))
        return table

    tables = split(build, ["difference", "corrected interval", "naive interval"], width)
    title = (
        f"Mean per-fold difference {printable(b)} - {printable(a)}, "
        f"{100 * comparison.level:g} % intervals: corrected resampled t (Nadeau & Bengio "
        "2003); naive paired t, too narrow (the folds share training cases)"
    )
    return Group(titled(title, tables[0]), *tables[1:])


def _interval(interval: Any) -> str:
    if interval is None or math.isnan(interval.low):
        return "undefined"
    return f"[{value(interval.low)}, {value(interval.high)}]"


def _verdict(interval: Any) -> str:
    if interval is None or math.isnan(interval.low):
        return ""
    return "excludes 0" if interval.low > 0 or interval.high < 0 else "includes 0"


def _tests(comparison: FoldComparison) -> Any:
    keys = [k for k in FOLD_TEST_NAMES if any(k in t for t in comparison.tests.values())]
    how = f"Holm-adjusted over {comparison.family}" if comparison.adjusting else "not adjusted"
    table = grid()
    table.add_column("measure", no_wrap=True)
    for key in keys:
        table.add_column(_TEST_HEADINGS[key], justify="right")
    for m in comparison.measures:
        cells = []
        for key in keys:
            test = comparison.tests[m].get(key)
            p = comparison.adjusted[m].get(key, math.nan)
            cells.append("" if test is None else "undefined" if math.isnan(p) else f"p = {_p(p)}")
        table.add_row(measure_title(m), *cells)
    names = "; ".join(f"{_TEST_HEADINGS[k]}: {FOLD_TEST_NAMES[k]}" for k in keys)
    return titled(f"Tests of the mean difference, p-values {how} ({names})", table)


_TEST_HEADINGS = {
    "corrected": "corrected t",
    "5x2cv_t": "5x2cv t",
    "5x2cv_f": "5x2cv F",
    "naive": "naive t",
}


def _notes(comparison: FoldComparison) -> list[str]:
    notes = []
    for m in comparison.measures:
        for key, test in comparison.tests[m].items():
            if test.reason:
                notes.append(f"{measure_title(m)}, {FOLD_TEST_NAMES[key]}: {test.reason}")
    return notes


def _p(p: float) -> str:
    return f"{p:.2g}" if p < 0.001 else f"{p:.4f}"
