"""`informed evaluate FILES --dask ADDRESS --by COL` (and `--by-time COL --every SPAN`):
the files sliced on the cluster (one task per file, the Slices merged in a tree) give the
report of the files read here (both were refused); `import informed.dask` keeps the
functions and module of earlier releases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from informed.cli.main import main

COLUMNS = ["--actual", "y", "--predicted", "p", "--positive", "yes", "--by", "g"]


def test_dask_with_by_equals_the_files_read_here(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(6)
    for part in range(3):
        y = rng.choice(["yes", "no"], 300)
        pq.write_table(
            pa.table(
                {
                    "y": y,
                    "p": np.where(rng.random(300) < 0.7, y, "no"),
                    "g": rng.choice(["a", "b", "c"], 300),
                }
            ),
            tmp_path / f"part-{part}.parquet",
        )
    files = str(tmp_path / "part-*.parquet")
    here = main(["evaluate", files, *COLUMNS, "--format", "json"])
    expected = json.loads(capsys.readouterr().out)
    code = main(
        ["evaluate", files, *COLUMNS, "--format", "json", "--dask", client.scheduler.address]
    )
    out, err = capsys.readouterr()
    assert here == 0 and code == 0, err
    assert json.loads(out) == expected


def _timed_files(folder: Path) -> str:
    """Three Parquet files of predictions with zone-aware timestamps (Tokyo: its month
    starts 9 hours before UTC's), missing ones included, across 1969-1970 and 2024."""
    import pandas as pd

    rng = np.random.default_rng(8)
    for part in range(3):
        n = 300
        base = np.datetime64("1969-11-20") if part == 0 else np.datetime64("2024-01-15")
        when = base + rng.integers(0, 120 * 86400, n).astype("timedelta64[s]")
        stamps = pd.Series(pd.to_datetime(when)).dt.tz_localize("UTC").dt.tz_convert("Asia/Tokyo")
        stamps = stamps.mask(rng.random(n) < 0.05)  # NaT there (assigning warned and did nothing)
        y = rng.choice(["yes", "no"], n)
        table = pa.Table.from_pandas(
            pd.DataFrame(
                {
                    "t": stamps,
                    "y": y,
                    "p": np.where(rng.random(n) < 0.7, y, "no"),
                    "g": rng.choice(["a", "b", "c"], n),
                }
            ),
            preserve_index=False,
        )
        pq.write_table(table, folder / f"part-{part}.parquet")
    return str(folder / "part-*.parquet")


@pytest.mark.parametrize(
    "window", [["--every", "1mo"], ["--every", "1q"], ["--every", "7d", "--rolling", "2"]]
)
def test_dask_by_time_equals_the_files_read_here(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], window: list[str]
) -> None:
    """--by-time with --dask (it was refused): each file's timestamps floored on its
    worker, in the zone they are stored in, give the report of the files read here."""
    files = _timed_files(tmp_path)
    options = [*COLUMNS, "--by-time", "t", *window, "--format", "json"]
    here = main(["evaluate", files, *options])
    expected = json.loads(capsys.readouterr().out)
    code = main(["evaluate", files, *options, "--dask", client.scheduler.address])
    out, err = capsys.readouterr()
    assert here == 0 and code == 0, err
    assert json.loads(out) == expected
    assert expected["slices"][-1]["key"][0] is None  # the window "missing"


def test_a_dask_frame_is_sliced_by_time_on_the_cluster(client: Any) -> None:
    """Slices.from_frame(dask_frame, time=..., every=...) and informed.dask.slices: each
    partition's timestamps (zone-aware, before 1970, NaT) floored where it lies, equal
    to the Slices of the whole frame in memory, for months, quarters and hours."""
    import dask.dataframe as dd
    import pandas as pd

    from informed.dask import slices
    from informed.slices import Slices

    rng = np.random.default_rng(10)
    n = 800
    when = np.datetime64("1969-06-01") + rng.integers(0, 900 * 86400, n).astype("timedelta64[s]")
    stamps = pd.Series(pd.to_datetime(when)).dt.tz_localize("UTC").dt.tz_convert("Europe/Paris")
    stamps = stamps.mask(rng.random(n) < 0.03)  # NaT there (assigning warned and did nothing)
    y = rng.choice(["yes", "no"], n)
    frame = pd.DataFrame(
        {
            "t": stamps,
            "y": y,
            "p": np.where(rng.random(n) < 0.7, y, "no"),
            "s": np.round(rng.random(n), 2),
            "g": rng.choice(["a", "b"], n),
        }
    )
    rows = dd.from_pandas(frame, npartitions=5)
    options = {"actual": "y", "predicted": "p", "scores": "s", "positive": "yes"}
    for every in ("1mo", "1q", "1h"):
        whole = Slices.from_frame(frame, by="g", time="t", every=every, **options)
        assert Slices.from_frame(rows, by="g", time="t", every=every, **options) == whole
        assert whole.by == (f"t ({every})", "g") and whole.keys[-1][0] is None
    alone = slices(rows, time="t", every="1y", **options)
    assert alone == Slices.from_frame(frame, time="t", every="1y", **options)


def test_informed_dask_keeps_its_names() -> None:
    """The adapter moved to informed.engines.dask; informed.dask re-exports it."""
    import informed.dask.summaries

    import informed.dask
    import informed.engines.dask
    import informed.engines.dask.summaries

    for name in informed.engines.dask.__all__:
        assert getattr(informed.dask, name) is getattr(informed.engines.dask, name)
    assert informed.dask.summaries is informed.engines.dask.summaries


def test_a_dask_frame_given_where_a_frame_is_accepted_takes_the_dask_adapter(
    client: Any,
) -> None:
    """Table.from_frame, Ranking.from_frame (two classes), Slices.from_frame and
    summarise_frame of a Dask DataFrame: counted partition by partition on the cluster,
    equal to the summaries of the same rows in memory."""
    import dask.dataframe as dd
    import pandas as pd

    from informed import Ranking, Slices, Table
    from informed.io import summarise_frame

    rng = np.random.default_rng(9)
    y = rng.choice(["yes", "no"], 400)
    frame = pd.DataFrame(
        {
            "y": y,
            "p": np.where(rng.random(400) < 0.7, y, "no"),
            "s": np.round(rng.random(400), 1),
            "w": rng.integers(0, 5, 400) / 2,
            "g": rng.choice(["a", "b"], 400),
        }
    )
    rows = dd.from_pandas(frame, npartitions=4)
    assert Table.from_frame(rows, actual="y", predicted="p", weights="w") == Table.from_frame(
        frame, actual="y", predicted="p", weights="w"
    )
    two = {"actual": "y", "scores": "s", "positive": "yes"}
    assert Ranking.from_frame(rows, **two) == Ranking.from_frame(frame, **two)
    options = {"actual": "y", "predicted": "p", "scores": "s", "positive": "yes"}
    assert Slices.from_frame(rows, by="g", **options) == Slices.from_frame(frame, by="g", **options)
    found = summarise_frame(rows, part="day", **options)
    assert found.table == summarise_frame(frame, part="day", **options).table
    assert found.rows == 400 and len(found.parts) == 4
