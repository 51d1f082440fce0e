"""The report of cross-validation folds (`informed evaluate --folds`): each fold's measures,
the pooled measure, their mean and spread; terminal text, JSON document, CSV rows.

Presentation only: every number is read from the `Folds` and its `FoldSummary` per
measure (`informed.slices.Folds.measure`), every measure's heading from the registry or
the ranking measures' titles; fold names are the user's text, escaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from informed._common import cut_apart, json_float, printable
from informed._terminal import WIDTH, grid, render, split, titled, value
from informed.comparison.text import SHORT_TITLES
from informed.measures import MEASURES
from informed.report.document import cells_text
from informed.slices.folds import Folds, FoldSummary

if TYPE_CHECKING:
    from informed.inference.fold_intervals import FoldIntervals
    from informed.inference.interval import Interval

__all__ = ["folds_csv", "folds_document", "folds_text"]

_STATISTICS = ("pooled", "mean", "std")


def _short(measure: str) -> str:
    return SHORT_TITLES.get(measure, measure[:9])


def _sizes(folds: Folds) -> str:
    repeats = len(set(folds.repeats)) if len(folds.slices.by) == 2 else 1
    pooled = ", each case counted once per repeat" if repeats > 1 else ""
    return (
        f"{len(folds.keys)} folds by {', '.join(printable(b) for b in folds.slices.by)}"
        f"{f' ({repeats} repeats)' if repeats > 1 else ''}; "
        f"N = {folds.test.sum():,g} test rows pooled{pooled}"
    )


def folds_text(
    folds: Folds,
    summaries: Mapping[str, FoldSummary],
    source: str,
    *,
    color: bool = False,
    width: int = WIDTH,
    intervals: Mapping[str, FoldIntervals] | None = None,
) -> str:
    """Each fold's measures, then the pooled value, the mean and the sample standard
    deviation across folds, as text `width` columns wide; a wide table is split into
    several that each repeat the fold's name. With `intervals`
    (`informed.inference.fold_intervals`) each measure's column is followed by each
    fold's and the pooled interval, and a note says what they do not include."""
    head = f"{printable(source)}: {_sizes(folds)}"
    names = list(summaries)
    train, test = folds.train, folds.test

    def build(columns: Sequence[str]) -> Any:
        table = grid()
        table.add_column("fold", no_wrap=True)
        table.add_column("test", justify="right", no_wrap=True)
        table.add_column("train", justify="right", no_wrap=True)
        for m in columns:
            table.add_column(_short(m), justify="right", no_wrap=True)
            if _bounded(intervals, m):
                table.add_column(f"{level} interval", justify="right", no_wrap=True)
        shown = cut_apart(summaries[names[0]].folds, 30)
        for s, fold in enumerate(shown):
            cells: list[str] = []
            for m in columns:
                cells.append(value(float(summaries[m].values[s])))
                if intervals is not None and _bounded(intervals, m):
                    cells.append(_bounds(intervals[m].folds[s]))
            table.add_row(Text(fold), f"{test[s]:,g}", f"{train[s]:,g}", *cells)
        table.add_section()
        for statistic in _STATISTICS:
            cells = []
            for m in columns:
                cells.append(value(getattr(summaries[m], statistic)))
                if intervals is not None and _bounded(intervals, m):
                    pooled = statistic == "pooled"
                    cells.append(_bounds(intervals[m].pooled) if pooled else "")
            size = f"{test.sum():,g}" if statistic == "pooled" else ""
            table.add_row(statistic, size, "", *cells)
        return table

    level = ""
    if intervals is not None:
        level = f"{100 * next(iter(intervals.values())).pooled.level:g} %"

    tables = split(build, names, width)
    title = "Each fold, pooled, mean and standard deviation across folds"
    parts: list[Any] = [head, "", titled(title, tables[0]), *tables[1:]]
    notes = _notes(summaries)
    if intervals is not None:
        notes += _interval_notes(intervals, folds.names)
    if notes:
        parts.append("\n".join(notes))
    return render(parts, color, width)


def _notes(summaries: Mapping[str, FoldSummary]) -> list[str]:
    notes = []
    for m, summary in summaries.items():
        values = zip(summary.folds, summary.values.tolist(), strict=True)
        undefined = [f for f, v in values if math.isnan(v)]
        if undefined:
            more = f" and {len(undefined) - 1} more" if len(undefined) > 1 else ""
            notes.append(
                f"{m} is undefined in fold {printable(undefined[0])}{more}: its mean and "
                "standard deviation across folds are undefined too (the pooled value is not)."
            )
    if any(not math.isnan(s.std) for s in summaries.values()):
        notes.append("std: the sample standard deviation across folds (n - 1).")
    return notes


def _bounded(intervals: Mapping[str, FoldIntervals] | None, measure: str) -> bool:
    """Whether the measure has intervals (the ranking summaries but the AUC have none)."""
    return intervals is not None and intervals[measure].pooled.method != "none"


def _bounds(interval: Interval) -> str:
    if math.isnan(interval.low) or math.isnan(interval.high):
        return "undefined"
    return f"[{value(interval.low)}, {value(interval.high)}]"


