"""Every slice's Ranking from one hash of the scores and one count (`group_hashed`):
equal, score bits and counts, to `Ranking.from_scores` on each slice's rows (a loop
over the slices, the brute-force oracle) and to the packed route, with ties, -0.0 and
0.0 in one slice, negative and subnormal scores, few and many distinct scores, whole
weights (with zeros); and the routes it leaves to the packed sort (many distinct
scores, fractional weights, no pyarrow, too little memory, few rows) give the same
Rankings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import informed.coding.columns
from informed.ranking import Ranking
from informed.slices import Slices
from informed.slices.counting import rank_sliced
from informed.slices.hashed import FEWEST_ROWS, MOST_SCORES, exact_weights, group_hashed
from informed.slices.ranked import group_packed

pytest.importorskip("pyarrow")

N = FEWEST_ROWS
_SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1e300, -1e300, 0.5, 2.0**-1022])


def _scores(kind: str, rng: np.random.Generator, n: int) -> np.ndarray:
    """Scores with ties: at most a few hundred distinct values."""
    if kind == "rounded":
        return np.round(rng.normal(size=n), 2)
    if kind == "zeros":  # -0.0 and 0.0 in every slice, beside others
        return rng.choice(np.array([-0.0, 0.0, 0.25, -0.25]), n)
    if kind == "special":
        return rng.choice(_SPECIAL, n)
    if kind == "float32":
        return rng.choice(rng.random(300).astype(np.float32).astype(np.float64), n)
    if kind == "integers":
        return rng.integers(-50, 50, n).astype(np.float64)
    return np.full(n, 3.5)


_KINDS = ["rounded", "zeros", "special", "float32", "integers", "constant"]


def _same(found: Ranking, expected: Ranking) -> None:
    assert found.scores.tobytes() == expected.scores.tobytes()
    assert found.positives.dtype == expected.positives.dtype
    assert np.array_equal(found.positives, expected.positives)
    assert np.array_equal(found.negatives, expected.negatives)


def _oracle(
    codes: np.ndarray,
    values: np.ndarray,
    positive: np.ndarray,
    weights: np.ndarray | None,
    k: int,
) -> Ranking:
    rows = codes == k
    return Ranking.from_scores(
        actual=positive[rows],
        scores=values[rows],
        positive=True,
        negative=False,
        weights=None if weights is None else weights[rows],
    )


def _check_every_slice(
    codes: np.ndarray,
    S: int,
    values: np.ndarray,
    positive: np.ndarray,
    weights: np.ndarray | None,
) -> None:
    rankings, overall = rank_sliced(codes, S, positive, values, weights)
    for k in range(S):
        _same(rankings[k], _oracle(codes, values, positive, weights, k))
    everything = Ranking.from_scores(
        actual=positive, scores=values, positive=True, negative=False, weights=weights
    )
    _same(overall, everything)


@pytest.mark.parametrize("kind", _KINDS)
def test_each_slice_equals_its_rows_ranked_alone(kind: str) -> None:
    """The hashed route is taken and gives each slice the Ranking `Ranking.from_scores`
    gives its rows, the overall one that of all rows, bit for bit."""
    rng = np.random.default_rng(11)
    values = _scores(kind, rng, N)
    codes = rng.integers(0, 7, N)
    positive = rng.random(N) < 0.3
    found = group_hashed(codes, 7, values, positive, None)
    assert found is not None
    assert found.positives.dtype == np.int64
    _check_every_slice(codes, 7, values, positive, None)


@pytest.mark.parametrize("kind", _KINDS)
def test_hashed_groups_equal_the_packed_route(kind: str) -> None:
    """One hash and one count give the groups one sort of packed keys gives."""
    rng = np.random.default_rng(12)
    values = _scores(kind, rng, N + 123)
    codes = rng.integers(0, 5, N + 123)
    positive = rng.random(N + 123) < 0.5
    hashed = group_hashed(codes, 5, values, positive, None)
    packed = group_packed(codes, 5, values, positive)
    assert hashed is not None and packed is not None
    assert hashed.scores.tobytes() == packed.scores.tobytes()
    for name in ("positives", "negatives", "bounds"):
        assert np.array_equal(getattr(hashed, name), getattr(packed, name)), name


@settings(max_examples=25, deadline=None)
@given(
    slices=st.integers(1, 40),
    distinct=st.integers(1, 700),
    weighted=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_slices_and_ties_equal_each_slice_alone(
    slices: int, distinct: int, weighted: bool, seed: int
) -> None:
    """Any number of slices and of distinct scores (drawn from normal values, special
    values and both zeros), with or without whole weights: where the hashed route is
    taken, each slice equals its rows ranked alone; where it is not, the cells would
    have outnumbered the rows."""
    rng = np.random.default_rng(seed)
    pool = np.concatenate([_SPECIAL, rng.normal(size=distinct)])[:distinct]
    values = rng.choice(pool, N)
    codes = rng.integers(0, slices, N)
    positive = rng.random(N) < rng.random()
    weights = rng.integers(0, 5, N).astype(np.float64) if weighted else None
    found = group_hashed(codes, slices, values, positive, weights)
    if found is None:
        assert 2 * slices * np.unique(values.view(np.uint64)).size > N
    _check_every_slice(codes, slices, values, positive, weights)


def test_negative_zero_and_zero_are_one_score_in_each_slice_and_overall() -> None:
    """-0.0 and 0.0 (two bit patterns, two entries of the hash) are one tie group, shown
    as 0.0, in each slice and overall."""
    rng = np.random.default_rng(13)
    values = rng.choice(np.array([-0.0, 0.0]), N)
    codes = rng.integers(0, 3, N)
    positive = rng.random(N) < 0.4
    found = group_hashed(codes, 3, values, positive, None)
    assert found is not None
    assert found.scores.tolist() == [0.0, 0.0, 0.0]
    assert not np.signbit(found.scores).any() and not np.signbit(found.overall_scores).any()
    assert found.positives.tolist() == [int(positive[codes == k].sum()) for k in range(3)]
    assert found.overall_positives.tolist() == [int(positive.sum())]


@pytest.mark.parametrize("kind", ["rounded", "zeros", "integers"])
def test_whole_weights_are_summed_exactly(kind: str) -> None:
    """Whole weights (zeros among them: a score all of whose rows weigh 0 makes no group)
    take the hashed route; each slice's weighted Ranking equals `Ranking.from_scores`."""
    rng = np.random.default_rng(14)
    values = _scores(kind, rng, N)
    codes = rng.integers(0, 6, N)
    positive = rng.random(N) < 0.3
    weights = rng.integers(0, 4, N).astype(np.float64)
    weights[codes == 5] = 0.0  # a slice of rows that all weigh nothing: no group
    found = group_hashed(codes, 6, values, positive, weights)
    assert found is not None
    assert found.positives.dtype == np.float64
    assert found.bounds[5] == found.bounds[6]
    _check_every_slice(codes, 6, values, positive, weights)


