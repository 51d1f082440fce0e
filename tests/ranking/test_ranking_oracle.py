"""AUC, ROC points and average hit rate against scikit-learn on random data (weights included).

scikit-learn is an oracle for the tests only. Where the definitions part (average precision
with ties, or with weights that act as repeated rows), the test says so and stays out.
"""

from __future__ import annotations

import numpy as np
import pytest

from informed.ranking import Ranking, auc, average_hit_rate, roc_curve

metrics = pytest.importorskip("sklearn.metrics")

SEEDS = range(25)


def random_data(seed: int, *, ties: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    actual = (rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)
    actual[:2] = [0, 1]  # both classes present
    scores = rng.normal(actual * rng.uniform(0, 2), 1.0)
    if ties:
        scores = np.round(scores, int(rng.integers(0, 2)))
    weights = rng.uniform(0, 3, n) * (rng.random(n) > 0.1)  # some zero weights
    return actual, scores, weights


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_auc_matches_roc_auc_score(seed: int, ties: bool, weighted: bool) -> None:
    """AUC with half credit for tied pairs equals scikit-learn's, with and without weights."""
    actual, scores, weights = random_data(seed, ties=ties)
    w = weights if weighted else None
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1, weights=w)
    expected = metrics.roc_auc_score(actual, scores, sample_weight=w)
    assert auc(ranking) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_roc_points_match_roc_curve(seed: int, ties: bool, weighted: bool) -> None:
    """Every ROC point and threshold equals scikit-learn's `roc_curve(drop_intermediate=False)`."""
    actual, scores, weights = random_data(seed, ties=ties)
    w = weights if weighted else None
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1, weights=w)
    fpr, tpr, thresholds = metrics.roc_curve(
        actual, scores, sample_weight=w, drop_intermediate=False
    )
    curve = roc_curve(ranking)
    assert curve.thresholds.tolist() == thresholds.tolist()
    np.testing.assert_allclose(curve.false_positive_rate, fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(curve.true_positive_rate, tpr, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("seed", SEEDS)
def test_average_hit_rate_is_average_precision_without_ties(seed: int) -> None:
    """Eq. 12 equals scikit-learn's step-sum average precision when no two scores tie."""
    actual, scores, _ = random_data(seed, ties=False)
    assert np.unique(scores).size == scores.size
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    expected = metrics.average_precision_score(actual, scores)
    assert average_hit_rate(ranking) == pytest.approx(expected, rel=1e-12)


def test_average_hit_rate_differs_from_average_precision_under_ties() -> None:
    """With a tie the two differ (docs/ranking.md): AP takes the group's end precision.

    scores [0.9, 0.5, 0.5], actual [0, 1, 0]: AP = 1/3; eq. 12 gives positions 2 and 3
    t = 1/2 each, so (1/2 * (1/2)/2 + 1/2 * 1/3) / 1 = 7/24.
    """
    actual, scores = [0, 1, 0], [0.9, 0.5, 0.5]
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    assert metrics.average_precision_score(actual, scores) == pytest.approx(1 / 3)
    assert average_hit_rate(ranking) == pytest.approx(7 / 24, rel=1e-15)
