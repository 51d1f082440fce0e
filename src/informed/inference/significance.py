"""Significance tests on the summaries: chi-square and G of a Table, McNemar, permutation.

Informedness says how much better than chance a classifier is, whatever the sample size;
a test says whether the sample is large enough to tell it from chance (seed 003: "some
kind of significance test or validation should also be performed"). Every test here reads
a summary (a Table, or the discordant counts of two classifiers), never the rows.

For a 2x2 table the two meet: Pearson's chi-square is N times informedness times
markedness, chi^2 = N B M = N phi^2 (Powers 2011), so for a fixed B M significance only
grows with N, as the poster says ("multiplying the figures by some large factor whilst
retaining the same proportions is always sufficient to assure significance").

References
----------
Pearson, K. (1900). On the criterion that a given system of deviations from the probable
in the case of a correlated system of variables is such that it can be reasonably
supposed to have arisen from random sampling. Phil. Mag. 5th ser. 50(302):157-175.
McNemar, Q. (1947). Note on the sampling error of the difference between correlated
proportions or percentages. Psychometrika 12(2):153-157.
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. J. Mach. Learn. Technol. 2(1):37-63.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from scipy import special, stats

from informed._common import check_choice
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_count, check_table, label_index
from informed.inference.interval import Interval
from informed.labels import as_vector, code_labels, label_kind
from informed.measures.registry import MEASURES
from informed.table.evaluation import evaluate, measure_values
from informed.table.table import Table

__all__ = [
    "PairedCorrectness",
    "Significance",
    "chi_square_test",
    "g_test",
    "mcnemar",
    "paired_correctness",
    "permutation_test",
]

Floats = NDArray[np.float64]

ALTERNATIVES = ("two-sided", "greater", "less")


@dataclass(frozen=True, eq=False)
class Significance:
    """The result of a significance test.

    Attributes
    ----------
    statistic : float
        The test statistic (nan with `reason` when the test cannot be done).
    pvalue : float
        The p-value under `null`.
    method : str
        "chi-square", "g", "mcnemar-exact", "mcnemar-chi-square", "permutation", "delong".
    null : str
        What was tested, in words.
    df : float
        Degrees of freedom of a chi-square reference distribution; nan otherwise.
    estimate : float
        The effect the test is about, where there is one (informedness for the
        permutation test, the difference of AUCs for DeLong); nan otherwise.
    interval : Interval or None
        A confidence interval for `estimate`, where the method gives one.
    reason : str or None
        Why the result is nan, or a caveat.
    details : dict
        Other numbers of the test by name (the discordant counts, each AUC, ...).
    null_distribution : ndarray or None
        The resampled statistics of a permutation test.
    """

    statistic: float
    pvalue: float
    method: str
    null: str
    df: float = math.nan
    estimate: float = math.nan
    interval: Interval | None = None
    reason: str | None = None
    details: dict[str, float] = field(default_factory=dict)
    null_distribution: Floats | None = field(default=None, repr=False)


_INDEPENDENCE = "the prediction is independent of the actual class (no association)"


# ---------------------------------------------------------------------- chi-square and G
def _contingency(
    table: Table, continuity: Any
) -> tuple[Floats | None, Floats | None, int, str | None]:
    """(observed, expected, df, None) of the rows and columns that occur, with the
    continuity correction applied; or (None, None, df, reason) when there is nothing to
    test."""
    table = check_table(table)
    if isinstance(continuity, bool) or not isinstance(continuity, int | float | np.number):
        msg = f"`continuity` must be a number such as 0.5; got {continuity!r}."
        raise InputTypeError(msg)
    if not 0.0 <= float(continuity) <= 0.5:
        msg = f"`continuity` must lie in [0, 0.5] (Yates: 0.5); got {continuity!r}."
        raise InputError(msg)
    counts = table.counts.astype(np.float64)
    observed = counts[counts.sum(axis=1) > 0][:, counts.sum(axis=0) > 0]
    rows, cols = observed.shape
    df = max(rows - 1, 0) * max(cols - 1, 0)
    if rows < 2 or cols < 2:
        what = "predicted label" if rows < 2 else "actual class"
        return None, None, df, f"fewer than two {what}s occur: there is no association to test"
    if continuity and df != 1:
        msg = (
            f"`continuity` corrects a 2x2 table (1 degree of freedom); this table has {df} "
            "degrees of freedom once empty rows and columns are left out. Use continuity=0."
        )
        raise InputError(msg)
    total = observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / total
    if continuity:
        gap = expected - observed
        observed = observed + np.sign(gap) * np.minimum(float(continuity), np.abs(gap))
    return observed, expected, df, None


def chi_square_test(table: Table, *, continuity: float = 0.0) -> Significance:
    r"""Pearson's chi-square test of independence of prediction and actual class.

    chi^2 = sum_{l,c} (O_lc - E_lc)^2 / E_lc with E_lc = n_l. n_.c / N, referred to the
    chi-square distribution with (K' - 1)(C' - 1) degrees of freedom, K' and C' the
    predicted labels and actual classes that occur (empty rows and columns carry no
    information and would give E = 0, so they are left out).

    Parameters
    ----------
    table : Table
        Weighted tables are read as frequency counts.
    continuity : float
        Yates' continuity correction for a 2x2 table (1 degree of freedom): each O moves
        towards E by min(continuity, |O - E|); Yates used 0.5. Default 0: no correction,
        so that chi^2 = N B M holds (an error for tables with more degrees of freedom).

    Returns
    -------
    Significance
        nan with a reason when fewer than two labels occur on an axis.

    Notes
    -----
    For a 2x2 table with every margin non-zero, chi^2 = N x informedness x markedness
    = N phi^2 (Powers 2011): the size of the effect is B M = phi^2 and N decides the
    significance.

    >>> result = chi_square_test(Table.binary(tp=21, fp=14, fn=9, tn=56))
    >>> round(result.statistic, 10)  # N B M = 100 x 0.5 x (0.6 + 0.8615... - 1)
    23.0769230769
    """
    observed, expected, df, reason = _contingency(table, continuity)
    if observed is None or expected is None:
        return Significance(math.nan, math.nan, "chi-square", _INDEPENDENCE, df, reason=reason)
    statistic = float(np.sum((observed - expected) ** 2 / expected))
    return Significance(
        statistic,
        float(stats.chi2.sf(statistic, df)),
        "chi-square",
        _INDEPENDENCE,
        float(df),
        details={"continuity": float(continuity)},
    )


def g_test(table: Table, *, continuity: float = 0.0) -> Significance:
    r"""The G (log-likelihood ratio) test of independence of prediction and actual class.

    G = 2 sum_{l,c} O_lc ln(O_lc / E_lc) (terms with O = 0 are 0) = 2 N ln(2) I(P; R),
    I the mutual information in bits; referred to chi-square with (K' - 1)(C' - 1)
    degrees of freedom. Empty rows and columns are left out, and `continuity` is as in
    `chi_square_test`.

    References
    ----------
    Wilks, S. S. (1938). The large-sample distribution of the likelihood ratio for
    testing composite hypotheses. Ann. Math. Statist. 9(1):60-62.

    >>> result = g_test(Table.binary(tp=10, fp=0, fn=0, tn=10))
    >>> round(result.statistic / (2 * 20 * math.log(2)), 12)  # one bit of mutual information
    1.0
    """
    observed, expected, df, reason = _contingency(table, continuity)
    if observed is None or expected is None:
        return Significance(math.nan, math.nan, "g", _INDEPENDENCE, df, reason=reason)
    statistic = float(2.0 * np.sum(special.xlogy(observed, observed / expected)))
    statistic = max(statistic, 0.0)  # -1e-16 from rounding when O == E
    return Significance(
        statistic,
        float(stats.chi2.sf(statistic, df)),
        "g",
        _INDEPENDENCE,
        float(df),
        details={"continuity": float(continuity)},
    )


# ---------------------------------------------------------------------- McNemar
@dataclass(frozen=True)
class PairedCorrectness:
    """Two classifiers on the same cases: how often each was right.

    The paired correctness table (rows: first right / wrong, columns: second right /
    wrong); McNemar's test reads only its discordant cells, `first_only` (b) and
    `second_only` (c). Built from correctness, never from the raw predictions (PITFALLS
    P28).
    """

    both_right: int
    first_only: int
    second_only: int
    both_wrong: int

    @property
    def counts(self) -> NDArray[np.int64]:
        """[[both_right, first_only], [second_only, both_wrong]]."""
        return np.array(
            [[self.both_right, self.first_only], [self.second_only, self.both_wrong]],
            dtype=np.int64,
        )

    def mcnemar(
        self,
        *,
        method: Literal["exact", "chi-square"] = "exact",
        continuity: float = 0.0,
    ) -> Significance:
        """McNemar's test of b = first_only against c = second_only (see `mcnemar`)."""
        return mcnemar(b=self.first_only, c=self.second_only, method=method, continuity=continuity)


