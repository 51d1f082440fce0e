"""The permutation test of informedness: tables with fixed margins are permuted rows."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from informed import Table
from informed.errors import InputError
from informed.inference import permutation_test

TP, FP, FN, TN = 12, 8, 6, 14  # N = 40, +R = 18, +P = 20


def test_binary_null_distribution_is_hypergeometric() -> None:
    """With both margins fixed, tp is hypergeometric and informedness = (tp N - pp rp)/(rp rn)
    a linear function of it: the permuted informedness values, mapped back to tp, fit the
    hypergeometric pmf (chi-square goodness of fit, cells with expectation >= 5)."""
    table = Table.binary(tp=TP, fp=FP, fn=FN, tn=TN)
    R = 20000
    result = permutation_test(table, permutations=R, seed=1, positive="+")
    n, rp, pp = 40, TP + FN, TP + FP
    tp = np.rint((result.null_distribution * rp * (n - rp) + pp * rp) / n).astype(int)
    support = np.arange(0, min(rp, pp) + 1)
    expected = stats.hypergeom(n, rp, pp).pmf(support) * R
    observed = np.bincount(tp, minlength=support.size)[: support.size]
    keep = expected >= 5
    pooled_obs = np.append(observed[keep], observed[~keep].sum())
    pooled_exp = np.append(expected[keep], R - expected[keep].sum())
    assert stats.chisquare(pooled_obs, pooled_exp).pvalue > 1e-3
    assert abs(result.null_distribution.mean()) < 4 * result.null_distribution.std() / math.sqrt(R)


def test_one_sided_p_value_is_fishers_exact_test() -> None:
    """p(greater) estimates P(tp >= observed | margins), which is Fisher's one-sided exact p:
    within 4 binomial standard errors of the Monte Carlo estimate."""
    table = Table.binary(tp=TP, fp=FP, fn=FN, tn=TN)
    R = 20000
    ours = permutation_test(table, permutations=R, alternative="greater", seed=2).pvalue
    fisher = stats.fisher_exact([[TP, FP], [FN, TN]], alternative="greater").pvalue
    assert abs(ours - fisher) < 4 * math.sqrt(fisher * (1 - fisher) / R) + 1 / R
    less = permutation_test(table, permutations=R, alternative="less", seed=2).pvalue
    fisher_less = stats.fisher_exact([[TP, FP], [FN, TN]], alternative="less").pvalue
    assert abs(less - fisher_less) < 4 * math.sqrt(fisher_less * (1 - fisher_less) / R) + 1 / R
    two = permutation_test(table, permutations=R, seed=2)
    assert two.pvalue == pytest.approx(min(1.0, 2 * min(ours, less)))


def _informedness(actual: np.ndarray, predicted: np.ndarray, labels: int) -> float:
    """Powers' bias-weighted informedness of coded rows, written out."""
    n = actual.size
    total = 0.0
    for label in range(labels):
        tp = np.sum((predicted == label) & (actual == label))
        pp = np.sum(predicted == label)
        rp = np.sum(actual == label)
        total += pp / n * (tp / rp - (pp - tp) / (n - rp))
    return total


def test_multiclass_null_distribution_equals_shuffling_the_rows() -> None:
    """Sampling tables with fixed margins gives the distribution of shuffling the actual
    column of the rows: quantiles within 4 Monte Carlo standard errors, KS not rejecting."""
    counts = np.array([[20, 6, 4], [5, 18, 7], [6, 4, 15]])
    table = Table.from_counts(counts, rows="predicted")
    R = 4000
    ours = permutation_test(table, permutations=R, seed=3).null_distribution
    predicted = np.repeat(np.arange(3), counts.sum(axis=1))
    actual = np.concatenate([np.repeat(np.arange(3), row) for row in counts])
    rng = np.random.default_rng(4)
    shuffled = np.array([_informedness(rng.permutation(actual), predicted, 3) for _ in range(R)])
    spread = np.std(np.concatenate([ours, shuffled]))
    for q in (0.05, 0.5, 0.95):
        se = math.sqrt(2 * q * (1 - q) / R) * spread / stats.norm.pdf(stats.norm.ppf(q))
        assert abs(np.quantile(ours, q) - np.quantile(shuffled, q)) < 4 * se + 1 / counts.sum()
    assert stats.ks_2samp(ours, shuffled).pvalue > 1e-3


def test_p_value_is_never_zero_and_chance_tables_are_not_significant() -> None:
    """A strong table: one-sided p = 1 / (R + 1) (Phipson & Smyth), two-sided twice that;
    the poster's guessing table (informedness 0): p = 1."""
    strong_table = Table.binary(tp=50, fp=5, fn=5, tn=50)
    strong = permutation_test(strong_table, permutations=999, seed=0)
    assert strong.pvalue == 2 / 1000
    greater = permutation_test(strong_table, permutations=999, seed=0, alternative="greater")
    assert greater.pvalue == 1 / 1000
    assert strong.statistic == strong.estimate == pytest.approx(10 / 11 - 1 / 11)
    guess = permutation_test(Table.binary(tp=12, fp=28, fn=18, tn=42), permutations=999, seed=0)
    assert guess.pvalue == 1.0
    assert guess.null_distribution is not None and guess.null_distribution.size == 999


def test_other_measures_and_seeds() -> None:
    """Any registry measure can be tested; the seed makes it reproducible."""
    table = Table.from_counts([[20, 6, 4], [5, 18, 7], [6, 4, 15]], rows="predicted")
    first = permutation_test(table, "kappa", permutations=500, seed=8)
    second = permutation_test(table, "kappa", permutations=500, seed=8)
    np.testing.assert_array_equal(first.null_distribution, second.null_distribution)
    assert first.pvalue == second.pvalue == 2 / 501


def test_degenerate_and_bad_inputs() -> None:
    """Undefined measure: nan with reason; fractional weights and unknown options: errors."""
    undefined = permutation_test(
        Table.binary(tp=5, fp=5, fn=0, tn=0),
        "inverse_precision",
        positive="+",
        permutations=10,
        seed=0,
    )
    assert math.isnan(undefined.pvalue) and undefined.reason == "no -P predictions"
    with pytest.raises(InputError, match="whole-number"):
        permutation_test(Table.from_counts([[1.5, 2.0], [3.0, 4.0]], rows="predicted"))
    whole = Table.from_counts([[10.0, 2.0], [3.0, 9.0]], rows="predicted")
    assert permutation_test(whole, permutations=99, seed=0).pvalue < 0.05
    with pytest.raises(InputError):
        permutation_test(whole, alternative="bigger")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        permutation_test(whole, "auc")
