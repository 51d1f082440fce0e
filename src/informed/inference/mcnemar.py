"""McNemar's test of two classifiers on the same cases, and their paired correctness.

References
----------
McNemar, Q. (1947). Note on the sampling error of the difference between correlated
proportions or percentages. Psychometrika 12(2):153-157.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from informed._common import check_choice
from informed.coding.labels import as_vector, code_labels, keyed, label_kind
from informed.errors import InputError, InputTypeError
from informed.inference.display import paired_html
from informed.inference.significance import Significance

__all__ = ["PairedCorrectness", "mcnemar", "paired_correctness"]


@dataclass(frozen=True)
class PairedCorrectness:
    """Two classifiers on the same cases: how often each was right.

    The paired correctness table (rows: first right / wrong, columns: second right /
    wrong); McNemar's test reads only its discordant cells, `first_only` (b) and
    `second_only` (c). Built from correctness, never from the raw predictions: a table
    of the two classifiers' predicted labels against each other is not McNemar's table.
    """

    both_right: int
    first_only: int
    second_only: int
    both_wrong: int

    def _repr_html_(self) -> str:
        """A notebook's view: the 2x2 table of right and wrong, the discordant cells named."""
        return paired_html(self.both_right, self.first_only, self.second_only, self.both_wrong)

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
    position = {keyed(x): i for i, x in enumerate(actual_labels)}
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
        mapped = np.array([position.get(keyed(x), -1) for x in labels], dtype=np.intp)
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
    agree. The Hugging Face evaluate card writes the statistic with misplaced parentheses,
    `(SE - SP)**2 / SE + SP` for (b - c)^2 / (b + c), b and c the discordant counts.

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
