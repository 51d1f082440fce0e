"""`informed evaluate --folds` and `informed compare --folds`: the command line against
`Folds.from_labels` and `compare_folds` of the rows the test reads itself (the csv
module), the corrected t-test against its formula written out here, and every bad input
as one line with exit status 2."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats

from informed import Table
from informed.cli import main
from informed.comparison import compare_folds
from informed.comparison.comparing import RANKING_COMPARED, TABLE_COMPARED
from informed.report.records import result_document
from informed.slices import Folds

MEASURES = [*TABLE_COMPARED, *RANKING_COMPARED]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _write(path: Path, seed: int = 0, n: int = 240, repeats: int = 1, k: int = 4) -> Path:
    """Two models' predictions and scores under repeated k-fold: each case once per repeat."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["repeat", "fold", "y", "a", "b", "sa", "sb"])
        for r in range(1, repeats + 1):
            fold = rng.permutation(n) % k + 1
            sa = y * 0.8 + rng.normal(0, 0.6, n)
            sb = y * 1.1 + rng.normal(0, 0.6, n)
            for i in range(n):
                label = ["neg", "pos"]
                w.writerow(
                    [r, fold[i], label[y[i]], label[int(sa[i] > 0.4)], label[int(sb[i] > 0.55)],
                     f"{sa[i]:.3f}", f"{sb[i]:.3f}"]
                )  # fmt: skip
    return path


def _rows(path: Path) -> dict[str, list[str]]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return {c: [row[c] for row in rows] for c in rows[0]}


def _folds(rows: dict[str, list[str]], model: str, repeats: bool = False) -> Folds:
    return Folds.from_labels(
        folds=rows["fold"],
        repeats=rows["repeat"] if repeats else None,
        actual=rows["y"],
        predicted=rows[model],
        scores=[float(s) for s in rows["s" + model]],
        positive="pos",
    )


def _evaluate(path: Path, *extra: str) -> list[str]:
    return ["evaluate", str(path), "--actual", "y", "--predicted", "a", "--score", "sa",
            "--positive", "pos", "--folds", "fold", *extra]  # fmt: skip


def test_evaluate_folds_json_is_folds_from_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each fold's measures, pooled, mean and std are those of Folds.from_labels of the
    rows; the document's summary is those Folds, and the pooled Table is
    Table.from_labels of every row, bit for bit."""
    path = _write(tmp_path / "cv.csv")
    code, out, err = _run(_evaluate(path, "--format", "json"), capsys)
    assert code == 0 and err == ""
    document: dict[str, Any] = json.loads(out)
    rows = _rows(path)
    expected = _folds(rows, "a")
    assert Folds.from_dict(document["summary"]) == expected
    assert Folds.from_dict(document["summary"]).pooled == Table.from_labels(
        actual=rows["y"], predicted=rows["a"]
    )
    assert document["folds"] == ["1", "2", "3", "4"]
    assert document["test_sizes"] == [rows["fold"].count(k) for k in "1234"]
    assert document["train_sizes"] == [240 - rows["fold"].count(k) for k in "1234"]
    assert list(document["measures"]) == MEASURES
    for m in MEASURES:
        summary = expected.measure(m, positive="pos")
        found = document["measures"][m]
        assert found["folds"] == dict(zip(summary.folds, summary.values.tolist(), strict=True))
        assert found["pooled"] == summary.pooled
        values = summary.values
        assert found["mean"] == pytest.approx(float(np.mean(values)), abs=1e-15)
        assert found["std"] == pytest.approx(float(np.std(values, ddof=1)), rel=1e-12)
    # one fold's informedness by hand: recall + inverse recall - 1 of its own rows
    one = [i for i, k in enumerate(rows["fold"]) if k == "3"]
    tp = sum(rows["y"][i] == "pos" and rows["a"][i] == "pos" for i in one)
    tn = sum(rows["y"][i] == "neg" and rows["a"][i] == "neg" for i in one)
    pos = sum(rows["y"][i] == "pos" for i in one)
    informedness = tp / pos + tn / (len(one) - pos) - 1
    assert document["measures"]["informedness"]["folds"]["3"] == pytest.approx(informedness)


def test_evaluate_folds_csv_and_text_with_repeats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--repeats keys the folds by (repeat, fold); CSV: a row per fold, then pooled,
    mean and std; text: the same values, the pooled size each case once per repeat."""
    path = _write(tmp_path / "cv.csv", repeats=2, k=3)
    rows = _rows(path)
    expected = _folds(rows, "a", repeats=True)
    code, out, err = _run(_evaluate(path, "--repeats", "repeat", "--format", "csv"), capsys)
    assert code == 0 and err == ""
    table = list(csv.reader(out.splitlines()))
    assert table[0] == ["row", "repeat", "fold", "test", "train", *MEASURES]
    assert [r[:3] for r in table[1:7]] == [["fold", r, k] for r in "12" for k in "123"]
    assert [r[0] for r in table[7:]] == ["pooled", "mean", "std"]
    summary = expected.measure("auc")
    column = table[0].index("auc")
    assert [float(r[column]) for r in table[1:7]] == summary.values.tolist()
    assert float(table[7][column]) == summary.pooled and table[7][3] == "480"
    assert [int(r[4]) for r in table[1:7]] == expected.train.tolist()
    code, out, _ = _run(_evaluate(path, "--repeats", "repeat"), capsys)
    assert code == 0
    words = " ".join(out.split())  # the heading wraps at the width of the report
    assert "6 folds by repeat, fold (2 repeats)" in words and "repeat=2, fold=3" in out
    assert f"{expected.measure('informedness').std:.4f}" in out


