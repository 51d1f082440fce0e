"""The cells of a table, dense or sparse, and the sums every measure reads from them.

A measure reads a table through its margins (how often each label is predicted and
occurs), its diagonal and, for the entropies, its non-zero cells. A table may come as a
dense array counts[..., K, C] or as `Cells`: the values of some of its cells (every
non-zero one) with their row and column, values[..., n], as a sparse table with many
labels holds them. `as_cells` reads both the same way, so a measure is written once.

The margins are exact sums. Whole counts summing below 2^53 are added in float64
(`scatter`, a `numpy.bincount`, exact there); any other values (weights, or counts of a
larger total) are added exactly as integers (`informed.measures.exact`) and rounded once.
The one-vs-rest views (`one_vs_rest`) are read from the cells the same way: fp, fn and tn
are exact sums of the cells off the label's row or column, never a small cell derived by
subtracting large rounded sums. So a table gives the same value to the last bit whether
its zero cells are stored (dense) or not (sparse), and in any order of its cells.

>>> dense = np.array([[3.0, 1.0], [0.0, 2.0]])
>>> sparse = Cells(np.array([3.0, 1.0, 2.0]), np.array([0, 0, 1]), np.array([0, 1, 1]), (2, 2))
>>> a, b = margins(dense), margins(sparse)
>>> a.rows.tolist(), a.cols.tolist(), a.diagonal.tolist(), float(a.total)
([4.0, 2.0], [3.0, 3.0], [3.0, 2.0], 6.0)
>>> all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("diagonal", "rows", "cols", "total"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.measures.exact import LimbSums, grid, limb_sums, to_float

__all__ = [
    "Cells",
    "Margins",
    "as_cells",
    "cell_sum",
    "gather",
    "margins",
    "one_view",
    "one_vs_rest",
    "rests",
    "scatter",
    "whole_counts",
]

Floats = NDArray[np.float64]
Index = NDArray[np.intp]

# Cells up to which `scatter` adds a batch of tables a cell at a time.
_FEW_CELLS = 16


@dataclass(frozen=True, eq=False)
class Margins:
    """The sums a measure reads: per label and overall, with any leading batch axes.

    Attributes
    ----------
    diagonal : ndarray [..., min(K, C)]
        n(l, l): the cases predicted as their own class.
    rows : ndarray [..., K]
        |P = l|: how often each label is predicted (row sums).
    cols : ndarray [..., C]
        |R = c|: how often each class occurs (column sums).
    total : ndarray [...]
        N.
    """

    diagonal: Floats
    rows: Floats
    cols: Floats
    total: Floats


class Cells:
    """Cells of tables of `shape` (K, C): `values[..., n]` at (`rows[n]`, `cols[n]`).

    Cells not listed are zero. The cells are in row-major order with no cell twice (as
    `as_cells` and a sparse Table give them); any leading axes of `values` are a batch of
    tables sharing the cells (bootstrap replicates). The margins are computed once and
    kept.
    """

    __slots__ = ("_kind", "_margins", "_sums", "_views", "cols", "rows", "shape", "values")

    def __init__(self, values: Any, rows: Any, cols: Any, shape: tuple[int, int]) -> None:
        self.values: Floats = np.asarray(values, dtype=np.float64)
        self.rows: Index = np.asarray(rows, dtype=np.intp)
        self.cols: Index = np.asarray(cols, dtype=np.intp)
        self.shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        self._margins: Margins | None = None
        self._sums: tuple[LimbSums, LimbSums, LimbSums, LimbSums] | None = None
        self._kind = ""  # how the sums were taken: "whole", "pair" or "limbs" (margins)
        self._views: Floats | None = None
        if self.rows.shape != self.cols.shape or self.values.shape[-1:] != self.rows.shape:
            msg = (
                f"cells need values[..., n], rows[n] and cols[n]; got shapes "
                f"{self.values.shape}, {self.rows.shape} and {self.cols.shape}."
            )
            raise InputError(msg)

    @property
    def batch(self) -> tuple[int, ...]:
        """The leading (batch) axes of `values`."""
        return tuple(self.values.shape[:-1])

    def __repr__(self) -> str:
        return f"Cells(shape={self.shape}, batch={self.batch}, cells={self.rows.size})"


def as_cells(table: Any) -> Cells:
    """`table` as Cells: a Cells object as it is; an array counts[..., K, C] as every one of
    its K x C cells, in row-major order."""
    if isinstance(table, Cells):
        return table
    counts = np.asarray(table, dtype=np.float64)
    if counts.ndim < 2:
        msg = f"a table needs counts[..., K, C]; got shape {counts.shape}."
        raise InputError(msg)
    K, C = counts.shape[-2:]
    rows = np.repeat(np.arange(K, dtype=np.intp), C)
    cols = np.tile(np.arange(C, dtype=np.intp), K)
    return Cells(counts.reshape(*counts.shape[:-2], K * C), rows, cols, (K, C))


def scatter(values: Any, index: Index, size: int) -> Floats:
    """out[..., k] = the sum of values[..., i] over the i with index[i] = k, added one
    after another in the order of i (so that zero values change no bit)."""
    v = np.asarray(values, dtype=np.float64)
    batch = v.shape[:-1]
    count = int(np.prod(batch, dtype=np.int64)) if batch else 1
    if count == 1:
        out = np.bincount(index, weights=v.reshape(-1), minlength=size)
        return np.asarray(out, dtype=np.float64).reshape(*batch, size)
    if index.size <= _FEW_CELLS:
        # a cell at a time over the whole batch: each sum starts from 0.0 and adds the
        # same values in the same order as the bincount below, bit for bit, without its
        # offsets array (the margins of 10^5 bootstrap tables of 4 cells: 3 ms to 0.5 ms)
        sums: Floats = np.zeros((*batch, size), dtype=np.float64)
        for i, k in enumerate(index.tolist()):
            sums[..., k] += v[..., i]
        return sums
    offsets = (np.arange(count, dtype=np.intp) * size)[:, None] + index[None, :]
    out = np.bincount(offsets.reshape(-1), weights=v.reshape(-1), minlength=count * size)
    return np.asarray(out, dtype=np.float64).reshape(*batch, size)


def cell_sum(cells: Cells, terms: Any) -> Floats:
    """The sum over the cells of `terms[..., n]` (one term per cell), in the cells' order."""
    zero = np.zeros(cells.rows.size, dtype=np.intp)
    return scatter(terms, zero, 1)[..., 0]


