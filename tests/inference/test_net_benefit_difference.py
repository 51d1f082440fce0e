"""The difference in net benefit between two models on the same cases: each model's net
benefit held to dcurves (Vickers' package) and to a brute force over the rows, the
difference and the ranges where one model beats the other to a brute force, the paired
bootstrap to a known zero (the same model twice) and a known positive difference (a
population whose net benefits are written out)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from peers import run_peer

from informed import InputError, compare
from informed.comparison.net_benefit import difference_thresholds, net_benefit_difference
from informed.errors import InputTypeError
from informed.ranking import Ranking
from informed.ranking.decision import REPORT_THRESHOLDS


def _two_models(seed: int, n: int, decimals: int = 2) -> tuple[np.ndarray, ...]:
    """Outcomes and two correlated models' probabilities (rounded: many ties)."""
    rng = np.random.default_rng(seed)
    risk = rng.beta(1.5, 3.0, n)
    actual = (rng.random(n) < risk).astype(int)
    a = np.clip(np.round(risk + rng.normal(0, 0.15, n), decimals), 0, 1)
    b = np.clip(np.round(risk + rng.normal(0, 0.08, n), decimals), 0, 1)
    actual[:2] = [0, 1]
    return actual, a, b


def _net_benefit(actual: np.ndarray, scores: np.ndarray, p: float, weights: np.ndarray) -> float:
    """Row by row: acting on every row scored at least p."""
    acted = scores >= p
    tp = float(np.sum(weights[acted & (actual == 1)]))
    fp = float(np.sum(weights[acted & (actual == 0)]))
    n = float(weights.sum())
    return tp / n - fp / n * p / (1 - p)


@pytest.mark.parametrize("seed", range(4))
def test_the_difference_at_every_threshold_is_a_brute_force_over_rows(seed: int) -> None:
    """At the default thresholds and on a dense grid, with and without whole weights (a
    bootstrap replicate is such weights): each model's net benefit and the difference."""
    actual, a, b = _two_models(seed, 300)
    weights = np.random.default_rng(seed).integers(0, 4, 300).astype(float)
    weights[:2] = 1
    for w in (None, weights):
        row_weights = np.ones(300) if w is None else w
        for grid in (None, np.linspace(0, 0.999, 301)):
            found = net_benefit_difference(
                actual, {"a": a, "b": b}, positive=1, thresholds=grid, weights=w,
                replicates=20, seed=0,
            )  # fmt: skip
            for i, p in enumerate(found.thresholds.tolist()):
                nb_a = _net_benefit(actual, a, p, row_weights)
                nb_b = _net_benefit(actual, b, p, row_weights)
                assert found.net_benefit["a"][i] == pytest.approx(nb_a, abs=1e-14)
                assert found.net_benefit["b"][i] == pytest.approx(nb_b, abs=1e-14)
                assert found.difference[i] == pytest.approx(nb_b - nb_a, abs=1e-14)


def test_default_thresholds_are_the_union_of_scores_or_a_grid_with_the_reports() -> None:
    actual, a, b = _two_models(0, 300)
    found = net_benefit_difference(actual, {"a": a, "b": b}, positive=1, replicates=5, seed=0)
    every = set(a[a < 1].tolist()) | set(b[b < 1].tolist()) | set(REPORT_THRESHOLDS)
    assert found.thresholds.tolist() == sorted(every)
    actual, a, b = _two_models(1, 3000, decimals=6)  # many distinct scores: the grid
    points = difference_thresholds(
        Ranking.from_scores(actual, a, positive=1), Ranking.from_scores(actual, b, positive=1)
    )
    assert 100 < points.size < 400
    assert set(np.arange(100) / 100).issubset(points.tolist())


@pytest.mark.parametrize("seed", range(6))
def test_where_one_model_beats_the_other_matches_a_dense_grid(seed: int) -> None:
    """Every grid point inside a reported range of `beats` has NB(b) > NB(a) by the
    brute force over rows, every point outside does not; the same for `loses` (points
    within 1e-9 of an end are not judged)."""
    actual, a, b = _two_models(seed, 150)
    found = net_benefit_difference(actual, {"a": a, "b": b}, positive=1, replicates=5, seed=0)
    assert found.beats and found.loses
    ones = np.ones(actual.size)
    for p in np.linspace(0.0, 0.9995, 3000).tolist():
        ends = [end for pair in (*found.beats, *found.loses) for end in pair]
        if any(abs(p - end) < 1e-9 for end in ends):
            continue
        difference = _net_benefit(actual, b, p, ones) - _net_benefit(actual, a, p, ones)
        assert (difference > 1e-13) == any(lo < p < hi for lo, hi in found.beats), p
        assert (difference < -1e-13) == any(lo < p < hi for lo, hi in found.loses), p
    assert found.lowest.estimate == found.beats[0][0]
    assert found.highest.estimate == found.beats[-1][1]
    assert found.lowest.low <= found.lowest.estimate <= found.lowest.high


