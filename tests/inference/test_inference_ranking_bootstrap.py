"""The bootstrap of a Ranking's groups against a bootstrap of the rows."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from informed.errors import InputError, InputTypeError
from informed.inference import bootstrap_ranking, delong_interval
from informed.ranking import Ranking

B = 2000


def _rows(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = (rng.random(n) < 0.4).astype(int)
    scores = np.round(rng.normal(size=n) + actual, 1)  # ties
    return actual, scores


def _auc(actual: np.ndarray, scores: np.ndarray) -> float:
    """Mann-Whitney: the share of (positive, negative) pairs ordered right, ties one half."""
    positive, negative = scores[actual == 1], np.sort(scores[actual == 0])
    below = np.searchsorted(negative, positive, side="left")
    tied = np.searchsorted(negative, positive, side="right") - below
    return float(np.sum(below + 0.5 * tied) / (positive.size * negative.size))


@pytest.mark.parametrize("stratified", [True, False])
def test_group_bootstrap_equals_row_bootstrap(stratified: bool) -> None:
    """AUC quantiles of the group bootstrap and of resampling rows (within each class when
    stratified) agree within 4 Monte Carlo standard errors of a quantile difference."""
    actual, scores = _rows(0)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    ours = bootstrap_ranking(ranking, replicates=B, seed=1, stratified=stratified)
    rng = np.random.default_rng(2)
    index_pos, index_neg = np.flatnonzero(actual == 1), np.flatnonzero(actual == 0)
    theirs = []
    for _ in range(B):
        if stratified:
            rows = np.concatenate(
                [
                    index_pos[rng.integers(0, index_pos.size, index_pos.size)],
                    index_neg[rng.integers(0, index_neg.size, index_neg.size)],
                ]
            )
        else:
            rows = rng.integers(0, actual.size, actual.size)
        theirs.append(_auc(actual[rows], scores[rows]))
    values = ours.distribution["auc"]
    spread = np.std(np.concatenate([values, theirs]))
    for q in (0.025, 0.5, 0.975):
        se = math.sqrt(2 * q * (1 - q) / B) * spread / stats.norm.pdf(stats.norm.ppf(q))
        assert abs(np.quantile(values, q) - np.quantile(theirs, q)) < 4 * se, q
    assert stats.ks_2samp(values, theirs).pvalue > 1e-3


def test_stratified_bootstrap_spread_is_delong_standard_error() -> None:
    """The bootstrap standard deviation of AUC estimates DeLong's standard error (both are the
    variance of the same U-statistic to first order): within 10 %."""
    actual, scores = _rows(5, n=600)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    result = bootstrap_ranking(ranking, replicates=B, seed=0)
    assert result.intervals["auc"].standard_error == pytest.approx(
        delong_interval(ranking).standard_error, rel=0.1
    )


def test_pem_is_twice_auc_minus_one_in_every_replicate_and_quotas() -> None:
    """PEM = 2 AUC - 1 holds replicate by replicate; quota intervals surround the estimates."""
    actual, scores = _rows(3)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    result = bootstrap_ranking(ranking, quotas=[30, 150.5], replicates=300, seed=4)
    np.testing.assert_allclose(
        result.distribution["pem"], 2 * result.distribution["auc"] - 1, atol=1e-12
    )
    assert set(result.at_quota) == {"30", "150.5"}
    for measures in result.at_quota.values():
        for interval in measures.values():
            assert interval.low <= interval.estimate <= interval.high
    for name in ("auc", "pem", "average_hit_rate", "average_qrecall"):
        interval = result.intervals[name]
        assert interval.low < interval.estimate < interval.high


def test_seed_reproduces_and_undefined_replicates_are_counted() -> None:
    """Same seed, same replicates. Unstratified with two positives: replicates that draw no
    positive leave AUC undefined, counted in undefined_replicates; stratified never does."""
    actual = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    scores = np.arange(10.0)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    first = bootstrap_ranking(ranking, replicates=400, seed=7, stratified=False)
    second = bootstrap_ranking(ranking, replicates=400, seed=7, stratified=False)
    np.testing.assert_array_equal(first.distribution["auc"], second.distribution["auc"])
    # P(no positive in 10 draws) = 0.8^10 = 0.107: about 43 of 400
    assert 15 < first.intervals["auc"].undefined_replicates < 80
    assert (
        bootstrap_ranking(ranking, replicates=400, seed=7).intervals["auc"].undefined_replicates
        == 0
    )


def test_weighted_ranking_whole_weights_equal_counts() -> None:
    """Frequency weights: whole-number weights resample like repeated rows."""
    counts = Ranking(scores=[3.0, 2.0, 1.0], positives=[4, 2, 1], negatives=[1, 3, 5])
    weights = Ranking(scores=[3.0, 2.0, 1.0], positives=[4.0, 2.0, 1.0], negatives=[1.0, 3.0, 5.0])
    a = bootstrap_ranking(counts, replicates=200, seed=1, quotas=[5])
    b = bootstrap_ranking(weights, replicates=200, seed=1, quotas=[5])
    np.testing.assert_allclose(a.distribution["auc"], b.distribution["auc"])
    np.testing.assert_allclose(a.distribution["hit_rate@5"], b.distribution["hit_rate@5"])


def test_ranking_bootstrap_bad_inputs() -> None:
    """Bad inputs raise."""
    ranking = Ranking(scores=[2.0, 1.0], positives=[1, 1], negatives=[1, 1])
    with pytest.raises(InputTypeError):
        bootstrap_ranking([1, 2])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="quota"):
        bootstrap_ranking(ranking, quotas=[10])
    with pytest.raises(InputError):
        bootstrap_ranking(ranking, level=1.5)
    with pytest.raises(InputTypeError):
        bootstrap_ranking(ranking, stratified="yes")  # type: ignore[arg-type]
