"""DeLong's AUC variance and paired test against a slow implementation of the paper."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from informed.errors import InputError, InputTypeError
from informed.inference import delong_interval, delong_test
from informed.ranking import Ranking


def _kernel(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mann-Whitney kernel psi(X_i, Y_j): 1 if X > Y, 1/2 if tied, 0 otherwise."""
    return (x[:, None] > y[None, :]) + 0.5 * (x[:, None] == y[None, :])


def _slow_components(actual: np.ndarray, scores: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """DeLong et al. (1988), by definition, O(n+ n-): AUC_r = mean psi; structural components
    V10_r(X_i) = mean_j psi(X_i, Y_j), V01_r(Y_j) = mean_i psi(X_i, Y_j); covariance
    S = S10 / m + S01 / n with S10_rs = sum_i (V10_r - AUC_r)(V10_s - AUC_s) / (m - 1)."""
    positive = actual == 1
    aucs, v10, v01 = [], [], []
    for s in scores:
        psi = _kernel(s[positive], s[~positive])
        aucs.append(psi.mean())
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    m, n = positive.sum(), (~positive).sum()
    a = np.array(aucs)
    s10 = sum(np.outer(v - a, v - a) for v in np.array(v10).T) / (m - 1)
    s01 = sum(np.outer(v - a, v - a) for v in np.array(v01).T) / (n - 1)
    return a, s10 / m + s01 / n


def _data(
    rng: np.random.Generator, n: int, levels: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two correlated scorers, rounded to few levels so that ties are frequent."""
    actual = (rng.random(n) < 0.35).astype(int)
    common = rng.normal(size=n)
    first = np.round((common + 1.2 * actual + rng.normal(size=n)) * levels / 4)
    second = np.round((common + 0.8 * actual + rng.normal(size=n)) * levels / 4)
    return actual, first, second


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("levels", [2, 6, 1000])
def test_delong_interval_matches_the_definition(seed: int, levels: int) -> None:
    """AUC and its standard error from the Ranking's groups equal the O(n^2) definition,
    with many ties (2 or 6 score levels) and almost none."""
    rng = np.random.default_rng(seed)
    actual, first, _ = _data(rng, 300, levels)
    auc, covariance = _slow_components(actual, [first])
    ranking = Ranking.from_scores(actual=actual, scores=first, positive=1)
    interval = delong_interval(ranking, method="plain")
    assert interval.estimate == pytest.approx(auc[0], rel=1e-12)
    assert interval.standard_error == pytest.approx(math.sqrt(covariance[0, 0]), rel=1e-9)
    z = stats.norm.ppf(0.975)
    se = math.sqrt(covariance[0, 0])
    assert interval.low == pytest.approx(max(auc[0] - z * se, 0.0), rel=1e-9)
    assert interval.high == pytest.approx(min(auc[0] + z * se, 1.0), rel=1e-9)
    logit = delong_interval(ranking)
    centre = math.log(auc[0] / (1 - auc[0]))
    spread = z * se / (auc[0] * (1 - auc[0]))
    assert logit.low == pytest.approx(1 / (1 + math.exp(-(centre - spread))), rel=1e-9)
    assert logit.high == pytest.approx(1 / (1 + math.exp(-(centre + spread))), rel=1e-9)
    assert logit.method == "delong-logit" and interval.method == "delong"


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("levels", [3, 1000])
def test_delong_test_matches_the_definition(seed: int, levels: int) -> None:
    """The paired test's AUCs, z and p equal those from the O(n^2) covariance matrix."""
    rng = np.random.default_rng(100 + seed)
    actual, first, second = _data(rng, 250, levels)
    auc, s = _slow_components(actual, [first, second])
    variance = s[0, 0] + s[1, 1] - 2 * s[0, 1]
    z = (auc[0] - auc[1]) / math.sqrt(variance)
    result = delong_test(actual, first, second)
    assert result.details["auc_first"] == pytest.approx(auc[0], rel=1e-12)
    assert result.details["auc_second"] == pytest.approx(auc[1], rel=1e-12)
    assert result.statistic == pytest.approx(z, rel=1e-9)
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-7)
    assert result.estimate == pytest.approx(auc[0] - auc[1], abs=1e-12)
    assert result.interval is not None
    assert result.interval.standard_error == pytest.approx(math.sqrt(variance), rel=1e-9)
    # each classifier's own variance is the single-AUC DeLong variance
    single = delong_interval(Ranking.from_scores(actual=actual, scores=second, positive=1))
    assert single.standard_error == pytest.approx(math.sqrt(s[1, 1]), rel=1e-9)


def test_one_positive_or_one_negative_is_nan_with_a_reason() -> None:
    """A single positive (or negative) has no sample variance: nan interval, estimate kept,
    no exception and no warning (confidenceinterval #14 crashed here)."""
    one_positive = Ranking.from_scores(actual=[1, 0, 0, 0], scores=[3, 4, 2, 1], positive=1)
    interval = delong_interval(one_positive)
    assert interval.estimate == pytest.approx(2 / 3)
    assert math.isnan(interval.low) and "single actual positive" in (interval.reason or "")
    one_negative = Ranking.from_scores(actual=[1, 1, 0], scores=[3, 1, 2], positive=1)
    interval = delong_interval(one_negative, method="plain")
    assert interval.estimate == 0.5 and "single actual negative" in (interval.reason or "")
    none = delong_interval(
        Ranking.from_scores(actual=[0, 0], scores=[1, 2], positive=1, negative=0)
    )
    assert math.isnan(none.estimate) and none.reason
    test = delong_test([1, 0, 0], [1, 2, 3], [3, 2, 1])
    assert math.isnan(test.pvalue) and "fewer than two actual positives" in (test.reason or "")


def test_all_tied_and_perfect_rankings_are_degenerate_points() -> None:
    """Every score tied: AUC 1/2 with zero variance; perfect separation: AUC 1. The interval
    is the point, with a caveat; AUC never leaves [0, 1]."""
    tied = Ranking.from_scores(actual=[1, 0, 1, 0, 0], scores=[5, 5, 5, 5, 5], positive=1)
    interval = delong_interval(tied)
    assert (interval.estimate, interval.low, interval.high) == (0.5, 0.5, 0.5)
    assert interval.reason is not None
    perfect = Ranking.from_scores(actual=[1, 1, 0, 0], scores=[4, 3, 2, 1], positive=1)
    for method in ("logit", "plain"):
        interval = delong_interval(perfect, method=method)  # type: ignore[arg-type]
        assert (interval.low, interval.high) == (1.0, 1.0)
    same = delong_test([1, 1, 0, 0, 1], [4, 3, 2, 1, 0], [40, 30, 20, 10, 0])
    assert (same.statistic, same.pvalue) == (0.0, 1.0)


def test_plain_interval_is_clamped_to_the_unit_interval() -> None:
    """A plain interval near AUC = 1 is clamped at 1; the logit one stays inside (0, 1)."""
    ranking = Ranking.from_scores(
        actual=[1, 1, 1, 0, 1, 0, 0, 0], scores=range(8, 0, -1), positive=1
    )
    plain = delong_interval(ranking, method="plain")
    assert plain.high == 1.0 and plain.estimate + 1.96 * plain.standard_error > 1.0
    logit = delong_interval(ranking)
    assert 0.0 < logit.low < logit.estimate < logit.high < 1.0


def test_a_million_cases_without_overflow() -> None:
    """n = 10^6 with ties (pROC #19 collapsed to 1-1 at n ~ 145 000): finite, inside [0, 1],
    and the standard error matches the large-sample value from a U-statistic subsample
    bound: se ~ se(n = 10^4) / 10 within 15 %."""
    rng = np.random.default_rng(0)
    n = 10**6
    actual = (rng.random(n) < 0.5).astype(int)
    scores = np.round(rng.normal(size=n) + actual, 2)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    interval = delong_interval(ranking)
    assert 0.0 < interval.low < interval.estimate < interval.high < 1.0
    assert math.isfinite(interval.standard_error) and interval.standard_error > 0
    small = delong_interval(
        Ranking.from_scores(actual=actual[: 10**4], scores=scores[: 10**4], positive=1)
    )
    assert interval.standard_error == pytest.approx(small.standard_error / 10, rel=0.15)
    # AUC of N(1, 1) against N(0, 1) is Phi(1 / sqrt(2)) = 0.7602 (rounding to 0.01 moves it
    # by ~1e-5): within 4 standard errors, not 1.96 (one realisation misses 5 % of the time)
    truth = stats.norm.cdf(1 / math.sqrt(2))
    assert abs(interval.estimate - truth) < 4 * interval.standard_error
    test = delong_test(actual, scores, scores + rng.normal(scale=0.5, size=n))
    assert math.isfinite(test.statistic) and 0.0 <= test.pvalue <= 1.0


def test_delong_bad_inputs() -> None:
    """Bad inputs raise, naming the problem."""
    with pytest.raises(InputTypeError, match="Ranking"):
        delong_interval([1, 0])  # type: ignore[arg-type]
    ranking = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[4, 3, 2, 1], positive=1)
    with pytest.raises(InputError):
        delong_interval(ranking, method="probit")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="0/1"):
        delong_test([1, 2, 0], [1, 2, 3], [1, 2, 3])
    with pytest.raises(InputError, match="inconsistent"):
        delong_test([1, 0, 0], [1, 2], [1, 2, 3])
    with pytest.raises(InputError, match="finite"):
        delong_test([1, 0, 1, 0], [1, np.nan, 2, 3], [1, 2, 3, 4])
