"""Time windows: calendar-aware keys in the stored time zone, a bad timestamp named by row,
and `informed evaluate --by-time COL --every SPAN` equal to a loop over windows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from informed.errors import InputError
from informed.slices.windows import parse_every, window_keys
from informed.table import Table, evaluate


def test_days_start_at_local_midnight_across_daylight_saving() -> None:
    """Paris, 31 March 2024 (clocks go forward): 23:30 local on the 30th is in the 30th's
    window, 00:30 local on the 31st in the 31st's, whatever UTC says."""
    pd = pytest.importorskip("pandas")
    times = pd.Series(
        pd.to_datetime(["2024-03-30 23:30", "2024-03-31 00:30", "2024-03-31 23:59"])
    ).dt.tz_localize("Europe/Paris")
    assert window_keys(times, "1d").tolist() == ["2024-03-30", "2024-03-31", "2024-03-31"]
    utc = times.dt.tz_convert("UTC")  # stored in UTC: UTC days
    assert window_keys(utc, "1d").tolist() == ["2024-03-30", "2024-03-30", "2024-03-31"]


def test_weeks_start_on_monday_and_hours_on_the_hour() -> None:
    """7d and 1w are weeks from Monday; 1h windows start at whole hours (ISO keys)."""
    days = np.array(["2024-03-03", "2024-03-04", "2024-03-10", "2024-03-11"], dtype="datetime64[D]")
    assert window_keys(days, "1w").tolist() == [
        "2024-02-26",
        "2024-03-04",
        "2024-03-04",
        "2024-03-11",
    ]
    hours = np.array(["2024-03-04T10:59:59", "2024-03-04T11:00"], dtype="datetime64[s]")
    assert window_keys(hours, "1h").tolist() == ["2024-03-04T10:00", "2024-03-04T11:00"]
    pa = pytest.importorskip("pyarrow")
    arrow = pa.array(hours.astype("datetime64[us]"))
    assert window_keys(arrow, "6h").tolist() == ["2024-03-04T06:00", "2024-03-04T06:00"]


@pytest.mark.parametrize("every", ["0d", "1m", "7h", "36h", "d", 1])
def test_bad_spans_are_refused(every: object) -> None:
    with pytest.raises(InputError, match="`every`"):
        parse_every(every)  # type: ignore[arg-type]


def test_a_bad_timestamp_is_a_one_line_error_naming_its_row() -> None:
    with pytest.raises(InputError, match=r"`when` holds 'soon' at row 2 \(index 1\)"):
        window_keys(np.array(["2024-01-01", "soon"], dtype=object), "1d", "when")


