"""Every quota curve and summary against a brute force that expands the tie groups.

The reference below never looks at a `Ranking`: it sorts the rows itself, expands every
tie group (and every integer weight) into positions carrying t[k] = m2/m1 as exact
fractions (seed 004, eq. 5), and computes each measure by its definition, position by
position. The implementation works on closed forms over groups; agreement on small data
with heavy ties is the evidence that the closed forms are right.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.ranking import (
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    hit_rate,
    lift,
    lift_table,
    optimal_qrecall,
    pearson,
    pem,
    pem_areas,
    qrecall,
    random_qrecall,
    threshold_at,
)

RTOL = 1e-12


class Reference:
    """Positions 1..n in descending score order, t[k] = m2/m1 of the position's tie group."""

    def __init__(self, scores: list[float], actual: list[int], weights: list[int]) -> None:
        distinct = sorted(set(scores), reverse=True)
        self.t: list[Fraction] = []
        self.p: list[float] = []
        for value in distinct:
            size = sum(w for s, w in zip(scores, weights, strict=True) if s == value)
            hits = sum(
                w for s, y, w in zip(scores, actual, weights, strict=True) if s == value and y == 1
            )
            if size:  # a group of weight 0 occupies no position
                self.t += [Fraction(hits, size)] * size
                self.p += [value] * size
        self.n = len(self.t)
        self.prefix = [Fraction(0)]
        for value in self.t:
            self.prefix.append(self.prefix[-1] + value)
        self.n_pos = self.prefix[-1]
        self.n_neg = self.n - self.n_pos
        self.rows = list(zip(scores, actual, weights, strict=True))

    def caught(self, x: Fraction) -> Fraction:
        """C(x): the sum of t over positions 1..x, a fraction of the next position."""
        whole = math.floor(x)
        total = self.prefix[whole]
        if x > whole:
            total += (x - whole) * self.t[whole]
        return total

    def hit_rate(self, x: Fraction) -> float:
        return math.nan if x == 0 else float(self.caught(x) / x)

    def qrecall(self, x: Fraction) -> float:
        return math.nan if self.n_pos == 0 else float(self.caught(x) / self.n_pos)

    def lift(self, x: Fraction) -> float:
        if x == 0 or self.n_pos == 0:
            return math.nan
        return float(self.caught(x) / x / (self.n_pos / self.n))

    def average_hit_rate(self, end: int | None = None) -> float:
        end = self.n if end is None else end
        numerator = sum(
            (self.t[k - 1] * self.caught(Fraction(k)) / k for k in range(1, end + 1)), Fraction(0)
        )
        denominator = self.caught(Fraction(end))
        return math.nan if denominator == 0 else float(numerator / denominator)

    def average_qrecall(self, end: int | None = None) -> float:
        end = self.n if end is None else end
        if self.n_pos == 0 or end < self.n_pos:
            return math.nan
        start = math.ceil(self.n_pos)
        total = sum((self.caught(Fraction(j)) for j in range(start, end + 1)), Fraction(0))
        return float(total / self.n_pos / (end - self.n_pos + 1))

    def pem(self, end: int | None = None) -> float:
        end = self.n if end is None else end
        if self.n_pos == 0 or end == 0:
            return math.nan
        model = sum((self.caught(Fraction(j)) / self.n_pos for j in range(1, end + 1)), Fraction(0))
        random = sum((Fraction(j, self.n) for j in range(1, end + 1)), Fraction(0))
        optimal = sum(
            (min(Fraction(j), self.n_pos) / self.n_pos for j in range(1, end + 1)), Fraction(0)
        )
        return math.nan if optimal == random else float((model - random) / (optimal - random))

    def pem_areas(self) -> tuple[float, float, float]:
        if self.n_pos == 0:
            return math.nan, math.nan, math.nan
        gaps = [
            self.caught(Fraction(j)) / self.n_pos - Fraction(j, self.n)
            for j in range(1, self.n + 1)
        ]
        optimal = [
            min(Fraction(j), self.n_pos) / self.n_pos - Fraction(j, self.n)
            for j in range(1, self.n + 1)
        ]
        return (
            float(sum((g for g in gaps if g > 0), Fraction(0))),
            float(sum((-g for g in gaps if g < 0), Fraction(0))),
            float(sum(optimal, Fraction(0))),
        )

    def auc(self) -> float:
        """Mann-Whitney over the original rows: a positive above a negative 1, a tie 1/2."""
        wins = Fraction(0)
        for s1, y1, w1 in self.rows:
            for s0, y0, w0 in self.rows:
                if y1 == 1 and y0 != 1:
                    wins += w1 * w0 * (1 if s1 > s0 else Fraction(1, 2) if s1 == s0 else 0)
        pairs = self.n_pos * self.n_neg
        return math.nan if pairs == 0 else float(wins / pairs)

    def pearson(self, x: Fraction) -> float:
        """Weighted moments over positions 1..x (the last one fractionally), eq. 8-11."""
        weights = [min(Fraction(1), max(Fraction(0), x - k)) for k in range(self.n)]
        total = sum(weights, Fraction(0))
        if total == 0:
            return math.nan
        p = [Fraction(v) for v in self.p]
        mean_p = sum((w * v for w, v in zip(weights, p, strict=True)), Fraction(0)) / total
        mean_t = sum((w * v for w, v in zip(weights, self.t, strict=True)), Fraction(0)) / total
        cov = sum(
            (w * (a - mean_p) * (b - mean_t) for w, a, b in zip(weights, p, self.t, strict=True)),
            Fraction(0),
        )
        var_p = sum((w * (a - mean_p) ** 2 for w, a in zip(weights, p, strict=True)), Fraction(0))
        var_t = sum(
            (w * (b - mean_t) ** 2 for w, b in zip(weights, self.t, strict=True)), Fraction(0)
        )
        if var_p == 0 or var_t == 0:
            return math.nan
        # rho^2 as an exact fraction first: tiny scores must not underflow the reference.
        return math.copysign(math.sqrt(float(cov * cov / (var_p * var_t))), cov)

    def threshold(self, x: Fraction) -> float:
        return math.nan if x == 0 else self.p[math.ceil(x) - 1]


