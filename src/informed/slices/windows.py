"""Time windows as slice keys: each row's timestamp floored to the start of its window.

A window is a span (`every`) laid on the calendar, in the time zone the timestamps are
stored in (a pandas column in Europe/Paris has its days start at midnight in Paris,
daylight saving included, after 2037 too: the offsets zoneinfo gives, see
`informed.slices.zones`; naive timestamps are taken as they are):

* fixed spans, "30min", "1h", "6h", "1d", "7d" or "1w" (min, h, d, w): hours and days
  start at whole hours and midnights, weeks on Mondays (multiples of a week, "14d", from
  Monday 5 January 1970);
* calendar spans, "1mo", "3mo", "1q", "1y" (mo: calendar months, q: quarters, y:
  years): a month is not a fixed span, so each timestamp is floored to the first instant
  of its calendar month, and multiples of months are counted from January 1970 ("3mo"
  and "1q" start in January, April, July and October; "2y" in even years).

"m" alone is refused: it means minutes to some tools (polars) and months to others
(pandas' "M"); write "min" or "mo". The key of a window is its start in ISO 8601
("2024-03-04" for days and weeks, "2024-03-04T13:00" below a day, "2024-03" for
months), a quarter "2024-Q1", a year "2024", so keys sort in time order and read as
dates; a window's name follows the unit written ("3mo" gives "2024-01", "1q"
"2024-Q1"). Timestamps come as numpy datetime64, pandas (naive or zone-aware), Arrow
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
>>> window_keys(["1969-12-31T23:59", "2024-02-29", "2024-12-31T23:59"], "1q").tolist()
['1969-Q4', '2024-Q1', '2024-Q4']
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.coding.columns import arrow, arrow_column, arrow_numbers, numpy_arrow
from informed.errors import InputError, at_row
from informed.slices.keys import CodedKeys
from informed.slices.zones import wall_clock, zone_of

__all__ = [
    "SPANS",
    "Span",
    "parse_every",
    "window_codes",
    "window_keys",
    "window_start",
]

SPANS = {"min": 60, "h": 3600, "d": 86400, "w": 7 * 86400, "mo": 0, "q": 0, "y": 0}
"""The units of `every`: fixed spans in seconds; calendar spans (months, quarters, years)
are no number of seconds (0), see `MONTHS`."""
MONTHS = {"mo": 1, "q": 3, "y": 12}
"""The calendar units of `every`, in months."""

_EVERY = re.compile(r"(\d+)(min|mo|h|d|w|q|y)")
_MONDAY = 4  # 1970-01-05, the first Monday after the epoch, is day 4
_DAY = 86400
_WEEK = 7 * _DAY
# Windows spanning at most this many spans are coded by a bincount, not a sort.
_LOOKUP_LIMIT = 1 << 24
_UNITS = (
    "min (minutes), h, d, w (weeks), mo (calendar months), q (quarters) or y (years), "
    "such as 30min, 1h, 1d, 7d, 1mo, 1q, 1y"
)
_NAMED = {"mo": "month", "q": "quarter", "y": "year"}
_KEY_FORMS = {
    "date": (re.compile(r"-?\d{4,}-\d\d-\d\d"), "2024-03-04"),
    "minute": (re.compile(r"-?\d{4,}-\d\d-\d\dT\d\d:\d\d"), "2024-03-04T13:00"),
    "month": (re.compile(r"-?\d{4,}-\d\d"), "2024-03"),
    "quarter": (re.compile(r"(-?\d{4,})-Q([1-4])"), "2024-Q1"),
    "year": (re.compile(r"-?\d{4,}"), "2024"),
}


class Span(NamedTuple):
    """A window's span: `seconds` for a fixed span (0 for a calendar one), `months` for a
    calendar span (0 for a fixed one), and the form of its windows' names (`names`:
    "minute", "date", "month", "quarter" or "year")."""

    seconds: int
    months: int
    names: str

    @property
    def size(self) -> int:
        """The span in its own unit: seconds, or months for a calendar span."""
        return self.months or self.seconds


def parse_every(every: str) -> Span:
    """The span of a window from "30min", "1h", "1d", "7d", "1w", "1mo", "3mo", "1q", "1y".

    >>> parse_every("1h").seconds, parse_every("7d") == parse_every("1w")
    (3600, True)
    >>> parse_every("3mo"), parse_every("1q").names
    (Span(seconds=0, months=3, names='month'), 'quarter')
    """
    found = _EVERY.fullmatch(every) if isinstance(every, str) else None
    if found is None or int(found.group(1)) == 0:
        hint = ""
        if isinstance(every, str) and re.fullmatch(r"\d*[mM]", every):
            hint = f" ({every[-1]!r} is ambiguous: write {every[:-1] or 1}min for minutes or "
            hint += f"{every[:-1] or 1}mo for calendar months)"
        msg = f"`every` must be a whole number of {_UNITS}; got {every!r}{hint}."
        raise InputError(msg)
    count, unit = int(found.group(1)), found.group(2)
    if unit in MONTHS:
        return Span(0, count * MONTHS[unit], _NAMED[unit])
    seconds = count * SPANS[unit]
    if seconds >= _DAY and seconds % _DAY:
        msg = f"`every` above a day must be whole days; got {every!r}."
        raise InputError(msg)
    if seconds < _DAY and _DAY % seconds:
        msg = f"`every` below a day must divide a day (1h, 6h, 30min); got {every!r}."
        raise InputError(msg)
    return Span(seconds, 0, "date" if seconds % _DAY == 0 else "minute")


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
    dates = getattr(values, "dt", values)  # a pandas Series' dates, or a DatetimeIndex
    tz = getattr(dates, "tz", None)
    if tz is not None and hasattr(dates, "tz_convert"):  # pandas, zone-aware
        wall = wall_clock(np.asarray(dates.tz_convert(None)), zone_of(tz), name)
        return wall.view(np.int64), np.isnat(wall)
    column = arrow_column(values)
    if column is not None:
        values = _arrow_times(column, name, where)
    array = np.asarray(values)
    if array.dtype.kind in "US" and isinstance(values, list | tuple):
        array = np.asarray(values, dtype=object)  # numpy writes a NaN among text as "nan"
    if array.dtype.kind == "f" and np.isnan(array).all():  # NaN only: every time missing
        array = np.full(array.shape[0], np.datetime64("NaT"), dtype="datetime64[us]")
    if array.dtype.kind not in "M":
        if array.dtype.kind not in "OUS":
            msg = f"`{name}` holds {array.dtype} values, not timestamps or ISO-8601 text."
            raise InputError(msg)
        array = _text_times(array, name, where)
    missing = np.isnat(array)
    seconds = array.astype("datetime64[s]", copy=False).view(np.int64)  # floored to seconds
    return seconds, missing


def _text_times(
    array: NDArray[Any], name: str, where: Callable[[int], str] | None
) -> NDArray[np.datetime64]:
    """Text (or Python datetimes) from numpy or a list: read as an Arrow column of text
    is read (pyarrow's cast, then Python's reader for what it refuses), where pyarrow is
    installed and the values are all text or missing; else row by row (`_parse`)."""
    pa = arrow()
    if pa is not None and array.dtype.kind in "OU":
        try:
            column = pa.array(array.tolist() if array.dtype.kind == "O" else array)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            column = None  # mixed values (text and datetimes, nan): row by row
        if column is not None and pa.types.is_string(column.type):
            found: NDArray[np.datetime64] = _arrow_times(column, name, where)
            return found
    return _parse(array, name, where)


def _arrow_times(column: Any, name: str, where: Callable[[int], str] | None) -> Any:
    """An Arrow column of timestamps, dates or ISO-8601 text as numpy datetime64 (NaT
    where null): zone-aware timestamps at their local wall-clock time."""
    pa = arrow()
    kind = column.type
    if pa.types.is_dictionary(kind):
        column = column.cast(kind.value_type)
        kind = column.type
    if getattr(pa.types, "is_string_view", lambda _: False)(kind):  # polars' strings
        column = column.cast(pa.large_string())
        kind = column.type
    if pa.types.is_timestamp(kind):
        if kind.tz:  # the instants in UTC, read on the wall clock of their zone
            utc = _datetimes(column.cast(pa.timestamp(kind.unit)))
            return wall_clock(utc, zone_of(kind.tz), name, where)
        return _datetimes(column)
    if pa.types.is_date(kind):
        return _datetimes(column.cast(pa.timestamp("s")))
    if pa.types.is_floating(kind) and column.null_count + _nan_count(column) == len(column):
        return np.full(len(column), np.datetime64("NaT"), dtype="datetime64[us]")  # NaN only
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        try:  # Arrow reads the common ISO-8601 forms exactly as Python does, much faster
            parsed = column.cast(pa.timestamp("us"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return _parse(np.asarray(column.to_pylist(), dtype=object), name, where)
        return _datetimes(parsed)
    msg = f"`{name}` holds Arrow {kind} values, not timestamps, dates or ISO-8601 text."
    raise InputError(msg)


def _datetimes(column: Any) -> NDArray[np.datetime64]:
    """An Arrow column of timestamps without a zone as datetime64 of its unit, NaT where
    null, read from its buffers: `to_numpy` imports pandas when it is installed (0.5 s)."""
    pa = arrow()
    ints = column.cast(pa.int64())
    missing = arrow_numbers(pa.compute.is_null(ints))
    if missing.any():  # nulls filled with Arrow's zeros: a Python 0 would import pandas
        ints = pa.compute.coalesce(ints, numpy_arrow(np.zeros(len(ints), np.int64)))
    found = np.array(arrow_numbers(ints)).view(f"datetime64[{column.type.unit}]")
    found[missing] = np.datetime64("NaT")
    return found


def _nan_count(column: Any) -> int:
    """The NaN values of a floating Arrow column."""
    found = arrow().compute.sum(arrow().compute.is_nan(column)).as_py()
    return int(found or 0)


def _parse(
    array: NDArray[Any], name: str, where: Callable[[int], str] | None
) -> NDArray[np.datetime64]:
    """ISO-8601 text (or Python datetimes and dates) to datetime64[us], NaT where
    missing: wall-clock time as written (an offset is kept as the stored zone, as
    pandas keeps it)."""
    out = np.empty(array.shape[0], dtype="datetime64[us]")
    for row, value in enumerate(array.tolist()):
        if value is None or (isinstance(value, float | np.floating) and math.isnan(value)):
            out[row] = np.datetime64("NaT")
            continue
        if isinstance(value, np.datetime64):  # numpy's, among other values (NaN, text)
            out[row] = value
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


def _window_index(
    seconds: NDArray[np.int64], missing: NDArray[np.bool_], span: Span
) -> NDArray[np.int64]:
    """Each timestamp's window, counted from the first one after the epoch (floored: a
    time before 1970 is in a window of negative number); any value where missing."""
    if span.months:
        return _months(seconds, missing) // span.months  # floored: from January 1970
    shift = _MONDAY * _DAY if span.seconds % _WEEK == 0 else 0  # weeks from a Monday
    index = np.subtract(seconds, shift) if shift else seconds.copy()
    index //= span.seconds
    return index


def _months(seconds: NDArray[np.int64], missing: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Each wall-clock time's calendar month, counted from January 1970 (floored, as
    numpy's datetime64[M] floors it): the month of each day that occurs, looked up by
    day (numpy's calendar arithmetic per row costs six times the lookup)."""
    days = seconds // _DAY
    present = days[~missing] if missing.any() else days
    if not present.size:
        return days
    low, high = int(present.min()), int(present.max())
    if high - low >= _LOOKUP_LIMIT:  # dates over 45,000 years: the calendar row by row
        return seconds.view("datetime64[s]").astype("datetime64[M]").view(np.int64)
    month_of = np.arange(low, high + 1).astype("datetime64[D]").astype("datetime64[M]")
    days -= low
    days[missing] = 0
    return np.take(month_of.view(np.int64), days)


