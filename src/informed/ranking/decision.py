"""Decision curves of a Ranking of probabilities: net benefit at every threshold
probability, exact, against treating all and treating none.

Acting on the rows scored at least p_t (a threshold probability) is worth, per row,

    NB(p_t) = TP/n - FP/n * p_t / (1 - p_t)

(Vickers & Elkin 2006): a true positive gains 1, a false positive costs the odds p_t/(1 -
p_t) at which a decision maker is indifferent between acting and not. This is the
bookmaker's bet of informedness at the odds p_t sets: the standardized net benefit NB /
prevalence (Kerr et al. 2016) at p_t = prevalence is the informedness of the threshold.
Treating all gives prevalence - (1 - prevalence) p_t / (1 - p_t), treating none 0;
interventions avoided per 100 rows are (NB - NB(treat all)) / (p_t / (1 - p_t)) * 100.

Between two distinct scores the rows acted on do not change, so the curve is known
everywhere from the counts at the distinct scores; and within such a stretch the model
beats both defaults exactly where FN/(FN + TN) < p_t < TP/(TP + FP) (its false omission
rate below p_t, its precision above): `DecisionCurve.beats_defaults` is the union of those
exact intervals, not read off a grid. Two models on the same cases are compared the same
way (`difference_ranges`): between consecutive distinct scores of either, the sign of
their difference in net benefit changes at most once.

References
----------
Vickers, A. J. & Elkin, E. B. (2006). Decision curve analysis: a novel method for
evaluating prediction models. Medical Decision Making 26(6):565-574.
Kerr, K. F., Brown, M. D., Zhu, K. & Janes, H. (2016). Assessing the clinical impact of
risk prediction models with decision curves: guidance for correct interpretation and
appropriate use. Journal of Clinical Oncology 34(21):2534-2540.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_floats, readonly
from informed.errors import InputError, InputTypeError
from informed.ranking.blocks import blocks
from informed.ranking.calibration import check_probabilities
from informed.ranking.groups import FloatArray, groups_of
from informed.ranking.ranking import Ranking

__all__ = [
    "REPORT_THRESHOLDS",
    "DecisionCurve",
    "beats_defaults",
    "check_thresholds",
    "decision_curve",
    "difference_ends",
    "difference_ranges",
    "join_stretches",
    "threshold_probabilities",
]

REPORT_THRESHOLDS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
"""The threshold probabilities the reports show a decision curve at (the evaluation's with
the prevalence, where the standardized net benefit is the informedness of the threshold;
the comparison's difference of two models' net benefit)."""


@dataclass(frozen=True, eq=False)
class DecisionCurve:
    """Net benefit of acting on the rows scored at least each threshold probability.

    Attributes
    ----------
    thresholds : array
        The threshold probabilities p_t, ascending, in [0, 1).
    true_positives, false_positives : array
        The (weighted) actual positives and negatives scored at least p_t.
    n, n_positive : float
        The rows and the actual positives.
    net_benefit, treat_all : array
        NB of the model, and of treating every row; treating none is 0.
    standardized : array
        NB / prevalence (NaN without positives).
    interventions_avoided : array
        (NB - NB of treating all) / (p_t / (1 - p_t)) per 100 rows (NaN at p_t = 0).
    beats_defaults : tuple of (low, high)
        The p_t where the model's NB exceeds both treating all and treating none, as
        disjoint intervals, ascending: every p_t with low < p_t < high (and high itself
        when it is a score the model still beats both at), read from every distinct
        score, not from `thresholds` (`beats_defaults`).
    """

    thresholds: FloatArray
    true_positives: FloatArray
    false_positives: FloatArray
    n: float
    n_positive: float
    net_benefit: FloatArray
    treat_all: FloatArray
    standardized: FloatArray
    interventions_avoided: FloatArray
    beats_defaults: tuple[tuple[float, float], ...]

    @property
    def prevalence(self) -> float:
        """n+ / n (NaN without rows)."""
        return self.n_positive / self.n if self.n else math.nan

    def to_dict(self) -> dict[str, Any]:
        """The curve as JSON: the prevalence, the intervals where the model beats both
        defaults, and every point (NaN as null)."""
        return {
            "prevalence": json_floats([self.prevalence])[0],
            "beats_defaults": [list(pair) for pair in self.beats_defaults],
            "threshold": json_floats(self.thresholds),
            "net_benefit": json_floats(self.net_benefit),
            "treat_all": json_floats(self.treat_all),
            "standardized_net_benefit": json_floats(self.standardized),
            "interventions_avoided_per_100": json_floats(self.interventions_avoided),
        }


def threshold_probabilities(ranking: Ranking) -> FloatArray:
    """Every distinct score in [0, 1), ascending: where the curve's counts change."""
    scores = ranking.scores[::-1]
    return np.array(scores[scores < 1.0])


