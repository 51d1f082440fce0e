"""Time windows as slice keys: each row's timestamp floored to the start of its window.

A window is a span (`every`: "30min", "1h", "6h", "1d", "7d" or "1w") laid on the
calendar: hours and days start at whole hours and midnights, weeks on Mondays, all in
the time zone the timestamps are stored in (a pandas column in Europe/Paris has its days
start at midnight in Paris, daylight saving included; naive timestamps are taken as
they are). The key of a window is its start written in ISO 8601 ("2024-03-04" for days
and weeks, "2024-03-04T13:00" below a day), so keys sort in time order and read as
dates. Timestamps come as numpy datetime64, pandas (naive or zone-aware), Arrow
timestamps and dates (a Parquet or Arrow file's column, zone-aware or not) or ISO-8601
text (an offset such as +01:00 is the zone the time is written in: its wall-clock time
is kept, as pandas keeps it). A missing timestamp (None, NaN, NaT, an Arrow null, a
blank cell of a file) puts its row in the window "missing", never dropped; a value that
is not a timestamp is an error naming its row.

>>> window_keys(["2024-03-04T10:15", "2024-03-04T23:59", "2024-03-05T00:00"], "1d").tolist()
['2024-03-04', '2024-03-04', '2024-03-05']
>>> window_keys(np.array(["2024-03-06", "2024-03-10"], dtype="datetime64[D]"), "7d").tolist()
['2024-03-04', '2024-03-04']
>>> window_keys(["2024-03-04T10:15", None], "1h").tolist()
['2024-03-04T10:00', None]
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.columns import arrow, arrow_column
from informed.errors import InputError, at_row
from informed.slices.keys import CodedKeys

__all__ = ["SPANS", "parse_every", "window_codes", "window_keys"]

SPANS = {"min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
"""The units of `every`, in seconds."""

_EVERY = re.compile(r"(\d+)(min|h|d|w)")
_MONDAY = 4  # 1970-01-05, the first Monday after the epoch, is day 4
_DAY = 86400
_WEEK = 7 * _DAY
# Windows spanning at most this many spans are coded by a bincount, not a sort.
_LOOKUP_LIMIT = 1 << 24


def parse_every(every: str) -> int:
    """The span of a window in seconds, from "30min", "1h", "1d", "7d", "1w".

    >>> parse_every("1h"), parse_every("7d") == parse_every("1w")
    (3600, True)
    """
    found = _EVERY.fullmatch(every) if isinstance(every, str) else None
    if found is None or int(found.group(1)) == 0:
        msg = (
            f"`every` must be a whole number of min, h, d or w, such as 1h, 1d, 7d; got {every!r}."
        )
        raise InputError(msg)
    seconds = int(found.group(1)) * SPANS[found.group(2)]
    if seconds >= _DAY and seconds % _DAY:
        msg = f"`every` above a day must be whole days; got {every!r}."
        raise InputError(msg)
    if seconds < _DAY and _DAY % seconds:
        msg = f"`every` below a day must divide a day (1h, 6h, 30min); got {every!r}."
        raise InputError(msg)
    return seconds


def _not_a_timestamp(
    name: str, value: Any, row: int, where: Callable[[int], str] | None
) -> InputError:
    """The one-line error of a value that is not a timestamp, naming its row."""
    if where is not None:
        msg = (
            f"{where(row)}, column {name!r}: {value!r} is not an ISO-8601 timestamp "
            "(such as 2024-03-04 or 2024-03-04T10:15)."
        )
    else:
        msg = f"`{name}` holds {value!r} at {at_row(row)}, which is not an ISO-8601 timestamp."
    return InputError(msg)


def _wall_seconds(
    values: Any, name: str, where: Callable[[int], str] | None
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """(seconds since 1970-01-01 of each timestamp's wall-clock time where it is
    stored, the rows whose timestamp is missing)."""
    tz = getattr(getattr(values, "dt", None), "tz", None)
    if tz is not None:  # pandas, zone-aware: its local wall time
        values = values.dt.tz_localize(None)
    column = arrow_column(values)
    if column is not None:
        values = _arrow_times(column, name, where)
    array = np.asarray(values)
    if array.dtype.kind not in "M":
        if array.dtype.kind not in "OUS":
            msg = f"`{name}` holds {array.dtype} values, not timestamps or ISO-8601 text."
            raise InputError(msg)
        array = _parse(array, name, where)
    missing = np.isnat(array)
    seconds = array.astype("datetime64[s]", copy=False).view(np.int64)  # floored to seconds
    return seconds, missing


def _arrow_times(column: Any, name: str, where: Callable[[int], str] | None) -> Any:
    """An Arrow column of timestamps, dates or ISO-8601 text as numpy datetime64 (NaT
    where null): zone-aware timestamps at their local wall-clock time."""
    pa = arrow()
    kind = column.type
    if pa.types.is_dictionary(kind):
        column = column.cast(kind.value_type)
        kind = column.type
    if pa.types.is_timestamp(kind):
        if kind.tz:
            column = pa.compute.local_timestamp(column)
        return column.to_numpy(zero_copy_only=False)
    if pa.types.is_date(kind):
        return column.cast(pa.timestamp("s")).to_numpy(zero_copy_only=False)
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        try:  # Arrow reads the common ISO-8601 forms exactly as Python does, much faster
            parsed = column.cast(pa.timestamp("us"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return _parse(np.asarray(column.to_pylist(), dtype=object), name, where)
        return parsed.to_numpy(zero_copy_only=False)
    msg = f"`{name}` holds Arrow {kind} values, not timestamps, dates or ISO-8601 text."
    raise InputError(msg)


def _parse(
    array: NDArray[Any], name: str, where: Callable[[int], str] | None
) -> NDArray[np.datetime64]:
    """ISO-8601 text (or Python datetimes and dates) to datetime64[us], NaT where
    missing: wall-clock time as written (an offset is kept as the stored zone, as
    pandas keeps it)."""
    out = np.empty(array.shape[0], dtype="datetime64[us]")
    for row, value in enumerate(array.tolist()):
        if value is None or (isinstance(value, float) and math.isnan(value)):
            out[row] = np.datetime64("NaT")
            continue
        if type(value).__name__ in ("NAType", "NaTType"):
            out[row] = np.datetime64("NaT")
            continue
        try:
            if isinstance(value, dt.datetime):
                parsed = value
            elif isinstance(value, dt.date):
                parsed = dt.datetime.combine(value, dt.time())
            elif isinstance(value, str):
                parsed = dt.datetime.fromisoformat(value)
            else:
                raise TypeError
        except (TypeError, ValueError):
            raise _not_a_timestamp(name, value, row, where) from None
        out[row] = np.datetime64(parsed.replace(tzinfo=None), "us")
    return out


def _iso(starts: NDArray[np.int64], span: int) -> list[str]:
    """Window starts in ISO 8601: a date for a day or more, else to the minute."""
    stamps = starts.astype("datetime64[s]")
    if span % _DAY == 0:
        days = np.datetime_as_string(stamps.astype("datetime64[D]"), unit="D")
        return [str(day) for day in days]
    return [str(minute) for minute in np.datetime_as_string(stamps, unit="m")]


def window_codes(
    values: Any,
    every: str,
    name: str = "time",
    where: Callable[[int], str] | None = None,
) -> CodedKeys:
    """Each row's window as a code into the ISO keys of the windows that occur (in time
    order; -1 for a missing timestamp): the form `informed.slices.keys.code_keys` takes
    without building a string per row. `where` says where row i is in a file (for a bad
    timestamp's message)."""
    span = parse_every(every)
    seconds, missing = _wall_seconds(values, name, where)
    shift = _MONDAY * _DAY if span % _WEEK == 0 else 0  # weeks from a Monday
    index = np.subtract(seconds, shift) if shift else seconds.copy()
    index //= span  # each row's window, counted from the first one after the epoch
    gaps = bool(missing.any())
    found = index[~missing] if gaps else index
    if not found.size:
        return CodedKeys((), np.full(index.shape[0], -1, dtype=np.intp))
    low, high = int(found.min()), int(found.max())
    if high - low < _LOOKUP_LIMIT:
        if gaps:
            index[missing] = low
        index -= low
        counts = np.bincount(index, minlength=high - low + 1)
        if gaps:
            counts[0] -= int(np.count_nonzero(missing))
        occurs = np.flatnonzero(counts)
        lookup = np.zeros(high - low + 1, dtype=np.intp)
        lookup[occurs] = np.arange(occurs.size)
        codes = lookup[index]
        distinct = occurs + low
    else:
        distinct, inverse = np.unique(found, return_inverse=True)
        codes = np.full(index.shape[0], -1, dtype=np.intp)
        codes[~missing] = inverse.reshape(-1)
    if gaps:
        codes[missing] = -1
    return CodedKeys(tuple(_iso(distinct * span + shift, span)), codes)


def window_keys(
    values: Any,
    every: str,
    name: str = "time",
    where: Callable[[int], str] | None = None,
) -> NDArray[Any]:
    """The start of each row's window in ISO 8601 (see the module's notes), None where
    its timestamp is missing; `where` says where row i is in a file."""
    coded = window_codes(values, every, name, where)
    if (coded.codes >= 0).all():
        return np.asarray(coded.values, dtype=str)[coded.codes]
    keys = np.asarray([*coded.values, None], dtype=object)
    return keys[coded.codes]
