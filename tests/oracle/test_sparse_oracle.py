"""A sparse Table of many labels against scikit-learn, which builds the dense matrix.

With a few hundred labels scikit-learn's dense K x C arrays are still small, so it is an
independent oracle for what the sparse Table computes from its non-zero cells alone:
the confusion matrix, per-label precision, recall and F1 (`classification_report`'s
numbers), accuracy, Matthews' correlation, Cohen's kappa and the mutual information.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from informed import Table, evaluate

metrics = pytest.importorskip("sklearn.metrics")


def _labels(seed: int, n: int = 3000, k: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, k, n)
    predicted = np.where(rng.random(n) < 0.5, actual, rng.integers(0, k + 20, n))
    return actual, predicted


@pytest.mark.parametrize("seed", range(4))
def test_sparse_table_of_many_labels_matches_sklearn(seed: int) -> None:
    actual, predicted = _labels(seed)
    table = Table.from_labels(actual=actual, predicted=predicted)
    assert table.storage == "sparse"  # chosen automatically: few of 400 x 420 cells filled
    labels = list(table.labels)
    confusion = metrics.confusion_matrix(actual, predicted, labels=labels)
    _, square = table.square()
    np.testing.assert_array_equal(square, confusion.T)  # rows predicted here
    result = evaluate(table)
    p, r, f, _ = metrics.precision_recall_fscore_support(
        actual, predicted, labels=labels, zero_division=np.nan
    )
    np.testing.assert_allclose(result.per_label.column("precision"), p, equal_nan=True)  # type: ignore[attr-defined]
    np.testing.assert_allclose(result.per_label.column("recall"), r, equal_nan=True)  # type: ignore[attr-defined]
    f_ours = np.asarray(result.per_label.column("f_measure"))  # type: ignore[attr-defined]
    defined = ~np.isnan(f_ours) & ~np.isnan(f)
    np.testing.assert_allclose(f_ours[defined], f[defined])
    assert result.measures["accuracy"] == pytest.approx(metrics.accuracy_score(actual, predicted))
    assert result.measures["matthews_correlation"] == pytest.approx(
        metrics.matthews_corrcoef(actual, predicted)
    )
    assert result.measures["kappa"] == pytest.approx(metrics.cohen_kappa_score(actual, predicted))
    assert result.measures["mutual_information"] == pytest.approx(
        metrics.mutual_info_score(actual, predicted) / math.log(2)
    )


@pytest.mark.parametrize("seed", range(2))
def test_sparse_conditional_entropies_match_scipy(seed: int) -> None:
    """H(R|P) = H(P, R) - H(P) and H(P|R) = H(P, R) - H(R), in bits, each entropy by
    `scipy.stats.entropy` of the dense joint distribution and its margins."""
    from scipy.stats import entropy

    actual, predicted = _labels(seed)
    table = Table.from_labels(actual=actual, predicted=predicted, storage="sparse")
    _, square = table.square()
    joint = entropy(square.ravel(), base=2)
    h_predicted = entropy(square.sum(axis=1), base=2)
    h_actual = entropy(square.sum(axis=0), base=2)
    result = evaluate(table).measures
    assert result["conditional_entropy"] == pytest.approx(joint - h_predicted)
    assert result["conditional_entropy_given_actual"] == pytest.approx(joint - h_actual)
