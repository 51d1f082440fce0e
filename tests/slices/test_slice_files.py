"""Slices from files: a blank or null key is the slice "missing" on every route (CSV by
pyarrow and by the standard reader, Parquet, Arrow IPC, frames), and a file's
timestamps are read as stored (Parquet and Arrow timestamps in their time zone, dates,
ISO-8601 text), a missing one the window "missing", a bad one an error naming the file,
the data row and the column."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed.errors import InputError
from informed.io.sliced import read_slices
from informed.slices import Slices
from informed.slices.rolling import accumulate
from informed.slices.windows import window_keys

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")


def _frame(n: int = 300, seed: int = 0) -> Any:
    rng = np.random.default_rng(seed)
    group = rng.choice(["a", "b", "c"], n).astype(object)
    group[rng.random(n) < 0.15] = None
    device = rng.choice(["app", "web"], n).astype(object)
    device[rng.random(n) < 0.1] = None
    actual = rng.choice(["no", "yes"], n)
    predicted = np.where(rng.random(n) < 0.7, actual, rng.choice(["no", "yes"], n))
    return pd.DataFrame(
        {
            "group": group,
            "device": device,
            "actual": actual,
            "predicted": predicted,
            "score": np.round(rng.random(n), 2),
        }
    )


def _write(frame: Any, path: Path, how: str) -> Path:
    if how == "parquet":
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path, row_group_size=70)
    elif how == "arrow":
        feather.write_feather(frame, path, chunksize=70)
    else:
        frame.to_csv(path, index=False)
        if how == "csv-standard":  # a quote sends the rest to the standard library reader
            text = path.read_text().replace("yes", '"yes"', 1)
            path.write_text(text)
    return path


@pytest.mark.parametrize("how", ["csv", "csv-standard", "parquet", "arrow"])
def test_a_blank_or_null_key_in_a_file_is_the_slice_missing(tmp_path: Path, how: str) -> None:
    """Each route gives the Slices of the frame: rows with no group (or no device) form
    the slice "missing", counted, never dropped and never an error."""
    frame = _frame()
    suffix = {"csv": "csv", "csv-standard": "csv", "parquet": "parquet", "arrow": "arrow"}[how]
    path = _write(frame, tmp_path / f"d.{suffix}", how)
    found = read_slices(
        path,
        by=["group", "device"],
        actual="actual",
        predicted="predicted",
        scores="score",
        positive="yes",
        batch_rows=64,
    )
    expected = Slices.from_frame(
        frame,
        by=["group", "device"],
        actual="actual",
        predicted="predicted",
        scores="score",
        positive="yes",
    )
    assert found == expected
    missing = [key for key in found.keys if None in key]
    assert missing and found.name(missing[-1]).endswith("missing")
    assert int(found.rows.sum()) == len(frame)


@pytest.mark.parametrize("digits", [2, None])
def test_many_batches_merged_equal_the_rows_sliced_at_once(tmp_path: Path, digits: Any) -> None:
    """56 batches (32 merged by one sort of each slice's Rankings, then the other 24 and
    a merge of the two) give the Slices of all the rows at once: tied scores (two
    decimals) added across batches, continuous ones interleaved, and a slice of 5 rows
    that most batches lack."""
    frame = _frame(3000, seed=4)
    if digits is None:
        frame["score"] = np.random.default_rng(5).random(len(frame))
    frame.loc[[7, 700, 1400, 2100, 2800], "group"] = "rare"
    path = _write(frame, tmp_path / "d.parquet", "parquet")
    options: dict[str, Any] = {
        "actual": "actual",
        "predicted": "predicted",
        "scores": "score",
        "positive": "yes",
    }
    found = read_slices(path, by="group", batch_rows=64, **options)
    assert found == Slices.from_frame(frame, by="group", **options)
    assert found.overall_ranking is not None
    assert found.overall_ranking.n_positive + found.overall_ranking.n_negative == len(frame)
    # the overall group of each slice's group, found by looking each score up
    where = {float(x): g for g, x in enumerate(found.overall_ranking.scores.tolist())}
    assert found.rankings is not None
    looked_up = [where[float(x)] for r in found.rankings for x in r.scores.tolist()]
    assert found.overall_groups is not None
    assert found.overall_groups.tolist() == looked_up


@pytest.mark.parametrize("block", [None, 16])
def test_a_stale_overall_groups_hint_is_not_used(
    tmp_path: Path, block: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slice-vs-rest AUC differences are the same whether the Slices carry the
    overall group of each slice's group (read from a file), carry none (built in
    memory) or carry a wrong one (rearranged, or only its last two swapped: found wrong
    in the last block of points read): a hint that does not fit is not read."""
    from dataclasses import replace

    from informed.inference.auc_differences import auc_differences

    if block is not None:
        monkeypatch.setattr(
            importlib.import_module("informed.inference.slice_rest"), "BLOCK", block
        )
    frame = _frame(2000, seed=6)
    frame["score"] = np.random.default_rng(7).random(len(frame)).round(2)
    path = _write(frame, tmp_path / "d.parquet", "parquet")
    options: dict[str, Any] = {"actual": "actual", "scores": "score", "positive": "yes"}
    found = read_slices(path, by="group", batch_rows=64, **options)
    assert found.overall_groups is not None
    late = found.overall_groups.copy()
    late[-2:] = late[-2:][::-1]
    shown = [
        repr(auc_differences(s, reference=0))
        for s in (
            found,
            Slices.from_frame(frame, by="group", **options),
            replace(found, overall_groups=found.overall_groups[::-1].copy()),
            replace(found, overall_groups=late),
        )
    ]
    assert shown[0] == shown[1] == shown[2] == shown[3]


