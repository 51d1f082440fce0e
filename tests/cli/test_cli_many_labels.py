"""The command line on many labels: bounded reports from a sparse table, streamed
--all-labels rows, no K x C payoff in JSON, compressed CSV, and memory errors in one
line with exit status 2 (a small budget forced by INFORMED_MEMORY_LIMIT)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from informed import MemoryLimitError, Table, evaluate
from informed.cli.main import main
from informed.io import read_summaries


def _csv(folder: Path, labels: int, rows: int, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    actual = np.concatenate([np.arange(labels), rng.integers(0, labels, rows - labels)])
    predicted = np.where(rng.random(rows) < 0.6, actual, rng.integers(0, labels, rows))
    path = folder / "many.csv"
    path.write_text(
        "y,p\n" + "".join(f"c{a},c{p}\n" for a, p in zip(actual, predicted, strict=True))
    )
    return path


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _csv(tmp_path_factory.mktemp("many"), labels=3000, rows=6000)


def test_text_report_of_3000_labels_is_summarised(
    many: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["evaluate", str(many), "--actual", "y", "--predicted", "p"], capsys)
    assert code == 0
    assert "pooled as 'other'" in out and "less frequent labels not shown" in out
    assert len(out.splitlines()) < 150


def test_all_labels_streams_a_row_per_label(many: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["evaluate", str(many), "--actual", "y", "--predicted", "p", "--all-labels"]
    code, out, _ = _run(args, capsys)
    assert code == 0
    table = read_summaries(many, actual="y", predicted="p").table
    assert table is not None
    rows = [line.split()[0] for line in out.splitlines() if line.startswith("c")]
    assert set(table.labels) <= set(rows)  # every label has its row
    assert "pooled as 'other'" in out  # the contingency table stays summarised


def test_json_of_a_sparse_table_has_no_dense_payoff(
    many: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["evaluate", str(many), "--actual", "y", "--predicted", "p", "--format", "json"]
    code, out, _ = _run(args, capsys)
    assert code == 0
    document = json.loads(out)
    table = Table.from_labels(
        actual=[x.split(",")[0] for x in many.read_text().splitlines()[1:]],
        predicted=[x.split(",")[1] for x in many.read_text().splitlines()[1:]],
    )
    cells = len(table.cells.counts)
    assert set(document["table"]) == {"row", "column", "count"}
    assert len(document["table"]["count"]) == cells
    matrix = document["payoff"]["matrix"]
    assert set(matrix) == {"row", "column", "value"} and len(matrix["value"]) <= cells
    assert len(document["per_label"]) == len(table.labels)
    expected = evaluate(table)
    label = table.labels[7]
    assert document["per_label"][label]["recall"] == pytest.approx(
        expected.per_label[label]["recall"], nan_ok=True
    )


def test_html_of_3000_labels(
    many: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "many.html"
    args = ["evaluate", str(many), "--actual", "y", "--predicted", "p", "--html", str(page)]
    code, _, _ = _run(args, capsys)
    text = page.read_text()
    assert code == 0 and "most frequent of 3,000 labels" in text
    assert len(text) < 3_000_000


def test_gzip_csv_reads_as_the_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Both CSV routes (pyarrow blocks; the standard reader, for another encoding or from
    a quoted field on) read x.csv.gz as they read x.csv."""
    plain = _csv(tmp_path, labels=50, rows=400)
    lines = plain.read_text().splitlines()
    lines[300] = '"' + lines[300].replace(",", '",', 1)  # a quoted field: the standard rest
    plain.write_text("\n".join(lines) + "\n")
    packed = tmp_path / "many.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for encoding in ("utf-8", "latin-1"):
        a = read_summaries(plain, actual="y", predicted="p", encoding=encoding)
        b = read_summaries(packed, actual="y", predicted="p", encoding=encoding)
        assert a.table == b.table and a.rows == b.rows == 400
    code, out, _ = _run(["evaluate", str(packed), "--actual", "y", "--predicted", "p"], capsys)
    assert code == 0 and "N = 400" in out


def test_storage_option_and_memory_limit(
    many: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--storage dense on 3,000 x 3,000 labels under a 1 MB budget: a one-line error
    naming the sizes and the way out, exit status 2, no traceback."""
    sparse = read_summaries(many, actual="y", predicted="p").table
    dense = read_summaries(many, actual="y", predicted="p", storage="dense").table
    assert sparse is not None and dense is not None
    assert (sparse.storage, dense.storage) == ("sparse", "dense") and sparse == dense
    monkeypatch.setenv("INFORMED_MEMORY_LIMIT", "1000000")
    args = ["evaluate", str(many), "--actual", "y", "--predicted", "p", "--quiet"]
    code, out, err = _run([*args, "--storage", "dense"], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    k, c = sparse.shape
    assert f"{k:,} x {c:,} labels" in err and "--storage sparse" in err
    code, _, _ = _run(args, capsys)  # the default keeps it sparse: it fits
    assert code == 0
    with pytest.raises(MemoryLimitError, match=f"{k:,} x {c:,}"):
        sparse.to_dense()


def test_an_unchecked_memory_error_is_one_line(
    many: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import informed.table

    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError("Unable to allocate 2.98 GiB for an array with shape (20000, 20000)")

    monkeypatch.setattr(informed.table, "evaluate", exhausted)
    code, out, err = _run(["evaluate", str(many), "--actual", "y", "--predicted", "p"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "out of memory" in err and "2.98 GiB" in err and "--storage" in err
