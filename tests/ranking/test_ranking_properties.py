"""Properties of Ranking and its measures that hold for any data (Hypothesis).

Exact equality is asserted wherever the result is a function of the same integer counts;
a tolerance appears only where two different float computations meet, and says why.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from informed.ranking import (
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    hit_rate,
    lift,
    lift_table,
    pearson,
    pem,
    pem_areas,
    qrecall,
    ranking_report,
    roc_convex_hull,
    roc_curve,
)

# Applied test by test: a profile loaded here would change every other test module too.
FAST = settings(max_examples=50, deadline=None)


@st.composite
def rows(draw: st.DrawFn, *, ties: bool = True, weighted: bool = False) -> dict[str, Any]:
    """Rows of (actual, score[, integer weight]); with `ties`, scores repeat a few values."""
    n = draw(st.integers(1, 30))
    if ties:
        levels = draw(st.lists(st.floats(-1e3, 1e3, allow_subnormal=False), min_size=1, max_size=6))
        scores = draw(st.lists(st.sampled_from(levels), min_size=n, max_size=n))
    else:
        scores = draw(
            st.lists(
                st.floats(-1e3, 1e3, allow_subnormal=False), min_size=n, max_size=n, unique=True
            )
        )
    actual = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    data: dict[str, Any] = {"actual": actual, "scores": scores, "positive": True, "negative": False}
    if weighted:
        data["weights"] = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    return data


def rank_measures(ranking: Ranking) -> dict[str, Any]:
    """Everything that depends on the order of the scores only, not on their values."""
    quotas = np.linspace(0, float(ranking.n), 13)
    curve = roc_curve(ranking)
    hull = roc_convex_hull(ranking)
    table = lift_table(ranking, 7)
    return {
        "auc": auc(ranking),
        "average_hit_rate": average_hit_rate(ranking),
        "average_qrecall": average_qrecall(ranking),
        "pem": pem(ranking),
        "pem_areas": pem_areas(ranking),
        "hit_rate": hit_rate(ranking, quotas).tolist(),
        "qrecall": qrecall(ranking, quotas).tolist(),
        "lift": lift(ranking, quotas).tolist(),
        "fpr": curve.false_positive_rate.tolist(),
        "tpr": curve.true_positive_rate.tolist(),
        "hull": hull.index.tolist(),
        "table": table.to_records(),
    }


def same(a: Any, b: Any) -> bool:
    """Equality with NaN equal to NaN (lists, tuples and dicts compared element by element)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return bool(a == b)


@FAST
@given(data=rows(weighted=True), seed=st.integers(0, 2**32 - 1))
def test_input_order_does_not_matter(data: dict[str, Any], seed: int) -> None:
    """Shuffling the rows (ties scattered anywhere) gives an equal Ranking and equal reports."""
    ranking = Ranking.from_scores(**data)
    order = np.random.default_rng(seed).permutation(len(data["scores"]))
    shuffled = {k: [v[i] for i in order] if isinstance(v, list) else v for k, v in data.items()}
    other = Ranking.from_scores(**shuffled)
    assert other == ranking
    quotas = [0, ranking.n / 3, ranking.n]
    assert ranking_report(other, quotas=quotas) == ranking_report(ranking, quotas=quotas)


TRANSFORMS = {
    "x*100": lambda x: x * 100,
    "x*1e-6": lambda x: x * 1e-6,
    "x*1e-12": lambda x: x * 1e-12,
    "x-10": lambda x: x - 10,
    "exp": lambda x: np.exp(x / 100),
}


@pytest.mark.parametrize("name", list(TRANSFORMS))
@FAST
@given(data=rows())
def test_increasing_transforms_change_nothing(name: str, data: dict[str, Any]) -> None:
    """A strictly increasing map of the scores that creates no new tie changes no rank measure."""
    ranking = Ranking.from_scores(**data)
    moved = dict(data, scores=TRANSFORMS[name](np.array(data["scores"])))
    other = Ranking.from_scores(**moved)
    assume(other.n_groups == ranking.n_groups)  # rounding created no tie
    assert np.array_equal(other.positives, ranking.positives)
    assert np.array_equal(other.negatives, ranking.negatives)
    assert same(rank_measures(other), rank_measures(ranking))


