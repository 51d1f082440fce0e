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

from informed.columns import arrow, arrow_column, arrow_numbers, categorical
from informed.errors import InputError
from informed.slices.keys import Value, code_keys

__all__ = ["BINS", "SearchColumn", "check_bins", "code_column", "range_names"]

BINS = 4
"""The quantile ranges a numeric column is cut into by default (its quartiles)."""


@dataclass(frozen=True)
class SearchColumn:
    """One column of the search: row i holds `values[codes[i]]` (None is missing);
    `edges` are the cut's edges for a column of numbers cut into ranges, else None."""

    name: str
    values: tuple[Value, ...]
    codes: NDArray[np.intp]
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
    return SearchColumn(name, values, codes, tuple(float(x) for x in edges))


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
    coded = code_keys([values], [name])
    return SearchColumn(name, tuple(k[0] for k in coded.keys), coded.codes)


def check_bins(bins: Any) -> int:
    """`bins` as an int from 2 to 1,000, or a one-line error."""
    if isinstance(bins, bool) or not isinstance(bins, int | np.integer) or not 2 <= bins <= 1000:
        msg = f"`bins` (the quantile ranges of a numeric column) must be 2 to 1000; got {bins!r}."
        raise InputError(msg)
    return int(bins)
