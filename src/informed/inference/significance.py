"""The result of every significance test on the summaries: a statistic and its p-value.

Informedness says how much better than chance a classifier is, whatever the sample size;
a test says whether the sample is large enough to tell it from chance (Powers, "The
Bookmaker tests your Edge", poster: "some kind of significance test or validation should
also be performed"). Every test of `informed.inference` reads a summary (a Table, a
Ranking, or the discordant counts of two classifiers), never the rows, and returns a
Significance: the tests of independence (`independence`), McNemar's test (`mcnemar`),
the permutation test (`permutation`) and DeLong's test (`delong`). `holm` adjusts the
p-values of several tests (Holm, S. (1979). Scand. J. Statist. 6(2):65-70).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from informed.inference.display import significance_html, significance_repr
from informed.inference.interval import Interval

__all__ = ["Significance", "holm"]

Floats = NDArray[np.float64]


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

    def __repr__(self) -> str:
        """One line: the test, its statistic and degrees of freedom, the p-value."""
        return significance_repr(self.method, self.statistic, self.pvalue, self.df, self.reason)

    def _repr_html_(self) -> str:
        """A notebook's view: what was tested, the numbers of the test, its interval."""
        values = {
            "statistic": self.statistic,
            "p-value": self.pvalue,
            "df": self.df,
            "estimate": self.estimate,
        }
        return significance_html(
            self.method, self.null, values, self.details, self.interval, self.reason
        )


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (nan stays nan and is not counted).

    The i-th smallest of m p-values is multiplied by m - i + 1 (i from 1); each adjusted
    value is at least the one before it, and at most 1. It controls the family-wise
    error rate without assuming independence (Holm 1979).

    >>> [round(p, 12) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    values = np.asarray(pvalues, dtype=np.float64)
    out = np.full(values.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(values))
    order = defined[np.argsort(values[defined], kind="stable")]
    m = order.size
    running = 0.0
    for i, k in enumerate(order):
        running = max(running, min(1.0, (m - i) * float(values[k])))
        out[k] = running
    return [float(v) for v in out]
