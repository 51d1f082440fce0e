"""Regression tests of issue 20 ("never silently wrong"), items 2-4: the arithmetic of
counts and weights. Expected values come from exact arithmetic (fractions) worked here."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from informed import InputError, Ranking, Table, evaluate
from informed.measures import (
    Cells,
    conditional_entropy,
    informedness,
    kappa_multiclass,
    matthews_correlation_multiclass,
    one_vs_rest_counts,
)
from informed.ranking.summaries import auc, average_qrecall, pem


@pytest.mark.parametrize("big", [1e16, 1e17, 1e300])
def test_a_huge_weight_beside_small_ones_keeps_them(big: float) -> None:
    """Weights 1e16 and 1 once gave informedness 1.0 and, at 1e17, nan with the false
    reason "no real negatives": the view's cells were margins minus margins."""
    table = Table.from_labels(
        actual=[1, 0, 1, 0], predicted=[1, 0, 0, 1], weights=[big, 1.0, 1.0, 1.0]
    )
    view = table.one_vs_rest(1)
    assert (view.tp, view.fp, view.fn, view.tn) == (big, 1.0, 1.0, 1.0)
    # exact: tp/(tp+fn) - fp/(fp+tn) = big/(big+1) - 1/2
    exact = float(Fraction(big) / (Fraction(big) + 1) - Fraction(1, 2))
    result = evaluate(table)
    assert result.measures["informedness"] == pytest.approx(exact, rel=1e-15, abs=0)
    assert "informedness" not in result.reasons


def test_views_of_a_sparse_table_are_exact_too() -> None:
    """Dense and sparse storage give the same exact views (Cells read the same way)."""
    counts = np.array([[1e17, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 2.0, 3e300]])
    dense = Table.from_counts(counts, rows="predicted", storage="dense")
    sparse = Table.from_counts(counts, rows="predicted", storage="sparse")
    for label in dense.labels:
        assert dense.one_vs_rest(label) == sparse.one_vs_rest(label)
    # label 0: tn = 1 + 2 + 3e300, exactly rounded (not 3e300 + 1e17 + ... - 1e17 ...)
    assert dense.one_vs_rest(0).tn == float(Fraction(3e300) + 3)
    assert dense.one_vs_rest(2).tn == float(Fraction(1e17) + 3)


def test_batched_views_are_exact_per_replicate() -> None:
    """Bootstrap replicates counts[B, K, C] get their views in one call, each exact."""
    batch = np.array([[[1e17, 1.0], [1.0, 1.0]], [[3.0, 1.0], [0.0, 2.0]]])
    views = one_vs_rest_counts(batch)
    assert views[0, 0].tolist() == [[1e17, 1.0], [1.0, 1.0]]
    assert views[0, 1].tolist() == [[1.0, 1.0], [1.0, 1e17]]
    assert views[1, 0].tolist() == [[3.0, 1.0], [0.0, 2.0]]
    cells = Cells(batch.reshape(2, 4), np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]), (2, 2))
    assert np.array_equal(one_vs_rest_counts(cells), views)


def test_large_totals_give_values_not_false_reasons() -> None:
    """tp = tn = 1e200, fp = fn = 1e199: N^2 overflowed, giving MCC "undefined for this
    table" and kappa "chance agreement is 1". Exact: MCC = kappa = B = (100 - 1)/(11^2)."""
    table = Table.binary(tp=1e200, fp=1e199, fn=1e199, tn=1e200)
    exact = float(Fraction(99, 121))
    for positive in ("+", None):
        result = evaluate(table, positive=positive)
        for name in ("matthews_correlation", "kappa", "informedness", "correlation"):
            assert result.measures[name] == pytest.approx(exact, rel=1e-15, abs=0), (name, positive)
            assert name not in result.reasons


def test_tiny_weights_do_not_underflow() -> None:
    """1e-200 weights: products of cells underflow to 0 in a naive formula."""
    table = Table.binary(tp=2e-200, fp=1e-200, fn=1e-200, tn=2e-200)
    exact = float(Fraction(3, 9))  # (4 - 1) / (3 x 3)
    result = evaluate(table, positive="+")
    for name in ("matthews_correlation", "kappa", "informedness", "markedness", "correlation"):
        assert result.measures[name] == pytest.approx(exact, rel=1e-15, abs=0), name


def test_multiclass_kappa_and_rk_without_overflow() -> None:
    """R_K and kappa of a 3x3 table of 1e200 weights equal those of the same table x 1e-200."""
    counts = np.array([[5.0, 3.0, 1.0], [2.0, 7.0, 4.0], [0.0, 6.0, 9.0]])
    for measure in (kappa_multiclass, matthews_correlation_multiclass):
        small = float(measure(counts))
        assert float(measure(counts * 1e200)) == pytest.approx(small, rel=1e-14, abs=0)
        assert float(measure(counts * 1e-200)) == pytest.approx(small, rel=1e-14, abs=0)


