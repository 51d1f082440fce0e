"""Counting rows into cells: the checks and the label coding behind Table's constructors.

`count_labels` turns two label columns (and optional weights) into the counts matrix
and its row and column labels: each column is coded by `informed.labels.code_column`
(a hash, or a categorical's own codes), then one `bincount` over combined codes counts
every cell, and only the small matrix is put in canonical label order; `check_counts`
and `check_label_list` validate counts and labels given directly. The Table class
(`informed.table.table`) turns their output into a frozen value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError, at_row
from informed.labels import (
    Coded,
    Label,
    as_label,
    as_vector,
    check_one_kind,
    code_column,
    label_key,
    label_kind,
    sort_labels,
)

__all__ = [
    "Counted",
    "check_counts",
    "check_label_list",
    "check_weights",
    "count_coded",
    "count_codes",
    "count_labels",
    "list_dtype",
]

INT64_MAX = np.iinfo(np.int64).max
# Cells a bincount may span before unused labels (an integer range's gaps) are dropped.
_CELL_LIMIT = 1 << 22


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
    a = code_column(actual, "actual")
    p = code_column(predicted, "predicted")
    if a.codes.shape[0] != p.codes.shape[0]:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {a.codes.shape[0]}, predicted {p.codes.shape[0]}."
        )
        raise InputError(msg)
    w = check_weights(weights, a.codes.shape[0])
    if labels is not None:
        universe = check_label_list(labels, "labels")
        return _count_fixed(a, p, w, universe)
    return count_coded(a, p, w, clusters)


def count_coded(
    a: Coded, p: Coded, w: NDArray[np.float64] | None = None, clusters: bool = False
) -> Counted:
    """Count coded columns (of equal length; weights checked): the core of `count_labels`."""
    if len(a.labels) * len(p.labels) > max(_CELL_LIMIT, 4 * a.codes.shape[0]):
        a, p = _occurring(a), _occurring(p)
    if not clusters:
        kinds_a = {label_kind(x) for x in a.labels}
        kinds_p = {label_kind(x) for x in p.labels}
        if kinds_a and kinds_p and kinds_a != kinds_p:
            first_a = min(a.labels, key=label_key)
            first_p = min(p.labels, key=label_key)
            msg = (
                "Labels in `actual` and `predicted` should be of the same kind: actual "
                f"holds {sorted(kinds_a)} such as {first_a!r}, predicted holds "
                f"{sorted(kinds_p)} such as {first_p!r}. Convert one side, or pass "
                "`clusters=True` if the predictions are cluster ids."
            )
            raise InputTypeError(msg)
    counts = count_codes(p.codes, len(p.labels), a.codes, len(a.labels), w)
    # canonical order, and only labels with a row: a permutation of the small matrix
    used_rows = counts.sum(axis=1) > 0
    used_cols = counts.sum(axis=0) > 0
    rows = [i for i in _canonical(p.labels) if used_rows[i]]
    cols = [j for j in _canonical(a.labels) if used_cols[j]]
    return Counted(
        np.ascontiguousarray(counts[np.ix_(rows, cols)]),
        tuple(p.labels[i] for i in rows),
        tuple(a.labels[j] for j in cols),
    )


def _canonical(labels: tuple[Label, ...]) -> list[int]:
    """Positions of `labels` in canonical order."""
    return sorted(range(len(labels)), key=lambda i: label_key(labels[i]))


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
        msg = f"`weights` must be finite and non-negative; got {w[row].item()!r} at {at_row(row)}."
        raise InputError(msg)
    return w


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
    a: Coded, p: Coded, w: NDArray[np.float64] | None, universe: tuple[Label, ...]
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
    return Counted(np.ascontiguousarray(counts), ordered, ordered)
