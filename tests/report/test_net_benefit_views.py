"""The difference in net benefit shown: the terminal section, the HTML page's figure and
table, and `plot_net_benefit_difference`, each read back and held to the numbers of the
`Comparison` (themselves held to a brute force in tests/inference)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from report_dom import Node, parse, table_rows

import informed
from informed import Comparison, InputError, compare
from informed._terminal import MIN_WIDTH
from informed.comparison.net_benefit import net_benefit_difference
from informed.comparison.text import render_comparison
from informed.ranking.decision import REPORT_THRESHOLDS
from informed.report.html import FIGURES, comparison_report

HOSTILE = "<b>x</b>"


@pytest.fixture(scope="module")
def comparison() -> Comparison:
    rng = np.random.default_rng(11)
    risk = rng.beta(1.5, 3.0, 400)
    actual = (rng.random(400) < risk).astype(int)
    scores = {
        "sharp": np.clip(np.round(risk + rng.normal(0, 0.05, 400), 3), 0, 1),
        HOSTILE: np.clip(np.round(risk + rng.normal(0, 0.2, 400), 3), 0, 1),
    }
    return compare(actual, scores=scores, positive=1, replicates=100, permutations=9, seed=0)


@pytest.fixture(scope="module")
def page(comparison: Comparison) -> Node:
    return parse(comparison_report(comparison, source="x.csv"))


def test_the_terminal_section_shows_the_difference_and_its_ranges(comparison: Comparison) -> None:
    """At 200 columns one row per report threshold with both net benefits, the difference
    and its band; the exact ranges; at 60 columns (drawn at the narrowest width) the table
    split, every number whole."""
    ((model, found),) = comparison.net_benefit.items()
    text = render_comparison(comparison, "x.csv", width=200)
    assert f"Net benefit, {model} - {comparison.reference}" in text
    low, high = found.bands["difference"]
    for p in (0.1, 0.5):
        i = list(found.thresholds).index(p)
        row = next(line for line in text.splitlines() if line.split()[:1] == [f"{p:.4g}"]
                   and f"{found.difference[i]:.4f}" in line)  # fmt: skip
        assert f"[{low[i]:.4f}, {high[i]:.4f}]" in row
    assert f"{comparison.reference} beats {model} for p_t in" in text
    for width in (60, MIN_WIDTH):  # 40 columns: the narrowest drawn
        narrow = render_comparison(comparison, "x.csv", width=width)
        assert max(len(line) for line in narrow.splitlines()) <= width
        assert "…" not in narrow.split("Net benefit,")[1]


def test_the_page_has_the_figure_and_the_table(page: Node, comparison: Comparison) -> None:
    ((model, found),) = comparison.net_benefit.items()
    figure = page.by_id(FIGURES["net-benefit-difference"])
    assert figure.find_all(id="plot-net-benefit-difference")
    assert "Vickers & Elkin (2006)" in figure.find("figcaption").text()
    rows = table_rows(page, "compare-net-benefit")[1:]
    assert [row[1] for row in rows] == [f"{p:g}" for p in REPORT_THRESHOLDS]
    low, high = found.bands["difference"]
    for row in rows:
        i = list(found.thresholds).index(float(row[1]))
        assert row[0] == model  # escaped in the page, the text itself read back
        expected = [found.net_benefit[model][i], found.difference[i], low[i], high[i]]
        assert row[2:] == [f"{v:.4f}" for v in expected]


def test_no_section_without_probabilities() -> None:
    result = compare([1, 0, 1, 0] * 10, scores={"a": [3, 1, 2, 0] * 10, "b": [1, 3, 2, 0] * 10},
                     positive=1, replicates=20, permutations=9, seed=0)  # fmt: skip
    assert result.net_benefit == {}
    page = parse(comparison_report(result, source="x.csv"))
    assert not page.find_all(id=FIGURES["net-benefit-difference"])
    assert "Net benefit," not in render_comparison(result, "x.csv")
    with pytest.raises(InputError, match="not probabilities"):
        informed.plot_net_benefit_difference(result)


def test_the_plot_draws_the_difference_and_its_band(comparison: Comparison) -> None:
    """The line is the difference at every threshold, the band its paired percentile band;
    a NetBenefitDifference of two models draws the same."""
    ((_, found),) = comparison.net_benefit.items()
    axes = informed.plot_net_benefit_difference(comparison)
    lines = {line.get_gid(): line for line in axes.get_lines()}
    assert set(lines) == {"difference-0", "zero"}
    np.testing.assert_array_equal(lines["difference-0"].get_xdata(), found.thresholds)
    np.testing.assert_array_equal(lines["difference-0"].get_ydata(), found.difference)
    band = next(c for c in axes.collections if c.get_gid() == "band-0")
    vertices = band.get_paths()[0].vertices
    low, high = found.bands["difference"]
    assert np.isclose(vertices[:, 1].min(), min(low.min(), high.min()))
    actual = [0, 0, 1, 0, 1, 1] * 20
    alone = net_benefit_difference(
        actual, {"a": [.1, .2, .3, .4, .6, .8] * 20, "b": [.1, .2, .5, .3, .6, .8] * 20},
        positive=1, replicates=50, seed=0,
    )  # fmt: skip
    drawn = informed.plot_net_benefit_difference(alone)
    (line,) = [x for x in drawn.get_lines() if x.get_gid() == "difference-0"]
    np.testing.assert_array_equal(line.get_ydata(), alone.difference)