def gather(per_label: Floats, index: Index) -> Floats:
    """per_label[..., index]: a margin read at each cell's row or column."""
    return np.take(per_label, index, axis=-1)


def margins(table: Any) -> Margins:
    """The diagonal, row and column sums and total of `table` (an array counts[..., K, C]
    or Cells), each the exact sum of its cells rounded once."""
    cells = as_cells(table)
    if cells._margins is None:
        K, C = cells.shape
        total = cell_sum(cells, cells.values)
        cells._kind = "whole"
        if _sums_exact(cells.values, total):
            diagonal, rows, cols = _whole_sums(cells)
        elif (K, C) == (2, 2):
            # each margin a single addition, so rounded once; each view's cell a cell
            cells._kind = "pair"
            a, b, c, d = np.moveaxis(_pair(cells), -1, 0)
            diagonal = np.stack([a, d], axis=-1)
            rows, cols = np.stack([a + b, c + d], axis=-1), np.stack([a + c, b + d], axis=-1)
        else:
            cells._kind = "limbs"
            sums = _exact_sums(cells)
            cells._sums = sums
            stacked = np.concatenate([s.limbs for s in sums], axis=-2)  # one rounding pass
            exact = to_float(stacked, sums[0].base)
            ends = np.cumsum([s.limbs.shape[-2] for s in sums])
            diagonal, rows, cols, total = np.split(exact, ends[:-1], axis=-1)
            total = total[..., 0]
        cells._margins = Margins(diagonal, rows, cols, total)
    return cells._margins


