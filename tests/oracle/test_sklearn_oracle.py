"""Random inputs against scikit-learn, an independent implementation.

Where scikit-learn differs on purpose (its `zero_division` turns 0/0 into 0 or 1, ours
is nan), the comparison passes `zero_division=np.nan` or avoids the degenerate case.
"""

from __future__ import annotations

import numpy as np
import pytest

from informed import Table, evaluate
from informed.measures import (
    f_measure,
    informedness,
    jaccard,
    kappa_multiclass,
    matthews_correlation_multiclass,
    one_vs_rest_counts,
    precision,
    recall,
)

metrics = pytest.importorskip("sklearn.metrics")

SEEDS = range(12)


def _random_labels(seed: int, n: int = 300, k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, k, n)
    noise = rng.integers(0, k, n)
    predicted = np.where(rng.random(n) < 0.6, actual, noise)
    return actual, predicted


@pytest.mark.parametrize("seed", SEEDS)
def test_confusion_matrix_is_the_transpose_of_sklearns(seed: int) -> None:
    """Rows predicted here, rows actual in scikit-learn."""
    actual, predicted = _random_labels(seed)
    table = Table.from_labels(actual=actual, predicted=predicted)
    expected = metrics.confusion_matrix(actual, predicted, labels=list(table.labels))
    np.testing.assert_array_equal(table.counts, expected.T)


@pytest.mark.parametrize("seed", SEEDS)
def test_per_label_rates_and_f_beta(seed: int) -> None:
    """recall, precision, F-beta (alpha = 1/(1+beta^2)) and Jaccard per label and macro."""
    actual, predicted = _random_labels(seed)
    rng = np.random.default_rng(seed + 100)
    weights = rng.random(actual.size) * 3
    for w in (None, weights):
        table = Table.from_labels(actual=actual, predicted=predicted, weights=w)
        labels, square = table.square()
        ovr = one_vs_rest_counts(square)
        kw = {"labels": list(labels), "average": None, "sample_weight": w, "zero_division": np.nan}
        np.testing.assert_allclose(recall(ovr), metrics.recall_score(actual, predicted, **kw))
        np.testing.assert_allclose(precision(ovr), metrics.precision_score(actual, predicted, **kw))
        # jaccard_score accepts only zero_division 0 or 1; no 0/0 arises on this data
        jkw = {**kw, "zero_division": 0}
        np.testing.assert_allclose(jaccard(ovr), metrics.jaccard_score(actual, predicted, **jkw))
        for beta in (0.5, 1.0, 2.0):
            alpha = 1.0 / (1.0 + beta**2)
            expected = metrics.fbeta_score(actual, predicted, beta=beta, **kw)
            np.testing.assert_allclose(f_measure(ovr, alpha), expected)
        result = evaluate(table)
        macro = metrics.recall_score(actual, predicted, average="macro", sample_weight=w)
        assert result.measures["recall"] == pytest.approx(macro)


@pytest.mark.parametrize("seed", SEEDS)
def test_kappa_and_matthews(seed: int) -> None:
    """Cohen's kappa and Gorodkin's R_K of the whole table, weighted or not."""
    actual, predicted = _random_labels(seed)
    weights = np.random.default_rng(seed).random(actual.size)
    for w in (None, weights):
        _, square = Table.from_labels(actual=actual, predicted=predicted, weights=w).square()
        assert float(kappa_multiclass(square)) == pytest.approx(
            metrics.cohen_kappa_score(actual, predicted, sample_weight=w)
        )
        assert float(matthews_correlation_multiclass(square)) == pytest.approx(
            metrics.matthews_corrcoef(actual, predicted, sample_weight=w)
        )


@pytest.mark.parametrize("seed", SEEDS)
def test_binary_informedness_is_adjusted_balanced_accuracy(seed: int) -> None:
    """Binary informedness = balanced_accuracy_score(adjusted=True) = Youden's J."""
    actual, predicted = _random_labels(seed, k=2)
    table = Table.from_labels(actual=actual, predicted=predicted)
    expected = metrics.balanced_accuracy_score(actual, predicted, adjusted=True)
    assert float(informedness(table.one_vs_rest(1).counts)) == pytest.approx(expected)
    assert evaluate(table).measures["informedness"] == pytest.approx(expected)
    assert evaluate(table).measures["matthews_correlation"] == pytest.approx(
        metrics.matthews_corrcoef(actual, predicted)
    )


