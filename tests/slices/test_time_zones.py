"""Zone-aware timestamps are windowed on the wall clock Python's zoneinfo gives, on every
route: pandas (zones named by text, which pandas hands to pytz, or by ZoneInfo), Arrow
arrays and tables, polars in memory and lazy, a Parquet file through the command line.
pyarrow's `local_timestamp` and pytz stop at a zone's last listed transition (2037), so
that 2042-07-16 22:30 UTC was windowed on 16 July in Paris (00:30 on 17 July there).

The oracle converts each instant alone with `datetime.astimezone(ZoneInfo(zone))`, at
random instants from 1900 to 2100 and around every change of offset that a scan of
zoneinfo finds, in zones north and south, with half-hour offsets and daylight saving of
30 minutes; then in every zone zoneinfo knows. (The Dask route: tests/dask.)
"""

from __future__ import annotations

import datetime as dt
import json
import struct
import zoneinfo
from collections import Counter
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from zone_oracle import changes, expected, instants, midnights, offset

from informed.errors import InputError
from informed.slices import Slices
from informed.slices.windows import window_keys
from informed.slices.zones import wall_clock

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

ZONES = [
    "Europe/Paris",
    "America/New_York",
    "Australia/Sydney",  # southern: summer time across the new year
    "Australia/Lord_Howe",  # daylight saving of 30 minutes
    "Asia/Kolkata",  # +05:30, and offsets in seconds before 1906
]
EVERY = ["30min", "1h", "1d", "1mo"]


def _utc(seconds: np.ndarray[Any, Any]) -> Any:
    """The instants as a pandas column in UTC."""
    return pd.Series(seconds.astype("datetime64[s]").astype("datetime64[ns]")).dt.tz_localize("UTC")


def _labels(n: int) -> dict[str, Any]:
    rng = np.random.default_rng(n)
    actual = rng.choice(["yes", "no"], n)
    return {"y": actual, "p": np.where(rng.random(n) < 0.7, actual, "no")}


def _counts(expected: list[str]) -> dict[str, int]:
    return dict(sorted(Counter(expected).items()))


def _slice_counts(found: Slices) -> dict[str, int]:
    return {key[0]: int(rows) for key, rows in zip(found.keys, found.rows, strict=True)}


def test_2042_in_paris_is_in_summer_time_on_every_route_in_memory() -> None:
    """The issue's instant: 2042-07-16 22:30 UTC is 00:30 on 17 July in Paris, the day
    and hour of its window through pandas (text and ZoneInfo zones), Arrow, polars."""
    import polars as pl

    instant = dt.datetime(2042, 7, 16, 22, 30, tzinfo=dt.UTC)
    assert instant.astimezone(ZoneInfo("Europe/Paris")).isoformat() == "2042-07-17T00:30:00+02:00"
    utc = pd.Series([instant, None]).dt.tz_convert("UTC")
    forms = [
        utc.dt.tz_convert("Europe/Paris"),
        utc.dt.tz_convert(ZoneInfo("Europe/Paris")),
        pd.DatetimeIndex(utc.dt.tz_convert("Europe/Paris")),
        pa.array([instant, None], pa.timestamp("us", "Europe/Paris")),
        pl.Series([instant, None]).dt.convert_time_zone("Europe/Paris"),
    ]
    for form in forms:
        assert window_keys(form, "1d").tolist() == ["2042-07-17", None]
        assert window_keys(form, "1h").tolist() == ["2042-07-17T00:00", None]


