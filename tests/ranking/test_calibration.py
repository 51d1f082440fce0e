"""Calibration of a Ranking of probabilities (CORP curve, Brier and log scores with their
decompositions, logistic recalibration, binned ECE), held to brute forces over the rows
written here (exact fractions where they fit) and to the peers: model-diagnostics for the
CORP decomposition, scikit-learn for the isotonic fit, Brier, log loss and
`calibration_curve`, statsmodels for the logistic fit."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from peers import run_peer

from informed import InputError, InputTypeError, Ranking
from informed.ranking import (
    binned_calibration,
    calibration,
    recalibration,
    reliability_curve,
    score_decomposition,
)

Rows = tuple[np.ndarray, np.ndarray]


def _rows(seed: int, n: int, decimals: int = 2) -> Rows:
    """Scores with ties (rounded) and outcomes drawn from a miscalibrated truth."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.beta(2.0, 3.0, n), decimals)
    actual = (rng.random(n) < scores**1.4).astype(int)
    actual[:2] = [0, 1]  # both classes, whatever the seed
    return actual, scores


def _pav_exact(actual: np.ndarray, scores: np.ndarray) -> dict[float, Fraction]:
    """Textbook PAV over the rows in exact fractions: tied scores pooled first, then
    adjacent violators pooled until non-decreasing. Returns score -> fitted value."""
    blocks: list[list[object]] = []  # [scores, positives, rows]
    for score in sorted(set(scores.tolist())):
        mask = scores == score
        blocks.append([[score], int(actual[mask].sum()), int(mask.sum())])
        while len(blocks) > 1 and Fraction(blocks[-2][1], blocks[-2][2]) > Fraction(  # type: ignore[arg-type]
            blocks[-1][1],  # type: ignore[arg-type]
            blocks[-1][2],  # type: ignore[arg-type]
        ):
            last = blocks.pop()
            blocks[-1] = [
                blocks[-1][0] + last[0],  # type: ignore[operator]
                blocks[-1][1] + last[1],  # type: ignore[operator]
                blocks[-1][2] + last[2],  # type: ignore[operator]
            ]
    return {
        s: Fraction(b[1], b[2])  # type: ignore[arg-type]
        for b in blocks
        for s in b[0]  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize("seed", range(6))
def test_corp_curve_is_the_exact_pav_of_the_rows_correctly_rounded(seed: int) -> None:
    """Every value of the CORP curve is the exact PAV fit of the rows (fractions),
    correctly rounded: the blocks' own sums, not a running average."""
    actual, scores = _rows(seed, 400 + 100 * seed)
    curve = reliability_curve(Ranking.from_scores(actual, scores, positive=1))
    exact = _pav_exact(actual, scores)
    assert curve.scores.tolist() == sorted(exact)
    assert curve.recalibrated.tolist() == [float(exact[s]) for s in curve.scores.tolist()]


def test_corp_curve_equals_scikit_learns_isotonic_regression() -> None:
    from sklearn.isotonic import IsotonicRegression

    actual, scores = _rows(11, 3000, decimals=3)
    curve = reliability_curve(Ranking.from_scores(actual, scores, positive=1))
    fitted = IsotonicRegression().fit(scores, actual).predict(curve.scores)
    np.testing.assert_allclose(curve.recalibrated, fitted, rtol=0, atol=1e-12)


def _brute_decomposition(actual: np.ndarray, scores: np.ndarray, rule: str) -> tuple[float, ...]:
    exact = _pav_exact(actual, scores)
    recalibrated = np.array([float(exact[s]) for s in scores.tolist()])
    prevalence = np.full(scores.size, actual.mean())

    def loss(p: np.ndarray) -> float:
        if rule == "brier":
            return float(np.mean((p - actual) ** 2))
        with np.errstate(divide="ignore"):
            return float(
                np.mean(
                    [-math.log(q) if y else -math.log1p(-q) for q, y in zip(p, actual, strict=True)]
                )
            )

    score, recal, marginal = loss(scores), loss(recalibrated), loss(prevalence)
    return score, score - recal, marginal - recal, marginal


@pytest.mark.parametrize("rule", ["brier", "log"])
@pytest.mark.parametrize("seed", range(4))
def test_decomposition_matches_a_brute_force_over_rows(rule: str, seed: int) -> None:
    actual, scores = _rows(seed, 500)
    scores = np.clip(scores, 0.01, 0.99)  # the log score of this truth stays finite
    found = score_decomposition(Ranking.from_scores(actual, scores, positive=1), rule)  # type: ignore[arg-type]
    expected = _brute_decomposition(actual, scores, rule)
    values = (found.score, found.miscalibration, found.discrimination, found.uncertainty)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)
    assert found.score == pytest.approx(
        found.miscalibration - found.discrimination + found.uncertainty, abs=1e-12
    )