def paired_correctness(*, actual: Any, first: Any, second: Any) -> PairedCorrectness:
    """Count where two classifiers are right and wrong on the same cases.

    Parameters
    ----------
    actual, first, second : array-like of shape (n,)
        The actual classes and the two classifiers' predicted labels, case by case.

    >>> paired_correctness(actual=[1, 1, 0, 0], first=[1, 0, 0, 1], second=[1, 1, 1, 1])
    PairedCorrectness(both_right=1, first_only=1, second_only=1, both_wrong=1)
    """
    vectors = {
        name: as_vector(value, name)
        for name, value in (("actual", actual), ("first", first), ("second", second))
    }
    sizes = {name: v.shape[0] for name, v in vectors.items()}
    if len(set(sizes.values())) > 1:
        found = ", ".join(f"{name} {size}" for name, size in sizes.items())
        msg = f"Found input variables with inconsistent numbers of samples: {found}."
        raise InputError(msg)
    actual_labels, actual_codes = code_labels(vectors["actual"], "actual")
    position = {(label_kind(x), x): i for i, x in enumerate(actual_labels)}
    right = []
    for name in ("first", "second"):
        labels, codes = code_labels(vectors[name], name)
        kinds_a = {label_kind(x) for x in actual_labels}
        kinds_p = {label_kind(x) for x in labels}
        if kinds_a and kinds_p and not kinds_a & kinds_p:
            msg = (
                f"Labels in `actual` and `{name}` should be of the same kind: actual holds "
                f"{sorted(kinds_a)} such as {actual_labels[0]!r}, {name} holds "
                f"{sorted(kinds_p)} such as {labels[0]!r}."
            )
            raise InputTypeError(msg)
        mapped = np.array([position.get((label_kind(x), x), -1) for x in labels], dtype=np.intp)
        right.append(mapped[codes] == actual_codes if codes.size else np.zeros(0, bool))
    a, b = right
    return PairedCorrectness(
        both_right=int(np.count_nonzero(a & b)),
        first_only=int(np.count_nonzero(a & ~b)),
        second_only=int(np.count_nonzero(~a & b)),
        both_wrong=int(np.count_nonzero(~a & ~b)),
    )


