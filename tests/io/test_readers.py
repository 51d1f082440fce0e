"""File readers: CSV, Parquet and Arrow give the same summaries; bad files are named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from informed import Table
from informed.cli import main
from informed.errors import InputError
from informed.io import iter_batches, read_columns

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ipc = pytest.importorskip("pyarrow.ipc")


def _data(n: int = 1000, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.choice(["cat", "dog", "eel"], n)
    predicted = np.where(rng.random(n) < 0.6, actual, rng.choice(["cat", "dog", "eel"], n))
    return {
        "actual": actual,
        "predicted": predicted,
        "weight": rng.random(n),
        "score": rng.random(n),
    }


def _write_all(tmp_path: Path, data: dict[str, np.ndarray]) -> dict[str, Path]:
    table = pa.table({k: pa.array(v.tolist()) for k, v in data.items()})
    paths = {
        "csv": tmp_path / "d.csv",
        "parquet": tmp_path / "d.parquet",
        "arrow": tmp_path / "d.arrow",
    }
    lines = ["actual,predicted,weight,score"] + [
        f"{a},{p},{float(w)!r},{float(s)!r}"
        for a, p, w, s in zip(
            data["actual"], data["predicted"], data["weight"], data["score"], strict=True
        )
    ]
    paths["csv"].write_text("\n".join(lines) + "\n")
    pq.write_table(table, paths["parquet"], row_group_size=128)
    with ipc.new_file(paths["arrow"], table.schema) as writer:
        for batch in table.to_batches(max_chunksize=100):
            writer.write_batch(batch)
    return paths


def test_formats_agree(tmp_path: Path) -> None:
    """CSV, Parquet and Arrow IPC give identical tables, equal to the in-memory one (P08)."""
    data = _data()
    expected = Table.from_labels(
        actual=data["actual"], predicted=data["predicted"], weights=data["weight"]
    )
    for path in _write_all(tmp_path, data).values():
        cols = read_columns(
            path, labels=["actual", "predicted"], numbers=["weight"], nonnegative=["weight"]
        )
        assert cols.rows == 1000
        table = Table.from_labels(
            actual=cols.labels["actual"],
            predicted=cols.labels["predicted"],
            weights=cols.numbers["weight"],
        )
        assert table == expected, path


def test_batches_cover_every_row_once(tmp_path: Path) -> None:
    paths = _write_all(tmp_path, _data(n=777))
    for path in paths.values():
        batches = list(iter_batches(path, labels=["actual"], batch_rows=100))
        assert sum(b.rows for b in batches) == 777
        assert [b.first_row for b in batches] == list(
            np.cumsum([0] + [b.rows for b in batches[:-1]])
        )


def test_cli_reads_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's streamed, merged table equals the CSV's."""
    paths = _write_all(tmp_path, _data())
    outs = []
    for path in (paths["csv"], paths["parquet"], paths["arrow"]):
        assert (
            main(
                [
                    "evaluate",
                    str(path),
                    "--actual",
                    "actual",
                    "--predicted",
                    "predicted",
                    "--weight",
                    "weight",
                    "--score",
                    "score",
                    "--positive",
                    "dog",
                    "--format",
                    "json",
                ]
            )
            == 0
        )
        outs.append(json.loads(capsys.readouterr().out))
    # weights are summed batch by batch, so totals agree to rounding, not bit for bit
    np.testing.assert_allclose(outs[0]["table"], outs[1]["table"], rtol=1e-12)
    np.testing.assert_allclose(outs[1]["table"], outs[2]["table"], rtol=1e-12)
    assert outs[0]["ranking"]["auc"] == pytest.approx(outs[1]["ranking"]["auc"])


def test_integer_and_dictionary_label_columns(tmp_path: Path) -> None:
    table = pa.table(
        {
            "y": pa.array([1, 2, 2], pa.int64()),
            "yhat": pa.array(["1", "2", "1"]).dictionary_encode(),
        }
    )
    path = tmp_path / "ints.parquet"
    pq.write_table(table, path)
    cols = read_columns(path, labels=["y", "yhat"])
    assert cols.labels["y"].tolist() == ["1", "2", "2"]
    assert cols.labels["yhat"].tolist() == ["1", "2", "1"]


