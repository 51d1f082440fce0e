"""Decision curves of a Ranking of probabilities, held to a brute force over the rows, to
dcurves (Vickers' package) on its own grid, and to informedness (standardized net
benefit at p_t = prevalence is informedness)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from peers import run_peer

from informed import InputError, Ranking
from informed.ranking import beats_defaults, decision_curve


def _rows(seed: int, n: int, decimals: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    scores = np.round(rng.beta(1.5, 3.0, n), decimals)
    actual = (rng.random(n) < scores**0.8).astype(int)
    actual[:2] = [0, 1]
    return actual, scores


def _net_benefit(actual: np.ndarray, scores: np.ndarray, p: float) -> float:
    """Row by row: acting on every row scored at least p."""
    acted = scores >= p
    tp = int(np.sum(acted & (actual == 1)))
    fp = int(np.sum(acted & (actual == 0)))
    return tp / actual.size - fp / actual.size * p / (1 - p)


@pytest.mark.parametrize("seed", range(4))
def test_every_point_matches_a_brute_force_over_rows(seed: int) -> None:
    actual, scores = _rows(seed, 300)
    curve = decision_curve(Ranking.from_scores(actual, scores, positive=1))
    assert curve.thresholds.tolist() == sorted(set(scores[scores < 1].tolist()))
    prevalence = actual.mean()
    for i, p in enumerate(curve.thresholds.tolist()):
        nb = _net_benefit(actual, scores, p)
        all_ = prevalence - (1 - prevalence) * p / (1 - p)
        assert curve.net_benefit[i] == pytest.approx(nb, abs=1e-15)
        assert curve.treat_all[i] == pytest.approx(all_, abs=1e-15)
        assert curve.standardized[i] == pytest.approx(nb / prevalence, abs=1e-14)
        if p > 0:
            avoided = (nb - all_) / (p / (1 - p)) * 100
            assert curve.interventions_avoided[i] == pytest.approx(avoided, abs=1e-11)
        else:
            assert math.isnan(curve.interventions_avoided[i])


def test_between_distinct_scores_any_threshold_is_exact() -> None:
    actual, scores = _rows(9, 200)
    grid = np.linspace(0, 0.999, 777)
    curve = decision_curve(Ranking.from_scores(actual, scores, positive=1), grid)
    expected = [_net_benefit(actual, scores, p) for p in grid]
    np.testing.assert_allclose(curve.net_benefit, expected, rtol=0, atol=1e-15)


def test_net_benefit_matches_dcurves_on_its_grid(tmp_path: Path) -> None:
    """dcurves' `dca` on its default 100 thresholds: net benefit, treat-all and net
    interventions avoided agree to 1e-12 (three samples). Where definitions differ:
    dcurves moves scores of exactly 0 to -eps, so at p_t = 0 it acts on no row scored 0
    (we act on every row scored at least 0); at p_t = 0 dcurves' interventions avoided
    divide 0 by 0 (NaN, ours too). The last sample shows that one difference. dcurves runs
    in a child process (it imports pyplot)."""
    arrays = {}
    for seed in range(3):
        actual, scores = _rows(seed, 400, decimals=3)
        arrays[f"actual{seed}"], arrays[f"scores{seed}"] = actual, np.clip(scores, 0.001, 0.999)
    arrays["actual3"] = np.array([1, 0, 0, 1, 0])
    arrays["scores3"] = np.array([0.0, 0.0, 0.3, 0.8, 0.5])
    code = """
import pandas as pd
from dcurves import dca
found = []
for seed in range(4):
    frame = pd.DataFrame({"outcome": globals()[f"actual{seed}"],
                          "model": globals()[f"scores{seed}"]})
    grid = [i / 100 for i in range(100)] if seed < 3 else [0, 0.2]
    result = dca(data=frame, outcome="outcome", modelnames=["model"], thresholds=grid)
    model, everyone = result[result.model == "model"], result[result.model == "all"]
    found.append({"threshold": model.threshold.tolist(),
                  "net_benefit": model.net_benefit.tolist(),
                  "all": everyone.net_benefit.tolist(),
                  "avoided": model.net_intervention_avoided.tolist()[1:]})
