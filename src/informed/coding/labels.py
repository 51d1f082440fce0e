"""Labels: checking, coding and canonical ordering of class labels.

A label is a `str`, an `int`, a `float` or a `bool` (numpy scalars are turned into the Python
equivalent); a str label holds no NUL and no lone surrogate, and a missing value is refused
naming its row (`informed.coding.label_text`). Within one axis all labels are of one kind:
strings, numbers or booleans. Mixing kinds is an error rather than a silent conversion (scikit-
learn raises "Mix of label input types"; PyCM silently turned them into strings, pycm#240).

Labels are kept in a canonical order (numbers numerically, strings by code point), so a
Table built in chunks has the same row order as one built at once.

Coding a column of labels to small integers (`code_column`) hashes instead of sorting:
pyarrow's `dictionary_encode` when pyarrow is installed, exact 64-bit keys (or verified
hashes) with numpy otherwise. Categorical and dictionary columns (pandas, polars, Arrow)
keep their codes; only their categories are decoded. Every route gives the same labels
with the same values; a column with a bad value is coded again by the plain route, whose
message names the first bad row.
"""

from __future__ import annotations

import itertools
import math
import operator
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.coding.columns import (
    Categorical,
    arrow,
    arrow_column,
    arrow_numbers,
    as_numpy,
    categorical,
)
from informed.coding.hashing import code_integers, code_keys, code_strings
from informed.coding.label_text import (
    bad_text_message,
    check_texts,
    first_bad_text,
    is_missing,
    missing_message,
    text_problem,
)
from informed.errors import InputError, InputTypeError, at_row

__all__ = [
    "Coded",
    "Label",
    "as_label",
    "as_vector",
    "canonical_order",
    "code_column",
    "code_labels",
    "is_canonical",
    "keyed",
    "label_key",
    "label_kind",
    "label_kinds",
    "positions_in",
    "refuse_scores",
    "sort_labels",
]

Label = str | int | float | bool

_KINDS = {"bool": 0, "number": 1, "str": 2}