def check_thresholds(thresholds: Any) -> FloatArray:
    """Threshold probabilities given by a user: numbers in [0, 1), sorted, repeats dropped;
    anything else refused, naming the value."""
    if isinstance(thresholds, str | bytes):
        msg = f"`thresholds` must be numbers in [0, 1); got {thresholds!r}."
        raise InputTypeError(msg)
    try:
        values = np.atleast_1d(np.asarray(thresholds, dtype=np.float64))
    except (TypeError, ValueError) as error:
        msg = f"`thresholds` must be numbers in [0, 1); got {thresholds!r}."
        raise InputTypeError(msg) from error
    bad = ~((values >= 0.0) & (values < 1.0))
    if bad.any():
        msg = (
            f"`thresholds` must lie in [0, 1) (at p_t = 1 a false positive costs infinite "
            f"odds); got {float(values[bad][0])!r}."
        )
        raise InputError(msg)
    return np.unique(values)


def _counts_at(ranking: Ranking, thresholds: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The positives and negatives scored at least each threshold: the Ranking's cumulative
    counts (`groups_of`) read where the thresholds fall (a binary search of the descending
    scores for each of a few thresholds, no pass over the groups)."""
    scores = ranking.scores  # descending: the groups scored >= t come first
    if thresholds.size <= _FEW_THRESHOLDS:
        selected: Any = [_at_least(scores, t) for t in thresholds.tolist()]
    else:
        selected = np.searchsorted(-scores, -thresholds, side="right")  # groups with s >= t
    groups = groups_of(ranking)
    return groups.cumulative_positives[selected], groups.cumulative_negatives[selected]


_FEW_THRESHOLDS = 64
"""Up to this many thresholds are found by a binary search each, in Python."""


def _at_least(scores: FloatArray, threshold: float) -> int:
    """How many of the descending `scores` are at least `threshold`: a binary search."""
    low, high = 0, scores.size
    while low < high:
        middle = (low + high) // 2
        if scores[middle] >= threshold:
            low = middle + 1
        else:
            high = middle
    return low


def beats_defaults(ranking: Ranking) -> tuple[tuple[float, float], ...]:
    """The threshold probabilities where the model beats treating all and treating none:
    disjoint intervals (low, high), exact (low excluded; high included where the model
    still beats both there).

    For p_t in (s[k-1], s[k]] (consecutive distinct scores, ascending) the rows acted on
    are those scored at least s[k]; their NB exceeds treating none iff p_t < TP/(TP+FP)
    and treating all iff p_t > FN/(FN+TN). Below the lowest score every row is acted on
    (the model is treating all), above the highest none is.

    >>> r = Ranking.from_scores([0, 0, 1, 0, 1, 1], [.1, .2, .3, .4, .6, .8], positive=1)
    >>> beats_defaults(r)
    ((0.1, 0.3), (0.3333333333333333, 0.8))
    """
    check_probabilities(ranking, "beats_defaults")
    size = ranking.scores.size
    if ranking.n_positive == 0 or ranking.n_negative == 0 or size < 2:
        return ()
    groups = groups_of(ranking)
    scores = ranking.scores[::-1]  # ascending
    # ascending index j: the positives and negatives acted on (scored at least scores[j])
    positives = groups.cumulative_positives[:0:-1]
    negatives = groups.cumulative_negatives[:0:-1]
    n_positive, n_negative = float(ranking.n_positive), float(ranking.n_negative)
    n = n_positive + n_negative
    whole = not ranking.weighted and n < 2.0**53
    found: list[list[float]] = []
    closed_last = False  # whether the last kept stretch reached its own score
    # stretch k (1..U-1): p_t in (scores[k-1], scores[k]], acting on groups k.. (ascending);
    # block by block, so the temporaries stay in the cache
    for low, high in blocks(size - 1):
        tp, fp = positives[low + 1 : high + 1], negatives[low + 1 : high + 1]
        treated, fn = tp + fp, n_positive - tp
        # counts: FN + TN = n - (TP + FP) exactly (whole numbers below 2**53), one pass less
        rest = n - treated if whole else fn + (n_negative - fp)
        score = scores[low + 1 : high + 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            lower = np.maximum(scores[low:high], fn / rest)
            precision = tp / treated
        upper = np.minimum(score, precision)  # at most 1: a probability, a precision
        kept = np.flatnonzero(lower < upper)
        if kept.size == 0:
            continue
        # a stretch reaches its own score s[k] (closed) when the precision and 1 lie
        # beyond; it continues the kept one before when that one was closed and this one
        # starts there
        closed = (score[kept] < precision[kept]) & (score[kept] < 1.0)
        lower, upper = lower[kept], upper[kept]
        joined = np.empty(kept.size, dtype=bool)
        joined[0] = bool(found) and closed_last and float(lower[0]) == found[-1][1]
        joined[1:] = closed[:-1] & (lower[1:] == upper[:-1])
        starts = np.flatnonzero(~joined)
        if joined[0]:  # the first run extends the last interval found
            found[-1][1] = float(upper[starts[0] - 1 if starts.size else -1])
        if starts.size:
            ends = np.append(starts[1:], kept.size) - 1
            pairs = zip(lower[starts].tolist(), upper[ends].tolist(), strict=True)
            found += [[lo, hi] for lo, hi in pairs]
        closed_last = bool(closed[-1])
    return tuple((lo, hi) for lo, hi in found)


def join_stretches(
    low: FloatArray, high: FloatArray, closed: NDArray[np.bool_]
) -> tuple[tuple[float, float], ...]:
    """The stretches (low, high) with low < high, ascending and disjoint, joined where one
    continues the one before: that one reached its own upper end (`closed`) and this one
    starts there.

    >>> join_stretches(np.array([.1, .3, .5]), np.array([.3, .4, .5]), np.array([1, 0, 1]) > 0)
    ((0.1, 0.4),)
    """
    kept = np.flatnonzero(low < high)
    if kept.size == 0:
        return ()
    low, high, closed = low[kept], high[kept], closed[kept]
    joined = np.zeros(kept.size, dtype=bool)
    joined[1:] = closed[:-1] & (low[1:] == high[:-1])
    starts = np.flatnonzero(~joined)
    ends = np.append(starts[1:], kept.size) - 1
    # + 0.0: a stretch from p_t = 0 reached as -0.0 (a product with a negative) starts at 0.0
    found = zip((low[starts] + 0.0).tolist(), high[ends].tolist(), strict=True)
    return tuple((lo, hi) for lo, hi in found)


def decision_curve(ranking: Ranking, thresholds: Any = None) -> DecisionCurve:
    """Net benefit, treat-all, standardized net benefit and interventions avoided of a
    Ranking of probabilities at every threshold probability.

    Parameters
    ----------
    ranking : Ranking
        Scores in [0, 1] read as probabilities of its positive class.
    thresholds : array-like of float in [0, 1), optional
        Where to evaluate the curve (sorted, repeats dropped); by default every distinct
        score below 1 (`threshold_probabilities`), where the counts change. Any threshold
        is exact: the rows acted on are those scored at least it.

    Notes
    -----
    A row is acted on when its score is at least p_t (dcurves' rule, `score >= p_t`);
    dcurves moves scores of exactly 0 to -eps, so at p_t = 0 it acts on no row scored 0
    where this acts on all. At p_t = 0 the interventions avoided are NaN (0/0).

    >>> r = Ranking.from_scores([0, 0, 1, 0, 1, 1], [.1, .2, .3, .4, .6, .8], positive=1)
    >>> curve = decision_curve(r, [0.25, 0.5])
    >>> curve.net_benefit.round(12).tolist(), curve.treat_all.round(12).tolist()
    ([0.444444444444, 0.333333333333], [0.333333333333, 0.0])
    """
    check_probabilities(ranking, "decision_curve")
    points = (
        threshold_probabilities(ranking) if thresholds is None else check_thresholds(thresholds)
    )
    true_positives, false_positives = _counts_at(ranking, points)
    n, n_positive = float(ranking.n), float(ranking.n_positive)
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = points / (1.0 - points)
        if n > 0:
            net_benefit = true_positives / n - false_positives / n * odds
            prevalence = n_positive / n
            treat_all = prevalence - (1.0 - prevalence) * odds
        else:
            net_benefit = np.full(points.size, math.nan)
            treat_all = np.full(points.size, math.nan)
        standardized = (
            net_benefit / (n_positive / n) if n_positive > 0 else np.full_like(points, math.nan)
        )
        avoided = np.where(points > 0, (net_benefit - treat_all) / odds * 100.0, math.nan)
    return DecisionCurve(
        thresholds=readonly(points),
        true_positives=readonly(true_positives),
        false_positives=readonly(false_positives),
        n=n,
        n_positive=n_positive,
        net_benefit=readonly(net_benefit),
        treat_all=readonly(treat_all),
        standardized=readonly(np.asarray(standardized)),
        interventions_avoided=readonly(avoided),
        beats_defaults=beats_defaults(ranking),
    )


def _stretches(
    union: FloatArray, gained: FloatArray, extra: FloatArray
) -> tuple[FloatArray, FloatArray, NDArray[np.bool_]]:
    """Where in each stretch u[k-1] < p_t <= u[k] (k = 1 .. U-1) the difference is > 0, from
    dTP = `gained` and dFP = `extra` at u[k]: (low, high, closed) [..., U-1], empty where
    low >= high; `closed` where the piece reaches u[k] itself."""
    tp, fp = gained[..., 1:], extra[..., 1:]
    treated = tp + fp
    below, above = union[..., :-1], union[..., 1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        root = tp / treated  # where dTP - p_t (dTP + dFP) crosses 0
    low = np.where(treated < 0, np.maximum(below, root), below)
    high = np.minimum(np.where(treated > 0, np.minimum(above, root), above), 1.0)
    high = np.where((treated == 0) & (tp <= 0), low, high)  # never positive
    closed = (above < 1.0) & np.where(treated > 0, above < root, True)
    return low, high, np.asarray(closed, dtype=bool)


def difference_ranges(
    union: FloatArray, gained: FloatArray, extra: FloatArray
) -> tuple[tuple[float, float], ...]:
    """Where one model's net benefit exceeds another's, exact: disjoint intervals of p_t,
    from the differences dTP = `gained` and dFP = `extra` (model less the other) acting
    on the rows scored at least each score of `union` (both models' distinct scores,
    ascending).

    For u[k-1] < p_t <= u[k] both act on the rows scored at least u[k], and the
    difference in net benefit has the sign of dTP - p_t (dTP + dFP) (times 1 - p_t > 0):
    linear in p_t, it changes sign at most once there, at dTP / (dTP + dFP).

    >>> difference_ranges(np.array([.1, .3, .5]), np.array([0., 1, 1]), np.array([0., -1, 0]))
    ((0.1, 0.5),)
    """
    low, high, closed = _stretches(union, gained, extra)
    return join_stretches(low, high, closed)


def difference_ends(
    union: FloatArray, gained: FloatArray, extra: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The lowest and highest p_t where the difference is > 0, per replicate (NaN where it
    never is): the first and the last stretch where it is, each piece found as
    `_stretches` finds it, only there."""
    tp, fp = gained[..., 1:], extra[..., 1:]
    treated = tp + fp
    below, above = union[:-1], np.minimum(union[1:], 1.0)
    # dTP - p (dTP + dFP) is linear in p: positive inside a stretch iff at one of its ends
    inside = (tp - below * treated > 0) | (tp - above * treated > 0)
    some = inside.any(axis=-1)
    first = np.argmax(inside, axis=-1)[..., None]
    last = inside.shape[-1] - 1 - np.argmax(inside[..., ::-1], axis=-1)[..., None]
    low, _, _ = _stretches(
        union[np.concatenate([first, first + 1], axis=-1)],
        np.take_along_axis(gained, np.concatenate([first, first + 1], axis=-1), axis=-1),
        np.take_along_axis(extra, np.concatenate([first, first + 1], axis=-1), axis=-1),
    )
    _, high, _ = _stretches(
        union[np.concatenate([last, last + 1], axis=-1)],
        np.take_along_axis(gained, np.concatenate([last, last + 1], axis=-1), axis=-1),
        np.take_along_axis(extra, np.concatenate([last, last + 1], axis=-1), axis=-1),
    )
    return np.where(some, low[..., 0], math.nan), np.where(some, high[..., 0], math.nan)
