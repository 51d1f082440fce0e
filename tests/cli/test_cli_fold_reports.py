"""`informed evaluate --folds` with `--ci` and `--html`, and `informed compare --folds`
with `--html`: each fold's interval is that of its own rows (held to Wilson's score
interval of the fold's accuracy, a formula written out here, and to DeLong's interval
of the fold's own Ranking), the pooled one that of all rows; with repeats the pooled
interval is refused with its reason; the page lists the folds in numeric order."""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from informed import Ranking
from informed.cli import main
from informed.inference import delong_interval

FOLDS = 12


def _write(path: Path, seed: int = 0, n: int = 600, repeats: int = 1) -> Path:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    label = ["neg", "pos"]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["repeat", "fold", "y", "a", "b", "c", "sa", "sb", "sc"])
        for r in range(1, repeats + 1):
            fold = rng.permutation(n) % FOLDS + 1
            s = [y * k + rng.normal(0, 0.6, n) for k in (0.8, 1.1, 0.95)]
            for i in range(n):
                w.writerow(
                    [r, fold[i], label[y[i]], *(label[int(x[i] > 0.5)] for x in s),
                     *(f"{x[i]:.3f}" for x in s)]
                )  # fmt: skip
    return path


def _rows(path: Path) -> dict[str, list[str]]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return {c: [row[c] for row in rows] for c in rows[0]}


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _evaluate(path: Path, *extra: str) -> list[str]:
    return ["evaluate", str(path), "--actual", "y", "--predicted", "a", "--score", "sa",
            "--positive", "pos", "--folds", "fold", *extra]  # fmt: skip


def _wilson(k: int, n: int, level: float) -> tuple[float, float]:
    """Wilson's (1927) score interval of a proportion, written out."""
    from scipy import stats

    z = float(stats.norm.ppf(0.5 + level / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_evaluate_folds_ci_json_each_fold_and_pooled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--ci 0.9: each fold's accuracy interval is near Wilson's of that fold's rows (the
    bootstrap of 50 cases, within 0.04), the pooled one near Wilson's of all 600 (within
    0.015); each fold's AUC interval is DeLong's of that fold's Ranking; the note says
    what the intervals leave out."""
    path = _write(tmp_path / "cv.csv")
    rows = _rows(path)
    code, out, err = _run(_evaluate(path, "--ci", "0.9", "--format", "json"), capsys)
    assert code == 0 and err == ""
    document = json.loads(out)
    names = [str(k) for k in range(1, FOLDS + 1)]
    accuracy = document["intervals"]["accuracy"]
    assert accuracy["level"] == 0.9 and accuracy["method"] == "bca"
    assert list(accuracy["folds"]) == names
    for k in names:
        one = [i for i, f in enumerate(rows["fold"]) if f == k]
        right = sum(rows["y"][i] == rows["a"][i] for i in one)
        low, high = _wilson(right, len(one), 0.9)
        assert accuracy["folds"][k] == pytest.approx([low, high], abs=0.04), k
        ranking = Ranking.from_scores(
            actual=[rows["y"][i] for i in one],
            scores=[float(rows["sa"][i]) for i in one],
            positive="pos",
        )
        delong = delong_interval(ranking, level=0.9)
        assert document["intervals"]["auc"]["folds"][k] == pytest.approx(
            [delong.low, delong.high], rel=1e-12
        )
    right = sum(a == b for a, b in zip(rows["y"], rows["a"], strict=True))
    assert accuracy["pooled"] == pytest.approx(list(_wilson(right, 600, 0.9)), abs=0.015)
    assert accuracy["pooled_reason"] is None
    assert document["intervals"]["pem"]["pooled"] == [None, None]
    assert "retraining" in document["intervals_note"]


def test_evaluate_folds_ci_with_repeats_has_no_pooled_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each case is in the pooled rows once per repeat: the pooled interval is refused
    with that reason (in JSON, CSV and text); each fold keeps its own."""
    path = _write(tmp_path / "cv.csv", seed=1, n=240, repeats=2)
    extra = ["--repeats", "repeat", "--ci", "0.95"]
    code, out, _ = _run(_evaluate(path, *extra, "--format", "json"), capsys)
    assert code == 0
    document = json.loads(out)
    informedness = document["intervals"]["informedness"]
    assert informedness["pooled"] == [None, None]
    assert "once per repeat" in informedness["pooled_reason"]
    assert all(low is not None for low, _ in informedness["folds"].values())
    code, out, _ = _run(_evaluate(path, *extra, "--format", "csv"), capsys)
    table = list(csv.reader(out.splitlines()))
    head = table[0]
    at = head.index("informedness_low")
    assert head[at - 1 : at + 2] == ["informedness", "informedness_low", "informedness_high"]
    pooled = next(r for r in table if r[0] == "pooled")
    assert pooled[at] == "" and pooled[at + 1] == ""
    assert all(r[at] != "" for r in table[1:25])
    code, out, _ = _run(_evaluate(path, *extra), capsys)
    words = " ".join(out.split())
    assert "95 % interval" in out and "once per repeat" in words
    assert "neither includes the variance that retraining adds" in words


