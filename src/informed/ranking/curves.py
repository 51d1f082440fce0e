"""Curves of a Ranking, exact under ties: precision and recall, ROC and its hull, quota curves.

Every function here is a pure function of a `Ranking` (tie groups with their counts),
vectorised over the groups: no loop over rows, and no loop over groups except in the
convex hull's rare fallback. The summaries (AUC, PEM, averages) are in
`informed.ranking`, which shares the machinery below (`Groups`, `locate`, ...).
The quota curves follow Arbel & Rokach (seed 004):

* positions k = 1..n are the rows in descending order of score. A tie group of m1 rows
  with m2 positives gives each of its positions t[k] = m2/m1 (eq. 5), so every cumulative
  curve is linear inside a group and no result depends on the input order;
* the cumulative number of positives in the top x positions, C(x) = sum_{k<=x} t[k], is
  evaluated at any real quota 0 <= x <= n (a group cut by the quota contributes the
  fraction of it that lies inside);
* hit_rate(j) = C(j)/j (eq. 4), qrecall(j) = C(j)/n+ (eq. 6), lift(j) = hit_rate(j)/(n+/n).

With weights, a row of weight w occupies w positions (frequency weights): integer weights
give exactly the results of repeated rows, and the curves extend linearly to non-integer
weights.

References
----------
Arbel, R. & Rokach, L. Classifier evaluation under limited resources (seed 004).
Provost, F. & Fawcett, T. (2001). Robust classification for imprecise environments.
Machine Learning 42(3):203-231.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError

if TYPE_CHECKING:
    from informed.ranking.ranking import Ranking

__all__ = [
    "LiftTable",
    "RocCurve",
    "hit_rate",
    "lift",
    "lift_table",
    "optimal_qrecall",
    "pearson",
    "precision_at",
    "qrecall",
    "random_qrecall",
    "recall_at",
    "roc_convex_hull",
    "roc_curve",
    "threshold_at",
]

FloatArray = NDArray[np.float64]
CountArray = NDArray[np.int64] | NDArray[np.float64]
Quotas = Sequence[float] | NDArray[Any]
Rule = Literal[">", ">="]

# The convex hull drops concave points in vectorised passes; after this many, it
# finishes the (adversarial) remainder with a sequential monotone chain.
_HULL_PASSES = 64


# -- shared machinery ------------------------------------------------------------------


class Groups(NamedTuple):
    """Per-group arrays (length U), cumulative counts (length U + 1) and totals of a Ranking.

    Cumulative sums are float64: exact for integer counts below 2**53 rows, so the curves
    share these arrays whatever the weight mode.
    """

    positives: CountArray  # m2 (the Ranking's own array: int64 or float64)
    negatives: CountArray  # m1 - m2
    size: FloatArray  # m1
    start: FloatArray  # c: positions before the group
    positives_before: FloatArray  # P: positives before the group
    cumulative_positives: FloatArray  # length U + 1, from 0
    cumulative_negatives: FloatArray  # length U + 1, from 0
    cumulative_total: FloatArray  # length U + 1, from 0; group ends are [1:]
    n: float
    n_positive: float
    n_negative: float


def build_groups(ranking: Ranking) -> Groups:
    """The float64 group arrays of a Ranking (cached on it as `Ranking._groups`)."""
    cumulative_positives = np.zeros(ranking.n_groups + 1)
    cumulative_negatives = np.zeros(ranking.n_groups + 1)
    np.cumsum(ranking.positives, dtype=np.float64, out=cumulative_positives[1:])
    np.cumsum(ranking.negatives, dtype=np.float64, out=cumulative_negatives[1:])
    total = cumulative_positives + cumulative_negatives
    return Groups(
        positives=ranking.positives,
        negatives=ranking.negatives,
        size=np.diff(total),
        start=total[:-1],
        positives_before=cumulative_positives[:-1],
        cumulative_positives=cumulative_positives,
        cumulative_negatives=cumulative_negatives,
        cumulative_total=total,
        n=float(total[-1]),
        n_positive=float(cumulative_positives[-1]),
        n_negative=float(cumulative_negatives[-1]),
    )


def groups_of(ranking: Ranking) -> Groups:
    return ranking._groups


def ratio(numerator: Any, denominator: Any) -> FloatArray:
    """numerator / denominator elementwise; NaN where the denominator is zero."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, numerator / denominator, np.nan)