def test_compare_folds_json_is_compare_folds_and_the_formula(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare --folds --format json is compare_folds of the two models' Folds; the
    corrected t of informedness is Nadeau & Bengio's formula on the per-fold differences."""
    path = _write(tmp_path / "cv.csv", seed=3, k=5)
    args = ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--score", "sa",
            "sb", "--positive", "pos", "--folds", "fold", "--format", "json"]  # fmt: skip
    code, out, err = _run(args, capsys)
    assert code == 0 and err == ""
    document = json.loads(out)
    rows = _rows(path)
    expected = compare_folds(
        _folds(rows, "a"), _folds(rows, "b"), measures=MEASURES, positive="pos", names=("a", "b")
    )
    assert document == {"source": "cv.csv", **json.loads(json.dumps(result_document(expected)))}
    d = np.array(document["differences"]["informedness"])
    sizes = np.array([rows["fold"].count(k) for k in "12345"], dtype=float)
    variance = (1 / 5 + sizes.mean() / (240 - sizes.mean())) * d.var(ddof=1)
    t = d.mean() / math.sqrt(variance)
    corrected = document["tests"]["informedness"]["corrected"]
    assert corrected["statistic"] == pytest.approx(t, rel=1e-12)
    assert corrected["pvalue"] == pytest.approx(2 * stats.t.sf(abs(t), 4), rel=1e-9)
    assert "5x2cv_t" not in document["tests"]["informedness"]


def test_a_repeat_of_one_fold_gives_no_corrected_t(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repeat holding a single fold trained on nothing (training size 0): the corrected
    t's n_test/n_train has no meaning, so it is undefined with the reason, where a mean
    training size of 0 and 240 gave it a p-value; the naive t is still reported."""
    path = _write(tmp_path / "cv.csv", seed=3, k=4, repeats=2)
    lines = path.read_text().splitlines()
    kept = [lines[0], *(x for x in lines[1:] if x.startswith("1,") or x.split(",")[1] == "1")]
    path.write_text("\n".join(kept) + "\n")  # repeat 2: its fold 1 alone
    args = ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--positive",
            "pos", "--folds", "fold", "--repeats", "repeat", "--format", "json"]  # fmt: skip
    code, out, _ = _run(args, capsys)
    assert code == 0
    tests = json.loads(out)["tests"]["informedness"]
    assert tests["corrected"]["pvalue"] is None
    assert "fold 5 has no training cases" in tests["corrected"]["reason"]
    assert tests["naive"]["pvalue"] is not None


def test_compare_folds_text_with_five_by_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five repeats of two folds: the 5x2cv t and F tests join the corrected and naive
    ones, each Holm-adjusted across the measures; the naive test is labelled."""
    path = _write(tmp_path / "cv.csv", seed=5, repeats=5, k=2)
    args = ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--folds", "fold",
            "--repeats", "repeat"]  # fmt: skip
    code, out, err = _run(args, capsys)
    assert code == 0 and err == ""
    out = " ".join(out.split())  # titles wrap at the width of the report
    for text in ("b - a over 10 folds", "corrected t", "5x2cv t", "5x2cv F", "naive t",
                 f"Holm-adjusted over {len(TABLE_COMPARED)} measures", "too confident"):  # fmt: skip
        assert text in out
    rows = _rows(path)
    expected = compare_folds(
        _folds(rows, "a", True), _folds(rows, "b", True), measures=TABLE_COMPARED
    )
    p = expected.adjusted["informedness"]["5x2cv_f"]
    assert f"p = {p:.4f}" in out or f"p = {p:.2g}" in out


