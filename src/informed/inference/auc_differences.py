"""Differences of AUC between slices: each slice against the rest and against a reference.

A slice and the rest of the rows are disjoint sets of cases, and so are two slices: their
AUCs are independent estimates, and the variance of a difference is the sum of the two
DeLong variances (DeLong, DeLong & Clarke-Pearson 1988: Var(AUC) = S10 / n+ + S01 / n-,
the structural components' sample variances, ties counting one half), each computed
from its own exact Ranking as `informed.inference.delong` computes it. The interval is
the difference ± z se (clamped to [-1, 1]), the p-value two-sided from z, Holm-adjusted
(1979) across slices, the slices against the rest as one family and against the
reference as another.

The rest of a slice is every other row: its Ranking is the overall Ranking less the
slice's. Its AUC and structural components are read without building it: every sum over
the rest's tie groups is the overall sum (taken once, for all slices) less what the
slice's groups change, and the slice's negatives (positives) below a score are a step
function that changes only at the slice's groups. All slices are read at once, in
O(G + g log G) for the G tie groups of all rows and the g of all slices together, not
O(S G) (10,000 slices of a million distinct scores: 1.4 s against 7 minutes on a
loaded 2-core machine, `benchmarks/bench_slice_auc.py`). The placements are centred on
the overall AUC before anything is squared, and where the centred sums lose more than 7
of their 16 digits (a rest of a few rows beside a slice of nearly all, a rest whose
scores separate its classes perfectly) that rest's Ranking is built and read directly,
as DeLong's interval reads any Ranking.

A slice whose estimated DeLong variance is 0 (its scores separate its classes perfectly,
or every score is tied) has no estimate of its own variation: its differences have no
interval and no p-value, only the reason, as a slice whose bootstrap replicates all
agree in `informed.inference.disparities`.

References
----------
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under two
or more correlated receiver operating characteristic curves: a nonparametric approach.
Biometrics 44(3):837-845.
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand. J.
Statist. 6(2):65-70.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 6 + ["b"] * 6, actual=[1, 0] * 6, positive=1,
...                        scores=[6, 5, 4, 3, 2, 1, 6, 1, 5, 2, 4, 3])
>>> found = auc_differences(s, reference=0)
>>> [round(x.estimate, 4) for x in found.vs_rest]  # 6/9 - 1, and 1 - 6/9
[-0.3333, 0.3333]
>>> found.vs_rest[0].reason  # the rest of 'a' is 'b', ranked perfectly
'the rest of the rows: DeLong variance 0 (perfect separation or every score tied): too few to say'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.inference.checks import check_level
from informed.inference.delong import _group_components, _normal_interval
from informed.inference.interval import Interval, nan_interval
from informed.inference.significance import holm
from informed.ranking import Ranking
from informed.ranking import undefined_reason as ranking_reason
from informed.slices.slices import Slices

__all__ = ["AUC_METHOD", "AUC_METHOD_TEXT", "AucDifferences", "auc_differences"]

Floats = NDArray[np.float64]
_Values = TypeVar("_Values", bound=NDArray[Any])

AUC_METHOD = "delong-independent"
"""The `method` of the intervals of AUC differences."""

AUC_METHOD_TEXT = (
    "DeLong et al. (1988) variances of the two AUCs summed (the slice and the rest, or "
    "the reference, are disjoint rows: independent samples); normal interval, "
    "two-sided p Holm-adjusted across slices"
)
"""How the AUC differences are computed, as the reports say it."""

# Below this share of either class in the rest, the rest's Ranking is read directly.
_DIRECT_SHARE = 0.5
# A count left in the rest below this share of the overall count is rounding (weights).
_NOISE = 1e-9


@dataclass(frozen=True, eq=False)
class AucDifferences:
    """Each slice's AUC minus the rest's and minus the reference's.

    Attributes
    ----------
    vs_rest, vs_reference : list of Interval
        One per slice (method "delong-independent", with `standard_error`); nan with the
        reason where a side has no AUC or no estimated variance; the reference itself
        gets nan ("the reference slice itself").
    p_rest, p_reference : list of float
        Two-sided p-values of no difference, Holm-adjusted across slices (nan where
        there is no interval).
    """

    vs_rest: list[Interval]
    vs_reference: list[Interval]
    p_rest: list[float]
    p_reference: list[float]


@dataclass(frozen=True)
class _Auc:
    """One side of a difference: its AUC, DeLong variance (nan if not estimable), why,
    and how a reason names it."""

    estimate: float
    variance: float
    reason: str | None
    who: str


def auc_differences(slices: Slices, *, reference: int, level: float = 0.95) -> AucDifferences:
    """Each slice's AUC minus that of the rest of the rows and of slice `reference` (a
    position), with DeLong intervals for independent samples and Holm-adjusted p-values.

    Parameters
    ----------
    slices : Slices
        Built with scores (a Ranking per slice).
    reference : int
        The position of the reference slice.
    level : float
        Level of the intervals.
    """
    if slices.rankings is None or slices.overall_ranking is None:
        msg = "AUC differences need a Ranking per slice: build the slices with `scores`."
        raise InputError(msg)
    level = check_level(level)
    names = [repr(slices.name(key)) for key in slices.keys]
    own, rest = _both(_Overall(slices.overall_ranking), slices, names)
    vs_rest = [_difference(a, b, level) for a, b in zip(own, rest, strict=True)]
    vs_reference = [
        nan_interval(math.nan, level, AUC_METHOD, "the reference slice itself")
        if s == reference
        else _difference(own[s], own[reference], level)
        for s in range(len(own))
    ]
    return AucDifferences(
        vs_rest, vs_reference, holm([_p(x) for x in vs_rest]), holm([_p(x) for x in vs_reference])
    )


def _variance(
    s10: float, s01: float, n_pos: float, n_neg: float, who: str
) -> tuple[float, str | None]:
    """DeLong's variance S10 / n+ + S01 / n-, or nan with the reason."""
    if math.isnan(s10) or math.isnan(s01):
        which = "positive" if math.isnan(s10) else "negative"
        why = f"{who} has a single actual {which}: DeLong's variance cannot be estimated"
        return math.nan, why
    return max(s10 / n_pos + s01 / n_neg, 0.0), None


