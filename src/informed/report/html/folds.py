"""The HTML pages of cross-validation folds: one model's folds (`informed evaluate
--folds --html`: each fold's measures, pooled, mean and spread, with `--ci` each fold's
and the pooled interval), and two models compared across them (`informed compare --folds
--html`: the comparison's own section, `informed.comparison.fold_html`), in the page
every report shares.

Presentation only: every number is read from the `Folds`, its `FoldSummary` per
measure and the `FoldIntervals` (`informed.inference.fold_intervals`); fold names are
the user's text, escaped."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from informed._markup import escaped, label_css, number, value_cell
from informed.comparison.fold_html import (
    FOLD_COMPARISON_SOURCES,
    fold_comparison_section,
    fold_pairs_section,
)
from informed.comparison.fold_pairs import FoldPairs
from informed.comparison.folds import FoldComparison
from informed.comparison.result import measure_title
from informed.errors import InputTypeError
from informed.inference.fold_intervals import FOLD_INTERVALS_NOTE, FoldIntervals
from informed.inference.interval import Interval
from informed.report.html.page import page_document, write_page
from informed.slices.folds import Folds, FoldSummary

__all__ = [
    "fold_comparison_report",
    "fold_pairs_report",
    "folds_report",
    "write_fold_comparison_report",
    "write_fold_pairs_report",
    "write_folds_report",
]

_FOLD_SOURCES = ["Efron (1987)", "DeLong et al. (1988)", "Bates et al. (2023)"]


def fold_comparison_report(
    comparison: FoldComparison,
    *,
    title: str = "Comparison across cross-validation folds",
    source: str = "",
) -> str:
    """One self-contained HTML document reporting a comparison across folds
    (`informed.comparison.compare_folds`).

    >>> from informed.comparison import compare_folds
    >>> from informed.slices import Folds
    >>> fold, y = [1, 1, 2, 2, 3, 3] * 4, [1, 0] * 12
    >>> a = Folds.from_labels(folds=fold, actual=y, predicted=[1, 1, 1, 0] * 6)
    >>> b = Folds.from_labels(folds=fold, actual=y, predicted=[1, 0, 1, 0, 0, 0] * 4)
    >>> page = fold_comparison_report(compare_folds(a, b, positive=1))
    >>> 'id="folds-tests"' in page and "https://" not in page
    True
    """
    if not isinstance(comparison, FoldComparison):
        msg = (
            "fold_comparison_report needs a FoldComparison (from `compare_folds`); got "
            f"{type(comparison).__name__}."
        )
        raise InputTypeError(msg)
    a, b = (escaped(name) for name in comparison.names)
    where = f"Source: <strong>{escaped(source)}</strong> · " if source else ""
    meta = (
        f'<p class="meta">{where}{b} against {a} · {len(comparison.folds)} folds · '
        f"{len(comparison.measures)} measures</p>"
    )
    section = ("folds", "Models compared across folds", fold_comparison_section(comparison))
    return page_document(title, meta, [section], list(FOLD_COMPARISON_SOURCES))


def fold_pairs_report(
    result: FoldPairs,
    *,
    title: str = "Comparison across cross-validation folds",
    source: str = "",
) -> str:
    """One self-contained HTML document of models compared pair by pair across folds
    (`informed.comparison.compare_fold_pairs`); of two, `fold_comparison_report`'s page."""
    if not isinstance(result, FoldPairs):
        msg = (
            "fold_pairs_report needs FoldPairs (from `compare_fold_pairs`); got "
            f"{type(result).__name__}."
        )
        raise InputTypeError(msg)
    if len(result.pairs) == 1:
        return fold_comparison_report(result.pairs[0], title=title, source=source)
    first = result.pairs[0]
    where = f"Source: <strong>{escaped(source)}</strong> · " if source else ""
    models = ", ".join(escaped(name) for name in result.names)
    meta = (
        f'<p class="meta">{where}{models} · {len(result.pairs)} pairs · '
        f"{len(first.folds)} folds · {len(first.measures)} measures</p>"
    )
    section = ("folds", "Models compared across folds", fold_pairs_section(result))
    return page_document(title, meta, [section], list(FOLD_COMPARISON_SOURCES))


def write_fold_pairs_report(
    path: str | os.PathLike[str], result: FoldPairs, **options: Any
) -> Path:
    """Write `fold_pairs_report(result, **options)` to `path` atomically."""
    return write_page(path, fold_pairs_report(result, **options))


def write_fold_comparison_report(
    path: str | os.PathLike[str], comparison: FoldComparison, **options: Any
) -> Path:
    """Write `fold_comparison_report(comparison, **options)` to `path` atomically."""
    return write_page(path, fold_comparison_report(comparison, **options))


def _cell(estimate: float, interval: Interval | None) -> str:
    """A value's cell, its interval under it in small type (or why there is none)."""
    cell = value_cell(estimate)
    if interval is None:
        return cell
    if math.isnan(interval.low) or math.isnan(interval.high):
        why = escaped(interval.reason or "undefined")
        below = f'<br><span class="small" title="{why}">no interval</span>'
    else:
        below = f'<br><span class="small">[{number(interval.low)}, {number(interval.high)}]</span>'
    return cell.replace("</td>", f"{below}</td>")


