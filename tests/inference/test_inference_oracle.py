"""Analytic intervals and tests against statsmodels and scipy, on random inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from scipy.stats import chi2_contingency
from strategies import binary_tables

from informed import Table
from informed.errors import InputError, InputTypeError
from informed.inference import (
    chi_square_test,
    clopper_pearson_interval,
    g_test,
    mcnemar,
    paired_correctness,
    proportion_interval,
    wilson_interval,
)
from informed.measures import informedness, markedness

proportion = pytest.importorskip("statsmodels.stats.proportion")
contingency = pytest.importorskip("statsmodels.stats.contingency_tables")

RNG = np.random.default_rng(20240601)
PAIRS = [(int(x), int(n)) for n in RNG.integers(1, 500, 40) for x in (0, RNG.integers(0, n + 1), n)]


# ---------------------------------------------------------------------- proportions
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
@pytest.mark.parametrize(
    ("ours", "theirs"), [(wilson_interval, "wilson"), (clopper_pearson_interval, "beta")]
)
def test_proportion_intervals_match_statsmodels(ours, theirs: str, level: float) -> None:  # type: ignore[no-untyped-def]
    """Wilson and Clopper-Pearson bounds equal statsmodels' proportion_confint, x = 0 and
    x = n included."""
    for x, n in PAIRS:
        low, high = proportion.proportion_confint(x, n, alpha=1 - level, method=theirs)
        interval = ours(x, n, level=level)
        # statsmodels does not clip Wilson at rounding level (-1e-17 at x = 0); we do
        assert interval.low == pytest.approx(max(low, 0.0), abs=1e-12), (x, n)
        assert interval.high == pytest.approx(min(high, 1.0), abs=1e-12), (x, n)
        assert interval.estimate == x / n


# numerator / denominator cells of each proportion, written out again here
CELLS = {
    "recall": (lambda tp, fp, fn, tn: (tp, tp + fn)),
    "miss_rate": (lambda tp, fp, fn, tn: (fn, tp + fn)),
    "precision": (lambda tp, fp, fn, tn: (tp, tp + fp)),
    "inverse_recall": (lambda tp, fp, fn, tn: (tn, fp + tn)),
    "fallout": (lambda tp, fp, fn, tn: (fp, fp + tn)),
    "inverse_precision": (lambda tp, fp, fn, tn: (tn, fn + tn)),
    "accuracy": (lambda tp, fp, fn, tn: (tp + tn, tp + fp + fn + tn)),
    "error": (lambda tp, fp, fn, tn: (fp + fn, tp + fp + fn + tn)),
}


@pytest.mark.parametrize("name", sorted(CELLS))
@pytest.mark.parametrize(("method", "theirs"), [("wilson", "wilson"), ("clopper-pearson", "beta")])
def test_proportion_interval_of_a_table_matches_statsmodels(
    name: str, method: str, theirs: str
) -> None:
    """Each proportion measure of a table's positive view, from its own cells."""
    for _ in range(10):
        tp, fp, fn, tn = (int(v) for v in RNG.integers(1, 60, 4))
        table = Table.binary(tp=tp, fp=fp, fn=fn, tn=tn)
        x, n = CELLS[name](tp, fp, fn, tn)
        low, high = proportion.proportion_confint(x, n, alpha=0.05, method=theirs)
        interval = proportion_interval(table, name, positive="+", method=method)
        assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)
        assert interval.estimate == pytest.approx(x / n)


