"""The block-by-block summaries (issue 19, item 11) against the brute force and the oracles.

The summaries read the tie groups in cache-sized blocks, take shortcuts for one unweighted
row per group (no ties), and find where Pearson is undefined by reading only as far as
needed. Here blocks of 3 groups (and hull blocks of 4 points) make every block boundary,
cut and shortcut occur on small data that the position-by-position brute force
(`test_ranking_bruteforce.Reference`, exact fractions) and the exact monotone chain
(`test_ranking_curves.upper_hull`) can judge; distinct scores exercise the shortcuts.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ranking_bruteforce import Reference, close
from test_ranking_curves import upper_hull

import informed.ranking.blocks
import informed.ranking.thresholds
from informed.ranking import (
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    pearson,
    pem,
    pem_areas,
    precision_at,
    recall_at,
    roc_convex_hull,
    undefined_reason,
)
from informed.ranking.ranking import groups_of


@contextmanager
def small_blocks(block: int = 3, hull_block: int = 4) -> Iterator[None]:
    """Blocks of a few groups, so that small data crosses many block boundaries."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(informed.ranking.blocks, "BLOCK", block)
        patch.setattr(informed.ranking.thresholds, "_HULL_BLOCK", hull_block)
        yield


@st.composite
def rows(draw: st.DrawFn) -> tuple[list[float], list[int], list[int], bool]:
    """Rows with distinct scores (one row per group) or a few tied levels; weights or not."""
    n = draw(st.integers(1, 24))
    if draw(st.booleans()):
        scores = draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n, unique=True))
    else:
        levels = draw(st.lists(st.integers(-5, 5), min_size=1, max_size=6))
        scores = draw(st.lists(st.sampled_from(levels), min_size=n, max_size=n))
    actual = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    weighted = draw(st.booleans())
    weights = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)) if weighted else [1] * n
    return [s / 7 for s in scores], actual, weights, weighted


def build(scores: list[float], actual: list[int], weights: list[int], weighted: bool) -> Ranking:
    return Ranking.from_scores(
        actual=actual, scores=scores, positive=1, negative=0, weights=weights if weighted else None
    )


def hull_points(ranking: Ranking) -> list[tuple[Fraction, Fraction]]:
    points = [(Fraction(0), Fraction(0))]
    for pos, neg in zip(ranking.positives.tolist(), ranking.negatives.tolist(), strict=True):
        points.append((points[-1][0] + Fraction(neg), points[-1][1] + Fraction(pos)))
    return points


@settings(max_examples=80, deadline=None)
@given(data=rows(), collinear=st.booleans())
def test_summaries_by_small_blocks_match_positions(
    data: tuple[list[float], list[int], list[int], bool], collinear: bool
) -> None:
    """Every summary, Pearson at every half position and the hull, blocks of 3 groups."""
    scores, actual, weights, weighted = data
    reference = Reference(scores, actual, weights)
    if reference.n == 0:
        return
    quotas = [Fraction(k, 2) for k in range(2 * reference.n + 1)]
    with small_blocks():
        ranking = build(scores, actual, weights, weighted)
        assert close(auc(ranking), reference.auc())
        assert close(pem(ranking), reference.pem() if reference.n_neg else math.nan)
        assert close(average_hit_rate(ranking), reference.average_hit_rate())
        assert close(average_qrecall(ranking), reference.average_qrecall())
        for got, expected in zip(pem_areas(ranking), reference.pem_areas(), strict=True):
            assert close(got, expected, atol=1e-12)
        for end in range(reference.n + 1):
            assert close(average_qrecall(ranking, quota=end), reference.average_qrecall(end))
            assert close(pem(ranking, quota=end), reference.pem(end)), end
        rho = pearson(ranking, np.array([float(q) for q in quotas]))
        hull = roc_convex_hull(ranking, keep_collinear=collinear).index.tolist()
    for q, value in zip(quotas, rho.tolist(), strict=True):
        assert close(value, reference.pearson(q), rtol=1e-9, atol=1e-9), (q, value)
    assert hull == upper_hull(hull_points(ranking), keep_collinear=collinear)


