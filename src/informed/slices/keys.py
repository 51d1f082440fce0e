"""Slice keys: one or more columns coded, crossed, and put in canonical order.

A slice key is the value of the `by` columns in a row: one value for one column, a tuple
for several (crossed). A missing value (None, NaN, a pandas or Arrow null) is a value of
its own, `MISSING`, shown as "missing": its rows form a slice, never dropped and never
an error. Keys are ordered column by column in the labels' canonical order
(`informed.coding.labels.sort_labels`), the missing value last, so that slices built in chunks
line up with those built at once.

A slice's name (`key_name`) is what a report shows and what `--reference` is given, so
no two slices share one: the missing value is the bare word ``missing``, a number or a
boolean is written as Python writes it, and text is written as it is unless that could
be read as something else, when it is written as a JSON string, in double quotes
(`value_name`): the text "missing", text beginning with a double quote, empty text,
text with whitespace at either end or with a character a terminal would not show as
written (a control character), in a crossed name text holding ", ", and every text of a
column that also holds numbers or booleans (a field of a JSON-lines file may), where 1
and "1" would otherwise read alike.

>>> coded = code_keys([["b", "a", None, "a"]], ["group"])
>>> coded.keys, coded.codes.tolist()
((('a',), ('b',), (None,)), [1, 0, 2, 0])
>>> key_name(("a", None), ("sex", "device"))
'sex=a, device=missing'
>>> key_names([(None,), ("missing",)], ["group"])
['missing', '"missing"']
>>> key_name(("x, b=y", "z"), ("a", "b")), key_name(("x", "y, b=z"), ("a", "b"))
('a="x, b=y", b=z', 'a=x, b="y, b=z"')
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import printable
from informed.coding.columns import arrow, arrow_column, arrow_numbers, categorical, numpy_arrow
from informed.coding.labels import Label, as_label, as_vector, code_column, keyed, label_key
from informed.errors import InputError

__all__ = [
    "MISSING",
    "CodedKeys",
    "Key",
    "KeyCoded",
    "Value",
    "arrow_codes",
    "canonical_codes",
    "code_keys",
    "column_names",
    "key_name",
    "key_names",
    "key_order",
    "keyed_key",
    "merged_keys",
    "numeric_order",
    "quoted_columns",
    "value_name",
]

MISSING = None
"""The value of a slice key where the row's value is missing (shown as "missing")."""

Value = Label | None
Key = tuple[Value, ...]


# Crossed keys spanning at most this many combinations are found by a bincount.
_LOOKUP_LIMIT = 1 << 24


@dataclass(frozen=True)
class CodedKeys:
    """A `by` column already coded (time windows): row i holds `values[codes[i]]`, or is
    missing where its code is -1. `values` are distinct, in canonical order."""

    values: tuple[Label, ...]
    codes: NDArray[np.intp]

    def __len__(self) -> int:
        return int(self.codes.shape[0])


class KeyCoded(NamedTuple):
    """Rows coded by slice: row i is in slice `keys[codes[i]]`; keys in canonical order,
    each held by at least one row."""

    keys: tuple[Key, ...]
    codes: NDArray[np.intp]


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float | np.floating):
        return math.isnan(value)
    # pandas.NA, pandas.NaT, numpy's NaT: no import of pandas needed to know them
    return type(value).__name__ in ("NAType", "NaTType") or (
        isinstance(value, np.datetime64 | np.timedelta64) and np.isnat(value)
    )


_missing_each = np.frompyfunc(_is_missing, 1, 1)


def _column(values: Any, name: str) -> tuple[Any, NDArray[np.bool_]]:
    """The column with its missing rows, as a form `code_column` codes once they are out."""
    found = categorical(values)
    if found is not None:
        return values, found.codes < 0
    column = arrow_column(values)
    if column is not None:
        pa = arrow()
        if getattr(pa.types, "is_string_view", lambda _: False)(column.type):
            column = column.cast(pa.large_string())  # polars' strings: `take` has no kernel
        # through the buffers: `np.asarray` of an Arrow array imports pandas (0.5 s)
        missing = (
            arrow_numbers(pa.compute.is_null(column))
            if column.null_count
            else np.zeros(len(column), dtype=bool)  # no pass over the rows to find none
        )
        if pa.types.is_floating(column.type):  # NaN is missing, as in a numpy column
            missing = missing | arrow_numbers(pa.compute.is_nan(column).fill_null(False))
        return column, missing
    array = as_vector(values, name)
    if array.dtype.kind == "f":
        return array, np.isnan(array)
    if array.dtype.kind == "O":
        return array, np.asarray(_missing_each(array), dtype=bool)
    if array.dtype.kind in "Mm":
        return array, np.isnat(array)
    return array, np.zeros(array.shape[0], dtype=bool)


