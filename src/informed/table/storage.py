"""How a Table holds its counts: a dense K x C matrix, or only its non-zero cells.

A classifier with tens of thousands of classes fills few of its K x C cells: 20,000
classes make a dense table of 3 GB whose non-zero cells fit in a few hundred kB. A table
is stored sparsely (`Stored.kind == "sparse"`: the non-zero cells in row-major order, no
cell twice, no zero) when it has more than `DENSE_ALWAYS` cells of which fewer than one
in `SPARSE_DENSITY` is non-zero (`choose`); otherwise densely. Both forms give the same
counts, margins and totals, and every measure reads them the same way
(`informed.measures.Cells`).

A dense matrix is only made after its size is checked against the memory there is
(`informed._common.check_memory`): too large a table is an error that names its sizes
and the way out, never a crash.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import check_float_total, check_memory, readonly
from informed.coding.labels import (
    Label,
    canonical_order,
    is_canonical,
    keyed,
    label_kinds,
    positions_in,
    sort_labels,
)
from informed.errors import InputError, InputTypeError, MemoryLimitError

__all__ = [
    "DENSE_ALWAYS",
    "DENSE_VIEW",
    "SPARSE_DENSITY",
    "STORAGES",
    "Stored",
    "as_stored",
    "canonical",
    "choose",
    "from_cells",
    "from_dense",
    "merged",
]

Storage = Literal["auto", "dense", "sparse"]
STORAGES = ("auto", "dense", "sparse")
DENSE_ALWAYS = 1 << 16
"""A table of at most this many cells (256 x 256) is always stored densely."""
SPARSE_DENSITY = 4
"""Above `DENSE_ALWAYS` cells, a table with fewer than one cell in this many non-zero is
stored sparsely."""
DENSE_VIEW = 1 << 24
"""The most cells (128 MiB of counts) a sparse table turns into a dense `Table.counts`."""

Index = NDArray[np.intp]


def choose(shape: tuple[int, int], nonzero: int, storage: str = "auto") -> str:
    """The storage of a table of `shape` with `nonzero` non-zero cells: "dense" or
    "sparse" as asked, or by size and density for "auto".

    >>> choose((10, 10), 3), choose((20_000, 20_000), 20_000), choose((300, 300), 80_000)
    ('dense', 'sparse', 'dense')
    """
    if storage not in STORAGES:
        msg = f"`storage` must be one of {list(STORAGES)}; got {storage!r}."
        raise InputError(msg)
    if storage != "auto":
        return storage
    cells = shape[0] * shape[1]
    return "sparse" if cells > DENSE_ALWAYS and SPARSE_DENSITY * nonzero < cells else "dense"


class Stored:
    """The counts of a K x C table, dense or sparse; read-only.

    Dense: `dense` is the (K, C) matrix. Sparse: `rows`, `cols` and `values` list the
    non-zero cells in row-major order.
    """

    __slots__ = ("_dense_view", "cols", "dense", "dtype", "kind", "rows", "shape", "values")

    def __init__(
        self,
        shape: tuple[int, int],
        dtype: np.dtype[Any],
        dense: NDArray[Any] | None = None,
        cells: tuple[Index, Index, NDArray[Any]] | None = None,
    ) -> None:
        self.shape = (int(shape[0]), int(shape[1]))
        self.dtype = np.dtype(dtype)
        self.kind = "dense" if dense is not None else "sparse"
        self.dense = readonly(dense) if dense is not None else None
        self._dense_view: NDArray[Any] | None = None
        if cells is None:
            cells = (np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0, self.dtype))
        self.rows, self.cols, self.values = (readonly(a) for a in cells)
        _check_total(self.dense if self.dense is not None else self.values)

    @property
    def nonzero_count(self) -> int:
        """How many cells are not zero."""
        if self.dense is not None:
            return int(np.count_nonzero(self.dense))
        return int(self.values.size)

    def nonzero(self) -> tuple[Index, Index, NDArray[Any]]:
        """(rows, cols, values) of the non-zero cells in row-major order, read-only."""
        if self.dense is None:
            return self.rows, self.cols, self.values
        rows, cols = np.nonzero(self.dense)
        values = self.dense[rows, cols]
        return (
            readonly(rows.astype(np.intp)),
            readonly(cols.astype(np.intp)),
            readonly(np.ascontiguousarray(values)),
        )

    def total(self) -> int | float:
        """N: an exact int for counts, the correctly rounded sum for weights (so that a
        dense and a sparse table of the same weights agree to the last bit)."""
        values = self.dense if self.dense is not None else self.values
        if self.dtype.kind == "i":
            return int(values.sum(dtype=np.int64))
        return math.fsum(np.ravel(values).tolist()) if values.size else 0.0

    def row_sums(self) -> NDArray[Any]:
        """Counts per row (int64 or float64)."""
        if self.dense is not None:
            sums: NDArray[Any] = self.dense.sum(axis=1)
            return sums
        return _bincount(self.rows, self.values, self.shape[0])

    def col_sums(self) -> NDArray[Any]:
        """Counts per column (int64 or float64)."""
        if self.dense is not None:
            sums: NDArray[Any] = self.dense.sum(axis=0)
            return sums
        return _bincount(self.cols, self.values, self.shape[1])

    def value(self, i: int, j: int) -> Any:
        """The count of cell (i, j)."""
        if self.dense is not None:
            return self.dense[i, j]
        start, stop = np.searchsorted(self.rows, [i, i + 1])
        k = start + int(np.searchsorted(self.cols[start:stop], j))
        return self.values[k] if k < stop and self.cols[k] == j else self.dtype.type(0)

    def block(self, rows: Any, cols: Any) -> NDArray[Any]:
        """The dense block of `rows` x `cols` (positions), a small matrix for display."""
        rows = np.asarray(rows, dtype=np.intp)
        cols = np.asarray(cols, dtype=np.intp)
        if self.dense is not None:
            return np.ascontiguousarray(self.dense[np.ix_(rows, cols)])
        out = np.zeros((rows.size, cols.size), dtype=self.dtype)
        where_row = np.full(self.shape[0], -1, dtype=np.intp)
        where_row[rows] = np.arange(rows.size)
        where_col = np.full(self.shape[1], -1, dtype=np.intp)
        where_col[cols] = np.arange(cols.size)
        r, c = where_row[self.rows], where_col[self.cols]
        keep = (r >= 0) & (c >= 0)
        out[r[keep], c[keep]] = self.values[keep]
        return out

    def line_sum(self, index: int, axis: int) -> Any:
        """The sum of row `index` (axis=1) or column `index` (axis=0)."""
        if self.dense is not None:
            return self.dense[index].sum() if axis == 1 else self.dense[:, index].sum()
        if axis == 1:
            start, stop = np.searchsorted(self.rows, [index, index + 1])
            return self.values[start:stop].sum()
        return self.values[self.cols == index].sum()

    def placed(self, rows: Index, cols: Index, size: int) -> NDArray[Any]:
        """A dense (size, size) matrix holding row i at rows[i] and column j at cols[j]
        (checked against the memory there is)."""
        out = dense_zeros((size, size), self.dtype, "the square table")
        if self.dense is not None:
            if self.dense.size:
                out[np.ix_(rows, cols)] = self.dense
        else:
            out[rows[self.rows], cols[self.cols]] = self.values
        return out

    def placed_cells(self, rows: Index, cols: Index, size: int) -> tuple[Index, Index, Any]:
        """The non-zero cells moved to rows[i], cols[j] of a (size, size) table, in
        row-major order there."""
        r, c, values = self.nonzero()
        r, c = rows[r], cols[c]
        keys = r.astype(np.int64) * max(size, 1) + c
        if keys.size > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            order = np.argsort(keys, kind="stable")
            r, c, values = r[order], c[order], values[order]
        return r, c, values

    def transpose(self) -> Stored:
        """The transposed counts, in the same storage."""
        if self.dense is not None:
            return from_dense(self.dense.T.copy())
        return from_cells(self.cols, self.rows, self.values, self.shape[::-1], self.dtype)

    def to_dense(self, what: str = "the dense counts") -> NDArray[Any]:
        """The (K, C) matrix; for a sparse table made after checking that it fits."""
        if self.dense is not None:
            return self.dense
        if self._dense_view is None:
            out = dense_zeros(self.shape, self.dtype, what)
            out[self.rows, self.cols] = self.values
            self._dense_view = readonly(out)
        return self._dense_view

    def dense_view(self) -> NDArray[Any]:
        """`Table.counts`: the dense matrix, made for a sparse table of up to `DENSE_VIEW`
        cells; beyond, an error pointing to the non-zero cells."""
        K, C = self.shape
        if self.dense is None and K * C > DENSE_VIEW:
            msg = (
                f"this table of {K:,} predicted x {C:,} actual labels is stored sparsely "
                f"({self.nonzero_count:,} non-zero cells) and its dense counts would have "
                f"{K * C:,} cells; read `table.cells` (the non-zero cells) or "
                "`table.sparse_counts` (a scipy.sparse matrix) instead, or "
                "`table.to_dense()` if it fits in memory."
            )
            raise MemoryLimitError(msg)
        return self.to_dense("the dense counts of this sparse table")

    def stored_as(self, kind: str) -> Stored:
        """The same counts, stored densely or sparsely."""
        if kind == self.kind:
            return self
        if kind == "dense":
            return from_dense(self.to_dense("a dense table").copy())
        rows, cols, values = self.nonzero()
        return Stored(self.shape, self.dtype, cells=(rows, cols, values))

    def nbytes(self) -> int:
        """Bytes held."""
        if self.dense is not None:
            return int(self.dense.nbytes)
        return int(self.rows.nbytes + self.cols.nbytes + self.values.nbytes)


INT64_MAX = (1 << 63) - 1


def _check_total(values: NDArray[Any]) -> None:
    """Refuse counts whose total an int64 cannot hold (it would wrap to a negative N) and
    weights whose total is more than the largest float (it would be inf), each with one
    error naming the way out."""
    if values.size == 0:
        return
    if values.dtype.kind == "f":
        check_float_total(values)
        return
    flat = np.ravel(values)
    if int(flat.max()) <= INT64_MAX // flat.size:
        return  # no sum of these counts can pass 2^63 - 1
    # exactly, in two int64 halves that cannot overflow (fewer than 2^31 cells)
    total = (int(np.sum(flat >> 32)) << 32) + int(np.sum(flat & 0xFFFFFFFF))
    if total > INT64_MAX:
        msg = (
            f"the counts sum to {total:,}, more than an int64 holds (2^63 - 1); "
            "pass them as float weights (weighted=True)."
        )
        raise InputError(msg)


def _bincount(index: Index, values: NDArray[Any], size: int) -> NDArray[Any]:
    """Sums of `values` by `index`: exact int64 for counts (a float sum is exact below
    2^53; beyond, the slower exact route)."""
    if values.dtype.kind != "i":
        return np.bincount(index, weights=values, minlength=size)
    if values.size and int(values.sum(dtype=np.int64)) >= 1 << 53:
        out = np.zeros(size, dtype=np.int64)
        np.add.at(out, index, values)
        return out
    return np.bincount(index, weights=values, minlength=size).astype(np.int64)


def dense_zeros(shape: tuple[int, int], dtype: Any, what: str) -> NDArray[Any]:
    """np.zeros(shape) after checking that it fits in memory; a MemoryLimitError naming
    the sizes and the way out otherwise."""
    K, C = shape
    nbytes = K * C * np.dtype(dtype).itemsize
    way_out = (
        "keep the table sparse (storage='sparse', or --storage sparse on the command line; "
        "the default for tables this size) and read its non-zero cells with `table.cells`"
    )
    what = f"{what} of {K:,} x {C:,} labels"
    check_memory(nbytes, what, way_out)
    try:
        return np.zeros(shape, dtype=dtype)
    except MemoryError:
        msg = f"{what} does not fit in memory; {way_out}."
        raise MemoryLimitError(msg) from None


def as_stored(counts: Any) -> Stored:
    """`counts` as they are (a Stored), or a dense int64 or float64 (K, C) matrix."""
    if isinstance(counts, Stored):
        return counts
    array = np.asarray(counts)
    if array.dtype not in (np.dtype(np.int64), np.dtype(np.float64)):
        msg = f"`counts` must be int64 or float64; got {array.dtype}."
        raise InputTypeError(msg)
    if array.ndim != 2:
        msg = f"`counts` must be two-dimensional; got shape {array.shape}."
        raise InputError(msg)
    return from_dense(array)


def from_dense(counts: NDArray[Any]) -> Stored:
    """A dense Stored of a checked (K, C) int64 or float64 matrix."""
    counts = counts if not counts.flags.writeable else counts.copy()
    return Stored(counts.shape, counts.dtype, dense=counts)


def from_cells(
    rows: Any, cols: Any, values: Any, shape: tuple[int, int], dtype: Any, kind: str = "sparse"
) -> Stored:
    """Counts from cells (any order; a cell given twice is summed; zeros are dropped),
    stored as `kind` ("dense", "sparse", or "auto" by `choose`)."""
    K, C = int(shape[0]), int(shape[1])
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    values = np.asarray(values, dtype=dtype)
    keys = rows * C + cols if C else rows
    if keys.size > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        order = np.argsort(keys, kind="stable")
        keys, values = keys[order], values[order]
        first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        if first.size < keys.size:
            values = np.add.reduceat(values, first)
            keys = keys[first]
    keep = values != 0
    if not keep.all():
        keys, values = keys[keep], values[keep]
    kind = choose((K, C), int(keys.size), kind)
    r, c = np.divmod(keys, C) if C else (keys, keys)
    if kind == "dense":
        out = dense_zeros((K, C), dtype, "a dense table")
        out[r, c] = values
        return from_dense(out)
    return Stored(
        (K, C),
        np.dtype(dtype),
        cells=(r.astype(np.intp), c.astype(np.intp), np.ascontiguousarray(values)),
    )


def merged(
    first: tuple[Stored, tuple[Label, ...], tuple[Label, ...]],
    second: tuple[Stored, tuple[Label, ...], tuple[Label, ...]],
) -> tuple[Stored, tuple[Label, ...], tuple[Label, ...]]:
    """The sum of two tables (counts, predicted, actual) over the union of their labels.

    Stored sparsely when both are, else as "auto" chooses; labels of two kinds on one
    axis are refused."""
    for axis, mine, theirs in (
        ("predicted", first[1], second[1]),
        ("actual", first[2], second[2]),
    ):
        if mine and theirs:
            kinds = label_kinds(mine) | label_kinds(theirs)
            if len(kinds) > 1:
                msg = (
                    f"cannot merge tables whose {axis} labels are of different kinds: "
                    f"{sorted(kinds)}."
                )
                raise InputTypeError(msg)
    rows = sort_labels((*first[1], *second[1]))
    cols = sort_labels((*first[2], *second[2]))
    weighted = first[0].dtype.kind == "f" or second[0].dtype.kind == "f"
    dtype = np.dtype(np.float64 if weighted else np.int64)
    if not weighted and int(first[0].total()) + int(second[0].total()) > INT64_MAX:
        msg = (
            f"the merged table would count {int(first[0].total()) + int(second[0].total()):,}"
            " cases, more than an int64 holds (2^63 - 1); merge tables of float weights."
        )
        raise InputError(msg)
    places = [
        (stored, positions_in(predicted, rows), positions_in(actual, cols))
        for stored, predicted, actual in (first, second)
    ]
    if first[0].kind == second[0].kind == "dense" and len(rows) * len(cols) <= DENSE_VIEW:
        out = np.zeros((len(rows), len(cols)), dtype=dtype)
        for stored, r_at, c_at in places:
            if stored.dense is not None and stored.dense.size:
                with np.errstate(over="ignore"):  # an inf sum is refused as the table is made
                    out[np.ix_(r_at, c_at)] += stored.dense.astype(dtype)
        if choose(out.shape, int(np.count_nonzero(out))) == "dense":
            return from_dense(out), rows, cols
    parts = []
    for stored, r_at, c_at in places:
        r, c, v = stored.nonzero()
        parts.append((r_at[r], c_at[c], v.astype(dtype)))
    kind = "sparse" if first[0].kind == second[0].kind == "sparse" else "auto"
    stored = from_cells(
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        (len(rows), len(cols)),
        dtype,
        kind,
    )
    return stored, rows, cols


def canonical(
    stored: Stored, predicted: tuple[Label, ...], actual: tuple[Label, ...]
) -> tuple[Stored, tuple[Label, ...], tuple[Label, ...]]:
    """The counts with each axis's labels in canonical order, its rows and columns moved
    with them, in the same storage: one order for every Table, whatever built it (a 2x2
    table cut from a Ranking lists its positive class first, and `==`, `counts` and
    `payoff` would otherwise read two orders). A label twice on one axis is refused."""
    orders: list[list[int] | None] = []
    for name, labels in (("predicted", predicted), ("actual", actual)):
        if is_canonical(labels):
            orders.append(None)
            continue
        order = canonical_order(labels)
        for before, after in itertools.pairwise(order):
            if keyed(labels[before]) == keyed(labels[after]):
                msg = (
                    f"`{name}` holds the label {labels[after]!r} twice; the labels of an "
                    "axis are distinct."
                )
                raise InputError(msg)
        orders.append(order)
    rows, cols = orders
    if rows is None and cols is None:
        return stored, predicted, actual
    K, C = stored.shape
    row_order = np.arange(K, dtype=np.intp) if rows is None else np.asarray(rows, np.intp)
    col_order = np.arange(C, dtype=np.intp) if cols is None else np.asarray(cols, np.intp)
    moved_predicted = tuple(predicted[i] for i in row_order.tolist())
    moved_actual = tuple(actual[j] for j in col_order.tolist())
    if stored.dense is not None:
        dense = np.ascontiguousarray(stored.dense[np.ix_(row_order, col_order)])
        return from_dense(dense), moved_predicted, moved_actual
    new_row = np.empty(K, dtype=np.intp)
    new_row[row_order] = np.arange(K)
    new_col = np.empty(C, dtype=np.intp)
    new_col[col_order] = np.arange(C)
    r, c, values = stored.nonzero()
    moved = from_cells(new_row[r], new_col[c], values, (K, C), stored.dtype, "sparse")
    return moved, moved_predicted, moved_actual
