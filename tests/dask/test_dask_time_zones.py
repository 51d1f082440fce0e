"""`informed evaluate FILES --by-time t --every 1d --dask ADDRESS`: each file's
zone-aware timestamps windowed on its worker on the wall clock zoneinfo gives, after 2037
too (pyarrow's local_timestamp, used before, stopped at the zone's last listed
transition). One file per zone, north and south; the oracle: tests/zone_oracle.py."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from zone_oracle import expected, midnights

from informed.cli.main import main

ZONES = ["Europe/Paris", "America/New_York", "Australia/Sydney"]


def test_dask_over_files_windows_each_zone_as_zoneinfo_does(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three Parquet files, each in its own zone: the rows of every day as the oracle
    counts them."""
    wanted: Counter[str] = Counter()
    for part, zone in enumerate(ZONES):
        seconds = midnights(zone, 10 + part, days=6)
        wanted.update(expected(zone, seconds, "1d"))
        y = np.random.default_rng(part).choice(["yes", "no"], seconds.size)
        table = pa.table({"t": pa.array(seconds, pa.timestamp("s", zone)), "y": y, "p": y})
        pq.write_table(table, tmp_path / f"part-{part}.parquet")
    options = ["--actual", "y", "--predicted", "p", "--positive", "yes", "--format", "json"]
    options += ["--by-time", "t", "--every", "1d"]
    options += ["--dask", client.scheduler.address]
    code = main(["evaluate", str(tmp_path / "part-*.parquet"), *options])
    out, err = capsys.readouterr()
    assert code == 0, err
    found = {entry["key"][0]: entry["rows"] for entry in json.loads(out)["slices"]}
    assert found == dict(wanted)