@settings(max_examples=60, deadline=None)
@given(data=rows())
def test_small_blocks_change_no_exact_result(
    data: tuple[list[float], list[int], list[int], bool],
) -> None:
    """Exact results (integer sums, the hull, where Pearson is undefined) do not depend on
    the block size; Pearson's float sums move by rounding only."""
    scores, actual, weights, weighted = data
    ranking = build(scores, actual, weights, weighted)
    quotas = np.linspace(0, float(ranking.n), 9)

    def everything(r: Ranking) -> tuple[object, ...]:
        return (
            auc(r),
            pem(r),
            average_qrecall(r),
            roc_convex_hull(r).index.tolist(),
            np.isnan(pearson(r, quotas)).tolist(),
        )

    whole = everything(ranking)
    with small_blocks():
        blocked = everything(build(scores, actual, weights, weighted))
    assert repr(blocked) == repr(whole)


def test_unit_groups_at_scale_against_scikit_learn() -> None:
    """100,000 distinct scores (two default blocks): AUC is scikit-learn's
    roc_auc_score exactly, average hit rate its average_precision_score (equal without
    ties), PEM = 2 AUC - 1 from its own integer sums."""
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(19)
    n = 100_000
    scores = rng.random(n)
    actual = rng.random(n) < 0.2 + 0.6 * scores
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    assert groups_of(ranking).unit
    assert n > informed.ranking.blocks.BLOCK
    expected = metrics.roc_auc_score(actual, scores)
    assert auc(ranking) == pytest.approx(expected, rel=1e-15)
    assert pem(ranking) == pytest.approx(2 * expected - 1, rel=1e-14)
    precision = metrics.average_precision_score(actual, scores)
    assert average_hit_rate(ranking) == pytest.approx(precision, rel=1e-12)


def test_pearson_undefined_when_weighted_outcomes_are_equal() -> None:
    """Regression: a group's size is a difference of running sums, so with float weights
    m2/m1 of a group of positives only came out 0.9999999999999999; the outcome looked
    varied and Pearson reported rounding errors (1.0 at J = 0.5) where every t[k] is 1."""
    ranking = Ranking.from_scores(
        actual=[1, 1, 1, 0], scores=[4, 3, 2, 1], positive=1, weights=[0.1, 0.2, 0.7, 1.0]
    )
    assert np.isnan(pearson(ranking, [0.3, 0.5, 0.9, 1.0])).all()
    assert "all outcomes" in str(undefined_reason(ranking, "pearson", 0.5))
    # Past the positives the outcome varies and the correlation is defined.
    assert not math.isnan(pearson(ranking, 1.5))


@pytest.mark.parametrize("count", [7, 5000])
@pytest.mark.parametrize("rule", [">", ">="])
def test_thresholds_by_bisection_match_a_search_of_the_rows(count: int, rule: str) -> None:
    """precision_at/recall_at bisect the descending scores (up to 4096 thresholds) or
    search them: both count exactly the rows above (or at) each threshold."""
    rng = np.random.default_rng(count)
    scores = np.concatenate([np.round(rng.normal(size=300), 1), [np.inf, -np.inf, 0.0]])
    actual = rng.random(scores.size) < 0.5
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True, allow_infinite=True)
    thresholds = np.concatenate([rng.choice(scores, count - 4), [np.inf, -np.inf, -0.0, 0.05]])
    selected = (
        scores[None, :] > thresholds[:, None]
        if rule == ">"
        else (scores[None, :] >= thresholds[:, None])
    )
    hits = (selected & actual[None, :]).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected_precision = hits / selected.sum(axis=1)
    np.testing.assert_array_equal(precision_at(ranking, thresholds, rule=rule), expected_precision)
    np.testing.assert_array_equal(recall_at(ranking, thresholds, rule=rule), hits / actual.sum())
    assert recall_at(ranking, 0.05, rule=rule) == float(hits[-1] / actual.sum())


