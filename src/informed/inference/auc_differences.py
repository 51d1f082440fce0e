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
@dataclass(frozen=True)
class _Side:
    """The overall Ranking read for the placements of class X among class Y, groups in
    descending score: positives among the negatives below them (S10), negatives among
    the positives above them (S01).

    placed[g] = Y beyond g + Y[g] / 2 (X's placement at g, times the Y total), cx the X
    before each group and cxw the X w before it, w = placed - Y total x AUC the placement
    centred on the overall AUC (times the Y total): prefix sums that give any run of
    groups' sums in O(1); xw2 = sum X w^2; centre = Y total x AUC.
    """

    x: Floats
    placed: Floats
    cx: Floats
    cxw: Floats
    xw2: float
    x_total: float
    y_total: float
    centre: float
    exact: bool


def _side(
    x: Floats, placed: Floats, cx: Floats, y_total: float, auc: float, weighted: bool
) -> _Side:
    """A side of the overall Ranking (cx: the running sum of x from 0)."""
    x_total = float(cx[-1])
    centre = y_total * auc
    w = np.subtract(placed, centre)
    xw = np.multiply(x, w)
    cxw = np.zeros(x.size + 1)
    np.cumsum(xw, out=cxw[1:])
    xw2 = float(np.dot(xw, w))
    # counts (not weights) below 1e9: total - part is exact, never rounding to clear
    exact = not weighted and x_total < 1e9
    return _Side(x, placed, cx, cxw, xw2, x_total, y_total, centre, exact)


class _Overall:
    """The overall Ranking, read once for every slice's rest."""

    def __init__(self, ranking: Ranking) -> None:
        self.negated = -np.asarray(ranking.scores, dtype=np.float64)  # ascending
        self.positives = p = np.asarray(ranking.positives, dtype=np.float64)
        self.negatives = n = np.asarray(ranking.negatives, dtype=np.float64)
        cp, cn = np.zeros(p.size + 1), np.zeros(n.size + 1)
        np.cumsum(p, out=cp[1:])
        np.cumsum(n, out=cn[1:])
        p_total, n_total = float(cp[-1]), float(cn[-1])
        below = np.subtract(n_total, cn[1:])  # the negatives below each group, half at it
        below += n * 0.5
        above = p * 0.5  # the positives above each group, half at it
        above += cp[:-1]
        self.pairs = float(np.dot(p, below))
        product = p_total * n_total
        self.auc = self.pairs / product if product > 0 else math.nan
        weighted = bool(ranking.weighted)
        self.by_positive = _side(p, below, cp, n_total, self.auc, weighted)
        self.by_negative = _side(n, above, cn, p_total, self.auc, weighted)