@FAST
@given(n_positive=st.integers(0, 30), n_negative=st.integers(0, 30), score=st.floats(-5, 5))
def test_constant_scorer_is_chance(n_positive: int, n_negative: int, score: float) -> None:
    """All scores equal: hit rate = prevalence everywhere, AUC 1/2, PEM 0, Qrecall = j/n."""
    assume(n_positive + n_negative > 0)
    actual = [1] * n_positive + [0] * n_negative
    n = len(actual)
    ranking = Ranking.from_scores(actual=actual, scores=[score] * n, positive=1, negative=0)
    quotas = np.arange(1, n + 1)
    if n_positive and n_negative:
        assert auc(ranking) == 0.5
        assert pem(ranking) == 0.0
    # C(j) = j m2/m1 is rounded once, then divided by j: a relative error of 1 ulp or so.
    np.testing.assert_allclose(hit_rate(ranking, quotas), n_positive / n, rtol=4e-16, atol=0)
    if n_positive:
        np.testing.assert_allclose(qrecall(ranking, quotas), quotas / n, rtol=4e-16)
        assert average_hit_rate(ranking) == pytest.approx(n_positive / n, rel=1e-15)


@FAST
@given(
    data=rows(weighted=True), real_weights=st.lists(st.floats(0.01, 10), min_size=30, max_size=30)
)
def test_reversed_order_negates_pem(data: dict[str, Any], real_weights: list[float]) -> None:
    """Negating the scores reverses the order: PEM -> -PEM, AUC -> 1 - AUC.

    Exact for integer counts (both sides are ratios of integers); within rounding for
    real weights, whose sums run in the other order.
    """
    ranking = Ranking.from_scores(**data)
    reverse = Ranking.from_scores(**dict(data, scores=[-s for s in data["scores"]]))
    assert same(pem(reverse), -pem(ranking) + 0.0)
    if not math.isnan(auc(ranking)):
        assert auc(reverse) == pytest.approx(1 - auc(ranking), abs=2e-16)
    data = dict(data, weights=real_weights[: len(data["scores"])])
    ranking = Ranking.from_scores(**data)
    reverse = Ranking.from_scores(**dict(data, scores=[-s for s in data["scores"]]))
    if not math.isnan(pem(ranking)):
        assert pem(reverse) == pytest.approx(-pem(ranking), rel=1e-12, abs=1e-15)


@FAST
@given(data=rows(weighted=True))
def test_swapping_classes_keeps_auc(data: dict[str, Any]) -> None:
    """AUC(1 - y, -s) = AUC(y, s): the negative class ranked from the bottom (RELIABILITY P18)."""
    ranking = Ranking.from_scores(**data)
    swapped = Ranking.from_scores(
        **dict(data, scores=[-s for s in data["scores"]], positive=False, negative=True)
    )
    assert same(auc(swapped), auc(ranking))


@FAST
@given(data=rows(weighted=True))
def test_pem_is_twice_auc_minus_one(data: dict[str, Any]) -> None:
    """PEM (eq. 15, summed in integers) = 2 AUC - 1 (pairs, summed in integers), for counts."""
    repeat = np.repeat(np.arange(len(data["scores"])), data["weights"])
    ranking = Ranking.from_scores(
        actual=[data["actual"][i] for i in repeat],
        scores=[data["scores"][i] for i in repeat],
        positive=True,
        negative=False,
    )
    value = auc(ranking)
    if math.isnan(value):
        assert math.isnan(pem(ranking))
    else:
        # Both are correctly rounded ratios of integers; 2 AUC - 1 adds one rounding.
        assert pem(ranking) == pytest.approx(2 * value - 1, rel=0, abs=4.5e-16)


WEIGHTS = st.one_of(
    st.just(0.0), st.floats(1e-300, 1e-280), st.floats(1e-3, 10), st.floats(1e280, 1e300)
)


@FAST
@given(data=rows(), weights=st.lists(WEIGHTS, min_size=30, max_size=30))
def test_pem_of_real_weights_is_eq15_in_exact_arithmetic(
    data: dict[str, Any], weights: list[float]
) -> None:
    """With real weights, PEM equals eq. 15's closed form evaluated in exact fractions.

    Weights near 1e-300 and 1e300 check that no product under- or overflows.

    sum_j Qrecall(j) = sum_g m2 (r_g + (m1 + 1)/2) / n+ (r_g: weight below group g), and
    PEM = (that - (n + 1)/2) / (n-/2), computed from the Ranking's own float counts.
    """
    ranking = Ranking.from_scores(**data, weights=weights[: len(data["scores"])])
    a = [Fraction(v) for v in ranking.positives.tolist()]
    b = [Fraction(v) for v in ranking.negatives.tolist()]
    n_pos, n_neg = sum(a, Fraction(0)), sum(b, Fraction(0))
    if n_pos == 0 or n_neg == 0:
        assert math.isnan(pem(ranking))
        return
    n = n_pos + n_neg
    below, area = n, Fraction(0)
    for pos, neg in zip(a, b, strict=True):
        below -= pos + neg
        area += pos * (below + (pos + neg + 1) / 2)
    expected = (area / n_pos - (n + 1) / 2) / (n_neg / 2)
    assert pem(ranking) == pytest.approx(float(expected), rel=1e-12, abs=1e-15)