def test_cli_by_time_equals_a_loop_over_windows(tmp_path: Path) -> None:
    """--by-time t --every 1d --by g: one slice per (day, group), each equal to the Table
    of its rows; a bad timestamp in the file is an error naming the data row."""
    rng = np.random.default_rng(0)
    n = 600
    day = rng.integers(1, 4, n)
    hour = rng.integers(0, 24, n)
    group = rng.choice(["a", "b"], n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.8, actual, 1 - actual)
    stamps = [f"2024-05-0{d}T{h:02d}:15:00" for d, h in zip(day, hour, strict=True)]
    path = tmp_path / "t.csv"
    path.write_text(
        "t,g,y,p\n"
        + "".join(
            f"{t},{g},{a},{p}\n"
            for t, g, a, p in zip(stamps, group, actual, predicted, strict=True)
        )
    )
    base = [
        sys.executable,
        "-m",
        "informed",
        "evaluate",
        str(path),
        "--actual",
        "y",
        "--predicted",
        "p",
        "--positive",
        "1",
        "--by-time",
        "t",
        "--every",
        "1d",
        "--by",
        "g",
    ]
    done = subprocess.run([*base, "--format", "json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert [e["key"] for e in document["slices"]] == [
        [f"2024-05-0{d}", g] for d in (1, 2, 3) for g in ("a", "b")
    ]
    for entry in document["slices"]:
        rows = (np.array([s[:10] for s in stamps]) == entry["key"][0]) & (group == entry["key"][1])
        table = Table.from_labels(
            actual=actual[rows].astype(str), predicted=predicted[rows].astype(str)
        )
        assert (
            entry["measures"]["informedness"]
            == evaluate(table, positive="1").measures["informedness"]
        )
    cumulative = subprocess.run(
        [*base, "--cumulative", "--format", "json"], capture_output=True, text=True, check=True
    )
    last = [e for e in json.loads(cumulative.stdout)["slices"] if e["key"][0] == "2024-05-03"]
    assert [e["rows"] for e in last] == [int((group == "a").sum()), int((group == "b").sum())]
    alone = subprocess.run(
        [*base[:-4], "--by", "g", "--cumulative"], capture_output=True, text=True, check=False
    )
    assert alone.returncode == 2 and "--by-time" in alone.stderr
    text = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    assert text.index("2024-05-01") < text.index("2024-05-02") < text.index("2024-05-03")
    path.write_text("t,g,y,p\n2024-05-01T10:00,a,1,1\nyesterday,a,0,0\n")
    bad = subprocess.run(base, capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    assert f"{path} data row 2, column 't': 'yesterday' is not an ISO-8601" in bad.stderr
    assert bad.stderr.count("\n") == 1


@pytest.mark.parametrize("last", [None, 1, 2])
def test_cumulative_and_rolling_windows_equal_slicing_those_rows_again(last: int | None) -> None:
    """accumulate merges adjacent windows' summaries: equal to the Slices of the rows of
    windows up to t (the `last` windows up to t), group by group."""
    from informed.slices import Slices
    from informed.slices.rolling import accumulate

    rng = np.random.default_rng(3)
    n = 500
    day = np.array([f"2024-01-0{d}" for d in rng.integers(1, 6, n)])
    group = rng.choice(["a", "b"], n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.7, actual, 1 - actual)
    scores = np.round(rng.random(n), 1)
    s = Slices.from_labels(
        by=[day, group], actual=actual, predicted=predicted, scores=scores, positive=1
    )
    rolled = accumulate(s, last=last)
    days = sorted(set(day.tolist()))
    for key in s.keys:
        here = days.index(key[0])
        window = days[: here + 1] if last is None else days[max(0, here - last + 1) : here + 1]
        rows = np.isin(day, window) & (group == key[1])
        assert rolled.table(key) == Table.from_labels(
            actual=actual[rows], predicted=predicted[rows]
        )
        again = Slices.from_labels(
            by=group[rows], actual=actual[rows], scores=scores[rows], positive=1
        )
        assert rolled.ranking(key) == again.ranking(key[1])
        assert rolled.rows[rolled.index(key)] == rows.sum()


def test_nan_in_a_time_list_is_the_missing_window() -> None:
    """A list of timestamps with NaN among them (of numpy's datetimes, text, float32 NaN),
    or of NaN only: those rows are in the window "missing", as None and NaT are; numpy
    datetimes beside a NaN were refused as no ISO-8601 timestamp."""
    expected = ["2024-01", None, "2024-02", None]
    lists = [
        [np.datetime64("2024-01-05"), float("nan"), np.datetime64("2024-02-03"), None],
        ["2024-01-05", np.float32("nan"), "2024-02-03", np.datetime64("NaT")],
        ["2024-01-05T10:00", np.nan, "2024-02-03", float("nan")],
    ]
    for values in lists:
        assert window_keys(values, "1mo").tolist() == expected, values
    assert window_keys([float("nan")] * 3, "1mo").tolist() == [None] * 3
    assert window_keys(np.full(2, np.nan), "1d").tolist() == [None] * 2
    with pytest.raises(InputError, match="float64 values, not timestamps"):
        window_keys([1.0, float("nan")], "1d")
