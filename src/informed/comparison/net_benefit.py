"""The difference in net benefit between two models on the same cases, with a paired
bootstrap band, and the threshold probabilities where one beats the other.

Acting on the rows a model scores at least p_t is worth, per row,

    NB(p_t) = TP/n - FP/n * p_t / (1 - p_t)

(Vickers & Elkin 2006). Two models on the same cases differ by

    NB_b(p_t) - NB_a(p_t) = (dTP - dFP * p_t / (1 - p_t)) / n,   dTP = TP_b - TP_a, ...

Both counts change only at a distinct score of either model, so between two consecutive
scores u[k-1] < p_t <= u[k] of the union of both models' scores the sign of the difference
is that of dTP - p_t (dTP + dFP) (multiplied by 1 - p_t > 0): linear in p_t, it changes
sign at most once, at p_t = dTP / (dTP + dFP). The ranges where b beats a are the union of
those exact pieces (`beats`), read from every distinct score of either model, not a grid.

The band is a paired case bootstrap: each replicate resamples the cases once for both
models, a multinomial draw over the joint cells (actual class, tie group of each model's
score; `informed.comparison.joint`), so the two models' correlation (the same easy and
hard cases) stays in the difference. Each replicate is read at the union of the scores,
O(cells + union) per replicate: the difference at every threshold, and the lowest and
highest p_t at which b beats a.

References
----------
Vickers, A. J. & Elkin, E. B. (2006). Decision curve analysis: a novel method for
evaluating prediction models. Medical Decision Making 26(6):565-574.
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float, json_floats, readonly
from informed.coding.labels import as_label, as_vector
from informed.comparison.joint import draw_cells
from informed.comparison.paired import JointScores, joint_scores, positive_rows
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_count, check_level, check_seed
from informed.inference.decision_bands import CURVE_POINTS, band_thresholds
from informed.inference.interval import Interval, nan_interval
from informed.inference.replicates import percentile_band, replicate_interval
from informed.ranking import Ranking
from informed.ranking.calibration import check_probabilities
from informed.ranking.decision import (
    REPORT_THRESHOLDS,
    check_thresholds,
    difference_ends,
    difference_ranges,
    threshold_probabilities,
)
from informed.table.counting import check_weights

__all__ = [
    "NetBenefitDifference",
    "difference_thresholds",
    "net_benefit_difference",
    "paired_net_benefit",
]

Floats = NDArray[np.float64]
Ranges = tuple[tuple[float, float], ...]

# replicates are read in blocks of about this many (replicate, cell or score) values
_BLOCK_VALUES = 4_000_000


@dataclass(frozen=True, eq=False)
class NetBenefitDifference:
    """The net benefit of two models on the same cases, their difference and its band.

    Attributes
    ----------
    model, reference : str
        The difference is NB(model) - NB(reference).
    thresholds : array
        The threshold probabilities p_t the curves and bands are read at, ascending.
    net_benefit : dict
        Model name -> its net benefit at each threshold (both models).
    treat_all : array
        The net benefit of treating every row (treating none is 0).
    difference : array
        NB(model) - NB(reference) at each threshold.
    bands : dict
        "difference", and each model's name -> (low, high) pointwise percentile bands
        from the same paired replicates.
    beats, loses : tuple of (low, high)
        The p_t where the model's net benefit exceeds the reference's (`beats`) or falls
        below it (`loses`): disjoint intervals, exact, from every distinct score of either
        model (every p_t strictly between low and high; an end may or may not belong).
    lowest, highest : Interval
        The ends of `beats` (the lowest and highest p_t at which the model beats the
        reference) with percentile intervals; NaN with the reason where it never does.
    above_zero, below_zero : tuple of (low, high)
        The runs of consecutive `thresholds` whose band lies wholly above 0 (or below):
        pointwise, not simultaneous, so a run is where the difference is beyond resampling
        noise threshold by threshold, not a joint statement over the run.
    level, replicates : float, int
    n, n_positive : float
        The cases (total weight) and the actual positives.
    distribution : dict
        "difference" -> replicates x thresholds; "lowest", "highest" -> replicates.
    """

    model: str
    reference: str
    thresholds: Floats
    net_benefit: dict[str, Floats]
    treat_all: Floats
    difference: Floats
    bands: dict[str, tuple[Floats, Floats]]
    beats: Ranges
    loses: Ranges
    lowest: Interval
    highest: Interval
    above_zero: Ranges
    below_zero: Ranges
    level: float
    replicates: int
    n: float
    n_positive: float
    distribution: dict[str, Floats] = field(repr=False)

    def to_dict(self, thresholds: Sequence[float] | None = None) -> dict[str, Any]:
        """The difference as JSON (NaN as null): the exact ranges, the ends' intervals and
        every point with its bands, or only the points at `thresholds` (those of them the
        curves were read at)."""
        keep = (
            np.arange(self.thresholds.size)
            if thresholds is None
            else np.flatnonzero(np.isin(self.thresholds, np.asarray(thresholds, dtype=float)))
        )
        return {
            "model": self.model,
            "reference": self.reference,
            "difference": "model - reference",
            "level": self.level,
            "replicates": self.replicates,
            "prevalence": json_float(self.n_positive / self.n if self.n else math.nan),
            "beats": [list(pair) for pair in self.beats],
            "loses": [list(pair) for pair in self.loses],
            "beats_from": _end(self.lowest),
            "beats_to": _end(self.highest),
            "band_above_zero": [list(pair) for pair in self.above_zero],
            "band_below_zero": [list(pair) for pair in self.below_zero],
            "threshold": json_floats(self.thresholds[keep]),
            "net_benefit": {
                name: json_floats(values[keep]) for name, values in self.net_benefit.items()
            },
            "treat_all": json_floats(self.treat_all[keep]),
            "net_benefit_difference": json_floats(self.difference[keep]),
            "bands": {
                name: [json_floats(low[keep]), json_floats(high[keep])]
                for name, (low, high) in self.bands.items()
            },
        }


def _end(interval: Interval) -> dict[str, Any]:
    return {
        "estimate": json_float(interval.estimate),
        "interval": interval.as_list(),
        "reason": interval.reason,
    }


def difference_thresholds(a: Ranking, b: Ranking, limit: int = CURVE_POINTS) -> Floats:
    """Where the curves and bands are read: every distinct score of either model below 1
    when there are at most `limit`, else each model's `band_thresholds` with at most 100
    quantiles of its scores beside the grid 0, 0.01, ..., 0.99; with the report's
    thresholds (`REPORT_THRESHOLDS`) always.

    The difference's counts change only at the distinct scores of either model, so with
    few of them reading there misses no step; with many, the 1 % grid (dcurves' default)
    and the quantiles (where the rows lie) keep the curve and its band smooth and the
    document small, while the ranges where one model beats the other stay exact (they are
    read from every distinct score whatever the thresholds).
    """
    every = np.union1d(threshold_probabilities(a), threshold_probabilities(b))
    if every.size > limit:
        every = np.union1d(band_thresholds(a, 100), band_thresholds(b, 100))
    return np.union1d(every, np.asarray(REPORT_THRESHOLDS))


@dataclass(frozen=True)
class _Sums:
    """Signed sums of cell values [..., cells] into `parts` x `size` bins: entry e adds
    sign[e] x values[..., cell[e]] to bin[e] (part bin // size). The entries are sorted by
    bin once, so each block of replicates is one gather and one `add.reduceat`."""

    cells: NDArray[np.intp]
    signs: Floats
    starts: NDArray[np.intp]
    targets: NDArray[np.intp]
    parts: int
    size: int

    @classmethod
    def of(
        cls, cells: NDArray[np.intp], bins: NDArray[np.intp], signs: Floats, parts: int, size: int
    ) -> _Sums:
        order = np.argsort(bins, kind="stable")
        ordered = bins[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        return cls(cells[order], signs[order], starts, ordered[starts], parts, size)

    def at_or_above(self, values: Floats) -> Floats:
        """Per part, the sum of each bin and every bin above it: [..., parts, size]."""
        out = np.zeros((*values.shape[:-1], self.parts * self.size))
        if self.cells.size:
            out[..., self.targets] = np.add.reduceat(
                values[..., self.cells] * self.signs, self.starts, axis=-1
            )
        split = out.reshape(*values.shape[:-1], self.parts, self.size)
        return np.cumsum(split[..., ::-1], axis=-1)[..., ::-1]


def _sums(
    joint: JointScores, model: str, reference: str, points: Floats
) -> tuple[Floats, _Sums, _Sums]:
    """The union of both models' distinct scores, ascending; the sums that give (TP, FP)
    of the reference and of the model at each of `points` (4 x (points + 1) bins), and
    those that give (dTP, dFP) = model's - reference's at each score of the union (2 x
    union bins), each acting on the rows scored at least it."""
    codes = joint.cells.codes
    negative = (codes[:, 0] != 1).astype(np.intp)
    every = np.arange(codes.shape[0], dtype=np.intp)
    scores = [
        joint.rankings[name].scores[codes[:, 1 + joint.models.index(name)]]
        for name in (reference, model)
    ]
    union = np.union1d(*(joint.rankings[name].scores for name in (reference, model)))
    size = union.size
    # at each point p_j: a row counts where p_j <= score, i.e. its bin (points <= score) > j
    per_point = points.size + 1
    bins = [np.searchsorted(points, x, side="right") for x in scores]
    curves = _Sums.of(
        np.concatenate([every, every]),
        np.concatenate([bins[m] + per_point * (negative + 2 * m) for m in (0, 1)]),
        np.ones(2 * every.size),
        4,
        per_point,
    )
    # at each score u_k: the model's rows scored >= u_k less the reference's
    positions = [np.searchsorted(union, x) for x in scores]
    differences = _Sums.of(
        np.concatenate([every, every]),
        np.concatenate([positions[m] + size * negative for m in (1, 0)]),
        np.concatenate([np.ones(every.size), -np.ones(every.size)]),
        2,
        size,
    )
    return union, curves, differences


def _net_benefit(tp: Floats, fp: Floats, n: Floats, odds: Floats) -> Floats:
    with np.errstate(divide="ignore", invalid="ignore"):
        return tp / n[..., None] - fp / n[..., None] * odds


def _runs(thresholds: Floats, inside: NDArray[np.bool_]) -> Ranges:
    """The first and last threshold of each run of consecutive True."""
    edges = np.diff(np.concatenate([[0], inside.astype(np.int8), [0]]))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    return tuple(
        (float(thresholds[i]), float(thresholds[j])) for i, j in zip(starts, stops, strict=True)
    )


def paired_net_benefit(
    joint: JointScores,
    model: str,
    reference: str,
    thresholds: Any = None,
    *,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
) -> NetBenefitDifference:
    """NB(model) - NB(reference) on the same cases, from their joint cells, with a paired
    bootstrap band and the exact ranges where each beats the other.

    Parameters
    ----------
    joint : JointScores
        The models' scores on the same cases (`informed.comparison.paired.joint_scores`),
        probabilities in [0, 1].
    model, reference : str
        Two of `joint.models`.
    thresholds : array-like in [0, 1), optional
        Where to read the curves and bands; by default `difference_thresholds`.
    replicates, level, seed
        The paired bootstrap: replicates B, the bands' coverage, the random seed.
    """
    for name in (model, reference):
        check_probabilities(joint.rankings[name], "the net benefit difference")
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    rng = check_seed(seed)
    a, b = joint.rankings[reference], joint.rankings[model]
    points = difference_thresholds(a, b) if thresholds is None else check_thresholds(thresholds)
    union, at_points, at_scores = _sums(joint, model, reference, points)
    odds = points / (1.0 - points)

    def curves(counts: Floats) -> tuple[Floats, Floats, Floats, Floats, Floats]:
        n = np.asarray(counts.sum(axis=-1), dtype=np.float64)
        found = at_points.at_or_above(counts)[..., 1:]  # bin j + 1 at the point j
        tp_a, fp_a, tp_b, fp_b = (found[..., i, :] for i in range(4))
        nb_a = _net_benefit(tp_a, fp_a, n, odds)
        nb_b = _net_benefit(tp_b, fp_b, n, odds)
        delta = at_scores.at_or_above(counts)
        lowest, highest = difference_ends(union, delta[..., 0, :], delta[..., 1, :])
        return nb_a, nb_b, nb_b - nb_a, lowest, highest

    observed = joint.cells.counts
    nb_a, nb_b, difference, _, _ = curves(observed[None, :])
    delta = at_scores.at_or_above(observed)
    gained, extra = delta[0], delta[1]
    beats = difference_ranges(union, gained, extra)
    loses = difference_ranges(union, -gained, -extra)
    positive = joint.cells.codes[:, 0] == 1

    step = max(1, _BLOCK_VALUES // (4 * observed.size + 6 * union.size + 8 * points.size))
    parts: list[tuple[Floats, ...]] = []
    for start in range(0, replicates, step):
        parts.append(curves(draw_cells(rng, joint.cells, min(step, replicates - start))))
    drawn = [np.concatenate([part[i] for part in parts]) for i in range(5)]
    bands = {
        "difference": percentile_band(drawn[2], level),
        reference: percentile_band(drawn[0], level),
        model: percentile_band(drawn[1], level),
    }
    n, n_positive = float(observed.sum()), float(observed[positive].sum())
    prevalence = n_positive / n if n else math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        treat_all = prevalence - (1.0 - prevalence) * odds
    estimates = (beats[0][0], beats[-1][1]) if beats else (math.nan, math.nan)
    ends = []
    for estimate, values in zip(estimates, drawn[3:], strict=True):
        if math.isnan(estimate):
            why = f"the net benefit of {model!r} exceeds {reference!r}'s at no p_t"
            ends.append(nan_interval(estimate, level, "percentile", why))
        else:
            ends.append(replicate_interval(estimate, values, level, "percentile", math.nan))
    low, high = bands["difference"]
    return NetBenefitDifference(
        model=model,
        reference=reference,
        thresholds=readonly(points),
        net_benefit={reference: readonly(nb_a[0]), model: readonly(nb_b[0])},
        treat_all=readonly(np.asarray(treat_all, dtype=np.float64)),
        difference=readonly(difference[0]),
        bands=bands,
        beats=beats,
        loses=loses,
        lowest=ends[0],
        highest=ends[1],
        above_zero=_runs(points, low > 0),
        below_zero=_runs(points, high < 0),
        level=level,
        replicates=replicates,
        n=n,
        n_positive=n_positive,
        distribution={
            "difference": readonly(drawn[2]),
            "lowest": readonly(drawn[3]),
            "highest": readonly(drawn[4]),
        },
    )


def net_benefit_difference(
    actual: Any,
    scores: Mapping[str, Any],
    *,
    positive: Any,
    thresholds: Any = None,
    weights: Any = None,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
) -> NetBenefitDifference:
    """The net benefit of two models scored on the same cases, the difference (the second
    minus the first) with a paired bootstrap band, and where each beats the other.

    Parameters
    ----------
    actual : array-like of shape (n,)
        The actual class of each case.
    scores : dict
        Two models: name -> probabilities of `positive` (n,). The difference is the second
        model's net benefit minus the first's.
    positive : label
        The class the scores are probabilities of.
    thresholds : array-like in [0, 1), optional
        Where to read the curves and bands; by default `difference_thresholds`.
    weights : array-like of shape (n,), optional
        Frequency weights (non-negative).
    replicates, level, seed
        The paired bootstrap: replicates B, the bands' coverage, the random seed.

    Returns
    -------
    NetBenefitDifference

    Notes
    -----
    `informed.compare` gives the same for every model against the best one when all the
    scores are probabilities (`Comparison.net_benefit`).

    Examples
    --------
    >>> actual = [0, 0, 1, 0, 1, 1] * 20
    >>> a = [.1, .2, .3, .4, .6, .8] * 20
    >>> b = [.1, .2, .5, .3, .6, .8] * 20    # ranks the third case above the fourth
    >>> found = net_benefit_difference(actual, {"a": a, "b": b}, positive=1,
    ...                                thresholds=[0.35], replicates=200, seed=0)
    >>> found.beats              # b acts on the third case, a on the fourth, for p_t in it
    ((0.3, 0.5),)
    >>> round(float(found.difference[0]), 12) == round((1 + 0.35 / 0.65) / 6, 12)
    True
    """
    if not isinstance(scores, Mapping) or len(scores) != 2:
        msg = (
            "`scores` must be a dict of two models, name -> probabilities, such as "
            f'{{"a": scores_a, "b": scores_b}}; got {type(scores).__name__}'
            + (f" of {len(scores)}" if isinstance(scores, Mapping) else "")
            + "."
        )
        raise InputTypeError(msg)
    reference, model = (str(name) for name in scores)
    actual_array = as_vector(actual, "actual")
    if actual_array.shape[0] == 0:
        msg = "`actual` is empty: there are no cases to compare on."
        raise InputError(msg)
    weight_array = check_weights(weights, actual_array.shape[0])
    if weight_array is not None and not weight_array.sum() > 0:
        msg = "every weight is 0: there are no cases to compare on."
        raise InputError(msg)
    is_positive = positive_rows(actual_array, as_label(positive))
    rankings = {
        str(name): Ranking.from_scores(
            actual=is_positive, scores=values, positive=True, negative=False, weights=weight_array
        )
        for name, values in scores.items()
    }
    for name, ranking in rankings.items():  # the class as given, not the flags' True
        check_probabilities(ranking, f"the net benefit difference ({name!r})", positive)
    values = {str(name): given for name, given in scores.items()}
    joint = joint_scores(is_positive, rankings, values, weight_array)
    return paired_net_benefit(
        joint, model, reference, thresholds, replicates=replicates, level=level, seed=seed
    )
