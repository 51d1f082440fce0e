"""The fields of a Slices counted from coded rows: the keys coded, the actual labels
coded once, each slice's cells and Rankings (`informed.slices.counting`), the rows of
each slice, and the actual classes of all the rows (the negative class is named from
them once every part is in: `informed.slices.classes`). `informed.slices.slices` makes
the Slices of them (`build_parts`). `check_time` and `timed` take the time window's
arguments, loading `informed.slices.windows` only when there is a time column.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label, code_column, sort_labels
from informed.errors import InputError
from informed.slices.counting import SlicedCells, count_parts, rank_parts, slice_rows
from informed.slices.keys import CodedKeys, Key, arrow_codes, canonical_codes, code_keys
from informed.table.counting import check_weights

__all__ = ["check_time", "slice_fields", "timed"]


def slice_fields(
    columns: list[Any],
    names: list[str],
    actual: Any,
    predicted: Any,
    scores: Any,
    positive: Any,
    weights: Any,
    clusters: bool = False,
    partial: bool = False,
    text: bool = False,
    stand_in: bool = False,
) -> tuple[tuple[Any, ...], tuple[Label, ...]]:
    """The fields of `Slices(...)` in its order (by, keys, rows, cells, overall, positive,
    rankings, overall_ranking), the Rankings naming no negative class, and the actual
    classes of the rows (a label of weight 0 included); arguments as `build_parts`'s."""
    if predicted is None and scores is None:
        msg = "pass `predicted` (a Table per slice), `scores` (a Ranking per slice), or both."
        raise InputError(msg)
    if scores is not None and positive is None:
        msg = "`scores` need `positive`: which class do high scores point to?"
        raise InputError(msg)
    # predicted labels by one Arrow column (a file's): the rows counted by its codes as
    # coded, the counts then put in the slices' order, not every row's code
    raw = arrow_codes(columns[0], names[0]) if len(columns) == 1 and scores is None else None
    if raw is None:
        coded = code_keys(columns, names)
        keys, codes = coded.keys, coded.codes
        S = len(keys)
    else:
        codes = raw[1]
        S = len(raw[0])
    a = code_column(actual, "actual")
    n = a.codes.shape[0]
    if codes.shape[0] != n:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {n}, by {codes.shape[0]}."
        )
        raise InputError(msg)
    w = check_weights(weights, n)
    cells = overall = None
    if predicted is not None:
        cells, overall = count_parts(codes, S, a, predicted, w, clusters, text)
    rankings = overall_ranking = None
    label: Label | None = None
    if scores is not None:
        found = rank_parts(codes, S, a, scores, positive, w, partial, stand_in)
        label, rankings, overall_ranking = found
    rows = slice_rows(codes, S, w, cells, rankings)
    if raw is not None:
        assert cells is not None  # predicted labels, no scores
        keys, cells, rows = _canonical(raw[0], cells, rows)
    if overall is not None and w is None:  # unweighted, its actual labels are those of a row
        classes = sort_labels(overall.actual)  # (`arrange_counts`): no count of the rows
    else:
        used = np.flatnonzero(np.bincount(a.codes, minlength=len(a.labels))).tolist()
        classes = sort_labels(a.labels[i] for i in used)
    fields = (tuple(names), keys, rows, cells, overall, label, rankings, overall_ranking)
    return fields, classes


def _canonical(
    labels: tuple[Label, ...], cells: SlicedCells, rows: NDArray[np.int64]
) -> tuple[tuple[Key, ...], SlicedCells, NDArray[np.int64]]:
    """The keys, cells and rows of slices counted by a column's codes as coded
    (`arrow_codes`), put in canonical order: the slices a row holds (`rows[i] > 0`:
    every row is in a cell, weighted or not), sorted as `code_keys` sorts them, and the
    cells sorted by (slice, row, column) again (each slice's cells are already a sorted
    run: a stable sort of the slices)."""
    occurs = rows > 0
    keys, position = canonical_codes(labels, occurs)
    s = position[cells.slice]
    order = np.argsort(s, kind="stable")
    moved = SlicedCells(
        s[order], cells.row[order], cells.col[order], cells.values[order], *cells[4:]
    )
    placed = np.zeros(len(keys), dtype=np.int64)
    placed[position[occurs]] = rows[occurs]
    return keys, moved, placed


def check_time(time: Any, every: Any, by: bool) -> None:
    """Refuse `time` without `every` or the reverse, a bad span, and slices of nothing
    (neither `by` columns nor a `time`)."""
    if (time is None) != (every is None):
        msg = "`time` and `every` go together: the timestamps and the window span (1d, 1mo...)."
        raise InputError(msg)
    if every is not None:
        from informed.slices.windows import parse_every  # time windows: loaded when used

        parse_every(every)
    elif not by:
        msg = "pass `by` (the columns to slice by), `time` and `every` (time windows), or both."
        raise InputError(msg)


def timed(values: Any, every: str | None, name: str) -> tuple[list[CodedKeys], list[str]]:
    """The window column of the timestamps `values` (none without them) and its name,
    "name (every)", as `build_slices` takes them in front of the `by` columns."""
    if values is None or every is None:
        return [], []
    from informed.slices.windows import window_codes

    return [window_codes(values, every, name)], [f"{name} ({every})"]
