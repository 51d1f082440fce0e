"""Time windows as slice keys: each row's timestamp floored to the start of its window.

A window is a span (`every`: "30min", "1h", "6h", "1d", "7d" or "1w") laid on the
calendar: hours and days start at whole hours and midnights, weeks on Mondays, all in
the time zone the timestamps are stored in (a pandas column in Europe/Paris has its days
start at midnight in Paris, daylight saving included; naive timestamps are taken as
they are). The key of a window is its start written in ISO 8601 ("2024-03-04" for days
and weeks, "2024-03-04T13:00" below a day), so keys sort in time order and read as
dates. Timestamps come as numpy datetime64, pandas (naive or zone-aware), Arrow
timestamps or ISO-8601 text; a value that is not a timestamp is an error naming its row.

>>> window_keys(["2024-03-04T10:15", "2024-03-04T23:59", "2024-03-05T00:00"], "1d").tolist()
['2024-03-04', '2024-03-04', '2024-03-05']
>>> window_keys(np.array(["2024-03-06", "2024-03-10"], dtype="datetime64[D]"), "7d").tolist()
['2024-03-04', '2024-03-04']
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.columns import arrow_column
from informed.errors import InputError, at_row

__all__ = ["SPANS", "parse_every", "window_keys"]

SPANS = {"min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
"""The units of `every`, in seconds."""

_EVERY = re.compile(r"(\d+)(min|h|d|w)")
_MONDAY = 4  # 1970-01-05, the first Monday after the epoch, is day 4


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
    if seconds >= 86400 and seconds % 86400:
        msg = f"`every` above a day must be whole days; got {every!r}."
        raise InputError(msg)
    if seconds < 86400 and 86400 % seconds:
        msg = f"`every` below a day must divide a day (1h, 6h, 30min); got {every!r}."
        raise InputError(msg)
    return seconds


def _wall_seconds(values: Any, name: str, first_row: int = 0) -> NDArray[np.int64]:
    """Seconds since 1970-01-01 of each timestamp's wall-clock time where it is stored."""
    tz = getattr(getattr(values, "dt", None), "tz", None)
    if tz is not None:  # pandas, zone-aware: its local wall time
        values = values.dt.tz_localize(None)
    column = arrow_column(values)
    if column is not None:
        if getattr(column.type, "tz", None):
            import pyarrow.compute as pc

            column = pc.local_timestamp(column)
        values = column.to_numpy(zero_copy_only=False)
    array = np.asarray(values)
    if array.dtype.kind != "M":
        array = _parse(array, name, first_row)
    if array.dtype.kind == "M":
        bad = np.isnat(array)
        if bad.any():
            row = first_row + int(np.flatnonzero(bad)[0])
            msg = f"`{name}` has no timestamp at {at_row(row)}; every row needs one."
            raise InputError(msg)
    return array.astype("datetime64[s]").astype(np.int64)


def _parse(array: NDArray[Any], name: str, first_row: int) -> NDArray[np.datetime64]:
    """ISO-8601 text to datetime64[s]: wall-clock time as written (an offset is kept as
    the stored zone, as pandas keeps it)."""
    out = np.empty(array.shape[0], dtype="datetime64[s]")
    for row, value in enumerate(array.tolist()):
        try:
            if not isinstance(value, str):
                raise TypeError
            parsed = dt.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            where = at_row(first_row + row)
            msg = f"`{name}` holds {value!r} at {where}, which is not an ISO-8601 timestamp."
            raise InputError(msg) from None
        out[row] = np.datetime64(parsed.replace(tzinfo=None), "s")
    return out


def window_keys(
    values: Any, every: str, name: str = "time", first_row: int = 0
) -> NDArray[np.str_]:
    """The start of each row's window, in ISO 8601 (see the module's notes); `name` and
    `first_row` (of a batch of a file) say where a bad timestamp is."""
    span = parse_every(every)
    seconds = _wall_seconds(values, name, first_row)
    if span % (7 * 86400) == 0:
        days = seconds // 86400
        start = ((days - _MONDAY) // (span // 86400)) * (span // 86400) + _MONDAY
        return np.datetime_as_string(start.astype("datetime64[D]"), unit="D")
    start = (seconds // span) * span
    if span % 86400 == 0:
        return np.datetime_as_string((start // 86400).astype("datetime64[D]"), unit="D")
    return np.datetime_as_string(start.astype("datetime64[s]"), unit="m")