def _difference(mine: _Auc, other: _Auc, level: float) -> Interval:
    """mine - other with its normal interval, or nan with the first side's reason."""
    estimate = mine.estimate - other.estimate
    for side in (mine, other):
        if side.reason is not None:
            return nan_interval(estimate, level, AUC_METHOD, side.reason)
    se = math.sqrt(mine.variance + other.variance)
    for side in (mine, other):
        if side.variance == 0.0:
            why = f"{side.who}: DeLong variance 0 (perfect separation or every score tied): "
            why += "too few to say"
            return nan_interval(estimate, level, AUC_METHOD, why)
    low, high = _normal_interval(estimate, se, level, "plain", -1.0, 1.0)
    return Interval(estimate, low, high, level, AUC_METHOD, standard_error=se)


def _p(found: Interval) -> float:
    """Two-sided p-value of no difference from the interval's standard error."""
    if math.isnan(found.low) or not found.standard_error > 0:
        return math.nan
    return math.erfc(abs(found.estimate / found.standard_error) / math.sqrt(2.0))


# ---------------------------------------------------------------------- the rest of a slice
class _Side:
    """The overall Ranking read for the placements of class X among class Y, in an order
    where "below" is a later group: positives among negatives with the scores descending
    (S10), negatives among positives with the scores ascending (S01).

    placed[g] = Y after g + Y[g] / 2 (X's placement at g, times the Y total), u[g] the
    placement centred on the overall AUC, and the prefix sums of X and X u that give any
    run of groups' sums in O(1).
    """

    def __init__(self, x: Floats, y: Floats, weighted: bool) -> None:
        self.x, self.y = x, y
        self.x_total, self.y_total = float(x.sum()), float(y.sum())
        # counts (not weights) below 1e9: total - part is exact, never rounding to clear
        self.exact = not weighted and self.x_total < 1e9
        self.placed = (self.y_total - np.cumsum(y)) + y / 2.0
        self.pairs = float(np.dot(x, self.placed))
        product = self.x_total * self.y_total
        self.auc = self.pairs / product if product > 0 else math.nan
        with np.errstate(invalid="ignore", divide="ignore"):
            self.u = self.placed / self.y_total - self.auc
        self.cx, self.cxu = np.zeros(x.size + 1), np.zeros(x.size + 1)
        np.cumsum(x, out=self.cx[1:])
        np.cumsum(x * self.u, out=self.cxu[1:])
        self.xu2 = float(np.dot(x, self.u * self.u))