def test_evaluate_folds_html_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--html writes the folds' page: every fold in numeric order, the pooled row, with
    --ci each fold's interval as the JSON gives it, and the references cited."""
    path = _write(tmp_path / "cv.csv", seed=2)
    page = tmp_path / "folds.html"
    code, out, err = _run(_evaluate(path, "--ci", "0.9", "--html", str(page)), capsys)
    assert code == 0 and err == ""
    html = page.read_text()
    folds = re.findall(r'<th class="[^"]*" scope="row">([^<]+)</th>', html)
    assert folds == [str(k) for k in range(1, FOLDS + 1)]
    _, out, _ = _run(_evaluate(path, "--ci", "0.9", "--format", "json"), capsys)
    low, high = json.loads(out)["intervals"]["informedness"]["folds"]["10"]
    assert f"[{low:.4f}, {high:.4f}]" in html
    assert 'data-row="pooled"' in html and "https://" not in html
    assert "Efron, B. (1987)" in html and "Bates, S., Hastie, T." in html
    without = tmp_path / "plain.html"
    code, _, _ = _run(_evaluate(path, "--html", str(without)), capsys)
    assert code == 0 and '<span class="small">[' not in without.read_text()


def test_compare_folds_html_lists_folds_in_numeric_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare --folds --html: the page's per-fold table is in numeric order."""
    path = _write(tmp_path / "cv.csv", seed=3)
    page = tmp_path / "compare.html"
    args = ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--positive",
            "pos", "--folds", "fold", "--html", str(page)]  # fmt: skip
    code, _, err = _run(args, capsys)
    assert code == 0 and err == ""
    table = page.read_text().split('id="folds-per-fold"')[1]
    folds = re.findall(r'scope="row">([^<]+)</th>', table)
    assert folds == [str(k) for k in range(1, FOLDS + 1)]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--html", "SELF"], "--html"),
        (["--ci", "1.5"], "--ci must lie strictly between 0 and 1"),
    ],
)
def test_evaluate_folds_html_and_ci_bad_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    """--html naming the input, --ci out of range: one line, status 2."""
    path = _write(tmp_path / "cv.csv", n=48)
    extra = [str(path) if x == "SELF" else x for x in extra]
    code, out, err = _run(_evaluate(path, *extra), capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def _compare(path: Path, *extra: str) -> list[str]:
    return ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "c", "--positive",
            "pos", "--folds", "fold", *extra]  # fmt: skip


def _holm(pvalues: list[float]) -> list[float]:
    """Holm's (1979) step-down adjustment, written out: the i-th smallest of m times
    m - i + 1, made non-decreasing, capped at 1."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [0.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        out[i] = running
    return out


def test_compare_three_models_every_pair_holm_over_pairs_and_measures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three models: the pairs b - a, c - a, c - b, each as compare_folds of the two
    (its corrected t the formula on its per-fold differences), and each test's p-values
    Holm-adjusted over the 3 pairs x 6 measures together (statsmodels' Holm agrees)."""
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    from informed.comparison.comparing import TABLE_COMPARED

    path = _write(tmp_path / "cv.csv", seed=5)
    rows = _rows(path)
    code, out, err = _run(_compare(path, "--format", "json"), capsys)
    assert code == 0 and err == ""
    document = json.loads(out)
    assert document["models"] == ["a", "b", "c"]
    assert document["adjusted_over"] == "3 pairs x 6 measures"
    pairs = document["pairs"]
    assert [p["difference"] for p in pairs] == ["b - a", "c - a", "c - b"]
    for pair in pairs:
        assert pair["folds"] == [str(k) for k in range(1, FOLDS + 1)]
        a, b = pair["models"]
        for k in ("3", "11"):  # a fold's difference of accuracy, by hand
            one = [i for i, f in enumerate(rows["fold"]) if f == k]
            hits = {m: sum(rows["y"][i] == rows[m][i] for i in one) / len(one) for m in (a, b)}
            s = pair["folds"].index(k)
            assert pair["differences"]["accuracy"][s] == pytest.approx(hits[b] - hits[a])
        d = np.array(pair["differences"]["informedness"])
        sizes = np.array([rows["fold"].count(str(k)) for k in range(1, FOLDS + 1)], float)
        t = d.mean() / math.sqrt((1 / FOLDS + sizes.mean() / (600 - sizes.mean())) * d.var(ddof=1))
        corrected = pair["tests"]["informedness"]["corrected"]
        assert corrected["statistic"] == pytest.approx(t, rel=1e-12)
        assert corrected["pvalue"] == pytest.approx(2 * stats.t.sf(abs(t), FOLDS - 1), rel=1e-9)
    for key in ("corrected", "naive"):
        where = [(p, m) for p in pairs for m in TABLE_COMPARED]
        raw = [p["tests"][m][key]["pvalue"] for p, m in where]
        adjusted = [p["tests"][m][key]["adjusted_pvalue"] for p, m in where]
        assert adjusted == pytest.approx(_holm(raw), rel=1e-12)
        assert adjusted == pytest.approx(list(multipletests(raw, method="holm")[1]), rel=1e-12)


