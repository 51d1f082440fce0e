"""The candidates of a slice search, counted level by level and pruned from their counts.

A candidate of depth L is a conjunction of L conditions `column = value` on L distinct
columns. Each combination of L columns is one grouped count of its slices' cells
(predicted label x actual class, or score x outcome): over the rows, one coded key per
row (the columns' codes crossed) counted with the cell code by one `numpy.bincount`
(or, where the crossed keys are many, after coding them by one hash,
`informed.coding.hashing.code_keys`), the way `informed.slices.counting` counts the slices of
`--by`. The levels run one after the other, so that a level only counts the children of
slices that can still be tested.

Pruning reads the counts alone: a child's rows are among each parent's rows, so it has
at most the cases of every margin its parents have, real or predicted. A slice with
fewer than `min_size` cases in a margin its measure divides by (the registry's
`requires`: real positives and negatives for informedness, predicted ones for
markedness; per class, or per predicted label, with more labels) is not tested, and
none of its children is counted: only rows whose every parent is adequate are counted at the next
level, which gives each counted child exactly its own cells. What is left out is
counted: `pruned` is the number of slices counted but too small to test or to extend.

>>> import numpy as np
>>> from informed.disparity.columns import code_column
>>> columns = [code_column(["a", "a", "b", "b"], "g"), code_column([1, 2, 1, 2], "h")]
>>> cells = np.array([0, 3, 0, 3])  # predicted x actual over labels (0, 1): tp, tn, ...
>>> level = count_level(columns, (0,), cells, 2, None)
>>> level.keys.tolist(), level.counts.tolist()
([[0], [1]], [[[1, 0], [0, 1]], [[1, 0], [0, 1]]])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory, memory_budget
from informed.coding.hashing import code_keys
from informed.disparity.columns import SearchColumn
from informed.errors import InputError
from informed.ranking import Ranking
from informed.slices.counting import rank_sliced

__all__ = [
    "Counted",
    "Cube",
    "Scored",
    "compress",
    "count_level",
    "crossed",
    "full_cube",
    "key_codes",
    "rows_of",
]

# Crossed keys x cells up to which one bincount counts them; beyond, a hash of the keys.
_DENSE = 1 << 22
# Cells of the full cube (every column crossed, with the cells) counted at once.
_CUBE = 1 << 24
# Rows whose keys of the full cube are crossed and counted at once.
_CHUNK = 1 << 20
# Crossed keys beyond this do not fit one 64-bit code.
_SPACE = 1 << 62


@dataclass(frozen=True)
class Scored:
    """The scores of the rows searched: each row's outcome and score."""

    is_positive: NDArray[np.bool_]
    scores: NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Counted:
    """The slices of one combination of columns, with their summaries.

    Attributes
    ----------
    columns : tuple of int
        The positions of the combination's columns among the search's, ascending.
    keys : ndarray [S, L]
        Each slice's value codes, one per column.
    counts : ndarray [S, M, M] or None
        Each slice's square table (rows predicted, columns actual, over the M labels).
    rankings : tuple of Ranking or None
        Each slice's Ranking (with scores).
    """

    columns: tuple[int, ...]
    keys: NDArray[np.intp]
    counts: NDArray[np.int64] | None = None
    rankings: tuple[Ranking, ...] | None = None

    def __len__(self) -> int:
        return int(self.keys.shape[0])


def _space(columns: Sequence[SearchColumn], combination: tuple[int, ...]) -> int:
    space = math.prod(columns[j].size for j in combination)
    if space > _SPACE:
        names = ", ".join(f"{columns[j].name} ({columns[j].size:,} values)" for j in combination)
        msg = (
            f"the columns {names} cross into {space:.3g} keys, more than one 64-bit code "
            "holds: cut the column of most values into ranges, or search without it."
        )
        raise InputError(msg)
    return space


def crossed(
    columns: Sequence[SearchColumn], combination: tuple[int, ...], rows: NDArray[np.intp] | None
) -> NDArray[np.int64]:
    """Each row's crossed key of the `combination`'s columns (of the rows `rows`, or all):
    the columns' codes in mixed radix, the first column most significant."""
    _space(columns, combination)
    first = columns[combination[0]].codes
    key = (first if rows is None else first[rows]).astype(np.int64)
    for j in combination[1:]:
        codes = columns[j].codes
        key *= columns[j].size
        key += codes if rows is None else codes[rows]
    return key


