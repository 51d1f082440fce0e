"""`compare`: the paired bootstrap on the joint table against a naive row bootstrap, the
paired tests against their row-level oracles, and what each model's numbers must equal.

The naive bootstraps here resample the rows themselves (n indices per replicate, one
table per model and replicate): the O(B x n) procedure the joint table replaces.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from informed import Ranking, Table, evaluate
from informed.errors import InputError, InputTypeError
from informed.inference import compare, delong_test, holm, paired_correctness

LEVEL = 0.95


def _binary_models(n: int, seed: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Three correlated classifiers: each errs more on the cases that are hard for all."""
    rng = np.random.default_rng(seed)
    actual = (rng.random(n) < 0.4).astype(int)
    hard = rng.random(n)
    models = {}
    for name, skill in (("a", 0.85), ("b", 0.78), ("c", 0.7)):
        right = rng.random(n) * 0.5 + hard * 0.5 < skill
        models[name] = np.where(right, actual, 1 - actual)
    return actual, models


def _informedness(counts: np.ndarray) -> np.ndarray:
    """Binary informedness of [..., 4] cells (actual, predicted) coded 2 * predicted + actual."""
    tp, fn, fp, tn = counts[..., 3], counts[..., 2], counts[..., 1], counts[..., 0]
    fn, fp = counts[..., 1], counts[..., 2]
    return tp / (tp + fn) + tn / (fp + tn) - 1


def _naive_difference(actual, first, second, replicates, seed) -> np.ndarray:
    """Row bootstrap of informedness(first) - informedness(second), by hand."""
    rng = np.random.default_rng(seed)
    n = actual.size
    index = rng.integers(0, n, size=(replicates, n))
    offsets = 4 * np.arange(replicates)[:, None]
    out = []
    for model in (first, second):
        codes = (2 * model + actual)[index] + offsets
        counts = np.bincount(codes.ravel(), minlength=4 * replicates).reshape(replicates, 4)
        out.append(_informedness(counts.astype(float)))
    return out[0] - out[1]


def _tolerance(values: np.ndarray, replicates: int) -> float:
    """Four standard errors of the difference of two independent 2.5 % quantile estimates
    (normal approximation of the replicate distribution)."""
    sd = float(np.std(values))
    density = stats.norm.pdf(stats.norm.ppf(0.025)) / sd
    one = math.sqrt(0.025 * 0.975 / replicates) / density
    return 4 * math.sqrt(2) * one


def test_paired_bootstrap_matches_row_resampling() -> None:
    """n = 2000: the joint-table bootstrap interval of each difference of informedness has
    the endpoints of a naive joint row bootstrap, within Monte Carlo error."""
    actual, models = _binary_models(2000, seed=0)
    replicates = 4000
    result = compare(actual, models, positive=1, replicates=replicates, permutations=1, seed=11)
    for name in ("b", "c"):
        naive = _naive_difference(actual, models[name], models[result.reference], replicates, 5)
        low, high = np.quantile(naive, [0.025, 0.975])
        interval = result.differences[name]["informedness"]
        tolerance = _tolerance(naive, replicates)
        assert interval.low == pytest.approx(low, abs=tolerance)
        assert interval.high == pytest.approx(high, abs=tolerance)
        assert interval.standard_error == pytest.approx(np.std(naive), rel=0.1)