def test_a_model_against_itself_differs_by_exactly_zero_in_every_replicate() -> None:
    """The same scores twice: the difference is 0 at every threshold in every paired
    replicate, so the band has zero width; neither model ever beats the other. An unpaired
    bootstrap would give a band of positive width."""
    actual, a, _ = _two_models(3, 400)
    found = net_benefit_difference(actual, {"a": a, "again": a}, positive=1, seed=1)
    assert np.all(found.distribution["difference"] == 0.0)
    low, high = found.bands["difference"]
    assert np.all(low == 0.0) and np.all(high == 0.0)
    assert found.beats == () and found.loses == ()
    assert math.isnan(found.lowest.estimate) and "at no p_t" in (found.lowest.reason or "")
    assert found.above_zero == () and found.below_zero == ()
    own_low, own_high = found.bands["a"]
    assert np.any(own_high - own_low > 0.01)  # each model's own band is not degenerate


# A population of eight equally likely probabilities: model b scores each case's own
# probability, model a an independent draw from the same eight (it knows nothing).
ATOMS = (2 * np.arange(1, 9) - 1) / 16


def _population_difference(p: float) -> float:
    odds = p / (1 - p)
    acted = ATOMS[p <= ATOMS]
    nb_b = float(np.sum(acted - (1 - acted) * odds)) / 8
    nb_a = acted.size / 8 * (0.5 - 0.5 * odds)  # acts at random: prevalence 1/2 among them
    return nb_b - nb_a


def test_the_paired_band_covers_a_known_positive_difference() -> None:
    """100 seeded samples of 400 cases, 90 % bands: the band at p_t = 0.3 and at 0.6
    covers the population's difference (written out above) about 90 times in 100, and
    the band lies above 0 (b beats a beyond noise) at p_t = 0.3 in nearly every sample."""
    points = [0.3, 0.6]
    truth = [_population_difference(p) for p in points]
    # by hand at p_t = 0.3 (odds 3/7): six atoms 5/16 .. 15/16 acted on, summing to 15/4;
    # b: (15/4 - (6 - 15/4) 3/7) / 8 = 39/112, a: 6/8 (1/2 - 3/14) = 24/112
    assert truth[0] == pytest.approx(15 / 112, abs=1e-15)
    covered = np.zeros(2, dtype=int)
    above = 0
    for seed in range(100):
        rng = np.random.default_rng(seed)
        probability = rng.choice(ATOMS, 400)
        actual = (rng.random(400) < probability).astype(int)
        unrelated = rng.choice(ATOMS, 400)
        found = net_benefit_difference(
            actual, {"a": unrelated, "b": probability}, positive=1, thresholds=points,
            replicates=400, level=0.9, seed=seed,
        )  # fmt: skip
        low, high = found.bands["difference"]
        covered += (low <= truth) & (np.asarray(truth) <= high)
        above += int(low[0] > 0)
    assert 80 <= covered[0] <= 98 and 80 <= covered[1] <= 98, covered
    assert above >= 95


