"""Calibration within slices (`informed.inference.slice_calibration`): each slice's MCB
against model-diagnostics and a brute force over the slice's rows, merged slices bit for
bit, time windows, the spread across slices, its intervals and what is refused."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

from informed import Ranking
from informed.errors import InputError, InputTypeError
from informed.inference.slice_calibration import slice_calibration
from informed.ranking.calibration import pav, score_decomposition
from informed.slices import Slices
from informed.slices.rolling import accumulate
from tests.peers import run_peer


def _rows(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Groups a, b, c: a calibrated, b's scores too extreme, c's too low; scores rounded
    to 2 decimals so that ties are many."""
    rng = np.random.default_rng(seed)
    group = rng.choice(np.array(["a", "b", "c"]), n, p=[0.5, 0.3, 0.2])
    risk = rng.beta(2, 3, n)
    scores = np.where(group == "b", np.clip(1.6 * risk - 0.3, 0, 1), risk)
    scores = np.where(group == "c", 0.6 * risk, scores)
    actual = (rng.random(n) < risk).astype(int)
    return group, actual, np.round(scores, 2)


def _brute_mcb(actual: np.ndarray, scores: np.ndarray) -> float:
    """Brier MCB over the rows: the mean squared error of the scores minus that of their
    isotonic recalibration (scikit-learn's IsotonicRegression fitted on the rows)."""
    fitted = IsotonicRegression(out_of_bounds="clip").fit(scores, actual).predict(scores)
    return float(np.mean((scores - actual) ** 2) - np.mean((fitted - actual) ** 2))


def test_each_slice_mcb_is_the_brute_force_over_its_rows() -> None:
    group, actual, scores = _rows(0, 3000)
    found = slice_calibration(
        Slices.from_labels(by=group, actual=actual, scores=scores, positive=1),
        replicates=20,
        seed=0,
    )
    for s, key in enumerate(found.slices.keys):
        mine = group == key[0]
        expected = _brute_mcb(actual[mine], scores[mine])
        assert found.decompositions[s].miscalibration == pytest.approx(expected, abs=1e-12)
    mcb = [d.miscalibration for d in found.decompositions]
    assert found.spread.estimate == max(mcb) - min(mcb)
    assert found.slices.name(found.slices.keys[found.highest]) != "a"  # a is calibrated


def test_each_slice_matches_model_diagnostics(tmp_path: Path) -> None:
    """model-diagnostics' `decompose` on each slice's rows: the same MCB, DSC, UNC and
    mean Brier score to 1e-12 (in a child process: it imports pyplot)."""
    group, actual, scores = _rows(1, 4000)
    arrays = {"group": group.astype("U1"), "actual": actual, "scores": scores}
    code = """
from model_diagnostics.scoring import SquaredError, decompose
found = {}
for g in ("a", "b", "c"):
    keep = group == g
    found[g] = decompose(actual[keep], scores[keep], scoring_function=SquaredError()).row(
        0, named=True)
print(json.dumps(found))
"""
    theirs = run_peer("model_diagnostics", code, arrays, tmp_path)
    found = slice_calibration(
        Slices.from_labels(by=group, actual=actual, scores=scores, positive=1),
        replicates=20,
        seed=0,
    )
    for s, key in enumerate(found.slices.keys):
        ours = found.decompositions[s]
        for name in ("miscalibration", "discrimination", "uncertainty", "score"):
            assert getattr(ours, name) == pytest.approx(theirs[key[0]][name], abs=1e-12)


def test_merged_slices_give_the_mcb_of_one_ranking_bit_for_bit() -> None:
    group, actual, scores = _rows(2, 4000)
    whole = Slices.from_labels(by=group, actual=actual, scores=scores, positive=1)
    parts = [
        Slices.from_labels(by=group[i::3], actual=actual[i::3], scores=scores[i::3], positive=1)
        for i in range(3)
    ]
    merged = parts[0] + parts[1] + parts[2]
    ours = slice_calibration(merged, replicates=50, seed=3)
    theirs = slice_calibration(whole, replicates=50, seed=3)
    assert ours.to_dict() == theirs.to_dict()
    for s, key in enumerate(merged.keys):
        mine = group == key[0]
        one = score_decomposition(Ranking.from_scores(actual[mine], scores[mine], positive=1))
        assert ours.decompositions[s] == one  # every number equal, not approximately


