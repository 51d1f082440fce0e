"""The comparison's section of the HTML report, and the threshold marked on the ROC plot,
read from the parsed page: the right numbers in the right cells, user text escaped."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from report_dom import Node, external_references, parse, row_by, table_rows

from informed import Comparison, Ranking, Table, compare, evaluate
from informed.cli import main
from informed.report.html import FIGURES, comparison_report, html_report

HOSTILE = "<script>alert(1)</script>"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "three_models.csv"


def fmt(value: float) -> str:
    return "undefined" if math.isnan(value) else f"{value:.4f}"


@pytest.fixture(scope="module")
def comparison() -> Comparison:
    rng = np.random.default_rng(5)
    actual = (rng.random(400) < 0.4).astype(int)
    scores = {
        "good": actual * 1.5 + rng.normal(0, 1, 400),
        HOSTILE: actual * 1.0 + rng.normal(0, 1, 400),
        "weak": actual * 0.4 + rng.normal(0, 1, 400),
    }
    return compare(
        actual,
        scores=scores,
        positive=1,
        threshold="best",
        replicates=100,
        permutations=99,
        seed=0,
    )


@pytest.fixture(scope="module")
def page(comparison: Comparison) -> Node:
    return parse(comparison_report(comparison, source=f"{HOSTILE}.csv"))


def test_leaderboard_cells(page: Node, comparison: Comparison) -> None:
    """Each model's row: its rank and every measure, best first; names escaped."""
    rows = table_rows(page, "compare-models")[1:]  # after the heading row
    assert [row[1] for row in rows] == list(comparison.models)
    for row, model in zip(rows, comparison.models.values(), strict=True):
        assert row[0] == str(model.rank)
        assert row[2:] == [fmt(model.measures[m]) for m in comparison.measures]
    assert HOSTILE in page.by_id("compare-models").text()


def test_differences_cells(page: Node, comparison: Comparison) -> None:
    """Each difference: estimate, low, high of the paired interval, and the verdict."""
    for model, by_measure in comparison.differences.items():
        for measure, interval in by_measure.items():
            row = [
                r
                for r in page.by_id("compare-differences").find_all("tr")
                if r.attrs.get("data-model") == model and r.attrs.get("data-measure") == measure
            ]
            assert len(row) == 1
            cells = row[0].cells()
            assert cells[2:5] == [fmt(interval.estimate), fmt(interval.low), fmt(interval.high)]
            excludes = interval.low > 0 or interval.high < 0
            assert cells[5] == ("excludes 0" if excludes else "includes 0")


def test_thresholds_and_tests(page: Node, comparison: Comparison) -> None:
    """The operating points' cells, and the Holm-adjusted p-values with the raw in the title."""
    for name, model in comparison.models.items():
        point = model.threshold
        assert point is not None
        cells = row_by(page, "compare-thresholds", "data-model", name)
        table, pos, neg = point.table, point.positive, point.negative  # cells by name
        tp, fp = table.count(pos, pos), table.count(pos, neg)
        fn, tn = table.count(neg, pos), table.count(neg, neg)
        assert cells[1] == f"{point.threshold:.6g}"
        assert cells[3:] == [f"{c:,g}" for c in (tp, fp, fn, tn)]
    for name, by_test in comparison.tests.items():
        row = [
            r
            for r in page.by_id("compare-tests").find_all("tr")
            if r.attrs.get("data-model") == name
        ]
        cells = {c.attrs["data-test"]: c for c in row[0].find_all("td") if "data-test" in c.attrs}
        assert set(cells) == set(by_test)
        for key, cell in cells.items():
            adjusted = comparison.adjusted[name][key]
            shown = f"{adjusted:.4f}" if adjusted >= 1e-4 else f"{adjusted:.2g}"
            assert cell.text() == shown
            assert f"raw p = {by_test[key].pvalue:.6f}" in cell.attrs["title"]


def test_figures_and_references(page: Node) -> None:
    """Both plots are there, drawn; the works the section cites are listed in full; nothing
    refers outside the page."""
    for key in ("compare-roc", "forest"):
        figure = page.by_id(FIGURES[key])
        assert len([n for n in figure.find("svg").iter() if n.tag == "path"]) > 10
    references = page.by_id("references").text()
    for work in (
        "Holm, S. (1979)",
        "McNemar, Q. (1947)",
        "DeLong, E. R.",
        "Efron, B. & Tibshirani",
    ):
        assert work in references
    assert external_references(page) == []
    assert not page.find_all("script")


def test_forest_draws_every_difference(page: Node, comparison: Comparison) -> None:
    """One labelled row of the forest plot per (measure, model) difference."""
    texts = " ".join(t.text() for t in page.by_id(FIGURES["forest"]).find_all("text"))
    rows = sum(len(by_measure) for by_measure in comparison.differences.values())
    assert rows == 2 * len(comparison.measures)
    assert texts.count(": weak") == len(comparison.measures)


def test_threshold_is_marked_on_the_roc() -> None:
    """With a threshold, the ranking's ROC plot marks it and the caption gives its table."""
    rng = np.random.default_rng(1)
    actual = rng.random(300) < 0.3
    ranking = Ranking.from_scores(
        actual=actual, scores=(actual + rng.normal(0, 1, 300)).round(1), positive=True
    )
    point = ranking.best_threshold()
    root = parse(html_report(ranking=ranking, threshold=point))
    roc = root.by_id(FIGURES["roc"])
    assert root.by_id("threshold-value").text() == f"{point.threshold:.6g}"
    assert root.by_id("threshold-measure").text() == fmt(point.value)
    assert any(n.attrs.get("id", "").endswith("threshold") for n in roc.iter())
    with pytest.raises(ValueError, match="OperatingPoint"):
        html_report(evaluate(Table.binary(tp=1, fp=2, fn=3, tn=4)), threshold=point)


def test_compare_cli_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`informed compare ... --html` writes the page of the shipped three-model example."""
    target = tmp_path / "three.html"
    code = main(
        [
            "compare",
            str(EXAMPLE),
            "--actual",
            "actual",
            "--predicted",
            "logistic",
            "bayes",
            "tree",
            "--score",
            "logistic_score",
            "bayes_score",
            "tree_score",
            "--positive",
            "malignant",
            "--replicates",
            "50",
            "--permutations",
            "99",
            "--html",
            str(target),
        ]
    )
    capsys.readouterr()
    assert code == 0
    root = parse(target.read_text(encoding="utf-8"))
    rows = table_rows(root, "compare-models")[1:]
    assert [row[1] for row in rows] == ["logistic", "bayes", "tree"]
    assert root.by_id(FIGURES["compare-roc"]) and root.by_id(FIGURES["forest"])