def _interval_notes(intervals: Mapping[str, FoldIntervals], names: Sequence[str]) -> list[str]:
    """How the intervals were found, what they leave out, and why any is undefined."""
    from informed.inference.fold_intervals import FOLD_INTERVALS_NOTE

    methods = sorted({i.pooled.method for i in intervals.values()} - {"none"})
    notes = [f"intervals ({', '.join(methods)}): {FOLD_INTERVALS_NOTE}."]
    none = [m for m in intervals if not _bounded(intervals, m)]
    if none:
        notes.append(f"no interval for {', '.join(none)} (only the AUC's, DeLong's).")
    bounded = [found for m, found in intervals.items() if _bounded(intervals, m)]
    pooled = sorted({found.pooled.reason for found in bounded if found.pooled.reason})
    notes += [f"pooled: {printable(reason)}." for reason in pooled]
    for found in bounded:
        m = found.measure
        reasons = [i.reason for i in found.folds if i.reason]
        if reasons:
            more = f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else ""
            first = reasons[0].replace(" in slice ", " in fold ")
            first = first if first.startswith(m) else f"{m}: {first}"
            notes.append(f"{printable(first)}{more}.")
    for found in bounded:  # replicates left out of an interval, where the measure was nan
        notes += [f"{printable(note)}." for note in found.undefined_notes(names, found.measure)]
    return notes


def folds_document(
    folds: Folds,
    summaries: Mapping[str, FoldSummary],
    source: str,
    intervals: Mapping[str, FoldIntervals] | None = None,
    positive: Any = None,
) -> dict[str, Any]:
    """The JSON document: the folds' names and sizes, the positive class the measures
    were taken for (`positive`; else the class the scores point to, or null), each
    measure's per-fold values, pooled value, mean and standard deviation (with
    `intervals`, each fold's and the pooled interval under "intervals"), and the Folds
    summary itself (every fold's counts, exact and mergeable:
    `Folds.from_dict(document["summary"])`, which ``informed merge`` reads)."""
    found: dict[str, Any] = {}
    if intervals is not None:
        from informed.inference.fold_intervals import FOLD_INTERVALS_NOTE

        found = {
            "intervals": {m: i.to_dict(folds.names) for m, i in intervals.items()},
            "intervals_note": FOLD_INTERVALS_NOTE,
        }
    return {
        "source": source,
        "by": list(folds.slices.by),
        "positive": folds.slices.positive if positive is None else positive,
        "folds": list(folds.names),
        "test_sizes": folds.test.tolist(),
        "train_sizes": folds.train.tolist(),
        "measures": {m: s.to_dict() for m, s in summaries.items()},
        "definitions": {
            m: MEASURES[m].formula if m in MEASURES else "ranking summary" for m in summaries
        },
        **found,
        "summary": folds.to_dict(),
    }


def folds_csv(
    folds: Folds,
    summaries: Mapping[str, FoldSummary],
    *,
    raw: bool = False,
    intervals: Mapping[str, FoldIntervals] | None = None,
) -> str:
    """One CSV row per fold ("fold", its key columns, test and training sizes, a column
    per measure), then the rows "pooled", "mean" and "std" (key cells empty): the first
    column says which, so that no fold's name is taken for a statistic. With
    `intervals`, each measure's column is followed by "<measure>_low" and
    "<measure>_high" (empty where undefined, and in the mean and std rows)."""
    by = list(folds.slices.by)
    names = list(summaries)
    heads = [[m, f"{m}_low", f"{m}_high"] if intervals is not None else [m] for m in names]
    rows: list[list[Any]] = [["row", *by, "test", "train", *(h for x in heads for h in x)]]

    def cells(m: str, number: float, interval: Interval | None) -> list[float | None]:
        if intervals is None:
            return [_cell(number)]
        if interval is None:
            return [_cell(number), None, None]
        return [_cell(number), _cell(interval.low), _cell(interval.high)]

    for s, key in enumerate(folds.keys):
        measures = [
            c
            for m in names
            for c in cells(
                m,
                float(summaries[m].values[s]),
                intervals[m].folds[s] if intervals is not None else None,
            )
        ]
        rows.append(["fold", *key, _size(folds.test[s]), _size(folds.train[s]), *measures])
    for statistic in _STATISTICS:
        size = _size(folds.test.sum()) if statistic == "pooled" else None
        pooled = intervals is not None and statistic == "pooled"
        measures = [
            c
            for m in names
            for c in cells(
                m,
                getattr(summaries[m], statistic),
                intervals[m].pooled if pooled and intervals is not None else None,
            )
        ]
        rows.append([statistic, *([None] * len(by)), size, None, *measures])
    return cells_text(rows, raw)


def _size(number: Any) -> int | float:
    """A size as a whole number where it is one (rows; a given training size may not be)."""
    size = float(number)
    return int(size) if size.is_integer() else size


def _cell(number: float) -> float | None:
    """A CSV or JSON cell: an undefined value is empty (None)."""
    return json_float(number)
