"""Comparing two models across folds: the corrected resampled t-test as Nadeau & Bengio
(2003) write it, Holm across measures, refusals, and its type-I error in a simulation.

The formulas are written out here, with scipy's t distribution, independently of
`informed.comparison.fold_tests`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from informed import Table, evaluate
from informed.comparison import compare_folds, corrected_ttest, naive_ttest
from informed.errors import InputError
from informed.slices import Folds


def _two_models(seed: int, n: int = 400, k: int = 8) -> tuple[Folds, Folds, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, 2, n)
    fold = rng.permutation(n) % k + 1
    a = np.where(rng.random(n) < 0.30, 1 - actual, actual)
    b = np.where(rng.random(n) < 0.22, 1 - actual, actual)
    rows = {"actual": actual, "fold": fold, "a": a, "b": b}
    return (
        Folds.from_labels(folds=fold, actual=actual, predicted=a),
        Folds.from_labels(folds=fold, actual=actual, predicted=b),
        rows,
    )


def test_corrected_t_is_nadeau_and_bengios_formula() -> None:
    """t = mean(d) / sqrt((1/J + n_test/n_train) var(d)), J - 1 df, two-sided; the
    interval mean(d) -+ t_{J-1,0.975} sqrt(...): per-fold informedness of each fold's
    rows measured by `evaluate`, sizes counted from the fold column."""
    a, b, rows = _two_models(0)
    result = compare_folds(a, b, measures=["informedness", "markedness"], positive=1)
    d = []
    for k in range(1, 9):
        m = rows["fold"] == k
        value = {
            name: evaluate(
                Table.from_labels(rows["actual"][m], rows[name][m]), positive=1
            ).measures["informedness"]
            for name in ("a", "b")
        }
        d.append(value["b"] - value["a"])
    d_arr = np.array(d)
    J = 8
    n_test = np.mean([np.sum(rows["fold"] == k) for k in range(1, 9)])
    n_train = 400 - n_test
    variance = (1 / J + n_test / n_train) * np.var(d_arr, ddof=1)
    t = d_arr.mean() / math.sqrt(variance)
    test = result.tests["informedness"]["corrected"]
    assert result.differences["informedness"] == pytest.approx(d_arr, abs=1e-15)
    assert test.statistic == pytest.approx(t, rel=1e-12)
    assert test.df == J - 1
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(t), J - 1), rel=1e-12)
    half = stats.t.ppf(0.975, J - 1) * math.sqrt(variance)
    assert test.interval is not None
    assert test.interval.low == pytest.approx(d_arr.mean() - half, rel=1e-12)
    assert test.interval.high == pytest.approx(d_arr.mean() + half, rel=1e-12)
    naive = result.tests["informedness"]["naive"]
    assert naive.statistic == pytest.approx(d_arr.mean() / math.sqrt(np.var(d_arr, ddof=1) / J))


def test_holm_across_measures() -> None:
    """Each test's p-values are adjusted across the measures by Holm's step-down rule
    (written out here for three p-values); `correction="none"` keeps them raw."""
    a, b, _ = _two_models(1)
    measures = ["informedness", "markedness", "accuracy"]
    result = compare_folds(a, b, measures=measures)
    raw = [result.tests[m]["corrected"].pvalue for m in measures]
    order = np.argsort(raw)
    expected = np.empty(3)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (3 - i) * raw[j]))
        expected[j] = running
    assert [result.adjusted[m]["corrected"] for m in measures] == pytest.approx(expected)
    plain = compare_folds(a, b, measures=measures, correction="none")
    assert [plain.adjusted[m]["corrected"] for m in measures] == pytest.approx(raw)


def test_folds_of_other_splits_are_refused() -> None:
    """Two models must be compared on the same folds of the same cases."""
    a, b, rows = _two_models(2)
    other = Folds.from_labels(
        folds=np.roll(rows["fold"], 1), actual=rows["actual"], predicted=rows["b"]
    )
    with pytest.raises(InputError, match="same splits"):
        compare_folds(a, other)
    fewer = Folds.from_labels(
        folds=np.minimum(rows["fold"], 4), actual=rows["actual"], predicted=rows["b"]
    )
    with pytest.raises(InputError, match="different folds"):
        compare_folds(a, fewer)
    with pytest.raises(InputError, match="no scores"):
        compare_folds(a, b, measures="auc")


def test_undefined_and_constant_differences_are_nan_with_a_reason() -> None:
    """A fold where a measure is undefined, or differences that never vary: nan and why."""
    undefined = corrected_ttest([0.1, math.nan, 0.2], [10] * 3, [20] * 3)
    assert math.isnan(undefined.pvalue)
    assert undefined.reason == "the measure is undefined in fold 2 (of one model or both)"
    constant = naive_ttest([0.1, 0.1, 0.1])
    assert math.isnan(constant.statistic)
    assert constant.reason == "the per-fold differences do not vary"


def _simulated_differences(rng: np.random.Generator, n: int = 200) -> tuple[np.ndarray, ...]:
    """One data set where the two models are equally good by construction: each is a
    threshold midway between the class means of one feature, and the two features have
    the same distribution. 10 x 10-fold cross-validation; per-fold informedness counted
    by brute force. Returns (differences, test sizes, train sizes)."""
    y = rng.random(n) < 0.5
    x = rng.normal(size=(2, n)) + 0.5 * y
    test = np.concatenate(
        [(rng.permutation(n) % 10)[None] == np.arange(10)[:, None] for _ in range(10)]
    )
    train = ~test
    labels = y[None]

    def mean(mask: np.ndarray) -> np.ndarray:
        return (x[:, None, :] * mask[None]).sum(-1) / mask.sum(-1)[None]

    cut = (mean(train & labels) + mean(train & ~labels)) / 2
    predicted = x[:, None, :] > cut[..., None]
    tp = (predicted & labels & test).sum(-1)
    fn = (~predicted & labels & test).sum(-1)
    fp = (predicted & ~labels & test).sum(-1)
    tn = (~predicted & ~labels & test).sum(-1)
    informedness = tp / (tp + fn) + tn / (tn + fp) - 1
    return informedness[1] - informedness[0], test.sum(1), train.sum(1)


def test_corrected_test_keeps_its_level_where_the_naive_one_does_not() -> None:
    """True difference 0 (two exchangeable models), 10 x 10-fold cross-validation, 400
    seeded data sets: the corrected test rejects at 5 % about 5 % of the time (here
    0.045; 0.02-0.08 is within three standard errors of 0.05), the naive paired t-test
    across the 100 folds more than half the time."""
    rng = np.random.default_rng(1)
    corrected = naive = 0
    runs = 400
    for _ in range(runs):
        d, test, train = _simulated_differences(rng)
        corrected += corrected_ttest(d, test, train).pvalue < 0.05
        naive += naive_ttest(d).pvalue < 0.05
    assert 0.02 <= corrected / runs <= 0.08
    assert naive / runs > 0.4


def test_an_undefined_fold_names_the_model_it_is_undefined_in() -> None:
    """Fold 1 holds positives only: informedness (needs both classes) is undefined there
    in both models, and the tests say so; precision (undefined where nothing is
    predicted positive) only in the model that predicts no positive in fold 2."""
    fold = np.array([1] * 4 + [2] * 6 + [3] * 6)
    actual = np.array([1, 1, 1, 1] + [0, 1, 0, 1, 0, 1] * 2)
    a = np.array([1, 0, 1, 1] + [0, 1, 1, 1, 0, 0] * 2)
    b = np.array([1, 1, 0, 1] + [0] * 6 + [0, 1, 0, 0, 1, 1])  # fold 2: no positive
    result = compare_folds(
        Folds.from_labels(folds=fold, actual=actual, predicted=a),
        Folds.from_labels(folds=fold, actual=actual, predicted=b),
        measures=["informedness", "precision"],
        positive=1,
        names=("lr", "gbm"),
    )
    for key, found in result.tests["informedness"].items():
        assert found.reason == "informedness is undefined in fold 1 of both models", key
        assert found.interval is not None and found.interval.reason == found.reason
    for key, found in result.tests["precision"].items():
        assert found.reason == "precision is undefined in fold 2 of model 'gbm'", key
        assert math.isnan(found.pvalue)
    assert "informedness is undefined in fold 1 of both models" in str(result)
