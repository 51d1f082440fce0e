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
the overall Ranking's counts and prefix sums are laid out a group to a row (`Overall`),
the rows at every slice's groups taken at once, and the terms there computed a block of
`BLOCK` points at a time (the block's arrays stay in the processor's cache, where a pass
over all 10^7 points would go to memory some fifty times) and reduced per slice with
`np.add.reduceat` over the slices' boundaries (the groups of a slice are contiguous),
both sides in the overall order. The placements are centred on the overall AUC before
anything is squared, and where the centred sums lose more than 3 of their 16 digits (a
rest of a few rows beside a slice of nearly all, a rest whose scores separate its
classes perfectly) the caller reads that rest's Ranking directly.

References
----------
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under two
or more correlated receiver operating characteristic curves: a nonparametric approach.
Biometrics 44(3):837-845.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from informed.ranking import Ranking
from informed.ranking.rows import runs_order

__all__ = [
    "BLOCK",
    "NOISE",
    "Overall",
    "Points",
    "Side",
    "SliceRests",
    "groups_of",
    "left",
    "slice_rests",
]

Floats = NDArray[np.float64]

NOISE = 1e-9
"""A count left in the rest below this share of the overall count is rounding (weights)."""

BLOCK = 16_384
"""Points (or overall groups) computed at a time: the dozen arrays of a block stay in
the cache (10^7 points: about 3x faster than passes over whole arrays)."""

# the columns of `Overall.table`: the score, the positives and negatives of the group,
# and before it (in descending score) the positives, the negatives and the sums of X w
# of both sides (`Side`)
_SCORE, _P, _N, _CP, _CN, _CXW10, _CXW01 = range(7)
_ROW = np.dtype([(f"c{k}", np.float64) for k in range(7)])


@dataclass(frozen=True)
class Side:
    """The overall Ranking read for the placements of class X among class Y, groups in
    descending score: positives among the negatives below them (S10), negatives among
    the positives above them (S01).

    With placed[g] = Y beyond g + Y[g] / 2 (X's placement at g, times the Y total) and
    w[g] = placed[g] - centre, centre = Y total x AUC (the placement centred on the overall
    AUC, times the Y total): xw2 = sum X w^2 and xw_total = sum X w; the running sums of
    X and X w before each group are columns of `Overall.table`.
    """

    xw2: float
    xw_total: float
    x_total: float
    y_total: float
    centre: float
    exact: bool


class Overall:
    """The overall Ranking, read once for every slice's rest: `table` holds a row per
    tie group (descending score): the score, its positives and negatives, and before it
    the positives, the negatives and the running sums of X w of both sides (`Side`)."""

    def __init__(self, ranking: Ranking) -> None:
        self.scores = np.asarray(ranking.scores, dtype=np.float64)
        self.positives = p = np.asarray(ranking.positives, dtype=np.float64)
        self.negatives = n = np.asarray(ranking.negatives, dtype=np.float64)
        size = p.size
        cp, cn = np.zeros(size + 1), np.zeros(size + 1)  # before each group, and all
        np.cumsum(p, out=cp[1:])
        np.cumsum(n, out=cn[1:])
        p_total, n_total = float(cp[-1]), float(cn[-1])
        pairs = 0.0
        for a in range(0, size, BLOCK):
            b = min(a + BLOCK, size)
            pairs += _dot(p[a:b], _below(cn[a + 1 : b + 1], n[a:b], n_total))
        self.pairs = pairs
        product = p_total * n_total
        self.auc = auc = pairs / product if product > 0 else math.nan
        centre10, centre01 = n_total * auc, p_total * auc
        self.table = table = np.empty((size, 7))
        block = np.empty((7, min(BLOCK, size)))
        sums = [0.0] * 4  # sum X w and sum X w^2, each side
        for a in range(0, size, BLOCK):
            b = min(a + BLOCK, size)
            rows = block[:, : b - a]
            rows[_SCORE], rows[_P], rows[_N] = self.scores[a:b], p[a:b], n[a:b]
            rows[_CP], rows[_CN] = cp[a:b], cn[a:b]
            w = _below(cn[a + 1 : b + 1], n[a:b], n_total)
            w -= centre10
            sums[0:2] = _xw(p[a:b], w, sums[0:2], rows[_CXW10])
            w = _above(p[a:b], cp[a:b])
            w -= centre01
            sums[2:4] = _xw(n[a:b], w, sums[2:4], rows[_CXW01])
            table[a:b] = rows.T
        # counts (not weights) below 1e9: total - part is exact, never rounding to clear
        weighted = bool(ranking.weighted)
        exact10, exact01 = not weighted and p_total < 1e9, not weighted and n_total < 1e9
        self.by_positive = Side(sums[1], sums[0], p_total, n_total, centre10, exact10)
        self.by_negative = Side(sums[3], sums[2], n_total, p_total, centre01, exact01)

    @cached_property
    def negated(self) -> Floats:
        """The overall scores negated (ascending), for a search of the slices' scores."""
        return np.negative(self.scores)

    def at(self, idx: NDArray[np.intp]) -> Floats:
        """The rows of `table` at the groups `idx` (all in range), taken at once."""
        found = np.take(self.table.view(_ROW).reshape(-1), idx)
        return found.view(np.float64).reshape(idx.size, 7)


