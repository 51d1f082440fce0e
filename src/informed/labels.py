"""Labels: checking, coding and canonical ordering of class labels.

A label is a `str`, an `int`, a `float` or a `bool` (numpy scalars are turned into the
Python equivalent). Within one axis all labels are of one kind: strings, numbers or
booleans. Mixing kinds is an error rather than a silent conversion (scikit-learn raises
"Mix of label input types"; PyCM silently turned them into strings, pycm#240).

Labels are kept in a canonical order (numbers numerically, strings by code point), so a
Table built in chunks has the same row order as one built at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError

__all__ = [
    "Label",
    "as_label",
    "as_vector",
    "code_labels",
    "keyed",
    "label_key",
    "label_kind",
    "sort_labels",
]

Label = str | int | float | bool

_KINDS = {"bool": 0, "number": 1, "str": 2}


def as_label(value: Any) -> Label:
    """Return `value` as a plain Python label, or raise naming what was received."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            msg = f"a label must be finite; got {value!r}."
            raise InputError(msg)
        return value
    msg = (
        f"a label must be a str, int, float or bool; got {value!r} of type {type(value).__name__}."
    )
    raise InputTypeError(msg)


def label_kind(label: Label) -> str:
    """The kind of a label: ``"bool"``, ``"number"`` or ``"str"``."""
    if isinstance(label, bool):
        return "bool"
    if isinstance(label, str):
        return "str"
    return "number"


def label_key(label: Label) -> tuple[int, Any]:
    """The canonical sort key of a label: booleans, then numbers, then strings."""
    return (_KINDS[label_kind(label)], label)


def keyed(label: Label) -> tuple[str, Label]:
    """A label with its kind, for sets and dicts: True == 1 in Python, not here."""
    return (label_kind(label), label)


def sort_labels(labels: Iterable[Label]) -> tuple[Label, ...]:
    """The distinct labels in canonical order (True and 1 stay two labels)."""
    distinct: dict[tuple[str, Label], Label] = {}
    for label in labels:
        distinct.setdefault(keyed(label), label)
    return tuple(sorted(distinct.values(), key=label_key))


def check_one_kind(labels: Sequence[Label], name: str) -> str | None:
    """Raise if `labels` mix kinds; return the kind (None when empty)."""
    kinds = {label_kind(x) for x in labels}
    if len(kinds) > 1:
        examples = {k: next(x for x in labels if label_kind(x) == k) for k in sorted(kinds)}
        msg = (
            f"`{name}` mixes label kinds {sorted(kinds)} (for example "
            + ", ".join(f"{v!r}" for v in examples.values())
            + "); convert them to one kind first, e.g. all to str."
        )
        raise InputTypeError(msg)
    return kinds.pop() if kinds else None


def as_vector(values: Any, name: str, *, labels: bool = True) -> NDArray[Any]:
    """Turn list / array / Series input into a 1-D numpy array, or raise.

    A column vector of shape (n, 1) is squeezed; a row vector (1, n), a single value and
    any higher dimension are errors; a bare string, a set or a dict is refused. With
    `labels`, a list is kept as Python objects so that mixed kinds can be caught
    (`check_one_kind`): numpy would turn ["a", 1] into strings and [True, 1] into ints.
    """
    if isinstance(values, str | bytes):
        msg = (
            f"`{name}` must be an array-like (list or 1-D array); got the bare string "
            f"{values!r}. Wrap a single value in a list."
        )
        raise InputTypeError(msg)
    if isinstance(values, set | frozenset | Mapping):
        msg = (
            f"`{name}` must be an ordered array-like (list, 1-D array, Series); got a "
            f"{type(values).__name__}, whose order is not the rows' order."
        )
        raise InputTypeError(msg)
    if labels and isinstance(values, list | tuple):
        try:
            array = np.asarray(values, dtype=object)
        except ValueError:
            msg = f"`{name}` is ragged: its rows have different lengths."
            raise InputError(msg) from None
    else:
        array = np.asarray(values)
    if array.ndim == 0:
        msg = (
            f"`{name}` must be an array-like (list or 1-D array); got "
            f"{type(values).__name__} {values!r}."
        )
        raise InputTypeError(msg)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        hint = (
            " (a row vector: pass `values[0]` or `np.ravel(values)`)"
            if array.ndim == 2 and array.shape[0] == 1
            else ""
        )
        msg = (
            f"`{name}` must be one-dimensional (or a column of shape (n, 1)); "
            f"got shape {array.shape}{hint}."
        )
        raise InputError(msg)
    if array.dtype.kind in "SV":
        msg = f"`{name}` holds {array.dtype} values; decode bytes to str first."
        raise InputTypeError(msg)
    return array


def _first_bad(mask: NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(mask)[0])


def code_labels(values: NDArray[Any], name: str) -> tuple[tuple[Label, ...], NDArray[np.intp]]:
    """Code a 1-D array of labels: (sorted distinct labels, code of each row).

    Raises with the row number for NaN, infinite, None or unsupported values.
    """
    kind = values.dtype.kind
    if kind == "f":
        bad = ~np.isfinite(values)
        if bad.any():
            row = _first_bad(bad)
            msg = f"`{name}` holds {values[row]!r} at row {row}; labels must be finite."
            raise InputError(msg)
    if kind in "biufU":
        uniques, codes = np.unique(values, return_inverse=True)
        labels = tuple(as_label(x) for x in uniques)
        return labels, codes.reshape(-1).astype(np.intp, copy=False)
    if kind != "O":
        msg = f"`{name}` has unsupported dtype {values.dtype}."
        raise InputTypeError(msg)
    # keyed by (kind, label): True == 1 in Python, but they are different labels here
    mapping: dict[tuple[str, Label], int] = {}
    codes_list: list[int] = []
    for row, value in enumerate(values.tolist()):
        try:
            label = as_label(value)
        except (InputError, InputTypeError) as exc:
            msg = f"`{name}` holds {value!r} at row {row}: {exc}"
            raise type(exc)(msg) from None
        codes_list.append(mapping.setdefault((label_kind(label), label), len(mapping)))
    first_seen = [label for _, label in mapping]
    check_one_kind(first_seen, name)
    ordered = sort_labels(first_seen)
    position = {label: i for i, label in enumerate(ordered)}
    remap = np.array([position[label] for label in first_seen], dtype=np.intp)
    codes = remap[np.asarray(codes_list, dtype=np.intp)] if codes_list else np.zeros(0, np.intp)
    return ordered, codes
