"""The rest of every slice read from the overall Ranking, for
`informed.inference.auc_differences`: each slice's and its rest's AUC and DeLong
structural components (DeLong, DeLong & Clarke-Pearson 1988: the sample variances of
the placements of positives among negatives, S10, and of negatives among positives,
S01, ties counting one half).

The rest of a slice is every other row: its Ranking is the overall Ranking less the
slice's. Its AUC and structural components are read without building it: every sum over
the rest's tie groups is the overall sum (taken once, for all slices) less what the
slice's groups change, and the slice's negatives (positives) below a score are a step
function that changes only at the slice's groups. All slices are read at once, in
O(G + g) for the G tie groups of all rows and the g of all slices together, not O(S G):
the terms at every slice's groups are written once into a few arrays and reduced per
slice with one `np.add.reduceat` over the slices' boundaries (the groups of a slice are
contiguous), both sides in the overall order. The placements are centred on the overall
AUC before anything is squared, and where the centred sums lose more than 3 of their 16
digits (a rest of a few rows beside a slice of nearly all, a rest whose scores separate
its classes perfectly) the caller reads that rest's Ranking directly.

References
----------
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under two
or more correlated receiver operating characteristic curves: a nonparametric approach.
Biometrics 44(3):837-845.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from informed.ranking import Ranking
from informed.ranking.rows import runs_order

__all__ = [
    "NOISE",
    "Overall",
    "Points",
    "Side",
    "SliceRests",
    "groups_of",
    "left",
    "side_of",
    "slice_rests",
]

Floats = NDArray[np.float64]

NOISE = 1e-9
"""A count left in the rest below this share of the overall count is rounding (weights)."""


@dataclass(frozen=True)
class Side:
    """The overall Ranking read for the placements of class X among class Y, groups in
    descending score: positives among the negatives below them (S10), negatives among
    the positives above them (S01).

    With placed[g] = Y beyond g + Y[g] / 2 (X's placement at g, times the Y total) and
    w[g] = placed[g] - centre, centre = Y total x AUC (the placement centred on the overall
    AUC, times the Y total): cx the X before each group and cxw the X w before it,
    prefix sums that give any run of groups' sums in O(1); xw2 = sum X w^2.
    """

    x: Floats
    cx: Floats
    cxw: Floats
    xw2: float
    x_total: float
    y_total: float
    centre: float
    exact: bool


def side_of(
    x: Floats, w: Floats, cx: Floats, y_total: float, centre: float, weighted: bool, xw: Floats
) -> Side:
    """A side of the overall Ranking from the placements less the centre, `w` (`Side`),
    and cx, the running sum of x from 0 (`xw`: a buffer of x's size)."""
    x_total = float(cx[-1])
    np.multiply(x, w, out=xw)
    cxw = np.zeros(x.size + 1)
    np.cumsum(xw, out=cxw[1:])
    xw2 = float(np.dot(xw, w))
    # counts (not weights) below 1e9: total - part is exact, never rounding to clear
    exact = not weighted and x_total < 1e9
    return Side(x, cx, cxw, xw2, x_total, y_total, centre, exact)


class Overall:
    """The overall Ranking, read once for every slice's rest."""

    def __init__(self, ranking: Ranking) -> None:
        self.negated = -np.asarray(ranking.scores, dtype=np.float64)  # ascending
        self.positives = p = np.asarray(ranking.positives, dtype=np.float64)
        self.negatives = n = np.asarray(ranking.negatives, dtype=np.float64)
        cp, cn = np.zeros(p.size + 1), np.zeros(n.size + 1)
        np.cumsum(p, out=cp[1:])
        np.cumsum(n, out=cn[1:])
        p_total, n_total = float(cp[-1]), float(cn[-1])
        # the negatives below each group and half those at it (`slice_rests` adds the
        # same way at the slices' groups)
        placed = np.subtract(n_total, cn[1:])
        placed += np.multiply(n, 0.5, out=(buffer := np.empty_like(n)))
        self.pairs = float(np.dot(p, placed))
        product = p_total * n_total
        self.auc = self.pairs / product if product > 0 else math.nan
        weighted = bool(ranking.weighted)
        placed -= n_total * self.auc
        self.by_positive = side_of(p, placed, cp, n_total, n_total * self.auc, weighted, buffer)
        np.multiply(p, 0.5, out=placed)  # the positives above each group, half at it
        placed += cp[:-1]
        placed -= p_total * self.auc
        self.by_negative = side_of(n, placed, cn, p_total, p_total * self.auc, weighted, buffer)


@dataclass(frozen=True)
class Points:
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


def groups_of(negated: Floats, scores: Floats) -> tuple[NDArray[np.intp], bool]:
    """The overall group (of `negated`, the overall scores negated: ascending) of each of
    the slices' scores (descending within each slice), and whether the slices' scores are
    the overall ones exactly; if not, a score that is not among them has a group whose
    score differs (the caller checks)."""
    # the slices' scores in ascending order, equal ones in any order (each gets the
    # same group): a merge of the sorted runs for a few, a quicksort for many (10^7
    # weighted scores in 100 slices: 0.25 s of CPU, not 0.5 s)
    runs = int(np.count_nonzero(scores[1:] > scores[:-1])) + 1
    order = runs_order(np.negative(scores), runs, in_order=False)
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


def left(total: Floats, part: Floats) -> Floats:
    """total - part, a count the rest keeps at a group; 0 where only rounding is left
    (weights summed in another order)."""
    kept = total - part
    return np.where(np.abs(kept) <= NOISE * total, 0.0, kept)


@dataclass(frozen=True)
class SliceRests:
    """Per slice: its positives and negatives and the rest's, the slice's pairs in order
    (ties one half) and the rest's, the sample variances of the placements of positives
    among negatives (10) and of negatives among positives (01) of the slice and of the
    rest, and whether the rest's centred sums lost more than 3 of their 16 digits (that
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


def slice_rests(overall: Overall, points: Points, p: Floats, n: Floats) -> SliceRests:
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
    # the overall placements at the points, added as `Overall` adds them (cumsum adds
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
    lossy = np.abs(pairs) <= 1e-3 * (overall.pairs + with_p + with_n)
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
    return SliceRests(
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
    side: Side,
    points: Points,
    at: tuple[Floats, Floats, Floats, Floats, Floats, Floats],
    sign: float,
    per_slice: tuple[Floats, Floats, Floats, Floats, Floats, Floats, Floats],
) -> tuple[Floats, Floats, NDArray[np.bool_]]:
    """One side (X among Y) of every slice and of its rest: the sample variances of the
    X placements of the slice and of the rest, and whether the rest's sums lost digits.

    `at` holds, at each point: the slice's X; the overall X, the overall X before the
    point and the overall placed (`Side`) there, all three overwritten; the slice's Y
    before the point (in the overall order) and those plus half the Y at it (h). `sign`
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
    rows[3] *= np.subtract(x_at, x, out=x_at) if side.exact else left(x_at, x)  # the rest's X
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
    lossy = ~(squares > 1e-3 * np.sum(np.abs(parts), axis=0))
    rest = np.where(x_rest > 1, squares / (y_rest * y_rest) / (x_rest - 1.0), np.nan)
    own = np.where(x_own > 1, sums[4] / (y_own * y_own) / (x_own - 1.0), np.nan)
    return own, rest, lossy


def _between(points: Points, before: Floats, after: Floats, total: float) -> tuple[Floats, Floats]:
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
