"""Fold ids read from files are text ("1", ..., "12"): the command line lists them in
numeric order (2 before 10) in every output, from CSV and Parquet files alike, each
fold's values still its own (held to `Folds.from_labels` of the same rows with the ids
as integers, whose canonical order is numeric, and to one fold's informedness by hand)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from informed.cli import main
from informed.slices import Folds

FOLDS = 12


def _write(path: Path, seed: int = 0, n: int = 360, repeats: int = 1) -> Path:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    label = ["neg", "pos"]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["repeat", "fold", "y", "a", "b", "sa", "sb"])
        for r in range(1, repeats + 1):
            fold = rng.permutation(n) % FOLDS + 1
            sa = y * 0.8 + rng.normal(0, 0.6, n)
            sb = y * 1.1 + rng.normal(0, 0.6, n)
            for i in range(n):
                w.writerow(
                    [r, fold[i], label[y[i]], label[int(sa[i] > 0.4)], label[int(sb[i] > 0.55)],
                     f"{sa[i]:.3f}", f"{sb[i]:.3f}"]
                )  # fmt: skip
    return path


def _rows(path: Path) -> dict[str, list[str]]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return {c: [row[c] for row in rows] for c in rows[0]}


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    captured = capsys.readouterr()
    assert code == 0 and captured.err == "", captured.err
    return captured.out


def _evaluate(path: Path, *extra: str) -> list[str]:
    return ["evaluate", str(path), "--actual", "y", "--predicted", "a", "--positive", "pos",
            "--folds", "fold", *extra]  # fmt: skip


def _informedness(rows: dict[str, list[str]], fold: str, model: str = "a") -> float:
    one = [i for i, k in enumerate(rows["fold"]) if k == fold]
    tp = sum(rows["y"][i] == "pos" and rows[model][i] == "pos" for i in one)
    tn = sum(rows["y"][i] == "neg" and rows[model][i] == "neg" for i in one)
    pos = sum(rows["y"][i] == "pos" for i in one)
    return tp / pos + tn / (len(one) - pos) - 1


NUMERIC = [str(k) for k in range(1, FOLDS + 1)]


@pytest.mark.parametrize("kind", ["csv", "parquet"])
def test_twelve_folds_are_listed_in_numeric_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """JSON, CSV and text list folds 1, 2, ..., 12; each fold's value is that fold's."""
    path = _write(tmp_path / "cv.csv")
    rows = _rows(path)
    if kind == "parquet":
        pq = pytest.importorskip("pyarrow.parquet")
        from pyarrow import csv as arrow_csv

        pq.write_table(arrow_csv.read_csv(path), tmp_path / "cv.parquet")  # fold: int64
        path = tmp_path / "cv.parquet"
    document = json.loads(_run(_evaluate(path, "--format", "json"), capsys))
    assert document["folds"] == NUMERIC
    informedness = document["measures"]["informedness"]["folds"]
    assert list(informedness) == NUMERIC
    assert informedness["10"] == pytest.approx(_informedness(rows, "10"), abs=1e-12)
    assert informedness["2"] == pytest.approx(_informedness(rows, "2"), abs=1e-12)
    assert document["test_sizes"] == [rows["fold"].count(k) for k in NUMERIC]
    as_integers = Folds.from_labels(
        folds=[int(k) for k in rows["fold"]], actual=rows["y"], predicted=rows["a"]
    )
    values = as_integers.values("markedness", positive="pos").tolist()
    assert list(document["measures"]["markedness"]["folds"].values()) == values
    table = list(csv.reader(_run(_evaluate(path, "--format", "csv"), capsys).splitlines()))
    assert [r[1] for r in table[1 : FOLDS + 1]] == NUMERIC
    text = _run(_evaluate(path), capsys)
    at = [text.index(f"\n {k} ") for k in NUMERIC]
    assert at == sorted(at)


def test_repeats_and_folds_both_in_numeric_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --repeats, repeat 1's folds 1..12, then repeat 2's; the pooled training size
    of each fold is the rest of its repeat."""
    path = _write(tmp_path / "cv.csv", seed=2, repeats=2)
    document = json.loads(_run(_evaluate(path, "--repeats", "repeat", "--format", "json"), capsys))
    assert document["folds"] == [f"repeat={r}, fold={k}" for r in "12" for k in NUMERIC]
    assert document["train_sizes"] == [360 - s for s in document["test_sizes"]]


def test_compare_lists_folds_and_differences_in_numeric_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare --folds: the folds, each model's per-fold values and the per-fold
    differences are listed 1..12, each difference that fold's b - a."""
    path = _write(tmp_path / "cv.csv", seed=4)
    rows = _rows(path)
    args = ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--positive",
            "pos", "--folds", "fold", "--format", "json"]  # fmt: skip
    document = json.loads(_run(args, capsys))
    assert document["folds"] == NUMERIC
    expected = [_informedness(rows, k, "b") - _informedness(rows, k, "a") for k in NUMERIC]
    assert document["differences"]["informedness"] == pytest.approx(expected, abs=1e-12)
    assert list(document["summaries"]["a"]["informedness"]["folds"]) == NUMERIC


def test_folds_from_python_text_ids_and_given_training_sizes() -> None:
    """From Python, text ids sort numerically too, and `train=` is read in that order;
    ids that are not all whole numbers keep their canonical (text) order."""
    folds = Folds.from_labels(
        folds=["10", "10", "2", "2", "1", "1"],
        actual=[1, 0, 1, 0, 1, 0],
        predicted=[1, 0, 1, 1, 0, 0],
        train=[4, 5, 6],
    )
    assert folds.names == ("1", "2", "10")
    assert folds.train.tolist() == [4.0, 5.0, 6.0]
    assert folds.values("informedness").tolist() == [0.0, 0.0, 1.0]
    assert Folds.from_json(folds.to_json()).train.tolist() == [4.0, 5.0, 6.0]
    text = Folds.from_labels(folds=["b10", "b10", "b2", "b2"], actual=[1, 0, 1, 0],
                             predicted=[1, 0, 1, 0])  # fmt: skip
    assert text.names == ("b10", "b2")