@pytest.mark.parametrize(
    ("extra", "contents", "message"),
    [
        (["--folds", "nope"], None, "no column 'nope'"),
        (["--folds", "one"], None, "holds one fold (x): cross-validation needs at least two"),
        (["--folds", "fold"], "blank", "line 3 (data row 2), column 'fold': the label is blank"),
        (["--repeats", "repeat"], None, "--repeats COL needs --folds COL"),
        (["--folds", "fold", "--bins", "5"], None, "--bins is not available with --folds"),
        (["--folds", "fold", "--by", "repeat"], None, "--by is not available with --folds"),
        (["--folds", "y"], None, "--folds and --repeats need columns of their own"),
    ],
)
def test_evaluate_folds_bad_input_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    contents: str | None,
    message: str,
) -> None:
    """A missing column, one fold, a row without a fold, options that do not apply: one
    line naming the problem, exit status 2."""
    path = tmp_path / "cv.csv"
    if contents == "blank":
        path.write_text("fold,y,a\n1,pos,pos\n,neg,pos\n2,neg,neg\n")
    else:
        path.write_text("repeat,fold,one,y,a\n1,1,x,pos,pos\n1,2,x,neg,neg\n1,2,x,neg,pos\n")
    args = ["evaluate", str(path), "--actual", "y", "--predicted", "a", *extra]
    code, out, err = _run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--predicted", "a", "b", "--permutations", "99"], "--permutations is not available"),
        (["--predicted", "a", "b", "--folds", "one"], "holds one fold (x)"),
        (["--predicted", "a", "b", "--folds", "a"], "need columns of their own"),
        (["--predicted", "a", "b", "--replicates", "50"], "--replicates is not available"),
        (["--predicted", "a", "b", "--seed", "3"], "--seed is not available with --folds"),
    ],
)
def test_compare_folds_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    """Three models, one fold, a fold column that is a model's: one line, status 2."""
    path = tmp_path / "cv.csv"
    path.write_text("fold,one,y,a,b,c\n1,x,pos,pos,neg,pos\n2,x,neg,neg,neg,pos\n")
    args = ["compare", str(path), "--actual", "y", *extra]
    if "--folds" not in extra:
        args += ["--folds", "fold"]
    code, out, err = _run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_a_narrow_terminal_gets_every_value_of_the_fold_comparison_whole() -> None:
    """At 60 columns the two models' columns and the intervals were cut to "…": the
    tables are shared out into parts that fit, every value printed whole."""
    from informed import Folds
    from informed.comparison import compare_folds
    from informed.comparison.fold_text import render_fold_comparison

    rng = np.random.default_rng(1)
    fold = rng.integers(1, 6, 1000)
    y = rng.integers(0, 2, 1000)
    a = np.where(rng.random(1000) < 0.8, y, 1 - y)
    b = np.where(rng.random(1000) < 0.75, y, 1 - y)
    result = compare_folds(
        Folds.from_labels(folds=fold, actual=y, predicted=a),
        Folds.from_labels(folds=fold, actual=y, predicted=b),
        measures=["informedness", "markedness", "correlation", "accuracy", "f_measure"],
        positive=1,
    )
    narrow = render_fold_comparison(result, "x.csv", width=60)
    assert "…" not in narrow
    corrected = result.tests["informedness"]["corrected"].interval
    assert f"[{corrected.low:.4f}, {corrected.high:.4f}]" in narrow
    assert f"{result.summaries['b']['informedness'].pooled:.4f}" in narrow
