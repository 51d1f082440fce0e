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

from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.measures.counts import ratio
from informed.ranking.groups import FloatArray, Groups, Quotas, as_result
from informed.ranking.ranking import Ranking, groups_of

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