@FAST
@given(data=rows(weighted=True), cuts=st.lists(st.integers(0, 30), max_size=4))
def test_merge_of_any_split_is_the_whole(data: dict[str, Any], cuts: list[int]) -> None:
    """Split the rows anywhere (tie groups cut, empty parts allowed): the parts add to the whole."""
    whole = Ranking.from_scores(**data)
    n = len(data["scores"])
    bounds = [0, *sorted(min(c, n) for c in cuts), n]
    parts = [
        Ranking.from_scores(**{k: v[a:b] if isinstance(v, list) else v for k, v in data.items()})
        for a, b in itertools.pairwise(bounds)
    ]
    total = Ranking.empty(weighted=True)
    for part in parts:
        total = total + part
    assert total == whole
    assert sum(parts[1:], parts[0]) == whole  # left fold from the first part
    reverse = parts[-1]
    for part in reversed(parts[:-1]):
        reverse = part + reverse
    assert reverse == whole


@FAST
@given(
    scores=st.lists(st.floats(allow_nan=False, allow_subnormal=True), min_size=1, max_size=20),
    actual=st.lists(st.booleans(), min_size=20, max_size=20),
    weights=st.none() | st.lists(st.floats(0, 1e6), min_size=20, max_size=20),
)
def test_json_round_trip_is_exact(
    scores: list[float], actual: list[bool], weights: list[float] | None
) -> None:
    """to_json / from_json loses nothing: infinities, -0.0, subnormals and float weights."""
    n = len(scores)
    ranking = Ranking.from_scores(
        actual=actual[:n],
        scores=scores,
        positive=True,
        negative=False,
        weights=None if weights is None else weights[:n],
        allow_infinite=True,
    )
    text = ranking.to_json()
    assert "NaN" not in text
    again = Ranking.from_json(text)
    assert again == ranking
    assert again.scores.tobytes() == ranking.scores.tobytes()
    assert again.to_json() == text


@pytest.mark.parametrize("seed", range(20))
def test_p3_constant_scores_lift_does_not_depend_on_order(seed: int) -> None:
    """PITFALLS P3: y = [1,1,0..0], all scores 0.5: decile 1 lift 1.0, gains 0.1/0.2/0.3."""
    actual = np.array([1, 1] + [0] * 8)
    order = np.random.default_rng(seed).permutation(10)
    ranking = Ranking.from_scores(actual=actual[order], scores=[0.5] * 10, positive=1)
    table = lift_table(ranking, 10)
    assert table.lift[0] == 1.0
    np.testing.assert_allclose(table.cumulative_qrecall[:3], [0.1, 0.2, 0.3], rtol=1e-15)
    assert auc(ranking) == 0.5


def test_p4_collinear_points_kept_unless_asked() -> None:
    """PITFALLS P4: y=[0,0,0,0,1,1,1,1], scores 0..7: every point kept by default; exact drop asked."""
    ranking = Ranking.from_scores(actual=[0, 0, 0, 0, 1, 1, 1, 1], scores=range(8), positive=1)
    full = roc_curve(ranking)
    assert full.true_positive_rate.tolist() == [0, 0.25, 0.5, 0.75, 1, 1, 1, 1, 1]
    assert full.false_positive_rate.tolist() == [0, 0, 0, 0, 0, 0.25, 0.5, 0.75, 1]
    dropped = roc_curve(ranking, drop_collinear=True)
    assert dropped.false_positive_rate.tolist() == [0, 0, 1]
    assert dropped.true_positive_rate.tolist() == [0, 1, 1]
    assert dropped.thresholds.tolist() == [math.inf, 4, 0]


@FAST
@given(data=rows(weighted=True), extra=st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=5))
def test_zero_weight_is_removal(data: dict[str, Any], extra: list[float]) -> None:
    """Rows of weight 0 add nothing, not even a threshold (RELIABILITY P23)."""
    base = Ranking.from_scores(**data)
    padded = dict(
        data,
        scores=data["scores"] + extra,
        actual=data["actual"] + [True] * len(extra),
        weights=data["weights"] + [0] * len(extra),
    )
    assert Ranking.from_scores(**padded) == base


@FAST
@given(data=rows(weighted=True))
def test_integer_weight_is_repetition(data: dict[str, Any]) -> None:
    """A row of integer weight w equals w copies of the row (RELIABILITY P22)."""
    weighted = Ranking.from_scores(**data)
    repeat = np.repeat(np.arange(len(data["scores"])), data["weights"])
    copies = Ranking.from_scores(
        actual=[data["actual"][i] for i in repeat],
        scores=[data["scores"][i] for i in repeat],
        positive=True,
        negative=False,
        weights=np.ones(repeat.size),
    )
    assert copies == weighted
    unweighted = Ranking.from_scores(
        actual=[data["actual"][i] for i in repeat],
        scores=[data["scores"][i] for i in repeat],
        positive=True,
        negative=False,
    )
    assert same(rank_measures(unweighted), rank_measures(weighted))


