"""Bands of calibration and decision curves, by resampling a Ranking's tie groups: seeded
coverage simulations against true values known in closed form (a population of eight
scores), the consistency band and the test of calibration under calibration, and the
documents."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from informed import InputError, Ranking
from informed.inference import calibration_bands, decision_curve_bands

SUPPORT = (np.arange(8) + 0.5) / 8  # the population's scores, equally likely


def _sample(rng: np.random.Generator, truth: np.ndarray, n: int) -> Ranking:
    """n rows: a score of SUPPORT drawn uniformly, the outcome Bernoulli(truth there)."""
    which = rng.integers(0, SUPPORT.size, n)
    actual = (rng.random(n) < truth[which]).astype(int)
    return Ranking.from_scores(actual, SUPPORT[which], positive=1, negative=0)


def test_net_benefit_band_covers_the_true_value() -> None:
    """At p_t = 0.3 the true net benefit is sum over the support of P(s) 1{s >= 0.3}
    (q(s) - (1 - q(s)) 0.3/0.7); the 90 % band covers it in about 90 % of 100 seeded
    samples of 400 rows (observed: see docs/calibration.md)."""
    truth = SUPPORT**1.5
    acted = SUPPORT >= 0.3
    true_nb = float(np.mean(acted * (truth - (1 - truth) * 0.3 / 0.7)))
    rng = np.random.default_rng(2024)
    covered = 0
    runs = 100
    for _ in range(runs):
        ranking = _sample(rng, truth, 400)
        result = decision_curve_bands(ranking, [0.3], replicates=100, level=0.9, seed=rng)
        low, high = result.bands["net_benefit"]
        covered += bool(low[0] <= true_nb <= high[0])
    assert 0.80 <= covered / runs <= 0.98


@pytest.mark.slow  # a coverage simulation, as tests/inference/test_inference_coverage.py
def test_corp_confidence_band_covers_the_true_curve() -> None:
    """With an increasing truth q(s) = s^1.5 on eight scores, the population's CORP curve
    is q itself; the 90 % confidence band at s = 9/16 covers it in about 90 % of samples."""
    truth = SUPPORT**1.5
    rng = np.random.default_rng(7)
    covered = 0
    runs = 120
    for _ in range(runs):
        ranking = _sample(rng, truth, 400)
        bands = calibration_bands(
            ranking, points=[SUPPORT[4]], replicates=150, level=0.9, seed=rng, intervals=False
        )
        low, high = bands.confidence
        covered += bool(low[0] <= truth[4] <= high[0])
    assert 0.80 <= covered / runs <= 0.98


@pytest.mark.slow  # a coverage simulation, as tests/inference/test_inference_coverage.py
def test_under_calibration_the_curve_stays_in_the_consistency_band() -> None:
    """Outcomes drawn from the scores themselves: the CORP curve at s = 9/16 lies inside
    the 90 % consistency band in about 90 % of samples, and the test of calibration
    rejects at 10 % in about 10 % (its p-value is close to uniform)."""
    rng = np.random.default_rng(11)
    inside, rejected = 0, 0
    runs = 120
    for _ in range(runs):
        ranking = _sample(rng, SUPPORT, 400)
        bands = calibration_bands(
            ranking, points=[SUPPORT[4]], replicates=150, level=0.9, seed=rng, intervals=False
        )
        low, high = bands.consistency
        inside += bool(low[0] <= bands.recalibrated[0] <= high[0])
        rejected += bands.p_value <= 0.1
    assert 0.80 <= inside / runs <= 0.98
    assert 0.02 <= rejected / runs <= 0.2


def test_the_test_of_calibration_finds_a_miscalibrated_model() -> None:
    rng = np.random.default_rng(5)
    ranking = _sample(rng, SUPPORT**3, 2000)
    bands = calibration_bands(ranking, replicates=200, seed=1, intervals=False)
    assert bands.p_value == pytest.approx(1 / 201)
    assert np.all(bands.consistency[0] <= bands.consistency[1])


def test_intervals_of_every_number_hold_their_estimate() -> None:
    ranking = _sample(np.random.default_rng(3), SUPPORT**1.2, 600)
    bands = calibration_bands(ranking, replicates=200, seed=0)
    for name, found in bands.intervals.items():
        assert found.low <= found.estimate <= found.high, name
    json.dumps(bands.to_dict(), allow_nan=False)


def test_an_undefined_slope_has_a_nan_interval_with_the_reason() -> None:
    ranking = Ranking.from_scores([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.2], positive=1)
    bands = calibration_bands(ranking, replicates=50, seed=0)
    assert math.isnan(bands.intervals["slope"].low)
    assert "separates" in (bands.intervals["slope"].reason or "")


def test_decision_bands_document_and_range() -> None:
    ranking = _sample(np.random.default_rng(9), SUPPORT**1.5, 800)
    result = decision_curve_bands(ranking, replicates=200, seed=0)
    assert result.curve.thresholds.tolist() == SUPPORT.tolist()  # every distinct score
    low, high = result.bands["net_benefit"]
    assert np.all(low <= high)
    assert result.lowest.low <= result.lowest.estimate <= result.lowest.high
    json.dumps(result.to_dict(), allow_nan=False)


def test_merged_rankings_give_the_same_bands_for_the_same_seed() -> None:
    rng = np.random.default_rng(4)
    which = rng.integers(0, 8, 900)
    actual = (rng.random(900) < SUPPORT[which]).astype(int)
    whole = Ranking.from_scores(actual, SUPPORT[which], positive=1)
    merged = sum(
        Ranking.from_scores(actual[i::3], SUPPORT[which][i::3], positive=1, negative=0)
        for i in range(3)
    )
    a = decision_curve_bands(whole, replicates=50, seed=1).to_dict()
    b = decision_curve_bands(merged, replicates=50, seed=1).to_dict()  # type: ignore[arg-type]
    assert a == b
    c = calibration_bands(whole, replicates=50, seed=1).to_dict()
    d = calibration_bands(merged, replicates=50, seed=1).to_dict()  # type: ignore[arg-type]
    assert c == d


def test_scores_that_are_no_probabilities_are_refused() -> None:
    ranking = Ranking.from_scores([1, 0], [3.0, -1.0], positive=1)
    for function in (calibration_bands, decision_curve_bands):
        with pytest.raises(InputError, match="lies outside"):
            function(ranking)  # type: ignore[operator]


def test_weights_that_round_to_no_case_say_so() -> None:
    """Frequency weights of 0.1 on four rows are 0.4 of a case: nothing to resample. Each
    number keeps its estimate and has no interval, for that reason, not "undefined in
    every bootstrap replicate"."""
    ranking = Ranking.from_scores([1, 0, 1, 0], [0.3, 0.2, 0.8, 0.6], positive=1, weights=[0.1] * 4)
    bands = calibration_bands(ranking, replicates=50, seed=0)
    brier = bands.intervals["brier"]
    assert brier.estimate == pytest.approx(np.mean(np.square([0.7, 0.2, 0.2, 0.6])))
    for name, found in bands.intervals.items():
        assert math.isnan(found.low), name
        assert "sum to 0.4, read as 0 cases (frequency weights)" in (found.reason or ""), name


