"""Tests of independence of prediction and actual class in a Table: chi-square and G.

For a 2x2 table the test and informedness meet: Pearson's chi-square is N times
informedness times markedness, chi^2 = N B M = N phi^2 (Powers 2011), so for a fixed B M
significance only grows with N, as Powers' poster "The Bookmaker tests your Edge" says
("multiplying the figures by some large factor whilst retaining the same proportions is
always sufficient to assure significance").

References
----------
Pearson, K. (1900). On the criterion that a given system of deviations from the probable
in the case of a correlated system of variables is such that it can be reasonably
supposed to have arisen from random sampling. Phil. Mag. 5th ser. 50(302):157-175.
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. J. Mach. Learn. Technol. 2(1):37-63.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special, stats

from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_table
from informed.inference.significance import Significance
from informed.table.table import Table

__all__ = ["chi_square_test", "g_test"]

Floats = NDArray[np.float64]

_INDEPENDENCE = "the prediction is independent of the actual class (no association)"


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

    chi^2 = sum_{l,c} (O_lc - E_lc)^2 / E_lc with E_lc = ``n_l. n_.c`` / N, referred to the
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
