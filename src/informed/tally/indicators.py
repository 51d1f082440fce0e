"""Indicator matrices of a Tally: many documents at once, summed per column, vectorised.

`Tally.add_results` takes two 0/1 matrices, documents by categories, one of the assigned
and one of the correct categories; `indicator_sums` reduces them to the column sums from
which each category's a, b, c, d follow, dense or sparse, in bounded memory.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError

__all__ = [
    "as_indicator",
    "canonical_indicator",
    "column_sums",
    "dense_rows",
    "indicator_sums",
    "stored_per_column",
]


def _issparse(value: Any) -> bool:
    """Whether `value` is a scipy sparse matrix or array. Without scipy.sparse loaded, no
    value can be one, so nothing is imported to find out (`informed tally` starts faster)."""
    module = sys.modules.get("scipy.sparse")
    return module is not None and bool(module.issparse(value))


def _sparse() -> Any:
    import scipy.sparse

    return scipy.sparse


Ints = NDArray[np.int64]
# Column sums of a boolean matrix: rows are folded into blocks of about this many cells,
# so that numpy adds long contiguous vectors instead of one short row at a time.
_BLOCK_CELLS: Final = 4096
_UINT16_ROWS: Final = 65535
# Indicator matrices are read in blocks of rows of about this many cells (bounded memory).
_CHUNK_CELLS: Final = 1 << 22
# A sparse pair with fewer than one stored entry per this many cells is counted entry by
# entry; denser ones are expanded block by block, which is faster then.
_SPARSE_CELLS: Final = 16


def indicator_sums(assigned: Any, correct: Any) -> tuple[int, Ints, Ints, Ints]:
    """Column sums of two 0/1 indicator matrices: (n, sum A*C, sum A, sum C) per column.

    With A = `assigned`, C = `correct`, both (n, m): a_j = sum_i A_ij C_ij,
    |+P|_j = sum_i A_ij, |+R|_j = sum_i C_ij, from which b = |+P| - a, c = |+R| - a and
    d = n - a - b - c. No loop over documents: dense input is read in blocks of rows and
    summed by `column_sums`; sparse input is expanded block by block the same way when it
    holds at least one stored entry per `_SPARSE_CELLS` cells, otherwise its stored
    entries are counted per column (the cost then grows with the entries, not n x m).

    Parameters
    ----------
    assigned, correct : array_like or scipy.sparse, shape (n, m)
        Entries 0 and 1 only (bool, integer or float dtype); dense and sparse may be mixed.
        Sparse duplicates are summed first, as scipy does (two 1s make a 2: refused).

    Returns
    -------
    (int, ndarray, ndarray, ndarray)
        n and three int64 vectors of length m.

    Raises
    ------
    InputError
        Different shapes, or an entry other than 0 and 1 (named by row and column).
    InputTypeError
        Not a two-dimensional numeric or boolean matrix.

    References
    ----------
    Statistics::Contingency 0.09 (Williams): the per-document rule of ``add_result``, summed.

    >>> n, both, pp, pr = indicator_sums([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    >>> n, both.tolist(), pp.tolist(), pr.tolist()
    (2, [1, 1], [2, 1], [1, 2])
    """
    left = as_indicator(assigned, "assigned")
    right = as_indicator(correct, "correct")
    if left.shape != right.shape:
        msg = (
            f"`assigned` has shape {left.shape} but `correct` has shape {right.shape}; "
            "both are (documents, categories)."
        )
        raise InputError(msg)
    n, m = (int(x) for x in left.shape)
    if _issparse(left) and _issparse(right):
        stored = int(left.nnz) + int(right.nnz)
        if n * m > _SPARSE_CELLS * stored:
            left = canonical_indicator(left, "assigned")
            right = canonical_indicator(right, "correct")
            return (
                n,
                stored_per_column(left.multiply(right), m),
                stored_per_column(left, m),
                stored_per_column(right, m),
            )
    both, predicted, actual = (np.zeros(m, dtype=np.int64) for _ in range(3))
    step = max(1, _CHUNK_CELLS // max(m, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        block_a = dense_rows(left, start, stop, "assigned")
        block_c = dense_rows(right, start, stop, "correct")
        both += column_sums(block_a & block_c)
        predicted += column_sums(block_a)
        actual += column_sums(block_c)
    return n, both, predicted, actual


def as_indicator(given: Any, name: str) -> Any:
    """A two-dimensional numeric or boolean ndarray, or a CSR array; values unchecked."""
    if _issparse(given):
        if len(given.shape) != 2:
            msg = f"`{name}` must be two-dimensional; got shape {given.shape}."
            raise InputError(msg)
        if given.dtype.kind not in "biuf":
            msg = f"`{name}` has dtype {given.dtype}; indicator matrices are boolean or numeric."
            raise InputTypeError(msg)
        return _sparse().csr_array(given)  # shares the caller's arrays; never written to
    if isinstance(given, str | bytes | Mapping | set | frozenset):
        msg = (
            f"`{name}` must be an indicator matrix (documents x categories); "
            f"got {type(given).__name__}."
        )
        raise InputTypeError(msg)
    try:
        array = np.asarray(given)
    except ValueError:
        msg = (
            f"`{name}` is ragged; add_results takes 0/1 indicator matrices. For lists of "
            "category names, call add_result once per document."
        )
        raise InputTypeError(msg) from None
    if array.dtype.kind not in "biuf":
        msg = (
            f"`{name}` has dtype {array.dtype}; add_results takes 0/1 indicator matrices. "
            "For lists of category names, call add_result once per document."
        )
        raise InputTypeError(msg)
    if array.ndim != 2:
        msg = f"`{name}` must be two-dimensional (documents x categories); got shape {array.shape}."
        raise InputError(msg)
    return array


def dense_rows(matrix: Any, start: int, stop: int, name: str) -> NDArray[np.bool_]:
    """Rows start:stop of an indicator matrix as a C-contiguous bool array, values checked."""
    sparse = _issparse(matrix)
    if sparse:
        # rows of a CSR matrix as views (scipy's row slicing copies through a slow path)
        lo, hi = int(matrix.indptr[start]), int(matrix.indptr[stop])
        rows = _sparse().csr_array(
            (matrix.data[lo:hi], matrix.indices[lo:hi], matrix.indptr[start : stop + 1] - lo),
            shape=(stop - start, matrix.shape[1]),
        )
        block = rows.toarray()
    else:
        block = matrix[start:stop]
    kind = block.dtype.kind
    if kind == "b":
        return np.ascontiguousarray(block)
    if kind == "f":
        bad = ~((block == 0) | (block == 1))
    elif block.size and (block.min() < 0 or block.max() > 1):
        bad = (block < 0) | (block > 1)
    else:
        bad = None
    if bad is not None and bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        value = block[row, col].item()
        note = " (sparse duplicates are summed)" if sparse else ""
        msg = (
            f"`{name}`[{start + row}, {col}] is {value!r}{note}; indicator matrices hold only "
            "0 and 1 (or False and True)."
        )
        raise InputError(msg)
    return np.ascontiguousarray(block != 0)


def canonical_indicator(matrix: Any, name: str) -> Any:
    """A CSR indicator with sorted, distinct entries, all stored values 1 (int8); checked.

    Duplicates are summed first (on a copy: the caller's arrays are never written to).
    """
    if not matrix.has_canonical_format:
        matrix = matrix.copy()
        matrix.sum_duplicates()
    data = matrix.data
    bad = ~((data == 0) | (data == 1))
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        row = int(np.searchsorted(matrix.indptr, position, side="right") - 1)
        msg = (
            f"`{name}`[{row}, {int(matrix.indices[position])}] is {data[position].item()!r} "
            "(sparse duplicates are summed); indicator matrices hold only 0 and 1."
        )
        raise InputError(msg)
    keep = data != 0
    if keep.all():
        indices, indptr = matrix.indices, matrix.indptr
    else:  # drop stored zeros; a row's new start is the number of entries kept before it
        indices = matrix.indices[keep]
        indptr = np.concatenate([[0], np.cumsum(keep)])[matrix.indptr]
    return _sparse().csr_array(
        (np.ones(indices.size, dtype=np.int8), indices, indptr), shape=matrix.shape
    )


def stored_per_column(matrix: Any, m: int) -> Ints:
    """The number of non-zero stored entries in each column of a CSR matrix."""
    csr = _sparse().csr_array(matrix)
    return np.bincount(csr.indices[csr.data != 0], minlength=m).astype(np.int64)


def column_sums(matrix: NDArray[np.bool_]) -> Ints:
    """Column sums of a C-contiguous boolean matrix, exactly, as int64.

    Rows are folded into blocks of about `_BLOCK_CELLS` cells and summed with uint16
    accumulators (exact: at most 65535 rows per chunk), so each numpy step adds long
    contiguous vectors; summing a narrow (n, 20) matrix row by row is about 8x slower.
    """
    n, m = matrix.shape
    total = np.zeros(m, dtype=np.int64)
    if n == 0 or m == 0:
        return total
    cells = matrix.view(np.uint8)
    block = max(1, _BLOCK_CELLS // m)
    full = (n // block) * block
    chunk = block * _UINT16_ROWS
    for start in range(0, full, chunk):
        stop = min(start + chunk, full)
        folded = cells[start:stop].reshape(-1, block * m).sum(axis=0, dtype=np.uint16)
        total += folded.reshape(block, m).sum(axis=0, dtype=np.int64)
    total += cells[full:].sum(axis=0, dtype=np.int64)
    return total