def test_time_windows_and_merged_windows() -> None:
    _, actual, scores = _rows(4, 3000)
    days = np.datetime64("2024-01-01") + np.arange(3000) // 100
    windows = Slices.from_labels(time=days, every="7d", actual=actual, scores=scores, positive=1)
    found = slice_calibration(windows, replicates=20, seed=0, min_count=0)
    week = (days - np.datetime64("2024-01-01")).astype(int) // 7
    for s in range(len(windows.keys)):
        mine = week == s
        expected = _brute_mcb(actual[mine], scores[mine])
        assert found.decompositions[s].miscalibration == pytest.approx(expected, abs=1e-12)
    assert not math.isnan(found.spread.estimate)
    rolling = slice_calibration(accumulate(windows, last=2, every="7d"), replicates=20, seed=0)
    assert math.isnan(rolling.spread.estimate)
    assert "overlap" in (rolling.spread.reason or "")
    second = (week == 0) | (week == 1)
    assert rolling.decompositions[1].miscalibration == pytest.approx(
        _brute_mcb(actual[second], scores[second]), abs=1e-12
    )


def test_intervals_bracket_a_miscalibrated_slice_and_repeat_with_the_seed() -> None:
    group, actual, scores = _rows(5, 3000)
    slices = Slices.from_labels(by=group, actual=actual, scores=scores, positive=1)
    first = slice_calibration(slices, replicates=300, seed=7)
    again = slice_calibration(slices, replicates=300, seed=7)
    other = slice_calibration(slices, replicates=300, seed=8)
    assert first.to_dict() == again.to_dict()
    assert first.to_dict() != other.to_dict()
    for s, key in enumerate(slices.keys):
        interval = first.miscalibration[s]
        if key[0] != "a":  # b and c are miscalibrated: MCB well away from 0
            assert interval.low < interval.estimate < interval.high, key
    spread = first.spread
    assert spread.low < spread.estimate < spread.high


def test_small_slices_are_left_out_of_the_spread_and_named() -> None:
    group, actual, scores = _rows(6, 2000)
    group = np.where(np.arange(2000) < 20, "tiny", group)
    found = slice_calibration(
        Slices.from_labels(by=group, actual=actual, scores=scores, positive=1),
        replicates=20,
        seed=0,
    )
    names = [found.slices.name(found.slices.keys[s]) for s, _ in found.left_out]
    assert names == ["tiny"]
    kept = [
        d.miscalibration
        for key, d in zip(found.slices.keys, found.decompositions, strict=True)
        if key[0] != "tiny"
    ]
    assert found.spread.estimate == max(kept) - min(kept)
    every = [d.miscalibration for d in found.decompositions]
    assert found.spread_all.estimate == max(every) - min(every)


def test_refused_without_probabilities_or_scores() -> None:
    with pytest.raises(InputError, match=r"slice 'b':.*lies outside \[0, 1\]"):
        slice_calibration(
            Slices.from_labels(
                by=["a", "a", "b", "b"],
                actual=[1, 0, 1, 0],
                scores=[0.9, 0.1, 2, 0.1],
                positive=1,
            ),
            replicates=10,
        )
    with pytest.raises(InputError, match="build the slices with `scores`"):
        slice_calibration(Slices.from_labels(by=["a"], actual=[1], predicted=[1]))
    with pytest.raises(InputError, match="`rule` must be one of"):
        slice_calibration(
            Slices.from_labels(by=["a"], actual=[1], scores=[0.5], positive=1), rule="x"
        )


def test_a_slice_whose_weights_round_to_no_case_says_so() -> None:
    """Frequency weights of 0.1 on four rows are 0.4 of a case: no case to resample. Its
    MCB has no interval and says why (as `bootstrap_slices` says it), not "undefined in
    every bootstrap replicate", and it is held at its estimate in the replicates, so the
    spread keeps an interval."""
    scores = [0.2, 0.4, 0.6, 0.8] * 2
    slices = Slices.from_labels(
        by=["a"] * 4 + ["b"] * 4, actual=[1, 0, 0, 1, 0, 1, 0, 1], scores=scores,
        positive=1, weights=[0.1] * 4 + [3.0] * 4,
    )  # fmt: skip
    found = slice_calibration(slices, replicates=200, seed=0, min_count=0)
    light, heavy = found.miscalibration
    assert light.estimate == pytest.approx(_brute_mcb(np.array([1, 0, 0, 1]), np.array(scores[:4])))
    assert math.isnan(light.low) and light.reason is not None
    assert "sum to 0.4, read as 0 cases (frequency weights)" in light.reason
    assert not math.isnan(heavy.low) and heavy.reason is None
    assert np.all(found.distribution[:, 0] == light.estimate)
    assert found.spread.reason is None and found.spread.low < found.spread.high
    nothing = Slices.from_labels(
        by=["a"] * 4 + ["b"] * 4, actual=[1, 0, 0, 1, 0, 1, 0, 1], scores=scores,
        positive=1, weights=[0.01] * 8,
    )  # fmt: skip
    spread = slice_calibration(nothing, replicates=50, seed=0, min_count=0).spread
    assert not math.isnan(spread.estimate) and math.isnan(spread.low)
    assert spread.reason is not None and "round to no case" in spread.reason


