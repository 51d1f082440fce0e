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
slice's. Its AUC and structural components are read without building it, for all
slices at once, in O(G + g) for the G tie groups of all rows and the g of all slices
together (`informed.inference.slice_rest`; 10,000 slices of a million distinct scores:
1.4 s against 7 minutes on a loaded 2-core machine, `benchmarks/bench_slice_auc.py`).
The placements are centred on the overall AUC before anything is squared, and where the
centred sums lose more than 3 of their 16 digits (a rest of a few rows beside a slice of
nearly all, a rest whose scores separate its classes perfectly) that rest's Ranking is
built and read directly, as DeLong's interval reads any Ranking.

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
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.inference.checks import check_level
from informed.inference.delong import _group_components, _normal_interval
from informed.inference.interval import Interval, nan_interval
from informed.inference.significance import holm
from informed.inference.slice_rest import NOISE, Overall, Points, groups_of, left, slice_rests
from informed.ranking import undefined_reason as ranking_reason
from informed.slices.slices import Slices

__all__ = ["AUC_METHOD", "AucDifferences", "auc_differences"]

Floats = NDArray[np.float64]

AUC_METHOD = "delong-independent"
"""The `method` of the intervals of AUC differences."""


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
    components : ndarray
        Each slice's own DeLong structural components and class totals, a row of (S10,
        S01, n+, n-) per slice, for its AUC's interval (`slice_rankings`).
    """

    vs_rest: list[Interval]
    vs_reference: list[Interval]
    p_rest: list[float]
    p_reference: list[float]
    components: Floats = field(default_factory=lambda: np.zeros((0, 4)), repr=False)


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
    own, rest, components = _both(Overall(slices.overall_ranking), slices, names)
    vs_rest = [_difference(a, b, level) for a, b in zip(own, rest, strict=True)]
    vs_reference = [
        nan_interval(math.nan, level, AUC_METHOD, "the reference slice itself")
        if s == reference
        else _difference(own[s], own[reference], level)
        for s in range(len(own))
    ]
    p_rest, p_reference = holm([_p(x) for x in vs_rest]), holm([_p(x) for x in vs_reference])
    return AucDifferences(vs_rest, vs_reference, p_rest, p_reference, components)


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


def _both(
    overall: Overall, slices: Slices, names: list[str]
) -> tuple[list[_Auc], list[_Auc], Floats]:
    """The AUC and DeLong variance of each slice, and of every row not in it; and each
    slice's (S10, S01, n+, n-)."""
    assert slices.rankings is not None
    rankings = slices.rankings
    if not rankings:
        return [], [], np.zeros((0, 4))
    count = np.array([r.scores.size for r in rankings], dtype=np.intp)
    first = np.concatenate(([0], np.cumsum(count)[:-1])).astype(np.intp)
    scores = np.concatenate([np.asarray(r.scores, dtype=np.float64) for r in rankings])
    size = overall.scores.size
    p = np.concatenate([r.positives for r in rankings], dtype=np.float64)
    n = np.concatenate([r.negatives for r in rankings], dtype=np.float64)
    found = None
    idx = slices.overall_groups  # a file's Slices know each score's group: checked
    if idx is not None and _in_range(idx, scores.size, size):
        found = slice_rests(overall, Points(idx, first, count), p, n, scores)
    if idx is None or found is None:
        idx, every = groups_of(overall.negated, scores)
        missing = (
            np.zeros(0, dtype=bool)
            if every
            else (idx >= size) | (overall.negated[np.minimum(idx, max(size - 1, 0))] != -scores)
        )
        if missing.any():
            where = int(np.searchsorted(first, int(np.argmax(missing)), side="right")) - 1
            msg = f"slice {names[where]} holds scores the overall Ranking does not hold."
            raise InputError(msg)
        found = slice_rests(overall, Points(idx, first, count), p, n)
        assert found is not None
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
        if not rest_pos[s] > NOISE * overall.by_positive.x_total:
            rest.append(_Auc(math.nan, math.nan, f"{who}: no actual positives (n+ = 0)", who))
        elif not rest_neg[s] > NOISE * overall.by_negative.x_total:
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
    return own, rest, np.stack([found.own10, found.own01, n_pos, n_neg], axis=1)


def _in_range(idx: NDArray[np.intp], points: int, groups: int) -> bool:
    """Whether `idx` holds a group (of `groups`) for each of `points` points."""
    return idx.size == points and (not points or 0 <= idx.min() <= idx.max() < groups)


def _direct(overall: Overall, idx: NDArray[np.intp], p: Floats, n: Floats, who: str) -> _Auc:
    """The rest's Ranking built on the overall groups and read as DeLong reads any:
    O(G), for the few slices where the centred sums would lose digits."""
    positives = overall.positives.copy()
    negatives = overall.negatives.copy()
    positives[idx] = left(positives[idx], p)
    negatives[idx] = left(negatives[idx], n)
    keep = (positives > 0) | (negatives > 0)
    area, s10, s01, n_pos, n_neg = _group_components(positives[keep], negatives[keep])
    variance, reason = _variance(s10, s01, n_pos, n_neg, who)
    return _Auc(min(max(area, 0.0), 1.0), variance, reason, who)