def quota_array(ranking: Ranking, quota: float | Quotas) -> tuple[FloatArray, bool]:
    """Quotas as a float64 array, each checked to lie in [0, n]; and whether a scalar came."""
    if isinstance(quota, str | bytes):
        msg = f"`quota` must be a number of instances or an array of them; got {quota!r}."
        raise InputTypeError(msg)
    try:
        values = np.asarray(quota, dtype=np.float64)
    except (TypeError, ValueError) as error:
        msg = f"`quota` must be a number of instances or an array of them; got {quota!r}."
        raise InputTypeError(msg) from error
    n = float(ranking.n)
    bad = ~((values >= 0) & (values <= n))
    if bad.any():
        value = float(values[bad].flat[0])
        msg = f"`quota` must lie between 0 and n = {ranking.n}; got {value!r}."
        raise InputError(msg)
    return values, values.ndim == 0


@overload
def as_result(values: FloatArray, scalar: Literal[True]) -> float: ...
@overload
def as_result(values: FloatArray, scalar: bool) -> float | FloatArray: ...
def as_result(values: FloatArray, scalar: bool) -> float | FloatArray:
    return float(values) if scalar else values


class Located(NamedTuple):
    """Where quotas x fall: group index g (clipped), c = start of g, q = x - c in [0, m1]."""

    group: NDArray[np.intp]
    start: FloatArray
    inside: FloatArray


def locate(groups: Groups, x: FloatArray) -> Located:
    ends = groups.cumulative_total[1:]
    group = np.minimum(np.searchsorted(ends, x, side="left"), max(ends.size - 1, 0))
    start = groups.cumulative_total[group]
    return Located(group, start, x - start)


def cumulative_positives(groups: Groups, x: FloatArray) -> FloatArray:
    """C(x) = sum_{k<=x} t[k]: positives before the group plus its pro-rata share."""
    if groups.size.size == 0:
        return np.zeros_like(x)
    where = locate(groups, x)
    share = where.inside / groups.size[where.group]
    return groups.positives_before[where.group] + groups.positives[where.group] * share


def _positives_between(groups: Groups, low: FloatArray, high: FloatArray) -> FloatArray:
    """sum_{low < k <= high} t[k], summed part by part (not as a difference of C)."""
    if groups.size.size == 0:
        return np.zeros_like(high)
    first = locate(groups, low)
    last = locate(groups, high)
    positives, size = groups.positives, groups.size
    ends = groups.cumulative_total[1:]
    head = positives[first.group] * (ends[first.group] - low) / size[first.group]
    middle = groups.cumulative_positives[last.group] - groups.cumulative_positives[first.group + 1]
    tail = positives[last.group] * last.inside / size[last.group]
    within = positives[last.group] * (high - low) / size[last.group]
    return np.where(first.group == last.group, within, head + middle + tail)


# -- threshold curves ------------------------------------------------------------------


def _predicted(
    ranking: Ranking, threshold: float | Quotas, rule: str
) -> tuple[Groups, NDArray[np.intp], bool]:
    if rule not in (">", ">="):
        msg = f"`rule` must be '>' (the seed's) or '>='; got {rule!r}."
        raise InputError(msg)
    try:
        values = np.asarray(threshold, dtype=np.float64)
    except (TypeError, ValueError) as error:
        msg = f"`threshold` must be a number or an array of numbers; got {threshold!r}."
        raise InputTypeError(msg) from error
    if np.isnan(values).any():
        msg = "`threshold` must not be NaN."
        raise InputError(msg)
    side: Literal["left", "right"] = "left" if rule == ">" else "right"
    count = np.searchsorted(-ranking.scores, -values, side=side)
    return groups_of(ranking), count, values.ndim == 0