@pytest.mark.parametrize("zone", ZONES)
def test_in_memory_routes_agree_with_zoneinfo_1900_to_2100(zone: str) -> None:
    """pandas (zone by text, by ZoneInfo, a DatetimeIndex), Arrow arrays of every unit,
    polars Series: each instant in the window of its wall clock in zoneinfo."""
    import polars as pl

    seconds = instants(zone, 1)
    utc = _utc(seconds)
    forms = {
        "pandas text zone": utc.dt.tz_convert(zone),
        "pandas ZoneInfo": utc.dt.tz_convert(ZoneInfo(zone)),
        "DatetimeIndex": pd.DatetimeIndex(utc.dt.tz_convert(zone)),
        "pandas Arrow dtype": utc.dt.tz_convert(zone).astype(
            pd.ArrowDtype(pa.timestamp("us", zone))
        ),
        "Arrow s": pa.array(seconds, pa.timestamp("s", zone)),
        "Arrow ns": pa.array(seconds * 10**9, pa.timestamp("ns", zone)),
        "Arrow chunked": pa.chunked_array(
            [pa.array(part * 1000, pa.timestamp("ms", zone)) for part in np.array_split(seconds, 3)]
        ),
        "polars": pl.from_arrow(pa.array(seconds * 10**6, pa.timestamp("us", zone))),
    }
    for every in EVERY:
        wanted = expected(zone, seconds, every)
        for name, form in forms.items():
            assert window_keys(form, every).tolist() == wanted, (name, every)


@pytest.mark.parametrize("zone", ZONES)
def test_frames_agree_with_zoneinfo(zone: str) -> None:
    """Slices.from_frame of a pandas DataFrame, an Arrow table, a polars DataFrame (in
    memory) and a polars LazyFrame (its fields counted by polars): every window's rows as
    the oracle counts them."""
    import polars as pl

    seconds = instants(zone, 2)
    table = pa.table({"t": pa.array(seconds, pa.timestamp("s", zone)), **_labels(seconds.size)})
    frames = {
        "pandas": table.to_pandas(),
        "Arrow": table,
        "polars": pl.from_arrow(table),
        "polars lazy": pl.from_arrow(table).lazy(),  # type: ignore[union-attr]
    }
    for every in ("1h", "1d", "1mo"):
        wanted = _counts(expected(zone, seconds, every))
        for name, frame in frames.items():
            found = Slices.from_frame(frame, time="t", every=every, actual="y", predicted="p")
            assert _slice_counts(found) == wanted, (name, every)


