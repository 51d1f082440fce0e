"""DeLong's interval for the AUC of a Ranking, and his paired test of two classifiers' AUCs.

DeLong's variance of the AUC is computed from the Ranking's tie groups: every positive of
a group has the same placement among the negatives, so the structural components need
one pass over the groups, O(groups): no loop over positive-negative pairs, and every
count is a float64, so no product such as n+ n- can overflow at any n (a fast
implementation that overflowed collapsed the interval to [1, 1] at n of about 145,000).
A class with a single case has no sample variance and gives a nan interval with the
reason, and the AUC is clamped to [0, 1] against rounding. Two classifiers scored on the
same cases are compared by DeLong's paired test, computed from midranks in O(n log n)
(Sun & Xu 2014).

References
----------
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under two
or more correlated receiver operating characteristic curves: a nonparametric approach.
Biometrics 44(3):837-845.
Sun, X. & Xu, W. (2014). Fast implementation of DeLong's algorithm for comparing the areas
under correlated receiver operating characteristic curves. IEEE Signal Process. Lett.
21(11):1389-1393.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice
from informed.errors import InputError, InputTypeError, at_row
from informed.inference.checks import check_level, check_ranking
from informed.inference.interval import (
    Interval,
    logistic,
    nan_interval,
    normal_cdf,
    normal_quantile,
)
from informed.inference.significance import Significance
from informed.ranking import Ranking, auc
from informed.ranking import undefined_reason as ranking_reason

__all__ = ["delong_interval", "delong_test"]

Floats = NDArray[np.float64]


def _group_placements(positives: Floats, negatives: Floats) -> tuple[Floats, Floats]:
    """Placements of each tie group (scores descending): (V10_g, V01_g).

    A positive in group g is placed above the negatives below g and half of those tied
    with it: V10_g = (negatives below g + k_g / 2) / n-; a negative in g is placed below
    the positives above g and half of those tied: V01_g = (positives above g + m_g / 2)
    / n+. (These are Sun & Xu's midrank differences, R - R+ and R - R-, per group.)
    """
    n_pos = float(positives.sum())
    n_neg = float(negatives.sum())
    below = n_neg - np.cumsum(negatives)
    above = np.cumsum(positives) - positives
    return (below + negatives / 2.0) / n_neg, (above + positives / 2.0) / n_pos


def _group_components(
    positives: Floats, negatives: Floats
) -> tuple[float, float, float, float, float]:
    """(AUC, S10, S01, n+, n-) from tie groups in descending score order.

    AUC = sum_g m_g V10_g / n+, S10 = sum_g m_g (V10_g - AUC)^2 / (n+ - 1) and
    S01 = sum_g k_g (V01_g - AUC)^2 / (n- - 1); nan where a class has fewer than 2 cases.
    Everything is float64: no count product can overflow.
    """
    n_pos = float(positives.sum())
    n_neg = float(negatives.sum())
    v10, v01 = _group_placements(positives, negatives)
    area = float(np.sum(positives * v10) / n_pos)
    s10 = float(np.sum(positives * (v10 - area) ** 2) / (n_pos - 1.0)) if n_pos > 1 else math.nan
    s01 = float(np.sum(negatives * (v01 - area) ** 2) / (n_neg - 1.0)) if n_neg > 1 else math.nan
    return area, s10, s01, n_pos, n_neg


def _normal_interval(
    estimate: float, se: float, level: float, method: str, low: float, high: float
) -> tuple[float, float]:
    z = float(normal_quantile((1.0 + level) / 2.0))
    if method == "logit":
        centre = math.log(estimate / (1.0 - estimate))
        spread = z * se / (estimate * (1.0 - estimate))
        return logistic(centre - spread), logistic(centre + spread)
    return max(estimate - z * se, low), min(estimate + z * se, high)


def delong_interval(
    ranking: Ranking,
    *,
    level: float = 0.95,
    method: Literal["logit", "plain"] = "logit",
) -> Interval:
    r"""DeLong's confidence interval for the AUC of a Ranking.

    With placements V10 of each positive among the negatives and V01 of each negative
    among the positives (ties counting one half, the Mann-Whitney kernel),
    Var(AUC) = S10 / n+ + S01 / n-, S10 and S01 their sample variances (the structural
    components of DeLong et al. 1988). Computed per tie group: O(groups), no overflow.

    Parameters
    ----------
    ranking : Ranking
        Weighted rankings are read as frequency weights.
    level : float
        Nominal coverage.
    method : {"logit", "plain"}
        "logit" (default): AUC ± z se on the logit scale, se_logit = se / (AUC (1 - AUC)),
        transformed back; it stays inside (0, 1) and covers better near 0 and 1 (Pepe
        2003). "plain": AUC ± z se, clamped to [0, 1] (pROC's default).

    Returns
    -------
    Interval
        method "delong-logit" or "delong", with `standard_error`. nan with a reason
        without positives or negatives, or with a single positive or negative (its class
        has no sample variance, so the variance cannot be estimated: use more data, or
        `bootstrap_ranking`). Where the estimated variance is 0 (perfect separation, or
        every score tied) the interval is [AUC, AUC], with that caveat in `reason`.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas
    under two or more correlated receiver operating characteristic curves: a
    nonparametric approach. Biometrics 44(3):837-845.
    Pepe, M. S. (2003). The Statistical Evaluation of Medical Tests for Classification
    and Prediction. Oxford University Press.

    >>> r = Ranking.from_scores(actual=[1, 1, 0, 1, 0, 0], scores=[6, 5, 4, 3, 2, 1],
    ...                         positive=1)
    >>> interval = delong_interval(r, method="plain")
    >>> round(interval.estimate, 6), round(interval.standard_error, 6)  # 8/9, sqrt(2)/9
    (0.888889, 0.157135)
    """
    ranking = check_ranking(ranking)
    level = check_level(level)
    method = check_choice(method, ("logit", "plain"), "method")
    return _interval_of(ranking, level, method, None)


def _interval_of(
    ranking: Ranking,
    level: float,
    method: str,
    components: tuple[float, float, float, float] | None,
) -> Interval:
    """`delong_interval` of a checked Ranking, from its (S10, S01, n+, n-) when they are
    computed already (every slice's at once: `informed.inference.slice_rest`)."""
    name = "delong-logit" if method == "logit" else "delong"
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        return nan_interval(math.nan, level, name, ranking_reason(ranking, "auc") or "undefined")
    estimate = min(max(float(auc(ranking)), 0.0), 1.0)
    if components is None:
        positives = np.asarray(ranking.positives, dtype=np.float64)
        negatives = np.asarray(ranking.negatives, dtype=np.float64)
        components = _group_components(positives, negatives)[1:]
    s10, s01, n_pos, n_neg = components
    if math.isnan(s10) or math.isnan(s01):
        which = "positive" if math.isnan(s10) else "negative"
        why = (
            f"a single actual {which}: its placement has no sample variance, so DeLong's "
            "variance cannot be estimated; use bootstrap_ranking or more data"
        )
        return nan_interval(estimate, level, name, why)
    variance = max(s10 / n_pos + s01 / n_neg, 0.0)
    se = math.sqrt(variance)
    if se == 0.0:
        return Interval(
            estimate,
            estimate,
            estimate,
            level,
            name,
            standard_error=0.0,
            reason="the estimated variance is 0 (perfect separation or every score tied): "
            "the interval is degenerate",
        )
    low, high = _normal_interval(estimate, se, level, method, 0.0, 1.0)
    return Interval(estimate, low, high, level, name, standard_error=se)


def _binary_actual(actual: Any) -> NDArray[np.bool_]:
    array = np.asarray(actual)
    if array.ndim != 1:
        msg = f"`actual` must be one-dimensional; got shape {array.shape}."
        raise InputError(msg)
    if array.dtype.kind == "b":
        return np.asarray(array, dtype=np.bool_)
    if array.dtype.kind not in "iuf":
        msg = f"`actual` must hold 0/1 or booleans (1 = positive); got dtype {array.dtype}."
        raise InputTypeError(msg)
    bad = ~np.isin(array, (0, 1))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        msg = (
            "`actual` must hold 0/1 or booleans (1 = positive); "
            f"got {array[row]!r} at {at_row(row)}."
        )
        raise InputError(msg)
    return np.asarray(array == 1, dtype=np.bool_)


def _scores(values: Any, name: str, size: int) -> Floats:
    array = np.asarray(values)
    if array.ndim != 1 or array.dtype.kind not in "biuf":
        msg = (
            f"`{name}` must be a one-dimensional array of numbers; got {array.dtype} {array.shape}."
        )
        raise InputTypeError(msg)
    if array.shape[0] != size:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {size}, {name} {array.shape[0]}."
        )
        raise InputError(msg)
    scores = array.astype(np.float64)
    bad = ~np.isfinite(scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        msg = f"`{name}` holds {scores[row]!r} at {at_row(row)}; scores must be finite."
        raise InputError(msg)
    return scores


def _placements(is_positive: NDArray[np.bool_], scores: Floats) -> tuple[Floats, Floats]:
    """Per-case placements (V10 of each positive, V01 of each negative, in row order).

    One sort of the scores gives the tie groups; each group's placements follow from the
    cumulative class counts (`_group_placements`), as Sun & Xu (2014) obtain them from
    midranks, and are handed back to the cases of the group. O(n log n).
    """
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    starts = np.empty(ordered.size, dtype=bool)
    starts[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    group = np.cumsum(starts) - 1
    groups = int(group[-1]) + 1 if group.size else 0
    positive_sorted = is_positive[order]
    positives = np.bincount(group, weights=positive_sorted, minlength=groups).astype(np.float64)
    negatives = np.bincount(group, weights=~positive_sorted, minlength=groups).astype(np.float64)
    v10_group, v01_group = _group_placements(positives, negatives)
    case_group = np.empty(scores.size, dtype=np.intp)
    case_group[order] = group
    return v10_group[case_group[is_positive]], v01_group[case_group[~is_positive]]


def delong_test(
    actual: Any,
    first: Any,
    second: Any,
    *,
    level: float = 0.95,
) -> Significance:
    r"""DeLong's test that two classifiers scored on the same cases have equal AUC.

    For each classifier r, the placements V10_r (positives) and V01_r (negatives) are
    computed from one sort of its scores in O(n log n), the midrank method of Sun & Xu
    (2014) applied per tie group. Their 2 x 2 sample covariance
    matrices S10 and S01 give S = S10 / n+ + S01 / n-, and
    z = (AUC_1 - AUC_2) / sqrt(S_11 + S_22 - 2 S_12), two-sided p = 2 Phi(-|z|). The
    pairing enters through S_12: the same cases, so the two AUCs are correlated.

    Parameters
    ----------
    actual : array-like of shape (n,)
        1 (or True) for an actual positive, 0 (or False) for a negative.
    first, second : array-like of shape (n,)
        The two classifiers' scores (higher = more likely positive), finite.
    level : float
        Level of the interval for the difference AUC_1 - AUC_2 (estimate ± z se,
        clamped to [-1, 1]).

    Returns
    -------
    Significance
        method "delong"; statistic z; estimate AUC_1 - AUC_2 with `interval`; details
        "auc_first", "auc_second", "standard_error", "correlation". nan with a reason
        with fewer than two positives or negatives. When the variance of the difference
        is 0: z = 0 and p = 1 if the AUCs are equal (the same ordering of the cases),
        nan otherwise.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Biometrics 44(3):837-845.
    Sun, X. & Xu, W. (2014). IEEE Signal Process. Lett. 21(11):1389-1393.

    >>> result = delong_test([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1], [1, 2, 3, 4, 5, 6])
    >>> round(result.estimate, 6), round(result.statistic, 4)  # 7/9, 7 / (2 sqrt(2))
    (0.777778, 2.4749)
    """
    positive = _binary_actual(actual)
    level = check_level(level)
    a = _scores(first, "first", positive.size)
    b = _scores(second, "second", positive.size)
    null = "the two classifiers have the same AUC on these cases"
    n_pos = int(np.count_nonzero(positive))
    n_neg = positive.size - n_pos
    if n_pos < 2 or n_neg < 2:
        which = "positives" if n_pos < 2 else "negatives"
        why = f"fewer than two actual {which}: DeLong's variance cannot be estimated"
        return Significance(math.nan, math.nan, "delong", null, reason=why)
    v10_a, v01_a = _placements(positive, a)
    v10_b, v01_b = _placements(positive, b)
    auc_a, auc_b = float(v10_a.mean()), float(v10_b.mean())
    s10 = np.cov(np.vstack([v10_a, v10_b]))
    s01 = np.cov(np.vstack([v01_a, v01_b]))
    s = s10 / n_pos + s01 / n_neg
    variance = max(float(s[0, 0] + s[1, 1] - 2.0 * s[0, 1]), 0.0)
    difference = auc_a - auc_b
    details = {"auc_first": auc_a, "auc_second": auc_b, "standard_error": math.sqrt(variance)}
    product = float(s[0, 0] * s[1, 1])
    details["correlation"] = float(s[0, 1]) / math.sqrt(product) if product > 0 else math.nan
    if variance == 0.0:
        if difference == 0.0:
            return Significance(
                0.0,
                1.0,
                "delong",
                null,
                estimate=0.0,
                interval=Interval(0.0, 0.0, 0.0, level, "delong", standard_error=0.0),
                reason="the variance of the difference is 0 (the same ordering of the cases)",
                details=details,
            )
        why = "the variance of the difference is 0 but the AUCs differ: DeLong's normal "
        why += "approximation does not apply"
        return Significance(
            math.nan, math.nan, "delong", null, estimate=difference, reason=why, details=details
        )
    se = math.sqrt(variance)
    statistic = difference / se
    low, high = _normal_interval(difference, se, level, "plain", -1.0, 1.0)
    return Significance(
        statistic,
        float(2.0 * normal_cdf(-abs(statistic))),
        "delong",
        null,
        estimate=difference,
        interval=Interval(difference, low, high, level, "delong", standard_error=se),
        details=details,
    )