def test_decomposition_matches_model_diagnostics(tmp_path: Path) -> None:
    """model-diagnostics' `decompose` (row-wise, scikit-learn's isotonic fit) gives the same
    MCB, DSC, UNC and mean score, for the Brier score (its SquaredError) and the log score
    (its LogLoss), to 1e-12, on four samples (run in a child process: it imports pyplot)."""
    samples = [_rows(seed, 2000, decimals=3) for seed in range(4)]
    arrays = {}
    for seed, (actual, scores) in enumerate(samples):
        arrays[f"actual{seed}"], arrays[f"scores{seed}"] = actual, np.clip(scores, 0.001, 0.999)
    code = """
from model_diagnostics.scoring import LogLoss, SquaredError, decompose
found = []
for seed in range(4):
    y, s = globals()[f"actual{seed}"], globals()[f"scores{seed}"]
    found.append({rule: decompose(y, s, scoring_function=f()).row(0, named=True)
                  for rule, f in (("brier", SquaredError), ("log", LogLoss))})
print(json.dumps(found))
"""
    theirs = run_peer("model_diagnostics", code, arrays, tmp_path)
    for seed in range(4):
        ranking = Ranking.from_scores(arrays[f"actual{seed}"], arrays[f"scores{seed}"], positive=1)
        for rule in ("brier", "log"):
            ours = score_decomposition(ranking, rule)  # type: ignore[arg-type]
            for name in ("miscalibration", "discrimination", "uncertainty", "score"):
                expected = theirs[seed][rule][name]
                assert getattr(ours, name) == pytest.approx(expected, abs=1e-12), (seed, rule)


def test_scores_match_scikit_learn() -> None:
    from sklearn.metrics import brier_score_loss, log_loss

    actual, scores = _rows(5, 5000, decimals=4)
    scores = np.clip(scores, 1e-4, 1 - 1e-4)  # log_loss clips at eps: away from it we agree
    result = calibration(Ranking.from_scores(actual, scores, positive=1))
    assert result.brier.score == pytest.approx(brier_score_loss(actual, scores), abs=1e-12)
    assert result.log.score == pytest.approx(log_loss(actual, scores), abs=1e-12)
    assert result.mean_score == pytest.approx(scores.mean(), abs=1e-12)
    assert result.observed_rate == actual.mean()


def test_a_positive_scored_zero_has_an_infinite_log_score_where_scikit_learn_clips() -> None:
    """-log 0 is +inf: the log score and its MCB say so; scikit-learn's log_loss clips the
    probability to eps and reports a large finite number instead."""
    from sklearn.metrics import log_loss

    actual, scores = np.array([1, 0, 1, 0]), np.array([0.0, 0.2, 0.7, 0.4])
    found = score_decomposition(Ranking.from_scores(actual, scores, positive=1), "log")
    assert found.score == math.inf and found.miscalibration == math.inf
    assert math.isfinite(found.discrimination) and math.isfinite(found.uncertainty)
    assert math.isfinite(log_loss(actual, scores))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("bins", [1, 5, 10, 15])
