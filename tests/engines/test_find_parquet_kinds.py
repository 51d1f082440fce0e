"""`--find-slices` on a Parquet file gives one document on the file route and on
`--engine duckdb`: a search column of few integers, booleans or floats (at most
`--ranges` values, so taken value by value) is read as its text on both (before, DuckDB
kept the kinds: `"g": 2`, `"b": true`, `"f": 1.0` against the file route's `"2"`,
`"true"`, `"1"`). A float is named as Python writes it (`1.0`, docs/slices.md "Names"),
as pandas' `to_csv` writes it, so that the Parquet file and its CSV give one search
(before, the Parquet file named it "1"); NaN is missing and -0.0 is 0.0, as in memory.
Oracles: the slices planted, Python's `repr` of the floats, the search of the same
columns in memory."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import find_slices
from informed.cli import main

for _package in ("pyarrow", "duckdb"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")

N = 6000
RNG = np.random.default_rng(8)
Y = RNG.integers(0, 2, N)
G = RNG.integers(0, 3, N).astype(np.uint16)  # three integers: labels, not ranges
B = RNG.random(N) < 0.5
F = RNG.choice([0.5, 1.0, 2.0], N)
# the model errs more where g is 2, where b is true and where f is 1.0
WRONG = ((G == 2) | B | (F == 1.0)) & (RNG.random(N) < 0.3)
P = np.where(WRONG, 1 - Y, Y)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path_factory.mktemp("find_kinds")
    paths = {"parquet": folder / "rows.parquet", "csv": folder / "rows.csv"}
    pq.write_table(pa.table({"y": Y, "p": P, "g": G, "b": B, "f": F}), paths["parquet"])
    with paths["csv"].open("w", newline="") as handle:  # as pandas' to_csv writes them
        writer = csv.writer(handle)
        writer.writerow(["y", "p", "g", "b", "f"])
        for row in zip(Y.tolist(), P.tolist(), G.tolist(), B.tolist(), F.tolist(), strict=True):
            writer.writerow([repr(x) for x in row])
    return paths


def _search(
    path: Path, columns: str, capsys: pytest.CaptureFixture[str], *more: str
) -> dict[str, Any]:
    args = ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--positive", "1"]
    code = main([*args, "--find-slices", columns, "--depth", "2", "--format", "json", *more])
    out, err = capsys.readouterr()
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    document.pop("source")
    return document


def _slices(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [found["slice"] for found in document["found"]]


def test_a_parquet_search_is_one_document_on_both_routes(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    own = _search(files["parquet"], "g,b,f", capsys)
    duck = _search(files["parquet"], "g,b,f", capsys, "--engine", "duckdb")
    assert duck == own
    assert own["cuts"] == {}  # three values a column: none is cut
    # the planted slices, named by their text: 2 as Python writes it, true as a Parquet
    # file's booleans are read (docs/inputs.md), 1.0 as Python writes it
    for planted in ({"g": "2"}, {"b": "true"}, {"f": "1.0"}):
        assert planted in _slices(own)


def test_a_parquet_file_and_its_csv_give_one_search(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Integers and floats of few values: the CSV's text as written (by pandas, `repr`),
    the Parquet file's values as Python writes them: one search on all four routes.
    Booleans differ: the CSV holds the text `True` that its writer wrote."""
    parquet = _search(files["parquet"], "g,f", capsys)
    assert {"f": "1.0"} in _slices(parquet)
    for path, more in (
        (files["csv"], ()),
        (files["csv"], ("--engine", "duckdb")),
        (files["parquet"], ("--engine", "duckdb")),
    ):
        assert _search(path, "g,f", capsys, *more) == parquet


def test_floats_are_named_as_in_memory_nan_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NaN is the slice "missing" and -0.0 is 0.0, as the search of the same columns in
    memory names them (before, the file route had five slices: "-0", "0", "nan", ...)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(3)
    f = rng.choice([0.1, -0.0, 0.0, 1e-07, np.nan], N)
    wrong = (np.isnan(f) | (f == 1e-07)) & (rng.random(N) < 0.3)
    p = np.where(wrong, 1 - Y, Y)
    path = tmp_path / "floats.parquet"
    pq.write_table(pa.table({"y": Y, "p": p, "f": f}), path)
    in_memory = find_slices(columns={"f": f}, actual=Y, predicted=p, positive=1, depth=2)
    expected = [found.name for found in in_memory.found]
    assert sorted(expected) == ["f=1e-07", "f=missing"]
    for more in ((), ("--engine", "duckdb")):
        document = _search(path, "f", capsys, *more)
        assert [found["name"] for found in document["found"]] == expected
        assert document["tested"] == in_memory.tested == 4  # 0.0, 0.1, 1e-07, missing


@pytest.mark.parametrize("kind", ["parquet", "csv"])
def test_many_numbers_stay_numbers_on_the_engine(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A column of more values than --ranges is cut into ranges on the file route and
    refused on the engine (cut it in the query), not searched value by value as text
    (before, a CSV file's column on DuckDB was: three slices where the file route had
    two ranges)."""
    code = main(["evaluate", str(files[kind]), "--actual", "y", "--predicted", "p",
                 "--find-slices", "g", "--ranges", "2", "--engine", "duckdb"])  # fmt: skip
    assert code == 2
    assert "cut it in the query" in capsys.readouterr().err
    cut = _search(files[kind], "g", capsys, "--ranges", "2")
    assert cut["cuts"] == {"g": [0.0, 1.0, 2.0]}  # numpy's quantiles of 0, 1, 2 at 0, 1/2, 1
    few = _search(files[kind], "g", capsys, "--ranges", "3", "--engine", "duckdb")
    assert few == _search(files[kind], "g", capsys, "--ranges", "3")


def test_a_32_bit_float_is_named_as_numpy_writes_its_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """float32 0.1 is `0.1` (numpy's str of np.float32), not the 0.10000000149011612 it
    widens to, on both routes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = np.where(np.arange(N) % 3 == 0, np.float32(0.1), np.float32(2.5)).astype(np.float32)
    p = np.where((f == np.float32(0.1)) & (RNG.random(N) < 0.3), 1 - Y, Y)
    path = tmp_path / "float32.parquet"
    pq.write_table(pa.table({"y": Y, "p": p, "f": f}), path)
    own = _search(path, "f", capsys)
    assert _slices(own) == [{"f": str(np.float32(0.1))}] == [{"f": "0.1"}]
    assert _search(path, "f", capsys, "--engine", "duckdb") == own
