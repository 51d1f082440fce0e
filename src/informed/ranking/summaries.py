"""Summaries of a Ranking as closed forms over tie groups: AUC, PEM and its areas,
average hit rate, average Qrecall.

Each summary of Arbel & Rokach (2006, Pattern Recognition Letters 27(14)) is a sum over
positions j = 1..n; inside a tie group the quota curves are linear (t[k] = m2/m1), so
each group's share is an arithmetic or harmonic sum in closed form, and the cost is
linear in the number of groups.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures.counts import ratio
from informed.ranking.blocks import BLOCK, blocks
from informed.ranking.groups import (
    FloatArray,
    Groups,
    cumulative_positives,
    locate,
    quota_array,
)
from informed.ranking.ranking import Ranking, groups_of
from informed.ranking.sums import (
    POSITIONS,
    hit_sum,
    hit_total,
    positions_of_positives,
    weighted_ends,
    weighted_sum,
)

__all__ = [
    "auc",
    "average_hit_rate",
    "average_qrecall",
    "integral_counts",
    "pem",
    "pem_areas",
]

# Integer sums below this bound are exact in int64.
_INT_SAFE = float(1 << 62)


def _area(groups: Groups, x: FloatArray, by: tuple[float, float] = (1.0, 1.0)) -> FloatArray:
    """A(x) / (by[0] by[1]), A(x) = sum_{j=1}^{x} C(j): the sum of the Qrecall numerators
    over positions 1..x.

    A full group g before x contributes m2 (x - c - (m1 - 1)/2); the group cut by x, with
    q = x - c of its positions inside, contributes (m2/m1) q (q + 1)/2. At integer counts
    and quotas these are the exact sums; x <= 0 gives 0. Each product of a count and a
    position is divided by `by` factor by factor, so that weights near 1e200 (A near
    1e400) give the quotient without overflowing.
    """
    x = np.maximum(x, 0.0)
    if groups.size.size == 0:
        return np.zeros_like(x)
    per_count, per_position = by
    groups_count = groups.size.size
    full = groups.ends_reached(x, "right")
    area = np.empty_like(x)
    if groups.exact_integers:
        # sum m2 (c + (m1 - 1)/2) over the full groups, doubled: dot products of integers
        # below 2**53 (exact); one division by `by` at the end.
        for i, (value, k) in enumerate(zip(x.tolist(), full.tolist(), strict=True)):
            caught = float(groups.cumulative_positives[k])
            if groups.unit:  # c = g and m1 = 1: the positions of the positives
                twice_offset = 2 * positions_of_positives(groups, k)
            else:
                twice_offset = 2 * weighted_sum(groups, groups.start, k)
                twice_offset += weighted_sum(groups, groups.size, k) - int(caught)
            area[i] = (value * caught - twice_offset / 2) / per_position / per_count
    else:
        # The loop runs over the few quotas asked for, each a dot product over its prefix
        # of the same two arrays (elementwise, so the longest prefix serves them all).
        most = int(full.max()) if full.size else 0
        offset = (groups.size[:most] - 1.0) / 2.0
        offset += groups.start[:most]
        offset /= per_position
        shares = groups.positives[:most] / per_count
        for i, (value, k) in enumerate(zip(x.tolist(), full.tolist(), strict=True)):
            area[i] = (value / per_position) * (groups.cumulative_positives[k] / per_count) - float(
                np.dot(shares[:k], offset[:k])
            )
    cut = np.minimum(full, groups_count - 1)
    inside = np.where(full < groups_count, x - groups.total_at(cut), 0.0)
    rate = groups.positives[cut] / groups.size[cut]
    return area + rate * (inside / per_position) * ((inside + 1.0) / per_count) / 2.0


def integral_counts(ranking: Ranking) -> bool:
    """Whether every count is a whole number (always for counts; for weights, if integral)."""
    if not ranking.weighted:
        return True
    return bool(np.all(np.floor(ranking.positives) == ranking.positives)) and bool(
        np.all(np.floor(ranking.negatives) == ranking.negatives)
    )


def auc(ranking: Ranking) -> float:
    """Area under the ROC curve, tied pairs counting one half (Mann-Whitney).

    AUC = sum_g m2_g (negatives below g + m0_g / 2) / (n+ n-), where m0_g are the
    negatives of group g. Exact for integer counts: the numerator is summed in integers.
    NaN with no actual positives or no actual negatives.

    >>> from informed.ranking import Ranking
    >>> auc(Ranking.from_scores(actual=[1, 0, 1, 0], scores=[9, 9, 5, 5], positive=1))
    0.5
    """
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        return math.nan
    groups = groups_of(ranking)
    found = groups.found.get("auc")
    if found is None:
        found = groups.found["auc"] = _auc(ranking, groups)
    return found


def _auc(ranking: Ranking, groups: Groups) -> float:
    """`auc` of a Ranking with positives and negatives, computed."""
    if groups.exact_integers:
        # sum_g m2 (2 below + m0) = 2 n+ n- - sum_g m2 (N_g + N_g+1), N the negatives
        # above: two dot products of integers whose sums stay below 2**53, hence exact.
        n_pos, n_neg = int(ranking.n_positive), int(ranking.n_negative)
        if groups.unit:
            # N_g = g - P_g, the same before and after a positive's group; and the
            # positives before the positives are 0, 1, ..., n+ - 1.
            ranks = positions_of_positives(groups, groups.size.size)
            above = 2 * ranks - n_pos * (n_pos - 1)
        else:
            above = weighted_ends(groups, groups.cumulative_negatives)
        return (2 * n_pos * n_neg - above) / (2 * n_pos * n_neg)
    if _whole_counts(ranking):
        positives = ranking.positives.astype(np.int64, copy=False)
        negatives = ranking.negatives.astype(np.int64, copy=False)
        n_pos, n_neg = int(positives.sum()), int(negatives.sum())
        # 2 x (negatives below + half the tied ones), in place: one temporary array.
        twice_below = np.cumsum(negatives)
        np.subtract(n_neg, twice_below, out=twice_below)
        twice_below *= 2
        twice_below += negatives
        return int(np.dot(positives, twice_below)) / (2 * n_pos * n_neg)
    # Float weights (or counts too large for int64 products): float64 throughout, each
    # side divided by its total first, so that tiny or huge weights neither under- nor
    # overflow in the products. The negatives below each group are summed from the bottom
    # up, not taken as the total minus those above: 1e17 + 1 - 1e17 would lose the 1.
    negatives = np.asarray(ranking.negatives, dtype=np.float64)
    after = np.cumsum(negatives[::-1])[::-1]  # the negatives of this group and below
    weight_negative = float(after[0])
    below: FloatArray = np.zeros(negatives.size, dtype=np.float64)
    below[:-1] = after[1:]
    below /= weight_negative
    below += negatives / weight_negative / 2.0
    # the total as a running sum adds it (the groups' running sum of the positives)
    shares = ranking.positives / float(groups.cumulative_positives[-1])
    return float(np.dot(shares, below))


def _whole_counts(ranking: Ranking) -> bool:
    """Whether AUC and PEM can sum their integer numerators exactly in int64.

    True for counts, and for integer-valued weights (so that an integer weight gives
    exactly the result of repeated rows), while 2 (n + 1)^2 stays below 2**62.
    """
    if ranking.weighted and not (_integral(ranking.positives) and _integral(ranking.negatives)):
        return False
    n = float(ranking.n)
    return 2.0 * (n + 1.0) * (n + 1.0) < _INT_SAFE


def _integral(values: NDArray[Any]) -> bool:
    return bool(np.all(np.floor(values) == values))


def pem(ranking: Ranking, quota: float | None = None) -> float:
    """PEM, the Potential Extract Measure (eq. 14-15): area gained over random, normalised.

    PEM = (S1 - S2)/S3 = (sum_j Qrecall(j) - (n+1)/2) / ((n+ + 1)/2 + n- - (n+1)/2),
    summed over positions j = 1..n; the denominator is n-/2. 1 for the optimal order,
    0 in expectation for a random one, -1 for the worst. NaN without positives or negatives.

    With the tie correction PEM = 2 AUC - 1 exactly.

    Proof. sum_j Qrecall(j) = (1/n+) sum_k t[k] (n - k + 1). A group g of m1 positions
    starting after c, with m2 positives, r_g rows below it, contributes
    m2 * mean_k (n - k + 1) = m2 (r_g + (m1 + 1)/2). Split r_g into positives and
    negatives below, and (m1 - 1)/2 into (m2 - 1)/2 positives and m0/2 negatives of the
    group itself. Summed over the groups, the positive parts give n+ + n+(n+ - 1)/2 (each
    pair of positives once, a tied pair as two halves) and the negative parts give
    sum_g m2 (negatives below + m0/2) = AUC n+ n-. So sum_j Qrecall(j) =
    (n+ + 1)/2 + AUC n-, and PEM = (AUC n- - n-/2)/(n-/2) = 2 AUC - 1. The same algebra
    holds for real weights. Without the tie correction (ties broken by position) PEM
    depends on the order inside groups and the identity fails, as Arbel & Rokach
    observe for C4.5 in their Tables 8-9; their tie-free Naive Bayes columns satisfy it.

    Parameters
    ----------
    quota : float, optional
        Restrict both areas to positions 1..J: (sum_{j<=J} Qrecall(j) - random) /
        (sum_{j<=J} optimal(j) - random). Equals PEM at J = n. This partial form is our
        extension; Arbel & Rokach define PEM over the whole list.

    Examples
    --------
    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> round(pem(r), 4), round(2 * auc(r) - 1, 4)  # Arbel & Rokach, Table 5: 1.75 / 3
    (0.5833, 0.5833)
    """
    if quota is not None:
        return _pem_at(ranking, quota)
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        return math.nan
    groups = groups_of(ranking)
    if groups.exact_integers:
        # 2 (n - T_g+1) + m1 + 1 = 2 n + 1 - T_g - T_g+1 (T the positions before), so
        # twice the area is n+ (2 n + 1) - sum_g m2 (T_g + T_g+1): exact integer dots.
        n_pos, n = int(ranking.n_positive), int(ranking.n)
        if groups.unit:  # T_g + T_g+1 = 2 g + 1
            ends = 2 * positions_of_positives(groups, groups.size.size) + n_pos
        else:
            ends = weighted_ends(groups, groups.cumulative_total)
        twice_area = n_pos * (2 * n + 1) - ends
        return (twice_area - n_pos * (n + 1)) / (n_pos * (n - n_pos))
    if _whole_counts(ranking):
        positives = ranking.positives.astype(np.int64, copy=False)
        size = positives + ranking.negatives.astype(np.int64, copy=False)
        n_pos, n = int(positives.sum()), int(size.sum())
        # 2 x (rows below + (m1 + 1)/2) = 2 (n - rows up to the group's end) + m1 + 1.
        twice = np.cumsum(size)
        np.subtract(n, twice, out=twice)
        twice *= 2
        twice += size
        twice += 1
        twice_area = int(np.dot(positives, twice))
        return (twice_area - n_pos * (n + 1)) / (n_pos * (n - n_pos))
    # In floats, eq. 15's numerator sum a (2 below + m1 + 1) - n+ (n + 1) cancels badly
    # when n- << n+ (weights spanning many magnitudes). Its positive-positive part is
    # n+^2 + n+ exactly, which leaves the AUC numerator: PEM = 2 AUC - 1, as proved above.
    return 2.0 * auc(ranking) - 1.0


def _pem_at(ranking: Ranking, quota: float) -> float:
    x, _ = quota_array(quota, ranking.n)
    groups = groups_of(ranking)
    if groups.n_positive == 0:
        return math.nan
    x = x.reshape(1)
    n_pos = groups.n_positive
    # every area divided by n+ (x + 1), so that x (x + 1) cannot overflow (weights 1e200)
    random_area = x / (2.0 * groups.n)
    optimal = np.where(
        x <= n_pos, x / (2.0 * n_pos), ((n_pos + 1.0) / 2.0 + (x - n_pos)) / (x + 1.0)
    )
    gained = _area(groups, x, by=(n_pos, float(x[0]) + 1.0)) - random_area
    possible = optimal - random_area
    return float(ratio(gained, np.where(possible > 0, possible, 0.0))[0])


def pem_areas(ranking: Ranking) -> tuple[float, float, float]:
    """Arbel & Rokach's S1, S2 and S3 (Table 5): PEM = (S1 - S2)/S3.

    S1 = sum_j max(Qrecall(j) - j/n, 0), S2 = sum_j max(j/n - Qrecall(j), 0) and
    S3 = sum_j (optimal(j) - j/n) = n-/2, over integer positions j = 1..n. Inside a tie
    group Qrecall(j) - j/n is linear in j, so each group's positive part is a closed-form
    arithmetic sum. S1 and S2 need integer positions: NaN for non-integer weights
    (S1 - S2 and S3, hence PEM, are defined for any weights).

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> [round(v, 12) for v in pem_areas(r)]  # Arbel & Rokach, Table 5 totals
    [1.75, 0.0, 3.0]
    """
    groups = groups_of(ranking)
    if groups.n_positive == 0 or groups.n == 0:
        return math.nan, math.nan, math.nan
    s3 = groups.n_negative / 2.0
    if not integral_counts(ranking):
        return math.nan, math.nan, s3
    if groups.unit and groups.exact_integers:
        # One position per group: the gap at position j is (n P_j - n+ j)/(n n+), an
        # integer (below 2**53, exact) over a constant; the sum of the gaps is exact too,
        # the sum of their positive parts rounded once per addition (pairwise).
        n, n_pos = int(groups.n), int(groups.n_positive)
        running = groups.cumulative_positives
        buffers = np.empty((2, BLOCK))

        def positive_part(low: int, high: int) -> float:
            count = high - low
            gap = np.multiply(running[low + 1 : high + 1], float(n), out=buffers[0, :count])
            positions = np.add(POSITIONS[:count], low, out=buffers[1, :count])
            positions *= float(n_pos)
            gap -= positions
            return float(np.sum(np.maximum(gap, 0.0, out=gap)))

        above = float(sum(positive_part(low, high) for low, high in blocks(groups.size.size)))
        # sum_j (n P_j - n+ j) for j = 1..U, in integers (the sum of P shared with AUC)
        total = n * groups.running_positives_sum - n_pos * (n * (n + 1) // 2)
        return above / (n * n_pos), (above - total) / (n * n_pos), s3
    # Groups of one position (the common case) contribute their gap at that position.
    gap = groups.cumulative_positives[1:] / groups.n_positive
    gap -= groups.cumulative_total[1:] / groups.n
    single = groups.size == 1
    if single.all():
        above = float(np.sum(np.maximum(gap, 0.0)))
        return above, above - float(np.sum(gap)), s3
    above = float(np.sum(np.maximum(gap[single], 0.0)))
    below = float(np.sum(np.maximum(-gap[single], 0.0)))
    several = ~single
    if several.any():
        wider_above, wider_below = _linear_parts(
            groups.size[several],
            groups.positives_before[several] / groups.n_positive - groups.start[several] / groups.n,
            groups.positives[several] / (groups.size[several] * groups.n_positive) - 1.0 / groups.n,
        )
        above += wider_above
        below += wider_below
    return above, below, s3


def _linear_parts(m: FloatArray, level: FloatArray, slope: FloatArray) -> tuple[float, float]:
    """sum over k = 1..m of max(d, 0) and of max(-d, 0), d = level + slope k, per group.

    The positions where d > 0 form one run at the start (slope < 0) or at the end
    (slope > 0), found from the root -level/slope; each run is an arithmetic sum.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(slope != 0, -level / slope, 0.0)
    rising = slope > 0
    falling = slope < 0
    first = np.clip(np.floor(root) + 1.0, 1.0, m + 1.0)
    last = np.clip(np.ceil(root) - 1.0, 0.0, m)
    flat_count = np.where(level > 0, m, 0.0)
    count = np.where(rising, m - first + 1.0, np.where(falling, last, flat_count))
    sum_k = np.where(
        rising,
        (first + m) * count / 2.0,
        np.where(falling, last * (last + 1.0) / 2.0, flat_count * (m + 1.0) / 2.0),
    )
    above = np.maximum(count * level + slope * sum_k, 0.0)
    total = m * level + slope * m * (m + 1.0) / 2.0
    return float(np.sum(above)), float(np.sum(np.maximum(above - total, 0.0)))