def test_a_near_zero_informedness_keeps_its_digits() -> None:
    """tp tn - fp fn = 1 out of products near 1e16: the difference of two rates loses it."""
    counts = np.array([[10**8 + 1, 10**8], [10**8 - 1, 10**8 - 1]], dtype=np.float64)
    tp, fp, fn, tn = (Fraction(int(x)) for x in counts.ravel())
    exact = float((tp * tn - fp * fn) / ((tp + fn) * (fp + tn)))
    assert float(informedness(counts)) == pytest.approx(exact, rel=1e-13, abs=0)


def test_entropy_of_a_share_near_one() -> None:
    """A row [1e17, 1]: log2(1e17 / (1e17 + 1)) is not 0; it is 1.4% of H(R|P)."""
    counts = np.array([[1e17, 1.0], [0.0, 0.0]])
    n = Fraction(1e17) + 1
    terms = [
        float(Fraction(1e17) / n) * float(np.log1p(float(1 / Fraction(1e17))) / np.log(2)),
        float(1 / n) * float(np.log2(float(n))),
    ]
    assert float(conditional_entropy(counts)) == pytest.approx(sum(terms), rel=1e-12, abs=0)


def test_weights_past_the_largest_float_are_refused() -> None:
    """1e308 weights sum to inf: one error naming the weights, not a raw OverflowError."""
    with pytest.raises(InputError, match="weights sum to more than the largest float"):
        Table.from_labels(actual=[1, 0], predicted=[1, 0], weights=[1e308, 1e308])
    with pytest.raises(InputError, match="weights sum to more than the largest float"):
        Table.from_counts([[1e308, 1e308], [1.0, 1.0]], rows="actual")
    half = Table.from_counts([[1e308, 0.0], [0.0, 1.0]], rows="actual")
    with pytest.raises(InputError, match="weights sum to more than the largest float"):
        _ = half + half


def test_int64_totals_that_would_wrap_are_refused() -> None:
    """Merging two tables of 2^62 cases would wrap an int64 to a negative N."""
    table = Table.from_counts(np.array([[2**62, 0], [0, 1]]), rows="actual")
    for a, b in ((table, table), (table.to_sparse(), table.to_sparse())):
        with pytest.raises(InputError, match="more than an int64 holds"):
            _ = a + b


def test_a_ranking_of_huge_weights_is_refused() -> None:
    """Weights of 1e308 gave AUC nan with n = inf and no reason."""
    ranking = Ranking.from_scores(
        actual=[1, 0, 1, 0], scores=[0.9, 0.8, 0.3, 0.1], weights=[1e308] * 4, positive=1
    )
    with pytest.raises(InputError, match="weights sum to more than the largest float"):
        auc(ranking)


def test_auc_of_wide_weights_keeps_a_small_area() -> None:
    """A negative of weight 1e17 above the one positive, a negative of weight 1 below:
    AUC = 1 / (1e17 + 1); the negatives below were the total minus those above, 0."""
    ranking = Ranking.from_scores(
        actual=[0, 1, 0], scores=[3.0, 2.0, 1.0], weights=[1e17, 1.0, 1.0], positive=1
    )
    assert auc(ranking) == pytest.approx(float(1 / (Fraction(1e17) + 1)), rel=1e-15, abs=0)


def test_correlation_says_when_the_sign_is_not_known() -> None:
    """Informedness of this table averages labels' values of both signs to within its
    rounding error of 0 (exact: about -1e-94); markedness is -1. Correlation was given
    as nan with the false reason "differ in sign"; the sign of B M is not known."""
    table = Table.from_counts(
        [
            [1e9, 0.0, 1e231, 0.0],
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 0.0, 1e184],
            [0.0, 1.0, 0.0, 0.0],
        ],
        rows="predicted",
    )
    result = evaluate(table)
    assert np.isnan(result.measures["correlation"])
    assert "informedness is within rounding error of 0" in result.reasons["correlation"]
    assert "not known" in result.reasons["correlation"]


def test_position_summaries_of_huge_weights_do_not_overflow() -> None:
    """Average Qrecall and PEM at a quota sum positions times counts (A(x) ~ n^2): at
    weights of 1e200 they were nan without a reason. Past 1e150 the unit terms (+1 of a
    position) are below rounding, so the values are those at 1e150, which never overflowed."""
    rng = np.random.default_rng(3)
    actual, scores = rng.integers(0, 2, 30), rng.random(30)
    weights = rng.integers(1, 4, 30).astype(np.float64)

    def summaries(scale: float) -> list[float]:
        r = Ranking.from_scores(actual=actual, scores=scores, weights=weights * scale, positive=1)
        return [
            average_qrecall(r),
            average_qrecall(r, quota=0.7 * r.n),
            pem(r, quota=0.7 * r.n),
            pem(r, quota=0.2 * r.n),
        ]

    for scale in (1e200, 1e300):
        assert summaries(scale) == pytest.approx(summaries(1e150), rel=1e-12, abs=0)