def close(actual: float, expected: float, rtol: float = RTOL, atol: float = 1e-14) -> bool:
    if math.isnan(expected):
        return math.isnan(actual)
    return math.isclose(actual, expected, rel_tol=rtol, abs_tol=atol)


@st.composite
def tied_rows(draw: st.DrawFn, weighted: bool = False) -> tuple[list[float], list[int], list[int]]:
    """A few rows whose scores come from at most five values: many ties."""
    n = draw(st.integers(1, 14))
    levels = draw(st.lists(st.floats(-3, 3, allow_subnormal=False), min_size=1, max_size=5))
    scores = draw(st.lists(st.sampled_from(levels), min_size=n, max_size=n))
    actual = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)) if weighted else [1] * n
    return scores, actual, weights


def build(scores: list[float], actual: list[int], weights: list[int], weighted: bool) -> Ranking:
    return Ranking.from_scores(
        actual=actual,
        scores=scores,
        positive=1,
        negative=0,
        weights=weights if weighted else None,
    )


@pytest.mark.parametrize("weighted", [False, True])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_quota_curves_match_positions(weighted: bool, data: st.DataObject) -> None:
    """hit rate, Qrecall, lift, Pearson, threshold at every integer and half-integer quota."""
    scores, actual, weights = data.draw(tied_rows(weighted))
    reference = Reference(scores, actual, weights)
    ranking = build(scores, actual, weights, weighted)
    quotas = [Fraction(k, 2) for k in range(2 * reference.n + 1)]
    x = np.array([float(q) for q in quotas])
    curves = {
        "hit_rate": hit_rate(ranking, x),
        "qrecall": qrecall(ranking, x),
        "lift": lift(ranking, x),
        "pearson": pearson(ranking, x),
        "threshold": threshold_at(ranking, x),
    }
    for i, q in enumerate(quotas):
        for name, values in curves.items():
            expected = getattr(reference, name)(q)
            rtol = 1e-9 if name == "pearson" else RTOL
            assert close(
                float(values[i]), expected, rtol=rtol, atol=1e-9 if name == "pearson" else 1e-14
            ), (
                name,
                q,
                values[i],
                expected,
            )
        expected_random = math.nan if reference.n == 0 else float(q / reference.n)
        assert close(random_qrecall(ranking, float(q)), expected_random)
        expected_optimal = (
            math.nan if reference.n_pos == 0 else float(min(q, reference.n_pos) / reference.n_pos)
        )
        assert close(optimal_qrecall(ranking, float(q)), expected_optimal)