def _code_one(values: Any, name: str) -> tuple[tuple[Value, ...], NDArray[np.intp]]:
    """One column: (its values in canonical order, missing last; each row's position)."""
    if isinstance(values, CodedKeys):
        missing = values.codes < 0
        if not missing.any():
            return tuple(values.values), values.codes
        codes = np.where(missing, len(values.values), values.codes)
        return (*values.values, MISSING), codes
    column, missing = _column(values, name)
    any_missing = bool(missing.any())
    found = categorical(column)
    if found is not None:
        labels: tuple[Label, ...] = tuple(as_label(x) for x in found.categories)
        codes = np.asarray(found.codes, dtype=np.intp)
    else:
        present = column
        if any_missing:
            keep = np.flatnonzero(~missing)
            if isinstance(column, np.ndarray):
                present = column[keep]
            else:  # an Arrow column takes Arrow indices: numpy ones would import pandas
                present = column.take(numpy_arrow(keep))
        coded = code_column(present, name)
        labels, codes = coded.labels, coded.codes  # cast to intp once, by the remap below
        if any_missing:
            full = np.empty(missing.shape[0], dtype=np.intp)
            full[~missing] = codes
            codes = full
        if not isinstance(column, np.ndarray) and codes.size:
            return _arrow_canonical(labels, codes, missing if any_missing else None)
    present_codes = codes[~missing] if any_missing else codes
    occurs = np.bincount(present_codes, minlength=len(labels)) > 0
    order = sorted((i for i in range(len(labels)) if occurs[i]), key=lambda i: label_key(labels[i]))
    values_out: tuple[Value, ...] = tuple(labels[i] for i in order)
    if not any_missing and order == list(range(len(labels))):
        return values_out, np.asarray(codes, dtype=np.intp)  # canonical, every value used
    position = np.zeros(len(labels) + 1, dtype=np.intp)
    position[order] = np.arange(len(order))
    if any_missing:
        position[len(labels)] = len(order)
        codes = np.where(missing, len(labels), codes)
        values_out = (*values_out, MISSING)
    return values_out, position[codes] if codes.size else np.zeros(0, np.intp)


def _arrow_canonical(
    labels: tuple[Label, ...], codes: NDArray[np.integer[Any]], missing: NDArray[np.bool_] | None
) -> tuple[tuple[Value, ...], NDArray[np.intp]]:
    """`_code_one` of an Arrow column's codes: every label put in canonical order by
    Arrow's take (numpy's gather casts the Arrow codes to intp first, at 3x the time),
    the labels that occur counted from its intp result, and those that do not (rare)
    dropped by a gather of intp codes: the values and codes `_code_one` gives."""
    order = sorted(range(len(labels)), key=lambda i: label_key(labels[i]))
    position = np.empty(len(labels) + 1, dtype=np.intp)
    position[order] = np.arange(len(order))
    position[len(labels)] = len(labels)  # missing: last
    if missing is not None:
        codes = np.where(missing, len(labels), codes)
    taken = arrow_numbers(arrow().compute.take(numpy_arrow(position), numpy_arrow(codes)))
    occurs = np.bincount(taken, minlength=len(labels) + 1)[: len(labels)] > 0
    values_out: tuple[Value, ...] = tuple(labels[i] for i in order if occurs[position[i]])
    if missing is not None:
        values_out = (*values_out, MISSING)
    if occurs.all():
        return values_out, taken
    used = np.flatnonzero(occurs)
    compress = np.full(len(labels) + 1, used.size, dtype=np.intp)  # missing: after them
    compress[used] = np.arange(used.size)
    return values_out, compress[taken]


def arrow_codes(values: Any, name: str) -> tuple[tuple[Label, ...], NDArray[Any]] | None:
    """One `by` column of Arrow labels (strings, or a dictionary of them, as a Parquet
    file's are read) with no missing value: its labels as coded and each row's code
    into them, as `code_keys` codes it before it puts them in canonical order; the rows
    can be counted by these codes and the counts put in that order after
    (`canonical_codes`), not every row's code. None for any other column."""
    if isinstance(values, CodedKeys) or categorical(values) is not None:
        return None
    column = arrow_column(values)
    if column is None or column.null_count or not len(column):
        return None
    pa = arrow()
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        return None  # numbers (NaN is missing), booleans, polars' string views
    coded = code_column(column, name)
    return coded.labels, coded.codes


