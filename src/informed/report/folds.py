"""The report of cross-validation folds (`informed evaluate --folds`): each fold's measures,
the pooled measure, their mean and spread; terminal text, JSON document, CSV rows.

Presentation only: every number is read from the `Folds` and its `FoldSummary` per
measure (`informed.slices.Folds.measure`), every measure's heading from the registry or
the ranking measures' titles; fold names are the user's text, escaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from informed._common import json_float, printable
from informed._terminal import WIDTH, grid, render, split, titled, user, value
from informed.comparison.text import SHORT_TITLES
from informed.measures import MEASURES
from informed.report.document import cells_text
from informed.slices.folds import Folds, FoldSummary

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
) -> str:
    """Each fold's measures, then the pooled value, the mean and the sample standard
    deviation across folds, as text `width` columns wide; a wide table is split into
    several that each repeat the fold's name."""
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
        for s, fold in enumerate(summaries[names[0]].folds):
            cells = (value(float(summaries[m].values[s])) for m in columns)
            table.add_row(user(fold, 30), f"{test[s]:,g}", f"{train[s]:,g}", *cells)
        table.add_section()
        for statistic in _STATISTICS:
            cells = (value(getattr(summaries[m], statistic)) for m in columns)
            size = f"{test.sum():,g}" if statistic == "pooled" else ""
            table.add_row(statistic, size, "", *cells)
        return table

    tables = split(build, names, width)
    title = "Each fold, pooled, mean and standard deviation across folds"
    parts: list[Any] = [head, "", titled(title, tables[0]), *tables[1:]]
    notes = _notes(summaries)
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


def folds_document(
    folds: Folds, summaries: Mapping[str, FoldSummary], source: str
) -> dict[str, Any]:
    """The JSON document: the folds' names and sizes, each measure's per-fold values,
    pooled value, mean and standard deviation, and the Folds summary itself (every
    fold's counts, exact and mergeable: `Folds.from_dict(document["summary"])`)."""
    return {
        "source": source,
        "by": list(folds.slices.by),
        "folds": list(folds.names),
        "test_sizes": folds.test.tolist(),
        "train_sizes": folds.train.tolist(),
        "measures": {m: s.to_dict() for m, s in summaries.items()},
        "definitions": {
            m: MEASURES[m].formula if m in MEASURES else "ranking summary" for m in summaries
        },
        "summary": folds.to_dict(),
    }


def folds_csv(folds: Folds, summaries: Mapping[str, FoldSummary], *, raw: bool = False) -> str:
    """One CSV row per fold ("fold", its key columns, test and training sizes, a column
    per measure), then the rows "pooled", "mean" and "std" (key cells empty): the first
    column says which, so that no fold's name is taken for a statistic."""
    by = list(folds.slices.by)
    names = list(summaries)
    rows: list[list[Any]] = [["row", *by, "test", "train", *names]]
    for s, key in enumerate(folds.keys):
        measures = (_cell(float(summaries[m].values[s])) for m in names)
        rows.append(["fold", *key, _size(folds.test[s]), _size(folds.train[s]), *measures])
    for statistic in _STATISTICS:
        size = _size(folds.test.sum()) if statistic == "pooled" else None
        cells = (_cell(getattr(summaries[m], statistic)) for m in names)
        rows.append([statistic, *([None] * len(by)), size, None, *cells])
    return cells_text(rows, raw)


def _size(number: Any) -> int | float:
    """A size as a whole number where it is one (rows; a given training size may not be)."""
    size = float(number)
    return int(size) if size.is_integer() else size


def _cell(number: float) -> float | None:
    """A CSV or JSON cell: an undefined value is empty (None)."""
    return json_float(number)
