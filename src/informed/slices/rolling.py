"""Cumulative and rolling windows: adjacent time windows' summaries merged, no rescan.

The first column of a slice key is the time window (`informed.slices.windows`); the
other columns, if any, are groups. `accumulate(slices)` gives each slice (window t,
group g) the summaries of every window up to t for g (cumulative); with `last=k`, of the
last k windows up to t (rolling): on the calendar when the windows' span `every` is
given (a week of days is seven days, whether or not each day has rows; three months of
"1mo" windows are three calendar months, whatever their days), else the k windows up to
t that occur in the data. The window "missing" (rows without a
timestamp) is merged with no other. Counts are added cell by cell and Rankings merged,
so the result equals slicing the rows of those windows again.

>>> from informed.slices import Slices
>>> days = Slices.from_labels(by=["d1", "d1", "d2", "d3"], actual=[1, 0, 1, 1],
...                           predicted=[1, 1, 0, 1])
>>> accumulate(days).rows.tolist(), accumulate(days, last=2).rows.tolist()
([2, 3, 4], [2, 3, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from informed.errors import InputError
from informed.ranking import Ranking
from informed.slices.counting import SlicedCells
from informed.slices.keys import keyed_key
from informed.slices.slices import Slices
from informed.slices.windows import parse_every, window_start

__all__ = ["accumulate"]


def accumulate(slices: Slices, last: int | None = None, every: str | None = None) -> Slices:
    """Each slice merged with the earlier windows of its group: all of them (cumulative)
    or the `last` windows up to it (rolling: the windows of span `every` on the calendar,
    or without `every` the windows that occur)."""
    if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 1):
        msg = f"`last` must be a whole number of windows >= 1; got {last!r}."
        raise InputError(msg)
    span = None if every is None else parse_every(every)
    times = list(dict.fromkeys(keyed_key(k[:1]) for k in slices.keys))  # keys sort by time
    position = {t: i for i, t in enumerate(times)}
    starts = {}
    if span is not None:
        starts = {t: window_start(t[0][1], span) for t in times if t[0][1] is not None}
    by_group: dict[Any, list[tuple[int, int]]] = {}  # group -> (window, slice), in order
    for s, key in enumerate(slices.keys):
        by_group.setdefault(keyed_key(key[1:]), []).append((position[keyed_key(key[:1])], s))
    sources: list[list[int]] = []  # the input slices merged into each output slice
    for s, key in enumerate(slices.keys):
        if key[0] is None:  # the window "missing": no time, merged with nothing
            sources.append([s])
            continue
        here = position[keyed_key(key[:1])]
        group = by_group[keyed_key(key[1:])]
        if last is not None and span is not None:
            end = starts[times[here]]
            sources.append(
                [
                    k
                    for window, k in group
                    if slices.keys[k][0] is not None
                    and 0 <= end - starts[times[window]] < last * span.size
                ]
            )
            continue
        first = 0 if last is None else here - last + 1
        sources.append(
            [k for window, k in group if first <= window <= here and slices.keys[k][0] is not None]
        )
    rows = np.array([int(slices.rows[found].sum()) for found in sources], dtype=np.int64)
    cells = None if slices.cells is None else _cells(slices.cells, sources)
    rankings = None
    if slices.rankings is not None:
        merged: list[Ranking] = []
        for merging in sources:
            total = slices.rankings[merging[0]]
            for k in merging[1:]:
                total = total + slices.rankings[k]
            merged.append(total)
        rankings = tuple(merged)
    return Slices(
        slices.by,
        slices.keys,
        rows,
        cells,
        slices.overall,
        slices.positive,
        rankings,
        slices.overall_ranking,
        _described(slices.accumulated, last, every),
    )


def _described(before: str | None, last: int | None, every: str | None) -> str:
    """How the slices were accumulated, as `Slices.accumulated` says it."""
    this = "cumulative" if last is None else f"rolling, last={last}"
    if last is not None and every is not None:
        this += f", every={every}"
    return this if before is None else f"{before}; then {this}"


def _cells(cells: SlicedCells, sources: list[list[int]]) -> SlicedCells:
    """Every output slice's cells: its sources' cells added."""
    K, C = len(cells.predicted), len(cells.actual)
    bounds = np.searchsorted(cells.slice, np.arange(len(sources) + 1))
    keys: list[Any] = []
    values: list[Any] = []
    for out, found in enumerate(sources):
        for k in found:
            part = slice(bounds[k], bounds[k + 1])
            keys.append((out * K + cells.row[part].astype(np.int64)) * C + cells.col[part])
            values.append(cells.values[part])
    flat = np.concatenate(keys) if keys else np.zeros(0, np.int64)
    counts = np.concatenate(values) if values else cells.values[:0]
    order = np.argsort(flat, kind="stable")
    flat, counts = flat[order], counts[order]
    if flat.size:
        first = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]])
        counts = np.add.reduceat(counts, first)
        flat = flat[first]
    rest, col = np.divmod(flat, C) if C else (flat, flat)
    at, row = np.divmod(rest, K) if K else (rest, rest)
    return SlicedCells(
        at.astype(np.intp),
        row.astype(np.intp),
        col.astype(np.intp),
        counts,
        cells.predicted,
        cells.actual,
    )
