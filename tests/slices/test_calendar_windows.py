"""Calendar windows (months, quarters, years) and the fixed spans, against a brute-force
loop of Python `datetime` on random timestamps: across year ends, leap days and 1970,
before 1970, zone-aware values in the zone they are stored in; the windows' names; bad
spans refused in one line; rolling and cumulative windows of calendar months."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from informed.errors import InputError
from informed.slices import Slices
from informed.slices.rolling import accumulate
from informed.slices.windows import parse_every, window_keys
from informed.table import Table

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

EPOCH = dt.datetime(1970, 1, 1)
MONDAY = dt.datetime(1970, 1, 5)
CALENDAR = {
    "1mo": (1, "month"),
    "2mo": (2, "month"),
    "3mo": (3, "month"),
    "5mo": (5, "month"),
    "12mo": (12, "month"),
    "1q": (3, "quarter"),
    "2q": (6, "quarter"),
    "1y": (12, "year"),
    "2y": (24, "year"),
    "5y": (60, "year"),
}
FIXED = {
    "30min": 1800,
    "1h": 3600,
    "6h": 6 * 3600,
    "1d": 86400,
    "7d": 7 * 86400,
    "1w": 7 * 86400,
    "14d": 14 * 86400,
}


def _brute(when: dt.datetime, every: str) -> str:
    """The window of a wall-clock time, one timestamp at a time with Python's datetime:
    the oracle (no numpy)."""
    if every in CALENDAR:
        size, form = CALENDAR[every]
        months = (when.year - 1970) * 12 + when.month - 1
        start = months // size * size  # floored: January 1970 is the anchor
        year, month = 1970 + start // 12, start % 12 + 1
        if form == "month":
            return f"{year:04d}-{month:02d}"
        if form == "quarter":
            return f"{year:04d}-Q{(month - 1) // 3 + 1}"
        return f"{year:04d}"
    size = FIXED[every]
    anchor = MONDAY if size % (7 * 86400) == 0 else EPOCH
    seconds = (when - anchor) // dt.timedelta(seconds=1)
    start = anchor + dt.timedelta(seconds=seconds // size * size)
    return start.strftime("%Y-%m-%d" if size % 86400 == 0 else "%Y-%m-%dT%H:%M")


def _random_times(seed: int, n: int = 400) -> list[dt.datetime]:
    """Wall-clock times from 1600 to 2400, half of them within a day of a year end, a
    leap day or 1970."""
    rng = np.random.default_rng(seed)
    start, stop = dt.datetime(1600, 1, 1), dt.datetime(2400, 1, 1)
    span = (stop - start) // dt.timedelta(seconds=1)
    times = [start + dt.timedelta(seconds=int(s)) for s in rng.integers(0, span, n // 2)]
    edges = [dt.datetime(y, 1, 1) for y in (1900, 1969, 1970, 2000, 2024)]
    edges += [dt.datetime(y, 3, 1) for y in (1900, 1968, 2000, 2024, 2100)]  # after Feb 29?
    for _ in range(n - len(times)):
        edge = edges[int(rng.integers(len(edges)))]
        times.append(edge + dt.timedelta(seconds=int(rng.integers(-86400, 86400))))
    return times


@pytest.mark.parametrize("every", [*CALENDAR, *FIXED])
def test_windows_equal_a_datetime_loop_on_naive_times(every: str) -> None:
    """Naive times (numpy, Python datetimes, ISO text, Arrow): each in the window the
    loop finds, before 1970 included (floored, not truncated towards 1970)."""
    times = _random_times(1)
    expected = [_brute(t, every) for t in times]
    stamps = np.array(times, dtype="datetime64[s]")
    assert window_keys(stamps, every).tolist() == expected
    assert window_keys(np.array(times, dtype=object), every).tolist() == expected
    assert window_keys([t.isoformat() for t in times], every).tolist() == expected
    arrow = pa.array(stamps.astype("datetime64[us]"))
    assert window_keys(arrow, every).tolist() == expected


@pytest.mark.parametrize("zone", ["Europe/Paris", "America/New_York", "Australia/Lord_Howe"])
@pytest.mark.parametrize("every", ["1mo", "1q", "1y", "1d", "1h"])
def test_zone_aware_times_are_windowed_in_the_zone_they_are_stored_in(
    zone: str, every: str
) -> None:
    """Instants stored in a zone (pandas, Arrow, a Parquet file's column) are windowed by
    their wall-clock time there, daylight saving included: the loop converts each
    instant with zoneinfo and reads its local fields; stored in UTC, the UTC fields."""
    rng = np.random.default_rng(2)
    base = [dt.datetime(y, m, 1, tzinfo=dt.UTC) for y in (1965, 2023, 2024) for m in (1, 4, 11)]
    instants = [b + dt.timedelta(seconds=int(s)) for b in base for s in rng.integers(-2e5, 2e5, 12)]
    local = [t.astimezone(ZoneInfo(zone)).replace(tzinfo=None) for t in instants]
    utc = pd.Series(pd.to_datetime([t.replace(tzinfo=None) for t in instants])).dt.tz_localize(
        "UTC"
    )
    stored = utc.dt.tz_convert(zone)
    expected = [_brute(t, every) for t in local]
    assert window_keys(stored, every).tolist() == expected
    assert window_keys(pa.array(stored), every).tolist() == expected
    in_utc = [_brute(t.replace(tzinfo=None), every) for t in instants]
    assert window_keys(utc, every).tolist() == in_utc


def test_iso_text_with_an_offset_keeps_its_wall_clock(tmp_path: Path) -> None:
    """'2024-01-31T23:30-05:00' is 31 January where it was written (in UTC it is already
    February): January, in memory and in a CSV file."""
    from informed.io.sliced import read_slices

    text = ["2024-01-31T23:30-05:00", "2024-02-01T00:10+01:00", "2023-12-31T23:59:59Z"]
    assert window_keys(text, "1mo").tolist() == ["2024-01", "2024-02", "2023-12"]
    path = tmp_path / "t.csv"
    path.write_text("t,y,p\n" + "".join(f"{t},1,1\n" for t in text) + ",0,0\n")
    found = read_slices(path, by=[], time="t", every="1mo", actual="y", predicted="p")
    assert [found.name(k) for k in found.keys] == ["2023-12", "2024-01", "2024-02", "missing"]


def test_window_names_follow_the_unit_written() -> None:
    """Months "2024-03", quarters "2024-Q1", years "2024"; "3mo" and "1q" are the same
    windows, named as written; multiples counted from January 1970."""
    times = np.array(["2024-03-15", "2024-08-01", "2025-01-01"], dtype="datetime64[D]")
    assert window_keys(times, "1mo").tolist() == ["2024-03", "2024-08", "2025-01"]
    assert window_keys(times, "3mo").tolist() == ["2024-01", "2024-07", "2025-01"]
    assert window_keys(times, "1q").tolist() == ["2024-Q1", "2024-Q3", "2025-Q1"]
    assert window_keys(times, "2q").tolist() == ["2024-Q1", "2024-Q3", "2025-Q1"]
    assert window_keys(times, "1y").tolist() == ["2024", "2024", "2025"]
    assert window_keys(times, "2y").tolist() == ["2024", "2024", "2024"]  # 1970, 1972, ...
    assert window_keys(times, "5y").tolist() == ["2020", "2020", "2025"]
    assert parse_every("1q") != parse_every("3mo")
    assert parse_every("1q").months == parse_every("3mo").months == 3
    assert parse_every("1y").months == parse_every("12mo").months == 12


@pytest.mark.parametrize(
    ("every", "said"),
    [
        ("1m", "'m' is ambiguous: write 1min for minutes or 1mo for calendar months"),
        ("3M", "'M' is ambiguous: write 3min for minutes or 3mo for calendar months"),
        ("m", "'m' is ambiguous"),
        ("0mo", "got '0mo'"),
        ("1.5mo", "got '1.5mo'"),
        ("1month", "mo (calendar months), q (quarters) or y (years)"),
        ("1Q", "got '1Q'"),
        ("-1y", "got '-1y'"),
    ],
)
def test_bad_calendar_spans_are_one_line_errors(every: str, said: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_every(every)
    assert said in str(raised.value)
    assert "\n" not in str(raised.value)


def test_slices_from_labels_take_a_time_and_a_span() -> None:
    """Slices.from_labels(time=..., every=...), alone or crossed with `by` (the window
    first): each slice the Table of its rows; the window column named 'time (1mo)'."""
    rng = np.random.default_rng(4)
    times = _random_times(4, 300)
    group = rng.choice(["a", "b"], len(times))
    actual = rng.integers(0, 2, len(times))
    predicted = np.where(rng.random(len(times)) < 0.7, actual, 1 - actual)
    found = Slices.from_labels(
        by=group,
        time=np.array(times, dtype="datetime64[s]"),
        every="1mo",
        actual=actual,
        predicted=predicted,
        names=["group"],
    )
    assert found.by == ("time (1mo)", "group")
    month = np.array([_brute(t, "1mo") for t in times])
    for key in found.keys:
        rows = (month == key[0]) & (group == key[1])
        assert found.table(key) == Table.from_labels(actual=actual[rows], predicted=predicted[rows])
    alone = Slices.from_labels(time=times, every="1y", actual=actual, predicted=predicted)
    assert [k[0] for k in alone.keys] == sorted({_brute(t, "1y") for t in times})
    with pytest.raises(InputError, match="`time` and `every` go together"):
        Slices.from_labels(time=times, actual=actual, predicted=predicted)
    with pytest.raises(InputError, match="pass `by`"):
        Slices.from_labels(actual=actual, predicted=predicted)


@pytest.mark.parametrize(("every", "last"), [("1mo", None), ("1mo", 3), ("1q", 2), ("1y", 1)])
def test_rolling_and_cumulative_months_equal_slicing_those_rows_again(
    every: str, last: int | None
) -> None:
    """Windows of calendar months merged: `last` windows on the calendar (a month
    without rows still counts), or every window up to each one; equal to the Slices of
    the rows in those months, group by group, Tables and Rankings."""
    rng = np.random.default_rng(5)
    months = ["2023-11", "2023-12", "2024-02", "2024-03", "2024-07", "2025-01"]  # gaps
    n = 400
    month = rng.choice(months, n)
    times = np.array([f"{m}-{d:02d}" for m, d in zip(month, rng.integers(1, 29, n), strict=True)])
    group = rng.choice(["a", "b"], n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.7, actual, 1 - actual)
    scores = np.round(rng.random(n), 1)
    found = Slices.from_labels(
        by=group,
        time=times,
        every=every,
        actual=actual,
        predicted=predicted,
        scores=scores,
        positive=1,
    )
    merged = accumulate(found, last=last, every=every)
    size = CALENDAR[every][0]
    index = np.array([(int(t[:4]) - 1970) * 12 + int(t[5:7]) - 1 for t in times]) // size
    for key in found.keys:
        mine = index[np.flatnonzero(window_keys(times, every) == key[0])[0]]
        low = -(10**9) if last is None else mine - last + 1
        rows = (index >= low) & (index <= mine) & (group == key[1])
        assert merged.table(key) == Table.from_labels(
            actual=actual[rows], predicted=predicted[rows]
        )
        again = Slices.from_labels(
            by=group[rows], actual=actual[rows], scores=scores[rows], positive=1
        )
        assert merged.ranking(key) == again.ranking(key[1])
    with pytest.raises(InputError, match="not the name of a window of months"):
        accumulate(
            Slices.from_labels(by=["2024-01-05"], actual=[1], predicted=[1]), last=2, every="1mo"
        )


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "informed", "evaluate", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_every_month_and_quarter(tmp_path: Path) -> None:
    """--every 1mo, 1q on a Parquet file of zone-aware timestamps: the windows the loop
    finds, in time order, each the Table of its rows; --rolling in months; '1m' refused in
    one line saying what m could mean."""
    import json

    import pyarrow.parquet as pq

    rng = np.random.default_rng(6)
    n = 500
    seconds = rng.integers(0, 400 * 86400, n)
    instants = [
        dt.datetime(2023, 6, 1, tzinfo=dt.UTC) + dt.timedelta(seconds=int(s)) for s in seconds
    ]
    local = [t.astimezone(ZoneInfo("Asia/Tokyo")).replace(tzinfo=None) for t in instants]
    actual = rng.choice(["no", "yes"], n)
    predicted = np.where(rng.random(n) < 0.8, actual, rng.choice(["no", "yes"], n))
    frame = pd.DataFrame(
        {
            "t": pd.Series(pd.to_datetime([t.replace(tzinfo=None) for t in instants]))
            .dt.tz_localize("UTC")
            .dt.tz_convert("Asia/Tokyo"),
            "y": actual,
            "p": predicted,
        }
    )
    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path)
    base = [
        str(path),
        "--actual",
        "y",
        "--predicted",
        "p",
        "--positive",
        "yes",
        "--by-time",
        "t",
        "--format",
        "json",
    ]
    for every in ("1mo", "1q"):
        done = _cli(*base, "--every", every)
        assert done.returncode == 0, done.stderr
        slices = json.loads(done.stdout)["slices"]
        windows = np.array([_brute(t, every) for t in local])
        assert [e["key"][0] for e in slices] == sorted(set(windows.tolist()))
        for entry in slices:
            rows = windows == entry["key"][0]
            assert entry["rows"] == int(rows.sum())
    rolled = _cli(*base, "--every", "1mo", "--rolling", "3")
    assert rolled.returncode == 0, rolled.stderr
    last = json.loads(rolled.stdout)["slices"][-1]
    months = np.array([(t.year - 1970) * 12 + t.month - 1 for t in local])
    assert last["rows"] == int((months >= months.max() - 2).sum())
    bad = _cli(*base, "--every", "1m")
    assert bad.returncode == 2
    assert "write 1min for minutes or 1mo for calendar months" in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_polars_text_timestamps_are_read_in_memory() -> None:
    """A polars column of ISO text reaches Arrow as string_view: windowed as the same
    text in a list (it was refused as 'Arrow string_view values')."""
    pl = pytest.importorskip("polars")
    text = ["2024-01-31T23:30", None, "2024-03-31T23:00-05:00", "1969-12-31"]
    assert window_keys(pl.Series(text), "1mo").tolist() == window_keys(text, "1mo").tolist()
    frame = pl.DataFrame({"t": text, "y": [1, 0, 1, 0], "p": [1, 1, 0, 0]})
    found = Slices.from_frame(frame, time="t", every="1y", actual="y", predicted="p")
    assert [found.name(k) for k in found.keys] == ["1969", "2024", "missing"]


@pytest.mark.parametrize("every", ["1mo", "1q", "5y"])
def test_dates_over_more_than_45000_years_are_floored_row_by_row_the_same(every: str) -> None:
    """Months are looked up per day over the days that occur; over a range too wide for
    that table, numpy's calendar floors each row: the same windows for the same times."""
    times = np.array(_random_times(7, 200), dtype="datetime64[s]")
    far = np.concatenate([times, np.array(["-50000-01-01T00:00"], dtype="datetime64[s]")])
    assert window_keys(far, every).tolist()[:-1] == window_keys(times, every).tolist()
    assert window_keys(far, every).tolist()[:-1] == [_brute(t, every) for t in times.tolist()]


@pytest.mark.parametrize(
    "text",
    [
        "2024-03-04",
        "2024-03-04T10",
        "2024-03-04 10:15:30",
        "2024-03-04T10:15:30.123456",
        "2024-03-04T10:15Z",
        "2024-03-04T10:15+02:00",
        "1969-12-31T23:59:59",
        "0001-01-01",
        "2024-3-4",
        "20240304",
        "2024-W10-1",
        "2024-02-30",
        "2024-03-04T10:15:30,5",
        "2024-03-04T10:15:30.1234567",
        "",
        None,
    ],
)
def test_text_read_by_arrow_as_python_reads_it(text: str | None) -> None:
    """Text from numpy or a list goes through pyarrow's cast (10^6 rows: 0.5 s, where the
    row-by-row reader took 4.5 s); every form gives what Python's reader gives, the same
    value or the same error."""
    from informed.slices.windows import _parse, _text_times

    column = np.array([text, "2024-01-01T00:00"], dtype=object)

    def read(reader: Any) -> Any:
        try:
            return reader(column, "t", None).tolist()
        except InputError as error:
            return str(error)

    assert read(_text_times) == read(_parse)