print(json.dumps(found))
"""
    theirs = run_peer("dcurves", code, arrays, tmp_path)
    grid = np.array([i / 100 for i in range(100)])
    for seed in range(3):
        ranking = Ranking.from_scores(arrays[f"actual{seed}"], arrays[f"scores{seed}"], positive=1)
        ours = decision_curve(ranking, grid)
        found = theirs[seed]
        np.testing.assert_array_equal(ours.thresholds, found["threshold"])
        np.testing.assert_allclose(ours.net_benefit, found["net_benefit"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(ours.treat_all, found["all"], rtol=0, atol=1e-12)
        avoided = np.array(found["avoided"]) * 100
        np.testing.assert_allclose(ours.interventions_avoided[1:], avoided, rtol=0, atol=1e-10)
    # the one place the conventions part: rows scored exactly 0 at p_t = 0
    ranking = Ranking.from_scores(arrays["actual3"], arrays["scores3"], positive=1)
    ours = decision_curve(ranking, [0, 0.2]).net_benefit
    assert ours[0] == 2 / 5 and theirs[3]["net_benefit"][0] == pytest.approx(1 / 5)
    assert ours[1] == pytest.approx(theirs[3]["net_benefit"][1], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_standardized_net_benefit_at_the_prevalence_is_informedness(seed: int) -> None:
    """NB/prevalence at p_t = prevalence = TPR - FPR: the informedness of the table at that
    threshold (Powers' bookmaker at the odds the prevalence sets)."""
    actual, scores = _rows(seed, 500)
    ranking = Ranking.from_scores(actual, scores, positive=1)
    prevalence = float(actual.mean())
    curve = decision_curve(ranking, [prevalence])
    informedness = ranking.at_threshold(prevalence).value
    assert curve.standardized[0] == pytest.approx(informedness, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_where_the_model_beats_both_defaults_matches_a_dense_grid(seed: int) -> None:
    """Every grid point inside a reported interval beats treat-all and treat-none by the
    brute force over rows, every point outside does not (points within 1e-9 of an end
    are not judged)."""
    actual, scores = _rows(seed, 120, decimals=2)
    intervals = beats_defaults(Ranking.from_scores(actual, scores, positive=1))
    prevalence = actual.mean()
    for p in np.linspace(0.0, 0.995, 1500).tolist():
        if any(abs(p - end) < 1e-9 for pair in intervals for end in pair):
            continue
        nb = _net_benefit(actual, scores, p)
        beats = nb > 0 and nb > prevalence - (1 - prevalence) * p / (1 - p)
        inside = any(low < p < high for low, high in intervals)
        assert beats == inside, p


def test_merged_rankings_give_the_same_curve_bit_for_bit() -> None:
    actual, scores = _rows(3, 2000)
    whole = decision_curve(Ranking.from_scores(actual, scores, positive=1))
    merged = decision_curve(
        sum(
            Ranking.from_scores(actual[i::4], scores[i::4], positive=1, negative=0)
            for i in range(4)
        )  # type: ignore[arg-type]
    )
    assert merged.to_dict() == whole.to_dict()


def test_thresholds_outside_zero_one_and_scores_that_are_no_probabilities_are_refused() -> None:
    ranking = Ranking.from_scores([1, 0], [0.8, 0.1], positive=1)
    with pytest.raises(InputError, match=r"\[0, 1\).*got 1\.0"):
        decision_curve(ranking, [0.2, 1.0])
    with pytest.raises(InputError, match="lies outside"):
        decision_curve(Ranking.from_scores([1, 0], [3.0, 0.1], positive=1))


def test_one_class_only_has_no_range_and_nan_standardized() -> None:
    curve = decision_curve(Ranking.from_scores([0, 0], [0.2, 0.7], positive=1, negative=0))
    assert curve.beats_defaults == ()
    assert np.all(np.isnan(curve.standardized))
    assert curve.net_benefit.tolist() == pytest.approx([-0.25, -1 / 2 * 0.7 / 0.3])


def test_a_model_that_never_beats_the_defaults_has_no_range() -> None:
    """Scores against the outcomes: no threshold probability makes acting on them better
    than both defaults (the exact search had no interval to join; found by the fuzzing of
    every output, tests/report/test_safe_output.py)."""
    ranking = Ranking.from_scores([1, 0], [0.2, 0.8], positive=1)
    assert beats_defaults(ranking) == ()
    assert decision_curve(ranking).beats_defaults == ()
