"""Every slice's Ranking from packed keys one or two bits longer than 64 (split by their
top bits, each part sorted alone) and decoded a block at a time: equal to
`Ranking.from_scores` on the slice's own rows (the oracle), whatever the ties, signed
zeros, empty and one-row slices, and wherever the blocks of 2^16 rows fall."""

from __future__ import annotations

import numpy as np
import pytest

from informed.ranking import Ranking
from informed.slices.counting import rank_sliced
from informed.slices.ranked import group_packed, pack_keys


def _oracle(values: np.ndarray, positive: np.ndarray) -> Ranking:
    return Ranking.from_scores(actual=positive, scores=values, positive=True, negative=False)


def _check(codes: np.ndarray, S: int, values: np.ndarray, positive: np.ndarray) -> None:
    """group_packed and rank_sliced against `Ranking.from_scores` of each slice's rows
    and of all of them: the same score bits, the same counts."""
    found = group_packed(codes, S, values, positive)
    assert found is not None
    rankings, overall = rank_sliced(codes, S, positive, values, None)
    for k, (scores, positives, negatives) in enumerate(found.slices()):
        rows = codes == k
        expected = _oracle(values[rows], positive[rows])
        assert scores.tobytes() == expected.scores.tobytes(), k
        assert np.array_equal(positives, expected.positives), k
        assert np.array_equal(negatives, expected.negatives), k
        assert rankings[k].scores.tobytes() == expected.scores.tobytes(), k
        assert np.array_equal(rankings[k].positives, expected.positives), k
    expected = _oracle(values, positive)
    assert overall.scores.tobytes() == expected.scores.tobytes()
    assert np.array_equal(overall.positives, expected.positives)
    assert np.array_equal(overall.negatives, expected.negatives)


def _data(n: int, S: int, seed: int, signs: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Full-mantissa scores over ~25 binades (as `rng.random` gives them) in S - 3 slices
    (the last three: one holding a row, two empty), some -0.0 and 0.0 among them."""
    rng = np.random.default_rng(seed)
    values = rng.random(n) + 0.5 * (rng.random(n) < 0.1)
    if signs:
        values *= rng.choice([-1.0, 1.0], n)
    codes = rng.integers(0, S - 3, n)
    codes[n // 2] = S - 2  # a slice of one row
    return codes, values, rng.random(n) < 0.3


@pytest.mark.parametrize("signs", [False, True])
def test_keys_one_bit_too_long_are_sorted_in_two_parts(signs: bool) -> None:
    """10^5 full mantissas in 100 slices need 65 bits: two parts, each slice exact."""
    codes, values, positive = _data(200_000, 103, 4, signs)
    packed = pack_keys(codes, 103, values, positive)
    assert packed is not None and packed.spare >= 1 and len(packed.parts) == 1 << packed.spare
    _check(codes, 103, values, positive)


def test_keys_that_fit_are_sorted_whole() -> None:
    codes, values, positive = _data(150_000, 7, 5, False)
    packed = pack_keys(codes, 7, values, positive)
    assert packed is not None and packed.spare == 0 and len(packed.parts) == 1
    _check(codes, 7, values, positive)


def test_signed_zeros_alone_and_together() -> None:
    """A slice holding -0.0 once gives 0.0; one holding -0.0 and 0.0 one group of two
    (ties: decoded from the groups, not a row at a time)."""
    codes, values, positive = _data(140_000, 103, 6, True)
    lone = np.flatnonzero(codes == 3)[:1]
    values[codes == 3] = np.linspace(0.1, 0.9, int(np.count_nonzero(codes == 3)))
    values[lone] = -0.0
    _check(codes, 103, values, positive)  # each (slice, score) one row: block decoding
    pair = np.flatnonzero(codes == 5)[:2]
    values[pair] = [-0.0, 0.0]
    _check(codes, 103, values, positive)


@pytest.mark.parametrize("at", [65_535, 65_536, 131_071, 199_998])
def test_a_tie_where_blocks_meet_is_a_group_of_two(at: int) -> None:
    """Distinct scores but for one pair, placed (in sorted order) across or beside the
    boundary of two blocks of 2^16 keys: that pair is one group of two rows."""
    n = 200_000
    rng = np.random.default_rng(8)
    values = 1.0 - np.arange(n) * 2.0**-40  # descending: row i is sorted at i
    values[at + 1] = values[at]
    codes = np.zeros(n, dtype=np.int64)
    positive = rng.random(n) < 0.5
    found = group_packed(codes, 1, values, positive)
    assert found is not None and found.scores.size == n - 1
    _check(codes, 1, values, positive)


def test_no_rows_and_every_row_in_one_slice() -> None:
    empty = group_packed(np.zeros(0, dtype=np.int64), 3, np.zeros(0), np.zeros(0, dtype=bool))
    assert empty is not None and empty.bounds.tolist() == [0, 0, 0, 0]
    codes, values, positive = _data(70_000, 103, 9, False)
    codes[:] = 101  # every other slice empty
    _check(codes, 103, values, positive)


def test_tops_far_apart_are_ranked_among_those_that_occur() -> None:
    """Full mantissas near 1e300, 1e-300, 0.5 and -2: the range of tops from the first to
    the last is too wide to fit beside 103 slices, the few dozen that occur are not."""
    codes, values, positive = _data(100_000, 103, 10, False)
    scale = np.random.default_rng(10).choice([1e300, 1e-300, 0.5, -2.0], values.size)
    values = values * scale
    packed = pack_keys(codes, 103, values, positive)
    assert packed is not None
    assert packed.tops.size < (packed.tops[-1] - packed.tops[0] + 1) // 10  # ranked
    _check(codes, 103, values, positive)
