"""Exact and closed-form sums over the tie groups that the summaries share.

* `positions_of_positives`, `weighted_ends`, `weighted_sum`: sums of a count times a
  position, exact for whole counts (`Groups.exact_integers`): integers below 2**53 are
  exact in float64 whatever order they are added in, and the blocks' sums are added as
  Python integers. With one unweighted row per group they come from the running count
  of positives alone, by summation by parts.
* `hit_sum`, `hit_total`: the terms of the average hit rate (Arbel & Rokach 2006,
  eq. 12) inside a tie group, in closed form with harmonic numbers (`harmonic`).
"""

from __future__ import annotations

import numpy as np

from informed.ranking.blocks import BLOCK, blocks, integer_total
from informed.ranking.groups import FloatArray, Groups

__all__ = [
    "POSITIONS",
    "harmonic",
    "hit_sum",
    "hit_total",
    "positions_of_positives",
    "weighted_ends",
    "weighted_sum",
]

# Harmonic differences use the asymptotic series of digamma from this start on.
_ASYMPTOTIC_FROM = 63.0
POSITIONS = np.arange(1.0, BLOCK + 1.0)
"""Positions 1, 2, ... of a block, shifted by its start where needed."""


def harmonic(start: FloatArray, count: FloatArray) -> FloatArray:
    """sum_{k=1}^{count} 1/(start + k) = digamma(start + count + 1) - digamma(start + 1).

    For start >= 63 the difference comes from the asymptotic series
    digamma(x + 1/2) ~ ln x + 1/(24 x^2) - 7/(960 x^4) + 31/(8064 x^6), written so that
    nothing cancels (relative error ~1e-16). Below, the recurrence
    digamma(x + 1) = digamma(x) + 1/x moves both ends up by 63:
    H = far(start + 63, count) + sum_{j=0}^{62} count / ((start + 1 + j)(start + count + 1 + j)),
    every term positive, so nothing cancels there either (and no scipy is loaded).
    """
    result = np.empty_like(start)
    large = start >= _ASYMPTOTIC_FROM
    if large.any():
        result[large] = _far(start[large], count[large])
    small = ~large
    if small.any():
        a = start[small] + 1.0
        q = count[small]
        near = np.zeros_like(a)
        for j in range(int(_ASYMPTOTIC_FROM)):
            near += q / ((a + j) * (a + q + j))
        result[small] = _far(a - 1.0 + _ASYMPTOTIC_FROM, q) + near
    return result


def _far(start: FloatArray, count: FloatArray) -> FloatArray:
    """`harmonic` for start >= 63, from the asymptotic series of digamma."""
    a = start + 0.5
    u = 1.0 / a
    v = 1.0 / (a + count)
    d2 = count * u * v * (u + v)  # 1/a^2 - 1/b^2
    d4 = d2 * (u * u + v * v)  # 1/a^4 - 1/b^4
    d6 = d2 * (u**4 + u * u * v * v + v**4)  # 1/a^6 - 1/b^6
    result: FloatArray = np.log1p(count * u) - d2 / 24.0 + 7.0 * d4 / 960.0 - 31.0 * d6 / 8064.0
    return result


def hit_sum(
    rate: FloatArray, before: FloatArray, start: FloatArray, count: FloatArray
) -> FloatArray:
    """sum_{k=1}^{count} t * HitRate(start + k) inside one group of rate t (eq. 12 terms).

    Positions start+1 .. start+count of a group hold t[k] = rate and
    C(start + k) = before + rate k, so the sum is
    rate * sum_k (before + rate k)/(start + k) = rate (rate count + (before - rate start) dH),
    dH = H(start + count) - H(start). For count = 1 it is rate (before + rate)/(start + 1),
    which is also how it is computed there (nothing cancels).
    """
    result = np.zeros_like(start)
    single = count == 1
    if single.all():
        result = rate * (before + rate) / (start + 1.0)
    elif single.any():  # the same elementwise values, at those groups alone
        r = rate[single]
        result[single] = r * (before[single] + r) / (start[single] + 1.0)
    several = ~single & (count > 0) & (rate > 0)
    if several.any():
        r = rate[several]
        c = start[several]
        q = count[several]
        result[several] = r * (r * q + (before[several] - r * c) * harmonic(c, q))
    return result


def hit_total(groups: Groups, stop: int) -> float:
    """sum_g of `hit_sum` over whole groups 0 .. stop-1 (eq. 12's numerator up to them)."""
    if groups.unit:
        # One row per group: m2 is 0 or 1 and c = g, so each term is m2 P_g+1/(g + 1),
        # the running hit rate at each positive; m2 is read off the running count P.
        running = groups.cumulative_positives
        buffers = np.empty((2, BLOCK))

        def part(low: int, high: int) -> float:
            count = high - low
            terms = np.subtract(
                running[low + 1 : high + 1], running[low:high], out=buffers[0, :count]
            )
            terms *= running[low + 1 : high + 1]
            terms /= np.add(POSITIONS[:count], low, out=buffers[1, :count])
            return float(np.sum(terms))

        return float(sum(part(low, high) for low, high in blocks(stop)))
    positives = groups.positives[:stop]
    size = groups.size[:stop]
    single = size == 1
    if single.all():
        # The usual case without ties: rate = m2 and count = 1 everywhere.
        terms = np.add(groups.positives_before[:stop], positives)
        terms *= positives
        terms /= groups.start[:stop] + 1.0
        return float(np.sum(terms))
    rate = positives / size
    terms = hit_sum(rate, groups.positives_before[:stop], groups.start[:stop], size)
    return float(np.sum(terms))


def _products(groups: Groups, values: FloatArray, low: int, out: FloatArray) -> float:
    """sum of m2_g values[i] over groups g = low.. and i = 0.. (as far as `out` reaches),
    summed in `out`, a cache-sized buffer (numpy's pairwise sum, not a threaded BLAS dot)."""
    products = np.multiply(groups.positives[low : low + out.size], values, out=out)
    return float(np.sum(products))


def positions_of_positives(groups: Groups, stop: int) -> int:
    """sum_g m2_g g over groups 0..stop-1 (for one unweighted row per group: the 0-based
    positions of the positives), exactly, from the running count P alone:
    sum_{g<k} (P_g+1 - P_g) g = k P_k - sum_{j=1..k} P_j (summation by parts), a sum of
    integers below 2**53 (callers check `Groups.exact_integers`)."""
    running = groups.cumulative_positives
    if stop == groups.size.size:  # every group: AUC, PEM and average Qrecall share the sum
        return stop * int(running[stop]) - groups.running_positives_sum
    return stop * int(running[stop]) - int(np.sum(running[1 : stop + 1]))


def weighted_ends(groups: Groups, cumulative: FloatArray) -> int:
    """sum_g m2_g (K_g + K_g+1) for a running sum K of length U + 1, as an exact integer
    (callers check `Groups.exact_integers`: every partial sum is an integer below 2**53)."""
    buffer = np.empty(BLOCK)

    def part(low: int, high: int) -> float:
        out = buffer[: high - low]
        before = _products(groups, cumulative[low:high], low, out)
        return before + _products(groups, cumulative[low + 1 : high + 1], low, out)

    return integer_total(groups.size.size, part)


def weighted_sum(groups: Groups, values: FloatArray, stop: int) -> int:
    """sum_g m2_g values_g over groups 0..stop-1, exact (see `weighted_ends`)."""
    buffer = np.empty(BLOCK)
    return integer_total(
        stop, lambda low, high: _products(groups, values[low:high], low, buffer[: high - low])
    )
