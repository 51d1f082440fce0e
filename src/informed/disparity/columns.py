"""The columns a slice search crosses: each coded once, numbers cut into quantile ranges.

A column of numbers (integers or floats, not booleans) with more distinct values than
`bins` is cut into at most `bins` ranges at its quantiles (the edges are the
1/bins, 2/bins, ... quantiles of its values, repeated edges merged), each range closed
on the left and open on the right but the last, closed on both ends; the range is the
slice's value, so the cut is part of its name ("age=[30, 45)"). Any other column (text,
booleans, a pandas Categorical, numbers with at most `bins` values) is taken value by
value, as `--by` takes it (`informed.slices.keys`). A missing value (None, NaN, a null)
is a value of its own, "missing", in both kinds.

>>> found = code_column([1.0, 2.0, 3.0, 4.0, None, 6.0, 7.0, 8.0], "x", bins=2)
>>> found.values, found.codes.tolist()
(('[1, 4)', '[4, 8]', None), [0, 0, 0, 1, 2, 1, 1, 1])
>>> code_column(["b", "a", "b"], "g", bins=4).values
('a', 'b')
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.columns import (
    arrow,
    arrow_column,
    arrow_label_text,
    arrow_numbers,
    categorical,
)
from informed.coding.label_text import first_bad_text
from informed.coding.labels import Label, as_label, keyed, label_key
from informed.errors import InputError
from informed.slices.keys import Value, code_keys

__all__ = ["BINS", "SearchColumn", "check_bins", "code_column", "range_names"]

BINS = 4
"""The quantile ranges a numeric column is cut into by default (its quartiles)."""


@dataclass(frozen=True)
class SearchColumn:
    """One column of the search: row i holds `values[codes[i]]` (None is missing);
    `edges` are the cut's edges for a column of numbers cut into ranges, else None.
    `codes` are of the smallest unsigned type that holds them (a byte a row, mostly)."""

    name: str
    values: tuple[Value, ...]
    codes: NDArray[np.integer[Any]]
    edges: tuple[float, ...] | None = None

    @property
    def size(self) -> int:
        return len(self.values)


def _numbers(values: Any, text: bool) -> NDArray[np.float64] | None:
    """The column as float64 (nan where missing) when it holds numbers, not booleans;
    with `text`, also text that reads as numbers throughout (a file's column)."""
    if categorical(values) is not None:
        return None
    column = arrow_column(values)
    if column is not None:
        pa = arrow()
        kind = column.type
        if text and (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            try:
                column = column.cast(pa.float64())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                return None
            kind = column.type
        if pa.types.is_integer(kind) or pa.types.is_floating(kind):
            return np.asarray(arrow_numbers(column.cast(pa.float64())), dtype=np.float64)
        return None
    try:
        array = np.asarray(getattr(values, "to_numpy", lambda: values)())
    except (TypeError, ValueError):  # pragma: no cover - ragged input: coded as labels
        return None
    if array.dtype.kind in "iuf" and array.ndim == 1:
        return array.astype(np.float64)
    if array.dtype.kind == "O" and array.ndim == 1 and array.size:
        kinds = set(map(type, array.tolist()))
        if kinds <= {int, float, type(None)} and kinds & {int, float}:
            return np.array([np.nan if x is None else x for x in array.tolist()], np.float64)
    return None


def _shown(x: float) -> str:
    """An edge as the slice's name shows it: at most 6 significant digits, no ".0"."""
    return f"{x:.6g}"


def range_names(edges: tuple[float, ...]) -> tuple[str, ...]:
    """The names of the ranges between `edges`: "[a, b)" but the last, "[a, b]"."""
    last = len(edges) - 2
    return tuple(
        f"[{_shown(lo)}, {_shown(hi)}{']' if i == last else ')'}"
        for i, (lo, hi) in enumerate(itertools.pairwise(edges))
    )


def _cut(name: str, numbers: NDArray[np.float64], bins: int) -> SearchColumn | None:
    """The column cut at its quantiles, or None when it has at most `bins` values."""
    present = ~np.isnan(numbers)
    kept = numbers[present]
    if np.unique(kept).size <= bins:
        return None
    edges = np.unique(np.quantile(kept, np.linspace(0.0, 1.0, bins + 1), method="lower"))
    # every value in a range: the first edge is the least value, the last the greatest
    inner = edges[1:-1]
    codes = np.searchsorted(inner, numbers, side="right").astype(np.intp)
    values: tuple[Value, ...] = range_names(tuple(float(x) for x in edges))
    if not present.all():
        codes[~present] = len(values)
        values = (*values, None)
    used = np.bincount(codes, minlength=len(values)) > 0
    if not used.all():  # a range no value falls in (edges merged by ties): dropped
        position = np.cumsum(used) - 1
        codes = position[codes].astype(np.intp)
        values = tuple(v for v, u in zip(values, used, strict=True) if u)
    return SearchColumn(name, values, compact(codes, len(values)), tuple(float(x) for x in edges))


def compact(codes: NDArray[np.integer[Any]], size: int) -> NDArray[np.integer[Any]]:
    """`codes` (0 to size - 1) in the smallest unsigned type that holds them."""
    return codes.astype(np.min_scalar_type(max(size - 1, 0)), copy=False)


def _canonical(
    labels: list[Label], used: NDArray[np.bool_], missing: bool
) -> tuple[tuple[Value, ...], NDArray[np.intp]] | None:
    """The values used in canonical order (missing last) and each label's position among
    them (the position past the labels: missing); None where two labels are one key."""
    if len({keyed(x) for x in labels}) != len(labels):
        return None
    order = sorted(np.flatnonzero(used).tolist(), key=lambda i: label_key(labels[i]))
    position = np.zeros(len(labels) + 1, dtype=np.intp)
    position[order] = np.arange(len(order))
    position[len(labels)] = len(order)
    values: tuple[Value, ...] = tuple(labels[i] for i in order)
    return (*values, None) if missing else values, position


def _from_categorical(values: Any, name: str) -> SearchColumn | None:
    """A pandas Categorical by its codes (one byte or two a row), as `code_keys` codes
    it; None where it takes the general route (wide codes, labels it would refuse)."""
    found = categorical(values)
    if found is None or found.codes.dtype not in (np.int8, np.int16):
        return None
    try:
        labels = [as_label(x) for x in found.categories.tolist()]
    except (InputError, TypeError, ValueError):
        return None
    if first_bad_text(labels) is not None:
        return None
    wide = found.codes.view(np.uint8 if found.codes.dtype == np.int8 else np.uint16)
    counts = np.bincount(wide, minlength=256 if wide.dtype == np.uint8 else 65536)
    missing = bool(counts[-1])  # code -1, read unsigned
    canonical = _canonical(labels, counts[: len(labels)] > 0, missing)
    if canonical is None:
        return None
    names, position = canonical
    lookup = np.zeros(counts.size, dtype=np.intp)
    lookup[: len(labels)] = position[:-1]
    lookup[-1] = position[-1]
    return SearchColumn(name, names, compact(lookup, len(names))[wide])


def _from_arrow(values: Any, name: str) -> SearchColumn | None:
    """An Arrow column of text (plain or dictionary; a file's, polars', pyarrow's) by a
    hash of its words, as `code_keys` codes it; None where it takes the general route."""
    column = arrow_column(values)
    pa = arrow()
    if column is None or pa is None:
        return None
    kind = column.type
    text = (pa.types.is_string, pa.types.is_large_string)
    if pa.types.is_dictionary(kind):
        if not any(t(kind.value_type) for t in text):
            return None
        encoded = column
    elif any(t(kind) for t in text):
        encoded = pa.compute.dictionary_encode(column)
    else:
        return None
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.unify_dictionaries()
        chunks = encoded.chunks
    else:
        chunks = [encoded]
    if not chunks:
        return None
    words = chunks[0].dictionary.to_pylist()
    if None in words or first_bad_text(words) is not None:
        return None
    missing = column.null_count > 0
    used = np.zeros(len(words) + 1, dtype=np.int64)
    for chunk in chunks:
        indices = arrow_numbers(chunk.indices.fill_null(len(words)))
        used += np.bincount(indices, minlength=len(words) + 1)
    canonical = _canonical(list(words), used[:-1] > 0, missing)
    if canonical is None:
        return None
    names, position = canonical
    lookup = compact(position, len(names))
    out = np.empty(len(column), dtype=lookup.dtype)
    at = 0
    for chunk in chunks:
        indices = arrow_numbers(chunk.indices.fill_null(len(words)))
        out[at : at + indices.size] = lookup[indices]
        at += indices.size
    return SearchColumn(name, names, out)


def code_column(
    values: Any, name: str, *, bins: int = BINS, text_numbers: bool = False
) -> SearchColumn:
    """One column of the search, coded (numbers with more than `bins` values cut; with
    `text_numbers`, text that reads as numbers too, as a CSV file's column)."""
    numbers = _numbers(values, text_numbers)
    if numbers is not None:
        cut = _cut(name, numbers, bins)
        if cut is not None:
            return cut
    column = arrow_column(values) if text_numbers else None
    if column is not None:  # a file's numbers too few to cut: labels, read as their text
        values = arrow_label_text(column)
    fast = _from_categorical(values, name) or _from_arrow(values, name)
    if fast is not None:
        return fast
    coded = code_keys([values], [name])
    return SearchColumn(
        name, tuple(k[0] for k in coded.keys), compact(coded.codes, len(coded.keys))
    )


def check_bins(bins: Any) -> int:
    """`bins` as an int from 2 to 1,000, or a one-line error."""
    if isinstance(bins, bool) or not isinstance(bins, int | np.integer) or not 2 <= bins <= 1000:
        msg = f"`bins` (the quantile ranges of a numeric column) must be 2 to 1000; got {bins!r}."
        raise InputError(msg)
    return int(bins)
