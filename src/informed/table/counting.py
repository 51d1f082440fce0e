"""Counting rows into cells: the checks and the label coding behind Table's constructors.

`count_labels` turns two label columns (and optional weights) into the counts matrix
and its row and column labels, by one `bincount` over combined codes; `check_counts`
and `check_label_list` validate counts and labels given directly. The Table class
(`informed.table.table`) turns their output into a frozen value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.labels import (
    Label,
    as_label,
    as_vector,
    check_one_kind,
    code_labels,
    label_kind,
    sort_labels,
)

__all__ = [
    "Counted",
    "check_counts",
    "check_label_list",
    "check_weights",
    "count_codes",
    "count_labels",
    "list_dtype",
]

INT64_MAX = np.iinfo(np.int64).max
# Integer labels spanning fewer values than this are counted by one bincount, no sort.
_DIRECT_CODE_LIMIT = 1 << 22


class Counted(NamedTuple):
    """Counts of predicted (rows) x actual (columns) with the labels of each axis."""

    counts: NDArray[Any]
    predicted: tuple[Label, ...]
    actual: tuple[Label, ...]


def count_labels(
    actual: Any,
    predicted: Any,
    weights: Any = None,
    labels: Sequence[Any] | None = None,
    clusters: bool = False,
) -> Counted:
    """Count predicted labels against actual classes (the work of `Table.from_labels`).

    Rows and columns are the labels seen on each side (rows never predicted and classes
    never seen are left out), or the whole `labels` universe on both axes when given.
    """
    a = as_vector(actual, "actual")
    p = as_vector(predicted, "predicted")
    if a.shape[0] != p.shape[0]:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {a.shape[0]}, predicted {p.shape[0]}."
        )
        raise InputError(msg)
    w = check_weights(weights, a.shape[0])
    if labels is not None:
        universe = check_label_list(labels, "labels")
        return _count_fixed(a, p, w, universe)
    direct = _direct_integer_codes(a, p)
    if direct is not None:
        a_codes, a_labels, p_codes, p_labels = direct
    else:
        a_labels, a_codes = code_labels(a, "actual")
        p_labels, p_codes = code_labels(p, "predicted")
    if not clusters:
        kinds_a = {label_kind(x) for x in a_labels}
        kinds_p = {label_kind(x) for x in p_labels}
        if kinds_a and kinds_p and kinds_a != kinds_p:
            msg = (
                "Labels in `actual` and `predicted` should be of the same kind: actual "
                f"holds {sorted(kinds_a)} such as {a_labels[0]!r}, predicted holds "
                f"{sorted(kinds_p)} such as {p_labels[0]!r}. Convert one side, or pass "
                "`clusters=True` if the predictions are cluster ids."
            )
            raise InputTypeError(msg)
    counts = count_codes(p_codes, len(p_labels), a_codes, len(a_labels), w)
    keep_rows = np.flatnonzero(counts.sum(axis=1) > 0)
    keep_cols = np.flatnonzero(counts.sum(axis=0) > 0)
    counts = counts[np.ix_(keep_rows, keep_cols)]
    return Counted(
        np.ascontiguousarray(counts),
        tuple(p_labels[i] for i in keep_rows),
        tuple(a_labels[j] for j in keep_cols),
    )


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
    out = tuple(as_label(x) for x in labels)
    check_one_kind(out, name)
    keyed = [(label_kind(x), x) for x in out]
    if len(set(keyed)) != len(keyed):
        seen: set[tuple[str, Label]] = set()
        dup = next(x for x in keyed if x in seen or seen.add(x))  # type: ignore[func-returns-value]
        msg = f"`{name}` must hold distinct labels; {dup[1]!r} appears twice."
        raise InputError(msg)
    return out


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
        msg = f"`weights` must be finite and non-negative; got {w[row]!r} at row {row}."
        raise InputError(msg)
    return w


def _direct_integer_codes(
    a: NDArray[Any], p: NDArray[Any]
) -> tuple[NDArray[np.int64], tuple[Label, ...], NDArray[np.int64], tuple[Label, ...]] | None:
    """Code small-range integer labels by offset, without a sort.

    Returns None when the labels are not integers or span too many values; the caller
    then codes them with `np.unique`.
    """
    if a.dtype.kind not in "iu" or p.dtype.kind not in "iu" or a.size == 0:
        return None
    a_lo, a_hi = int(a.min()), int(a.max())
    p_lo, p_hi = int(p.min()), int(p.max())
    if (a_hi - a_lo + 1) * (p_hi - p_lo + 1) > _DIRECT_CODE_LIMIT:
        return None
    # int64 before arithmetic: uint8 codes wrap at 16 x 17 (tm#1510)
    a_codes = a.astype(np.int64, copy=False)
    p_codes = p.astype(np.int64, copy=False)
    if a_lo:
        a_codes = a_codes - a_lo
    if p_lo:
        p_codes = p_codes - p_lo
    return (
        a_codes,
        tuple(range(a_lo, a_hi + 1)),
        p_codes,
        tuple(range(p_lo, p_hi + 1)),
    )


def count_codes(
    p_codes: NDArray[Any],
    n_rows: int,
    a_codes: NDArray[Any],
    n_cols: int,
    weights: NDArray[np.float64] | None,
) -> NDArray[Any]:
    """counts[row, col] by one bincount over combined codes (int64 or float64)."""
    if n_rows == 0 or n_cols == 0:
        return np.zeros((n_rows, n_cols), dtype=np.int64 if weights is None else np.float64)
    combined = p_codes.astype(np.int64, copy=False) * n_cols
    combined += a_codes
    flat = np.bincount(combined, weights=weights, minlength=n_rows * n_cols)
    counts = flat.reshape(n_rows, n_cols)
    return counts.astype(np.int64, copy=False) if weights is None else counts


def _count_fixed(
    a: NDArray[Any], p: NDArray[Any], w: NDArray[np.float64] | None, universe: tuple[Label, ...]
) -> Counted:
    """Count over a given label universe; any other value is an error naming its row."""
    ordered = sort_labels(universe)
    codes = []
    for values, name in ((a, "actual"), (p, "predicted")):
        seen, row_codes = code_labels(values, name)
        position = {(label_kind(x), x): i for i, x in enumerate(ordered)}
        mapped = np.array([position.get((label_kind(x), x), -1) for x in seen], dtype=np.int64)
        if (mapped < 0).any():
            missing = seen[int(np.flatnonzero(mapped < 0)[0])]
            row = int(np.flatnonzero(row_codes == int(np.flatnonzero(mapped < 0)[0]))[0])
            msg = (
                f"`{name}` holds {missing!r} at row {row}, which is not in `labels` "
                f"{list(ordered)}."
            )
            raise InputError(msg)
        codes.append(mapped[row_codes] if len(row_codes) else np.zeros(0, np.int64))
    counts = count_codes(codes[1], len(ordered), codes[0], len(ordered), w)
    return Counted(np.ascontiguousarray(counts), ordered, ordered)
