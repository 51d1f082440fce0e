"""The Tally against scikit-learn on random multi-label data.

scikit-learn's layout is y_true, y_pred with rows = documents, columns = categories; its
`multilabel_confusion_matrix` gives [[tn, fp], [fn, tp]] per category, the transpose
mirror of ours ([[tp, fp], [fn, tn]] = [[a, b], [c, d]]).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from informed.tally import Tally

metrics = pytest.importorskip("sklearn.metrics")

CONVENTIONS_PERL = "statistics-contingency"


def _data(seed: int, n: int = 200, k: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Random indicators with varied densities; column 0 never predicted, column 1 never
    true, column 2 neither, so that every zero-division case occurs."""
    rng = np.random.default_rng(seed)
    density = rng.uniform(0.05, 0.6, size=k)
    y_true = rng.random((n, k)) < density
    y_pred = rng.random((n, k)) < rng.uniform(0.05, 0.6, size=k)
    y_pred[:, 0] = False
    y_true[:, 1] = False
    y_pred[:, 2] = False
    y_true[:, 2] = False
    return y_true, y_pred


def _tally(y_true: np.ndarray, y_pred: np.ndarray, conventions: str = "default") -> Tally:
    t = Tally([f"c{j}" for j in range(y_true.shape[1])], conventions=conventions)  # type: ignore[arg-type]
    t.add_results(y_pred, y_true)  # assigned = predicted, correct = true
    return t


SEEDS = range(8)


@pytest.mark.parametrize("seed", SEEDS)
def test_counts_match_multilabel_confusion_matrix(seed: int) -> None:
    """Per category a, b, c, d equal sklearn's tp, fp, fn, tn."""
    y_true, y_pred = _data(seed)
    mcm = metrics.multilabel_confusion_matrix(y_true, y_pred)
    ours = _tally(y_true, y_pred).counts
    assert np.array_equal(ours[:, 0, 0], mcm[:, 1, 1])
    assert np.array_equal(ours[:, 0, 1], mcm[:, 0, 1])
    assert np.array_equal(ours[:, 1, 0], mcm[:, 1, 0])
    assert np.array_equal(ours[:, 1, 1], mcm[:, 0, 0])


@pytest.mark.parametrize("seed", SEEDS)
def test_micro_precision_recall_f1(seed: int) -> None:
    """Micro P, R, F1 equal sklearn average="micro" (zero_division=nan, our default)."""
    y_true, y_pred = _data(seed)
    t = _tally(y_true, y_pred)
    p, r, f, _ = metrics.precision_recall_fscore_support(
        y_true, y_pred, average="micro", zero_division=np.nan
    )
    assert t.micro_precision() == pytest.approx(p, rel=1e-12)
    assert t.micro_recall() == pytest.approx(r, rel=1e-12)
    assert t.micro_F1() == pytest.approx(f, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_per_category_and_macro(seed: int) -> None:
    """Per category (average=None) and macro: sklearn with zero_division=nan leaves
    undefined categories out of its macro mean (`_nanaverage`), which is our
    undefined="omit"; our default "propagate" gives nan there on purpose."""
    y_true, y_pred = _data(seed)
    t = _tally(y_true, y_pred)
    p, r, f, _ = metrics.precision_recall_fscore_support(
        y_true, y_pred, average=None, zero_division=np.nan
    )
    for name, theirs in (("precision", p), ("recall", r), ("f_measure", f)):
        ours = np.array(list(t.per_category(name).values()))
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, equal_nan=True)
    p, r, f, _ = metrics.precision_recall_fscore_support(
        y_true, y_pred, average="macro", zero_division=np.nan
    )
    assert t.macro("precision", undefined="omit") == pytest.approx(p, rel=1e-12)
    assert t.macro("recall", undefined="omit") == pytest.approx(r, rel=1e-12)
    assert t.macro("f_measure", undefined="omit") == pytest.approx(f, rel=1e-12)
    assert math.isnan(t.macro_precision())  # column 0 is never predicted


@pytest.mark.parametrize("seed", SEEDS)
def test_hamming_loss_is_micro_error(seed: int) -> None:
    """Micro error = Hamming loss; micro accuracy = 1 - Hamming loss, not subset accuracy (P8)."""
    y_true, y_pred = _data(seed)
    t = _tally(y_true, y_pred)
    assert t.micro_error() == pytest.approx(metrics.hamming_loss(y_true, y_pred), rel=1e-12)
    assert t.micro_accuracy() == pytest.approx(1 - metrics.hamming_loss(y_true, y_pred), rel=1e-12)
    assert t.macro_error() == pytest.approx(t.micro_error(), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_perl_conventions_against_zero_division_one(seed: int) -> None:
    """The Perl conventions agree with sklearn's zero_division=1 except on purpose in one
    case: precision(0, 0, c > 0, d) is 0 in Statistics::Contingency 0.09 but 1 in sklearn.
    Column 0 (never predicted, sometimes true) is that case; elsewhere they agree."""
    y_true, y_pred = _data(seed)
    t = _tally(y_true, y_pred, CONVENTIONS_PERL)
    p, r, f, _ = metrics.precision_recall_fscore_support(
        y_true, y_pred, average=None, zero_division=1
    )
    ours_p = np.array(list(t.per_category("precision").values()))
    assert y_true[:, 0].any()
    assert ours_p[0] == 0.0
    assert p[0] == 1.0
    np.testing.assert_allclose(ours_p[1:], p[1:], rtol=1e-12)
    np.testing.assert_allclose(list(t.per_category("recall").values()), r, rtol=1e-12)
    np.testing.assert_allclose(list(t.per_category("f_measure").values()), f, rtol=1e-12)


def test_sparse_against_sklearn() -> None:
    """Sparse indicators give sklearn's sparse result too."""
    scipy_sparse = pytest.importorskip("scipy.sparse")
    y_true, y_pred = _data(99, n=500, k=10)
    t = Tally([f"c{j}" for j in range(10)])
    t.add_results(scipy_sparse.csr_array(y_pred), scipy_sparse.csc_array(y_true))
    p, r, f, _ = metrics.precision_recall_fscore_support(
        scipy_sparse.csr_matrix(y_true), scipy_sparse.csr_matrix(y_pred), average="micro"
    )
    assert (t.micro_precision(), t.micro_recall(), t.micro_F1()) == pytest.approx(
        (p, r, f), rel=1e-12
    )