def test_large_whole_weights_near_the_exact_limit() -> None:
    """Weights of 2^40 sum exactly (the total stays below 2^52); beyond, the hashed
    route declines and the rows go the order-keeping route."""
    rng = np.random.default_rng(15)
    values = np.round(rng.random(N), 1)
    codes = rng.integers(0, 4, N)
    positive = rng.random(N) < 0.5
    weights = np.full(N, 2.0**34)  # total 2^50
    weights[::7] = 1.0
    assert group_hashed(codes, 4, values, positive, weights) is not None
    _check_every_slice(codes, 4, values, positive, weights)
    heavy = np.full(N, 2.0**40)  # total 2^56: partial sums could round
    assert not exact_weights(heavy)
    assert group_hashed(codes, 4, values, positive, heavy) is None
    _check_every_slice(codes, 4, values, positive, heavy)


def test_fractional_weights_take_the_order_keeping_route() -> None:
    """Weights that are not whole numbers are summed as `Ranking.from_scores` sums them
    (their float sums depend on the order): the hashed route declines."""
    rng = np.random.default_rng(16)
    values = np.round(rng.random(N), 2)
    codes = rng.integers(0, 5, N)
    positive = rng.random(N) < 0.4
    weights = rng.random(N)
    assert not exact_weights(weights)
    assert group_hashed(codes, 5, values, positive, weights) is None
    _check_every_slice(codes, 5, values, positive, weights)