def _discordant(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        msg = f"`{name}` must be a count of discordant cases; got {value!r}."
        raise InputTypeError(msg)
    if not math.isfinite(float(value)) or float(value) < 0:
        msg = f"`{name}` must be a finite non-negative count; got {value!r}."
        raise InputError(msg)
    return float(value)


def mcnemar(
    *,
    b: float,
    c: float,
    method: Literal["exact", "chi-square"] = "exact",
    continuity: float = 0.0,
) -> Significance:
    r"""McNemar's test that two classifiers are equally accurate on the same cases.

    Only the discordant cases count: b where the first classifier is right and the
    second wrong, c the reverse (`paired_correctness` counts them). Under the null each
    discordant case is equally likely to go either way, so b ~ Binomial(b + c, 1/2).

    Parameters
    ----------
    b, c : float
        The discordant counts (integers for the exact test).
    method : {"exact", "chi-square"}
        "exact": the two-sided binomial test, statistic min(b, c) and
        p = min(1, 2 P[X <= min(b, c)]), X ~ Binomial(b + c, 1/2).
        "chi-square": statistic max(|b - c| - continuity, 0)^2 / (b + c) on 1 degree
        of freedom.
    continuity : float
        For "chi-square" only: Edwards' continuity correction is continuity=1. Default 0.

    Returns
    -------
    Significance
        `estimate` is (b - c) / (b + c), the share of discordant cases won by the first
        classifier minus the share won by the second. With b + c = 0 the exact p-value is
        1 and the chi-square statistic nan, both with a reason.

    Notes
    -----
    statsmodels' `mcnemar(correction=True)` computes (|b - c| - 1)^2 / (b + c) without
    the floor at 0, so where b = c it gives 1 / (b + c) instead of 0; elsewhere the two
    agree. The Hugging Face evaluate card writes the statistic with misplaced parentheses
    (PITFALLS P28).

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika 12(2):153-157.
    Edwards, A. L. (1948). Note on the "correction for continuity" in testing the
    significance of the difference between correlated proportions. Psychometrika
    13(3):185-187.

    >>> result = mcnemar(b=10, c=2)
    >>> result.statistic, round(result.pvalue, 6)  # 2 x 79 / 4096, as statsmodels
    (2.0, 0.038574)
    """
    first, second = _discordant(b, "b"), _discordant(c, "c")
    method = check_choice(method, ("exact", "chi-square"), "method")
    if isinstance(continuity, bool) or not isinstance(continuity, int | float | np.number):
        msg = f"`continuity` must be a number such as 1.0; got {continuity!r}."
        raise InputTypeError(msg)
    if continuity < 0:
        msg = f"`continuity` must be non-negative (Edwards: 1); got {continuity!r}."
        raise InputError(msg)
    null = "both classifiers are equally often right (b and c equally likely)"
    pairs = first + second
    details = {"b": first, "c": second, "continuity": float(continuity)}
    estimate = (first - second) / pairs if pairs > 0 else math.nan
    if method == "exact":
        if continuity:
            msg = "`continuity` applies to method='chi-square'; the exact test takes none."
            raise InputError(msg)
        if not (first.is_integer() and second.is_integer()):
            msg = f"the exact test needs integer counts; got b={b!r}, c={c!r}."
            raise InputError(msg)
        smaller = min(first, second)
        pvalue = min(1.0, 2.0 * float(stats.binom.cdf(smaller, pairs, 0.5))) if pairs else 1.0
        reason = None if pairs else "no discordant cases: the classifiers are never apart"
        return Significance(
            smaller,
            pvalue,
            "mcnemar-exact",
            null,
            estimate=estimate,
            reason=reason,
            details=details,
        )
    if pairs == 0:
        return Significance(
            math.nan,
            math.nan,
            "mcnemar-chi-square",
            null,
            1.0,
            reason="no discordant cases: the classifiers are never apart",
            details=details,
        )
    statistic = max(abs(first - second) - float(continuity), 0.0) ** 2 / pairs
    return Significance(
        statistic,
        float(stats.chi2.sf(statistic, 1)),
        "mcnemar-chi-square",
        null,
        1.0,
        estimate=estimate,
        details=details,
    )


# ---------------------------------------------------------------------- permutation
def permutation_test(
    table: Table,
    measure: str = "informedness",
    *,
    permutations: int = 9999,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    positive: Any = None,
    seed: int | np.random.Generator | None = None,
    alpha: float = 0.5,
) -> Significance:
    r"""Permutation test of a measure (informedness by default) against pure chance.

    The null hypothesis is that the predictions carry no information about the actual
    classes: any pairing of the n predictions with the n actual classes is as likely as
    the observed one. Each permutation keeps both margins (how often each label was
    predicted, how often each class occurs), so the permuted tables are exactly the
    tables with the observed margins, drawn with their multivariate hypergeometric
    probabilities. They are sampled directly (Patefield's algorithm, via
    `scipy.stats.random_table`) in O(K C) each, the same distribution as shuffling the
    actual column of n rows at O(n) each.

    Parameters
    ----------
    table : Table
        Integer counts (a weighted table must hold whole numbers).
    measure : str
        A registry name; evaluated as `evaluate` does (overall, or the one-vs-rest view
        of `positive`).
    permutations : int
        Number of permuted tables R.
    alternative : {"two-sided", "greater", "less"}
        "greater": the measure is larger than chance would make it. "two-sided" (the
        default) also counts informed but contrary predictions (negative informedness)
        as departures from chance: p = min(1, 2 min(p_greater, p_less)).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    Significance
        statistic = estimate = the measure of the table; the p-value counts the
        permuted tables at least as extreme, p = (1 + #extreme) / (1 + R), so it is
        never 0 (Phipson & Smyth 2010). `null_distribution` holds the R permuted values
        (nan where the measure is undefined; those are left out).

    Notes
    -----
    Under these margins informedness has expectation exactly 0 (B of each label is
    linear in its tp, whose expectation is n_l. n_.l / N), so its null distribution is
    centred on the chance value.

    References
    ----------
    Patefield, W. M. (1981). Algorithm AS 159: an efficient method of generating random
    R x C tables with given row and column totals. Appl. Statist. 30(1):91-97.
    Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be zero.
    Stat. Appl. Genet. Mol. Biol. 9(1):39.

    >>> table = Table.binary(tp=21, fp=14, fn=9, tn=56)
    >>> result = permutation_test(table, permutations=999, seed=0)
    >>> round(result.estimate, 12), result.pvalue  # no permuted table is as extreme
    (0.5, 0.002)
    """
    table = check_table(table)
    check_choice(measure, tuple(MEASURES), "measure")
    permutations = check_count(permutations, "permutations", 1)
    check_choice(alternative, ALTERNATIVES, "alternative")
    counts = table.counts
    if table.weighted and not np.all(np.equal(np.mod(counts, 1.0), 0.0)):
        msg = (
            "a permutation test permutes cases, so it needs whole-number counts; this "
            "weighted table holds fractional weights. Test the unweighted table."
        )
        raise InputError(msg)
    null = f"the predictions carry no information about the actual classes ({measure} at chance)"
    evaluation = evaluate(table, positive=positive, alpha=alpha)
    observed = float(evaluation.measures[measure])
    if math.isnan(observed):
        why = evaluation.reasons.get(measure, "undefined for this table")
        return Significance(math.nan, math.nan, "permutation", null, reason=why)
    labels, square = table.square()
    index = label_index(labels, evaluation.positive)
    square_int = np.rint(square).astype(np.int64)
    rng = np.random.default_rng(seed)
    tables = stats.random_table.rvs(
        square_int.sum(axis=1),
        square_int.sum(axis=0),
        size=permutations,
        method="patefield",
        random_state=rng,
    )
    tables = np.asarray(tables, dtype=np.float64).reshape(permutations, *square.shape)
    values, _ = measure_values(tables, [measure], index, alpha, "propagate")
    null_values = values[measure]
    defined = null_values[~np.isnan(null_values)]
    # ties of the observed table with a permuted one must count as "as extreme" although
    # the two were computed in different orders: allow a few units in the last place
    tolerance = 1e-12 * max(1.0, abs(observed))
    greater = (1.0 + float(np.count_nonzero(defined >= observed - tolerance))) / (
        1.0 + defined.size
    )
    less = (1.0 + float(np.count_nonzero(defined <= observed + tolerance))) / (1.0 + defined.size)
    pvalue: float
    if alternative == "greater":
        pvalue = greater
    elif alternative == "less":
        pvalue = less
    else:
        pvalue = min(1.0, 2.0 * min(greater, less))
    null_values.setflags(write=False)
    return Significance(
        observed,
        float(pvalue),
        "permutation",
        null,
        estimate=observed,
        details={
            "permutations": float(permutations),
            "undefined": float(null_values.size - defined.size),
        },
        null_distribution=null_values,
    )