def test_multiclass_informedness_is_not_sklearns_adjusted_balanced_accuracy() -> None:
    """PITFALLS P9: for K > 2 the seeds' B (bias-weighted) is 0.303310, not sklearn's 0.347009."""
    real_by_predicted = np.array([[5, 3, 1], [2, 7, 4], [0, 6, 9]])  # rows real, as printed
    table = Table.from_counts(real_by_predicted, rows="actual")
    result = evaluate(table)
    assert result.measures["informedness"] == pytest.approx(0.303310, abs=5e-7)
    actual = np.repeat(np.repeat(np.arange(3), 3), real_by_predicted.ravel())
    predicted = np.repeat(np.tile(np.arange(3), 3), real_by_predicted.ravel())
    sklearn_value = metrics.balanced_accuracy_score(actual, predicted, adjusted=True)
    assert sklearn_value == pytest.approx(0.347009, abs=5e-7)
    assert abs(result.measures["informedness"] - sklearn_value) > 0.04


def test_pitfalls_reference_matrix() -> None:
    """PITFALLS P9, P10, P12 reference numbers for C = [[5,3,1],[2,7,4],[0,6,9]] (rows real)."""
    table = Table.from_counts([[5, 3, 1], [2, 7, 4], [0, 6, 9]], rows="actual")
    result = evaluate(table)
    per_b = [result.per_label[k]["informedness"] for k in range(3)]
    per_m = [result.per_label[k]["markedness"] for k in range(3)]
    np.testing.assert_allclose(per_b, [0.484127, 0.163462, 0.372727], atol=5e-7)
    np.testing.assert_allclose(per_m, [0.580952, 0.151786, 0.381988], atol=5e-7)
    m = result.measures
    assert m["matthews_correlation"] == pytest.approx(0.336018, abs=5e-7)
    assert m["correlation"] == pytest.approx(0.325588, abs=5e-7)
    assert m["conditional_entropy"] == pytest.approx(1.267550, abs=5e-7)
    assert m["conditional_entropy_given_actual"] == pytest.approx(1.221170, abs=5e-7)
    # the other four "multiclass informedness" numbers of P9 are the other averages
    from informed.measures import label_weights, weighted_mean

    _labels, square = table.square()
    values = np.array(per_b)
    assert float(weighted_mean(values, label_weights(square, "prevalence"))) == pytest.approx(
        0.326299, abs=5e-7
    )
    assert float(weighted_mean(values, label_weights(square, "macro"))) == pytest.approx(
        0.340105, abs=5e-7
    )


def test_mutual_information_matches_sklearn() -> None:
    """Mutual information in bits = sklearn's mutual_info_score (nats) / ln 2."""
    actual, predicted = _random_labels(3)
    table = Table.from_labels(actual=actual, predicted=predicted)
    expected = metrics.mutual_info_score(actual, predicted) / np.log(2)
    assert evaluate(table).measures["mutual_information"] == pytest.approx(expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_named_averages_match_sklearn(seed: int) -> None:
    """micro, macro and prevalence-weighted ("weighted") recall, precision and F1."""
    from informed import average

    actual, predicted = _random_labels(seed)
    table = Table.from_labels(actual=actual, predicted=predicted)
    for ours, theirs in (("micro", "micro"), ("macro", "macro"), ("prevalence", "weighted")):
        for name, scorer in (
            ("recall", metrics.recall_score),
            ("precision", metrics.precision_score),
            ("f_measure", metrics.f1_score),
        ):
            expected = scorer(actual, predicted, average=theirs, zero_division=np.nan)
            assert average(table, name, ours) == pytest.approx(expected), (ours, name)
    # the bias-weighted informedness is the overall value the seeds define
    assert average(table, "informedness", "bias") == pytest.approx(
        evaluate(table).measures["informedness"]
    )
    with pytest.raises(ValueError, match="how"):
        average(table, "recall", "weighted")