def test_many_distinct_scores_fall_back_to_the_packed_sort() -> None:
    """Nearly distinct scores would need more cells (slices x 2 x distinct scores) than
    there are rows: the hashed route declines, and the packed route is exact."""
    rng = np.random.default_rng(17)
    values = rng.random(N)
    codes = rng.integers(0, 9, N)
    positive = rng.random(N) < 0.5
    assert group_hashed(codes, 9, values, positive, None) is None
    _check_every_slice(codes, 9, values, positive, None)


def test_distinct_scores_the_sample_misses_fall_back_too() -> None:
    """Ties in the rows sampled first (one in 64), distinct scores elsewhere: the sample
    lets the column be hashed, the count of its distinct scores then declines."""
    rng = np.random.default_rng(18)
    values = rng.random(N)
    values[::64] = 0.5
    codes = rng.integers(0, 3, N)
    positive = rng.random(N) < 0.5
    assert group_hashed(codes, 3, values, positive, None) is None
    _check_every_slice(codes, 3, values, positive, None)


def test_a_sample_that_seldom_repeats_declines_before_the_column_is_hashed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Continuous scores in 2 slices: the 4,096 rows sampled of 2^18 pass the bound on
    cells, but repeat too seldom for MOST_SCORES distinct scores; only the sample is
    hashed. Sorted by score (ties the stride steps over), the column is still hashed
    whole, and 20,000 distinct scores in random order are hashed: both routes exact."""
    hashed = pytest.importorskip("informed.slices.hashed")
    calls: list[int] = []
    real = hashed.numpy_arrow

    def counted(values: np.ndarray) -> object:
        calls.append(values.size)
        return real(values)

    monkeypatch.setattr(hashed, "numpy_arrow", counted)
    rng = np.random.default_rng(23)
    n = 1 << 18
    codes = rng.integers(0, 2, n)
    positive = rng.random(n) < 0.5
    values = rng.random(n)
    assert group_hashed(codes, 2, values, positive, None) is None
    assert calls == [n // 64]
    _check_every_slice(codes, 2, values, positive, None)
    ordered = np.sort(np.resize(np.arange(20_000) / 3.0, n))  # runs of 13 or 14
    assert group_hashed(codes, 2, ordered, positive, None) is not None
    _check_every_slice(codes, 2, ordered, positive, None)
    shuffled = rng.permutation(ordered)
    assert group_hashed(codes, 2, shuffled, positive, None) is not None
    _check_every_slice(codes, 2, shuffled, positive, None)


def test_more_distinct_scores_than_the_hash_keeps_in_cache_fall_back() -> None:
    """One slice, MOST_SCORES + 1 distinct scores over 2^18 rows: the cells would be
    fewer than the rows, but the hash would be slow; the packed route is taken."""
    rng = np.random.default_rng(22)
    n = 1 << 18
    values = rng.permutation(np.resize(np.arange(MOST_SCORES + 1) / 7.0, n))
    codes = np.zeros(n, dtype=np.intp)
    positive = rng.random(n) < 0.5
    assert group_hashed(codes, 1, values, positive, None) is None
    fewer = values < 5000  # 35,000 distinct scores: hashed
    assert group_hashed(codes[fewer], 1, values[fewer], positive[fewer], None) is not None
    _check_every_slice(codes, 1, values, positive, None)


def test_without_pyarrow_or_memory_or_rows_the_packed_route_is_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No pyarrow, a memory budget too small for the cells, or fewer rows than
    FEWEST_ROWS: group_hashed says None and rank_sliced is still exact."""
    rng = np.random.default_rng(19)
    values = np.round(rng.normal(size=N), 1)
    codes = rng.integers(0, 4, N)
    positive = rng.random(N) < 0.5
    assert group_hashed(codes, 4, values, positive, None) is not None
    monkeypatch.setattr(informed.coding.columns, "ARROW_DISABLED", True)
    assert group_hashed(codes, 4, values, positive, None) is None
    _check_every_slice(codes, 4, values, positive, None)
    monkeypatch.setattr(informed.coding.columns, "ARROW_DISABLED", False)
    monkeypatch.setenv("INFORMED_MEMORY_LIMIT", str(N))  # fewer bytes than the codes
    assert group_hashed(codes, 4, values, positive, None) is None
    monkeypatch.delenv("INFORMED_MEMORY_LIMIT")
    few = N - 1
    assert group_hashed(codes[:few], 4, values[:few], positive[:few], None) is None


