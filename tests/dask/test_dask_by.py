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