def _names(index: NDArray[np.int64], span: Span) -> list[str]:
    """The names of the windows `index` (their starts in ISO 8601, see the module)."""
    if not span.months:
        shift = _MONDAY * _DAY if span.seconds % _WEEK == 0 else 0
        stamps = (index * span.seconds + shift).astype("datetime64[s]")
        if span.names == "date":
            return [str(day) for day in np.datetime_as_string(stamps.astype("datetime64[D]"))]
        return [str(minute) for minute in np.datetime_as_string(stamps, unit="m")]
    months = (index * span.months).astype("datetime64[M]")
    if span.names == "month":
        return [str(month) for month in np.datetime_as_string(months)]
    years = np.datetime_as_string(months.astype("datetime64[Y]"))
    if span.names == "year":
        return [str(year) for year in years]
    quarters = (months.view(np.int64) % 12) // 3 + 1
    return [f"{year}-Q{q}" for year, q in zip(years.tolist(), quarters.tolist(), strict=True)]


def window_start(key: Any, span: Span) -> int:
    """The start of a window from its key (`window_codes`' names), in the span's unit:
    seconds of wall-clock time since 1970, or months since January 1970 for a calendar
    span (`informed.slices.rolling` measures the calendar with it).

    >>> window_start("2024-Q2", parse_every("1q")), window_start("1969-12", parse_every("1mo"))
    (651, -1)
    """
    pattern, example = _KEY_FORMS[span.names]
    found = pattern.fullmatch(key) if isinstance(key, str) else None
    try:
        if found is None:
            raise ValueError
        if span.names == "quarter":
            year = np.datetime64(found.group(1), "Y").astype("datetime64[M]").view(np.int64)
            return int(year) + 3 * (int(found.group(2)) - 1)
        return int(np.datetime64(key, "M" if span.months else "s").view(np.int64))
    except ValueError:
        msg = (
            f"the window {key!r} is not the name of a window of {span.names}s (such as {example})."
        )
        raise InputError(msg) from None


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
    index = _window_index(seconds, missing, span)
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
    return CodedKeys(tuple(_names(distinct, span)), codes)


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