def test_slices_with_scores_on_the_hashed_route_equal_each_slice_alone() -> None:
    """Slices.from_labels with scores, labels and whole weights, past FEWEST_ROWS: each
    slice's Ranking and Table, the row counts and the overall Ranking equal those of
    the slice's rows (or all rows) summarised alone."""
    rng = np.random.default_rng(20)
    n = N + 500
    group = rng.choice(np.array(["a", "b", "c", "d"]), n)
    actual = rng.integers(0, 3, n)
    predicted = np.where(rng.random(n) < 0.7, actual, rng.integers(0, 3, n))
    scores = np.round(rng.random(n) + 0.3 * (actual == 0), 2)
    scores[::11] = -0.0
    weights = rng.integers(0, 3, n).astype(np.float64)
    for w in (None, weights):
        s = Slices.from_labels(
            by=group, actual=actual, predicted=predicted, scores=scores, positive=0, weights=w
        )
        assert s.rankings is not None and s.overall_ranking is not None
        for key in ["a", "b", "c", "d"]:
            rows = group == key
            alone = Ranking.from_scores(
                actual=actual[rows] == 0,
                scores=scores[rows],
                positive=True,
                negative=False,
                weights=None if w is None else w[rows],
            )
            _same(s.ranking(key), alone)
            found = s.ranking(key)  # wrapped unchecked: the constructor's checks accept it
            assert Ranking(found.scores, found.positives, found.negatives, positive=0) == found
            assert s.ranking(key).positive == 0
            assert not s.ranking(key).scores.flags.writeable
            assert s.ranking(key).scores.base is None  # its own copy, not a view
            assert s.rows[s.index(key)] == rows.sum()
        _same(
            s.overall_ranking,
            Ranking.from_scores(
                actual=actual == 0, scores=scores, positive=True, negative=False, weights=w
            ),
        )


def test_rows_of_slices_without_weights_are_summed_from_their_counts() -> None:
    """The rows of each slice, read from its counts (labels, or scores alone), equal a
    count of its rows; with weights they are counted from the rows."""
    rng = np.random.default_rng(21)
    n = 3000
    group = rng.integers(0, 13, n)
    actual = rng.integers(0, 2, n)
    scores = np.round(rng.random(n), 1)
    expected = np.bincount(group, minlength=13).tolist()
    for kwargs in (
        {"predicted": actual[::-1]},
        {"scores": scores, "positive": 1},
        {"predicted": actual[::-1], "weights": rng.random(n)},
        {"scores": scores, "positive": 1, "weights": np.zeros(n)},
    ):
        found = Slices.from_labels(by=group, actual=actual, **kwargs)
        assert found.rows.tolist() == expected
        assert found.rows.dtype == np.int64


@pytest.mark.parametrize("weighted", [False, True])
def test_slices_by_the_hashed_route_equal_slices_by_the_sort(
    weighted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole Slices (Tables, Rankings, rows, overall, JSON) built with the hashed
    route equal those built without pyarrow, where every Ranking comes from the sort."""
    rng = np.random.default_rng(23)
    n = N + 77
    group = rng.integers(0, 6, n)
    actual = rng.integers(0, 2, n)
    scores = np.round(rng.normal(size=n) + actual, 1)
    weights = rng.integers(0, 3, n).astype(np.float64) if weighted else None

    def build() -> Slices:
        return Slices.from_labels(
            by=group,
            actual=actual,
            predicted=1 - actual,
            scores=scores,
            positive=1,
            weights=weights,
        )

    assert group_hashed(group, 6, scores, actual == 1, weights) is not None
    hashed = build()
    monkeypatch.setattr(informed.coding.columns, "ARROW_DISABLED", True)
    assert group_hashed(group, 6, scores, actual == 1, weights) is None
    sorted_ = build()
    assert hashed == sorted_
    assert hashed.to_json() == sorted_.to_json()
