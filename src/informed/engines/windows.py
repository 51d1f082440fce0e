"""Time windows on an engine: calendar fields counted there, floored here by informed's code.

`Slices.from_frame(lazy, time=COL, every=SPAN)` (and `--by-time` with `--database`,
`--sql` or `--engine`) needs each row's window as a key of the grouped count. Engines
floor timestamps by rules of their own (DuckDB's and Spark's `date_trunc` read a zone-
aware value in the session's time zone, polars' `truncate` anchors multiples its own
way), so informed does not ask them to. Each row gets on the engine the calendar fields
of its wall-clock time that its window depends on, read the same way by every engine
(narwhals' `dt.year()`, `dt.month()`, ... or, for text, the digits at their places):

* calendar months, quarters, years: the year and the month;
* days and weeks: the date (`dt.date()`, days since 1970 in Arrow; for text the year,
  month and day);
* spans below a day (which divide a day): also the slot of the day,
  (hour * 60 + minute) // minutes per window, of non-negative numbers only (engines
  disagree on the floor of negative ones).

Those fields refine the window (each window is one or more groups of them), so the
grouped count by (fields..., by..., predicted, actual) carries every window's counts;
informed turns the fetched fields back into wall-clock times and floors them with
`informed.slices.windows.window_codes`, the code that floors them in one process, and
the groups of one window add up exactly.

What the engine cannot read exactly as one process reads it is refused, in one line
saying what to do, never approximated:

* timestamps with a time zone on DuckDB, Spark or ibis: those engines keep instants and
  show them in the session's zone, not the zone they were stored in ("as stored" is
  informed's rule; polars keeps the zone, and its fields are read there);
* text that is not ISO 8601 in the forms YYYY-MM-DD, YYYY-MM-DD[T| ]HH[:MM[:SS[.f]]]
  with an optional Z or +HH:MM offset (whose wall-clock time is kept, as in one
  process), or a date that does not exist (30 February): counted on the engine and
  refused with the count and the filter that finds them;
* a timestamp whose fields the engine cannot give (DuckDB's infinity), and for months
  a year before 1 (engines number those years differently: 0 or -1 for 1 BC).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.engines.frames import narwhals, source_engine
from informed.errors import InputError
from informed.slices.keys import CodedKeys
from informed.slices.windows import parse_every, window_codes

__all__ = ["ISO_TEXT", "TimeKeys", "time_keys", "window_of"]

ISO_TEXT = (
    r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"([T ]([01][0-9]|2[0-3])(:[0-5][0-9](:[0-5][0-9](\.[0-9]+)?)?)?"
    r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?\z"
)
"""The ISO-8601 text an engine windows (checked there by this pattern): a date, or a
date and a time to the hour, minute, second or fraction, with an optional offset. It
ends in \\z, the end of the text in RE2 (DuckDB), Rust (polars) and Java (Spark): Java's
$ would match before a final line end, which Python does not read."""
_DAY = 86400
_PREFIX = "__informed_time_"
_TEXT = "__informed_text_"


class TimeKeys(NamedTuple):
    """The key columns a time window adds to an engine's grouped count."""

    column: str
    every: str
    fields: tuple[str, ...]
    bad: str
    text: bool

    @property
    def keys(self) -> list[str]:
        """The added key columns, the flag of values the engine cannot window last."""
        return [*self.fields, self.bad]

    @property
    def name(self) -> str:
        """The name of the window's column of the slice keys, as in one process."""
        return f"{self.column} ({self.every})"


