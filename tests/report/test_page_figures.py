"""What the sliced and tally pages show, as a reader sees it: forest plots as wide as the
page's column, captions that describe what is drawn, and the ranges across slices that
fairlearn computes named as fairlearn names them, with fairlearn's own number."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import informed
from informed import Slices, Tally
from informed.inference import disparities, tally_intervals
from informed.report.html.figures import slices_svg, tally_svg
from informed.report.slice_disparities import summary_lines


def _binary(seed: int, n: int = 900, groups: int = 3) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    group = rng.integers(groups, size=n)
    actual = rng.random(n) < 0.4
    correct = rng.random(n) < 0.6 + 0.1 * group
    predicted = np.where(correct, actual, ~actual)
    return group, actual.astype(int), predicted.astype(int)


def _width_points(svg: str) -> float:
    found = re.search(r"max-width:([\d.]+)pt", svg)
    assert found is not None, svg[:200]
    return float(found.group(1))


def test_forest_plots_on_a_page_are_as_wide_as_its_column() -> None:
    """A page's column is about 1,000 pixels (750 points); the forest plots of the sliced
    and tally pages were drawn 5 inches (360 points) wide, a third of their box."""
    group, actual, predicted = _binary(1)
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    result = informed.bootstrap_slices(s, replicates=50, seed=0)
    assert _width_points(slices_svg(result, [0, 1, 2], 0.3)) >= 700
    tally = Tally(categories=["a", "b", "c"])
    rng = np.random.default_rng(2)
    for _ in range(200):
        correct = [c for c in "abc" if rng.random() < 0.4] or ["a"]
        assigned = [c for c in "abc" if (c in correct) == (rng.random() < 0.8)]
        tally.add_result(assigned, correct)
    assert _width_points(tally_svg(tally_intervals(tally, replicates=50, seed=0))) >= 700


def test_the_tally_caption_says_when_no_macro_line_is_drawn() -> None:
    """With a category whose informedness is undefined, the macro value is undefined and no
    dashed line is drawn: the caption no longer promises one."""
    from informed.report.html.tally import tally_page
    from informed.tally import summarize_tally

    tally = Tally(categories=["a", "b", "rare"])
    for assigned, correct in [(["a"], ["a"]), (["b"], ["a"]), (["b"], ["b"]), (["a"], ["b"])]:
        tally.add_result(assigned, correct)
    tally.add_result(["rare"], ["a"])  # 'rare' is never a real category: recall undefined
    intervals = tally_intervals(tally, replicates=30, seed=0)
    assert np.isnan(intervals.macro["informedness"].estimate)
    page = tally_page(summarize_tally(tally), intervals)
    assert "the dashed one the macro" not in page
    assert "the macro value is undefined: no dashed line" in page


def test_the_range_over_every_slice_is_named_as_fairlearns_with_fairlearns_number() -> None:
    """The headline equalized-odds value leaves out small slices; the value over every
    slice beside it is fairlearn's equalized_odds_difference, and says so: the number a
    fairlearn user gets (fairlearn computes it here, as the oracle)."""
    fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
    group, actual, predicted = _binary(3, n=300, groups=4)
    group[:12] = 9  # a slice too small for the headline range
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    d = disparities(s, positive=1, replicates=30, seed=0)
    assert d.left_out["equalized_odds_difference"]
    lines = summary_lines(d)
    every = next(line for line in lines if "fairlearn's equalized_odds_difference" in line)
    shown = float(re.search(r"over every slice: ([\d.]+)", every).group(1))  # type: ignore[union-attr]
    eod = fairlearn_metrics.equalized_odds_difference(actual, predicted, sensitive_features=group)
    assert shown == pytest.approx(eod, abs=5e-4)  # as printed, 3 decimals
    dpd = fairlearn_metrics.demographic_parity_difference(
        actual, predicted, sensitive_features=group
    )
    parity = next(line for line in lines if "fairlearn's demographic_parity_difference" in line)
    shown = float(re.search(r"over every slice: ([\d.]+)", parity).group(1))  # type: ignore[union-attr]
    assert shown == pytest.approx(dpd, abs=5e-4)


def test_more_than_two_labels_are_not_called_fairlearns() -> None:
    """fairlearn's differences take binary predictions: over three labels the ranges are
    informed's own (every label's one-vs-rest view) and carry no fairlearn name."""
    rng = np.random.default_rng(4)
    actual = rng.integers(3, size=600)
    predicted = np.where(rng.random(600) < 0.7, actual, rng.integers(3, size=600))
    s = Slices.from_labels(by=rng.integers(3, size=600), actual=actual, predicted=predicted)
    lines = summary_lines(disparities(s, replicates=30, seed=0))
    assert lines and not any("fairlearn" in line for line in lines)


def test_reasons_are_notes_under_the_slices_table_not_text_in_number_cells() -> None:
    """A slice with no interval (a perfect slice: every replicate gives 1) or no value (no
    real negatives) gave its reason inside the number's cell, a tall narrow column of
    words: the cell now points to a numbered note, each reason listed once under the
    table."""
    from informed.report.html.page import slices_report

    rng = np.random.default_rng(3)
    actual = (rng.random(600) < 0.4).astype(int)
    predicted = np.where(rng.random(600) < 0.8, actual, 1 - actual)
    group = ["big"] * 600 + ["tiny"] * 8 + ["perfect"] * 40
    perfect = (rng.random(40) < 0.5).astype(int)
    actual = np.concatenate([actual, np.ones(8, int), perfect])
    predicted = np.concatenate([predicted, np.ones(8, int), perfect])
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    result = informed.bootstrap_slices(s, positive=1, replicates=50, seed=0)
    d = disparities(s, positive=1, replicates=50, seed=0)
    page = slices_report(result, d, overall=0.6, source="x.csv")
    table = page[
        page.index('<table id="slices-table"') : page.index(
            "</table>", page.index('<table id="slices-table"')
        )
    ]
    cells = re.findall(r'<td class="num"[^>]*>(.*?)</td>', table, re.S)
    assert cells and all(len(re.sub(r"<[^>]+>", "", c)) < 40 for c in cells), cells
    notes = re.findall(r'<li id="slice-note-(\d+)">(.*?)</li>', page, re.S)
    reasons = [text for _, text in notes]
    assert len(reasons) == len(set(reasons)) >= 3
    assert any("every replicate" in r for r in reasons)
    assert any("informedness undefined" in r for r in reasons)
    for number, _ in notes:
        assert f'href="#slice-note-{number}"' in table