@FAST
@given(data=rows(weighted=True))
def test_quota_curve_identities(data: dict[str, Any]) -> None:
    """RELIABILITY P41 and P37: end points, bounds, and monotone Qrecall and ROC."""
    ranking = Ranking.from_scores(**data)
    assume(ranking.n_positive > 0)
    n, n_pos = float(ranking.n), float(ranking.n_positive)
    quotas = np.linspace(0, n, 41)
    recall = qrecall(ranking, quotas)
    assert recall[-1] == 1.0
    assert np.all(np.diff(recall) >= 0)
    assert np.all(recall <= np.minimum(quotas, n_pos) / n_pos + 1e-15)
    assert hit_rate(ranking, n) == pytest.approx(n_pos / n, rel=1e-15)
    curve = roc_curve(ranking)
    assert np.all(np.diff(curve.true_positive_rate) >= 0)
    if ranking.n_negative > 0:
        assert np.all(np.diff(curve.false_positive_rate) >= 0)
        assert (curve.false_positive_rate[[0, -1]] == [0, 1]).all()
    assert (curve.true_positive_rate[[0, -1]] == [0, 1]).all()


@pytest.mark.parametrize("scale", [1e-200, 1e-6, 3.0, 1e200])
@FAST
@given(data=rows())
def test_pearson_is_unchanged_by_positive_affine_maps(scale: float, data: dict[str, Any]) -> None:
    """rho(a s + b) = rho(s) for a > 0, even where squares of the scores would under/overflow."""
    ranking = Ranking.from_scores(**data)
    moved = Ranking.from_scores(**dict(data, scores=[scale * s + scale for s in data["scores"]]))
    assume(moved.n_groups == ranking.n_groups)
    quotas = np.linspace(0, float(ranking.n), 9)
    np.testing.assert_allclose(
        pearson(moved, quotas), pearson(ranking, quotas), rtol=1e-7, atol=1e-9
    )


@FAST
@given(data=rows(weighted=True))
def test_tie_corrected_pem_is_the_mean_of_both_tie_orders(data: dict[str, Any]) -> None:
    """PEM with t = m2/m1 is the mean of PEM with ties broken positives-first and -last.

    PEM is linear in how the positives sit inside a group, and the two extreme orders
    average to the fraction m2/m1 at every position. The seed's Tables 8-9 show the same:
    for its binary data sets the mean of the C4.5 PEMs of the two classes (ties broken by
    position, in opposite directions) is 2 AUC - 1 to the printed digits.
    """
    repeat = np.repeat(np.arange(len(data["scores"])), data["weights"])
    scores = np.array(data["scores"])[repeat]
    actual = np.array(data["actual"], dtype=bool)[repeat]
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True, negative=False)
    assume(not math.isnan(pem(ranking)))
    broken = []
    for first in (True, False):
        # Distinct scores by rank, ascending: within a tie, the rows sorted last get the
        # higher ranks, that is, come first in the ranking.
        order = np.lexsort((actual if first else ~actual, scores))
        ranks = np.empty(scores.size)
        ranks[order] = np.arange(scores.size)
        broken.append(
            pem(Ranking.from_scores(actual=actual, scores=ranks, positive=True, negative=False))
        )
    assert pem(ranking) == pytest.approx((broken[0] + broken[1]) / 2, abs=1e-15)
    assert broken[0] >= pem(ranking) - 1e-15  # positives first can only help
    assert broken[1] <= pem(ranking) + 1e-15


def test_weights_of_one_give_the_unweighted_pem_areas_bit_for_bit() -> None:
    """The example hypothesis found: S2 was 0.49999999999999994 with weights of 1 (a float
    difference of two quotients) where the unweighted rows give 0.5 (exact integers)."""
    rows = {"actual": [True, True, False], "scores": [1.0, 0.0, 2.0], "positive": True}
    weighted = Ranking.from_scores(**rows, weights=[1, 1, 1])
    # S2 by hand: positions 1..3 hold scores 2, 1, 0 (negative, positive, positive);
    # Qrecall(j) = 0, 1/2, 1 and j/n = 1/3, 2/3, 1: S2 = 1/3 + 1/6 = 1/2.
    assert pem_areas(weighted) == pem_areas(Ranking.from_scores(**rows)) == (0.0, 0.5, 0.5)