class _Overall:
    """The overall Ranking, read once for every slice's rest."""

    def __init__(self, ranking: Ranking) -> None:
        self.negated = -np.asarray(ranking.scores, dtype=np.float64)  # ascending
        self.positives = np.asarray(ranking.positives, dtype=np.float64)
        self.negatives = np.asarray(ranking.negatives, dtype=np.float64)
        weighted = bool(ranking.weighted)
        self.by_positive = _Side(self.positives, self.negatives, weighted)
        self.by_negative = _Side(self.negatives[::-1].copy(), self.positives[::-1].copy(), weighted)


@dataclass(frozen=True)
class _Points:
    """Every slice's tie groups, one after the other: `idx` their overall group (rising
    within a slice), `slice` the slice of each, `first` where each slice starts."""

    idx: NDArray[np.intp]
    slice: NDArray[np.intp]
    first: NDArray[np.intp]
    count: NDArray[np.intp]

    def each(self, values: Floats) -> Floats:
        """A value per slice, at each of its points."""
        return np.repeat(values, self.count)

    def sums(self, values: Floats) -> Floats:
        """Each slice's sum of `values`."""
        return np.bincount(self.slice, weights=values, minlength=self.count.size).astype(
            np.float64, copy=False
        )

    def after(self, values: Floats, sums: Floats) -> Floats:
        """At each point, the sum of `values` at the slice's later points (`sums`: each
        slice's sum of `values`)."""
        running = np.cumsum(values)
        before, later = np.zeros(self.first.size), self.first > 0  # the running sum before
        before[later] = running[self.first[later] - 1]
        return self.each(sums) - (running - self.each(before))

    def reversed(self, values: _Values) -> _Values:
        """`values` (one per point) reversed within each slice."""
        found: _Values = np.empty_like(values)
        for start, size in zip(self.first.tolist(), self.count.tolist(), strict=True):
            found[start : start + size] = values[start : start + size][::-1]
        return found


