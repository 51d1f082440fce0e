"""Matching a sparsely stored table's labels to classes from its non-zero cells alone.

A table of thousands of labels on each side is stored sparsely; its K x C score matrix
would not fit in memory. `informed.table.matching.match` comes here for such a table,
and each route gives exactly what the dense route (`scipy.optimize.
linear_sum_assignment`, `numpy.argmax` over each row) gives, without a K x C array:

* one-to-one, most cases on the diagonal: an empty cell adds nothing, so the best
  assignment is a maximum-weight matching over the non-zero cells, found by
  `scipy.sparse.csgraph.min_weight_full_bipartite_matching` (each label also gets a
  private "no class" column, so that the matching is full), then completed with empty
  pairs up to min(K, C) as the dense assignment is.
* many-to-one: each label's best class is its best non-zero cell or, by informedness,
  possibly an empty cell: the empty cell of the smallest class beats every other empty
  cell of the row, so one walk per row over the classes by size finds it.
* one-to-one by informedness: an empty pair's score, -pP(l) |P=l| / (N - |R=c|), is not
  zero, so the exact assignment needs the dense score matrix; `dense_scores_fit` checks
  its memory first and names the sizes and the sparse routes otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory
from informed.measures import ratio
from informed.table.table import Table

__all__ = ["best_classes", "dense_scores_fit", "diagonal_assignment"]

Index = NDArray[np.intp]


def dense_scores_fit(table: Table) -> None:
    """Refuse, before allocating, a dense one-to-one assignment that would not fit: the
    K x C counts, the scores and the solver's copy, float64 each."""
    K, C = table.shape
    check_memory(
        3 * 8 * K * C,
        f"matching {K:,} predicted labels to {C:,} classes one-to-one by informedness "
        f"(a dense {K:,} x {C:,} score matrix)",
        "match with objective='diagonal' or method='many-to-one', which read only the "
        "non-zero cells",
    )


def diagonal_assignment(table: Table) -> tuple[list[int], list[int]]:
    """Rows and columns of a one-to-one assignment of min(K, C) pairs putting the most
    cases on the diagonal, from the non-zero cells: its total equals that of
    `linear_sum_assignment` on the dense counts."""
    from scipy import sparse
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    K, C = table.shape
    rows, cols, counts = table.cells
    if K == 0 or C == 0:
        return [], []
    # a weight of count + 1 per cell and 1 per label's own "no class" column: every
    # full matching takes K edges, so the largest total is the largest diagonal + K
    data = np.concatenate([np.asarray(counts, dtype=np.float64) + 1.0, np.ones(K)])
    graph = sparse.csr_array(
        (data, (np.concatenate([rows, np.arange(K)]), np.concatenate([cols, C + np.arange(K)]))),
        shape=(K, C + K),
    )
    found_rows, found_cols = min_weight_full_bipartite_matching(graph, maximize=True)
    real = found_cols < C
    pairs_rows = found_rows[real].tolist()
    pairs_cols = found_cols[real].tolist()
    # complete with empty pairs, as the dense assignment matches min(K, C) pairs
    free_rows = np.setdiff1d(np.arange(K), found_rows[real]).tolist()
    free_cols = np.setdiff1d(np.arange(C), found_cols[real]).tolist()
    extra = min(K, C) - len(pairs_rows)
    pairs_rows += free_rows[:extra]
    pairs_cols += free_cols[:extra]
    order = np.argsort(pairs_rows, kind="stable")
    return [pairs_rows[k] for k in order], [pairs_cols[k] for k in order]


def best_classes(table: Table, objective: str) -> list[int]:
    """The column of each row's best class (many-to-one), as `numpy.argmax` picks it on
    the dense row of scores: the first column of the largest value; by informedness
    tpr - fpr of the label if sent to the class (nan counted as -inf), by diagonal the
    count."""
    K, C = table.shape
    rows, cols, counts = table.cells
    values = np.asarray(counts, dtype=np.float64)
    starts = np.searchsorted(rows, np.arange(K + 1))
    if objective == "diagonal":
        return [_first_best(values, cols, starts, k, 0.0, C) for k in range(K)]
    total = float(values.sum())
    row_sums = np.bincount(rows, weights=values, minlength=K)
    col_sums = np.bincount(cols, weights=values, minlength=C)
    scores = ratio(values, col_sums[cols]) - ratio(row_sums[rows] - values, total - col_sums[cols])
    scores = np.where(np.isnan(scores), -np.inf, scores)
    # an empty cell scores 0 / |R=c| - |P=l| / (N - |R=c|): highest for the smallest class
    # (that is neither empty nor everything), the first such class on a tie
    usable = np.flatnonzero((col_sums > 0) & (total - col_sums != 0))
    by_size = usable[np.argsort(col_sums[usable], kind="stable")].tolist()
    best: list[int] = []
    for k in range(K):
        start, stop = int(starts[k]), int(starts[k + 1])
        filled = set(cols[start:stop].tolist())
        empty_col, empty_value = -1, -np.inf
        if row_sums[k] == 0 and usable.size:  # an empty row: every usable class scores 0
            empty_col, empty_value = int(usable[0]), 0.0
        elif len(filled) < C:
            for c in by_size:
                if c not in filled:
                    empty_col = c
                    empty_value = float(
                        ratio(0.0, col_sums[c]) - ratio(row_sums[k], total - col_sums[c])
                    )
                    break
        best.append(_pick(scores, cols, start, stop, empty_col, empty_value))
    return best


def _first_best(
    values: NDArray[Any], cols: Index, starts: Index, k: int, empty: float, width: int
) -> int:
    """argmax of row k whose non-zero cells are values[starts[k]:starts[k+1]] and whose
    other cells are `empty` (width columns)."""
    start, stop = int(starts[k]), int(starts[k + 1])
    filled = cols[start:stop]
    first_empty = _first_missing(filled, width)
    return _pick(values, cols, start, stop, first_empty, empty if first_empty >= 0 else -np.inf)


def _pick(
    values: NDArray[Any], cols: Index, start: int, stop: int, empty_col: int, empty_value: float
) -> int:
    """The first column of the largest value among the cells start:stop and one empty
    cell (`empty_col`, -1 if none); 0 when every value is -inf, as argmax gives."""
    best_col, best_value = -1, -np.inf
    if stop > start:
        segment = values[start:stop]
        at = int(np.argmax(segment))
        best_col, best_value = int(cols[start + at]), float(segment[at])
    if empty_col >= 0 and (
        empty_value > best_value or (empty_value == best_value and empty_col < best_col)
    ):
        best_col, best_value = empty_col, empty_value
    if best_value == -np.inf:
        return 0
    return best_col


def _first_missing(filled: Index, width: int) -> int:
    """The first column in range(width) not in the sorted `filled`; -1 if none."""
    if filled.size == width:
        return -1
    gaps = np.flatnonzero(filled != np.arange(filled.size))
    return int(gaps[0]) if gaps.size else int(filled.size)