def as_label(value: Any) -> Label:
    """Return `value` as a plain Python label, or raise naming what was received."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            msg = f"{value!r} cannot be a label: {problem}."
            raise InputError(msg)
        return value
    if isinstance(value, bool):
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


def _plain(labels: Sequence[Label]) -> bool:
    """No bool and one kind (numbers, or strings): Python's own equality and order are
    then the canonical ones, and labels need no `keyed` (a fast path for many labels)."""
    types = set(map(type, labels))
    return types <= {int, float} or types == {str}


def sort_labels(labels: Iterable[Label]) -> tuple[Label, ...]:
    """The distinct labels in canonical order (True and 1 stay two labels)."""
    labels = list(labels)
    if _plain(labels):
        return tuple(sorted(dict.fromkeys(labels)))
    distinct: dict[tuple[str, Label], Label] = {}
    for label in labels:
        distinct.setdefault(keyed(label), label)
    return tuple(sorted(distinct.values(), key=label_key))


def canonical_order(labels: Sequence[Label]) -> list[int]:
    """Positions of `labels` (distinct) in canonical order."""
    if _plain(labels):
        return sorted(range(len(labels)), key=labels.__getitem__)
    return sorted(range(len(labels)), key=lambda i: label_key(labels[i]))


def is_canonical(labels: Sequence[Label]) -> bool:
    """Whether `labels` are distinct and in canonical order (one pass, no sort)."""
    if _plain(labels):
        return all(map(operator.lt, labels, itertools.islice(labels, 1, None)))
    keys = [label_key(x) for x in labels]
    return all(map(operator.lt, keys, itertools.islice(keys, 1, None)))


def label_kinds(labels: Sequence[Label]) -> set[str]:
    """The kinds of `labels` (one call of `label_kind` per Python type)."""
    return {label_kind(next(x for x in labels if type(x) is t)) for t in set(map(type, labels))}


def positions_in(labels: Sequence[Label], among: Sequence[Label]) -> NDArray[np.intp]:
    """Where each of `labels` is in `among`, which is in canonical order (as
    `sort_labels` gives it); every one of `labels` must be there; True is not 1."""
    types = set(map(type, labels)) | set(map(type, among))
    if types == {str} or types == {int}:  # numpy sorts these as Python does
        try:
            found = np.searchsorted(np.array(among), np.array(labels))
            return np.asarray(found, dtype=np.intp)
        except OverflowError:  # ints beyond int64: the dictionary below
            pass
    if _plain(among) and _plain(labels):
        at: dict[Any, int] = {x: i for i, x in enumerate(among)}
        return np.fromiter((at[x] for x in labels), dtype=np.intp, count=len(labels))
    where = {keyed(x): i for i, x in enumerate(among)}
    return np.fromiter((where[keyed(x)] for x in labels), dtype=np.intp, count=len(labels))


def check_one_kind(labels: Sequence[Label], name: str) -> str | None:
    """Raise if `labels` mix kinds; return the kind (None when empty)."""
    kinds = {label_kind(x) for x in labels}
    if len(kinds) > 1:
        missing = next((i for i, x in enumerate(labels) if is_missing(x)), None)
        if missing is not None:  # None is no number: say what it is
            raise InputError(missing_message(name, labels[missing], at_row(missing)))
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
        array = np.asarray(as_numpy(values))
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


class Coded(NamedTuple):
    """A column of labels as codes: row i holds `labels[codes[i]]`.

    `labels` are distinct (True and 1 are two labels) and in no particular order; each
    occurs in at least one row, except integer labels coded by offset, whose range may
    include values no row holds (counting drops them).
    """

    labels: tuple[Label, ...]
    codes: NDArray[np.integer[Any]]


def code_column(values: Any, name: str, at: Callable[[int], str] = at_row) -> Coded:
    """Code any column of labels: list, numpy array, pandas, polars or Arrow data.

    Raises naming the first bad row (NaN, None, unsupported value) and refuses a column
    mixing label kinds, whichever route the column takes.
    """
    found = categorical(values)
    if found is not None:
        coded = _code_categorical(found, values, name)
    else:
        column = arrow_column(values)
        if column is not None:
            coded = _code_arrow(column, values, name)
        else:
            coded = code_array(as_vector(as_numpy(values), name), name)
    check_texts(coded.labels, coded.codes, name, at)
    return coded


def code_labels(values: NDArray[Any], name: str) -> tuple[tuple[Label, ...], NDArray[np.intp]]:
    """Code a 1-D array of labels: (sorted distinct labels that occur, code of each row)."""
    coded = code_array(values, name)
    check_texts(coded.labels, coded.codes, name)
    labels, codes = coded
    occurs = np.bincount(codes, minlength=len(labels)) > 0 if len(labels) else np.zeros(0, bool)
    order = [i for i in sorted(range(len(labels)), key=lambda i: label_key(labels[i])) if occurs[i]]
    position = np.zeros(len(labels), dtype=np.intp)
    position[order] = np.arange(len(order))
    return tuple(labels[i] for i in order), position[codes] if len(codes) else np.zeros(0, np.intp)


def code_array(values: NDArray[Any], name: str) -> Coded:
    """Code a 1-D numpy array of labels (see `code_column`)."""
    kind = values.dtype.kind
    if kind == "b":
        return Coded((False, True), values.view(np.uint8))
    if kind in "iu":
        return Coded(*code_integers(values))
    if kind == "f":
        bad = ~np.isfinite(values)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            value = values[row].item()
            if math.isnan(value):
                raise InputError(missing_message(name, value, at_row(row)))
            msg = f"`{name}` holds {value!r} at {at_row(row)}; labels must be finite."
            raise InputError(msg)
        keys = np.add(values, 0.0, dtype=np.float64).view(np.uint64)  # -0.0 is 0.0
        distinct, codes = code_keys(keys)
        return Coded(tuple(distinct.view(np.float64).tolist()), codes)
    if kind == "U":
        return Coded(*code_strings(values))
    if kind != "O":
        msg = f"`{name}` has unsupported dtype {values.dtype}."
        raise InputTypeError(msg)
    return _code_objects(values, name)


def _code_objects(values: NDArray[Any], name: str) -> Coded:
    """Code an object array: strings by hash; anything else value by value.

    pyarrow's hash is the quicker, but `pa.array` imports pandas when it is installed
    (0.2-0.5 s): it is used once pandas is loaded anyway (a pandas column), and plain str
    (the standard CSV reader's) are coded by a dictionary otherwise.
    """
    pa = arrow()
    if pa is not None and "pandas" not in sys.modules:
        pa = None  # the same labels and codes, in the order they first come, either way
    if pa is not None and values.size:
        try:
            column = pa.array(values, from_pandas=False)
        except (pa.ArrowException, OverflowError, TypeError, ValueError):
            column = None
        if column is not None and (
            pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
        ):
            if column.null_count:  # None: the first bad row, as the loop below would say
                row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
                _label_at(values[row], row, name)
            return _code_arrow_strings(pa, column)
    items = values.tolist()
    if pa is None and set(map(type, items)) == {str}:
        # all plain str: one dict lookup per row, no per-row kind check
        words: dict[str, int] = {}
        found = [words.setdefault(item, len(words)) for item in items]
        return Coded(tuple(words), np.array(found, dtype=np.intp))
    # keyed by (kind, label): True == 1 in Python, but they are different labels here
    mapping: dict[tuple[str, Label], int] = {}
    codes = np.empty(values.size, dtype=np.intp)
    for row, value in enumerate(items):
        label = _label_at(value, row, name)
        codes[row] = mapping.setdefault((label_kind(label), label), len(mapping))
    first_seen = tuple(label for _, label in mapping)
    check_one_kind(first_seen, name)
    return Coded(first_seen, codes)


def _label_at(value: Any, row: int, name: str) -> Label:
    if is_missing(value):
        raise InputError(missing_message(name, value, at_row(row)))
    if isinstance(value, str) and text_problem(value) is not None:
        raise InputError(bad_text_message(name, value, at_row(row)))
    try:
        return as_label(value)
    except (InputError, InputTypeError) as exc:
        msg = f"`{name}` holds {value!r} at {at_row(row)}: {exc}"
        raise type(exc)(msg) from None


def _code_arrow_strings(pa: Any, column: Any) -> Coded:
    """Hash-code an Arrow string Array or ChunkedArray (chunks share one dictionary)."""
    encoded = column.dictionary_encode()
    if not isinstance(encoded, pa.ChunkedArray):
        return Coded(tuple(encoded.dictionary.to_pylist()), arrow_numbers(encoded.indices))
    if not encoded.num_chunks:
        return Coded((), np.zeros(0, np.intp))
    labels = tuple(encoded.chunk(0).dictionary.to_pylist())
    return Coded(labels, np.concatenate([arrow_numbers(c.indices) for c in encoded.chunks]))


def _code_arrow(column: Any, original: Any, name: str) -> Coded:
    """Code an Arrow Array or ChunkedArray; nulls and odd types take the plain route."""
    pa = arrow()
    kind = column.type
    plain = pa.types.is_dictionary(kind) or any(
        check(kind)
        for check in (
            pa.types.is_string,
            pa.types.is_large_string,
            getattr(pa.types, "is_string_view", pa.types.is_string),
            pa.types.is_integer,
            pa.types.is_floating,
            pa.types.is_boolean,
        )
    )
    if column.null_count or not plain:
        # the route the column took before Arrow input was read natively, with its messages
        return code_array(as_vector(np.asarray(original), name), name)
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind):
        return code_array(np.asarray(column), name)
    if not pa.types.is_dictionary(kind):
        return _code_arrow_strings(pa, column)
    if isinstance(column, pa.ChunkedArray):
        chunks = column.unify_dictionaries().chunks
        if not chunks:
            return Coded((), np.zeros(0, np.intp))
        codes = np.concatenate([arrow_numbers(c.indices) for c in chunks])
        dictionary = chunks[0].dictionary
    else:
        codes, dictionary = arrow_numbers(column.indices), column.dictionary
    words = dictionary.type
    if (pa.types.is_string(words) or pa.types.is_large_string(words)) and not (
        dictionary.null_count
    ):
        return _code_string_dictionary(pa, codes, dictionary)
    return _code_dictionary(Categorical(codes, arrow_numbers(dictionary)), original, name)


def _code_string_dictionary(pa: Any, codes: NDArray[Any], dictionary: Any) -> Coded:
    """Code a dictionary column of Arrow strings by hashing its dictionary, not its rows;
    the labels are the words that occur, each once (a dictionary may repeat a word)."""
    words = _code_arrow_strings(pa, dictionary)
    if len(words.labels) == len(dictionary) and first_bad_text(words.labels) is None:
        return Coded(words.labels, codes)  # distinct words: the codes are the codes
    occurs = np.flatnonzero(np.bincount(codes, minlength=len(dictionary)))
    used = np.unique(words.codes[occurs])
    position = np.zeros(len(words.labels), dtype=np.intp)
    position[used] = np.arange(used.size)
    return Coded(tuple(words.labels[i] for i in used.tolist()), position[words.codes][codes])


def _code_categorical(found: Categorical, original: Any, name: str) -> Coded:
    if found.codes.size and int(found.codes.min()) < 0:  # a missing value
        return code_array(as_vector(np.asarray(original), name), name)
    return _code_dictionary(found, original, name)


def _code_dictionary(found: Categorical, original: Any, name: str) -> Coded:
    """Reuse a dictionary column's codes; decode only the categories that occur."""
    categories = found.categories
    try:  # all categories at once: when they are distinct labels, the codes are the codes
        every = code_array(as_vector(categories, name), name)
    except (InputError, InputTypeError):
        every = None
    if every is not None and np.array_equal(every.codes, np.arange(len(categories))):
        return Coded(every.labels, found.codes)
    codes = found.codes.astype(np.intp, copy=False)
    occurs = np.flatnonzero(np.bincount(codes, minlength=len(categories)))
    try:
        used = code_array(as_vector(categories[occurs], name), name)
    except (InputError, InputTypeError):
        return code_array(as_vector(np.asarray(original), name), name)
    remap = np.zeros(len(categories), dtype=np.intp)
    remap[occurs] = used.codes
    return Coded(used.labels, remap[codes])


def _fraction(label: Label, text: bool) -> bool:
    """A number with a fraction (0.25), or with `text` a str that reads as one ("0.25")."""
    if isinstance(label, float):
        return not label.is_integer()
    if not (text and isinstance(label, str)) or not any(c in label for c in ".eE"):
        return False  # text without a point or an exponent reads as no fraction
    try:
        value = float(label)
    except ValueError:
        return False
    return math.isfinite(value) and not value.is_integer()


def refuse_scores(
    coded: Coded,
    name: str,
    at: Callable[[int], str] = at_row,
    text: bool = False,
    call: str = "Ranking.from_scores(actual, scores=..., positive=...)",
) -> None:
    """Refuse a column of a Table's labels holding a number with a fraction (0.1, 0.9):
    scores or probabilities given as labels, each distinct value of which would be counted
    as a label. scikit-learn refuses them too (`type_of_target` calls such a column
    "continuous"); whole numbers (1.0, 2.0) are labels. With `text`, text that reads as
    such a number is refused too: a CSV file's labels, which hold no type, are text.
    `call` is the call that takes them as scores.
    """
    types = set(map(type, coded.labels))
    if float not in types and not (text and str in types):
        return  # no label can be a fraction: one pass over the types
    bad = [i for i, label in enumerate(coded.labels) if _fraction(label, text)]
    if not bad:
        return
    flagged = np.zeros(len(coded.labels), dtype=bool)
    flagged[bad] = True
    rows = np.flatnonzero(flagged[coded.codes])
    if not rows.size:  # labels no row holds (an integer range's gaps) are never fractions
        return
    row = int(rows[0])
    value = coded.labels[int(coded.codes[row])]
    way = "write them as text that is no number" if text else "pass them as text ('0.5')"
    msg = (
        f"`{name}` holds {value!r} at {at(row)}, a number with a fraction: these look like "
        "scores (probabilities), not labels, and each distinct value would be counted as a "
        f"label. Rank scores with {call} (on the command line: --score COLUMN --positive "
        "LABEL), or predict labels first (e.g. scores >= 0.5); classes whose labels are "
        f"fractions: {way}."
    )
    raise InputError(msg)