def _whole_sums(cells: Cells) -> tuple[Floats, Floats, Floats]:
    """The diagonal, row and column sums of whole counts whose sums are exact (any order
    of addition gives them): of a full table of cells in row-major order by sums along
    its axes, else one after another (`scatter`); + 0.0 as `scatter` starts from 0.0."""
    K, C = cells.shape
    # a few cells: `scatter` a cell at a time (numpy's sums along an axis of 2 took 15 ms
    # for 10^5 bootstrap tables); exact sums, so the same values in any order
    if (
        K * C > _FEW_CELLS
        and cells.rows.size == K * C
        and (
            np.array_equal(cells.rows, np.repeat(np.arange(K), C))
            and np.array_equal(cells.cols, np.tile(np.arange(C), K))
        )
    ):
        table = np.asarray(cells.values, dtype=np.float64).reshape(*cells.batch, K, C)
        diagonal = np.diagonal(table, axis1=-2, axis2=-1) + 0.0
        return diagonal, table.sum(axis=-1) + 0.0, table.sum(axis=-2) + 0.0
    on = cells.rows == cells.cols
    return (
        scatter(cells.values[..., on], cells.rows[on], min(K, C)),
        scatter(cells.values, cells.rows, K),
        scatter(cells.values, cells.cols, C),
    )


def whole_counts(table: Any) -> bool:
    """Whether the table holds whole counts summing below 2^53: its margins and views
    are then exact integers."""
    cells = as_cells(table)
    margins(cells)
    return cells._kind == "whole"


def _pair(cells: Cells) -> Floats:
    """The four cells [..., 4] (tp, fp, fn, tn) of 2 x 2 tables, however many are stored."""
    out = np.zeros((*cells.batch, 4), dtype=np.float64)
    out[..., cells.rows * 2 + cells.cols] = cells.values
    return out


def _sums_exact(values: Floats, total: Floats) -> bool:
    """Whether float64 sums of `values` are exact: whole non-negative values whose total
    is below 2^53 (every partial sum is then a whole number a float64 holds)."""
    if values.size == 0:
        return True
    return (
        bool(np.all(total < 2.0**53))
        and bool(np.all(values >= 0))
        and bool(np.all(np.floor(values) == values))
    )


def _exact_sums(cells: Cells) -> tuple[LimbSums, LimbSums, LimbSums, LimbSums]:
    """The diagonal, row, column and total sums of the cells as exact limbs on one grid."""
    K, C = cells.shape
    on = grid(cells.values)
    diagonal = cells.rows == cells.cols
    zero = np.zeros(cells.rows.size, dtype=np.intp)
    return (
        limb_sums(cells.values[..., diagonal], cells.rows[diagonal], min(K, C), on),
        limb_sums(cells.values, cells.rows, K, on),
        limb_sums(cells.values, cells.cols, C, on),
        limb_sums(cells.values, zero, 1, on),
    )


def one_vs_rest(table: Any) -> Floats:
    """The 2x2 one-vs-rest tables [[tp, fp], [fn, tn]] of every label of a square table
    `table[..., L, L]` (an array or Cells), shape [..., L, 2, 2], read-only.

    For label l: tp = n(l, l); fp, fn and tn are the sums of the cells in row l off the
    diagonal, in column l off the diagonal, and off row l and column l. Each is the exact
    sum rounded once, so a small cell stays exact beside large ones (weights 1e17 and 1
    give fp = 1, not 0). It costs O(cells + L) however many labels there are.

    >>> one_vs_rest(np.array([[1e17, 1.0], [1.0, 1.0]]))[..., 0, :, :].tolist()
    [[1e+17, 1.0], [1.0, 1.0]]
    """
    cells = as_cells(table)
    if cells._views is None:
        K, C = cells.shape
        if K != C:
            msg = f"one-vs-rest views need a square table; got shape {cells.shape}."
            raise InputError(msg)
        m = margins(cells)
        if cells._kind == "pair":  # a 2 x 2 table: its views are its cells
            a, b, c, d = np.moveaxis(_pair(cells), -1, 0)
            tp, fp, fn, tn = (np.stack(x, axis=-1) for x in ((a, d), (b, c), (c, b), (d, a)))
        elif cells._kind == "whole":  # whole counts below 2^53: these differences are exact
            tp = m.diagonal
            fp = m.rows - tp
            fn = m.cols - tp
            tn = m.total[..., None] - tp - fp - fn
        else:
            assert cells._sums is not None  # margins took them as limbs
            diagonal, rows, cols, total = cells._sums
            tp = m.diagonal
            rest = (
                rows.limbs - diagonal.limbs,
                cols.limbs - diagonal.limbs,
                total.limbs - rows.limbs - cols.limbs + diagonal.limbs,
            )
            fp, fn, tn = np.split(to_float(np.concatenate(rest, axis=-2), diagonal.base), 3, -1)
        # [..., L, 2, 2] written in place: three stacks allocated and copied it twice
        views = np.empty((*np.shape(tp), 2, 2), dtype=np.result_type(tp, fp, fn, tn))
        views[..., 0, 0], views[..., 0, 1], views[..., 1, 0], views[..., 1, 1] = tp, fp, fn, tn
        views.flags.writeable = False
        cells._views = views
    return cells._views