def test_a_min_count_that_is_no_number_is_named() -> None:
    """min_count="x" or None: an error naming `min_count`, not float()'s "could not
    convert string to float"."""
    slices = Slices.from_labels(by=["a"], actual=[1], scores=[0.5], positive=1)
    for bad in ("x", None, "30"):
        with pytest.raises(InputTypeError, match=r"`min_count` must be a number >= 0; got"):
            slice_calibration(slices, replicates=10, min_count=bad)


def test_replicates_of_small_slices_are_refitted_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1,000 slices of a few rows took 70 s of replicates, a `pav` call and a
    decomposition each (10,000 slices, the most a report takes, some 12 minutes, where
    the rest of the report takes seconds). A slice of few tie groups now refits its
    replicates together: no `pav` call per replicate, and each replicate's MCB is the
    brute force over its rows (scikit-learn's isotonic regression)."""
    module = sys.modules["informed.inference.slice_calibration"]  # the package names the function

    calls = []
    monkeypatch.setattr(module, "pav", lambda *a: calls.append(1) or pav(*a))
    rng = np.random.default_rng(4)
    n = 600
    keys = np.arange(n) % 200
    scores = np.round(rng.random(n), 1)
    actual = (rng.random(n) < scores).astype(int)
    slices = Slices.from_labels(by=keys, actual=actual, scores=scores, positive=1)
    found = slice_calibration(slices, replicates=1000, seed=0, min_count=0)
    assert calls == [] and found.distribution.shape == (1000, 200)
    # each replicate against the brute force over its rows: random counts (violators and
    # ties), groups drawn empty, a replicate of no row, scores of 0 and 1 (log: infinite)
    rules = [("brier", _brute_mcb), ("log", _brute_log_mcb)]
    six = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    for scores_of in (six, np.array([0.0, 0.3, 1.0])):
        for rule, brute in rules:
            positives = rng.integers(0, 3, (40, scores_of.size)).astype(float)
            negatives = rng.integers(0, 3, (40, scores_of.size)).astype(float)
            positives[0] = negatives[0] = 0.0  # a replicate of no row
            got = module._batched_mcb(rule, scores_of, positives, negatives)
            assert math.isnan(got[0])
            for b in range(1, 40):
                rows_actual = np.repeat(
                    np.r_[np.ones(scores_of.size), np.zeros(scores_of.size)],
                    np.r_[positives[b], negatives[b]].astype(int),
                )
                rows_scores = np.repeat(
                    np.r_[scores_of, scores_of], np.r_[positives[b], negatives[b]].astype(int)
                )
                assert got[b] == pytest.approx(brute(rows_actual, rows_scores), abs=1e-12), rule


def _brute_log_mcb(actual: np.ndarray, scores: np.ndarray) -> float:
    """Log MCB over the rows: mean log loss of the scores minus that of their isotonic
    recalibration (0 log 0 = 0; a positive scored 0 is an infinite loss)."""
    fitted = IsotonicRegression(out_of_bounds="clip").fit(scores, actual).predict(scores)

    def loss(p: np.ndarray) -> float:
        with np.errstate(divide="ignore"):
            return float(
                -np.mean(
                    np.where(actual == 1, np.log(p), 0) + np.where(actual == 0, np.log(1 - p), 0)
                )
            )

    return loss(scores) - loss(fitted)


def test_the_spread_of_infinite_log_mcb_says_why_it_is_undefined() -> None:
    """A slice whose negative is scored 1 has log MCB +inf: one such slice makes the
    spread +inf, two leave max - min undefined, and the reason says that, not that
    fewer than two slices have a value."""
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 1, 400)
    y = rng.uniform(0, 1, 400) < p
    by = np.repeat(["a", "b", "c", "d"], 100)
    p[0], y[0] = 1.0, False
    one = slice_calibration(
        Slices.from_labels(by=by, actual=y, scores=p, positive=True),
        rule="log",
        replicates=50,
        seed=0,
    )
    assert one.decompositions[0].miscalibration == math.inf
    assert one.spread.estimate == math.inf
    p[[100, 200, 300]], y[[100, 200, 300]] = 1.0, False
    every = slice_calibration(
        Slices.from_labels(by=by, actual=y, scores=p, positive=True),
        rule="log",
        replicates=50,
        seed=0,
    )
    assert all(d.miscalibration == math.inf for d in every.decompositions)
    for spread in (every.spread, every.spread_all):
        assert math.isnan(spread.estimate)
        assert spread.reason is not None
        assert "MCB is infinite in 4 of the slices" in spread.reason
        assert "fewer than two" not in spread.reason