@pytest.mark.parametrize(
    ("columns", "args", "needle"),
    [
        (
            {"y": pa.array(["a", None])},
            ["--actual", "y", "--predicted", "y"],
            "data row 2, column 'y'",
        ),
        ({"y": pa.array([0.5, 1.5])}, ["--actual", "y", "--predicted", "y"], "type double"),
        (
            {"y": pa.array(["a", "b"]), "w": pa.array([1.0, -2.0])},
            ["--actual", "y", "--predicted", "y", "--weight", "w"],
            "data row 2, column 'w'",
        ),
        (
            {"y": pa.array(["a", "b"]), "s": pa.array(["x", "y"])},
            ["--actual", "y", "--score", "s", "--positive", "a"],
            "number column 's'",
        ),
        ({"y": pa.array(["a"])}, ["--actual", "z", "--predicted", "y"], "no column 'z'"),
    ],
)
def test_bad_parquet_columns(
    columns: dict[str, object],
    args: list[str],
    needle: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table(columns), path)
    assert main(["evaluate", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_truncated_and_corrupt_parquet(tmp_path: Path) -> None:
    """A cut or damaged file is an error naming the file, never a shorter result."""
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": pa.array(["a", "b"] * 500)}), path)
    raw = path.read_bytes()
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(InputError, match=r"cut\.parquet"):
        list(iter_batches(cut, labels=["y"]))
    rng = np.random.default_rng(0)
    for trial in range(20):
        damaged = bytearray(raw)
        for position in rng.integers(0, len(raw), 8):
            damaged[position] ^= 0xFF
        bad = tmp_path / f"bad{trial}.parquet"
        bad.write_bytes(bytes(damaged))
        try:
            cols = read_columns(bad, labels=["y"])
        except InputError as exc:
            message = str(exc)
        else:
            message = ""
            assert cols.rows == 1000  # flips that hit only values still read every row
        assert message == "" or f"bad{trial}.parquet" in message


def test_unknown_extension_and_zero_bytes(tmp_path: Path) -> None:
    weird = tmp_path / "d.xlsx"
    weird.write_text("x")
    with pytest.raises(InputError, match="unknown file type"):
        list(iter_batches(weird, labels=["y"]))
    empty = tmp_path / "e.parquet"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="empty"):
        list(iter_batches(empty, labels=["y"]))


def test_an_empty_pandas_column_written_as_type_null_is_read(tmp_path: Path) -> None:
    """pandas writes the object column of an empty frame as Arrow type null (pyarrow 20 and
    later): the empty part of a partitioned data set adds no rows and no error, and a
    null-typed column that does hold rows is refused at its first row, as any missing
    label is."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pd = pytest.importorskip("pandas")
    from informed.io import read_summaries

    empty = pa.table(
        pd.DataFrame({"y": pd.Series([], dtype=object), "p": pd.Series([], dtype=object)})
    )
    assert pa.types.is_null(empty.schema.field("y").type)
    pq.write_table(empty, tmp_path / "part-0.parquet")
    pq.write_table(
        pa.table({"y": ["a", "b", "a"], "p": ["a", "a", "b"]}), tmp_path / "part-1.parquet"
    )
    found = read_summaries(str(tmp_path / "part-*.parquet"), actual="y", predicted="p")
    assert found.rows == 3
    assert found.table == Table.from_labels(["a", "b", "a"], ["a", "a", "b"])
    pq.write_table(pa.table({"y": pa.nulls(2), "p": ["a", "b"]}), tmp_path / "nulls.parquet")
    with pytest.raises(InputError, match=r"data row 1, column 'y': the label is missing \(null\)"):
        read_summaries(str(tmp_path / "nulls.parquet"), actual="y", predicted="p")