def _running(values: Floats, carry: float, before: Floats) -> float:
    """Write into `before` the running sum of `values` before each, starting from
    `carry` and added in order (as one cumsum of the whole column adds); return the sum
    after the last."""
    if not values.size:
        return carry
    after = values.copy()
    after[0] += carry
    np.cumsum(after, out=after)
    before[0] = carry
    before[1:] = after[:-1]
    return float(after[-1])


def _below(after: Floats, y: Floats, y_total: float) -> Floats:
    """The negatives below each group and half those at it, from the negatives up to
    and including each (`after`) and at it (`y`)."""
    below = np.subtract(y_total, after)
    below += y * 0.5
    return below


def _above(x: Floats, before: Floats) -> Floats:
    """The positives above each group and half those at it."""
    above = x * 0.5
    above += before
    return above


def _dot(a: Floats, b: Floats) -> float:
    """sum a b, without BLAS (whose threads, called a block at a time, spin: 10^7 groups
    in blocks took seconds of CPU)."""
    found = np.multiply(a, b)
    return float(found.sum())


def _xw(x: Floats, w: Floats, sums: list[float], before: Floats) -> list[float]:
    """Write into `before` the running sum of X w before each group, from sums[0];
    return the sums of X w and of X w^2 after the block."""
    xw = np.multiply(x, w)
    return [_running(xw, sums[0], before), sums[1] + _dot(xw, w)]


@dataclass(frozen=True)
class Points:
    """Every slice's tie groups, one after the other: `idx` their overall group (rising
    within a slice), `first` where each slice starts, `count` its groups."""

    idx: NDArray[np.intp]
    first: NDArray[np.intp]
    count: NDArray[np.intp]

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


@dataclass(frozen=True)
class _Block:
    """Points a to b: the slices (counted among those with points) k0 to k1 meet them,
    each in a run from `starts` (within the block) of `sizes` points; `fresh` the runs
    that start their slice here; `ends` the last point (within the block) of the slices
    k0 to k0 + ends.size, which end here."""

    a: int
    b: int
    k0: int
    k1: int
    starts: NDArray[np.intp]
    sizes: NDArray[np.intp]
    fresh: NDArray[np.intp]
    ends: NDArray[np.intp]

    def each(self, values: Floats) -> Floats:
        """A value per slice (of those with points), at each of its points here."""
        return np.repeat(values[self.k0 : self.k1], self.sizes)

    def add(self, found: Floats, rows: Floats) -> None:
        """Add each slice's sums of each row of `rows` (rows x points) into `found`
        (rows x slices with points)."""
        found[:, self.k0 : self.k1] += np.add.reduceat(rows, self.starts, axis=1)

    def between(self, before: Floats, after: Floats, carry: float) -> Floats:
        """From a running sum before and after each point (and after the point before
        the block, `carry`): at each point the sum strictly between the slice's previous
        point (or the start) and this one."""
        found = np.empty_like(before)
        np.subtract(before[1:], after[:-1], out=found[1:])
        found[0] = before[0] - carry
        found[self.fresh] = before[self.fresh]
        return found

    def tail(self, found: Floats, total: float, after: Floats) -> None:
        """Each slice ending here: the sum after its last point (total less `after`)."""
        found[self.k0 : self.k0 + self.ends.size] = total - after[self.ends]


