"""Wall-clock time of instants stored in a time zone, as Python's `zoneinfo` gives it.

A zone-aware timestamp is an instant (seconds since 1970 in UTC) and a zone; its window
is read on the wall clock of that zone. pyarrow's `local_timestamp` and pytz (behind
pandas' zones named by text) read a zone's TZif file only up to its last listed
transition (2037 for most zones), so that in 2042 Paris kept winter time all summer.
Here the offsets come from the same TZif file `zoneinfo` reads (found where it finds
it: `zoneinfo.TZPATH`, then the tzdata package), with the rule of its footer (a POSIX TZ
string, RFC 8536) for every instant after the last listed transition, computed as
CPython's `zoneinfo` computes it (its C module, `Modules/_zoneinfo.c`):

* before the first transition: the first local time type that is not daylight saving
  (the first type if all are);
* from a transition to the next: the type of that transition;
* after the last transition: the footer's rule, evaluated in each instant's UTC year
  (daylight saving from start - standard offset to end - daylight offset), or its one
  offset; with no footer, the type of the last transition.

The offsets are vectorised: a table of the offset of each day between the first and
the last instant (`searchsorted` in the transitions, once per day), in which an instant
looks up its day, and only the instants of the few days in which the offset changes are
searched among the transitions: 10^7 instants over a century take about 0.4 s, where
pyarrow's `local_timestamp` took 1.1 s (`benchmarks/bench_windows.py`). A zone given as
a tzinfo that has no name zoneinfo knows (dateutil's, a custom one) is asked its offset
once per distinct second.
"""

from __future__ import annotations

import datetime as dt
import functools
import importlib.resources
import os
import re
import struct
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, at_row

__all__ = ["wall_clock", "zone_of"]

_DAY = 86400
_FIXED = re.compile(r"([+-])(\d\d):?(\d\d)")  # Arrow's fixed offsets: +05:30, -0330
_ABBREVIATION = r"(?:[^<0-9:.,+-]+|<[a-zA-Z0-9+-]+>)"
_OFFSET = r"[+-]?\d{1,3}(?::\d{2}(?::\d{2})?)?"
_TZ_STRING = re.compile(
    rf"{_ABBREVIATION}(?P<std>{_OFFSET})?(?:{_ABBREVIATION}(?P<dst>{_OFFSET})?)?", re.ASCII
)
_WHEN = re.compile(r"(?:M(\d{1,2})\.(\d)\.(\d)|(J?)(\d{1,3}))(?:/([+-]?\d{1,3}(?::\d\d){0,2}))?")
# Seconds beyond which an offset added to an instant could leave int64 (year 146 billion).
_EXTREME = 1 << 62
_BUCKETS = 1 << 22  # the most days (or longer spans) a table of offsets by day holds
_SEARCH = np.iinfo(np.int64).min  # no offset: a day whose instants are searched


class _When(NamedTuple):
    """The day and time of a POSIX rule's transition: month, week and weekday (Mm.w.d),
    or a day of the year (Jn without 29 February, n from 0 with it: `month` 0), and the
    local time of day in seconds (negative or past a day allowed, as RFC 8536 allows)."""

    month: int
    week: int
    day: int
    julian: bool
    time: int


class _Rule(NamedTuple):
    """A footer with daylight saving: the two offsets and when each year it starts and ends."""

    std: int
    dst: int
    start: _When
    end: _When


class _Zone(NamedTuple):
    """A TZif file as zoneinfo reads it: the offset before the first transition, the
    transitions (UTC seconds) with the offset each starts, and what comes after the last
    (a rule, or one offset)."""

    before: int
    times: NDArray[np.int64]
    offsets: NDArray[np.int64]
    after: _Rule | int


def _seconds(text: str) -> int:
    """[+-]hh[:mm[:ss]] in seconds, signed as written."""
    sign = -1 if text.startswith("-") else 1
    parts = [int(p) for p in text.lstrip("+-").split(":")] + [0, 0]
    return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])


def _when(text: str) -> _When:
    found = _WHEN.fullmatch(text)
    if found is None:
        raise ValueError(text)
    month, week, day, julian, number, time = found.groups()
    at = _seconds(time) if time else 7200  # 02:00 when no time is written
    if month is not None:
        return _When(int(month), int(week), int(day), julian=False, time=at)
    return _When(0, 0, int(number), julian=bool(julian), time=at)


