"""Counting rows into cells: the checks and the label coding behind Table's constructors.

`count_labels` turns two label columns (and optional weights) into the counts and its
row and column labels: each column is coded by `informed.coding.labels.code_column` (a hash,
or a categorical's own codes), then one `bincount` over combined codes counts every cell
of a table of up to `_CELL_LIMIT` cells; a larger one (thousands of labels on each
side) is counted by sorting the combined codes, so that only its non-zero cells are ever
held. Only the counted cells are put in canonical label order, and the storage is
chosen as `informed.table.storage.choose` says; `check_counts` and `check_label_list`
validate counts and labels given directly. The Table class
(`informed.table.table`) turns their output into a frozen value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.coding.label_text import first_bad_text, text_problem
from informed.coding.labels import (
    Coded,
    Label,
    as_label,
    as_vector,
    canonical_order,
    check_one_kind,
    code_column,
    label_key,
    label_kind,
    label_kinds,
    refuse_scores,
    sort_labels,
)
from informed.errors import InputError, InputTypeError, at_row
from informed.table.storage import Stored, choose, from_cells, from_dense

__all__ = [
    "Counted",
    "arrange_counts",
    "check_axis_texts",
    "check_counts",
    "check_label_list",
    "check_weights",
    "count_coded",
    "count_codes",
    "count_labels",
    "count_matrix",
    "list_dtype",
]

INT64_MAX = np.iinfo(np.int64).max
# Cells a bincount may span before unused labels (an integer range's gaps) are dropped.
_CELL_LIMIT = 1 << 22


class Counted(NamedTuple):
    """Counts of predicted (rows) x actual (columns) with the labels of each axis."""

    counts: Stored
    predicted: tuple[Label, ...]
    actual: tuple[Label, ...]


def count_labels(
    actual: Any,
    predicted: Any,
    weights: Any = None,
    labels: Sequence[Any] | None = None,
    clusters: bool = False,
    storage: str = "auto",
) -> Counted:
    """Count predicted labels against actual classes (the work of `Table.from_labels`).

    Rows and columns are the labels seen on each side (rows never predicted and classes
    never seen are left out; a label seen only in rows of weight 0 is kept, with zero
    weight), or the whole `labels` universe on both axes when given.
    """
    a = code_column(actual, "actual")
    p = code_column(predicted, "predicted")
    refuse_scores(a, "actual")
    refuse_scores(p, "predicted")
    if a.codes.shape[0] != p.codes.shape[0]:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {a.codes.shape[0]}, predicted {p.codes.shape[0]}."
        )
        raise InputError(msg)
    w = check_weights(weights, a.codes.shape[0])
    if labels is not None:
        universe = check_label_list(labels, "labels")
        return _count_fixed(a, p, w, universe, storage)
    return count_coded(a, p, w, clusters, storage)


def count_coded(
    a: Coded,
    p: Coded,
    w: NDArray[np.float64] | None = None,
    clusters: bool = False,
    storage: str = "auto",
) -> Counted:
    """Count coded columns (of equal length; weights checked): the core of `count_labels`."""
    if len(a.labels) * len(p.labels) > max(_CELL_LIMIT, 4 * a.codes.shape[0]):
        a, p = _occurring(a), _occurring(p)
    if not clusters:
        check_same_kind(
            a.labels, p.labels, "or pass `clusters=True` if the predictions are cluster ids"
        )
    choose((len(p.labels), len(a.labels)), 0, storage)  # a bad `storage` before any work
    counts = count_codes(p.codes, len(p.labels), a.codes, len(a.labels), w)
    return arrange_counts(counts, a, p, w, storage)


def arrange_counts(
    counts: Stored,
    a: Coded,
    p: Coded,
    w: NDArray[np.float64] | None = None,
    storage: str = "auto",
) -> Counted:
    """counts[p code, a code] of coded columns in canonical label order, with only the
    labels that have a row (a label whose rows all weigh 0 is kept, with zero weight)."""
    # canonical order, and only labels with a row: a permutation of the counted cells
    if w is None:
        used_rows, used_cols = counts.row_sums() > 0, counts.col_sums() > 0
    else:  # a label whose rows all weigh 0 is still a label of the table, with zero weight
        used_rows = np.bincount(p.codes, minlength=len(p.labels)) > 0
        used_cols = np.bincount(a.codes, minlength=len(a.labels)) > 0
    rows = [i for i in _canonical(p.labels) if used_rows[i]]
    cols = [j for j in _canonical(a.labels) if used_cols[j]]
    return Counted(
        _reordered(counts, rows, cols, storage),
        tuple(p.labels[i] for i in rows),
        tuple(a.labels[j] for j in cols),
    )


def check_same_kind(actual: Sequence[Label], predicted: Sequence[Label], way_out: str) -> None:
    """Refuse actual and predicted labels of different kinds (strings against numbers),
    naming an example of each; `way_out` ends the message ("Convert one side, ...")."""
    kinds_a, kinds_p = label_kinds(actual), label_kinds(predicted)
    if kinds_a and kinds_p and kinds_a != kinds_p:
        msg = (
            "Labels in `actual` and `predicted` should be of the same kind: actual "
            f"holds {sorted(kinds_a)} such as {min(actual, key=label_key)!r}, predicted "
            f"holds {sorted(kinds_p)} such as {min(predicted, key=label_key)!r}. Convert "
            f"one side{', ' + way_out if way_out else ''}."
        )
        raise InputTypeError(msg)


def _reordered(counts: Stored, rows: list[int], cols: list[int], storage: str) -> Stored:
    """The counts with row rows[k] moved to k and column cols[k] to k (the others are
    empty and dropped), stored as `storage` says."""
    if counts.dense is not None and storage != "sparse":
        small = np.ascontiguousarray(counts.dense[np.ix_(rows, cols)])
        if storage == "dense" or choose(small.shape, int(np.count_nonzero(small))) == "dense":
            return from_dense(small)
    new_row = np.full(counts.shape[0], -1, dtype=np.intp)
    new_row[rows] = np.arange(len(rows))
    new_col = np.full(counts.shape[1], -1, dtype=np.intp)
    new_col[cols] = np.arange(len(cols))
    r, c, v = counts.nonzero()
    return from_cells(new_row[r], new_col[c], v, (len(rows), len(cols)), counts.dtype, storage)


def _canonical(labels: tuple[Label, ...]) -> list[int]:
    """Positions of `labels` in canonical order."""
    return canonical_order(labels)


def _occurring(coded: Coded) -> Coded:
    """The same column with the labels no row holds dropped (codes renumbered)."""
    present = np.flatnonzero(np.bincount(coded.codes, minlength=len(coded.labels)))
    if present.size == len(coded.labels):
        return coded
    renumber = np.zeros(len(coded.labels), dtype=np.intp)
    renumber[present] = np.arange(present.size)
    return Coded(tuple(coded.labels[i] for i in present), renumber[coded.codes])


def check_counts(counts: NDArray[Any], weighted: bool | None) -> NDArray[Any]:
    """Validate a 2-D counts matrix; return it as int64 or float64."""
    if counts.ndim != 2:
        msg = f"`counts` must be two-dimensional; got shape {counts.shape}."
        raise InputError(msg)
    if counts.dtype.kind == "b":
        msg = "`counts` is boolean; pass integer counts or float weights."
        raise InputTypeError(msg)
    if counts.dtype.kind == "O":
        values = counts.ravel().tolist()
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            too_big = [v for v in values if abs(v) > INT64_MAX]
            if too_big:
                msg = (
                    f"`counts` holds {too_big[0]}, beyond int64; pass float weights "
                    "(`weighted=True`) for counts this large."
                )
                raise InputError(msg)
            counts = counts.astype(np.int64)
        else:
            try:
                counts = counts.astype(np.float64)
            except (TypeError, ValueError):
                msg = "`counts` must be numeric."
                raise InputTypeError(msg) from None
    if counts.dtype.kind not in "iuf":
        msg = f"`counts` must be numeric; got dtype {counts.dtype}."
        raise InputTypeError(msg)
    if counts.dtype.kind == "f":
        bad = ~np.isfinite(counts)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            msg = f"`counts` must be finite; got {counts[where]!r} at {where}."
            raise InputError(msg)
        integral = bool(np.all(counts == np.round(counts)))
        if weighted is False and not integral:
            where = tuple(int(i) for i in np.argwhere(counts != np.round(counts))[0])
            msg = (
                f"`counts` holds the non-integer {counts[where]!r} at {where} but "
                "`weighted=False`; pass `weighted=True` for weights."
            )
            raise InputError(msg)
        counts = counts.astype(np.int64) if weighted is False else counts.astype(np.float64)
    else:
        if counts.dtype.kind == "u" and counts.size and int(counts.max()) > INT64_MAX:
            msg = "`counts` exceeds int64; pass float weights (`weighted=True`)."
            raise InputError(msg)
        counts = counts.astype(np.float64) if weighted else counts.astype(np.int64)
    if counts.size and counts.min() < 0:
        where = tuple(int(i) for i in np.argwhere(counts < 0)[0])
        msg = (
            f"`counts` must be non-negative; got {counts[where]!r} at {where}. "
            "Pass weights through `weights=`, not as negative counts."
        )
        raise InputError(msg)
    if counts.dtype.kind == "i" and counts.size:
        total = sum(int(x) for x in counts.sum(axis=1, dtype=object))
        if total > INT64_MAX:
            msg = f"the total count {total} exceeds int64; pass float weights."
            raise InputError(msg)
    return counts


def check_label_list(labels: Sequence[Any], name: str) -> tuple[Label, ...]:
    if isinstance(labels, str | bytes | set | frozenset):
        msg = f"`{name}` must be a list or tuple of labels; got {type(labels).__name__}."
        raise InputTypeError(msg)
    out = tuple(_listed_label(x, i, name) for i, x in enumerate(labels))
    check_one_kind(out, name)
    keyed = [(label_kind(x), x) for x in out]
    if len(set(keyed)) != len(keyed):
        seen: set[tuple[str, Label]] = set()
        dup = next(x for x in keyed if x in seen or seen.add(x))  # type: ignore[func-returns-value]
        msg = f"`{name}` must hold distinct labels; {dup[1]!r} appears twice."
        raise InputError(msg)
    return out


def check_axis_texts(predicted: Sequence[Label], actual: Sequence[Label]) -> None:
    """Refuse a Table's label that JSON could not give back (`text_problem`), however the
    Table is made: the constructors check their input rows first, this the labels."""
    for name, labels in (("predicted", predicted), ("actual", actual)):
        bad = first_bad_text(labels)
        if bad is not None:
            label = str(labels[bad])
            msg = f"`{name}`, label {bad + 1}: {label!r} cannot be a label: {text_problem(label)}."
            raise InputError(msg)


def _listed_label(value: Any, position: int, name: str) -> Label:
    try:
        return as_label(value)
    except (InputError, InputTypeError) as exc:
        raise type(exc)(f"`{name}`, label {position + 1}: {exc}") from None


def list_dtype(counts: list[Any]) -> Any:
    """Let numpy infer, but keep Python ints beyond int64 as objects to report them."""
    flat: list[Any] = []
    stack: list[Any] = [counts]
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(item)
        else:
            flat.append(item)
    if any(isinstance(x, int) and not isinstance(x, bool) and abs(x) > INT64_MAX for x in flat):
        return object
    return None


def check_weights(weights: Any, n: int) -> NDArray[np.float64] | None:
    if weights is None:
        return None
    w = as_vector(weights, "weights", labels=False)
    if w.shape[0] != n:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"{n} labels, {w.shape[0]} weights."
        )
        raise InputError(msg)
    if w.dtype.kind not in "iuf":
        msg = f"`weights` must be numeric; got dtype {w.dtype}."
        raise InputTypeError(msg)
    w = w.astype(np.float64)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        msg = f"`weights` must be finite and non-negative; got {w[row].item()!r} at {at_row(row)}."
        raise InputError(msg)
    return w


def count_codes(
    p_codes: NDArray[Any],
    n_rows: int,
    a_codes: NDArray[Any],
    n_cols: int,
    weights: NDArray[np.float64] | None,
) -> Stored:
    """counts[row, col] (int64 or float64) by one bincount over combined codes, or, for a
    table of more than `_CELL_LIMIT` cells, by sorting them (only non-zero cells held)."""
    dtype = np.dtype(np.int64 if weights is None else np.float64)
    if n_rows == 0 or n_cols == 0:
        return from_dense(np.zeros((n_rows, n_cols), dtype=dtype))
    combined = p_codes.astype(np.int64, copy=True)
    combined *= n_cols
    combined += a_codes
    if n_rows * n_cols <= _CELL_LIMIT:
        flat = np.bincount(combined, weights=weights, minlength=n_rows * n_cols)
        return from_dense(flat.reshape(n_rows, n_cols).astype(dtype, copy=False))
    if weights is None:
        keys, counts = np.unique(combined, return_counts=True)
        values: NDArray[Any] = counts.astype(np.int64)
    else:
        keys, inverse = np.unique(combined, return_inverse=True)
        values = np.bincount(inverse.reshape(-1), weights=weights, minlength=keys.size)
    rows, cols = np.divmod(keys, n_cols)
    return from_cells(rows, cols, values, (n_rows, n_cols), dtype, "sparse")


def _count_fixed(
    a: Coded,
    p: Coded,
    w: NDArray[np.float64] | None,
    universe: tuple[Label, ...],
    storage: str = "auto",
) -> Counted:
    """Count over a given label universe; any other value is an error naming its row."""
    ordered = sort_labels(universe)
    position = {(label_kind(x), x): i for i, x in enumerate(ordered)}
    codes = []
    for coded, name in ((a, "actual"), (p, "predicted")):
        mapped = np.array(
            [position.get((label_kind(x), x), -1) for x in coded.labels], dtype=np.int64
        )
        row_codes = mapped[coded.codes] if len(coded.codes) else np.zeros(0, np.int64)
        outside = np.flatnonzero(row_codes < 0)
        if outside.size:
            row = int(outside[0])
            missing = coded.labels[int(coded.codes[row])]
            msg = (
                f"`{name}` holds {missing!r} at {at_row(row)}, which is not in `labels` "
                f"{list(ordered)}."
            )
            raise InputError(msg)
        codes.append(row_codes)
    counts = count_codes(codes[1], len(ordered), codes[0], len(ordered), w)
    every = list(range(len(ordered)))
    return Counted(_reordered(counts, every, every, storage), ordered, ordered)


# ---------------------------------------------------------------------- matrices
def count_matrix(
    counts: Any,
    rows: str,
    labels: Sequence[Any] | None,
    predicted: Sequence[Any] | None,
    actual: Sequence[Any] | None,
    weighted: bool | None,
    storage: str,
) -> Counted:
    """A matrix of counts (array-like or scipy.sparse) with its labels in canonical order:
    the work of `Table.from_counts`. A sparse matrix's stored cells alone are read."""
    choose((0, 0), 0, storage)  # a bad `storage` before any work
    if hasattr(counts, "tocoo") and hasattr(counts, "nnz"):
        coo = counts.tocoo()
        if len(coo.shape) != 2:
            msg = f"`counts` must be two-dimensional; got shape {coo.shape}."
            raise InputError(msg)
        values = check_counts(np.asarray(coo.data).reshape(1, -1), weighted)[0]
        r, c = np.asarray(coo.row, dtype=np.intp), np.asarray(coo.col, dtype=np.intp)
        K, C = (int(x) for x in coo.shape)
        dtype = values.dtype
    else:
        array = check_counts(
            np.array(counts, dtype=None if not isinstance(counts, list) else list_dtype(counts)),
            weighted,
        )
        K, C = array.shape
        r, c = (a.astype(np.intp) for a in np.nonzero(array))
        values, dtype = array[r, c], array.dtype
    if rows == "actual":
        r, c, K, C = c, r, C, K
    row_labels, col_labels = _axis_labels((K, C), labels, predicted, actual)
    row_order = canonical_order(row_labels)
    col_order = canonical_order(col_labels)
    new_row = np.argsort(np.asarray(row_order, dtype=np.intp)).astype(np.intp)
    new_col = np.argsort(np.asarray(col_order, dtype=np.intp)).astype(np.intp)
    return Counted(
        from_cells(new_row[r], new_col[c], values, (K, C), dtype, storage),
        tuple(row_labels[i] for i in row_order),
        tuple(col_labels[j] for j in col_order),
    )


def _axis_labels(
    shape: tuple[int, int],
    labels: Sequence[Any] | None,
    predicted: Sequence[Any] | None,
    actual: Sequence[Any] | None,
) -> tuple[tuple[Label, ...], tuple[Label, ...]]:
    """The checked labels of each axis of a K x C matrix (`count_matrix`)."""
    K, C = shape
    if labels is not None:
        if predicted is not None or actual is not None:
            msg = "pass either `labels` or `predicted`/`actual`, not both."
            raise InputError(msg)
        if K != C:
            msg = (
                f"`labels` names both axes of a square table, but `counts` is {K}x{C} "
                "(predicted x actual); pass `predicted=` and `actual=` instead."
            )
            raise InputError(msg)
        predicted = actual = labels
    row_labels = (
        check_label_list(predicted, "predicted") if predicted is not None else tuple(range(K))
    )
    col_labels = check_label_list(actual, "actual") if actual is not None else tuple(range(C))
    if len(row_labels) != K or len(col_labels) != C:
        msg = (
            f"`counts` is {K}x{C} (predicted x actual) but {len(row_labels)} predicted and "
            f"{len(col_labels)} actual labels were given."
        )
        raise InputError(msg)
    return row_labels, col_labels