def key_codes(
    columns: Sequence[SearchColumn], combination: tuple[int, ...], keys: NDArray[np.intp]
) -> NDArray[np.int64]:
    """The crossed key of slice keys [S, L] (as `crossed` codes a row)."""
    code = keys[:, 0].astype(np.int64)
    for at, j in enumerate(combination[1:], start=1):
        code = code * columns[j].size + keys[:, at]
    return code


def rows_of(
    columns: Sequence[SearchColumn],
    combination: tuple[int, ...],
    parents: dict[tuple[int, ...], NDArray[np.int64]],
    n: int,
) -> NDArray[np.intp] | None:
    """The rows whose every parent (the combination less one column) is an adequate
    slice: `parents` maps each parent combination to its adequate slices' crossed keys,
    sorted. None for all rows (the first level, or no row left out)."""
    if len(combination) == 1:
        return None
    keep = np.ones(n, dtype=bool)
    for drop in range(len(combination)):
        parent = combination[:drop] + combination[drop + 1 :]
        adequate = parents.get(parent)
        if adequate is None or adequate.size == 0:
            return np.zeros(0, dtype=np.intp)
        key = crossed(columns, parent, None)
        space = _space(columns, parent)
        if space <= _DENSE:
            table = np.zeros(space, dtype=bool)
            table[adequate] = True
            keep &= table[key]
        else:
            at = np.minimum(np.searchsorted(adequate, key), adequate.size - 1)
            keep &= adequate[at] == key
    return None if bool(keep.all()) else np.flatnonzero(keep).astype(np.intp)


def _decode(
    columns: Sequence[SearchColumn], combination: tuple[int, ...], codes: NDArray[np.int64]
) -> NDArray[np.intp]:
    """Slice keys [S, L] of crossed keys."""
    keys = np.empty((codes.size, len(combination)), dtype=np.intp)
    rest = codes.copy()
    for at in range(len(combination) - 1, -1, -1):
        rest, keys[:, at] = np.divmod(rest, columns[combination[at]].size)
    return keys


def count_level(
    columns: Sequence[SearchColumn],
    combination: tuple[int, ...],
    cells: NDArray[np.integer[Any]] | None,
    labels: int,
    scored: Scored | None,
    rows: NDArray[np.intp] | None = None,
    weights: NDArray[np.int64] | None = None,
) -> Counted:
    """Count the slices of one combination of columns over `rows` (None: every row):
    with `cells` (each row's predicted x actual cell over `labels` labels; `weights`:
    how many rows each stands for) a square table per slice, with `scored` a Ranking per
    slice."""
    key = crossed(columns, combination, rows)
    space = _space(columns, combination)
    n = key.size
    LL = max(1, labels * labels)
    if n == 0:
        empty = np.zeros((0, len(combination)), dtype=np.intp)
        square = None if cells is None else np.zeros((0, labels, labels), dtype=np.int64)
        return Counted(combination, empty, square, () if scored is not None else None)
    w = None if weights is None or rows is None else weights[rows]
    w = weights if rows is None else w
    if cells is not None and space * LL <= max(_DENSE, n):  # one bincount of key and cell
        check_memory(
            16 * space * LL,
            f"up to {space:,} candidate slices of columns {[columns[j].name for j in combination]}",
            "search fewer columns, a smaller depth, or a larger min_size",
        )
        cell = cells if rows is None else cells[rows]
        flat = np.bincount(key * LL + cell, weights=w, minlength=space * LL)
        per_slice = flat.reshape(space, LL)
        present = np.flatnonzero(per_slice.any(axis=1)).astype(np.int64)
        square = per_slice[present].reshape(-1, labels, labels).astype(np.int64)
        return Counted(combination, _decode(columns, combination, present), square, None)
    if space <= n or space * LL <= _DENSE:
        present, slice_of = _dense(key, space)
    else:
        distinct, codes = code_keys(key.view(np.uint64))
        order = np.argsort(distinct.view(np.int64))
        present = distinct.view(np.int64)[order]
        position = np.empty(order.size, dtype=np.intp)
        position[order] = np.arange(order.size)
        slice_of = position[codes]
    S = present.size
    square = None
    if cells is not None:
        check_memory(
            8 * S * LL,
            f"{S:,} candidate slices of columns {[columns[j].name for j in combination]}",
            "search fewer columns, a smaller depth, or a larger min_size",
        )
        cell = cells if rows is None else cells[rows]
        flat = np.bincount(slice_of * LL + cell, weights=w, minlength=S * LL)
        square = flat.reshape(S, labels, labels).astype(np.int64)
    rankings = None
    if scored is not None:
        positive = scored.is_positive if rows is None else scored.is_positive[rows]
        scores = scored.scores if rows is None else scored.scores[rows]
        rankings, _ = rank_sliced(slice_of, S, positive, scores, None)
    return Counted(combination, _decode(columns, combination, present), square, rankings)