@dataclass(frozen=True)
class _Points:
    """Every slice's tie groups, one after the other: `idx` their overall group (rising
    within a slice), `first` where each slice starts, `count` its groups."""

    idx: NDArray[np.intp]
    first: NDArray[np.intp]
    count: NDArray[np.intp]

    @property
    def starts(self) -> NDArray[np.intp]:
        """Where each slice with a group starts."""
        return self.first[self.count > 0]

    @property
    def ends(self) -> NDArray[np.intp]:
        """The last group of each slice with a group."""
        return (self.first + self.count - 1)[self.count > 0]

    def each(self, values: Floats) -> Floats:
        """A value per slice, at each of its points."""
        return np.repeat(values, self.count)

    def sums(self, rows: Floats) -> Floats:
        """Each slice's sum of each row of `rows` (rows x points), added in point order."""
        found = np.zeros((rows.shape[0], self.count.size))
        if rows.shape[1]:
            found[:, self.count > 0] = np.add.reduceat(rows, self.starts, axis=1)
        return found

    def before(self, values: Floats) -> tuple[Floats, Floats]:
        """At each point, the sum of `values` at the slice's earlier points, added in
        point order within the slice alone; and each slice's sum."""
        found, totals = np.empty_like(values), np.zeros(self.count.size)
        for s, (start, size) in enumerate(
            zip(self.first.tolist(), self.count.tolist(), strict=True)
        ):
            if size:
                found[start] = 0.0
                np.cumsum(values[start : start + size - 1], out=found[start + 1 : start + size])
                totals[s] = found[start + size - 1] + values[start + size - 1]
        return found, totals


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
    points = _Points(idx, first, count)
    p = np.concatenate([np.asarray(r.positives, dtype=np.float64) for r in rankings])
    n = np.concatenate([np.asarray(r.negatives, dtype=np.float64) for r in rankings])
    found = _rest(overall, points, p, n)
    n_pos, n_neg, rest_pos, rest_neg = found.x_own, found.y_own, found.x_rest, found.y_rest
    own, rest = [], []
    who = "the rest of the rows"
    for s, ranking in enumerate(rankings):
        mine = f"slice {names[s]}"
        if n_pos[s] == 0 or n_neg[s] == 0:
            own.append(_Auc(math.nan, math.nan, f"{mine}: {ranking_reason(ranking, 'auc')}", mine))
        else:
            variance, reason = _variance(
                float(found.own10[s]), float(found.own01[s]), float(n_pos[s]), float(n_neg[s]), mine
            )
            area = min(max(float(found.own_pairs[s] / (n_pos[s] * n_neg[s])), 0.0), 1.0)
            own.append(_Auc(area, variance, reason, mine))
        if not rest_pos[s] > _NOISE * overall.by_positive.x_total:
            rest.append(_Auc(math.nan, math.nan, f"{who}: no actual positives (n+ = 0)", who))
        elif not rest_neg[s] > _NOISE * overall.by_negative.x_total:
            rest.append(_Auc(math.nan, math.nan, f"{who}: no actual negatives (n- = 0)", who))
        elif found.lossy[s]:
            part = slice(int(first[s]), int(first[s] + count[s]))
            rest.append(_direct(overall, idx[part], p[part], n[part], who))
        else:
            area = min(max(float(found.pairs[s] / (rest_pos[s] * rest_neg[s])), 0.0), 1.0)
            variance, reason = _variance(
                float(found.rest10[s]), float(found.rest01[s]), rest_pos[s], rest_neg[s], who
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
    """Per slice: its positives and negatives and the rest's, the slice's pairs in order
    (ties one half) and the rest's, the sample variances of the placements of positives
    among negatives (10) and of negatives among positives (01) of the slice and of the
    rest, and whether the rest's centred sums lost more than 7 of their 16 digits (that
    rest is then read directly)."""

    x_own: Floats
    y_own: Floats
    x_rest: Floats
    y_rest: Floats
    own_pairs: Floats
    pairs: Floats
    own10: Floats
    own01: Floats
    rest10: Floats
    rest01: Floats
    lossy: NDArray[np.bool_]


def _rest(overall: _Overall, points: _Points, p: Floats, n: Floats) -> _Found:
    """Every slice and its rest, both sides (p and n: the slice's positives and
    negatives at its points).

    The rest's pairs are the overall pairs less those with a positive or a negative of
    the slice, plus the slice's own pairs (counted twice); see `_rest_side` for the
    variances.
    """
    n_before, n_own = points.before(n)
    p_before, p_own = points.before(p)
    n_half = np.multiply(n, 0.5)
    n_half += n_before  # the slice's negatives above each point and half those at it
    p_half = np.multiply(p, 0.5)
    p_half += p_before
    idx = points.idx
    p_at, n_at = overall.positives[idx], overall.negatives[idx]
    cp_at, cn_at = overall.by_positive.cx[idx], overall.by_negative.cx[idx]
    # the overall placements at the points, added as `_Overall` adds them (cumsum adds
    # in order: cn[g + 1] = cn[g] + n[g]), read without two more gathers
    below_at = np.add(cn_at, n_at)
    np.subtract(overall.by_positive.y_total, below_at, out=below_at)
    below_at += n_at * 0.5
    above_at = p_at * 0.5
    above_at += cp_at
    rows = np.empty((3, points.idx.size))
    np.multiply(p, below_at, out=rows[0])
    np.multiply(n, above_at, out=rows[1])
    np.subtract(points.each(n_own), n_half, out=rows[2])  # the slice's negatives below
    rows[2] *= p
    with_p, with_n, own_pairs = points.sums(rows)
    del rows
    pairs = overall.pairs - with_p - with_n + own_pairs
    lossy = np.abs(pairs) <= 1e-7 * (overall.pairs + with_p + with_n)
    p_rest = overall.by_positive.x_total - p_own
    n_rest = overall.by_negative.x_total - n_own
    with np.errstate(divide="ignore", invalid="ignore"):
        shift = overall.by_positive.y_total * overall.auc - pairs / p_rest
        own10, rest10, lossy10 = _rest_side(
            overall.by_positive,
            points,
            (p, p_at, cp_at, below_at, n_before, n_half),
            1.0,
            (n_own - own_pairs / p_own, shift - n_own, shift, p_own, n_own, p_rest, n_rest),
        )
        del below_at, p_at, cp_at
        shift = overall.by_negative.y_total * overall.auc - pairs / n_rest
        own01, rest01, lossy01 = _rest_side(
            overall.by_negative,
            points,
            (n, n_at, cn_at, above_at, p_before, p_half),
            -1.0,
            (-own_pairs / n_own, shift, shift - p_own, n_own, p_own, n_rest, p_rest),
        )
    return _Found(
        p_own,
        n_own,
        p_rest,
        n_rest,
        own_pairs,
        pairs,
        own10,
        own01,
        rest10,
        rest01,
        lossy | lossy10 | lossy01,
    )


def _rest_side(
    side: _Side,
    points: _Points,
    at: tuple[Floats, Floats, Floats, Floats, Floats, Floats],
    sign: float,
    per_slice: tuple[Floats, Floats, Floats, Floats, Floats, Floats, Floats],
) -> tuple[Floats, Floats, NDArray[np.bool_]]:
    """One side (X among Y) of every slice and of its rest: the sample variances of the
    X placements of the slice and of the rest, and whether the rest's sums lost digits.

    `at` holds, at each point, the slice's X, `side.placed` (overwritten), the slice's Y
    before the point (in the overall order) and those plus half the Y at it (h); `sign`
    is 1 where the placements count the Y below (positives among negatives), -1 where
    they count the Y above. The slice's own placement at a point, times its Y total and
    centred on its AUC, is F - sign h. The rest's placement at overall group g, times its
    Y total, is placed[g] - B[g], B[g] the slice's Y beyond g plus half those at g;
    centred on the rest's AUC it is w[g] + e[g], e[g] = Y total x AUC - Y rest x AUC rest
    - B[g]: E + sign h at the slice's groups, E + sign (the Y before) between the slice's
    previous group and this one, e_tail after its last. Between its groups, the sums of
    X and X w come from the prefix sums; at them, the rest's X are read one by one. The
    sums are scaled by the Y totals only at the end.
    """
    x, x_at, between_x, w, y_before, half = at
    own_centre, shift, tail_shift, x_own, y_own, x_rest, y_rest = per_slice
    rows = np.empty((5, x.size))
    w -= side.centre
    np.multiply(x_at, w, out=rows[0])  # X w at the slice's groups, all of it
    between_xw = side.cxw[points.idx]
    ranges = (
        _between(points, between_x, np.add(between_x, x_at), side.x_total),
        _between(points, between_xw, np.add(between_xw, rows[0]), float(side.cxw[-1])),
    )
    rows[0] *= w
    e = points.each(shift)
    np.add(w, e, out=rows[3])
    del w
    if sign > 0:
        rows[3] += half
        e += y_before
    else:
        rows[3] -= half
        e -= y_before
    rows[3] *= rows[3]
    rows[3] *= np.subtract(x_at, x, out=x_at) if side.exact else _left(x_at, x)  # the rest's X
    (tail_x, between_x), (tail_xw, between_xw) = ranges
    np.multiply(e, between_xw, out=rows[1])
    np.multiply(e, e, out=rows[2])
    rows[2] *= between_x
    del e, between_x, between_xw, ranges
    (np.subtract if sign > 0 else np.add)(points.each(own_centre), half, out=rows[4])
    rows[4] *= rows[4]
    rows[4] *= x
    sums = points.sums(rows)
    del rows
    parts = (
        np.full(x_own.size, side.xw2),
        -sums[0],
        2.0 * sums[1],
        sums[2],
        2.0 * tail_shift * tail_xw,
        tail_shift * tail_shift * tail_x,
        sums[3],
    )
    squares = np.sum(parts, axis=0)
    lossy = ~(squares > 1e-7 * np.sum(np.abs(parts), axis=0))
    rest = np.where(x_rest > 1, squares / (y_rest * y_rest) / (x_rest - 1.0), np.nan)
    own = np.where(x_own > 1, sums[4] / (y_own * y_own) / (x_own - 1.0), np.nan)
    return own, rest, lossy


def _between(points: _Points, before: Floats, after: Floats, total: float) -> tuple[Floats, Floats]:
    """From a running sum before and after each point (`before` overwritten): each
    slice's sum after its last point, and at each point the sum strictly between the
    slice's previous point (or the start) and this one."""
    tail = np.full(points.count.size, total)
    tail[points.count > 0] -= after[points.ends]
    starts = points.starts
    first = before[starts]
    before[1:] -= after[:-1]
    before[starts] = first
    return tail, before


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