def test_binned_tables_match_calibration_curve_and_a_hand_ece(strategy: str, bins: int) -> None:
    """The bins of scikit-learn's `calibration_curve` (its prob_true and prob_pred to
    1e-12, equal-mass edges equal to numpy's percentiles bit for bit), and ECE/MCE by a
    hand formula over the rows in those bins."""
    from sklearn.calibration import calibration_curve

    actual, scores = _rows(bins, 700)
    table = binned_calibration(Ranking.from_scores(actual, scores, positive=1), bins, strategy)  # type: ignore[arg-type]
    observed, predicted = calibration_curve(actual, scores, n_bins=bins, strategy=strategy)
    np.testing.assert_allclose(table.observed, observed, rtol=0, atol=1e-12)
    np.testing.assert_allclose(table.mean_score, predicted, rtol=0, atol=1e-12)
    edges = np.linspace(0, 1, bins + 1)
    if strategy == "quantile":
        edges = np.percentile(scores, edges * 100)
        assert np.array_equal(table.edges, edges)
    errors, weights = [], []
    for b in range(bins):
        inside = [
            i
            for i, s in enumerate(scores)
            if (b == 0 or s > edges[b]) and (b == bins - 1 or s <= edges[b + 1])
        ]
        if inside:
            errors.append(abs(actual[inside].mean() - scores[inside].mean()))
            weights.append(len(inside))
    assert table.rows.tolist() == weights
    assert table.expected_error == pytest.approx(np.dot(weights, errors) / scores.size, abs=1e-12)
    assert table.maximum_error == pytest.approx(max(errors), abs=1e-12)


def test_logistic_recalibration_matches_statsmodels_and_solves_the_score_equations() -> None:
    statsmodels = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(2)
    scores = np.clip(np.round(rng.beta(2, 3, 4000), 3), 0.001, 0.999)
    logit = np.log(scores / (1 - scores))
    actual = (rng.random(scores.size) < 1 / (1 + np.exp(-(0.3 + 0.7 * logit)))).astype(int)
    fit = recalibration(Ranking.from_scores(actual, scores, positive=1))
    design = statsmodels.add_constant(logit)
    free = statsmodels.GLM(actual, design, family=statsmodels.families.Binomial()).fit(tol=1e-14)
    offset = statsmodels.GLM(
        actual, np.ones((scores.size, 1)), family=statsmodels.families.Binomial(), offset=logit
    ).fit(tol=1e-14)
    assert fit.intercept == pytest.approx(free.params[0], abs=1e-9)
    assert fit.slope == pytest.approx(free.params[1], abs=1e-9)
    assert fit.in_the_large == pytest.approx(offset.params[0], abs=1e-9)
    # the maximum likelihood solves the score equations, summed over the rows
    fitted = 1 / (1 + np.exp(-(fit.intercept + fit.slope * logit)))
    assert abs(np.sum(actual - fitted)) < 1e-8
    assert abs(np.sum((actual - fitted) * logit)) < 1e-8
    large = 1 / (1 + np.exp(-(fit.in_the_large + logit)))
    assert abs(np.sum(actual - large)) < 1e-8


def test_calibrated_scores_recalibrate_to_slope_one_and_intercept_zero() -> None:
    """Outcomes drawn from the scores themselves: the true recalibration is (0, 1) and
    the fit lands within a few standard errors of it (n = 200,000)."""
    rng = np.random.default_rng(8)
    scores = np.round(rng.uniform(0.02, 0.98, 200_000), 3)
    actual = (rng.random(scores.size) < scores).astype(int)
    fit = recalibration(Ranking.from_scores(actual, scores, positive=1))
    assert abs(fit.slope - 1) < 0.03 and abs(fit.intercept) < 0.03 and abs(fit.in_the_large) < 0.03


def test_recalibration_leaves_out_extreme_scores_only_where_that_is_exact() -> None:
    """Rows scored 1 that are positive (0 that are negative) have likelihood 1 for every
    positive slope: the fit without them is the fit, and a note says so. A positive
    scored 0 makes the fit undefined, with the reason."""
    actual, scores = _rows(3, 600)
    scores = np.clip(scores, 0.01, 0.99)
    base = recalibration(Ranking.from_scores(actual, scores, positive=1))
    more = recalibration(
        Ranking.from_scores(
            np.concatenate([actual, [1, 1, 0]]),
            np.concatenate([scores, [1.0, 1.0, 0.0]]),
            positive=1,
        )
    )
    assert (more.slope, more.intercept, more.in_the_large) == (
        base.slope,
        base.intercept,
        base.in_the_large,
    )
    assert more.note is not None and "3 rows" in more.note
    wrong = recalibration(
        Ranking.from_scores(
            np.concatenate([actual, [1]]), np.concatenate([scores, [0.0]]), positive=1
        )
    )
    assert math.isnan(wrong.slope) and wrong.reason is not None and "scored 0" in wrong.reason