def _multiclass(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Bias-weighted informedness and macro F of tables [..., predicted, actual], by hand:
    B = sum_l pP(l) (tpr(l) - fpr(l)) (Powers), F = mean_l 2 tp / (|P = l| + |R = l|)."""
    n = counts.sum(axis=(-2, -1))[..., None]
    tp = np.diagonal(counts, axis1=-2, axis2=-1)
    predicted, real = counts.sum(axis=-1), counts.sum(axis=-2)
    informed = tp / real - (predicted - tp) / (n - real)
    return {
        "informedness": np.sum(predicted / n * informed, axis=-1),
        "f_measure": np.mean(2 * tp / (predicted + real), axis=-1),
    }


def test_paired_bootstrap_matches_row_resampling_multiclass() -> None:
    """Three classes, two models: bias-weighted informedness and macro F of the joint
    bootstrap against a row bootstrap measured by the formulas."""
    rng = np.random.default_rng(3)
    n, replicates = 1500, 3000
    actual = rng.integers(0, 3, n)
    noise = rng.random(n)
    first = np.where(noise < 0.7, actual, rng.integers(0, 3, n))
    second = np.where(noise < 0.6, actual, rng.integers(0, 3, n))
    result = compare(
        actual, {"first": first, "second": second}, replicates=replicates, permutations=1, seed=2
    )
    index = np.random.default_rng(9).integers(0, n, size=(replicates, n))
    offsets = 9 * np.arange(replicates)[:, None]
    values = []
    for model in (second, first):
        codes = (3 * model + actual)[index] + offsets
        counts = np.bincount(codes.ravel(), minlength=9 * replicates).reshape(replicates, 3, 3)
        values.append(_multiclass(counts.astype(float)))
    assert result.reference == "first"
    for name in ("informedness", "f_measure"):
        naive = values[0][name] - values[1][name]
        low, high = np.quantile(naive, [0.025, 0.975])
        interval = result.differences["second"][name]
        tolerance = _tolerance(naive, replicates)
        assert interval.low == pytest.approx(low, abs=tolerance), name
        assert interval.high == pytest.approx(high, abs=tolerance), name
        assert interval.estimate == pytest.approx(
            _multiclass(np.bincount(3 * second + actual, minlength=9).reshape(3, 3).astype(float))[
                name
            ]
            - _multiclass(np.bincount(3 * first + actual, minlength=9).reshape(3, 3).astype(float))[
                name
            ]
        )


@pytest.mark.slow
def test_coverage_of_the_paired_difference_of_informedness() -> None:
    """400 data sets from a known joint distribution of two correlated classifiers: the
    95 % paired bootstrap interval of the difference of informedness covers the true
    difference about 95 % of the time."""
    # P(actual, first, second): correlated errors, known informedness of each model
    p = np.array(
        # actual 0: (first, second) = 00, 01, 10, 11 ; actual 1: the same
        [0.42, 0.06, 0.05, 0.07, 0.04, 0.06, 0.05, 0.25]
    )
    p = p / p.sum()
    cells = p.reshape(2, 2, 2)  # [actual, first, second]

    def true_informedness(axis: int) -> float:
        joint = cells.sum(axis=axis)  # [actual, model]
        return joint[1, 1] / joint[1].sum() - joint[0, 1] / joint[0].sum()

    truth = true_informedness(2) - true_informedness(1)
    rng = np.random.default_rng(2024)
    repetitions, n = 400, 600
    covered = 0
    for _ in range(repetitions):
        drawn = rng.choice(8, size=n, p=p)
        actual, first, second = drawn // 4, (drawn // 2) % 2, drawn % 2
        result = compare(
            actual,
            {"first": first, "second": second},
            positive=1,
            measures=["informedness"],
            replicates=400,
            permutations=1,
            seed=rng,
        )
        interval = result.differences["second" if result.reference == "first" else "first"][
            "informedness"
        ]
        signed = truth if result.reference == "first" else -truth
        covered += interval.low <= -signed <= interval.high
    coverage = covered / repetitions
    # binomial sd at 95 %: 0.011; the percentile interval may undercover a little
    assert 0.91 <= coverage <= 0.985, coverage


def test_pairing_narrows_the_interval() -> None:
    """Two models that agree on most cases: the paired interval of their difference is far
    narrower than the one from resampling each model's cases independently."""
    actual, models = _binary_models(2000, seed=4)
    twin = models["a"].copy()
    flip = np.random.default_rng(0).random(2000) < 0.01
    twin[flip] = 1 - twin[flip]
    result = compare(
        actual,
        {"a": models["a"], "twin": twin},
        positive=1,
        replicates=1000,
        permutations=1,
        seed=0,
    )
    other = "twin" if result.reference == "a" else "a"
    paired = result.differences[other]["informedness"]
    a_sd = result.models["a"].intervals["informedness"].standard_error
    twin_sd = result.models["twin"].intervals["informedness"].standard_error
    independent = math.sqrt(a_sd**2 + twin_sd**2)
    assert paired.standard_error < independent / 2


def test_each_model_is_measured_as_evaluate_measures_it() -> None:
    """Every model's measures equal evaluate() of its own table."""
    actual, models = _binary_models(500, seed=1)
    result = compare(actual, models, positive=1, replicates=50, permutations=9, seed=0)
    for name, model in result.models.items():
        expected = evaluate(Table.from_labels(actual=actual, predicted=models[name]), positive=1)
        for measure in result.measures:
            assert model.measures[measure] == pytest.approx(expected.measures[measure], abs=1e-15)
        assert model.table == Table.from_labels(actual=actual, predicted=models[name])
    ranked = [result.models[n].measures["informedness"] for n in result.models]
    assert ranked == sorted(ranked, reverse=True)
    assert [m.rank for m in result.models.values()] == [1, 2, 3]


def test_mcnemar_and_delong_equal_their_row_versions() -> None:
    """McNemar from the joint cells equals paired_correctness of the rows; DeLong of the
    scores equals delong_test of the rows; Holm adjusts them over the two comparisons."""
    rng = np.random.default_rng(8)
    n = 800
    actual = (rng.random(n) < 0.5).astype(int)
    scores = {
        "a": actual + rng.normal(0, 0.8, n),
        "b": actual + rng.normal(0, 1.0, n),
        "c": 0.6 * actual + rng.normal(0, 1.0, n),
    }
    predicted = {k: (v > 0.5).astype(int) for k, v in scores.items()}
    result = compare(
        actual, predicted, scores=scores, positive=1, replicates=50, permutations=99, seed=0
    )
    reference = result.reference
    raw = {}
    for name in result.tests:
        expected = paired_correctness(
            actual=actual, first=predicted[name], second=predicted[reference]
        ).mcnemar()
        got = result.tests[name]["mcnemar"]
        assert (got.statistic, got.pvalue) == (expected.statistic, expected.pvalue)
        delong = delong_test(actual, scores[name], scores[reference])
        assert result.tests[name]["delong"].pvalue == pytest.approx(delong.pvalue, rel=1e-12)
        raw[name] = delong.pvalue
    adjusted = holm(list(raw.values()))
    for name, value in zip(raw, adjusted, strict=True):
        assert result.adjusted[name]["delong"] == pytest.approx(value)


def test_holm_against_statsmodels() -> None:
    """Holm's adjustment equals statsmodels' multipletests(method='holm')."""
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(0)
    for size in (1, 2, 3, 7, 20):
        p = rng.random(size) ** 3
        expected = multitest.multipletests(p, method="holm")[1]
        np.testing.assert_allclose(holm(p), expected, atol=1e-12)
    assert math.isnan(holm([0.01, math.nan])[1]) and holm([0.01, math.nan])[0] == 0.01


def test_paired_permutation_matches_row_swapping() -> None:
    """The permutation p-value from binomial swaps in the joint cells agrees with swapping
    each row's two predictions by a coin, within Monte Carlo error."""
    actual, models = _binary_models(300, seed=6)
    first, second = models["a"], models["b"]
    result = compare(
        actual, {"a": first, "b": second}, positive=1, replicates=20, permutations=4000, seed=3
    )
    test = result.tests["b"]["permutation"]
    rng = np.random.default_rng(1)
    observed = _informedness(np.bincount(2 * second + actual, minlength=4).astype(float)) - (
        _informedness(np.bincount(2 * first + actual, minlength=4).astype(float))
    )
    assert test.statistic == pytest.approx(observed, abs=1e-12)
    extreme = 0
    permutations = 4000
    for _ in range(permutations):
        swap = rng.random(actual.size) < 0.5
        x, y = np.where(swap, first, second), np.where(swap, second, first)
        d = _informedness(np.bincount(2 * x + actual, minlength=4).astype(float)) - (
            _informedness(np.bincount(2 * y + actual, minlength=4).astype(float))
        )
        extreme += abs(d) >= abs(observed) - 1e-12
    naive = (1 + extreme) / (1 + permutations)
    assert test.pvalue == pytest.approx(
        naive, abs=4 * math.sqrt(naive * (1 - naive) / 2000) + 0.002
    )


def test_scores_cut_at_the_best_threshold() -> None:
    """With threshold='best' each model's table is its best operating point's table."""
    rng = np.random.default_rng(2)
    actual = np.where(rng.random(400) < 0.3, "yes", "no")
    scores = {k: (actual == "yes") * s + rng.normal(0, 1, 400) for k, s in (("p", 1.5), ("q", 1))}
    result = compare(
        actual,
        scores=scores,
        positive="yes",
        threshold="best",
        replicates=50,
        permutations=9,
        seed=0,
    )
    for name, model in result.models.items():
        point = Ranking.from_scores(actual=actual, scores=scores[name], positive="yes")
        best = point.best_threshold(labels=("yes", "no"))
        assert model.threshold is not None and model.threshold.threshold == best.threshold
        for predicted in ("yes", "no"):
            for real in ("yes", "no"):
                assert model.table.count(predicted, real) == best.table.count(predicted, real)
        assert model.measures["informedness"] == pytest.approx(best.value, abs=1e-12)
        assert "auc" in model.measures and "delong" in result.tests[next(iter(result.tests))]


def test_integer_weights_equal_repeated_rows() -> None:
    """Frequency weights give the estimates and intervals of the repeated rows."""
    actual, models = _binary_models(300, seed=9)
    weights = np.random.default_rng(0).integers(0, 4, 300)
    weighted = compare(
        actual, models, positive=1, weights=weights, replicates=200, permutations=50, seed=5
    )
    repeated = compare(
        np.repeat(actual, weights),
        {k: np.repeat(v, weights) for k, v in models.items()},
        positive=1,
        replicates=200,
        permutations=50,
        seed=5,
    )
    assert weighted.n == repeated.n == weights.sum()
    for name in models:
        d1, d2 = weighted.differences.get(name), repeated.differences.get(name)
        if d1 is None:
            continue
        assert d1["informedness"].low == pytest.approx(d2["informedness"].low, abs=1e-12)
        assert d1["informedness"].high == pytest.approx(d2["informedness"].high, abs=1e-12)


def test_json_form() -> None:
    """to_dict is strict JSON: models, differences (model - reference) and tests."""
    actual, models = _binary_models(200, seed=2)
    result = compare(actual, models, positive=1, replicates=30, permutations=9, seed=0)
    document = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert list(document["models"]) == list(result.models)
    assert set(document["differences"]) == set(models) - {result.reference}
    assert document["difference"] == "model - reference"
    first = next(iter(document["differences"].values()))
    assert set(first) == set(result.measures)
    assert set(next(iter(document["tests"].values()))) == {"mcnemar", "permutation"}


def test_undefined_measure_sorts_last_with_a_reason() -> None:
    """A model whose informedness is undefined (it never predicts one class and the data
    hold one class only) ranks last, and its difference says why."""
    actual = [1, 1, 1, 1]
    result = compare(
        actual, {"a": [1, 1, 0, 1], "b": [1, 1, 1, 1]}, replicates=10, permutations=5, seed=0
    )
    assert math.isnan(result.models["a"].measures["informedness"])
    assert result.differences[next(iter(result.differences))]["informedness"].reason


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"predicted": {"a": [1, 0, 1]}}, InputError),  # one model
        ({"predicted": {"a": [1, 0, 1], "b": [1, 0]}}, InputError),  # lengths
        ({"predicted": [[1, 0, 1]]}, InputTypeError),
        ({"scores": {"a": [1, 2, 3], "b": [3, 2, 1]}}, InputError),  # no positive
        ({"predicted": {"a": [1, 0, 1], "b": [1, 1, 1]}, "threshold": 0.5}, InputError),
        ({"predicted": {"a": [1, 0, 1], "b": [1, 1, 1]}, "measures": ["auc"]}, InputError),
        ({"predicted": {"a": [1, 0, 1], "b": [1, 1, 1]}, "measures": ["nope"]}, InputError),
        ({"predicted": {"a": ["x", "y", "x"], "b": [1, 1, 1]}}, InputTypeError),
        ({}, InputError),
    ],
)
def test_bad_input(kwargs: dict, error: type) -> None:
    """Every bad call is a clear InputError or InputTypeError."""
    with pytest.raises(error):
        compare([1, 0, 1], **kwargs)