def _both(overall: _Overall, slices: Slices, names: list[str]) -> tuple[list[_Auc], list[_Auc]]:
    """The AUC and DeLong variance of each slice, and of every row not in it."""
    assert slices.rankings is not None
    rankings = slices.rankings
    if not rankings:
        return [], []
    count = np.array([r.scores.size for r in rankings], dtype=np.intp)
    first = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.intp)
    scores = np.concatenate([np.asarray(r.scores, dtype=np.float64) for r in rankings])
    size = overall.negated.size
    idx, every = _groups_of(overall.negated, scores)
    missing = (
        np.zeros(0, dtype=bool)
        if every
        else (idx >= size) | (overall.negated[np.minimum(idx, max(size - 1, 0))] != -scores)
    )
    if missing.any():
        where = int(np.searchsorted(first, int(np.argmax(missing)), side="right")) - 1
        msg = f"slice {names[where]} holds scores the overall Ranking does not hold."
        raise InputError(msg)
    points = _Points(idx, np.repeat(np.arange(count.size), count), first, count)
    p = np.concatenate([np.asarray(r.positives, dtype=np.float64) for r in rankings])
    n = np.concatenate([np.asarray(r.negatives, dtype=np.float64) for r in rankings])
    ranked = _rest_side(overall.by_positive, points, p, n)
    flipped = _Points(size - 1 - points.reversed(idx), points.slice, first, count)
    mirrored = _rest_side(overall.by_negative, flipped, points.reversed(n), points.reversed(p))
    n_pos, n_neg = ranked.x_own, ranked.y_own
    rest_pos, rest_neg = overall.by_positive.x_total - n_pos, overall.by_positive.y_total - n_neg
    own, rest = [], []
    who = "the rest of the rows"
    for s, ranking in enumerate(rankings):
        mine = f"slice {names[s]}"
        if n_pos[s] == 0 or n_neg[s] == 0:
            own.append(_Auc(math.nan, math.nan, f"{mine}: {ranking_reason(ranking, 'auc')}", mine))
        else:
            variance, reason = _variance(
                float(ranked.own[s]), float(mirrored.own[s]), float(n_pos[s]), float(n_neg[s]), mine
            )
            area = min(max(float(ranked.own_pairs[s] / (n_pos[s] * n_neg[s])), 0.0), 1.0)
            own.append(_Auc(area, variance, reason, mine))
        if not rest_pos[s] > _NOISE * overall.by_positive.x_total:
            rest.append(_Auc(math.nan, math.nan, f"{who}: no actual positives (n+ = 0)", who))
        elif not rest_neg[s] > _NOISE * overall.by_positive.y_total:
            rest.append(_Auc(math.nan, math.nan, f"{who}: no actual negatives (n- = 0)", who))
        elif ranked.lossy[s] or mirrored.lossy[s]:
            part = slice(int(first[s]), int(first[s] + count[s]))
            rest.append(_direct(overall, idx[part], p[part], n[part], who))
        else:
            area = min(max(float(ranked.pairs[s] / (rest_pos[s] * rest_neg[s])), 0.0), 1.0)
            variance, reason = _variance(
                float(ranked.rest[s]), float(mirrored.rest[s]), rest_pos[s], rest_neg[s], who
            )
            rest.append(_Auc(area, variance, reason, who))
    return own, rest