@pytest.mark.parametrize(
    ("actual", "scores", "why"),
    [
        ([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.2], "separates the classes"),
        ([1, 0, 1, 0], [0.4, 0.4, 0.4, 0.4], "one distinct score"),
        ([1, 1], [0.4, 0.6], "one class"),
    ],
)
def test_recalibration_without_a_maximum_likelihood_is_nan_with_the_reason(
    actual: list[int], scores: list[float], why: str
) -> None:
    fit = recalibration(Ranking.from_scores(actual, scores, positive=1, negative=0))
    assert math.isnan(fit.slope) and math.isnan(fit.intercept)
    assert fit.reason is not None and why in fit.reason


@pytest.mark.parametrize(
    "function",
    [calibration, reliability_curve, score_decomposition, recalibration, binned_calibration],
)
def test_scores_outside_zero_one_are_refused_with_the_reason(function: object) -> None:
    """A score that is no probability is refused (naming it), while the ranking measures
    of the same Ranking still work."""
    ranking = Ranking.from_scores([1, 0, 1], [2.5, 0.3, 0.9], positive=1)
    with pytest.raises(InputError, match=r"score 2\.5 lies outside \[0, 1\].*AUC"):
        function(ranking)  # type: ignore[operator]
    assert ranking.auc() == 1.0


def test_merged_rankings_give_the_same_calibration_bit_for_bit() -> None:
    actual, scores = _rows(21, 3000)
    weights = np.random.default_rng(0).integers(1, 4, scores.size)
    for given in (None, weights):
        whole = calibration(Ranking.from_scores(actual, scores, positive=1, weights=given))
        parts = [
            Ranking.from_scores(
                actual[i::3],
                scores[i::3],
                positive=1,
                negative=0,
                weights=None if given is None else given[i::3],
            )
            for i in range(3)
        ]
        merged = calibration(sum(parts))  # type: ignore[arg-type]
        assert np.array_equal(merged.curve.recalibrated, whole.curve.recalibrated)
        assert merged.to_dict() == whole.to_dict()


def test_whole_weights_give_the_numbers_of_repeated_rows() -> None:
    actual, scores = _rows(4, 300)
    weights = np.random.default_rng(1).integers(1, 5, scores.size)
    weighted = calibration(Ranking.from_scores(actual, scores, positive=1, weights=weights))
    repeated = calibration(
        Ranking.from_scores(np.repeat(actual, weights), np.repeat(scores, weights), positive=1)
    )
    assert weighted.to_dict() == repeated.to_dict()


def test_one_vs_rest_calibrates_each_class_against_the_rest() -> None:
    """Per class, the calibration of `Ranking.one_vs_rest` is that of the class's column
    against "is this class" (scikit-learn's Brier score per column)."""
    from sklearn.metrics import brier_score_loss

    rng = np.random.default_rng(6)
    probabilities = rng.dirichlet([2, 3, 4], 500).round(3)
    actual = np.array(["a", "b", "c"])[[rng.choice(3, p=p / p.sum()) for p in probabilities]]
    rankings = Ranking.one_vs_rest(actual, probabilities, classes=["a", "b", "c"])
    for k, (label, ranking) in enumerate(rankings.items()):
        result = calibration(ranking)
        expected = brier_score_loss(actual == label, probabilities[:, k])
        assert result.brier.score == pytest.approx(expected, abs=1e-12)


def test_no_rows_gives_nan_with_reasons() -> None:
    result = calibration(Ranking.empty())
    assert math.isnan(result.brier.score) and result.brier.reason == "no rows"
    assert math.isnan(result.recalibration.slope) and result.recalibration.reason == "no rows"
    assert math.isnan(result.binned["uniform"].expected_error)


def test_a_table_where_a_ranking_is_expected_is_a_type_error() -> None:
    with pytest.raises(InputTypeError, match="needs a Ranking; got list"):
        calibration([0.1, 0.2])  # type: ignore[arg-type]


def test_one_class_has_an_uncertainty_of_plus_zero_in_its_json() -> None:
    """Every case positive: UNC = -(1 log 1 + 0 log 0) is 0, written 0.0, never -0.0."""
    import json

    from informed import calibration

    one = calibration(Ranking.from_scores([1, 1, 1], [0.2, 0.5, 0.9], positive=1, negative=0))
    text = json.dumps(one.to_dict()["log"])
    assert '"uncertainty": 0.0' in text and "-0.0" not in text