def test_compare_three_models_text_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Text: every model's values, each pair under its name, the family adjusted over;
    HTML: each pair's tables and plot, no id twice."""
    path = _write(tmp_path / "cv.csv", seed=6)
    page = tmp_path / "pairs.html"
    code, out, err = _run(_compare(path, "--html", str(page)), capsys)
    assert code == 0 and err == ""
    words = " ".join(out.split())
    assert "3 models over 12 folds, every pair compared" in words
    assert words.count("Holm-adjusted over 3 pairs x 6 measures") == 3
    for pair in ("b - a", "c - a", "c - b"):
        assert f"Mean per-fold difference {pair}" in words
    html = page.read_text()
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    for i in (1, 2, 3):
        assert f'id="folds-tests-{i}"' in html and f'id="plot-fold-differences-{i}"' in html
    assert "over every pair and measure together (3 pairs x 6 measures)" in html
    code, out, _ = _run(_compare(path, "--correction", "none", "--format", "json"), capsys)
    pair = json.loads(out)["pairs"][2]["tests"]["markedness"]["corrected"]
    assert pair["adjusted_pvalue"] == pair["pvalue"]


@pytest.mark.parametrize("route", ["parquet-engine", "csv-engine", "sql", "database"])
def test_evaluate_folds_on_an_engine_is_the_file_route(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], route: str
) -> None:
    """--engine duckdb (Parquet, whose fold column is an integer, and CSV), --sql and
    --database with --table: the folds DuckDB counts give the file route's report, fold
    for fold, in numeric order."""
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("ibis")
    path = _write(tmp_path / "cv.csv", seed=7, n=240, repeats=2)
    common = ["--actual", "y", "--predicted", "a", "--score", "sa", "--positive", "pos",
              "--folds", "fold", "--repeats", "repeat", "--format", "json"]  # fmt: skip
    code, out, err = _run(["evaluate", str(path), *common], capsys)
    assert code == 0 and err == ""
    expected = json.loads(out)
    parquet = tmp_path / "cv.parquet"
    duckdb.sql(f"COPY (SELECT * FROM read_csv('{path}')) TO '{parquet}' (FORMAT parquet)")
    source = {
        "parquet-engine": [str(parquet), "--engine", "duckdb"],
        "csv-engine": [str(path), "--engine", "duckdb"],
        "sql": ["--sql", f"SELECT * FROM '{parquet}'"],
        "database": ["--database", str(tmp_path / "cv.duckdb"), "--table", "cv"],
    }[route]
    if route == "database":
        with duckdb.connect(str(tmp_path / "cv.duckdb")) as connection:
            connection.sql(f"CREATE TABLE cv AS SELECT * FROM '{parquet}'")
    code, out, err = _run(["evaluate", *source, *common], capsys)
    assert code == 0 and err == "", err
    found = json.loads(out)
    for key in ("folds", "test_sizes", "train_sizes", "measures"):
        assert found[key] == expected[key], key
    assert found["folds"][:3] == ["repeat=1, fold=1", "repeat=1, fold=2", "repeat=1, fold=3"]


def test_evaluate_folds_on_an_engine_refuses_a_row_without_a_fold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A null fold counted by DuckDB: one line naming the column, status 2."""
    duckdb = pytest.importorskip("duckdb")
    parquet = tmp_path / "cv.parquet"
    duckdb.sql(
        "COPY (SELECT * FROM (VALUES (1, 'pos', 'pos'), (NULL, 'neg', 'neg'), (2, 'neg', 'pos'))"
        f" t(fold, y, a)) TO '{parquet}' (FORMAT parquet)"
    )
    args = ["evaluate", str(parquet), "--engine", "duckdb", "--actual", "y", "--predicted",
            "a", "--folds", "fold"]  # fmt: skip
    code, out, err = _run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no value in column 'fold'" in err, err