def canonical_codes(
    labels: tuple[Label, ...], occurs: NDArray[np.bool_]
) -> tuple[tuple[Key, ...], NDArray[np.intp]]:
    """The keys of the `labels` that occur (`occurs[i]`: a row holds labels[i]), in
    canonical order as `code_keys` puts them, and each label's place among them (-1 for
    one no row holds)."""
    used = np.flatnonzero(occurs).tolist()
    if set(map(type, labels)) == {str}:  # text alone: its own order is the canonical one
        order = sorted(used, key=labels.__getitem__)
    else:
        order = sorted(used, key=lambda i: label_key(labels[i]))
    position = np.full(len(labels), -1, dtype=np.intp)
    position[order] = np.arange(len(order))
    return tuple((labels[i],) for i in order), position


def code_keys(columns: Sequence[Any], names: Sequence[str]) -> KeyCoded:
    """Code the `by` columns of the same rows into slices (crossed when several)."""
    if not columns:
        msg = "`by` names no column: pass at least one column to slice by."
        raise InputError(msg)
    parts = [_code_one(values, name) for values, name in zip(columns, names, strict=True)]
    lengths = {codes.shape[0] for _, codes in parts}
    if len(lengths) > 1:
        msg = f"the `by` columns {list(names)} differ in length: {sorted(lengths)}."
        raise InputError(msg)
    if len(parts) == 1:
        values, codes = parts[0]
        return KeyCoded(tuple((v,) for v in values), codes)
    combined = np.zeros(parts[0][1].shape[0], dtype=np.int64)
    sizes = [len(values) for values, _ in parts]
    for (_, codes), size in zip(parts, sizes, strict=True):
        combined *= size
        combined += codes
    space = int(np.prod(sizes, dtype=object))
    if space <= _LOOKUP_LIMIT:  # the occurring combinations by one bincount, no sort
        distinct = np.flatnonzero(np.bincount(combined, minlength=space))
        lookup = np.zeros(space, dtype=np.intp)
        lookup[distinct] = np.arange(distinct.size)
        inverse = lookup[combined]
    else:
        distinct, inverse = np.unique(combined, return_inverse=True)
    keys = []
    for flat in distinct.tolist():
        key: list[Value] = []
        for (values, _), size in zip(reversed(parts), reversed(sizes), strict=True):
            flat, at = divmod(flat, size)
            key.append(values[at])
        keys.append(tuple(reversed(key)))
    return KeyCoded(tuple(keys), inverse.reshape(-1).astype(np.intp))


def keyed_key(key: Key) -> tuple[tuple[str, Value], ...]:
    """A key with each value's kind, for dicts: True is not 1, missing is its own kind."""
    return tuple(("missing", None) if v is None else keyed(v) for v in key)


def merged_keys(
    first: tuple[Key, ...], second: tuple[Key, ...]
) -> tuple[tuple[Key, ...], NDArray[np.intp], NDArray[np.intp]]:
    """The union of two Slices' keys (each in canonical order), a key written as the
    first to hold it writes it, and where each of theirs is in the union.

    A file's batches most often hold the same slices: keys equal value for value and
    type for type are the union as they are (1 and 1.0, equal as keys, take the general
    route), without keying and sorting the keys of every batch again."""
    if first == second and _types(first) == _types(second):  # equal tuples: same lengths
        places = np.arange(len(first), dtype=np.intp)
        return first, places, places
    both = (*first, *second)
    keyed_keys = [keyed_key(key) for key in both]  # once a key: a merge per batch
    union = dict(zip(keyed_keys[::-1], both[::-1], strict=True))  # as first written
    ordered = sorted(union, key=lambda k: key_order(union[k]))
    keys, at = tuple(union[k] for k in ordered), {k: i for i, k in enumerate(ordered)}
    places = np.array([at[k] for k in keyed_keys], dtype=np.intp)
    return keys, places[: len(first)], places[len(first) :]


def _types(keys: tuple[Key, ...]) -> list[type]:
    """The type of every value of the keys, key after key."""
    return list(map(type, chain.from_iterable(keys)))


def key_order(key: Key) -> tuple[tuple[int, Any], ...]:
    """The canonical sort key of a slice key: each value's label order, missing last."""
    return tuple((3, "") if v is None else label_key(v) for v in key)


def _integer_text(value: Value) -> bool:
    """Whether a value is text that reads as a whole number ("12", "-3", "007")."""
    if not isinstance(value, str):
        return False
    digits = value[1:] if value[:1] in ("+", "-") else value
    return digits.isascii() and digits.isdigit()


