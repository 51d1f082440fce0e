"""`informed evaluate --find-slices` and the search on engines: the same slices, counts,
gaps and figures as `informed.find_slices` in memory."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import find_slices


def _table(n: int = 12000, seed: int = 11) -> dict[str, Any]:
    """Label columns, a missing value, and a planted slice (region=east, device=phone)."""
    rng = np.random.default_rng(seed)
    region = rng.choice(["north", "south", "east", ""], n, p=[0.3, 0.3, 0.3, 0.1])
    device = rng.choice(["phone", "tablet", "desktop"], n)
    plan = rng.choice(["basic", "pro"], n)
    actual = rng.integers(0, 2, n)
    inside = (region == "east") & (device == "phone")
    tpr, fpr = np.where(inside, 0.55, 0.9), np.where(inside, 0.35, 0.1)
    predicted = (rng.random(n) < np.where(actual == 1, tpr, fpr)).astype(int)
    return {
        "region": [None if r == "" else str(r) for r in region],
        "device": device.tolist(),
        "plan": plan.tolist(),
        "y": actual.tolist(),
        "p": predicted.tolist(),
    }


def _essentials(document: dict[str, Any]) -> dict[str, Any]:
    keep = ("found", "tested", "pruned", "hypotheses", "levels", "method", "overall", "rows")
    return {k: document[k] for k in keep}


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_the_search_on_an_engine_equals_the_search_in_memory(engine: str) -> None:
    """Each combination counted on the engine as a grouped count gives the same slices
    found, counts, gaps, intervals, tested and pruned as the rows in memory."""
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("narwhals")
    rows = pa.table(_table())
    options = {"columns": ["region", "device", "plan"], "actual": "y", "predicted": "p",
               "depth": 3, "min_size": 25}  # fmt: skip
    in_memory = find_slices(rows, **options).to_dict()
    if engine == "polars":
        pl = pytest.importorskip("polars")
        frame: Any = pl.from_arrow(rows).lazy()
    else:
        duckdb = pytest.importorskip("duckdb")
        frame = duckdb.connect().from_arrow(rows)
    on_engine = find_slices(frame, **options).to_dict()
    assert in_memory["found"], "the planted slice is found"
    assert _essentials(on_engine) == _essentials(in_memory)


def test_a_numeric_column_of_many_values_is_refused_on_an_engine() -> None:
    pl = pytest.importorskip("polars")
    pytest.importorskip("narwhals")
    frame = pl.DataFrame({"x": [float(i) for i in range(40)], "y": [0, 1] * 20,
                          "p": [0, 1] * 20}).lazy()  # fmt: skip
    with pytest.raises(ValueError, match="cut it in the query"):
        find_slices(frame, columns=["x"], actual="y", predicted="p")


def _write(folder: Path) -> Path:
    data = _table()
    path = folder / "rows.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(list(data))
        for values in zip(*data.values(), strict=True):
            writer.writerow(["" if v is None else v for v in values])
    return path


def _run(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "informed", "evaluate", str(path), "--actual", "y",
         "--predicted", "p", "--find-slices", "region,device", "--find-slices", "plan",
         "--min-size", "25", *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_the_command_line_json_is_the_search_of_the_file(tmp_path: Path) -> None:
    """--format json holds `found` (slice as column -> value, n, positives, negatives,
    informedness, rest, gap, interval), `tested`, `pruned` and the method, as
    `find_slices` on the same file gives them."""
    path = _write(tmp_path)
    done = _run(path, "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    expected = find_slices(path, columns=["region", "device", "plan"], actual="y",
                           predicted="p", min_size=25).to_dict()  # fmt: skip
    assert _essentials(document) == _essentials(expected)
    first = document["found"][0]
    assert set(first) >= {"slice", "n", "positives", "negatives", "informedness", "rest",
                          "gap", "interval"}  # fmt: skip
    assert {"region": "east", "device": "phone"} in [f["slice"] for f in document["found"]]
    assert document["method"] == "bonferroni-price-bonett"


def test_the_command_line_csv_and_text_name_the_slices_found(tmp_path: Path) -> None:
    path = _write(tmp_path)
    done = _run(path, "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert "region=east, device=phone" in [r["slice"] for r in rows]
    assert {"n", "positives", "negatives", "informedness", "gap", "low", "high"} <= set(rows[0])
    text = _run(path)
    assert text.returncode == 0, text.stderr
    assert "region=east, device=phone" in text.stdout
    assert "tested" in text.stdout and "pruned" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--depth", "0"), "`depth` must be from 1 to 6"),
        (("--min-size", "0"), "`min_size` must be a whole number"),
        (("--find-slices", "nowhere"), "nowhere"),
        (("--by", "plan"), "--by is not available with --find-slices"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    done = _run(_write(tmp_path), *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_command_line_on_duckdb_equals_the_search_of_the_file(tmp_path: Path) -> None:
    """--engine duckdb counts each combination on DuckDB: the same document."""
    pytest.importorskip("duckdb")
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    path = tmp_path / "rows.parquet"
    pq.write_table(pa.table(_table()), path)
    done = _run(path, "--format", "json", "--engine", "duckdb")
    assert done.returncode == 0, done.stderr
    expected = find_slices(path, columns=["region", "device", "plan"], actual="y",
                           predicted="p", min_size=25).to_dict()  # fmt: skip
    assert _essentials(json.loads(done.stdout)) == _essentials(expected)