def test_cases_drawn_one_by_one_are_the_multinomial() -> None:
    """Whole counts draw their cases one by one: each cell's count has the multinomial's
    mean N p and variance N p (1 - p), and two cells' covariance -N p q (the formulas,
    over 20,000 draws); weights fall back to numpy's multinomial."""
    from informed.inference.calibration_bands import _case_draws

    cells = np.array([5.0, 0.0, 3.0, 1.0, 11.0])
    cases, p = cells.sum(), cells / cells.sum()
    draw = _case_draws(np.random.default_rng(0), cells, weighted=False)
    drawn = np.array([draw()[0] for _ in range(20_000)])
    assert np.all(drawn.sum(axis=1) == cases) and np.all(drawn[:, 1] == 0)
    np.testing.assert_allclose(drawn.mean(axis=0), cases * p, atol=0.05)
    np.testing.assert_allclose(drawn.var(axis=0), cases * p * (1 - p), rtol=0.05, atol=1e-12)
    covariance = np.mean((drawn[:, 0] - cases * p[0]) * (drawn[:, 4] - cases * p[4]))
    assert covariance == pytest.approx(-cases * p[0] * p[4], rel=0.05)
    weighted = _case_draws(np.random.default_rng(0), cells / 2, weighted=True)()
    expected = np.random.default_rng(0).multinomial(10, cells / cells.sum()) * 1.0
    np.testing.assert_array_equal(weighted[0], expected)


def test_calibrated_outcomes_have_the_binomial_mean() -> None:
    """Under calibration a group of t trials has Binomial(t, score) positives: one trial
    a uniform below the score, several numpy's binomial; the mean t score (formula)."""
    from informed.inference.calibration_bands import _calibrated_hits

    scores = np.array([0.0, 0.1, 0.5, 0.9, 1.0, 0.3])
    trials = np.array([1, 1, 1, 1, 1, 4])
    rng = np.random.default_rng(1)
    hits = np.array([_calibrated_hits(rng, scores, trials, trials == 1) for _ in range(20_000)])
    assert np.all(hits[:, 0] == 0) and np.all(hits[:, 4] == 1) and hits[:, 5].max() <= 4
    np.testing.assert_allclose(hits.mean(axis=0), trials * scores, atol=0.02)


def test_a_replicate_s_numbers_are_the_calibration_of_its_ranking() -> None:
    """Each replicate's numbers come from its groups and its PAV, with no Ranking built:
    they are `calibration` of the replicate's Ranking (the fits to 1e-12)."""
    from informed.inference.calibration_bands import _after, _numbers, _replicate_numbers
    from informed.ranking import calibration
    from informed.ranking.pav import pav_blocks

    rng = np.random.default_rng(7)
    scores = np.sort(rng.uniform(0.01, 0.99, 30_000))
    rows = rng.integers(1, 4, scores.size).astype(float)
    positives = rng.binomial(rows.astype(int), scores**1.3).astype(float)
    ranking = Ranking(scores[::-1], positives[::-1], (rows - positives)[::-1])
    estimate = calibration(Ranking(scores[::-1], rows[::-1] // 2, (rows - rows // 2)[::-1]))
    values, _, block_rows, block_positives = pav_blocks(positives, rows)
    found = _replicate_numbers(
        scores, positives, rows, (values, block_positives, block_rows),
        estimate.recalibration, 10,
    )  # fmt: skip
    # as `calibration_bands` reads whole counts: PAV, the totals and the bins off the sums
    # after each group, 1 - score given, the arrays written to buffers longer than needed
    cumulative = (_after(positives, np.empty(scores.size + 1)), _after(rows, np.empty(40_000)))
    values, _, block_rows, block_positives = pav_blocks(positives, rows, cumulative)
    scratch = (np.full(40_000, np.nan), np.full(40_000, np.nan))
    read_off = _replicate_numbers(
        scores, positives, rows, (values, block_positives, block_rows),
        estimate.recalibration, 10, cumulative, 1.0 - scores, scratch,
    )  # fmt: skip
    expected = _numbers(calibration(ranking))
    for name, value in expected.items():
        assert found[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name
        assert read_off[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name