def _text_fields(nw: Any, lazy: Any, column: str) -> tuple[Any, dict[str, Any], Any]:
    """`lazy` with the wall-clock fields of ISO-8601 text (the digits at their places;
    null where the text is not in a form `ISO_TEXT` accepts), the fields, and the rows
    whose text is no date. Each step is a projection of its own, so that the engine
    matches the pattern once per row, not once per use of it."""
    text, clean = nw.col(column), nw.col(f"{_TEXT}clean")
    form = text.str.contains(ISO_TEXT).fill_null(False)
    lazy = lazy.with_columns(**{f"{_TEXT}clean": nw.when(form).then(text)})  # else null

    def number(offset: int, length: int) -> Any:
        return clean.str.slice(offset, length).cast(nw.Int64)

    numbers = {
        "year": number(0, 4),
        "month": number(5, 2),
        "day": number(8, 2),
        "hour": nw.when(clean.str.len_chars() > 10).then(number(11, 2)).otherwise(0),
        "minute": nw.when(clean.str.slice(13, 1) == ":").then(number(14, 2)).otherwise(0),
    }
    lazy = lazy.with_columns(**{f"{_TEXT}{name}": value for name, value in numbers.items()})
    fields = {name: nw.col(f"{_TEXT}{name}") for name in numbers}
    year, month, day = fields["year"], fields["month"], fields["day"]
    leap = ((year % 4) == 0) & (((year % 100) != 0) | ((year % 400) == 0))
    short = (day == 31) & month.is_in([2, 4, 6, 9, 11])
    february = (month == 2) & ((day == 30) | ((day == 29) & ~leap))
    no_date = clean.is_null() | (short | february | (year < 1)).fill_null(False)
    return lazy, fields, ~text.is_null() & no_date