def test_proportion_interval_multiclass_accuracy_and_errors() -> None:
    """Without a positive label, accuracy is trace / N; recall is a macro average (an error);
    an empty denominator is nan with the registry's reason."""
    counts = np.array([[30, 7, 2], [5, 40, 6], [1, 3, 25]])
    table = Table.from_counts(counts, rows="predicted")
    low, high = proportion.proportion_confint(95, 119, alpha=0.05, method="wilson")
    assert (
        proportion_interval(table, "accuracy").low,
        proportion_interval(table, "accuracy").high,
    ) == pytest.approx((low, high), abs=1e-12)
    error = proportion_interval(table, "error", method="clopper-pearson")
    low, high = proportion.proportion_confint(24, 119, alpha=0.05, method="beta")
    assert (error.low, error.high) == pytest.approx((low, high), abs=1e-12)
    with pytest.raises(InputError, match="macro average"):
        proportion_interval(table, "recall")
    with pytest.raises(InputError):
        proportion_interval(table, "informedness", positive=0)
    degenerate = proportion_interval(
        Table.binary(tp=5, fp=5, fn=0, tn=0), "inverse_precision", positive="+"
    )
    assert math.isnan(degenerate.low) and degenerate.reason == "no -P predictions"
    assert math.isnan(wilson_interval(0, 0).low)
    with pytest.raises(InputError):
        wilson_interval(5, 3)
    with pytest.raises(InputTypeError):
        clopper_pearson_interval("3", 5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- McNemar
DISCORDANT = [(int(b), int(c)) for b, c in RNG.integers(0, 80, (60, 2)) if b != c] + [
    (0, 5),
    (7, 0),
    (1, 2),
    (300, 250),
    (12, 30),
]


@pytest.mark.parametrize(("b", "c"), DISCORDANT)
def test_mcnemar_matches_statsmodels(b: int, c: int) -> None:
    """Exact binomial and chi-square (Edwards-corrected or not) equal statsmodels' mcnemar."""
    table = np.array([[11, b], [c, 17]])
    exact = contingency.mcnemar(table, exact=True)
    ours = mcnemar(b=b, c=c, method="exact")
    assert ours.statistic == exact.statistic
    assert ours.pvalue == pytest.approx(exact.pvalue, rel=1e-12, abs=1e-300)
    for correction, continuity in ((True, 1.0), (False, 0.0)):
        theirs = contingency.mcnemar(table, exact=False, correction=correction)
        ours = mcnemar(b=b, c=c, method="chi-square", continuity=continuity)
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-300)
        assert ours.df == 1.0


def test_mcnemar_equal_discordant_counts() -> None:
    """b = c: no evidence at all. The corrected statistic is floored at 0 (statsmodels gives
    (0 - 1)^2 / (b + c) instead, a known difference); exact p = 1."""
    assert mcnemar(b=9, c=9, method="chi-square", continuity=1.0).statistic == 0.0
    assert contingency.mcnemar(np.array([[1, 9], [9, 1]]), exact=False).statistic == pytest.approx(
        1 / 18
    )
    assert mcnemar(b=9, c=9).pvalue == 1.0
    none = mcnemar(b=0, c=0)
    assert none.pvalue == 1.0 and none.reason is not None
    chi = mcnemar(b=0, c=0, method="chi-square")
    assert math.isnan(chi.statistic) and chi.reason is not None


def test_mcnemar_bad_arguments() -> None:
    """Continuity with the exact test, fractional exact counts, unknown methods are errors."""
    with pytest.raises(InputError, match="continuity"):
        mcnemar(b=3, c=5, continuity=1.0)
    with pytest.raises(InputError, match="integer"):
        mcnemar(b=3.5, c=5)
    with pytest.raises(InputError):
        mcnemar(b=3, c=5, method="asymptotic")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        mcnemar(b=-1, c=5)


def test_paired_correctness_counts_correctness_not_predictions() -> None:
    """b and c count cases where exactly one classifier is right, built from correctness
    (PITFALLS P28): two classifiers that disagree only where both are wrong have b = c = 0."""
    actual = np.array(["a", "b", "c", "a", "b", "c", "a", "b"])
    first = np.array(["a", "b", "a", "a", "c", "b", "b", "b"])
    second = np.array(["a", "c", "b", "b", "b", "a", "a", "b"])
    result = paired_correctness(actual=actual, first=first, second=second)
    right_1 = first == actual
    right_2 = second == actual
    assert result.first_only == np.sum(right_1 & ~right_2)
    assert result.second_only == np.sum(~right_1 & right_2)
    assert result.both_right == np.sum(right_1 & right_2)
    assert result.both_wrong == np.sum(~right_1 & ~right_2)
    assert result.counts.sum() == actual.size
    theirs = contingency.mcnemar(result.counts, exact=True)
    assert result.mcnemar().pvalue == pytest.approx(theirs.pvalue)
    wrong_apart = paired_correctness(actual=[1, 1, 1], first=[2, 3, 1], second=[3, 2, 1])
    assert (wrong_apart.first_only, wrong_apart.second_only) == (0, 0)
    with pytest.raises(InputTypeError):
        paired_correctness(actual=["a", "b"], first=[1, 2], second=["a", "b"])
    with pytest.raises(InputError):
        paired_correctness(actual=[1, 2], first=[1, 2, 3], second=[1, 2])