def _footer(text: str) -> _Rule | int | None:
    """The rule of a TZif footer (None if empty); offsets are east of UTC, as POSIX
    writes them west ("CET-1" is one hour east)."""
    if not text:
        return None
    head, _, rules = text.partition(",")
    found = _TZ_STRING.fullmatch(head)
    if found is None:
        raise ValueError(text)
    std = -_seconds(found.group("std")) if found.group("std") else 0
    if not rules:
        return std
    dst = -_seconds(found.group("dst")) if found.group("dst") else std + 3600
    start, _, end = rules.partition(",")
    return _Rule(std, dst, _when(start), _when(end))


def _read_tzif(data: bytes) -> _Zone:
    """The transitions, types and footer of a TZif file (RFC 8536), read as zoneinfo's
    `_common.load_data` reads them (the 64-bit block of version 2 and later)."""
    header = struct.Struct(">4sc15x6l")
    magic, version, utc_count, std_count, leaps, count, types, chars = header.unpack_from(data)
    if magic != b"TZif":
        raise ValueError("not a TZif file")
    at, size, form = header.size, 4, "l"
    if version != b"\x00":  # skip the 32-bit block to the second header
        at += count * 5 + types * 6 + chars + leaps * 8 + std_count + utc_count
        _, _, utc_count, std_count, leaps, count, types, chars = header.unpack_from(data, at)
        at, size, form = at + header.size, 8, "q"
    times = np.array(struct.unpack_from(f">{count}{form}", data, at), dtype=np.int64)
    at += count * size
    index = np.frombuffer(data, dtype=np.uint8, count=count, offset=at).astype(np.intp)
    at += count
    kinds = [struct.unpack_from(">lbB", data, at + 6 * i) for i in range(types)]
    offsets = np.array([kind[0] for kind in kinds], dtype=np.int64)
    standard = [kind[0] for kind in kinds if not kind[1]]
    before = standard[0] if standard else int(offsets[0])
    after: _Rule | int | None = None
    if version != b"\x00":
        at += types * 6 + chars + leaps * 12 + std_count + utc_count
        after = _footer(data[at:].split(b"\n")[1].decode("ascii"))
    if after is None:  # no footer: the last transition's type (the last type if none)
        after = int(offsets[index[-1]] if count else offsets[-1])
    return _Zone(before, times, offsets[index], after)


@functools.lru_cache(maxsize=64)
def _zone(key: str) -> _Zone:
    """The TZif file of `key`, found where zoneinfo finds it."""
    import zoneinfo  # loaded when a zone is named: slicing by a column needs none

    zoneinfo.ZoneInfo(key)  # zoneinfo's checks of the key, and its error if not found
    for folder in zoneinfo.TZPATH:
        path = os.path.join(folder, key)
        if os.path.isfile(path):
            with open(path, "rb") as file:
                return _read_tzif(file.read())
    found = importlib.resources.files("tzdata.zoneinfo").joinpath(*key.split("/"))
    return _read_tzif(found.read_bytes())


def _days_of_years(years: NDArray[np.int64]) -> NDArray[np.int64]:
    """Days from 1970-01-01 to 1 January of each year."""
    return (years - 1970).astype("datetime64[Y]").astype("datetime64[D]").view(np.int64)


def _local_start(when: _When, years: NDArray[np.int64]) -> NDArray[np.int64]:
    """When the rule `when` falls in each year: seconds since 1970 on the local standard
    (or daylight) clock, computed as zoneinfo's `year_to_timestamp` computes it."""
    january = _days_of_years(years)
    if when.month:
        months = (years - 1970) * 12 + (when.month - 1)
        first = months.astype("datetime64[M]").astype("datetime64[D]").view(np.int64)
        length = (months + 1).astype("datetime64[M]").astype("datetime64[D]").view(np.int64)
        length -= first
        weekday = (first + 3) % 7  # Monday 0: 1 January 1970 was a Thursday
        day = (when.day - (weekday + 1)) % 7 + 1 + (when.week - 1) * 7
        day = np.where(day > length, day - 7, day)  # week 5: the last such weekday
        days = first + day - 1
    else:
        # zoneinfo counts n (and Jn) from 31 December, and adds 29 February from J59
        leap = _days_of_years(years + 1) - january == 366
        shift = (leap & (when.day >= 59)) if when.julian else np.zeros(years.shape, bool)
        days = january - 1 + when.day + shift
    return days * _DAY + when.time


def _utc_years(seconds: NDArray[np.int64]) -> NDArray[np.int64]:
    return seconds.view("datetime64[s]").astype("datetime64[Y]").view(np.int64) + 1970