@pytest.mark.parametrize("zone", ["Europe/Paris", "America/New_York", "Australia/Sydney"])
def test_a_parquet_file_through_the_command_line_agrees_with_zoneinfo(
    zone: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed evaluate FILE.parquet --by-time t --every 1d`: the rows of each day as
    the oracle counts them, after 2037 too."""
    import pyarrow.parquet as pq

    from informed.cli.main import main

    seconds = midnights(zone, 3)
    table = pa.table(
        {"t": pa.array(seconds * 10**6, pa.timestamp("us", zone)), **_labels(seconds.size)}
    )
    path = tmp_path / "times.parquet"
    pq.write_table(table, path, row_group_size=100)  # read in several batches
    options = ["--actual", "y", "--predicted", "p", "--positive", "yes", "--format", "json"]
    assert main(["evaluate", str(path), *options, "--by-time", "t", "--every", "1d"]) == 0
    slices = json.loads(capsys.readouterr().out)["slices"]
    found = {entry["key"][0]: entry["rows"] for entry in slices}
    assert found == _counts(expected(zone, seconds, "1d"))


def test_every_zone_of_zoneinfo_agrees() -> None:
    """Every zone zoneinfo knows (its footer rules: southern, negative daylight saving as
    in Dublin, transitions at 25:00 or -1:00, none at all): wall_clock gives zoneinfo's
    wall clock at random instants 1800-2200 and after the last listed transition."""
    rng = np.random.default_rng(4)
    zones = sorted(zoneinfo.available_timezones())
    assert len(zones) > 300
    for name in zones:
        zone = ZoneInfo(name)
        seconds = np.concatenate(
            [rng.integers(-5364662400, 7258118400, 30), rng.integers(2145916800, 16725225600, 30)]
        )
        found = wall_clock(seconds.astype("datetime64[s]"), name).view(np.int64) - seconds
        wanted = [offset(zone, s) for s in seconds.tolist()]
        assert found.tolist() == wanted, name


@pytest.mark.parametrize("zone", ["Europe/Paris", "Australia/Lord_Howe", "Europe/Dublin"])
def test_beyond_year_9999_the_rule_repeats_every_400_years(zone: str) -> None:
    """Past the years datetime holds, the footer's rule goes on: the Gregorian calendar
    repeats every 400 years (146,097 days, whole weeks), so an instant in year 10,000 to
    300,000 has the offset zoneinfo gives 400 k years earlier (in 2400-2799). Instants over
    more than 100,000 years take the route that reads only the years that occur."""
    rng = np.random.default_rng(5)
    cycle = 146097 * 86400
    base = np.datetime64("2400-01-01", "s").astype(np.int64) + rng.integers(0, cycle, 400)
    seconds = base + rng.integers(19, 750, base.size) * cycle
    wanted = [offset(ZoneInfo(zone), s) for s in base.tolist()]
    found = wall_clock(seconds.astype("datetime64[s]"), zone).view(np.int64) - seconds
    assert found.tolist() == wanted
    with_1970 = np.append(seconds, 0).astype("datetime64[s]")  # the listed transitions too
    assert (wall_clock(with_1970, zone).view(np.int64) - with_1970.view(np.int64))[
        :-1
    ].tolist() == wanted


@pytest.mark.parametrize("buckets", [None, 64])
@pytest.mark.parametrize("zone", ["Europe/Paris", "Australia/Lord_Howe"])
def test_many_instants_over_a_few_years_are_looked_up_by_day(
    zone: str, buckets: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More instants than four times their days take the table of offsets by day (only
    the days with a change searched): every half hour of 2036-2043 and each second
    around the changes, as zoneinfo gives them; with the table held to 64 spans of
    46 days (as instants over more than 11,000 years are), too."""
    from informed.slices import zones

    if buckets is not None:
        monkeypatch.setattr(zones, "_BUCKETS", buckets)
    low, high = 2082844800, 2335219200  # 2036 to 2043
    near = np.array([c for c in changes(zone) if low <= c < high])
    seconds = np.concatenate([np.arange(low, high, 1800), np.add.outer(near, [-1, 0, 1]).ravel()])
    np.random.default_rng(8).shuffle(seconds)
    assert seconds.size > 4 * (high - low) // 86400
    wanted = [offset(ZoneInfo(zone), s) for s in seconds.tolist()]
    found = wall_clock(seconds.astype("datetime64[s]"), zone).view(np.int64) - seconds
    assert found.tolist() == wanted


def _tzif(times: list[int], index: list[int], types: list[tuple[int, int]], footer: str) -> bytes:
    """A TZif file (RFC 8536): version 1 (32-bit times, no footer) if `footer` is "",
    else version 2 with its footer."""
    chars = b"AAA\0"

    def block(form: str, version: bytes) -> bytes:
        counts = (0, 0, 0, len(times), len(types), len(chars))
        head = struct.pack(">4sc15x6l", b"TZif", version, *counts)
        kinds = b"".join(struct.pack(">lbB", utc, dst, 0) for utc, dst in types)
        return head + struct.pack(f">{len(times)}{form}", *times) + bytes(index) + kinds + chars

    if not footer:
        return block("l", b"\0")
    return block("l", b"2") + block("q", b"2") + f"\n{footer}\n".encode()


FILES = {  # rules no zone of the tz database uses today
    "Julian": ([], [], [(10800, 0)], "AAA-3BBB,J59/1,J300/25"),  # Jn: 29 February skipped
    "Zero_Based": ([], [], [(7200, 0)], "AAA-2BBB,59/0,300/-3"),  # n counts 29 February
    "Southern": ([], [], [(36000, 0)], "AAA-10BBB-10:30,J280,J90/3"),
    "All_Year": ([], [], [(0, 0)], "AAA0BBB,0/0,J365/25"),  # always daylight saving
    "Version_1": (  # no footer: the last transition's type after it; before the first,
        [-1000000000, 0, 1500000000],  # the first type that is not daylight saving
        [0, 2, 1],
        [(7200, 1), (3600, 0), (-1800, 0)],
        "",
    ),
}


def test_files_zoneinfo_reads_with_rules_no_zone_uses_yet(tmp_path: Path) -> None:
    """TZif files of our own, found on zoneinfo's TZPATH: day-of-year rules (Jn, n),
    transitions at 25:00 and -3:00, daylight saving all year, a version 1 file: the
    wall clock zoneinfo gives, at instants of every hour of eight years and at random."""
    rng = np.random.default_rng(7)
    hours = [
        np.arange(0, 366 * 86400, 3600) + 86400 * 365 * (y - 1970)
        for y in (1904, 2000, 2003, 2042, 2100, 2101, 2396, 2400)
    ]
    seconds = np.concatenate([*hours, rng.integers(-5364662400, 13569465600, 2000)])
    folder = tmp_path / "Informed_Test"
    folder.mkdir()
    for name, parts in FILES.items():
        (folder / name).write_bytes(_tzif(*parts))
    original = zoneinfo.TZPATH
    keys = [f"Informed_Test/{name}" for name in FILES]
    zoneinfo.reset_tzpath(to=[str(tmp_path)])
    try:
        for key in keys:
            wanted = [offset(ZoneInfo(key), s) for s in seconds.tolist()]
            found = wall_clock(seconds.astype("datetime64[s]"), key).view(np.int64) - seconds
            assert found.tolist() == wanted, key
    finally:
        zoneinfo.reset_tzpath(to=original)
        ZoneInfo.clear_cache(only_keys=keys)


def test_fixed_offsets_and_zones_without_a_name() -> None:
    """Arrow's fixed offsets (+05:30, -0330) and datetime.timezone agree with zoneinfo; a
    dateutil zone (no name zoneinfo knows) is asked once per distinct second, so its
    windows are the ones its own offsets give. That is zoneinfo's answer until 2037;
    after it, dateutil reading the system's TZif file (as it does where the tzdata package
    is installed) ignores the file's footer rule and drops daylight saving time, and the
    windows follow the zone object the user chose."""
    dateutil = pytest.importorskip("dateutil.tz")
    seconds = instants("America/New_York", 6, count=300)
    utc = _utc(seconds)
    after_1945 = seconds[seconds > 0]  # Kolkata has kept +05:30 since 1945
    newfoundland = dt.timezone(-dt.timedelta(hours=3, minutes=30))
    york_zone = dateutil.gettz("America/New_York")
    york = utc.dt.tz_convert(york_zone)
    until_2037 = seconds < 2**31
    york_windows = expected(york_zone, seconds, "30min")
    assert (
        np.array(york_windows)[until_2037].tolist()
        == np.array(expected("America/New_York", seconds, "30min"))[until_2037].tolist()
    )
    for every in ("30min", "1d"):
        arrow = pa.array(after_1945, pa.timestamp("s", "+05:30"))
        assert window_keys(arrow, every).tolist() == expected("Asia/Kolkata", after_1945, every)
        shifted = expected(newfoundland, seconds, every)
        assert window_keys(pa.array(seconds, pa.timestamp("s", "-0330")), every).tolist() == shifted
        assert window_keys(utc.dt.tz_convert(newfoundland), every).tolist() == shifted
        assert window_keys(york, every).tolist() == expected(york_zone, seconds, every)


def test_a_zone_zoneinfo_does_not_know_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A column of an Arrow array or a Parquet file in a zone zoneinfo does not know, or
    an instant beyond any calendar, is refused in one line naming the column (and the
    file, or the row), never windowed in UTC."""
    import pyarrow.parquet as pq

    from informed.cli.main import main

    unknown = pa.array([None, 0], pa.timestamp("s", "Mars/Olympus_Mons"))
    with pytest.raises(
        InputError, match=r"^`when`: .*'Mars/Olympus_Mons', which Python's zoneinfo"
    ):
        window_keys(unknown, "1d", name="when")
    path = tmp_path / "mars.parquet"
    pq.write_table(pa.table({"when": unknown, "y": ["yes", "no"], "p": ["yes", "yes"]}), path)
    options = ["--actual", "y", "--predicted", "p", "--positive", "yes"]
    assert main(["evaluate", str(path), *options, "--by-time", "when", "--every", "1d"]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith("informed: error: ") and "\n" not in said
    # the first row with a timestamp
    assert f"{path} data row 2, column 'when': its timestamps are in the time zone" in said
    far = pa.array([5, None, 2**62 + 1], pa.timestamp("s", "Europe/Paris"))
    with pytest.raises(InputError, match=r"^`time` at row 3 \(index 2\): .* beyond any calendar"):
        window_keys(far, "1d")
    assert window_keys(pa.array([None], pa.timestamp("s", "Europe/Paris")), "1d").tolist() == [None]
