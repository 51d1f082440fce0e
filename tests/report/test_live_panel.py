"""The live operating point of the ranking section, as the page holds it without script:
the first point Python writes, the operating points embedded for the script, how they
are chosen, and what the page says about them. The same panel after the script ran, at
#threshold=T in headless Chromium, is tested in test_report_browser.py."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from live_expected import assert_panel_shows, lowest_score_at_least, tie_ranking
from report_dom import parse

from informed import Ranking
from informed.report.html import html_report
from informed.report.html.live import MAX_OPERATING_POINTS, choose_cuts, js_number, live_points


def _ranking(n: int = 400, seed: int = 3, digits: int = 2) -> Ranking:
    rng = np.random.default_rng(seed)
    actual = rng.random(n) < 0.4
    scores = (rng.normal(size=n) + 1.1 * actual).round(digits)
    return Ranking.from_scores(actual=actual, scores=scores, positive=True)


def _data(page: str) -> dict[str, object]:
    found: dict[str, object] = json.loads(parse(page).by_id("live-data").text())
    return found


def test_without_script_the_panel_shows_the_first_point_exactly() -> None:
    """The page as written (no script run) shows the best-informedness threshold: its
    counts, informedness, markedness, payoff and stakes are the library's."""
    ranking = _ranking()
    best = ranking.best_threshold()
    page = html_report(ranking=ranking)
    root = parse(page)
    assert_panel_shows(root, ranking, best.threshold)
    assert page.count("\u00a0×\u00a0") == 4  # "59 × $6.46" never broken over two lines
    assert root.by_id("live-controls").attrs.get("hidden") is not None  # no script, no slider
    assert "the threshold with the best informedness" in root.by_id("live").text()


def test_a_given_threshold_between_scores_is_shown_as_asked() -> None:
    """--threshold 0.421 between two scores: the panel shows at_threshold(0.421), names
    the score that cut is at, and says the two select the same rows."""
    ranking = _ranking()
    point = ranking.at_threshold(0.421)
    root = parse(html_report(ranking=ranking, threshold=point))
    assert_panel_shows(root, ranking, 0.421)
    cut = js_number(lowest_score_at_least(ranking, 0.421))
    note = root.by_id("live-note").text()
    assert (
        note
        == f"score ≥ 0.421 predicts the same rows as score ≥ {cut}, the lowest score at least 0.421."
    )


def test_a_tie_at_four_decimals_is_written_half_to_even() -> None:
    """Informedness 1/32 = 0.03125 is written 0.0312, as Python writes it."""
    ranking = tie_ranking()
    root = parse(html_report(ranking=ranking, threshold=ranking.at_threshold(0.99)))
    assert root.by_id("live-informedness").text() == "0.0312"
    assert_panel_shows(root, ranking, 0.99)


def test_every_embedded_point_is_exact() -> None:
    """Each embedded point holds at_threshold's table and values at its threshold."""
    ranking = _ranking(n=300, seed=5)
    data = _data(html_report(ranking=ranking))
    for i in range(0, len(data["k"]), 7):  # type: ignore[arg-type]
        t = data["t"][i]  # type: ignore[index]
        threshold = math.inf if t is None else float(t)
        point = ranking.at_threshold(threshold)
        table = point.table  # its cells by name: predicted True is the positive row
        tp, fp = table.count(True, True), table.count(True, False)
        fn, tn = table.count(False, True), table.count(False, False)
        top = [data[key][i] for key in ("tp", "fp")]  # type: ignore[index]
        assert top == [tp, fp]  # fn and tn: the totals less these, as the script takes them
        assert [data["positives"] - tp, data["negatives"] - fp] == [fn, tn]  # type: ignore[operator]
        assert point.groups == data["k"][i]  # type: ignore[index]
        b, m = data["b"][i], data["m"][i]  # type: ignore[index]
        assert (math.nan if b is None else b) == point.value or math.isnan(point.value)
        marked = ranking.at_threshold(threshold, "markedness").value
        assert (m is None and math.isnan(marked)) or m == marked


def test_few_scores_embed_every_operating_point() -> None:
    ranking = _ranking()
    cuts, how = choose_cuts(ranking, [0])
    assert cuts.tolist() == list(range(ranking.n_groups + 1))
    assert f"all {ranking.n_groups:,} distinct thresholds" in how


def test_many_scores_embed_the_hull_the_ends_and_an_even_spread() -> None:
    """30,000 distinct scores: at most MAX_OPERATING_POINTS cuts, holding both ends, the
    first point, every vertex of the ROC hull; no gap between two embedded cuts holds more
    than a small share of the rows; the page says how they were chosen."""
    ranking = _ranking(n=40_000, seed=9, digits=6)
    assert ranking.n_groups > 30_000
    best = ranking.best_threshold()
    cuts, how = choose_cuts(ranking, [best.groups])
    assert cuts.size <= MAX_OPERATING_POINTS
    assert {0, 1, ranking.n_groups, best.groups} <= set(cuts.tolist())
    from informed.ranking import roc_convex_hull

    assert set(roc_convex_hull(ranking).index.tolist()) <= set(cuts.tolist())
    _, counts = ranking.cut_tables(cuts)
    selected = counts[:, 0, :].sum(axis=-1)
    assert np.diff(selected).max() <= 0.002 * ranking.n  # about 1/1000 of the rows apart
    assert f"{cuts.size:,} of the {ranking.n_groups + 1:,} operating points" in how
    page = html_report(ranking=ranking)
    data = _data(page)
    assert len(data["k"]) == cuts.size  # type: ignore[arg-type]
    size = len(parse(page).by_id("live-data").text().encode())
    assert size < 180_000, size  # about 80 bytes per point, whatever the rows


def test_the_embedded_data_cannot_close_its_script() -> None:
    """No "<" is written raw inside the data, so no "</script>" can end it early."""
    ranking = _ranking()
    page = html_report(ranking=ranking)
    start = page.index('<script type="application/json" id="live-data">')
    end = page.index("</script>", start)
    assert "<" not in page[start + 50 : end]
    assert page.count("<script") == 2  # the data and the one script, inline


def test_first_point_of_a_weighted_ranking_is_exact() -> None:
    """Float weights: the counts are weights, written to six digits as everywhere; the
    values behind them are the library's to the last bit."""
    rng = np.random.default_rng(2)
    actual = rng.random(200) < 0.3
    weights = rng.choice([0.1, 0.7, 1.3, 2.5], 200)
    scores = (rng.normal(size=200) + actual).round(1)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True, weights=weights)
    root = parse(html_report(ranking=ranking))
    assert_panel_shows(root, ranking, ranking.best_threshold().threshold)


def test_live_points_start_at_the_given_cut() -> None:
    ranking = _ranking()
    point = ranking.at_threshold(-100.0)  # below every score: everything positive
    points = live_points(ranking, point, "the threshold given")
    assert points.cuts[points.initial] == ranking.n_groups
    assert points.asked == -100.0


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (5.0, "5"),
        (0.1, "0.1"),
        (-2.5, "-2.5"),
        (1e-06, "0.000001"),
        (1e-07, "1e-7"),
        (1.5e-07, "1.5e-7"),
        (123456789012345680000.0, "123456789012345680000"),
        (1e21, "1e+21"),
        (1.2345e22, "1.2345e+22"),
        (0.30000000000000004, "0.30000000000000004"),
    ],
)
def test_numbers_are_written_as_javascript_writes_them(value: float, text: str) -> None:
    """js_number follows ECMAScript's Number::toString (also checked in Chromium)."""
    assert js_number(value) == text