def _by_rule(rule: _Rule, seconds: NDArray[np.int64]) -> NDArray[np.int64]:
    """The offset of each instant after the last transition, by the rule of its UTC year
    (as zoneinfo's `find_tzrule_ttinfo_fromutc`)."""
    years = _utc_years(seconds)
    start = _local_start(rule.start, years) - rule.std
    end = _local_start(rule.end, years) - rule.dst
    inside = (start <= seconds) & (seconds < end)
    outside = (seconds < end) | (seconds >= start)
    summer = np.where(start < end, inside, outside)
    return np.where(summer, rule.dst, rule.std)


def _table(
    zone: _Zone, seconds: NDArray[np.int64], low: int, high: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(points, offsets): the offset of an instant t of `seconds` (all in [low, high]) is
    offsets[searchsorted(points, t, "right")], points only those in (low, high]. After
    the last transition, the points are where the rule's value may change: 1 January of
    each UTC year and the year's start and end, each given the rule's value there."""
    times, offsets = zone.times, zone.offsets
    values = np.concatenate([[zone.before], offsets])
    first = int(times[-1]) + 1 if times.size else low  # where `after` takes over
    if isinstance(zone.after, int):
        points = np.append(times, first)
        values = np.append(values, zone.after)
    elif high >= first:
        begin = max(first, low)
        span = _utc_years(np.array([begin, high], dtype=np.int64))
        if span[1] - span[0] <= 100_000:
            years = np.arange(span[0], span[1] + 1)
        else:  # instants over more than 100,000 years: the years that occur
            years = np.unique(_utc_years(seconds[seconds >= begin]))
        rule = zone.after
        edges = np.concatenate(
            [
                [begin],
                _days_of_years(years) * _DAY,
                _days_of_years(years + 1) * _DAY,
                _local_start(rule.start, years) - rule.std,
                _local_start(rule.end, years) - rule.dst,
            ]
        )
        edges = np.unique(edges[(edges >= begin) & (edges <= high)])
        points = np.concatenate([times, edges])
        values = np.concatenate([values, _by_rule(rule, edges)])
    else:
        points = times
    below = int(np.searchsorted(points, low, "right"))
    above = int(np.searchsorted(points, high, "right"))
    return points[below:above], values[below : above + 1]


def zone_of(tz: Any) -> str | int | dt.tzinfo:
    """The zone of a column: a zoneinfo key (an Arrow type's text, a ZoneInfo's key,
    pytz's name), a fixed offset in seconds (Arrow's "+05:30", `datetime.timezone`), or
    the tzinfo itself when it has no name zoneinfo knows (dateutil's)."""
    if isinstance(tz, str):
        fixed = _FIXED.fullmatch(tz)
        if fixed is None:
            return tz
        sign, hours, minutes = fixed.groups()
        return (-1 if sign == "-" else 1) * (int(hours) * 3600 + int(minutes) * 60)
    zoneinfo = sys.modules.get("zoneinfo")  # a ZoneInfo given means zoneinfo is loaded
    if zoneinfo is not None and isinstance(tz, zoneinfo.ZoneInfo) and tz.key is not None:
        return str(tz.key)
    if not isinstance(tz, dt.tzinfo):
        msg = f"{tz!r} is not a time zone (a tzinfo, or the name of one)."
        raise InputError(msg)
    name = getattr(tz, "zone", None)  # pytz: its tables stop in 2037, its name does not
    if isinstance(name, str):
        return name
    offset = tz.utcoffset(None)  # a fixed offset gives it without an instant
    if isinstance(offset, dt.timedelta) and not offset % dt.timedelta(seconds=1):
        return offset // dt.timedelta(seconds=1)
    return tz


def _asked(
    tz: dt.tzinfo, seconds: NDArray[np.int64], said: Callable[[int | None], str]
) -> NDArray[np.int64]:
    """The offsets a tzinfo without a zoneinfo name gives, asked once per distinct second."""
    distinct, inverse = np.unique(seconds, return_inverse=True)
    found = np.empty(distinct.size, dtype=np.int64)
    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    for i, second in enumerate(distinct.tolist()):
        try:
            offset = (epoch + dt.timedelta(seconds=second)).astimezone(tz).utcoffset()
        except (OverflowError, ValueError):
            msg = (
                f"{said(second)}: {np.datetime64(second, 's')} UTC is outside the years 1 to "
                f"9999 in which its time zone {tz!r} can be asked (name the zone, such as "
                "'Europe/Paris', to have its offsets computed)."
            )
            raise InputError(msg) from None
        if offset is None or offset % dt.timedelta(seconds=1):
            msg = f"{said(second)}: its time zone {tz!r} gives {offset!r}, not whole seconds."
            raise InputError(msg)
        found[i] = offset // dt.timedelta(seconds=1)
    return found[inverse.reshape(-1)]


def _offsets(
    zone: str | int | dt.tzinfo,
    seconds: NDArray[np.int64],
    low: int,
    high: int,
    said: Callable[[int | None], str],
) -> NDArray[np.int64] | int:
    """The offset east of UTC of each instant of `seconds` (none missing, from `low` to
    `high`) in `zone`; `said` names the column and the row of an instant in a message."""
    if isinstance(zone, int):
        return zone
    if not isinstance(zone, str):
        return _asked(zone, seconds, said)
    try:
        rules = _zone(zone)
    except (KeyError, ValueError, OSError, ImportError, IndexError, struct.error, UnicodeError):
        msg = (
            f"{said(None)}: its timestamps are in the time zone {zone!r}, which Python's "
            "zoneinfo does not know (a name of the tz database, such as 'Europe/Paris', or "
            "an offset such as '+05:30')."
        )
        raise InputError(msg) from None
    points, values = _table(rules, seconds, low, high)
    if not points.size:
        return int(values[0])
    return _looked_up(points, values, seconds, low, high)


def _looked_up(
    points: NDArray[np.int64],
    values: NDArray[np.int64],
    seconds: NDArray[np.int64],
    low: int,
    high: int,
) -> NDArray[np.int64]:
    """values[searchsorted(points, seconds, "right")], by days: the offset of each day
    (or longer span, for instants over more than 11,000 years) without a transition
    inside it is taken from a table of them, and only the instants of the few days with
    one are searched (a binary search of every instant costs ten times more); fewer
    instants than four times the days are each searched."""
    size = max(_DAY, -(-(high - low + 1) // _BUCKETS))
    count = (high - low) // size + 1
    if count * 4 > seconds.size:  # fewer instants than days: each one searched
        searched: NDArray[np.int64] = values[np.searchsorted(points, seconds, "right")]
        return searched
    by_day = values[np.searchsorted(points, low + size * np.arange(count), "right")]
    inside = points[(points - low) % size != 0]
    by_day[(inside - low) // size] = _SEARCH  # a transition inside the day: search
    found = by_day[(seconds - low) // size]
    inside_days = np.flatnonzero(found == _SEARCH)
    if inside_days.size:
        found[inside_days] = values[np.searchsorted(points, seconds[inside_days], "right")]
    return found


def wall_clock(
    utc: NDArray[np.datetime64],
    zone: str | int | dt.tzinfo,
    name: str = "time",
    where: Callable[[int], str] | None = None,
) -> NDArray[np.datetime64]:
    """Instants in UTC (datetime64 of any unit, NaT where missing) as the wall-clock time
    of `zone` (see `zone_of`), floored to the second, as zoneinfo gives it. `name` is the
    column's name, `where` says where row i is in a file (for a message).

    >>> utc = np.array(["2042-07-16T22:30", "2042-12-16T22:30", "NaT"], dtype="datetime64[m]")
    >>> wall_clock(utc, "Europe/Paris").tolist()  # summer time in 2042 too
    [datetime.datetime(2042, 7, 17, 0, 30), datetime.datetime(2042, 12, 16, 23, 30), None]
    """
    seconds = utc.astype("datetime64[s]").view(np.int64)  # floored, as offsets are whole
    missing = np.isnat(utc)
    gaps = bool(missing.any())
    present = seconds[~missing] if gaps else seconds

    def said(second: int | None) -> str:
        """The column, and the row of the instant `second` (the first row if None)."""
        row = int(np.flatnonzero(~missing if second is None else seconds == second)[0])
        if where is not None:
            return f"{where(row)}, column {name!r}"
        return f"`{name}`" if second is None else f"`{name}` at {at_row(row)}"

    if not present.size:
        return seconds.view("datetime64[s]")
    low, high = int(present.min()), int(present.max())
    if low < -_EXTREME or high > _EXTREME:
        far = low if low < -_EXTREME else high
        msg = (
            f"{said(far)}: an instant {far:,} seconds from 1970 in UTC, beyond any calendar "
            "informed can window in a time zone."
        )
        raise InputError(msg)
    offsets = _offsets(zone, present, low, high, said)
    if not gaps:
        wall: NDArray[np.int64] = seconds + offsets
    else:
        wall = seconds.copy()
        wall[~missing] += offsets
    return wall.view("datetime64[s]")