def test_each_models_net_benefit_matches_dcurves(tmp_path: Path) -> None:
    """dcurves' `dca` with both models on its default 100 thresholds: each model's net
    benefit and treat-all agree to 1e-12 (scores kept off 0, where dcurves moves them to
    -eps; see tests/ranking/test_decision_curve.py). dcurves runs in a child process (it
    imports pyplot)."""
    actual, a, b = _two_models(5, 500, decimals=3)
    a, b = np.clip(a, 0.001, 0.999), np.clip(b, 0.001, 0.999)
    code = """
import pandas as pd
from dcurves import dca
frame = pd.DataFrame({"outcome": actual, "a": a, "b": b})
grid = [i / 100 for i in range(100)]
result = dca(data=frame, outcome="outcome", modelnames=["a", "b"], thresholds=grid)
found = {name: result[result.model == name].net_benefit.tolist() for name in ("a", "b", "all")}
print(json.dumps(found))
"""
    theirs = run_peer("dcurves", code, {"actual": actual, "a": a, "b": b}, tmp_path)
    grid = np.arange(100) / 100
    ours = net_benefit_difference(
        actual, {"a": a, "b": b}, positive=1, thresholds=grid, replicates=5, seed=0
    )
    np.testing.assert_allclose(ours.net_benefit["a"], theirs["a"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.net_benefit["b"], theirs["b"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.treat_all, theirs["all"], rtol=0, atol=1e-12)
    difference = np.array(theirs["b"]) - np.array(theirs["a"])
    np.testing.assert_allclose(ours.difference, difference, rtol=0, atol=1e-12)


def test_whole_weights_give_the_numbers_of_repeated_rows() -> None:
    """Weights 3 and 1 are the rows repeated: the same joint cells, so the same curves,
    ranges and (same seed) bands bit for bit."""
    actual, a, b = _two_models(7, 200)
    weights = np.where(np.arange(200) % 3 == 0, 3.0, 1.0)
    repeat = np.repeat(np.arange(200), weights.astype(int))
    weighted = net_benefit_difference(
        actual, {"a": a, "b": b}, positive=1, weights=weights, replicates=50, seed=2
    )
    repeated = net_benefit_difference(
        actual[repeat], {"a": a[repeat], "b": b[repeat]}, positive=1, replicates=50, seed=2
    )
    assert weighted.beats == repeated.beats and weighted.loses == repeated.loses
    np.testing.assert_array_equal(weighted.difference, repeated.difference)
    np.testing.assert_array_equal(weighted.bands["difference"], repeated.bands["difference"])


def test_compare_holds_it_for_probabilities_and_says_why_not_otherwise() -> None:
    actual, a, b = _two_models(2, 300)
    c = np.clip(a + 0.05, 0, 1)
    result = compare(
        actual, scores={"a": a, "b": b, "c": c}, positive=1, replicates=50, permutations=9,
        seed=0,
    )  # fmt: skip
    assert result.net_benefit_reason is None
    assert set(result.net_benefit) == set(result.models) - {result.reference}
    for name, found in result.net_benefit.items():
        assert (found.model, found.reference) == (name, result.reference)
        alone = net_benefit_difference(
            actual, {result.reference: (a, b, c)["abc".index(result.reference)],
                     name: (a, b, c)["abc".index(name)]},
            positive=1, replicates=5, seed=0,
        )  # fmt: skip
        assert found.beats == alone.beats and found.loses == alone.loses
        np.testing.assert_array_equal(found.difference, alone.difference)
    document = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    shown = document["net_benefit"][name]
    assert shown["threshold"] == list(REPORT_THRESHOLDS)
    assert document["net_benefit_undefined"] is None
    outside = compare(
        actual, scores={"a": a, "b": b * 3}, positive=1, replicates=5, permutations=9, seed=0
    )
    assert outside.net_benefit == {}
    assert "not probabilities" in (outside.net_benefit_reason or "")
    labels = compare(actual, {"a": (a > 0.5) * 1, "b": (b > 0.5) * 1}, positive=1, seed=0)
    assert labels.net_benefit == {} and "no scores" in (labels.net_benefit_reason or "")


def test_bad_input_is_refused_by_name() -> None:
    actual, a, b = _two_models(0, 50)
    with pytest.raises(InputTypeError, match="dict of two models"):
        net_benefit_difference(actual, {"a": a, "b": b, "c": b}, positive=1)
    with pytest.raises(InputError, match=r"positive class 1, but score 2\.0 lies outside \[0, 1"):
        net_benefit_difference(actual, {"a": a, "b": b * 0 + 2}, positive=1)  # 1, never True
    with pytest.raises(InputError, match=r"must lie in \[0, 1\)"):
        net_benefit_difference(actual, {"a": a, "b": b}, positive=1, thresholds=[0.5, 1.0])
    with pytest.raises(InputError, match="positive=7 is not a class"):
        net_benefit_difference(actual, {"a": a, "b": b}, positive=7)
    with pytest.raises(InputError, match="every weight is 0"):  # was an IndexError
        net_benefit_difference(actual, {"a": a, "b": b}, positive=1, weights=np.zeros(50))


def test_each_replicates_ends_are_those_of_its_exact_ranges() -> None:
    """The replicates' lowest and highest p_t where b beats a, found from the first and
    last stretch only, are the ends of the full exact ranges (random counts, ties of the
    sign of dTP + dFP included)."""
    from informed.ranking.decision import difference_ends as _ends
    from informed.ranking.decision import difference_ranges as _ranges

    rng = np.random.default_rng(0)
    union = np.concatenate([[0.0], np.sort(rng.random(30)), [1.0]])
    gained = rng.integers(-3, 4, (400, union.size)).astype(float)
    extra = rng.integers(-3, 4, (400, union.size)).astype(float)
    lowest, highest = _ends(union, gained, extra)
    for b in range(400):
        found = _ranges(union, gained[b], extra[b])
        if not found:
            assert math.isnan(lowest[b]) and math.isnan(highest[b])
        else:
            assert (lowest[b], highest[b]) == (found[0][0], found[-1][1])


def test_a_range_from_p_t_zero_starts_at_plus_zero() -> None:
    """Both models score some case 0 and b leads from p_t = 0: the first range of `beats`
    starts at 0.0, in the result and its JSON, never at -0.0."""
    import json

    rng = np.random.default_rng(0)
    actual = rng.integers(0, 2, 300)
    a = np.clip(actual * 0.3 + rng.random(300) * 0.7, 0, 1).round(2)
    b = np.clip(actual * 0.4 + rng.random(300) * 0.6, 0, 1).round(2)
    found = net_benefit_difference(actual, {"a": a, "b": b}, positive=1, replicates=5, seed=0)
    assert found.beats[0][0] == 0.0 and math.copysign(1.0, found.beats[0][0]) == 1.0
    assert json.dumps(found.to_dict()["beats"][0]).startswith("[0.0,")
