"""The HTML report's calibration section, read from the parsed page: its numbers against
oracles computed here from the rows (brute force, scikit-learn's Brier score and
`IsotonicRegression`), its absence (with the ranking's other sections kept) when the
scores are no probabilities, its escaping, and the page `informed evaluate --score
--html` writes. The live marker's moves are checked in a browser
(`test_report_browser.py`)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from report_dom import Node, external_references, parse, row_by

from informed import Ranking
from informed.cli import main
from informed.report.calibration import calibration_report
from informed.report.html import FIGURES, html_report
from informed.report.html.calibration import BAND_GROUPS, decision_text
from informed.report.html.live import js_number

DATA = Path(__file__).resolve().parents[2] / "src" / "informed" / "data" / "breast_cancer_cv.csv"
HOSTILE = "<script>alert(3)</script>"


def _rows(n: int = 600, seed: int = 5) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    scores = rng.beta(2, 3, n).round(2)
    actual = (rng.random(n) < scores**1.5).astype(int)  # miscalibrated on purpose
    return actual, scores


def _net_benefit(actual: np.ndarray, scores: np.ndarray, p: float) -> tuple[float, float]:
    """Net benefit of acting on the rows scored >= p and of treating all, row by row."""
    n = len(actual)
    acted = scores >= p
    tp = sum(1 for a, s in zip(actual, acted, strict=True) if a == 1 and s)
    fp = sum(1 for a, s in zip(actual, acted, strict=True) if a == 0 and s)
    odds = p / (1 - p)
    prevalence = actual.sum() / n
    return tp / n - fp / n * odds, prevalence - (1 - prevalence) * odds


@pytest.fixture(scope="module")
def rows() -> tuple[np.ndarray, np.ndarray]:
    return _rows()


@pytest.fixture(scope="module")
def page(rows: tuple[np.ndarray, np.ndarray]) -> Node:
    actual, scores = rows
    ranking = Ranking.from_scores(actual, scores, positive=1)
    return parse(html_report(ranking=ranking, ranking_positive=HOSTILE, source="beta.csv"))


def test_the_section_holds_both_plots_and_the_numbers_of_the_rows(
    page: Node, rows: tuple[np.ndarray, np.ndarray]
) -> None:
    """Brier and log score equal their row-wise formulas (and scikit-learn's Brier), the
    mean score and observed rate the rows' means, net benefit at each listed p_t the
    count over the rows, each to the page's four decimals."""
    from sklearn.metrics import brier_score_loss

    actual, scores = rows
    section = page.by_id("calibration")
    for key in ("reliability", "decision"):
        figure = section.by_id(FIGURES[key])
        assert len([n for n in figure.find("svg").iter() if n.tag in ("path", "use")]) > 10
    brier = float(np.mean((scores - actual) ** 2))
    assert brier == pytest.approx(brier_score_loss(actual, scores), abs=1e-12)
    log = -float(np.mean(np.log(np.where(actual == 1, scores, 1 - scores))))
    assert row_by(page, "calibration-decomposition", "data-score", "brier")[1] == f"{brier:.4f}"
    assert row_by(page, "calibration-decomposition", "data-score", "log")[1] == f"{log:.4f}"
    mean = row_by(page, "calibration-numbers", "data-number", "mean_score")[1]
    assert mean == f"{scores.mean():.4f}"
    rate = row_by(page, "calibration-numbers", "data-number", "observed_rate")[1]
    assert rate == f"{actual.mean():.4f}"
    for p in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        cells = row_by(page, "decision-table", "data-threshold", repr(p))
        nb, everyone = _net_benefit(actual, scores, p)
        assert cells[1:3] == [f"{nb:.4f}", f"{everyone:.4f}"], p


def test_the_brier_decomposition_is_the_isotonic_fit_of_the_rows(
    page: Node, rows: tuple[np.ndarray, np.ndarray]
) -> None:
    """MCB and DSC: the Brier score less that of scikit-learn's isotonic recalibration,
    and the prevalence's Brier score less it; UNC the prevalence's Brier score."""
    from sklearn.isotonic import IsotonicRegression

    actual, scores = rows
    fitted = IsotonicRegression().fit(scores, actual).predict(scores)
    brier = np.mean((scores - actual) ** 2)
    recalibrated = np.mean((fitted - actual) ** 2)
    uncertainty = np.mean((actual.mean() - actual) ** 2)
    cells = row_by(page, "calibration-decomposition", "data-score", "brier")
    expected = [brier - recalibrated, uncertainty - recalibrated, uncertainty]
    assert cells[2:5] == [f"{v:.4f}" for v in expected]


def test_the_marker_starts_at_the_live_panels_threshold(
    page: Node, rows: tuple[np.ndarray, np.ndarray]
) -> None:
    """The words under the decision curve and the embedded marker start at p_t = the
    threshold the live panel shows first, with the net benefit counted over the rows."""
    actual, scores = rows
    shown = float(page.by_id("live-threshold").attrs["data-value"])
    nb, everyone = _net_benefit(actual, scores, shown)
    at = page.by_id("decision-at")
    assert float(at.attrs["data-value"]) == pytest.approx(nb, abs=1e-15)
    assert at.text() == decision_text(shown, nb, everyone)
    assert f"At p_t = {js_number(shown)}: net benefit {nb:.4f} per row" in at.text()
    data = json.loads(page.by_id("live-data").text())["decision"]
    assert data["marker"] == "plot-decision-threshold"
    assert page.by_id("plot-decision-threshold") is not None
    assert (data["x0"], data["n"], data["prevalence"]) == (shown, len(actual), actual.mean())


def test_the_page_stays_self_contained_and_escaped(page: Node) -> None:
    """The class named like a script is text in the section, and nothing is fetched."""
    assert HOSTILE in page.by_id("calibration").find("p").text()
    assert external_references(page) == []
    scripts = page.find_all("script")
    assert [s.attrs.get("type") for s in scripts] == ["application/json", None]


def test_scores_that_are_no_probabilities_get_no_section() -> None:
    """Scores outside [0, 1]: the ranking section stays, no calibration section, no
    calibration figure, no decision data in the live panel."""
    actual, scores = _rows()
    ranking = Ranking.from_scores(actual, scores * 3 - 1, positive=1)
    root = parse(html_report(ranking=ranking))
    assert root.find_all(id="ranking") and not root.find_all(id="calibration")
    assert not root.find_all(id=FIGURES["reliability"])
    assert json.loads(root.by_id("live-data").text())["decision"] is None


def test_a_threshold_of_one_shows_no_net_benefit() -> None:
    """A live point at score >= 1 has no threshold probability: the page says so and
    hides the marker, without a number."""
    ranking = Ranking.from_scores([1, 1, 0, 0, 1], [1.0, 1.0, 0.2, 0.6, 0.7], positive=1)
    root = parse(html_report(ranking=ranking, threshold=ranking.at_threshold(1.0)))
    at = root.by_id("decision-at")
    assert at.attrs["data-value"] == "nan"
    assert "no threshold probability (p_t must lie below 1)" in at.text()
    assert "display:none" in root.by_id("plot-decision-threshold").attrs.get("style", "")


def test_many_scores_are_drawn_without_bands_and_say_so() -> None:
    """Past BAND_GROUPS distinct scores the page draws no band and says why."""
    rng = np.random.default_rng(1)
    scores = rng.random(BAND_GROUPS + 500)
    ranking = Ranking.from_scores(rng.random(scores.size) < scores, scores, positive=True)
    root = parse(html_report(ranking=ranking))
    caption = root.by_id(FIGURES["reliability"]).find("figcaption").text()
    assert f"No bands: {ranking.n_groups:,} distinct scores" in caption
    assert not root.by_id(FIGURES["reliability"]).find_all(id="plot-reliability-confidence")


def test_the_report_given_is_the_one_shown() -> None:
    """`calibration=` is used as given (not recomputed); one of another type is refused."""
    actual, scores = _rows(200, 2)
    ranking = Ranking.from_scores(actual, scores, positive=1)
    report = calibration_report(ranking, bins=4)
    assert report is not None
    root = parse(html_report(ranking=ranking, calibration=report))
    assert row_by(root, "calibration-numbers", "data-number", "ece-equal-width")[0] == (
        "ECE, 4 equal-width bins"
    )
    with pytest.raises(TypeError, match="CalibrationReport"):
        html_report(ranking=ranking, calibration="yes")  # type: ignore[arg-type]


def test_the_command_line_page_has_the_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed evaluate --score --html` on the shipped predictions: the section, its
    Brier score counted from the file's rows."""
    path = tmp_path / "report.html"
    args = ["evaluate", str(DATA), "--actual", "actual", "--score", "score", "--positive"]
    assert main([*args, "malignant", "--html", str(path)]) == 0
    capsys.readouterr()
    root = parse(path.read_text(encoding="utf-8"))
    lines = DATA.read_text().splitlines()[1:]
    actual = np.array([line.split(",")[1] == "malignant" for line in lines], dtype=float)
    scores = np.array([float(line.split(",")[3]) for line in lines])
    brier = float(np.mean((scores - actual) ** 2))
    assert row_by(root, "calibration-decomposition", "data-score", "brier")[1] == f"{brier:.4f}"
    assert not math.isnan(float(root.by_id("decision-at").attrs["data-value"]))


def test_an_undefined_estimate_in_the_intervals_says_why() -> None:
    """One distinct score leaves no slope to fit: the intervals table's estimate cell reads
    "undefined" with that reason as its title (it used to be titled "undefined" too)."""
    ranking = Ranking.from_scores([1, 0, 1, 0, 1, 1], [0.5] * 6, positive=1)
    report = calibration_report(ranking, level=0.95, replicates=50)
    assert report is not None
    root = parse(html_report(ranking=ranking, calibration=report))
    for name in ("slope", "intercept"):
        (row,) = root.find_all("tr", **{"data-interval": name})
        estimate = row.find("td")
        assert estimate.text() == "undefined"
        assert estimate.attrs["title"] == "one distinct score: no slope to fit"
