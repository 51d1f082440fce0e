"""plot_fold_differences and the HTML page of a comparison across folds: what is drawn is
each fold's difference measured by hand from its rows, and the corrected and naive
intervals as their formulas, written out here with scipy's t, give them."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from scipy import stats

import informed
from informed import InputTypeError, Table, evaluate
from informed.cli import main
from informed.comparison import compare_folds
from informed.report.html.folds import fold_comparison_report
from informed.slices import Folds

N, K = 360, 6
RNG = np.random.default_rng(11)
ACTUAL = RNG.integers(0, 2, N)
FOLD = RNG.permutation(N) % K + 1
A = np.where(RNG.random(N) < 0.3, 1 - ACTUAL, ACTUAL)
B = np.where(RNG.random(N) < 0.2, 1 - ACTUAL, ACTUAL)


def _comparison(names: tuple[str, str] = ("a", "b")) -> informed.comparison.FoldComparison:
    return compare_folds(
        Folds.from_labels(folds=FOLD, actual=ACTUAL, predicted=A),
        Folds.from_labels(folds=FOLD, actual=ACTUAL, predicted=B),
        measures=["informedness", "accuracy"],
        positive=1,
        names=names,
    )


def _by_hand(measure: str) -> np.ndarray:
    d = []
    for k in range(1, K + 1):
        rows = np.equal(FOLD, k)
        value = [
            evaluate(Table.from_labels(ACTUAL[rows], p[rows]), positive=1).measures[measure]
            for p in (A, B)
        ]
        d.append(value[1] - value[0])
    return np.array(d)


def _intervals(d: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    sizes = np.array([np.sum(np.equal(FOLD, k)) for k in range(1, K + 1)], dtype=float)
    q = stats.t.ppf(0.975, K - 1)
    corrected = math.sqrt((1 / K + sizes.mean() / (N - sizes.mean())) * d.var(ddof=1))
    naive = math.sqrt(d.var(ddof=1) / K)
    return (
        (d.mean() - q * corrected, d.mean() + q * corrected),
        (d.mean() - q * naive, d.mean() + q * naive),
    )


def test_each_fold_beside_the_corrected_and_naive_intervals() -> None:
    """Per measure (the first on top): the ticks are each fold's difference, the bar the
    corrected interval and the thin bar the naive one, as the formulas give them."""
    axes = informed.plot_fold_differences(_comparison())
    lines = {line.get_gid(): line for line in axes.get_lines() if line.get_gid()}
    assert [t.get_text() for t in axes.get_yticklabels()] == ["Accuracy (Rand)", "Informedness"]
    for y, measure in ((1, "informedness"), (0, "accuracy")):
        d = _by_hand(measure)
        folds = lines[f"folds-{y}"]
        np.testing.assert_allclose(folds.get_xdata(), d, atol=1e-15)  # type: ignore[attr-defined]
        corrected, naive = _intervals(d)
        got = lines[f"interval-{y}"].get_xdata()  # type: ignore[attr-defined]
        np.testing.assert_allclose(got, corrected, rtol=1e-12)
        got = lines[f"naive-{y}"].get_xdata()  # type: ignore[attr-defined]
        np.testing.assert_allclose(got, naive, rtol=1e-12)
        estimate = lines[f"estimate-{y}"].get_xdata()[0]  # type: ignore[attr-defined]
        assert estimate == pytest.approx(d.mean(), abs=1e-15)
        assert naive[1] - naive[0] < corrected[1] - corrected[0]
    assert "zero" in lines


def test_plot_fold_differences_refuses_other_results() -> None:
    """Anything but a FoldComparison is a type error naming what to pass."""
    with pytest.raises(InputTypeError, match="compare_folds"):
        informed.plot_fold_differences(Table.binary(tp=1, fp=2, fn=3, tn=4))


def test_the_page_holds_every_fold_and_escapes_names() -> None:
    """The page: each model across the folds, the intervals, the tests, each fold's
    difference (as measured by hand), the plot, the cited works; names escaped."""
    comparison = _comparison(names=("<b>old</b>", "new & better"))
    page = fold_comparison_report(comparison, source="x<y>.csv")
    for piece in ('id="folds-models"', 'id="folds-differences"', 'id="folds-tests"',
                  'id="folds-per-fold"', 'id="figure-fold-differences"',
                  "&lt;b&gt;old&lt;/b&gt;", "new &amp; better", "x&lt;y&gt;.csv",
                  "Nadeau, C. &amp; Bengio, Y. (2003)"):  # fmt: skip
        assert piece in page, piece
    assert "<b>old" not in page and "https://" not in page
    for value in _by_hand("informedness"):
        assert f"{value:.4f}".replace("-", "−") in page or f"{value:.4f}" in page
    corrected, _ = _intervals(_by_hand("informedness"))
    assert f"{corrected[1]:.4f}" in page


def test_compare_folds_html_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare --folds --html writes the page of the same comparison."""
    path = tmp_path / "cv.csv"
    lines = ["fold,y,a,b"] + [
        f"{f},{y},{a},{b}" for f, y, a, b in zip(FOLD, ACTUAL, A, B, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    html = tmp_path / "report.html"
    code = main(["compare", str(path), "--actual", "y", "--predicted", "a", "b", "--positive",
                 "1", "--folds", "fold", "--html", str(html)])  # fmt: skip
    assert code == 0 and capsys.readouterr().err == ""
    page = html.read_text()
    assert 'id="folds-per-fold"' in page and "<svg" in page
    corrected, _ = _intervals(_by_hand("informedness"))
    assert f"{corrected[0]:.4f}".replace("-", "−") in page