# ---------------------------------------------------------------------- chi-square and G
def _random_tables(count: int) -> list[np.ndarray]:
    shapes = [(2, 2), (2, 3), (3, 3), (4, 2), (5, 5)]
    return [RNG.integers(1, 80, shapes[i % len(shapes)]) for i in range(count)]


@pytest.mark.parametrize("counts", _random_tables(25))
def test_chi_square_and_g_match_scipy(counts: np.ndarray) -> None:
    """Pearson chi-square (no correction) and G equal scipy's chi2_contingency."""
    table = Table.from_counts(
        counts,
        rows="predicted",
        predicted=list(range(counts.shape[0])),
        actual=list(range(counts.shape[1])),
    )
    theirs = chi2_contingency(counts, correction=False)
    ours = chi_square_test(table)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-10)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-8, abs=1e-300)
    assert ours.df == theirs.dof
    theirs_g = chi2_contingency(counts, correction=False, lambda_="log-likelihood")
    ours_g = g_test(table)
    assert ours_g.statistic == pytest.approx(theirs_g.statistic, rel=1e-10)
    assert ours_g.pvalue == pytest.approx(theirs_g.pvalue, rel=1e-8, abs=1e-300)


@pytest.mark.parametrize("counts", [c for c in _random_tables(25) if c.shape == (2, 2)])
def test_yates_correction_matches_scipy(counts: np.ndarray) -> None:
    """continuity=0.5 on a 2x2 table is scipy's Yates correction (correction=True)."""
    table = Table.from_counts(counts, rows="predicted")
    theirs = chi2_contingency(counts, correction=True)
    assert chi_square_test(table, continuity=0.5).statistic == pytest.approx(theirs.statistic)
    theirs_g = chi2_contingency(counts, correction=True, lambda_="log-likelihood")
    assert g_test(table, continuity=0.5).statistic == pytest.approx(theirs_g.statistic)


def test_chi_square_leaves_out_empty_rows_and_flags_degenerate_tables() -> None:
    """Empty rows and columns are left out (df counts the rest); one label: nan with reason;
    continuity beyond one degree of freedom is an error."""
    counts = np.array([[10, 4, 0], [3, 12, 0], [0, 0, 0]])
    table = Table.from_counts(counts, rows="predicted")
    theirs = chi2_contingency(counts[:2, :2], correction=False)
    assert chi_square_test(table).statistic == pytest.approx(theirs.statistic)
    assert chi_square_test(table).df == 1
    one_label = chi_square_test(Table.from_counts([[5, 6], [0, 0]], rows="predicted"))
    assert math.isnan(one_label.pvalue) and "fewer than two" in (one_label.reason or "")
    with pytest.raises(InputError, match="2x2"):
        chi_square_test(Table.from_counts(np.ones((3, 3), int), rows="predicted"), continuity=0.5)
    with pytest.raises(InputError):
        g_test(table, continuity=0.7)


@given(binary_tables(max_count=10**5, positive_margins=True))
@settings(max_examples=200, deadline=None)
def test_chi_square_is_n_times_informedness_times_markedness(table: Table) -> None:
    """For a 2x2 table with non-zero margins, chi^2 = N x informedness x markedness."""
    counts = table.one_vs_rest("+").counts
    margins = [counts.sum(axis=0), counts.sum(axis=1)]
    if any(m == 0 for pair in margins for m in pair):
        return
    expected = table.n * float(informedness(counts)) * float(markedness(counts))
    assert chi_square_test(table).statistic == pytest.approx(expected, rel=1e-9, abs=1e-9)
