"""The spread of AUC across slices (`informed.inference.slice_auc`): each slice's AUC is
scikit-learn's on its rows, each bootstrap replicate is scikit-learn's weighted AUC of the
rows drawn, small slices are left out of the spread and named, overlapping windows give
the reason."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from informed import Ranking
from informed.errors import InputError
from informed.inference.slice_auc import _replicates, auc_spread
from informed.slices import Slices
from informed.slices.rolling import accumulate


def _rows(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    group = rng.choice(np.array(["a", "b", "c"]), n, p=[0.5, 0.3, 0.2])
    actual = rng.integers(0, 2, n)
    spread = np.where(group == "b", 2.0, 0.8)
    return group, actual, np.round(actual + rng.normal(0, 1, n) * spread, 1)


def test_each_slice_is_sklearn_s_auc_and_the_spread_their_range() -> None:
    group, actual, scores = _rows(0, 2000)
    found = auc_spread(
        Slices.from_labels(by=group, actual=actual, scores=scores, positive=1),
        replicates=200,
        seed=0,
    )
    expected = [roc_auc_score(actual[group == g], scores[group == g]) for g in "abc"]
    assert found.auc.tolist() == pytest.approx(expected, abs=1e-12)
    assert found.spread.estimate == pytest.approx(max(expected) - min(expected), abs=1e-12)
    assert found.spread.low <= found.spread.estimate <= found.spread.high
    assert found.slices.keys[found.lowest] == ("b",)
    assert found.left_out == [] and found.spread_all.estimate == found.spread.estimate


def test_each_replicate_is_the_weighted_auc_of_the_rows_drawn() -> None:
    """The same multinomial draw over the (score, class) cells, given to scikit-learn as
    the weights of those cells."""
    rng = np.random.default_rng(1)
    actual = rng.integers(0, 2, 300)
    scores = np.round(actual + rng.normal(0, 1, 300), 1)
    ranking = Ranking.from_scores(actual, scores, positive=1)
    mine = _replicates(np.random.default_rng(5), ranking, 7)
    cells = np.concatenate([ranking.positives, ranking.negatives]).astype(float)
    drawn = np.random.default_rng(5).multinomial(300, cells / 300, size=7)
    values = np.concatenate([ranking.scores, ranking.scores])
    classes = np.r_[np.ones(ranking.scores.size), np.zeros(ranking.scores.size)]
    for b in range(7):
        expected = roc_auc_score(classes, values, sample_weight=drawn[b])
        assert mine[b] == pytest.approx(expected, abs=1e-12)


def test_small_slices_are_left_out_and_named() -> None:
    group, actual, scores = _rows(2, 1500)
    group = np.where(np.arange(1500) < 25, "tiny", group)
    found = auc_spread(
        Slices.from_labels(by=group, actual=actual, scores=scores, positive=1),
        replicates=50,
        seed=0,
    )
    names = [found.slices.name(k) for k in found.slices.keys]
    tiny = names.index("tiny")
    positives = int(actual[:25].sum())
    few = min(positives, 25 - positives)
    assert [s for s, _ in found.left_out] == [tiny]
    assert found.left_out[0][1].startswith(str(few))
    kept = [a for s, a in enumerate(found.auc) if s != tiny]
    assert found.spread.estimate == pytest.approx(max(kept) - min(kept), abs=1e-15)
    assert found.spread_all.estimate == pytest.approx(
        float(np.max(found.auc) - np.min(found.auc)), abs=1e-15
    )
    assert found.rule_text == "of at least 30 real positives and 30 real negatives"


def test_overlapping_windows_and_refusals() -> None:
    _, actual, scores = _rows(3, 900)
    days = np.datetime64("2024-01-01") + np.arange(900) // 100
    windows = Slices.from_labels(time=days, every="1d", actual=actual, scores=scores, positive=1)
    again = auc_spread(windows, replicates=30, seed=4)
    assert auc_spread(windows, replicates=30, seed=4).distribution.tolist() == (
        again.distribution.tolist()
    )
    merged = auc_spread(accumulate(windows), replicates=30, seed=0)
    assert math.isnan(merged.spread.estimate) and "the windows overlap" in str(merged.spread.reason)
    assert merged.highest is None
    with pytest.raises(InputError, match="build the slices with `scores`"):
        auc_spread(Slices.from_labels(by=["a", "b"], actual=[0, 1], predicted=[0, 1]))
