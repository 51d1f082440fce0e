"""Tests of the difference of two models across cross-validation folds.

Each test reads the per-fold differences d_j = measure(b on fold j) - measure(a on fold j)
of two models evaluated on the same folds. The folds' training sets overlap, so the d_j
are correlated and their sample variance under-states the variance of their mean: the
naive paired t-test across folds (`naive_ttest`, kept for contrast) is too confident.

* `corrected_ttest`: Nadeau & Bengio's corrected resampled t-test;
* `paired_ttest_5x2cv`: Dietterich's 5x2cv paired t-test;
* `combined_ftest_5x2cv`: Alpaydin's combined 5x2cv F test.

References
----------
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine
Learning 52(3):239-281.
Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
classification learning algorithms. Neural Computation 10(7):1895-1923.
Alpaydin, E. (1999). Combined 5 x 2 cv F test for comparing supervised classification
learning algorithms. Neural Computation 11(8):1885-1892.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from informed.inference.interval import Interval, nan_interval
from informed.inference.significance import Significance

__all__ = ["combined_ftest_5x2cv", "corrected_ttest", "naive_ttest", "paired_ttest_5x2cv"]

Floats = NDArray[np.float64]

_NULL = "the two models have the same expected {measure} (trained on sets of this size)"


def _undefined(method: str, measure: str, reason: str, level: float | None = None) -> Significance:
    interval = None if level is None else nan_interval(math.nan, level, method, reason)
    return Significance(
        math.nan, math.nan, method, _NULL.format(measure=measure), interval=interval, reason=reason
    )


def _undefined_in(measure: str, where: int) -> str:
    """Why a test has no value: a difference is NaN (the differences alone do not say
    whose measure was undefined; `compare_folds` names the model)."""
    return f"{measure} is undefined in fold {where} (of one model or both)"


def _checked(differences: Any, measure: str, method: str) -> tuple[Floats, str | None]:
    d = np.asarray(differences, dtype=np.float64)
    if np.isnan(d).any():
        where = int(np.flatnonzero(np.isnan(d).reshape(-1))[0]) + 1
        return d, _undefined_in(measure, where)
    if d.size < 2:
        return d, f"{method} needs at least two folds; got {d.size}"
    return d, None


def corrected_ttest(
    differences: Any,
    test: Any,
    train: Any,
    *,
    level: float = 0.95,
    measure: str = "the measure",
) -> Significance:
    r"""Nadeau & Bengio's corrected resampled t-test of the mean per-fold difference.

    With J per-fold differences d_j, their mean dbar and sample variance
    s^2 = sum_j (d_j - dbar)^2 / (J - 1), and n_test / n_train the ratio of the mean
    test-set size to the mean training-set size::

        t = dbar / sqrt((1/J + n_test/n_train) * s^2),   t ~ Student t with J - 1 df

    and the interval dbar -+ t_{J-1, (1+level)/2} * sqrt((1/J + n_test/n_train) s^2).
    The naive paired t-test uses 1/J alone; the term n_test/n_train accounts for the
    correlation of folds trained on overlapping sets (Nadeau & Bengio 2003, eq. for
    the corrected resampled t; for repeated k-fold, Bouckaert & Frank 2004). Its
    p-value is two-sided.

    >>> r = corrected_ttest([0.02, 0.05, 0.01, 0.04, 0.03], [20] * 5, [80] * 5)
    >>> round(r.statistic ** 2, 12), r.df  # 0.03^2 / ((1/5 + 1/4) * 0.00025) = 8
    (8.0, 4.0)
    """
    d, reason = _checked(differences, measure, "the corrected t-test")
    method = "corrected-t"
    if reason is not None:
        return _undefined(method, measure, reason, level)
    sizes = np.asarray(train, dtype=np.float64)
    if (sizes <= 0).any():  # a repeat of one fold: trained on nothing, no correction
        where = int(np.flatnonzero(sizes <= 0)[0]) + 1
        why = f"fold {where} has no training cases (its repeat has one fold): no n_test/n_train"
        return _undefined(method, measure, why, level)
    n_test = float(np.mean(np.asarray(test, dtype=np.float64)))
    n_train = float(np.mean(sizes))
    J = d.size
    return _t(d, (1.0 / J + n_test / n_train) * float(d.var(ddof=1)), J - 1, level, method, measure)


def naive_ttest(
    differences: Any, *, level: float = 0.95, measure: str = "the measure"
) -> Significance:
    """The paired t-test across folds as if the folds were independent samples:
    t = dbar / sqrt(s^2 / J) with J - 1 df. Too confident for cross-validation (its
    folds share training cases); shown beside `corrected_ttest` for contrast only."""
    d, reason = _checked(differences, measure, "the paired t-test")
    method = "naive-t"
    if reason is not None:
        return _undefined(method, measure, reason, level)
    return _t(d, float(d.var(ddof=1)) / d.size, d.size - 1, level, method, measure)


def _t(
    d: Floats, variance: float, df: int, level: float, method: str, measure: str
) -> Significance:
    mean = float(d.mean())
    if (d == d[0]).all():  # exactly: var of equal values can round to 1e-34, not 0
        return _undefined(method, measure, "the per-fold differences do not vary", level)
    se = math.sqrt(variance)
    t = mean / se
    half = float(stats.t.ppf(0.5 + level / 2, df)) * se
    interval = Interval(mean, mean - half, mean + half, level, method, standard_error=se)
    return Significance(
        t,
        float(2 * stats.t.sf(abs(t), df)),
        method,
        _NULL.format(measure=measure),
        df=float(df),
        estimate=mean,
        interval=interval,
        details={"folds": float(d.size), "std": float(d.std(ddof=1))},
    )


def _five_by_two(differences: Any, measure: str, method: str) -> tuple[Floats, str | None]:
    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 2 or d.shape[1] != 2 or d.shape[0] < 2:
        shape = "x".join(map(str, d.shape))
        return d, f"{method} needs repeats of two folds (5x2 cross-validation); got {shape}"
    if np.isnan(d).any():
        return d, _undefined_in(measure, int(np.flatnonzero(np.isnan(d).reshape(-1))[0]) + 1)
    return d, None


def paired_ttest_5x2cv(differences: Any, *, measure: str = "the measure") -> Significance:
    r"""Dietterich's 5x2cv paired t-test, on the differences[r, 2] of r = 5 repeats of
    two-fold cross-validation (fold 1 of each repeat first).

    With p_i^(j) the difference on fold j of repeat i, pbar_i their mean in repeat i and
    s_i^2 = (p_i^(1) - pbar_i)^2 + (p_i^(2) - pbar_i)^2::

        t = p_1^(1) / sqrt(sum_i s_i^2 / r),   t ~ Student t with r df (5 for 5x2cv)

    (Dietterich 1998); the p-value is two-sided. Other r than 5 keep the same argument
    (each s_i^2 / sigma^2 a chi-square of one df) with r degrees of freedom.
    """
    d, reason = _five_by_two(differences, measure, "the 5x2cv t-test")
    if reason is not None:
        return _undefined("5x2cv-t", measure, reason)
    r = d.shape[0]
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if (d[:, 0] == d[:, 1]).all():
        return _undefined("5x2cv-t", measure, "the per-fold differences do not vary")
    t = float(d[0, 0]) / math.sqrt(float(s2.sum()) / r)
    return Significance(
        t,
        float(2 * stats.t.sf(abs(t), r)),
        "5x2cv-t",
        _NULL.format(measure=measure),
        df=float(r),
        estimate=float(d.mean()),
        details={"repeats": float(r)},
    )


def combined_ftest_5x2cv(differences: Any, *, measure: str = "the measure") -> Significance:
    r"""Alpaydin's combined 5x2cv F test on the differences[r, 2] of r = 5 repeats of
    two-fold cross-validation::

        f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2),   f ~ F(2r, r) (F(10, 5) for 5x2cv)

    with s_i^2 as in `paired_ttest_5x2cv` (Alpaydin 1999); it does not depend on which
    fold comes first, and is more robust than the t-test. The p-value is the upper tail.
    """
    d, reason = _five_by_two(differences, measure, "the 5x2cv F test")
    if reason is not None:
        return _undefined("5x2cv-f", measure, reason)
    r = d.shape[0]
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if (d[:, 0] == d[:, 1]).all():
        return _undefined("5x2cv-f", measure, "the per-fold differences do not vary")
    f = float((d**2).sum()) / (2 * float(s2.sum()))
    return Significance(
        f,
        float(stats.f.sf(f, 2 * r, r)),
        "5x2cv-f",
        _NULL.format(measure=measure),
        df=float(2 * r),
        estimate=float(d.mean()),
        details={"repeats": float(r), "df2": float(r)},
    )