def _dense(key: NDArray[np.int64], space: int) -> tuple[NDArray[np.int64], NDArray[np.intp]]:
    """The crossed keys present (ascending) and each row's slice, by one bincount."""
    occurs = np.bincount(key, minlength=space)
    present = np.flatnonzero(occurs)
    lookup = np.zeros(space, dtype=np.intp)
    lookup[present] = np.arange(present.size)
    return present.astype(np.int64), lookup[key]


def full_cube(
    columns: Sequence[SearchColumn], cells: NDArray[np.integer[Any]], labels: int
) -> NDArray[np.int64] | None:
    """The counts of every crossing of every column and cell, counts[v1, ..., vd, M, M],
    from one bincount of the rows, where it holds at most `_CUBE` cells (else None):
    every combination's slices are then its marginals, and no row is read again."""
    LL = labels * labels
    sizes = [c.size for c in columns]
    space = math.prod(sizes) * LL
    budget = memory_budget()
    if space > _CUBE or (budget is not None and 8 * (space + cells.shape[0]) > budget):
        return None  # the combinations are counted one by one (and refused if too many)
    cube = np.zeros(space, dtype=np.int64)
    for start in range(0, cells.shape[0], _CHUNK):  # a block of keys at a time, in cache
        stop = start + _CHUNK
        key = columns[0].codes[start:stop].astype(np.intp)
        for column in columns[1:]:
            key *= column.size
            key += column.codes[start:stop]
        key *= LL
        key += cells[start:stop]
        cube += np.bincount(key, minlength=space)
    return cube.reshape(*sizes, labels, labels)


class Cube:
    """The full cube's marginals, each summed from a cached marginal of fewer columns:
    the cube less one column, less two, ..., so that each combination costs a sum over
    an array a few times smaller than the cube, not over the cube."""

    def __init__(self, cube: NDArray[np.int64], columns: Sequence[SearchColumn]) -> None:
        self.columns = columns
        self.cache: dict[tuple[int, ...], NDArray[np.int64]] = {(): cube}

    def dropped(self, drop: tuple[int, ...]) -> NDArray[np.int64]:
        """The cube summed over the columns `drop` (ascending)."""
        found = self.cache.get(drop)
        if found is None:
            parent = self.dropped(drop[:-1])
            found = parent.sum(axis=drop[-1] - (len(drop) - 1))
            self.cache[drop] = found
        return found

    def marginal(self, combination: tuple[int, ...], labels: int) -> Counted:
        """A combination's slices (those holding rows) from its marginal."""
        others = tuple(j for j in range(len(self.columns)) if j not in combination)
        cached = others[:2]
        summed = self.dropped(cached)
        rest = [j - sum(1 for d in cached if d < j) for j in others[2:]]
        if rest:
            summed = summed.sum(axis=tuple(rest))
        space = math.prod(self.columns[j].size for j in combination)
        flat = summed.reshape(space, labels, labels)
        present = np.flatnonzero(flat.reshape(space, -1).any(axis=1)).astype(np.int64)
        keys = _decode(self.columns, combination, present)
        return Counted(combination, keys, flat[present].astype(np.int64))


def compress(
    columns: Sequence[SearchColumn], cells: NDArray[np.integer[Any]], labels: int
) -> tuple[list[SearchColumn], NDArray[np.intp], NDArray[np.int64]] | None:
    """The rows as their distinct (every column's value, cell) units and how many rows
    each stands for, when they are at most half the rows (else None): every level then
    counts units, not rows, with the same counts (a sum of whole numbers)."""
    n = cells.shape[0]
    LL = labels * labels
    sizes = [c.size for c in columns]
    space = math.prod(sizes) * LL
    if space > 4 * n:  # units cannot be few enough to pay for finding them
        return None
    key = crossed(columns, tuple(range(len(columns))), None) * LL + cells
    counts = np.bincount(key, minlength=space)
    present = np.flatnonzero(counts)
    if present.size > n // 2:
        return None
    rest, unit_cells = np.divmod(present, LL)
    codes = []
    for size in reversed(sizes):
        rest, code = np.divmod(rest, size)
        codes.append(code.astype(np.intp))
    codes.reverse()
    units = [
        SearchColumn(c.name, c.values, code, c.edges)
        for c, code in zip(columns, codes, strict=True)
    ]
    return units, unit_cells.astype(np.intp), counts[present].astype(np.int64)
