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
from informed.ranking.grouping import as_scores, group_rows
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
    """One Ranking per slice and the overall Ranking.

    The rows are put in slice order by one stable sort of the slice codes (a radix sort
    for up to 2^15 slices), then each slice's run of rows is grouped by the unsliced
    code (`informed.ranking.grouping.group_rows`: one sort of its score keys). Sorting
    a slice's run is cache-friendly where one sort of (slice, score) over all rows is
    not, and the same function on the same rows in the same order gives each slice
    exactly the Ranking `Ranking.from_scores` gives its rows, weighted ones included.
    """
    values = as_scores(np.asarray(scores), allow_infinite=False)
    small = slices.astype(np.int16 if n_slices < (1 << 15) else np.int64)
    order = np.argsort(small, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(slices, minlength=n_slices))))
    v, positive = values[order], is_positive[order]
    w = None if weights is None else weights[order]
    rankings = []
    for k in range(n_slices):
        part = slice(int(bounds[k]), int(bounds[k + 1]))
        found = group_rows(v[part], positive[part], None if w is None else w[part])
        rankings.append(Ranking(*found))
    return tuple(rankings), _overall(rankings, values, is_positive, weights)


def _overall(
    rankings: list[Ranking],
    values: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    weights: NDArray[np.float64] | None,
) -> Ranking:
    """The Ranking of all rows: integer counts summed over the slices' tie groups when
    they are fewer than the rows (exact); otherwise, and for float weights (whose sums
    depend on their order), counted from the rows as `Ranking.from_scores` does."""
    groups = sum(r.n_groups for r in rankings)
    if weights is not None or 2 * groups > values.shape[0] or not rankings:
        return Ranking.from_scores(
            actual=is_positive, scores=values, positive=True, negative=False, weights=weights
        )
    scores = np.concatenate([r.scores for r in rankings])
    distinct, where = np.unique(np.negative(scores), return_inverse=True)
    where = where.reshape(-1)
    positives = np.bincount(where, np.concatenate([r.positives for r in rankings]), distinct.size)
    negatives = np.bincount(where, np.concatenate([r.negatives for r in rankings]), distinct.size)
    return Ranking(
        np.negative(distinct) + 0.0,
        np.rint(positives).astype(np.int64),
        np.rint(negatives).astype(np.int64),
    )
