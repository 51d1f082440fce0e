"""Time windows counted on an engine (polars, DuckDB, ibis): the calendar fields of each
row's wall-clock time counted there and floored by informed give the Slices of the same
rows in one process, exactly; what an engine cannot read exactly (zone-aware instants,
text that is not ISO 8601 in the forms the engine checks, dates that do not exist) is
refused in one line with what to do."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from engine_data import engine_frames

from informed.errors import InputError
from informed.slices import Slices

for _package in ("narwhals", "duckdb", "polars", "ibis"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")

SPANS = ["30min", "1h", "6h", "1d", "7d", "14d", "1mo", "5mo", "1q", "1y", "2y"]


def _times(seed: int, n: int = 600) -> pa.Table:
    """Predictions with timestamps (microseconds, before 1970 and after, near year ends
    and leap days), the same as dates, as ISO-8601 text in several forms (offsets kept
    as written), nulls in each; a group, scores with ties, weights in quarters."""
    rng = np.random.default_rng(seed)
    base = rng.choice(
        np.array(
            ["1969-12-31", "1970-01-01", "2000-02-28", "2023-12-31", "2024-02-29"],
            dtype="datetime64[us]",
        ),
        n,
    )
    when = base + rng.integers(-3 * 86400, 3 * 86400, n).astype("timedelta64[s]")
    when = when + rng.integers(0, 10**6, n).astype("timedelta64[us]")
    far = rng.random(n) < 0.3
    when[far] = np.datetime64("1850-01-01", "us") + rng.integers(
        0, 300 * 365 * 86400, int(far.sum())
    ).astype("timedelta64[s]")
    missing = rng.random(n) < 0.05
    stamps = pa.array(when, mask=missing)
    forms = [
        "%Y-%m-%dT%H:%M:%S.%f",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%d",
        "%Y-%m-%dT%H",
        "%Y-%m-%dT%H:%M:%SZ",
        "%Y-%m-%dT%H:%M+05:30",
        "%Y-%m-%d %H:%M:%S-08:00",
    ]
    text = [
        None if m else w.astype(dt.datetime).strftime(forms[i % len(forms)])
        for i, (w, m) in enumerate(zip(when, missing, strict=True))
    ]
    y = rng.choice(["yes", "no"], n)
    return pa.table(
        {
            "t": stamps,
            "d": pa.array(when.astype("datetime64[D]"), mask=missing),
            "text": pa.array(text, type=pa.string()),
            "y": y,
            "p": np.where(rng.random(n) < 0.7, y, "no"),
            "g": rng.choice(["a", "b"], n),
            "s": np.round(rng.random(n), 1),
            "w": rng.integers(0, 5, n) / 4,
        }
    )


@pytest.fixture(scope="module")
def data(tmp_path_factory: Any) -> tuple[pa.Table, dict[str, Any]]:
    table = _times(0)
    return table, engine_frames(table, tmp_path_factory.mktemp("times"), parts=3)


@pytest.mark.parametrize("engine", ["polars", "duckdb", "ibis"])
@pytest.mark.parametrize("column", ["t", "d", "text"])
def test_windows_on_an_engine_equal_those_in_memory(
    data: tuple[pa.Table, dict[str, Any]], engine: str, column: str
) -> None:
    """Every span, timestamps, dates and ISO text: the Slices of the frame counted on its
    engine (Tables and Rankings, weighted and not, crossed with a group or alone) equal
    those of the same rows in memory, the window "missing" included."""
    memory, frames = data
    options = {"actual": "y", "predicted": "p", "scores": "s", "positive": "yes"}
    for every in SPANS:
        expected = Slices.from_frame(memory, by="g", time=column, every=every, **options)
        found = Slices.from_frame(frames[engine], by="g", time=column, every=every, **options)
        assert found == expected, every
        assert found.by == (f"{column} ({every})", "g") and found.keys[-1][0] is None
    weighted = {"actual": "y", "predicted": "p", "weights": "w", "time": column, "every": "1mo"}
    assert Slices.from_frame(frames[engine], **weighted) == Slices.from_frame(memory, **weighted)


def test_zone_aware_timestamps_polars_keeps_its_zone_duckdb_is_refused() -> None:
    """polars stores a zone with its timestamps: windowed there, as in memory (daylight
    saving included). DuckDB's TIMESTAMPTZ holds instants shown in the session's zone:
    refused in one line that says how to give the wall-clock time."""
    import duckdb
    import polars as pl

    rng = np.random.default_rng(1)
    n = 300
    when = np.datetime64("2024-03-30T12:00", "us") + rng.integers(0, 3 * 86400, n).astype(
        "timedelta64[s]"
    )
    paris = pa.array(when, type=pa.timestamp("us", tz="Europe/Paris"))  # UTC instants
    table = pa.table(
        {"t": paris, "y": rng.choice(["yes", "no"], n), "p": rng.choice(["yes", "no"], n)}
    )
    options = {"actual": "y", "predicted": "p"}
    for every in ("1h", "1d", "1mo"):
        lazy = pl.from_arrow(table).lazy()
        assert Slices.from_frame(lazy, time="t", every=every, **options) == Slices.from_frame(
            table, time="t", every=every, **options
        )
    relation = duckdb.connect().from_arrow(table)
    with pytest.raises(InputError) as refused:
        Slices.from_frame(relation, time="t", every="1d", **options)
    said = str(refused.value)
    assert "timestamps with a time zone" in said and "timezone('Europe/Paris', \"t\")" in said
    assert "\n" not in said


def _python_fields(text: str) -> tuple[int, int, int, int, int] | None:
    """The wall-clock fields of ISO text as Python reads it in one process, or None."""
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return when.year, when.month, when.day, when.hour, when.minute


def _strings() -> list[str]:
    """ISO-8601 text and near misses: days that do not exist, hours and offsets out of
    range, other separators and forms Python reads (and the engines refuse)."""
    dates = [
        "2024-02-29",
        "2023-02-29",
        "1900-02-29",
        "2000-02-29",
        "2024-02-30",
        "2024-04-31",
        "2024-12-31",
        "2024-13-01",
        "2024-00-10",
        "0000-01-01",
        "0001-01-01",
        "2024-1-05",
        "20240105",
        "2024-W10-1",
    ]
    times = [
        "",
        "T10",
        " 23",
        "T10:15",
        "T23:59:59",
        "T00:00:00.5",
        "T12:30:15.123456789",
        "T24:00",
        "T23:60",
        "T10:15:60",
        "t10:15",
        "X10:15",
        "T10:15:00,5",
        "T10:15:00.",
    ]
    offsets = ["", "Z", "+05:30", "-08:00", "+24:00", "+0100", "+01", "+01:00:30", "\n"]
    found = [d + t + o for d, t, o in itertools.product(dates, times, offsets)]
    return [*found, " 2024-01-01", "2024-01-01 ", "", "soon", "2024-01-01+01:00"]


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_text_the_engine_accepts_is_read_as_python_reads_it(engine: str) -> None:
    """Every string the engine's check accepts is read by Python's fromisoformat (the
    one-process reader) with the same year, month, day, hour and minute; every string
    Python refuses the engine flags (the engine may refuse more: the call is then
    refused, never approximated)."""
    import duckdb
    import narwhals as nw
    import polars as pl

    from informed.engines.windows import time_keys

    strings = _strings()
    table = pa.table({"x": pa.array(strings, type=pa.string())})
    frame = (
        pl.from_arrow(table).lazy() if engine == "polars" else duckdb.connect().from_arrow(table)
    )
    lazy = nw.from_native(frame)
    lazy, keys = time_keys(frame, lazy, "x", "30min")
    got = lazy.select("x", *keys.keys).collect(backend="pyarrow").to_native().to_pylist()
    accepted = 0
    for row in got:
        python = _python_fields(row["x"])
        if row[keys.bad]:
            continue
        accepted += 1
        assert python is not None, row["x"]
        year, month, day, slot = (row[name] for name in keys.fields)
        assert (year, month, day) == python[:3], row["x"]
        assert slot == (python[3] * 60 + python[4]) // 30, row["x"]
    kept = {row["x"] for row in got if not row[keys.bad]}  # no blanket refusal
    assert (
        accepted > 50
        and {
            "2024-02-29T12:30:15.123456789+05:30",
            "0001-01-01 23",
            "2000-02-29T10:15Z",
            "2024-12-31",
            "2024-02-29T00:00:00.5-08:00",
        }
        <= kept
    )
    wrong = [s for s in strings if _python_fields(s) is None]
    flagged = {row["x"] for row in got if row[keys.bad]}
    assert set(wrong) <= flagged


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_text_an_engine_cannot_window_is_refused_with_its_count(engine: str) -> None:
    """'2024-02-30' and 'soon' among good text: one line with the count (2) and the
    filter that finds them, which run on the engine finds exactly those; a null is the
    window "missing", not refused."""
    import duckdb
    import polars as pl

    table = pa.table(
        {
            "t": ["2024-02-29", "2024-02-30", None, "soon", "2024-03-01T10:00"],
            "y": [1, 0, 1, 0, 1],
            "p": [1, 0, 0, 0, 1],
        }
    )
    connection = duckdb.connect()
    frame = pl.from_arrow(table).lazy() if engine == "polars" else connection.from_arrow(table)
    with pytest.raises(InputError) as refused:
        Slices.from_frame(frame, time="t", every="1mo", actual="y", predicted="p")
    said = str(refused.value)
    assert said.startswith("`time`: 2 values of the column 't'") and "\n" not in said
    where = said[said.index("find them with ") + 15 : said.index("; or read")]
    if engine == "polars":
        shown = eval(where, {"pl": pl, "frame": pl.from_arrow(table)})
        assert shown["t"].to_list() == ["2024-02-30", "soon"]
    else:
        connection.register("rows", table)
        assert connection.sql(f"SELECT t FROM rows {where}").fetchall() == [
            ("2024-02-30",),
            ("soon",),
        ]
    good = table.filter(pa.array([True, False, True, False, True]))
    frame = pl.from_arrow(good).lazy() if engine == "polars" else connection.from_arrow(good)
    found = Slices.from_frame(frame, time="t", every="1mo", actual="y", predicted="p")
    assert [k[0] for k in found.keys] == ["2024-02", "2024-03", None]


def test_a_timestamp_without_a_calendar_date_is_refused() -> None:
    """DuckDB's infinity has no year: refused with the filter that finds it."""
    import duckdb

    connection = duckdb.connect()
    connection.sql(
        "CREATE TABLE rows AS SELECT * FROM (VALUES (TIMESTAMP 'infinity', 1, 1), "
        "(TIMESTAMP '2024-01-01', 0, 0)) AS v(t, y, p)"
    )
    with pytest.raises(InputError) as refused:
        Slices.from_frame(connection.table("rows"), time="t", every="1d", actual="y", predicted="p")
    said = str(refused.value)
    assert said.startswith("`time`: 1 timestamps of the column 't' on DuckDB have no calendar")
    where = said[said.index("find them with ") + 15 : -1]
    assert len(connection.sql(f"SELECT t FROM rows {where}").fetchall()) == 1
    # before year 1: days since 1970 are the same everywhere, windowed; months refused
    connection.sql(
        "CREATE TABLE old AS SELECT * FROM (VALUES (DATE '0001-01-01' - 400, 1, 1), "
        "(DATE '2024-01-01', 0, 0)) AS v(t, y, p)"
    )
    days = np.array(["-001-11-28", "2024-01-01"], dtype="datetime64[D]")
    expected = Slices.from_labels(time=days, every="7d", actual=[1, 0], predicted=[1, 0])
    found = Slices.from_frame(
        connection.table("old"), time="t", every="7d", actual="y", predicted="p"
    )
    assert found.keys == expected.keys and found.overall == expected.overall
    with pytest.raises(InputError, match="for months a year before 1"):
        Slices.from_frame(connection.table("old"), time="t", every="1mo", actual="y", predicted="p")


def test_a_column_of_numbers_is_no_time() -> None:
    import duckdb

    relation = duckdb.sql("SELECT 1 AS t, 1 AS y, 1 AS p")
    with pytest.raises(InputError, match="`time`: the column 't' is Int32 on DuckDB, not"):
        Slices.from_frame(relation, time="t", every="1d", actual="y", predicted="p")
