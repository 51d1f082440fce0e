"""Rows into sliced summaries in one pass: counts[S, K, C] and one Ranking per slice.

The slice code is one more coded column: combined with the cell code (predicted label,
actual class) it gives one integer per row, counted by one `numpy.bincount` when the
S x K x C cells are few (`_CELL_LIMIT`) and by one sort of the combined codes otherwise,
so that only the non-zero cells of a sliced table of many slices and labels are ever
held. Scores are grouped by one sort on (slice, score): each slice's tie groups are a
run of the sorted rows. The overall Table and Ranking are counted from the same coded
rows by the unsliced code (`informed.table.counting.count_coded`,
`informed.ranking.Ranking.from_scores`), so that they equal the unsliced summaries bit
for bit, weighted ones included (a sum of per-slice float sums may differ in the last bit).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory
from informed.labels import Coded, Label, keyed
from informed.ranking import Ranking
from informed.ranking.grouping import as_scores, canonical_scores
from informed.table.counting import check_same_kind, count_coded
from informed.table.table import Table

__all__ = ["SlicedCells", "count_sliced", "rank_sliced"]

# Cells (S x K x C) up to which a bincount counts them; beyond, a sort of the codes.
_CELL_LIMIT = 1 << 22


class SlicedCells(NamedTuple):
    """The non-zero cells of counts[S, K, C], sorted by (slice, row, column)."""

    slice: NDArray[np.intp]
    row: NDArray[np.intp]
    col: NDArray[np.intp]
    values: NDArray[Any]
    predicted: tuple[Label, ...]
    actual: tuple[Label, ...]


def count_sliced(
    slices: NDArray[np.intp],
    n_slices: int,
    a: Coded,
    p: Coded,
    weights: NDArray[np.float64] | None,
    clusters: bool = False,
) -> tuple[SlicedCells, Table]:
    """The non-zero cells of every slice and the overall Table, from coded columns."""
    if not clusters:
        check_same_kind(
            a.labels, p.labels, "or pass `clusters=True` if the predictions are cluster ids"
        )
    overall_counted = count_coded(a, p, weights, clusters)
    overall = Table(overall_counted.counts, overall_counted.predicted, overall_counted.actual)
    # the overall table's labels (canonical, each used) are the slices' labels too
    row_of = _positions(p.labels, overall.predicted)
    col_of = _positions(a.labels, overall.actual)
    K, C = len(overall.predicted), len(overall.actual)
    dtype = np.dtype(np.int64 if weights is None else np.float64)
    n = slices.shape[0]
    if n == 0 or K == 0 or C == 0:
        empty = np.zeros(0, dtype=np.intp)
        return SlicedCells(empty, empty, empty, np.zeros(0, dtype), (), ()), overall
    check_memory(8 * n, f"the slice codes of {n:,} rows", "read the rows in batches")
    combined = slices.astype(np.int64, copy=True)
    combined *= K
    combined += row_of[p.codes]
    combined *= C
    combined += col_of[a.codes]
    cells = n_slices * K * C
    if cells <= _CELL_LIMIT:
        check_memory(8 * cells, f"{n_slices:,} slices of {K} x {C} cells", "slice by fewer keys")
        flat = np.bincount(combined, weights=weights, minlength=cells)
        keys = np.flatnonzero(flat)
        values: NDArray[Any] = flat[keys].astype(dtype, copy=False)
    elif weights is None:
        keys, counts = np.unique(combined, return_counts=True)
        values = counts.astype(np.int64)
    else:
        keys, inverse = np.unique(combined, return_inverse=True)
        values = np.bincount(inverse.reshape(-1), weights=weights, minlength=keys.size)
        keep = values != 0
        keys, values = keys[keep], values[keep]
    rest, col = np.divmod(keys, C)
    s, row = np.divmod(rest, K)
    return (
        SlicedCells(
            s.astype(np.intp),
            row.astype(np.intp),
            col.astype(np.intp),
            values,
            overall.predicted,
            overall.actual,
        ),
        overall,
    )


def _positions(labels: tuple[Label, ...], among: tuple[Label, ...]) -> NDArray[np.intp]:
    """Where each coded label is among the table's labels (0 for one no row holds)."""
    where = {keyed(x): i for i, x in enumerate(among)}
    return np.fromiter((where.get(keyed(x), 0) for x in labels), dtype=np.intp, count=len(labels))


def rank_sliced(
    slices: NDArray[np.intp],
    n_slices: int,
    is_positive: NDArray[np.bool_],
    scores: Any,
    weights: NDArray[np.float64] | None,
) -> tuple[tuple[Ranking, ...], Ranking]:
    """One Ranking per slice (one sort by slice, then score) and the overall Ranking."""
    values = as_scores(np.asarray(scores), allow_infinite=False)
    overall = Ranking.from_scores(
        actual=is_positive, scores=values, positive=True, negative=False, weights=weights
    )
    if weights is not None:
        keep = weights > 0
        if not keep.all():
            slices, is_positive, values, weights = (
                slices[keep],
                is_positive[keep],
                values[keep],
                weights[keep],
            )
    n = values.shape[0]
    if n == 0:
        return tuple(Ranking.empty(weighted=weights is not None) for _ in range(n_slices)), overall
    values = canonical_scores(values)  # -0.0 is 0.0: one tie group
    order = np.lexsort((np.negative(values), slices))
    s, v = slices[order], values[order]
    starts = np.flatnonzero(np.r_[True, (s[1:] != s[:-1]) | (v[1:] != v[:-1])])
    positive = is_positive[order]
    if weights is None:
        positives: NDArray[Any] = np.add.reduceat(positive.astype(np.int64), starts)
        totals = np.diff(starts, append=n).astype(np.int64)
        negatives: NDArray[Any] = totals - positives
    else:
        w = weights[order]
        positives = np.add.reduceat(np.where(positive, w, 0.0), starts)
        negatives = np.add.reduceat(np.where(positive, 0.0, w), starts)
    group_slice = s[starts]
    bounds = np.searchsorted(group_slice, np.arange(n_slices + 1))
    rankings = []
    for k in range(n_slices):
        part = slice(bounds[k], bounds[k + 1])
        if bounds[k] == bounds[k + 1]:
            rankings.append(Ranking.empty(weighted=weights is not None))
        else:
            rankings.append(Ranking(v[starts[part]], positives[part], negatives[part]))
    return tuple(rankings), overall