def _folds_table(
    folds: Folds,
    summaries: Mapping[str, FoldSummary],
    intervals: Mapping[str, FoldIntervals] | None,
) -> str:
    names = list(summaries)
    head = "".join(f'<th class="num">{escaped(measure_title(m))}</th>' for m in names)
    if intervals is not None:  # the ranking summaries but the AUC have none
        intervals = {m: i for m, i in intervals.items() if i.pooled.method != "none"}
    rows = []
    test, train = folds.test, folds.train
    for s, fold in enumerate(folds.names):
        cells = "".join(
            _cell(
                float(summaries[m].values[s]),
                intervals[m].folds[s] if intervals and m in intervals else None,
            )
            for m in names
        )
        rows.append(
            f'<tr><th class="{label_css(fold)}" scope="row">{escaped(fold)}</th>'
            f'<td class="num">{test[s]:,g}</td><td class="num">{train[s]:,g}</td>{cells}</tr>'
        )
    foot = []
    for statistic in ("pooled", "mean", "std"):
        cells = "".join(
            _cell(
                getattr(summaries[m], statistic),
                intervals[m].pooled
                if intervals and m in intervals and statistic == "pooled"
                else None,
            )
            for m in names
        )
        size = f"{test.sum():,g}" if statistic == "pooled" else ""
        foot.append(
            f'<tr data-row="{statistic}"><th scope="row">{statistic}</th>'
            f'<td class="num">{size}</td><td></td>{cells}</tr>'
        )
    return (
        '<div class="scroll"><table id="folds-values"><thead><tr><th>fold</th>'
        f'<th class="num">test</th><th class="num">train</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody><tfoot>{''.join(foot)}</tfoot></table></div>"
    )


def folds_report(
    folds: Folds,
    summaries: Mapping[str, FoldSummary],
    *,
    intervals: Mapping[str, FoldIntervals] | None = None,
    title: str = "Cross-validation folds",
    source: str = "",
) -> str:
    """One self-contained HTML document of a model's folds: each fold's measures (with
    `intervals`, each fold's and the pooled interval under the value), the pooled
    value, the mean and the sample standard deviation across folds.

    >>> from informed.slices import Folds
    >>> folds = Folds.from_labels(folds=[1, 2] * 4, actual=[1, 1, 0, 0] * 2,
    ...                           predicted=[1, 0, 0, 0] * 2)
    >>> page = folds_report(folds, {"informedness": folds.measure("informedness")})
    >>> 'id="folds-values"' in page and "https://" not in page
    True
    """
    if not isinstance(folds, Folds):
        msg = f"folds_report needs Folds; got {type(folds).__name__}."
        raise InputTypeError(msg)
    where = f"Source: <strong>{escaped(source)}</strong> · " if source else ""
    by = ", ".join(escaped(b) for b in folds.slices.by)
    repeats = len(set(folds.repeats)) if len(folds.slices.by) == 2 else 1
    counted = " (each case once per repeat)" if repeats > 1 else ""
    meta = (
        f'<p class="meta">{where}{len(folds.keys)} folds by {by} · '
        f"N = {folds.test.sum():,g} test rows pooled{counted}</p>"
    )
    notes = [
        "pooled: the measure of every fold's test rows counted together; mean and std: "
        "of the folds' values (std with n − 1)."
    ]
    for m, summary in summaries.items():
        undefined = [f for f, v in zip(summary.folds, summary.values.tolist(), strict=True)
                     if math.isnan(v)]  # fmt: skip
        if undefined:
            notes.append(
                f"{measure_title(m)} is undefined in fold {undefined[0]}"
                f"{f' and {len(undefined) - 1} more' if len(undefined) > 1 else ''}: its "
                "mean and standard deviation are undefined too (the pooled value is not)."
            )
    cited: list[str] = []
    if intervals:
        level = f"{100 * next(iter(intervals.values())).pooled.level:g} %"
        notes.append(
            f"{level} intervals (BCa bootstrap, Efron 1987; the AUC's DeLong et al. 1988): "
            f"{FOLD_INTERVALS_NOTE}."
        )
        none = [measure_title(m) for m, i in intervals.items() if i.pooled.method == "none"]
        if none:
            notes.append(f"No interval for {', '.join(none)} (only the AUC's, DeLong's).")
        pooled = {
            i.pooled.reason
            for i in intervals.values()
            if i.pooled.reason and i.pooled.method != "none"
        }
        notes += [f"pooled: {reason}." for reason in sorted(pooled)]
        for m, found in intervals.items():  # replicates left out where the measure was nan
            if found.pooled.method != "none":
                notes += [f"{n}." for n in found.undefined_notes(folds.names, measure_title(m))]
        cited = list(_FOLD_SOURCES)
    text = "".join(f'<p class="small">{escaped(n)}</p>' for n in notes)
    table = _folds_table(folds, summaries, intervals)
    section = ("folds", "Each fold, pooled, mean and spread", table + text)
    return page_document(title, meta, [section], cited)


def write_folds_report(
    path: str | os.PathLike[str],
    folds: Folds,
    summaries: Mapping[str, FoldSummary],
    **options: Any,
) -> Path:
    """Write `folds_report(folds, summaries, **options)` to `path` atomically."""
    return write_page(path, folds_report(folds, summaries, **options))