@overload
def precision_at(ranking: Ranking, threshold: float, *, rule: Rule = ">") -> float: ...
@overload
def precision_at(ranking: Ranking, threshold: Quotas, *, rule: Rule = ">") -> FloatArray: ...
def precision_at(
    ranking: Ranking, threshold: float | Quotas, *, rule: Rule = ">"
) -> float | FloatArray:
    """Precision(t): the fraction of actual positives among rows scored above t (eq. 2).

    precision(t) = |{i: score_i > t, y_i positive}| / |{i: score_i > t}|; `rule=">="`
    counts score_i >= t instead. NaN where no row is selected.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1], scores=[.9, .8, .7, .1], positive=1)
    >>> precision_at(r, 0.7), precision_at(r, 0.7, rule=">=")
    (0.5, 0.6666666666666666)
    """
    groups, count, scalar = _predicted(ranking, threshold, rule)
    selected = ratio(groups.cumulative_positives[count], groups.cumulative_total[count])
    return as_result(selected, scalar)


@overload
def recall_at(ranking: Ranking, threshold: float, *, rule: Rule = ">") -> float: ...
@overload
def recall_at(ranking: Ranking, threshold: Quotas, *, rule: Rule = ">") -> FloatArray: ...
def recall_at(
    ranking: Ranking, threshold: float | Quotas, *, rule: Rule = ">"
) -> float | FloatArray:
    """Recall(t): the fraction of actual positives scored above t (eq. 3).

    recall(t) = |{i: score_i > t, y_i positive}| / n+; `rule=">="` counts score_i >= t.
    NaN when there are no actual positives.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1], scores=[.9, .8, .7, .1], positive=1)
    >>> recall_at(r, 0.7), recall_at(r, 0.7, rule=">=")
    (0.3333333333333333, 0.6666666666666666)
    """
    groups, count, scalar = _predicted(ranking, threshold, rule)
    return as_result(ratio(groups.cumulative_positives[count], groups.n_positive), scalar)


@dataclass(frozen=True)
class RocCurve:
    """ROC points (false positive rate, true positive rate) at tie-group boundaries.

    Point i selects the rows with score >= thresholds[i]. Point 0 is (0, 0) with the
    threshold +inf meaning "select nothing" (scikit-learn >= 1.3 uses the same sentinel);
    the last point is (1, 1). `index` gives each point's position in the full curve
    (0 .. n_groups), so hull vertices can be matched to operating points.
    """

    false_positive_rate: FloatArray
    true_positive_rate: FloatArray
    thresholds: FloatArray
    index: NDArray[np.intp]


def roc_curve(ranking: Ranking, *, drop_collinear: bool = False) -> RocCurve:
    """The ROC curve: one point per tie group boundary, from (0, 0) to (1, 1).

    fpr_i = (negatives in groups 1..i)/n-, tpr_i = (positives in groups 1..i)/n+. A tie
    group is one step (a straight segment), never split into order-dependent stairs.

    Parameters
    ----------
    drop_collinear : bool
        Drop points lying exactly on the segment joining their neighbours (tested on the
        counts, so exact for integer counts). Unlike scikit-learn's `drop_intermediate`,
        nothing else is dropped, and nothing is dropped unless asked (PITFALLS P4).

    Notes
    -----
    With no actual negatives every fpr is NaN; with no actual positives every tpr is NaN.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[9, 9, 5, 5], positive=1)
    >>> roc_curve(r).true_positive_rate.tolist(), roc_curve(r).thresholds.tolist()
    ([0.0, 0.5, 1.0], [inf, 9.0, 5.0])
    """
    groups = groups_of(ranking)
    index = np.arange(ranking.n_groups + 1)
    if drop_collinear and index.size > 2:
        keep = np.ones(index.size, dtype=bool)
        keep[1:-1] = _turn(groups) != 0
        index = index[keep]
    return _roc_points(ranking, groups, index)


