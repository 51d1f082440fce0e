"""Curves of a Ranking by score threshold: precision and recall at t, ROC and its hull.

A threshold t selects the rows scored above it (`rule=">"`, Arbel & Rokach's eq. 2-3) or
at least t (`rule=">="`). A tie group is selected whole or not at all, so ROC points
sit at tie-group boundaries and a group is one straight segment, never split into
order-dependent stairs. Everything is vectorised over the groups, except the convex
hull's rare fallback.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
Provost, F. & Fawcett, T. (2001). Robust classification for imprecise environments.
Machine Learning 42(3):203-231.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.measures.counts import ratio
from informed.ranking.blocks import blocks
from informed.ranking.groups import FloatArray, Groups, Quotas, as_result
from informed.ranking.ranking import Ranking, groups_of
from informed.ranking.sums import POSITIONS

__all__ = [
    "RocCurve",
    "precision_at",
    "recall_at",
    "roc_convex_hull",
    "roc_curve",
]

Rule = Literal[">", ">="]

# The convex hull drops concave points in vectorised passes; after this many, it
# finishes the (adversarial) remainder with a sequential monotone chain.
_HULL_PASSES = 64
# Points per block of the hull's first stage: a block's arrays stay in the cache.
_HULL_BLOCK = 1 << 18
# Every this-many-th candidate (or point, with one row per group) of a block makes a first
# hull, which most points are below.
_HULL_SAMPLE = 256


def _predicted(
    ranking: Ranking, threshold: float | Quotas, rule: str
) -> tuple[Groups, NDArray[np.intp], bool]:
    if rule not in (">", ">="):
        msg = f"`rule` must be '>' (Arbel & Rokach's) or '>='; got {rule!r}."
        raise InputError(msg)
    try:
        values = np.asarray(threshold, dtype=np.float64)
    except (TypeError, ValueError) as error:
        msg = f"`threshold` must be a number or an array of numbers; got {threshold!r}."
        raise InputTypeError(msg) from error
    if np.isnan(values).any():
        msg = "`threshold` must not be NaN."
        raise InputError(msg)
    return groups_of(ranking), _count_above(ranking.scores, values, rule), values.ndim == 0


# Up to this many thresholds are found by a vectorised bisection of the descending
# scores, which reads ~log2(U) of them per threshold; more search a negated copy.
_BISECT = 4096


def _count_above(scores: FloatArray, values: FloatArray, rule: str) -> NDArray[np.intp]:
    """How many of the descending `scores` are > each value (`rule` ">") or >= it."""
    if values.size > _BISECT:
        side: Literal["left", "right"] = "left" if rule == ">" else "right"
        return np.asarray(np.searchsorted(-scores, -values, side=side))
    compare = np.greater if rule == ">" else np.greater_equal
    low = np.zeros(values.shape, dtype=np.intp)
    high = np.full(values.shape, scores.size, dtype=np.intp)
    last = max(scores.size - 1, 0)
    for _ in range(int(scores.size).bit_length()):
        middle = (low + high) // 2
        admitted = compare(scores[np.minimum(middle, last)], values) & (low < high)
        low = np.where(admitted, middle + 1, low)
        high = np.where(admitted, high, middle)
    return low


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
    selected = ratio(groups.cumulative_positives[count], groups.total_at(count))
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
        counts, so exact for integer counts). Nothing else is dropped, and nothing is
        dropped unless asked: scikit-learn's `drop_intermediate` is on by default and is
        a heuristic (for y = [0, 0, 0, 0, 1, 1, 1, 1] scored 0..7 it keeps the collinear
        point (0, 0.25)).

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
    if not full:
        negatives = _rate(groups.negatives_at(index), groups.n_negative, fresh=True)
    elif groups.built is None:  # one row per group: the position less the positives
        negatives = _unit_negative_rate(index, groups)
    else:
        negatives = _rate(groups.cumulative_negatives, groups.n_negative)
    positives = groups.cumulative_positives if full else groups.cumulative_positives[index]
    if full:
        thresholds = np.concatenate(([np.inf], ranking.scores))
    else:  # point i selects groups 0..i-1: its threshold is the score of group i-1
        thresholds = ranking.scores[np.maximum(index - 1, 0)]
        thresholds[index == 0] = np.inf
    return RocCurve(
        false_positive_rate=negatives,
        true_positive_rate=_rate(positives, groups.n_positive),
        thresholds=thresholds,
        index=index,
    )


def _unit_negative_rate(index: NDArray[np.intp], groups: Groups) -> FloatArray:
    """(i - P_i) / n- at every ROC point i of groups of one row each (P: the positives
    before), made block by block in a cache-sized buffer from the positions of the block
    (not read from `index`): the rates are the one array written to memory."""
    if groups.n_negative == 0:
        return np.full(index.shape, np.nan)
    rate = np.empty(index.size)
    buffer = np.empty(min(index.size, POSITIONS.size))
    for low, high in blocks(index.size):
        part = np.add(POSITIONS[: high - low], low - 1.0, out=buffer[: high - low])  # low, ...
        part -= groups.cumulative_positives[low:high]
        np.divide(part, groups.n_negative, out=rate[low:high])
    return rate


def _rate(counts: FloatArray, total: float, *, fresh: bool = False) -> FloatArray:
    """counts / total (NaN if total is 0); in place if the counts are `fresh` (made here)."""
    if total == 0:
        return np.full(counts.shape, np.nan)
    return np.divide(counts, total, out=counts) if fresh else counts / total


def roc_convex_hull(ranking: Ranking, *, keep_collinear: bool = False) -> RocCurve:
    """The upper convex hull of the ROC points: the potentially optimal classifiers.

    A classifier (threshold) on the hull is optimal for some ratio of misclassification
    costs and class priors; one below it never is (Provost & Fawcett 2001; Arbel & Rokach 2.2.2).

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
    count = ranking.n_groups + 1
    if count < 3:
        return _roc_points(ranking, groups, np.arange(count))
    # Block by block, each block's points are cut to its own hull: a point on or below a
    # chord of points of its block is on or below one of all the points. The survivors of
    # every block (a few per block) then make the hull together.
    survivors = []
    unit = groups.built is None and groups.exact_integers  # one row per group
    steps = np.arange(1.0, min(count, _HULL_BLOCK)) if unit else np.empty(0)
    for low, high in blocks(count, size=_HULL_BLOCK):
        if unit:
            index = _unit_above_sample(groups, low, high, steps, keep_collinear=keep_collinear)
        else:
            index = low + np.flatnonzero(_corners(groups, low, high, keep_collinear=keep_collinear))
            if groups.exact_integers:  # the cross products are exact integers
                index = _above_sample(groups, index, keep_collinear=keep_collinear)
        survivors.append(_peel(groups, index, keep_collinear=keep_collinear)[0])
    index, finished = _peel(groups, np.concatenate(survivors), keep_collinear=keep_collinear)
    if not finished:
        index = _monotone_chain(groups, index, keep_collinear=keep_collinear)
    return _roc_points(ranking, groups, index)