def time_keys(frame: Any, lazy: Any, column: str, every: str) -> tuple[Any, TimeKeys]:
    """`lazy` with the calendar fields of each row's timestamp in `column` that its
    window of span `every` depends on (see the module), and their names."""
    nw = narwhals()
    span = parse_every(every)
    dtype = lazy.collect_schema()[column]
    engine = source_engine(frame)
    value = nw.col(column)
    months = ["year", "month"]
    if dtype == nw.String:
        lazy, found, bad = _text_fields(nw, lazy, column)
        wanted = months if span.months else [*months, "day"]
    elif dtype == nw.Date or dtype == nw.Datetime:
        zone = getattr(dtype, "time_zone", None)
        if zone is not None and not lazy.implementation.is_polars():
            raise InputError(_zone_message(engine, column, zone))
        # as 64-bit integers: polars gives an hour as 8 bits, where hour * 60 would wrap
        found = {name: getattr(value.dt, name)().cast(nw.Int64) for name in [*months, "minute"]}
        found["hour"] = value.dt.hour().cast(nw.Int64) if dtype == nw.Datetime else None
        found["date"] = value if dtype == nw.Date else value.dt.date()  # days since 1970
        wanted = months if span.months else ["date"]
        # infinity has no year (DuckDB's date of it is the largest date there is)
        bad = ~value.is_null() & found["year"].is_null()
        if span.months:  # engines number the years before 1 differently (0, or -1 BC)
            bad = bad | (found["year"] < 1)
    else:
        msg = (
            f"`time`: the column {column!r} is {dtype} on {engine}, not timestamps, dates "
            "or ISO-8601 text."
        )
        raise InputError(msg)
    columns = {f"{_PREFIX}{name}": found[name] for name in wanted}
    if not span.months and span.seconds < _DAY:
        minute = nw.lit(0) if found["hour"] is None else found["hour"] * 60 + found["minute"]
        columns[f"{_PREFIX}slot"] = (minute // (span.seconds // 60)).cast(nw.Int64)
    columns[f"{_PREFIX}bad"] = bad.fill_null(False)
    fields = tuple(list(columns)[:-1])
    keys = TimeKeys(column, every, fields, f"{_PREFIX}bad", dtype == nw.String)
    return lazy.with_columns(**columns), keys


def _zone_message(engine: str, column: str, zone: str) -> str:
    """Why a zone-aware timestamp is refused on `engine`, and what to do."""
    how = {
        "DuckDB": f"timezone('Europe/Paris', \"{column}\") gives the wall-clock time in Paris",
        "Spark": f"CAST({column} AS TIMESTAMP_NTZ) gives it in the session's time zone",
    }.get(engine, "convert it on the engine to a timestamp without time zone")
    return (
        f"`time`: the column {column!r} holds timestamps with a time zone ({zone}) on "
        f"{engine}, which keeps instants, not the zone they were stored in; informed "
        f"windows a timestamp in the zone it is stored in: give the wall-clock time to "
        f"window as a timestamp without time zone ({how}), or read the files in one process."
    )


def _numbers(column: Any) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """An Arrow column of integers as int64 (0 where null) and where it is null."""
    import pyarrow as pa
    import pyarrow.compute as pc

    missing = np.asarray(pc.is_null(column), dtype=bool)
    filled = pc.fill_null(pc.cast(column, pa.int64()), 0)
    return np.asarray(filled.to_numpy(zero_copy_only=False), dtype=np.int64), missing


def window_of(frame: Any, keys: TimeKeys, found: list[Any]) -> CodedKeys:
    """The window of every group of the grouped counts `found` (concatenated in order),
    floored by `informed.slices.windows.window_codes` from the fetched fields; values
    the engine could not window refused with their count."""
    import pyarrow as pa

    def column(name: str) -> Any:
        return pa.chunked_array([c for g in found for c in g.keys[name].chunks])

    bad = _numbers(found[0].keys[keys.bad])[0] != 0  # every grouped count counts every row
    if bad.any():
        raise InputError(_bad_message(frame, keys, int(found[0].rows[bad].sum())))
    named = dict(zip([f.removeprefix(_PREFIX) for f in keys.fields], keys.fields, strict=True))
    if "date" in named:  # days since 1970, as the engine gives a timestamp's date
        dates = column(named["date"])
        missing = np.asarray(dates.is_null(), dtype=bool)
        days = _numbers(dates.cast(pa.int32()))[0]
    else:
        year, missing = _numbers(column(named["year"]))
        months = (year - 1970) * 12 + _numbers(column(named["month"]))[0] - 1
        days = months.astype("datetime64[M]").astype("datetime64[D]").view(np.int64)
        if "day" in named:
            days = days + _numbers(column(named["day"]))[0] - 1
    stamps = days.astype("datetime64[D]").astype("datetime64[s]")
    if "slot" in named:
        span = parse_every(keys.every)
        stamps = stamps + (_numbers(column(named["slot"]))[0] * span.seconds).astype(
            "timedelta64[s]"
        )
    stamps[missing] = np.datetime64("NaT")
    return window_codes(stamps, keys.every, keys.column)


def _bad_message(frame: Any, keys: TimeKeys, count: int) -> str:
    """The refusal of values the engine cannot window exactly, with how to find them."""
    engine, column = source_engine(frame), keys.column
    quoted = '"' + column.replace('"', '""') + '"'
    if not keys.text:
        months = parse_every(keys.every).months
        before = f" OR year({quoted}) < 1" if months else ""
        where = {
            "polars": f"frame.filter(pl.col({column!r}).dt.year() < 1)",
            "Spark": f"df.filter(year(df[{column!r}]) < 1)",
        }.get(engine, f"WHERE {quoted} IS NOT NULL AND (year({quoted}) IS NULL{before})")
        why = "infinity, or for months a year before 1, numbered differently by engines"
        return (
            f"`time`: {count:,} timestamps of the column {column!r} on {engine} have no "
            f"calendar date that informed can window ({why if months else 'infinity'}); "
            f"find them with {where}."
        )
    pattern = ISO_TEXT.replace("'", "''")
    polars = f"pl.col({column!r})"
    where = {
        "polars": f"frame.filter({polars}.is_not_null() & (~{polars}.str.contains(r'{ISO_TEXT}')"
        f" | {polars}.str.slice(0, 10).str.to_date(strict=False).is_null()))",
        "Spark": f"df.filter(~df[{column!r}].rlike(r'{ISO_TEXT}')) and the days that do not exist",
    }.get(
        engine,
        f"WHERE {quoted} IS NOT NULL AND (NOT regexp_matches({quoted}, '{pattern}') OR "
        f"TRY_CAST(left({quoted}, 10) AS DATE) IS NULL)",
    )
    return (
        f"`time`: {count:,} values of the column {column!r} on {engine} are not timestamps "
        "that the engine can window exactly: text not in ISO 8601 as YYYY-MM-DD or "
        "YYYY-MM-DD[T| ]HH[:MM[:SS[.f]]] with an optional Z or +HH:MM, a day that does not "
        f"exist, or a year before 1. A grouped count cannot name the rows: find them with "
        f"{where}; or read the files in one process."
    )
