"""Analytic intervals of proportions: Wilson and Clopper-Pearson, of counts or of a Table.

References
----------
Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
inference. J. Amer. Statist. Assoc. 22(158):209-212.
Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
illustrated in the case of the binomial. Biometrika 26(4):404-413.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from scipy import special, stats

from informed._common import check_choice
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_level, check_table
from informed.inference.interval import Interval, nan_interval
from informed.measures import MEASURES, margins, measure_name, undefined_reason
from informed.table.table import Table

__all__ = [
    "PROPORTIONS",
    "clopper_pearson_interval",
    "proportion_interval",
    "wilson_interval",
]

PROPORTION_METHODS = ("wilson", "clopper-pearson")

PROPORTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    name: measure.proportion for name, measure in MEASURES.items() if measure.proportion is not None
}
"""Registry name -> (numerator cells, denominator cells) of the measures that are
proportions of a 2x2 view (`Measure.proportion` in the registry)."""


def _check_proportion(successes: Any, trials: Any) -> tuple[float, float]:
    values = []
    for name, value in (("successes", successes), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
            msg = f"`{name}` must be a number; got {value!r}."
            raise InputTypeError(msg)
        if not math.isfinite(float(value)) or float(value) < 0:
            msg = f"`{name}` must be finite and non-negative; got {value!r}."
            raise InputError(msg)
        values.append(float(value))
    if values[0] > values[1]:
        msg = f"`successes` ({successes!r}) cannot exceed `trials` ({trials!r})."
        raise InputError(msg)
    return values[0], values[1]


def wilson_interval(successes: float, trials: float, *, level: float = 0.95) -> Interval:
    r"""Wilson's score interval for a binomial proportion x / n.

    With z = Phi^-1((1 + level) / 2)::

        center = (x + z^2 / 2) / (n + z^2)
        half   = z sqrt(x (n - x) / n + z^2 / 4) / (n + z^2)

    the interval is [center - half, center + half], clamped to [0, 1] against rounding.
    It inverts the score test, so it never leaves [0, 1] and stays sensible at x = 0 or
    x = n, where the Wald interval collapses. nan with a reason when n = 0.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
    inference. J. Amer. Statist. Assoc. 22(158):209-212.

    >>> interval = wilson_interval(0, 10)
    >>> interval.low, round(interval.high, 4)  # x = 0: high = z^2 / (n + z^2)
    (0.0, 0.2775)
    """
    x, n = _check_proportion(successes, trials)
    level = check_level(level)
    if n == 0:
        return nan_interval(math.nan, level, "wilson", "no trials (the denominator is 0)")
    z = float(special.ndtri((1.0 + level) / 2.0))
    center = (x + z * z / 2.0) / (n + z * z)
    half = z * math.sqrt(x * (n - x) / n + z * z / 4.0) / (n + z * z)
    low, high = max(center - half, 0.0), min(center + half, 1.0)
    return Interval(x / n, low, high, level, "wilson")


def clopper_pearson_interval(successes: float, trials: float, *, level: float = 0.95) -> Interval:
    r"""The Clopper-Pearson ("exact") interval for a binomial proportion x / n.

    With a = 1 - level, the bounds are the beta quantiles::

        low  = B^-1(a / 2; x, n - x + 1)      (0 when x = 0)
        high = B^-1(1 - a / 2; x + 1, n - x)  (1 when x = n)

    the values of p at which the binomial tail probabilities of x equal a / 2. Its
    coverage is at least `level` for every p, at the cost of width. nan when n = 0.

    References
    ----------
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. Biometrika 26(4):404-413.

    >>> interval = clopper_pearson_interval(0, 10)
    >>> interval.low, round(interval.high, 4)  # x = 0: high = 1 - 0.025^(1/10)
    (0.0, 0.3085)
    """
    x, n = _check_proportion(successes, trials)
    level = check_level(level)
    if n == 0:
        return nan_interval(math.nan, level, "clopper-pearson", "no trials (the denominator is 0)")
    tail = (1.0 - level) / 2.0
    low = 0.0 if x == 0 else float(stats.beta.ppf(tail, x, n - x + 1))
    high = 1.0 if x == n else float(stats.beta.isf(tail, x + 1, n - x))
    return Interval(x / n, low, high, level, "clopper-pearson")


def proportion_interval(
    table: Table,
    measure: str,
    *,
    positive: Any = None,
    level: float = 0.95,
    method: Literal["wilson", "clopper-pearson"] = "wilson",
) -> Interval:
    """Wilson or Clopper-Pearson interval of a measure that is a proportion of counts.

    The proportions (`PROPORTIONS`) and their numerator / denominator cells of the
    one-vs-rest view of `positive`: recall tp/(tp+fn), miss_rate fn/(tp+fn), precision
    tp/(tp+fp), inverse_recall tn/(fp+tn), fallout fp/(fp+tn), inverse_precision
    tn/(fn+tn), accuracy (tp+tn)/N, error (fp+fn)/N. Without `positive`, accuracy and
    error are trace / N and 1 - trace / N of the whole table (as `evaluate` gives them);
    the others are then macro averages over labels, not proportions, and need
    `positive=` (or `bootstrap`).

    Weighted tables are treated as frequency counts (the weights as numbers of cases).
    A denominator of 0 gives a nan interval with the reason.

    >>> table = Table.binary(tp=12, fp=28, fn=18, tn=42)
    >>> interval = proportion_interval(table, "recall", positive="+")
    >>> interval.estimate, round(interval.low, 4), round(interval.high, 4)  # = statsmodels
    (0.4, 0.2459, 0.5768)
    """
    table = check_table(table)
    measure = measure_name(measure, among=PROPORTIONS)  # any of its names: "tpr", "ppv"
    check_choice(method, PROPORTION_METHODS, "method")
    level = check_level(level)
    function = wilson_interval if method == "wilson" else clopper_pearson_interval
    if positive is None:
        if measure not in ("accuracy", "error"):
            msg = (
                f"{measure} of a table without `positive=` is the macro average over labels, "
                f"not a proportion; pass positive= (one of {list(table.labels)}) or use "
                "bootstrap()."
            )
            raise InputError(msg)
        m = margins(table.square_cells()[1])  # the diagonal and N, however stored
        total = float(m.total)
        right = float(m.diagonal.sum())
        if total == 0:
            return nan_interval(math.nan, level, method, "no data (N = 0)")
        return function(right if measure == "accuracy" else total - right, total, level=level)
    if not table.labels or table.n == 0:
        return nan_interval(math.nan, level, method, "no data (N = 0)")
    view = table.one_vs_rest(positive)
    named = {"tp": view.tp, "fp": view.fp, "fn": view.fn, "tn": view.tn}
    top, bottom = PROPORTIONS[measure]
    successes = sum(named[cell] for cell in top)
    trials = sum(named[cell] for cell in bottom)
    if trials == 0:
        why = undefined_reason(MEASURES[measure], view.counts) or "the denominator is 0"
        return nan_interval(math.nan, level, method, why)
    return function(successes, trials, level=level)
