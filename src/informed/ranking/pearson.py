"""Pearson correlation of scores and outcomes within a quota (Arbel & Rokach 2006, eq. 8-11).

At any number of quotas, the five sums it needs (of p, p^2, t, t^2 and p t over the
positions in the quota) come from one read of the groups up to the largest quota: the
per-group terms are made block by block in cache-sized buffers (`informed.ranking.blocks`)
and summed in the stretches between the quotas' groups.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple, overload

import numpy as np
from numpy.typing import NDArray

from informed.ranking.blocks import BLOCK, first_index, sums_before
from informed.ranking.groups import FloatArray, Groups, Quotas, as_result, locate, quota_array
from informed.ranking.ranking import Ranking, groups_of

__all__ = ["pearson", "pearson_defined"]

# Below this, the square of a shifted score may underflow float64: sum in extended precision.
_TINY = 1e-140


class _Shift(NamedTuple):
    """Scores become (score - top) / spread in [-1, 0]; the non-finite ones (only the first
    can be +inf and only the last -inf, as scores descend) become 0."""

    top: float
    spread: float
    low: int  # the first finite score's group
    high: int  # one past the last finite score's group (within the groups looked at)

    def at(self, scores: FloatArray, low: int, high: int, out: FloatArray) -> FloatArray:
        """The shifted scores of groups low..high-1, written into `out`."""
        values = np.subtract(scores[low:high], self.top, out=out[: high - low])
        values[: max(self.low - low, 0)] = 0.0
        values[max(self.high - low, 0) :] = 0.0
        if self.spread > 0:
            values /= self.spread
        return values


def _shift(scores: FloatArray, stop: int) -> _Shift:
    low = 1 if scores[0] == np.inf else 0
    high = stop - 1 if scores[stop - 1] == -np.inf else stop
    if low >= high:
        return _Shift(0.0, 0.0, low, high)
    top = float(scores[low])
    return _Shift(top, top - float(scores[high - 1]), low, high)


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
    small and squares representable; scores so close to the top that their squares
    would underflow are summed in extended precision.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 1, 0, 1, 0], scores=[5, 4, 3, 2, 1], positive=1)
    >>> round(pearson(r, 3), 6), round(pearson(r, 5), 6)
    (0.866025, 0.57735)
    """
    x, scalar = quota_array(quota, ranking.n)
    if ranking.n_groups == 0:
        return as_result(np.full(x.shape, np.nan), scalar)
    groups = groups_of(ranking)
    where = locate(groups, x)
    g, inside = where.group, where.inside
    # Only the groups up to the largest quota matter: small quotas cost little.
    stop = int(g.max()) + 1 if g.size else 1
    scores = ranking.scores
    shift = _shift(scores, stop)
    at = np.where((g < shift.low) | (g >= shift.high), 0.0, scores[g] - shift.top)
    if shift.spread > 0:
        at = at / shift.spread
    # The smallest shifted score that is not 0 is the first after the top (they descend).
    probe = np.empty(BLOCK)
    near = first_index(lambda a, b: shift.at(scores, a, b, probe) != 0, shift.low + 1, shift.high)
    tiny = near is not None and abs(float(shift.at(scores, near, near + 1, probe)[0])) < _TINY
    wide: Any = np.longdouble if tiny else np.float64
    if groups.unit and not tiny:
        # One row per group: m1 = 1 and t = m2 in {0, 1}, so t^2 = t, and the sums of t
        # are the counts of positives before each quota's group.
        rate = groups.positives[g].astype(np.float64)
        buffers = np.empty((3, BLOCK))
        running = groups.cumulative_positives

        def unit_terms(low: int, high: int) -> list[FloatArray]:
            count = high - low
            shifted = shift.at(scores, low, high, buffers[0])
            square = np.multiply(shifted, shifted, out=buffers[1, :count])
            # m2 read off the running count: a float step, where int64 * float64 would
            # first convert every count
            outcome = np.subtract(
                running[low + 1 : high + 1], running[low:high], out=buffers[2, :count]
            )
            return [shifted, square, np.multiply(outcome, shifted, out=outcome)]

        sum_p, sum_pp, sum_pt = sums_before(unit_terms, stop, g)
        sum_t = groups.positives_before[g] + inside * rate
        sum_tt = sum_t
    else:
        size_at = groups.size[g].astype(wide)
        rate = groups.positives[g].astype(wide) / size_at
        at = at.astype(wide)
        shifted_block = np.empty(BLOCK)
        buffers = np.empty((4, BLOCK), dtype=wide)

        def group_terms(low: int, high: int) -> list[NDArray[Any]]:
            count = high - low
            shifted = buffers[0, :count]
            shifted[...] = shift.at(scores, low, high, shifted_block)
            size = groups.size[low:high].astype(wide, copy=False)
            positives = groups.positives[low:high].astype(wide, copy=False)
            mass = np.multiply(shifted, size, out=buffers[1, :count])
            square = np.multiply(mass, shifted, out=buffers[2, :count])
            outcome = np.divide(positives, size, out=buffers[3, :count])
            outcome *= positives
            product = np.multiply(positives, shifted, out=buffers[0, :count])
            return [mass, square, outcome, product]

        sum_p, sum_pp, sum_tt, sum_pt = sums_before(group_terms, stop, g, dtype=wide)
        sum_t = groups.positives_before[g] + inside * rate
        sum_tt = sum_tt + inside * rate**2
    sum_p = sum_p + inside * at
    sum_pp = sum_pp + inside * at**2
    sum_pt = sum_pt + inside * at * rate
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

    `stop` bounds the groups looked at (those up to the largest quota). Each test reads
    only as far as it must: up to the first group whose rate m2/m1 differs from the first
    group's, and the two ends of the scores (only they can be infinite).
    """
    stop = ranking.n_groups if stop is None else min(stop, ranking.n_groups)
    change = first_index(lambda a, b: _other_rate(groups, a, b), 1, stop)
    outcome_varies_after = groups.total_at(change) if change is not None else np.inf
    defined = (x > groups.size[0]) & (x > outcome_varies_after)
    scores = ranking.scores
    for group in {0, stop - 1}:
        if not np.isfinite(scores[group]):
            defined &= x <= groups.total_at(group)
    return np.asarray(defined, dtype=bool)


def _other_rate(groups: Groups, low: int, high: int) -> NDArray[np.bool_]:
    """Whether groups low..high-1 hold another rate t = m2/m1 than the first group, exactly.

    Rates are compared as m2 m0' != m2' m0 (m0 the negatives), not as quotients: with
    weights, m1 is a difference of running sums, and m2/m1 may differ from 1 in the last
    bit for a group of positives only, which made a constant outcome look varied (and
    gave a correlation of rounding errors). Integer counts multiply exactly in int64;
    float products of equal rates round alike, so only products that come out equal need
    an exact look (`Fraction`), unless a zero count makes both sides zero exactly.
    """
    positives, negatives = groups.positives[low:high], groups.negatives[low:high]
    first_positives, first_negatives = groups.positives[0], groups.negatives[0]
    if groups.positives.dtype.kind != "f" and groups.n < 2.0**31:
        return np.asarray(positives * first_negatives != negatives * first_positives)
    left = np.multiply(positives, first_negatives, dtype=np.float64)
    right = np.multiply(negatives, first_positives, dtype=np.float64)
    differ: NDArray[np.bool_] = np.not_equal(left, right)
    zero = ((positives == 0) & (first_positives == 0)) | ((negatives == 0) & (first_negatives == 0))
    for i in np.flatnonzero(~differ & ~zero).tolist():
        differ[i] = Fraction(float(positives[i])) * Fraction(float(first_negatives)) != Fraction(
            float(negatives[i])
        ) * Fraction(float(first_positives))
    return differ