def _groups_of(negated: Floats, scores: Floats) -> tuple[NDArray[np.intp], bool]:
    """The overall group (of `negated`, the overall scores negated: ascending) of each of
    the slices' scores (descending within each slice), and whether the slices' scores are
    the overall ones exactly; if not, a score that is not among them has a group whose
    score differs (the caller checks)."""
    # the slices' scores in ascending order (runs already sorted: a quick sort)
    order = np.argsort(-scores, kind="stable")
    ordered = -scores[order]
    idx = np.empty(scores.size, dtype=np.intp)
    new = np.empty(ordered.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    if int(np.count_nonzero(new)) == negated.size and np.array_equal(ordered[new], negated):
        # every overall score is a slice's (the overall Ranking merges the slices'): a
        # score's group is the number of distinct scores below it, no search needed
        idx[order] = np.cumsum(new) - 1
        return idx, True
    idx[order] = np.searchsorted(negated, ordered)
    return idx, False


def _left(total: Floats, part: Floats) -> Floats:
    """total - part, a count the rest keeps at a group; 0 where only rounding is left
    (weights summed in another order)."""
    left = total - part
    return np.where(np.abs(left) <= _NOISE * total, 0.0, left)


@dataclass(frozen=True)
class _Found:
    """Per slice, one side (X among Y) of the slice and of its rest: the pairs in order
    (ties one half), the sample variance of the X placements among the Y, and whether
    the rest's centred sums lost more than 7 of their 16 digits (that rest is then read
    directly); and the slice's X and Y."""

    own_pairs: Floats
    own: Floats
    pairs: Floats
    rest: Floats
    lossy: NDArray[np.bool_]
    x_own: Floats
    y_own: Floats


def _rest_side(side: _Side, points: _Points, x: Floats, y: Floats) -> _Found:
    """One side (X among Y) of every slice and of its rest.

    The slice's own placements are its Y after each group plus half those at it, over its
    Y total, as DeLong's in `informed.inference.delong`.

    The rest's placement at overall group g is (placed[g] - B[g]) / y_rest, B[g] the
    slice's Y after g plus half those at g: centred on the rest's AUC it is
    lam u[g] + c[g], lam = y_total / y_rest, c[g] = lam AUC - AUC_rest - B[g] / y_rest,
    constant between two of the slice's groups. Between them, the sums of X and X u come
    from the prefix sums; at the slice's groups, the rest's X are read one by one.
    """
    idx, each = points.idx, points.each
    x_own, y_own = points.sums(x), points.sums(y)
    x_rest, y_rest = side.x_total - x_own, side.y_total - y_own
    x_at, u_at, cx_at = side.x[idx], side.u[idx], side.cx[idx]
    y_after = points.after(y, y_own)
    own = y_after + y / 2.0  # B at the slice's groups
    above = cx_at + x_at / 2.0  # X before the group and half of it, read by Y
    terms = (points.sums(x * side.placed[idx]), points.sums(y * above))
    own_pairs = points.sums(x * own)
    pairs = side.pairs - terms[0] - terms[1] + own_pairs
    lossy = np.abs(pairs) <= 1e-7 * (side.pairs + terms[0] + terms[1])
    cxu_at = side.cxu[idx]
    # X and X u before the group after the slice's previous one (cx and cxu are running
    # sums: cx[g + 1] = cx[g] + x[g]); 0 before a slice's first group
    cx_start, cxu_start = np.empty_like(cx_at), np.empty_like(cxu_at)
    cx_start[1:] = cx_at[:-1] + x_at[:-1]
    cxu_start[1:] = cxu_at[:-1] + x_at[:-1] * u_at[:-1]
    begins = points.first[points.count > 0]
    cx_start[begins] = 0.0
    cxu_start[begins] = 0.0
    tail = np.zeros(points.count.size, dtype=np.intp)
    ends = points.first + points.count - 1
    tail[points.count > 0] = idx[ends[points.count > 0]] + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = side.y_total / y_rest
        base = scale * side.auc - pairs / (x_rest * y_rest)
        scale_at, base_at, y_rest_at = each(scale), each(base), each(y_rest)
        c = base_at - (y_after + y) / y_rest_at  # between the previous group and this one
        gap = x_at - x if side.exact else _left(x_at, x)
        parts = (
            scale * scale * side.xu2,
            -scale * scale * points.sums(x_at * u_at * u_at),
            points.sums(2.0 * scale_at * c * (cxu_at - cxu_start)),
            points.sums(c * c * (cx_at - cx_start)),
            2.0 * scale * base * (side.cxu[-1] - side.cxu[tail]),
            base * base * (side.cx[-1] - side.cx[tail]),
            points.sums(gap * (scale_at * u_at + base_at - own / y_rest_at) ** 2),
        )
        squares = np.sum(parts, axis=0)
        lossy |= ~(squares > 1e-7 * np.sum(np.abs(parts), axis=0))
        variance = np.where(x_rest > 1, squares / (x_rest - 1.0), np.nan)
        centred = own / each(y_own) - each(own_pairs / (x_own * y_own))
        own_squares = points.sums(x * centred * centred)
        own_variance = np.where(x_own > 1, own_squares / (x_own - 1.0), np.nan)
    return _Found(own_pairs, own_variance, pairs, variance, lossy, x_own, y_own)


def _direct(overall: _Overall, idx: NDArray[np.intp], p: Floats, n: Floats, who: str) -> _Auc:
    """The rest's Ranking built on the overall groups and read as DeLong reads any:
    O(G), for the few slices where the centred sums would lose digits."""
    positives = overall.positives.copy()
    negatives = overall.negatives.copy()
    positives[idx] = _left(positives[idx], p)
    negatives[idx] = _left(negatives[idx], n)
    keep = (positives > 0) | (negatives > 0)
    area, s10, s01, n_pos, n_neg = _group_components(positives[keep], negatives[keep])
    variance, reason = _variance(s10, s01, n_pos, n_neg, who)
    return _Auc(min(max(area, 0.0), 1.0), variance, reason, who)
