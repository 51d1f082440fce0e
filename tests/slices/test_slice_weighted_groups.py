"""Fractional weights over few distinct scores: each row's tie group from one hash
(`score_groups`), the rows put in (score, signed weight) order by a quicksort of the
signed weights and a radix sort of the groups, not by a sort of (score, weight) pairs.
Every slice's Ranking and the overall one equal `Ranking.from_scores` of the rows (the
oracle), bit for bit, with weights whose sums depend on their order of addition."""

from __future__ import annotations

import numpy as np
import pytest

from informed.ranking import Ranking
from informed.slices import Slices
from informed.slices.counting import rank_sliced
from informed.slices.hashed import FEWEST_ROWS, score_groups

pytest.importorskip("pyarrow")

_WEIGHTS = [0.1, 1e-17, 1e17, 3.3, 0.0, 2.5, 7.0]


def _same(found: Ranking, expected: Ranking) -> None:
    assert found.scores.tobytes() == expected.scores.tobytes()
    assert found.positives.tobytes() == expected.positives.tobytes()
    assert found.negatives.tobytes() == expected.negatives.tobytes()


def _oracle(values: np.ndarray, positive: np.ndarray, weights: np.ndarray) -> Ranking:
    return Ranking.from_scores(
        actual=positive, scores=values, positive=True, negative=False, weights=weights
    )


def _data(seed: int, n: int = FEWEST_ROWS + 34_464) -> tuple[np.ndarray, ...]:
    """Scores of two decimals, some negative, -0.0 and 0.0 among them; weights of 0.1,
    1e-17, 1e17, 3.3 (and 0) mixed with fractions; 40 slices, the last three empty but
    for one of a single row."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(0.2, 0.5, n), 2)
    values[rng.random(n) < 0.02] = -0.0
    values[rng.random(n) < 0.02] = 0.0
    weights = np.where(rng.random(n) < 0.6, rng.choice(_WEIGHTS, n), rng.random(n) + 0.01)
    codes = rng.integers(0, 37, n)
    codes[n // 3] = 38  # one row; 37 and 39 empty
    return codes, values, rng.random(n) < 0.4, weights


@pytest.mark.parametrize("seed", [0, 1])
def test_every_slice_and_all_rows_as_ranking_from_scores(seed: int) -> None:
    codes, values, positive, weights = _data(seed)
    assert score_groups(values) is not None  # the route tested here
    rankings, overall = rank_sliced(codes, 40, positive, values, weights)
    for k in range(40):
        rows = codes == k
        _same(rankings[k], _oracle(values[rows], positive[rows], weights[rows]))
    assert rankings[37].n_groups == rankings[39].n_groups == 0
    assert rankings[38].n_groups == 1
    _same(overall, _oracle(values, positive, weights))


def test_slices_from_labels_with_fractional_weights() -> None:
    """Through `Slices.from_labels`: the slices' and overall Rankings, bit for bit."""
    codes, values, positive, weights = _data(2)
    s = Slices.from_labels(by=codes, actual=positive, scores=values, positive=True, weights=weights)
    for key, ranking in zip(s.keys, s.rankings or (), strict=True):
        rows = codes == key[0]
        _same(ranking, _oracle(values[rows], positive[rows], weights[rows]))
    assert s.overall_ranking is not None
    _same(s.overall_ranking, _oracle(values, positive, weights))


def test_score_groups_number_the_distinct_scores_descending() -> None:
    """Group g holds the g-th highest score; -0.0 and 0.0 are one group (0.0)."""
    _, values, _, _ = _data(3)
    found = score_groups(values)
    assert found is not None
    group, scores = found
    expected = np.unique(np.add(values, 0.0))[::-1]  # numpy's own sort, written out
    assert scores.tobytes() == np.add(expected, 0.0).tobytes()
    assert np.array_equal(scores[group], np.add(values, 0.0))


def test_many_distinct_scores_or_few_rows_are_left_to_the_sort_of_pairs() -> None:
    rng = np.random.default_rng(4)
    assert score_groups(rng.random(FEWEST_ROWS * 4)) is None  # continuous
    assert score_groups(np.round(rng.random(FEWEST_ROWS - 1), 2)) is None  # few rows