def _turn(groups: Groups) -> FloatArray:
    """Cross product at each inner ROC point, from the steps of its two groups.

    For points i-1, i, i+1 with steps (dx_i, dy_i) = (negatives, positives) of group i,
    (x_i - x_{i-1})(y_{i+1} - y_{i-1}) - (y_i - y_{i-1})(x_{i+1} - x_{i-1})
    = dx_i dy_{i+1} - dy_i dx_{i+1}: > 0 below the chord, 0 on it, < 0 a convex corner.
    """
    turn = np.multiply(groups.negatives[:-1], groups.positives[1:], dtype=np.float64)
    turn -= np.multiply(groups.positives[:-1], groups.negatives[1:], dtype=np.float64)
    return turn


def _roc_points(ranking: Ranking, groups: Groups, index: NDArray[np.intp]) -> RocCurve:
    full = index.size == ranking.n_groups + 1
    negatives = groups.cumulative_negatives if full else groups.cumulative_negatives[index]
    positives = groups.cumulative_positives if full else groups.cumulative_positives[index]
    thresholds = np.concatenate(([np.inf], ranking.scores))
    return RocCurve(
        false_positive_rate=_rate(negatives, groups.n_negative),
        true_positive_rate=_rate(positives, groups.n_positive),
        thresholds=thresholds if full else thresholds[index],
        index=index,
    )


def _rate(counts: FloatArray, total: float) -> FloatArray:
    return counts / total if total != 0 else np.full(counts.shape, np.nan)


def roc_convex_hull(ranking: Ranking, *, keep_collinear: bool = False) -> RocCurve:
    """The upper convex hull of the ROC points: the potentially optimal classifiers.

    A classifier (threshold) on the hull is optimal for some ratio of misclassification
    costs and class priors; one below it never is (Provost & Fawcett 2001; seed 2.2.2).

    Parameters
    ----------
    keep_collinear : bool
        Also keep points lying exactly on a hull edge (they are optimal too, for the
        slope of that edge). By default only the vertices are returned.

    Notes
    -----
    Vectorised: each pass drops every point on or below the chord of its neighbours,
    which never drops a hull vertex; counts are used, so the test is exact for integer
    counts. Typical curves converge in a few passes; after 64 passes the remainder is
    finished by Andrew's monotone chain (a loop over the remaining groups).

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0, 0], scores=[5, 4, 3, 2, 1], positive=1)
    >>> hull = roc_convex_hull(r)
    >>> hull.index.tolist(), hull.true_positive_rate.tolist()
    ([0, 1, 3, 5], [0.0, 0.5, 1.0, 1.0])
    """
    groups = groups_of(ranking)
    x = groups.cumulative_negatives
    y = groups.cumulative_positives
    index = np.arange(ranking.n_groups + 1)
    if index.size >= 3:
        # The first pass, over every point, from the group steps rather than by gathers.
        turn = _turn(groups)
        keep = np.ones(index.size, dtype=bool)
        keep[1:-1] = turn <= 0 if keep_collinear else turn < 0
        index = np.flatnonzero(keep)
    # Later passes work on compacted copies of the surviving points.
    xs, ys = x[index], y[index]
    for _ in range(_HULL_PASSES):
        if index.size < 3:
            break
        cross = (xs[1:-1] - xs[:-2]) * (ys[2:] - ys[:-2]) - (ys[1:-1] - ys[:-2]) * (
            xs[2:] - xs[:-2]
        )
        drop = cross > 0 if keep_collinear else cross >= 0
        if not drop.any():
            break
        keep = np.ones(index.size, dtype=bool)
        keep[1:-1] = ~drop
        index, xs, ys = index[keep], xs[keep], ys[keep]
    else:
        index = _monotone_chain(x, y, index, keep_collinear=keep_collinear)
    return _roc_points(ranking, groups, index)


