"""A Parquet file's integer and boolean label columns are read as text on both file routes:
informed's own reader casts them (docs/inputs.md, "Files"), and `--engine duckdb` reads
the same file to the same document, so `informed merge` takes the two routes' parts
(before, DuckDB kept the integers: `"positive": 1` against `"1"`, and merge refused
mixing them). A database's table keeps its kind (docs/engines.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from informed.cli.main import main

for _package in ("pyarrow", "duckdb"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")


@pytest.fixture(scope="module")
def parquet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two Parquet parts of 0/1 integer labels, a boolean label and an integer slice column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(11)
    folder = tmp_path_factory.mktemp("kinds")
    paths = {}
    for part in ("a", "b"):
        n = 300
        y = rng.integers(0, 2, n)
        table = pa.table(
            {
                "y": y,
                "p": np.where(rng.random(n) < 0.75, y, 1 - y).astype(np.int8),
                "t": y.astype(bool),
                "q": rng.random(n) < 0.5,
                "g": rng.integers(0, 3, n).astype(np.uint16),
                "s": rng.random(n) * 0.5 + 0.5 * y,
            }
        )
        paths[part] = folder / f"{part}.parquet"
        pq.write_table(table, paths[part])
    return paths


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main([*args, "--format", "json", "--summary", "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    document.pop("coverage", None)
    return document


@pytest.mark.parametrize(
    ("columns", "positive"),
    [(["--actual", "y", "--predicted", "p"], "1"), (["--actual", "t", "--predicted", "q"], "true")],
)
@pytest.mark.parametrize("by", [[], ["--by", "g"]])
def test_both_file_routes_read_whole_labels_as_text(
    parquet: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    columns: list[str],
    positive: str,
    by: list[str],
) -> None:
    args = ["evaluate", str(parquet["a"]), *columns, "--score", "s", "--positive", positive, *by]
    own = _json(args, capsys)
    duck = _json([*args, "--engine", "duckdb"], capsys)
    assert own == duck
    assert own["positive"] == positive  # the text, as docs/inputs.md says
    if by:
        assert {s["name"] for s in own["slices"]} == {"0", "1", "2"}  # type: ignore[attr-defined]


def test_parts_read_by_either_route_merge(
    parquet: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["--actual", "y", "--predicted", "p", "--positive", "1", "--by", "g"]
    first = _json(["evaluate", str(parquet["a"]), *base], capsys)
    second = _json(["evaluate", str(parquet["b"]), *base, "--engine", "duckdb"], capsys)
    whole = _json(["evaluate", str(parquet["a"]), str(parquet["b"]), *base], capsys)
    (tmp_path / "a.json").write_text(json.dumps(first))
    (tmp_path / "b.json").write_text(json.dumps(second))
    merged = _json(["merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")], capsys)
    for key in ("slices", "disparities", "summary", "positive"):
        assert merged[key] == whole[key]


def test_a_database_table_keeps_its_integers(
    parquet: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import duckdb

    database = tmp_path / "rows.duckdb"
    connection = duckdb.connect(str(database))
    connection.sql(f"CREATE TABLE rows AS SELECT * FROM '{parquet['a']}'")
    connection.close()
    args = ["evaluate", "--database", str(database), "--table", "rows"]
    document = _json([*args, "--actual", "y", "--predicted", "p", "--positive", "1"], capsys)
    assert document["positive"] == 1
    assert document["labels"] == {"predicted": [0, 1], "actual": [0, 1]}


@pytest.mark.parametrize(
    "columns",
    [["--actual", "y", "--predicted", "s"], ["--actual", "y", "--predicted", "p", "--by", "s"]],
)
def test_a_float_label_column_is_refused_on_both_file_routes(
    parquet: dict[str, Path], capsys: pytest.CaptureFixture[str], columns: list[str]
) -> None:
    """A Parquet float column is no label column (docs/inputs.md): the file route refuses
    it, and `--engine duckdb` does, in the same words (before, DuckDB counted its values
    as labels, 0.5 and 0.75 each a class or a slice)."""
    args = ["evaluate", str(parquet["a"]), *columns, "--format", "json"]
    assert main(args) == 2
    own = capsys.readouterr().err
    assert main([*args, "--engine", "duckdb"]) == 2
    assert capsys.readouterr().err == own
    assert "label column 's' has type double; expected strings, integers or booleans" in own