def _blocks(points: Points) -> Iterator[_Block]:
    """The points, BLOCK at a time."""
    has = points.count > 0
    starts = points.first[has]
    ends = starts + points.count[has]
    size = int(points.idx.size)
    for a in range(0, size, BLOCK):
        b = min(a + BLOCK, size)
        k0 = int(np.searchsorted(ends, a, side="right"))
        k1 = int(np.searchsorted(starts, b, side="left"))
        done = int(np.searchsorted(ends, b, side="right"))
        low = np.maximum(starts[k0:k1], a) - a
        sizes = np.minimum(ends[k0:k1], b) - a - low
        fresh = low if starts[k0] == a else low[1:]
        yield _Block(a, b, k0, k1, low, sizes, fresh, ends[k0:done] - 1 - a)


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


def slice_rests(
    overall: Overall, points: Points, p: Floats, n: Floats, scores: Floats | None = None
) -> SliceRests | None:
    """Every slice and its rest, both sides (p and n: the slice's positives and
    negatives at its points); with the slices' `scores` at their points, None if a
    point's overall group does not hold its score (a stale `Slices.overall_groups`).

    The rest's pairs are the overall pairs less those with a positive or a negative of
    the slice, plus the slice's own pairs (counted twice); see `_terms` for the
    variances. Two passes over the points: the pairs first (the rest's AUC centres the
    rest's placements), then the placements' terms.
    """
    n_before, n_own = points.before(n)
    p_before, p_own = points.before(p)
    has = points.count > 0
    at, blocks = overall.at(points.idx), list(_blocks(points))
    n_total = overall.by_positive.y_total
    found = np.zeros((3, int(np.count_nonzero(has))))
    for block in blocks:
        a, b = block.a, block.b
        score, pos, neg, pos_before, neg_before = np.ascontiguousarray(at[a:b, : _CN + 1].T)
        if scores is not None and not np.array_equal(score, scores[a:b]):
            return None
        rows = np.empty((3, b - a))
        # the overall negatives up to each group: before[g + 1] read as before[g] + n[g],
        # the running sum's own addition
        np.multiply(p[a:b], _below(np.add(neg_before, neg), neg, n_total), out=rows[0])
        np.multiply(n[a:b], _above(pos, pos_before), out=rows[1])
        half = np.multiply(n[a:b], 0.5)
        half += n_before[a:b]  # the slice's negatives above the point and half those at it
        np.subtract(block.each(n_own[has]), half, out=rows[2])  # the slice's negatives below
        rows[2] *= p[a:b]
        block.add(found, rows)
    with_p, with_n, own_pairs = _per_slice(found, has, 0.0)
    pairs = overall.pairs - with_p - with_n + own_pairs
    lossy = np.abs(pairs) <= 1e-3 * (overall.pairs + with_p + with_n)
    p_rest = overall.by_positive.x_total - p_own
    n_rest = overall.by_negative.x_total - n_own
    ten, one = overall.by_positive, overall.by_negative
    with np.errstate(divide="ignore", invalid="ignore"):
        shift10 = ten.y_total * overall.auc - pairs / p_rest
        shift01 = one.y_total * overall.auc - pairs / n_rest
        # per slice, each side: E (`_terms`) and the slice's own centre
        each = np.stack([shift10 - n_own, n_own - own_pairs / p_own, shift01, -own_pairs / n_own])
    each = each[:, has]
    totals = np.array([[ten.x_total], [ten.xw_total], [one.x_total], [one.xw_total]])
    sums, tails = np.zeros((10, each.shape[1])), np.repeat(totals, each.shape[1], axis=1)
    carry = [0.0] * 4
    for block in blocks:
        a, b = block.a, block.b
        pos, neg, pos_before, neg_before, xw10, xw01 = np.ascontiguousarray(at[a:b, _P:].T)
        n_half = np.multiply(n[a:b], 0.5)
        n_half += n_before[a:b]
        p_half = np.multiply(p[a:b], 0.5)
        p_half += p_before[a:b]  # the slice's positives above the point and half those at it
        below, above = _below(np.add(neg_before, neg), neg, n_total), _above(pos, pos_before)
        rows = np.empty((10, b - a))
        carry[0:2] = _terms(
            ten,
            block,
            (p[a:b], pos, pos_before, xw10, below, n_before[a:b], n_half),
            1.0,
            (block.each(each[0]), block.each(each[1]), carry[0:2], tails[0:2]),
            rows[:5],
        )
        carry[2:4] = _terms(
            one,
            block,
            (n[a:b], neg, neg_before, xw01, above, p_before[a:b], p_half),
            -1.0,
            (block.each(each[2]), block.each(each[3]), carry[2:4], tails[2:4]),
            rows[5:],
        )
        block.add(sums, rows)
    every, tail = _per_slice(sums, has, 0.0), _per_slice(tails, has, totals)
    with np.errstate(divide="ignore", invalid="ignore"):
        own10, rest10, lossy10 = _variances(
            ten, every[:5], tail[0:2], (shift10, p_own, n_own, p_rest, n_rest)
        )
        own01, rest01, lossy01 = _variances(
            one, every[5:], tail[2:4], (shift01 - p_own, n_own, p_own, n_rest, p_rest)
        )
    return SliceRests(
        *(p_own, n_own, p_rest, n_rest, own_pairs, pairs),
        *(own10, own01, rest10, rest01, lossy | lossy10 | lossy01),
    )