def test_groups_of_one_row_each_equal_the_general_build() -> None:
    """The shortcut for one unweighted row per group gives the arrays a float running sum
    gives, with sizes a read-only view of 1; weights of 1 are flagged as the same unit
    groups, so that their summaries take the same shortcuts."""
    rng = np.random.default_rng(3)
    scores = rng.random(1000)
    actual = rng.random(1000) < 0.4
    groups = groups_of(Ranking.from_scores(actual=actual, scores=scores, positive=True))
    general = groups_of(
        Ranking.from_scores(actual=actual, scores=scores, positive=True, weights=np.ones(1000))
    )
    assert groups.unit and general.unit
    for name in (
        "size",
        "start",
        "positives_before",
        "cumulative_positives",
        "cumulative_negatives",
        "cumulative_total",
    ):
        np.testing.assert_array_equal(getattr(groups, name), getattr(general, name), name)
    assert not groups.size.flags.writeable


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(1, 300),
    levels=st.integers(2, 400),
    prevalence=st.floats(0.0, 1.0),
    weighted=st.booleans(),
    hull_block=st.integers(3, 80),
    sample=st.integers(1, 5),
    collinear=st.booleans(),
    distinct=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_hull_of_a_sample_first_matches_exact_monotone_chain(
    n: int,
    levels: int,
    prevalence: float,
    weighted: bool,
    hull_block: int,
    sample: int,
    collinear: bool,
    distinct: bool,
    seed: int,
) -> None:
    """With whole counts each hull block first drops the points on or below the hull of
    every `sample`-th of its candidates (of its points, with one unweighted row per
    group); the hull is still the exact monotone chain's, with and without collinear
    points, ties, integer weights and blocks of any size."""
    rng = np.random.default_rng(seed)
    scores = rng.permutation(n) / 7 if distinct else rng.integers(0, levels, n) / 7
    actual = (rng.random(n) < prevalence).astype(int)
    weights = rng.integers(0, 4, n) if weighted else None
    ranking = Ranking.from_scores(
        actual=actual, scores=scores, positive=1, negative=0, weights=weights
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(informed.ranking.thresholds, "_HULL_BLOCK", hull_block)
        patch.setattr(informed.ranking.thresholds, "_HULL_SAMPLE", sample)
        hull = roc_convex_hull(ranking, keep_collinear=collinear).index.tolist()
    assert hull == upper_hull(hull_points(ranking), keep_collinear=collinear)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000])
def test_groups_of_one_row_each_locate_quotas_without_their_positions(n: int) -> None:
    """One unweighted row per group: the positions before each group (0, 1, 2, ...) and
    the negatives before it are made only when read whole; quotas are placed, and
    positions and negatives read at a few groups, by arithmetic that equals a search of
    the ends 1..n and the arrays themselves (numpy's searchsorted on an arange here)."""
    rng = np.random.default_rng(n)
    actual, scores = rng.random(n) < 0.4, rng.random(n)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True, negative=False)
    groups = groups_of(ranking)
    quotas = np.unique(np.concatenate([np.arange(0, n + 0.5, 0.5), rng.random(50) * n]))
    reached = {side: groups.ends_reached(quotas, side) for side in ("left", "right")}
    index = np.arange(n + 1)
    total_at, negatives_at = groups.total_at(index), groups.negatives_at(index)
    for name in ("cumulative_total", "cumulative_negatives"):
        assert name not in groups.__dict__, name  # not made by any of these
    ends = np.arange(1.0, n + 1.0)
    for side, got in reached.items():
        np.testing.assert_array_equal(got, np.searchsorted(ends, quotas, side=side), side)
        assert got.dtype == np.intp
    np.testing.assert_array_equal(total_at, np.arange(n + 1.0))
    negatives = np.concatenate(([0], np.cumsum(~actual[np.argsort(-scores)])))
    np.testing.assert_array_equal(negatives_at, negatives)
    np.testing.assert_array_equal(groups.cumulative_total, np.arange(n + 1.0))
    np.testing.assert_array_equal(groups.cumulative_negatives, negatives)
