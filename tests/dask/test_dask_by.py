"""`informed evaluate FILES --dask ADDRESS --by COL`: the files sliced on the cluster (one
task per file, the Slices merged in a tree) give the report of the files read here (it
was refused); `import informed.dask` keeps the functions and module of earlier releases."""

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
    code = main(["evaluate", files, *COLUMNS, "--format", "json", "--dask", client.scheduler.address])
    out, err = capsys.readouterr()
    assert here == 0 and code == 0, err
    assert json.loads(out) == expected
    code = main(["evaluate", files, *COLUMNS, "--dask", "local", "--by-time", "g", "--every", "1d"])
    assert code == 2 and "--by-time is not available with --dask" in capsys.readouterr().err


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