def _per_slice(found: Floats, has: NDArray[np.bool_], otherwise: float | Floats) -> Floats:
    """Rows of values of the slices with points, as rows of every slice (`otherwise`,
    or its row's, for a slice without points)."""
    every = np.empty((found.shape[0], has.size))
    every[:] = otherwise
    every[:, has] = found
    return every


def _terms(
    side: Side,
    block: _Block,
    at: tuple[Floats, Floats, Floats, Floats, Floats, Floats, Floats],
    sign: float,
    each: tuple[Floats, Floats, list[float], Floats],
    rows: Floats,
) -> list[float]:
    """One side (X among Y) of a block of points: the terms of the sums of squares of
    the slice's and the rest's placements, written into `rows` (5 x points).

    `at` holds, at each point: the slice's X; the overall X, the overall X and X w
    before the point and the overall placement (`Side`) there, all four overwritten;
    the slice's Y before the point (in the overall order) and those plus half the Y at
    it (h). `sign` is 1 where the placements count the Y below (positives among
    negatives), -1 where they count the Y above. The slice's own placement at a point,
    times its Y total and centred on its AUC, is F - sign h. The rest's placement at
    overall group g, times its Y total, is placed[g] - B[g], B[g] the slice's Y beyond g
    plus half those at g; centred on the rest's AUC it is w[g] + e[g], e[g] = Y total x
    AUC - Y rest x AUC rest - B[g]: E + sign h at the slice's groups, E + sign (the Y
    before) between the slice's previous group and this one, e_tail after its last.
    Between its groups, the sums of X and X w come from the running sums; at them, the
    rest's X are read one by one. `each` holds E and F at each point, the running sums
    of X and X w after the point before the block (returned for the next block), and
    where each slice's sums after its last point go.
    """
    x, x_at, before_x, before_xw, w, y_before, half = at
    e, own_centre, carry, tails = each
    w -= side.centre
    np.multiply(x_at, w, out=rows[0])  # X w at the slice's groups, all of it
    after_x, after_xw = np.add(before_x, x_at), np.add(before_xw, rows[0])
    block.tail(tails[0], side.x_total, after_x)
    block.tail(tails[1], side.xw_total, after_xw)
    between_x = block.between(before_x, after_x, carry[0])
    between_xw = block.between(before_xw, after_xw, carry[1])
    rows[0] *= w
    np.add(w, e, out=rows[3])
    if sign > 0:
        rows[3] += half
        e += y_before
    else:
        rows[3] -= half
        e -= y_before
    rows[3] *= rows[3]
    rows[3] *= np.subtract(x_at, x, out=x_at) if side.exact else left(x_at, x)  # the rest's X
    np.multiply(e, between_xw, out=rows[1])
    np.multiply(e, e, out=rows[2])
    rows[2] *= between_x
    (np.subtract if sign > 0 else np.add)(own_centre, half, out=rows[4])
    rows[4] *= rows[4]
    rows[4] *= x
    return [float(after_x[-1]), float(after_xw[-1])]


def _variances(
    side: Side,
    sums: Floats,
    tail: Floats,
    per_slice: tuple[Floats, Floats, Floats, Floats, Floats],
) -> tuple[Floats, Floats, NDArray[np.bool_]]:
    """One side of every slice and of its rest from the sums of `_terms`: the sample
    variances of the X placements of the slice and of the rest (the sums scaled by the
    Y totals only here), and whether the rest's sums lost digits."""
    tail_x, tail_xw = tail
    tail_shift, x_own, y_own, x_rest, y_rest = per_slice
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