def one_view(table: Any, index: int) -> Floats:
    """`one_vs_rest(table)[..., index : index + 1, :, :]` as a new contiguous array,
    read-only. Of whole counts whose sums are exact (`margins`' "whole" kind), in a few
    cells, that label's line sums alone are added (exact: any order gives the margins'
    values), else the views of every label are cut.

    >>> one_view(np.array([[3.0, 1.0], [0.0, 2.0]]), 1).tolist()
    [[[2.0, 0.0], [1.0, 3.0]]]
    """
    cells = as_cells(table)
    K, C = cells.shape
    own = None
    if cells._views is None and K == C and cells.rows.size <= _FEW_CELLS:
        total = cell_sum(cells, cells.values) if cells._margins is None else cells._margins.total
        if _sums_exact(cells.values, total):  # the margins' "whole" kind
            own = _line_sums(cells, index)
    if own is not None:
        tp, row, col = own
        fp = row - tp
        fn = col - tp
        tn = total - tp - fp - fn
        view = np.empty((*np.shape(tp), 1, 2, 2), dtype=np.float64)
        view[..., 0, 0, 0], view[..., 0, 0, 1], view[..., 0, 1, 0], view[..., 0, 1, 1] = (
            tp,
            fp,
            fn,
            tn,
        )
    else:
        view = np.ascontiguousarray(one_vs_rest(cells)[..., index : index + 1, :, :])
    view.flags.writeable = False
    return view


def _line_sums(cells: Cells, index: int) -> tuple[Floats, Floats, Floats]:
    """The cell (index, index), row `index` and column `index` of the tables, each from
    0.0 (as `scatter` adds them, so +0.0, never -0.0)."""
    values = np.asarray(cells.values, dtype=np.float64)
    sums = []
    for where in (
        (cells.rows == index) & (cells.cols == index),
        cells.rows == index,
        cells.cols == index,
    ):
        found: Floats = np.zeros(cells.batch, dtype=np.float64)
        for i in np.flatnonzero(where).tolist():
            found += values[..., i]
        sums.append(found)
    return sums[0], sums[1], sums[2]


def rests(table: Any, axis: str, where: Any) -> Floats:
    """For the cells where `where` [..., n] is True (in the order of `numpy.nonzero`), the
    rest of each one's row (axis "rows") or column ("columns"): the line's sum less the
    cell, an exact sum rounded once as `one_vs_rest` takes its sums.

    >>> values = np.array([[1e17, 1.0], [0.0, 1.0]])
    >>> rests(values, "rows", np.ones(4, dtype=bool)).tolist()
    [1.0, 1e+17, 1.0, 0.0]
    """
    cells = as_cells(table)
    m = margins(cells)
    index = cells.rows if axis == "rows" else cells.cols
    where = np.broadcast_to(np.asarray(where, dtype=bool), cells.values.shape)
    at = np.nonzero(where)  # (batch..., cell) positions
    values = cells.values[at]
    if cells._kind == "pair":  # a 2 x 2 table: the rest of a line is its other cell
        pair = _pair(cells)
        row, col = index[at[-1]], (cells.cols if axis == "rows" else cells.rows)[at[-1]]
        other = row * 2 + (1 - col) if axis == "rows" else (1 - col) * 2 + row
        return np.asarray(pair[(*at[:-1], other)], dtype=np.float64)
    if cells._kind == "whole":  # whole counts below 2^53: these differences are exact
        sums = m.rows if axis == "rows" else m.cols
        return np.asarray(sums[(*at[:-1], index[at[-1]])] - values, dtype=np.float64)
    if values.size == 0 or cells._sums is None:
        return np.zeros(values.size, dtype=np.float64)
    line = cells._sums[1 if axis == "rows" else 2].limbs
    on = grid(cells.values)
    own = limb_sums(values, np.arange(values.size), values.size, on).limbs
    return to_float(line[(*at[:-1], index[at[-1]])] - own, on.base)