def numeric_order(keys: Sequence[Key]) -> list[int]:
    """Positions of `keys` (distinct, canonical order) in numeric order: a column whose
    values are all text reading as whole numbers (a CSV file's numbers are text: "1",
    "2", ..., "12") is ordered by their value, 2 before 10, the text itself breaking ties
    ("7" before "07"); any other column keeps its canonical order.

    >>> numeric_order([("1",), ("10",), ("2",)])
    [0, 2, 1]
    >>> numeric_order([("1", "x"), ("10", "x"), ("2", "x")]), numeric_order([("10",), ("a",)])
    ([0, 2, 1], [0, 1])
    """
    width = len(keys[0]) if keys else 0
    ranks: list[dict[tuple[str, Value], int]] = []
    for j in range(width):
        present = [k[j] for k in keys if k[j] is not None]
        values: list[tuple[tuple[str, Value], Label]] = list(
            {keyed(v): v for v in present if v is not None}.items()
        )
        if values and all(_integer_text(v) for _, v in values):
            values.sort(key=lambda item: (int(str(item[1])), str(item[1])))
        else:
            values.sort(key=lambda item: label_key(item[1]))  # the canonical order
        ranks.append({kv: rank for rank, (kv, _) in enumerate(values)})

    def rank(key: Key) -> tuple[int, ...]:
        return tuple(len(ranks[j]) if v is None else ranks[j][keyed(v)] for j, v in enumerate(key))

    return sorted(range(len(keys)), key=lambda i: rank(keys[i]))


def value_name(value: Value, *, quote: bool = False, separator: str = "") -> str:
    """How a report names one value of a slice key: ``missing`` for the missing value, a
    number or boolean as Python writes it, text as it is, or as a JSON string (in double
    quotes) where bare it could be read as something else (see the module's notes): when
    `quote`, and when it holds `separator` (the joint of a crossed name).

    >>> value_name(None), value_name("missing"), value_name(2.5), value_name(" a")
    ('missing', '"missing"', '2.5', '" a"')
    """
    if value is None:
        return "missing"
    if not isinstance(value, str):
        return str(value)
    bare = (
        not quote
        and value not in ("", "missing")
        and value[0] != '"'
        and not value[0].isspace()
        and not value[-1].isspace()
        # every character printable: nothing `printable` escapes (checked in C first)
        and (value.isprintable() or printable(value) == value)
        and not (separator and separator in value)
    )
    return value if bare else json.dumps(value, ensure_ascii=False)


def quoted_columns(keys: Sequence[Key]) -> tuple[bool, ...]:
    """For each column of the keys: whether it holds text beside numbers or booleans, so
    that its text is always quoted (1 and "1", True and "True" named apart)."""
    width = len(keys[0]) if keys else 0
    text = [False] * width
    other = [False] * width
    for key in keys:
        for j, value in enumerate(key):
            if value is None:
                continue
            if isinstance(value, str):
                text[j] = True
            else:
                other[j] = True
    return tuple(t and o for t, o in zip(text, other, strict=True))


def key_name(key: Key, by: Sequence[str], quoted: Sequence[bool] = ()) -> str:
    """How a report names a slice: its value, or "column=value, ..." when crossed, each
    value as `value_name` writes it (`quoted`: the columns whose text is always quoted,
    `quoted_columns` of all the keys named together)."""
    if len(key) == 1:
        return value_name(key[0], quote=bool(quoted and quoted[0]))
    quote = quoted or (False,) * len(key)
    return ", ".join(
        [
            f"{name}={value_name(value, quote=q, separator=', ')}"
            for name, value, q in zip(by, key, quote, strict=True)
        ]
    )


def key_names(keys: Sequence[Key], by: Sequence[str]) -> list[str]:
    """The names of slices named together (one report): distinct for distinct keys."""
    quoted = quoted_columns(keys)
    return [key_name(key, by, quoted) for key in keys]


def column_names(names: Sequence[str] | None, count: int) -> list[str]:
    """The names of `count` slicing columns: `names` checked (one str per column), or by
    default "by" for one column and "by1", "by2", ... for several."""
    if names is None:
        return ["by"] if count == 1 else [f"by{i + 1}" for i in range(count)]
    if isinstance(names, str) or not all(isinstance(name, str) for name in names):
        msg = f"`names` must be a list of column names (str), one per `by` column; got {names!r}."
        raise InputError(msg)
    if len(names) != count:
        msg = (
            f"`names` gives {len(names)} name{'' if len(names) == 1 else 's'} for {count} "
            f"`by` column{'' if count == 1 else 's'}; give one name per column."
        )
        raise InputError(msg)
    return list(names)