def test_a_blank_label_is_still_an_error_where_it_is_not_a_key(tmp_path: Path) -> None:
    """Only the keys may be blank: a blank actual class names its line, row and column."""
    path = tmp_path / "d.csv"
    path.write_text("g,y,p\na,1,1\n,0,1\nb,,0\n")
    with pytest.raises(InputError, match=r"line 4 \(data row 3\), column 'y': the label is blank"):
        read_slices(path, by="g", actual="y", predicted="p")


def test_the_command_line_reports_the_missing_slice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed evaluate --by` on a file with blank keys: the slice "missing" is reported
    with its rows (JSON: key null, name "missing")."""
    from informed.cli.main import main

    path = _write(_frame(), tmp_path / "d.csv", "csv")
    arguments = ["evaluate", str(path), "--actual", "actual", "--predicted", "predicted"]
    assert main([*arguments, "--positive", "yes", "--by", "group", "--format", "json"]) == 0
    entries = json.loads(capsys.readouterr().out)["slices"]
    missing = [e for e in entries if e["key"] == [None]]
    assert [e["name"] for e in missing] == ["missing"]
    assert missing[0]["rows"] == int(_frame()["group"].isna().sum())


def _times() -> Any:
    """Paris wall-clock times around the change to summer time, one of them missing."""
    local = pd.to_datetime(
        [
            "2024-03-30 22:30",
            "2024-03-30 23:30",
            "2024-03-31 00:30",
            "2024-03-31 03:30",
            "2024-03-31 23:45",
            "2024-04-01 00:15",
            "2024-04-02 12:00",
            None,
        ]
    ).tz_localize("Europe/Paris")
    return pd.DataFrame(
        {
            "when": local,
            "actual": ["yes", "no", "yes", "no", "yes", "yes", "no", "no"],
            "predicted": ["yes", "no", "no", "no", "yes", "no", "no", "yes"],
        }
    )


@pytest.mark.parametrize("how", ["parquet", "arrow"])
def test_parquet_and_arrow_timestamps_are_read_in_their_time_zone(tmp_path: Path, how: str) -> None:
    """A zone-aware timestamp column of a file: days start at midnight in Paris (the
    column's zone), not in UTC; the missing timestamp is the window "missing"."""
    frame = _times()
    path = _write(frame, tmp_path / f"t.{how}", how)
    stored = pq.read_schema(path) if how == "parquet" else feather.read_table(path).schema
    assert stored.field("when").type.tz == "Europe/Paris"
    found = read_slices(
        path, by=[], time="when", every="1d", actual="actual", predicted="predicted"
    )
    assert [key[0] for key in found.keys] == [
        "2024-03-30",
        "2024-03-31",
        "2024-04-01",
        "2024-04-02",
        None,
    ]
    assert found.rows.tolist() == [2, 3, 1, 1, 1]
    expected = Slices.from_labels(
        by=window_keys(frame["when"], "1d"),
        names=["when (1d)"],
        actual=frame["actual"],
        predicted=frame["predicted"],
    )
    assert found == expected


@pytest.mark.parametrize("stored", ["date", "naive", "text"])
def test_dates_naive_timestamps_and_text_are_windows_too(tmp_path: Path, stored: str) -> None:
    """A Parquet column of dates, of naive timestamps or of ISO-8601 text gives the same
    weekly windows (from Monday)."""
    days = pd.to_datetime(["2024-03-03", "2024-03-04", "2024-03-10", "2024-03-11", None])
    values = {
        "date": pa.array([None if pd.isna(d) else d.date() for d in days], pa.date32()),
        "naive": pa.array(days, pa.timestamp("ms")),
        "text": pa.array([None if pd.isna(d) else d.strftime("%Y-%m-%d") for d in days]),
    }[stored]
    table = pa.table({"t": values, "y": ["1", "0", "1", "1", "0"], "p": ["1", "0", "0", "1", "0"]})
    path = tmp_path / "w.parquet"
    pq.write_table(table, path)
    found = read_slices(path, by=[], time="t", every="1w", actual="y", predicted="p")
    assert [key[0] for key in found.keys] == ["2024-02-26", "2024-03-04", "2024-03-11", None]
    assert found.rows.tolist() == [1, 2, 1, 1]


def test_a_bad_timestamp_in_a_file_names_the_file_the_row_and_the_column(
    tmp_path: Path,
) -> None:
    """Text that is not a timestamp, in Parquet as in CSV, is a one-line error naming the
    data row; a column of numbers is refused by its type."""
    path = tmp_path / "b.parquet"
    table = pa.table({"t": ["2024-03-04", "2024-03-05T10:00", "next week"], "y": ["1"] * 3})
    pq.write_table(table, path, row_group_size=2)
    with pytest.raises(InputError) as error:
        read_slices(path, by=[], time="t", every="1d", actual="y", predicted="y", batch_rows=2)
    assert str(error.value) == (
        f"{path} data row 3, column 't': 'next week' is not an ISO-8601 timestamp "
        "(such as 2024-03-04 or 2024-03-04T10:15)."
    )
    numbers = tmp_path / "n.parquet"
    pq.write_table(pa.table({"t": [1.5, 2.5], "y": ["1", "0"]}), numbers)
    with pytest.raises(InputError, match="column 't' has type double; expected timestamps"):
        read_slices(numbers, by=[], time="t", every="1d", actual="y", predicted="y")


def test_a_missing_timestamp_in_a_frame_is_the_window_missing() -> None:
    """NaT in a pandas column, None in a list: the window "missing" (the key None)."""
    frame = _times()
    keys = window_keys(frame["when"], "1d")
    assert keys[-1] is None and keys[0] == "2024-03-30"
    assert window_keys(["2024-03-04T10:00", None, float("nan")], "1h").tolist() == [
        "2024-03-04T10:00",
        None,
        None,
    ]


def test_rolling_windows_are_on_the_calendar_and_missing_merges_with_nothing() -> None:
    """Days 1, 3 and 4 (day 2 has no rows): two days rolling on the calendar give day 3
    alone and days 3-4 together; counted among the windows that occur (no `every`), day
    3 takes day 1 in. The window "missing" stays itself, cumulative or rolling."""
    day = ["2024-01-01", "2024-01-03", "2024-01-04", None, "2024-01-04"]
    s = Slices.from_labels(by=day, actual=[1, 0, 1, 1, 0], predicted=[1, 1, 1, 0, 0])
    assert [k[0] for k in s.keys] == ["2024-01-01", "2024-01-03", "2024-01-04", None]
    assert accumulate(s, last=2, every="1d").rows.tolist() == [1, 1, 3, 1]
    assert accumulate(s, last=2).rows.tolist() == [1, 2, 3, 1]
    assert accumulate(s).rows.tolist() == [1, 2, 4, 1]
    weekly = Slices.from_labels(
        by=["2024-01-01", "2024-01-15"], actual=[1, 0], predicted=[1, 1]
    )  # two Mondays two weeks apart: a two-week window holds one of them
    assert accumulate(weekly, last=2, every="1w").rows.tolist() == [1, 1]
    assert accumulate(weekly, last=3, every="7d").rows.tolist() == [1, 2]
