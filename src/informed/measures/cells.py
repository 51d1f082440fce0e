"""The cells of a table, dense or sparse, and the sums every measure reads from them.

A measure reads a table through its margins (how often each label is predicted and
occurs), its diagonal and, for the entropies, its non-zero cells. A table may come as a
dense array counts[..., K, C] or as `Cells`: the values of some of its cells (every
non-zero one) with their row and column, values[..., n], as a sparse table with many
labels holds them. `as_cells` reads both the same way, so a measure is written once.

Every sum over cells is taken one cell after another in row-major order (`scatter`, a
`numpy.bincount`). Adding a zero cell changes no bit of such a sum, so a table gives the
same value to the last bit whether its zero cells are stored (dense) or not (sparse).

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

__all__ = ["Cells", "Margins", "as_cells", "cell_sum", "gather", "margins", "scatter"]

Floats = NDArray[np.float64]
Index = NDArray[np.intp]


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
    """Cells of tables of shape (K, C): values[..., n] at (rows[n], cols[n]).

    Cells not listed are zero. The cells are in row-major order with no cell twice (as
    `as_cells` and a sparse Table give them); any leading axes of `values` are a batch of
    tables sharing the cells (bootstrap replicates). The margins are computed once and
    kept.
    """

    __slots__ = ("_margins", "cols", "rows", "shape", "values")

    def __init__(self, values: Any, rows: Any, cols: Any, shape: tuple[int, int]) -> None:
        self.values: Floats = np.asarray(values, dtype=np.float64)
        self.rows: Index = np.asarray(rows, dtype=np.intp)
        self.cols: Index = np.asarray(cols, dtype=np.intp)
        self.shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        self._margins: Margins | None = None
        if self.rows.shape != self.cols.shape or self.values.shape[-1:] != self.rows.shape:
            msg = (
                f"cells need values[..., n], rows[n] and cols[n]; got shapes "
                f"{self.values.shape}, {self.rows.shape} and {self.cols.shape}."
            )
            raise ValueError(msg)

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
        raise ValueError(msg)
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
    or Cells), each a sum over the cells in row-major order."""
    cells = as_cells(table)
    if cells._margins is None:
        K, C = cells.shape
        on = cells.rows == cells.cols
        diagonal = scatter(cells.values[..., on], cells.rows[on], min(K, C))
        rows = scatter(cells.values, cells.rows, K)
        cols = scatter(cells.values, cells.cols, C)
        total = cell_sum(cells, cells.values)
        cells._margins = Margins(diagonal, rows, cols, total)
    return cells._margins