def _corners(groups: Groups, low: int, high: int, *, keep_collinear: bool) -> NDArray[np.bool_]:
    """Which ROC points low..high-1 may be hull vertices, from one look at the groups:
    the block's two ends, and each inner point where the turn (`_turn`) is < 0 (<= 0 to
    keep collinear points). With one unweighted row per group, m2 is 0 or 1 and the turn
    is m2' - m2: a comparison of neighbours, with no product at all."""
    keep = np.ones(high - low, dtype=bool)
    inner = keep[1:-1]  # points low+1 .. high-2: between groups i-1 and i
    before, after = slice(low, high - 2), slice(low + 1, high - 1)
    if groups.unit:  # turn < 0 where m2 > m2' (the turn is out - into below)
        out, into = groups.positives[before], groups.positives[after]
    else:
        into = np.multiply(groups.negatives[before], groups.positives[after], dtype=np.float64)
        out = np.multiply(groups.positives[before], groups.negatives[after], dtype=np.float64)
    if keep_collinear:
        np.less_equal(into, out, out=inner)
    else:
        np.less(into, out, out=inner)
    return keep


def _points(groups: Groups, index: NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
    """The ROC points `index` as counts: (negatives, positives) before each."""
    return groups.negatives_at(index), groups.cumulative_positives[index]


def _above_sample(
    groups: Groups, index: NDArray[np.intp], *, keep_collinear: bool
) -> NDArray[np.intp]:
    """The points of `index` above the hull of every `_HULL_SAMPLE`-th of them (on or
    above it with `keep_collinear`), and that hull's own points. A point on or below the
    chord of two points around it is no hull vertex, so only a few points are left for
    `_peel`'s passes. The test is exact only when the cross products are (integer
    coordinates whose products stay below 2**53): else every point goes to `_peel`."""
    if index.size < 4 * _HULL_SAMPLE:
        return index
    sample = np.append(index[::_HULL_SAMPLE], index[-1])
    chain = _peel(groups, sample, keep_collinear=keep_collinear)[0]
    xs, ys = _points(groups, index)
    keep = np.empty(index.size, dtype=bool)
    cuts = np.searchsorted(index, chain).tolist()  # the chain's points are in `index`
    chain_x, chain_y = (values.tolist() for values in _points(groups, chain))
    for j, (a, b) in enumerate(itertools.pairwise(range(chain.size))):
        # cross product of (a -> b) and (a -> point): > 0 above the chord a-b
        part = slice(cuts[j], cuts[j + 1])
        rise = np.subtract(ys[part], chain_y[a])
        rise *= chain_x[b] - chain_x[a]
        run = np.subtract(xs[part], chain_x[a])
        run *= chain_y[b] - chain_y[a]
        if keep_collinear:
            np.greater_equal(rise, run, out=keep[part])
        else:
            np.greater(rise, run, out=keep[part])
    keep[cuts] = True
    return index[keep]


def _unit_above_sample(
    groups: Groups, low: int, high: int, steps: FloatArray, *, keep_collinear: bool
) -> NDArray[np.intp]:
    """`_above_sample` of the ROC points low..high-1 of groups of one unweighted row each,
    sampled every `_HULL_SAMPLE`-th point: each stretch between two points of the
    sample's hull is tested whole, on a slice of the running count of positives y (the
    negatives before point i are i - y_i, not read), with no gather of candidates.
    `steps`: 1.0, 2.0, ... (at least high - low - 1 of them)."""
    sample = np.arange(low, high, _HULL_SAMPLE)
    if sample[-1] != high - 1:
        sample = np.append(sample, high - 1)
    chain = _peel(groups, sample, keep_collinear=keep_collinear)[0]
    chain_x, chain_y = (values.tolist() for values in _points(groups, chain))
    running = groups.cumulative_positives
    links = chain.tolist()
    found = [chain[:1]]
    for j, (a, b) in enumerate(itertools.pairwise(links)):
        if b - a > 1:  # points a+1 .. b-1: (rise, run) from a, against the chord's
            rise = np.subtract(running[a + 1 : b], chain_y[j])
            run = np.subtract(steps[: b - a - 1], rise)  # (i - a) - rise
            rise *= chain_x[j + 1] - chain_x[j]
            run *= chain_y[j + 1] - chain_y[j]
            above = np.greater_equal(rise, run) if keep_collinear else np.greater(rise, run)
            found.append(a + 1 + np.flatnonzero(above))
        found.append(chain[j + 1 : j + 2])
    return np.concatenate(found)


def _peel(
    groups: Groups, index: NDArray[np.intp], *, keep_collinear: bool
) -> tuple[NDArray[np.intp], bool]:
    """Drop, pass after pass, every point on or below the chord of its neighbours
    (strictly below with `keep_collinear`); never a hull vertex. Returns the points left
    and whether they are the hull (False after `_HULL_PASSES` passes that still dropped
    some). Each pass works from the steps between points: the steps (dx, dy) into a
    point and (dx', dy') out of it turn right when dx dy' < dy dx'."""
    xs, ys = _points(groups, index)
    for _ in range(_HULL_PASSES):
        if index.size < 3:
            return index, True
        dx, dy = np.diff(xs), np.diff(ys)
        into, out = np.multiply(dx[:-1], dy[1:]), np.multiply(dy[:-1], dx[1:])
        keep = np.ones(index.size, dtype=bool)
        if keep_collinear:
            np.less_equal(into, out, out=keep[1:-1])
        else:
            np.less(into, out, out=keep[1:-1])
        if keep.all():
            return index, True
        kept = np.flatnonzero(keep)
        index, xs, ys = index[kept], xs[kept], ys[kept]
    return index, index.size < 3


def _monotone_chain(
    groups: Groups, index: NDArray[np.intp], *, keep_collinear: bool
) -> NDArray[np.intp]:
    """Andrew's monotone chain (upper hull) over points already sorted by x."""
    x, y = (values.tolist() for values in _points(groups, index))
    hull: list[int] = []  # positions in `index`
    for point in range(index.size):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (x[b] - x[a]) * (y[point] - y[a]) - (y[b] - y[a]) * (x[point] - x[a])
            if cross > 0 or (cross == 0 and not keep_collinear):
                hull.pop()
            else:
                break
        hull.append(point)
    return index[np.array(hull, dtype=np.intp)]