def average_hit_rate(ranking: Ranking, quota: float | None = None) -> float:
    """Average hit rate (eq. 12): sum_j t[j] HitRate(j) / n+, over positions j = 1..n.

    Each position's hit rate is weighted by its outcome t[j], so positions holding
    negatives count for nothing and tied positions count m2/m1 each. 1 for the optimal
    order; the prevalence for a constant scorer. NaN without actual positives.

    Without ties it equals scikit-learn's `average_precision_score`. With ties they
    differ: average precision takes one precision per tie group (at its end), while
    eq. 12 averages the hit rates of the group's positions. Each group's sum is a closed
    form in harmonic numbers (digamma), so the cost is linear in the number of groups.

    Parameters
    ----------
    quota : float, optional
        Average over positions 1..J only: sum_{j<=J} t[j] HitRate(j) / sum_{j<=J} t[j]
        (our extension; equals eq. 12 at J = n). NaN if the top J hold no positive.

    Examples
    --------
    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> round(average_hit_rate(r), 3)  # Arbel & Rokach, Table 2
    0.747
    """
    groups = groups_of(ranking)
    if groups.n_positive == 0:
        return math.nan
    if quota is None:
        return hit_total(groups, ranking.n_groups) / groups.n_positive
    x, _ = quota_array(quota, ranking.n)
    x = x.reshape(1)
    where = locate(groups, x)
    g = where.group
    rate = groups.positives[g] / groups.size[g]
    partial = hit_sum(rate, groups.positives_before[g], where.start, where.inside)
    caught = cumulative_positives(groups, x)
    return float(ratio(hit_total(groups, int(g[0])) + partial, caught)[0])


def average_qrecall(ranking: Ranking, quota: float | None = None) -> float:
    """Average Qrecall (eq. 13): the mean of Qrecall(j) over j = n+, ..., n.

    sum_{j=n+}^{n} Qrecall(j) / (n - n+ + 1). Quotas below n+ are left out because no
    order can catch every positive there. NaN without actual positives.

    Parameters
    ----------
    quota : float, optional
        Average over j = n+, ..., J instead (our extension; equals eq. 13 at J = n).
        NaN for J < n+.

    Examples
    --------
    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> round(average_qrecall(r), 3)  # Arbel & Rokach, Table 2
    0.893
    """
    groups = groups_of(ranking)
    n_pos = groups.n_positive
    if n_pos == 0:
        return math.nan
    if quota is None:
        end = groups.n
    else:
        x, _ = quota_array(quota, ranking.n)
        end = float(x)
        if end < n_pos:
            return math.nan
    # (A(end) - A(n+ - 1)) / (n+ (end - n+ + 1)), divided inside: A overflows near 1e154
    areas = _area(groups, np.array([n_pos - 1.0, end]), by=(n_pos, end - n_pos + 1.0))
    return float(areas[1] - areas[0])