@pytest.mark.parametrize("weighted", [False, True])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_summaries_match_positions(weighted: bool, data: st.DataObject) -> None:
    """AUC, average hit rate, average Qrecall, PEM and its areas, whole and up to each quota."""
    scores, actual, weights = data.draw(tied_rows(weighted))
    reference = Reference(scores, actual, weights)
    ranking = build(scores, actual, weights, weighted)
    assert close(auc(ranking), reference.auc())
    assert close(average_hit_rate(ranking), reference.average_hit_rate())
    assert close(average_qrecall(ranking), reference.average_qrecall())
    assert close(pem(ranking), reference.pem() if reference.n_neg else math.nan)
    for got, expected in zip(pem_areas(ranking), reference.pem_areas(), strict=True):
        assert close(got, expected, atol=1e-12)
    for end in range(reference.n + 1):
        assert close(average_hit_rate(ranking, quota=end), reference.average_hit_rate(end)), end
        assert close(average_qrecall(ranking, quota=end), reference.average_qrecall(end)), end
        assert close(pem(ranking, quota=end), reference.pem(end)), end


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_lift_table_matches_positions(data: st.DataObject) -> None:
    """Each bin's positives are C(b n/B) - C((b-1) n/B), fractional edges included."""
    scores, actual, weights = data.draw(tied_rows(weighted=True))
    bins = data.draw(st.integers(1, 12))
    reference = Reference(scores, actual, weights)
    ranking = build(scores, actual, weights, weighted=True)
    table = lift_table(ranking, bins)
    n = reference.n
    for b in range(bins):
        low, high = Fraction(n * b, bins), Fraction(n * (b + 1), bins)
        if n == 0:
            assert math.isnan(table.lift[b])
            continue
        positives = reference.caught(high) - reference.caught(low)
        assert close(float(table.positives[b]), float(positives))
        assert close(float(table.quota[b]), float(high))
        prevalence = reference.n_pos / n
        expected_lift = (
            math.nan if prevalence == 0 else float(positives / (high - low) / prevalence)
        )
        assert close(float(table.lift[b]), expected_lift)
        assert close(float(table.hit_rate[b]), reference.hit_rate(high))
        assert close(float(table.cumulative_qrecall[b]), reference.qrecall(high))


def test_reference_reproduces_the_seed_table_2() -> None:
    """The brute force itself agrees with the seed, so it is a fair judge."""
    scores = [0.45, 0.34, 0.32, 0.26, 0.15, 0.14, 0.09, 0.07, 0.06, 0.03]
    actual = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
    reference = Reference(scores, actual, [1] * 10)
    assert round(reference.average_qrecall(), 3) == 0.893
    assert round(reference.average_hit_rate(), 3) == 0.747
    assert round(reference.pem(), 4) == 0.5833
    assert reference.pem_areas() == (1.75, 0.0, 3.0)


def test_ties_at_scale() -> None:
    """Larger data (thousands of rows, 7 scores) where the harmonic closed forms matter."""
    rng = np.random.default_rng(7)
    n = 3000
    scores = rng.integers(0, 7, n).astype(float).tolist()
    actual = (rng.random(n) < 0.3).astype(int).tolist()
    reference = Reference(scores, actual, [1] * n)
    ranking = build(scores, actual, [1] * n, weighted=False)
    assert close(average_hit_rate(ranking), reference.average_hit_rate())
    assert close(average_qrecall(ranking), reference.average_qrecall())
    assert close(pem(ranking), reference.pem())
    for end in (1, 17, 400, 1500, 2999):
        assert close(average_hit_rate(ranking, quota=end), reference.average_hit_rate(end))


@pytest.mark.parametrize(
    ("scores", "actual"),
    [
        # Qrecall - j/n falls from + to - strictly inside the tie group at 0.5.
        ([1.0, 0.5, 0.5, 0.5, 0.5, 0.4, 0.3], [1, 0, 0, 0, 0, 1, 1]),
        # ... and rises from - to + inside the tie group at 0.5.
        ([1.0, 0.9, 0.5, 0.5, 0.5, 0.5, 0.1], [0, 0, 1, 1, 1, 0, 0]),
        # A crossing exactly at a position inside a group.
        ([1.0, 0.5, 0.5, 0.5, 0.5, 0.4, 0.3, 0.2], [1, 0, 0, 0, 0, 1, 1, 1]),
        # The seed's Table 2 with its middle tied.
        ([0.45, 0.34, 0.3, 0.3, 0.3, 0.3, 0.09, 0.07, 0.06, 0.03], [1, 0, 1, 1, 0, 0, 1, 0, 0, 0]),
    ],
)
def test_pem_areas_with_crossings_inside_groups(scores: list[float], actual: list[int]) -> None:
    """S1 and S2 take the positive and negative parts of a line that crosses zero in a group."""
    reference = Reference(scores, actual, [1] * len(scores))
    ranking = build(scores, actual, [1] * len(scores), weighted=False)
    s1, s2, s3 = reference.pem_areas()
    assert s1 > 0  # every case has some area above the random line
    for got, expected in zip(pem_areas(ranking), (s1, s2, s3), strict=True):
        assert close(got, expected, atol=1e-12)


def test_pearson_of_scores_that_underflow_when_squared() -> None:
    """Scores 1e-175 below the top (their squares underflow float64) keep their order.

    Found by the property above: float64 sums gave -1.0 for the exact -1/sqrt(6).
    """
    scores = [7.186841634606642e-175, 2.2250738585072014e-308, -1.0, 0.0]
    actual = [0, 0, 0, 1]
    weights = [1, 1, 1, 1]
    reference = Reference(scores, actual, weights)
    ranking = build(scores, actual, weights, False)
    expected = reference.pearson(Fraction(5, 2))
    assert expected == pytest.approx(-1 / math.sqrt(6))
    assert pearson(ranking, 2.5) == pytest.approx(expected, rel=1e-9)