def _monotone_chain(
    x: FloatArray, y: FloatArray, index: NDArray[np.intp], *, keep_collinear: bool
) -> NDArray[np.intp]:
    """Andrew's monotone chain (upper hull) over points already sorted by x."""
    hull: list[int] = []
    for point in index.tolist():
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (x[b] - x[a]) * (y[point] - y[a]) - (y[b] - y[a]) * (x[point] - x[a])
            if cross > 0 or (cross == 0 and not keep_collinear):
                hull.pop()
            else:
                break
        hull.append(point)
    return np.array(hull, dtype=np.intp)


# -- quota curves ----------------------------------------------------------------------


@overload
def hit_rate(ranking: Ranking, quota: float) -> float: ...
@overload
def hit_rate(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def hit_rate(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """HitRate(j) = sum_{k<=j} t[k] / j: the expected fraction of positives in the top j.

    Eq. 4 with the tie correction of eq. 5 (a tie group of m1 rows with m2 positives gives
    each position m2/m1). `quota` may be any real 0 <= j <= n, or an array of them; NaN
    at j = 0. HitRate(j) equals Precision(p[j]) when position j is not shared.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> hit_rate(r, [1, 2, 3, 4, 5]).round(3).tolist()  # seed Table 2
    [1.0, 0.5, 0.667, 0.75, 0.6]
    """
    x, scalar = quota_array(ranking, quota)
    return as_result(ratio(cumulative_positives(groups_of(ranking), x), x), scalar)


@overload
def qrecall(ranking: Ranking, quota: float) -> float: ...
@overload
def qrecall(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def qrecall(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """Qrecall(j) = sum_{k<=j} t[k] / n+: the share of all positives caught by quota j (eq. 6).

    NaN when there are no actual positives.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> qrecall(r, [1, 2, 3, 4, 7]).tolist()  # seed Table 2
    [0.25, 0.25, 0.5, 0.75, 1.0]
    """
    x, scalar = quota_array(ranking, quota)
    groups = groups_of(ranking)
    return as_result(ratio(cumulative_positives(groups, x), groups.n_positive), scalar)


@overload
def random_qrecall(ranking: Ranking, quota: float) -> float: ...
@overload
def random_qrecall(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def random_qrecall(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """The expected Qrecall of a random order: j/n (seed 2.3.4, Table 5 "Random")."""
    x, scalar = quota_array(ranking, quota)
    return as_result(ratio(x, float(ranking.n)), scalar)


@overload
def optimal_qrecall(ranking: Ranking, quota: float) -> float: ...
@overload
def optimal_qrecall(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def optimal_qrecall(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """The Qrecall of the optimal order, all positives first: min(j, n+)/n+ (Table 5)."""
    x, scalar = quota_array(ranking, quota)
    n_positive = float(ranking.n_positive)
    return as_result(ratio(np.minimum(x, n_positive), n_positive), scalar)


@overload
def lift(ranking: Ranking, quota: float) -> float: ...
@overload
def lift(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def lift(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """Cumulative lift at quota j: HitRate(j) / (n+/n) = Qrecall(j) / (j/n).

    NaN at j = 0 or with no actual positives. For the lift of each decile (or any bin)
    see `lift_table`.
    """
    x, scalar = quota_array(ranking, quota)
    groups = groups_of(ranking)
    rate = ratio(cumulative_positives(groups, x), x)
    return as_result(ratio(rate, ratio(groups.n_positive, groups.n)), scalar)


@overload
def threshold_at(ranking: Ranking, quota: float) -> float: ...
@overload
def threshold_at(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def threshold_at(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """The score at position j: the lowest score admitted to a quota of j (p[j]).

    If position j lies inside a tie group, `score >= threshold` selects the whole group,
    more than j rows: the quota curves then count the group's fraction m2/m1 per position.
    NaN at j = 0.
    """
    x, scalar = quota_array(ranking, quota)
    if ranking.n_groups == 0:
        return as_result(np.full(x.shape, np.nan), scalar)
    where = locate(groups_of(ranking), x)
    return as_result(np.where(x > 0, ranking.scores[where.group], np.nan), scalar)


@overload
def pearson(ranking: Ranking, quota: float) -> float: ...
@overload
def pearson(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def pearson(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """Pearson correlation of scores p[i] and outcomes t[i] over the top j positions (eq. 8-11).

    rho(j) = Cov_{p,t}(j) / (sigma_p(j) sigma_t(j)) with the 1/j moments of eq. 8-10 over
    positions i = 1..j (eq. 8 lacks its squares; the standard deviation is meant).

    Notes
    -----
    Convention under ties: every position of a tie group carries the group's score and
    t[i] = m2/m1 (eq. 5), so a tied group contributes its mean outcome, not its 0/1
    outcomes. A group cut by the quota contributes its positions inside with weight 1
    each (fractional quotas: the fraction inside). Undefined (NaN) at j = 0, when all
    positions in the quota share one score (j within the first tie group), when all their
    t[i] are equal, and when the quota contains an infinite score. Sums are taken with
    scores shifted by the top score and scaled to [-1, 0], which keeps cancellation
    small and squares representable.
    """
    x, scalar = quota_array(ranking, quota)
    if ranking.n_groups == 0:
        return as_result(np.full(x.shape, np.nan), scalar)
    groups = groups_of(ranking)
    where = locate(groups, x)
    g, inside = where.group, where.inside
    # Only the groups up to the largest quota matter: small quotas cost little.
    stop = int(g.max()) + 1 if g.size else 1
    scores = ranking.scores[:stop]
    positives = groups.positives[:stop]
    finite = np.isfinite(scores)
    top = float(scores[finite][0]) if finite.any() else 0.0
    shifted = scores - top if finite.all() else np.where(finite, scores - top, 0.0)
    spread = -float(shifted.min())  # shifted <= 0: the top score is the largest finite one
    if spread > 0:
        shifted /= spread  # correlation is scale-free; this keeps squares from under/overflow
    # Squares of scores below ~1e-154 underflow in float64 (scores 1e-175 apart from the
    # top would all look equal); such a ranking is summed in extended precision.
    nonzero = np.abs(shifted[shifted != 0])
    wide: Any = np.longdouble if nonzero.size and float(nonzero.min()) < 1e-140 else np.float64
    shifted = shifted.astype(wide)
    size = groups.size[:stop].astype(wide)
    positives = positives.astype(wide)
    rate = positives / size
    buffer = np.zeros(stop + 1, dtype=wide)

    def prefix(per_group: FloatArray) -> FloatArray:
        """Sums over the whole groups before each quota's group (one shared buffer)."""
        np.cumsum(per_group, out=buffer[1:])
        return buffer[g]

    mass = shifted * size
    sum_p = prefix(mass) + inside * shifted[g]
    mass *= shifted
    sum_pp = prefix(mass) + inside * shifted[g] ** 2
    sum_t = groups.positives_before[g] + inside * rate[g]
    sum_tt = prefix(np.multiply(positives, rate, out=mass)) + inside * rate[g] ** 2
    sum_pt = prefix(np.multiply(positives, shifted, out=mass)) + inside * shifted[g] * rate[g]
    covariance = x * sum_pt - sum_p * sum_t
    variance_p = np.maximum(x * sum_pp - sum_p * sum_p, 0.0)
    variance_t = np.maximum(x * sum_tt - sum_t * sum_t, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.clip(covariance / np.sqrt(variance_p * variance_t), -1.0, 1.0).astype(np.float64)
    return as_result(np.where(pearson_defined(ranking, groups, x, stop), rho, np.nan), scalar)


def pearson_defined(
    ranking: Ranking, groups: Groups, x: FloatArray, stop: int | None = None
) -> NDArray[np.bool_]:
    """Exact test of sigma_p(j) > 0, sigma_t(j) > 0 and finite scores within quota j.

    `stop` bounds the groups looked at (those up to the largest quota).
    """
    rate = groups.positives[:stop] / groups.size[:stop]
    changes = np.flatnonzero(rate != rate[0])
    outcome_varies_after = groups.start[changes[0]] if changes.size else np.inf
    infinite = np.flatnonzero(~np.isfinite(ranking.scores[:stop]))
    defined = (x > groups.size[0]) & (x > outcome_varies_after)
    for group in infinite.tolist():
        defined &= x <= groups.start[group]
    return np.asarray(defined, dtype=bool)


@dataclass(frozen=True)
class LiftTable:
    """Lift by bins of equal size (deciles by default), exact under ties.

    Bin b covers positions ((b-1) n/B, b n/B]; a bin edge inside a tie group (or inside a
    weighted row) takes the group's fraction m2/m1 per position, so the table never depends
    on the input order. `quota` holds the bins' upper edges.
    """

    quota: FloatArray
    positives: FloatArray  # expected positives in each bin
    bin_hit_rate: FloatArray  # positives / bin size
    lift: FloatArray  # bin_hit_rate / prevalence: the seed's lift of a decile
    hit_rate: FloatArray  # cumulative: HitRate(quota)
    cumulative_lift: FloatArray  # HitRate(quota) / prevalence
    cumulative_qrecall: FloatArray  # Qrecall(quota): the cumulative gains

    def to_records(self) -> list[dict[str, float | int | None]]:
        """One JSON-ready dict per bin (NaN as None, integral quotas as int)."""
        records = []
        for b in range(self.quota.size):
            record: dict[str, float | int | None] = {
                "bin": b + 1,
                "quota": json_quota(self.quota[b]),
            }
            for name in (
                "positives",
                "bin_hit_rate",
                "lift",
                "hit_rate",
                "cumulative_lift",
                "cumulative_qrecall",
            ):
                record[name] = json_float(getattr(self, name)[b])
            records.append(record)
        return records


def lift_table(ranking: Ranking, bins: int = 10) -> LiftTable:
    """Lift chart: per bin, the rate of positives over the overall rate (seed 2.2.5).

    lift_b = (positives in bin b / bin size) / (n+ / n). With the tie correction, a
    constant scorer has lift 1 in every bin whatever the input order (PITFALLS P3).

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 1] + [0] * 8, scores=[0.5] * 10, positive=1)
    >>> table = lift_table(r)
    >>> table.lift[:3].tolist(), table.cumulative_qrecall[:3].round(12).tolist()
    ([1.0, 1.0, 1.0], [0.1, 0.2, 0.3])
    """
    if isinstance(bins, bool) or not isinstance(bins, int | np.integer) or bins < 1:
        msg = f"`bins` must be a positive integer; got {bins!r}."
        raise InputError(msg)
    groups = groups_of(ranking)
    edges = groups.n * np.arange(1, bins + 1) / bins
    edges[-1] = groups.n
    caught = cumulative_positives(groups, edges)
    in_bin = _positives_between(groups, np.concatenate(([0.0], edges[:-1])), edges)
    prevalence = ratio(groups.n_positive, groups.n)
    bin_rate = ratio(in_bin, groups.n / bins)
    rate = ratio(caught, edges)
    return LiftTable(
        quota=edges,
        positives=in_bin,
        bin_hit_rate=bin_rate,
        lift=ratio(bin_rate, prevalence),
        hit_rate=rate,
        cumulative_lift=ratio(rate, prevalence),
        cumulative_qrecall=ratio(caught, groups.n_positive),
    )


def json_float(value: Any) -> float | None:
    value = float(value)
    return None if math.isnan(value) else value


def json_quota(value: Any) -> int | float:
    value = float(value)
    return int(value) if value.is_integer() else value
