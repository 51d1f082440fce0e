"""Every slice's Ranking from one sort of packed (slice, score, outcome) keys: equal to
`Ranking.from_scores` on the slice's rows, whatever the scores (negative, -0.0,
subnormal, float32, spread over every binary order of magnitude), and the overall one
equal to the unsliced Ranking; the sliced Tables counted once by their raw codes equal
`Table.from_labels` on each slice's rows, whatever order the labels were coded in."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.ranking import Ranking
from informed.ranking.grouping import group_rows
from informed.slices import Slices
from informed.slices.counting import rank_sliced
from informed.slices.ranked import descending_codes, group_packed, scores_of
from informed.table import Table

_SPECIAL = [0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1e300, -1e300, 0.5, 2.0**-1022]


def _scores(kind: str, rng: np.random.Generator, n: int) -> np.ndarray:
    if kind == "uniform":
        return rng.random(n)
    if kind == "rounded":
        return np.round(rng.normal(size=n), 2)
    if kind == "special":
        return rng.choice(_SPECIAL, n)
    if kind == "float32":
        return rng.random(n).astype(np.float32).astype(np.float64)
    if kind == "integers":
        return rng.integers(-5, 5, n).astype(np.float64)
    if kind == "spread":  # every binary order of magnitude: the packed key cannot fit
        return np.ldexp(rng.random(n) + 0.5, rng.integers(-1000, 1000, n)) * rng.choice([-1, 1], n)
    return np.zeros(n)


def _same_groups(found: Ranking, expected: Ranking) -> bool:
    """Same tie groups: score bits and counts (the classes are set by `build_slices`)."""
    return (
        found.scores.tobytes() == expected.scores.tobytes()
        and np.array_equal(found.positives, expected.positives)
        and np.array_equal(found.negatives, expected.negatives)
        and found.positives.dtype == expected.positives.dtype
    )


_KINDS = ["uniform", "rounded", "special", "float32", "integers", "spread", "constant"]


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(_KINDS),
    n=st.integers(0, 120),
    slices=st.sampled_from([1, 2, 5, 300, 5000]),
    seed=st.integers(0, 2**32 - 1),
)
def test_packed_groups_equal_each_slice_grouped_alone(
    kind: str, n: int, slices: int, seed: int
) -> None:
    """group_packed gives each slice the groups the unsliced grouping gives its rows
    (same score bits, same counts), or None where the key would not fit."""
    rng = np.random.default_rng(seed)
    values = _scores(kind, rng, n)
    codes = rng.integers(0, slices, n)
    positive = rng.random(n) < 0.4
    found = group_packed(codes, slices, values, positive)
    if found is None:  # full mantissas leave 11 bits for slices and binades together
        assert kind == "spread" or slices > 5
        return
    assert len(found.bounds) == slices + 1
    for k, (scores, positives, negatives) in enumerate(found.slices()):
        rows = codes == k
        expected = group_rows(values[rows], positive[rows], None)
        assert scores.tobytes() == np.add(expected[0], 0.0).tobytes()
        assert np.array_equal(positives, expected[1])
        assert np.array_equal(negatives, expected[2])


def test_packing_refuses_a_key_that_does_not_fit_and_the_slices_are_still_exact() -> None:
    """Scores over ~2,000 binades and 5,000 slices need more than 64 bits: group_packed
    says None, and rank_sliced groups slice by slice with the same result."""
    rng = np.random.default_rng(3)
    n = 3000
    values = np.ldexp(rng.random(n) + 0.5, rng.integers(-1000, 1000, n))
    codes = rng.integers(0, 5000, n)
    _, codes = np.unique(codes, return_inverse=True)
    S = int(codes.max()) + 1
    positive = rng.random(n) < 0.5
    assert group_packed(codes, S, values, positive) is None
    rankings, overall = rank_sliced(codes, S, positive, values, None)
    for k in range(S):
        rows = codes == k
        assert _same_groups(
            rankings[k],
            Ranking.from_scores(
                actual=positive[rows], scores=values[rows], positive=True, negative=False
            ),
        )
    assert _same_groups(
        overall,
        Ranking.from_scores(actual=positive, scores=values, positive=True, negative=False),
    )


@pytest.mark.parametrize("kind", _KINDS)
def test_overall_ranking_merged_from_the_slices_equals_the_unsliced_one(kind: str) -> None:
    """With ties (fewer groups than rows) the overall Ranking is merged from the slices'
    groups; it equals Ranking.from_scores on all rows."""
    rng = np.random.default_rng(7)
    n = 2000
    values = rng.choice(_scores(kind, rng, 40), n)  # 40 distinct scores at most: ties
    codes = rng.integers(0, 9, n)
    positive = rng.random(n) < 0.3
    rankings, overall = rank_sliced(codes, 9, positive, values, None)
    assert sum(r.n_groups for r in rankings) * 2 <= n  # the merged route
    assert _same_groups(
        overall,
        Ranking.from_scores(actual=positive, scores=values, positive=True, negative=False),
    )


def test_descending_codes_order_scores_and_merge_signed_zeros() -> None:
    """Ascending codes are descending scores; -0.0 and 0.0 share one code; scores_of
    inverts the codes."""
    values = np.array([*_SPECIAL, -2.5, 3.25, -1e-310])
    codes = descending_codes(values)
    order = np.argsort(codes, kind="stable")
    assert np.all(np.diff(values[order]) <= 0)
    assert codes[0] == codes[1]
    assert scores_of(codes).tobytes() == np.add(values, 0.0).tobytes()


@pytest.mark.parametrize(
    ("actual", "predicted"),
    [
        (["b", "a", "c", "a", "b", "c"] * 20, ["c", "c", "a", "b", "b", "a"] * 20),
        ([True, False, True, False] * 30, [False, False, True, True] * 30),
        ([1000, 3, 7, 3, 1000, 50] * 20, [3, 1000, 50, 50, 7, 3] * 20),
    ],
)
def test_tables_counted_by_raw_codes_equal_a_loop_over_groups(
    actual: list[object], predicted: list[object]
) -> None:
    """Labels coded in any order (strings hashed, integers with gaps): each slice's Table
    and the overall one equal Table.from_labels, the overall bit for bit."""
    rng = np.random.default_rng(5)
    by = rng.choice(["x", "y", "z"], len(actual))
    found = Slices.from_labels(by=by, actual=actual, predicted=predicted)
    a, p = np.array(actual), np.array(predicted)
    unsliced = Table.from_labels(actual=actual, predicted=predicted)
    assert found.overall == unsliced
    assert found.overall is not None
    assert found.overall.counts.tobytes() == unsliced.counts.tobytes()
    for g in ("x", "y", "z"):
        rows = by == g
        assert found.table(g) == Table.from_labels(actual=a[rows], predicted=p[rows])
