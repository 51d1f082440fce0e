"""Bands and intervals of the calibration of a Ranking of probabilities, by resampling its
tie groups: a confidence band on the CORP curve, a consistency band (the curve's spread
were the scores calibrated), percentile intervals of every calibration number, and the
test of calibration that the consistency resamples give.

Confidence: a case bootstrap of the rows is a multinomial draw over the 2 x groups cells
(positives and negatives of each distinct score), as `informed.inference.bootstrap_ranking`
draws it, unstratified, since the prevalence is part of what calibration measures; whole
counts of few cases a cell draw it a case at a time (`_case_draws`). Consistency
(Dimitriadis, Gneiting & Jordan 2021): under the hypothesis of calibration each row's
outcome is Bernoulli(its score), so each group's positives are Binomial(rows, score), the
scores kept as observed. Each replicate is refitted by PAV over its groups and read at the
same points (linear between its fitted scores, as scikit-learn's
`IsotonicRegression.predict`); the confidence replicate's PAV gives its calibration
numbers too, from its groups, with no Ranking built.

References
----------
Dimitriadis, T., Gneiting, T. & Jordan, A. I. (2021). Stable reliability diagrams for
probabilistic classifiers. PNAS 118(8):e2016191118.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float, json_floats, readonly
from informed.errors import InputError
from informed.inference.checks import check_count, check_level, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.ranking_bootstrap import draw_counts, no_case_reason
from informed.inference.replicates import percentile_band, replicate_interval
from informed.ranking import Ranking
from informed.ranking.binned import BINNINGS, binned_of_groups, row_quantiles
from informed.ranking.calibration import (
    Decomposition,
    ascending,
    check_probabilities,
    decompose_blocks,
    pav,
)
from informed.ranking.calibration_summary import Calibration, calibration
from informed.ranking.pav import Cumulative, pav_blocks
from informed.ranking.recalibration import Recalibration, recalibration_of_groups

__all__ = ["BAND_POINTS", "CALIBRATION_INTERVALS", "ReliabilityBands", "calibration_bands"]

Floats = NDArray[np.float64]

INDEX_DRAWS = 4
"""The most cases a cell (positives or negatives of a distinct score) whose case bootstrap
draws the cases one by one (`_case_draws`): about 10 ns a case against numpy's 40 ns a
cell, while the cases' indices stay in the cache."""

INDEX_CASES = 1 << 22
"""The most cases drawn one by one (their cells' indices: 16 MB)."""

BAND_POINTS = 400
"""Bands are read at the distinct scores when there are at most this many, else at this
many quantiles of the rows' scores."""

CALIBRATION_INTERVALS = (
    "brier",
    "miscalibration",
    "discrimination",
    "uncertainty",
    "log",
    "log_miscalibration",
    "log_discrimination",
    "slope",
    "intercept",
    "in_the_large",
    "ece",
    "ece_quantile",
)
"""The calibration numbers `calibration_bands` gives intervals of (MCB, DSC and UNC are
the Brier score's unless prefixed by log_; ECE with equal-width, then equal-mass bins)."""


def _numbers(result: Calibration) -> dict[str, float]:
    """The numbers of `CALIBRATION_INTERVALS` of one calibration."""
    return _named(
        result.brier,
        result.log,
        result.recalibration,
        (result.binned["uniform"].expected_error, result.binned["quantile"].expected_error),
    )


def _named(
    brier: Decomposition, log: Decomposition, fit: Recalibration, ece: tuple[float, float]
) -> dict[str, float]:
    """The numbers of `CALIBRATION_INTERVALS` by name: the two decompositions, the
    logistic fit and the ECE of the equal-width and equal-mass bins."""
    return {
        "brier": brier.score,
        "miscalibration": brier.miscalibration,
        "discrimination": brier.discrimination,
        "uncertainty": brier.uncertainty,
        "log": log.score,
        "log_miscalibration": log.miscalibration,
        "log_discrimination": log.discrimination,
        "slope": fit.slope,
        "intercept": fit.intercept,
        "in_the_large": fit.in_the_large,
        "ece": ece[0],
        "ece_quantile": ece[1],
    }


_INFINITE = dict.fromkeys(
    ("log", "log_miscalibration"), "drew a case given probability 0 of its outcome"
)
"""Why a replicate of a number is infinite: -log 0 (`replicate_interval`'s reason)."""


def _reasons(result: Calibration) -> dict[str, str | None]:
    fit = result.recalibration.reason
    return {
        "slope": fit,
        "intercept": fit,
        "in_the_large": fit if math.isnan(result.recalibration.in_the_large) else None,
    }


@dataclass(frozen=True, eq=False)
class ReliabilityBands:
    """The CORP curve at some scores with its confidence and consistency bands, intervals
    of the calibration numbers, and the test of calibration.

    Attributes
    ----------
    points : array
        The scores the bands are read at (ascending).
    recalibrated : array
        The CORP curve there.
    confidence : (low, high) arrays
        Percentile band of the curve under a case bootstrap of the rows.
    consistency : (low, high) arrays
        The band the curve stays in were the scores calibrated: outside it, the data
        disagree with calibration there.
    intervals : dict
        Each name of `CALIBRATION_INTERVALS` -> Interval (empty if not asked for).
    p_value : float
        The test of calibration: the share of consistency replicates (and the data) whose
        Brier MCB is at least the observed one, (1 + k) / (B + 1).
    level, replicates : float, int
    """

    points: Floats
    recalibrated: Floats
    confidence: tuple[Floats, Floats]
    consistency: tuple[Floats, Floats]
    intervals: dict[str, Interval]
    p_value: float
    level: float
    replicates: int
    distribution: dict[str, Floats] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The bands and the intervals as JSON (NaN as null)."""
        return {
            "level": self.level,
            "replicates": self.replicates,
            "calibration_p_value": json_float(self.p_value),
            "intervals": {name: found.as_list() for name, found in self.intervals.items()},
            "points": json_floats(self.points),
            "recalibrated": json_floats(self.recalibrated),
            "confidence_band": [json_floats(self.confidence[0]), json_floats(self.confidence[1])],
            "consistency_band": [
                json_floats(self.consistency[0]),
                json_floats(self.consistency[1]),
            ],
        }


def band_points(ranking: Ranking, points: Any = None, limit: int = BAND_POINTS) -> Floats:
    """The scores a band is read at: `points` (checked to lie in [0, 1]), or the distinct
    scores when at most `limit`, else `limit` quantiles of the rows' scores."""
    if points is not None:
        values = np.unique(np.asarray(points, dtype=np.float64))
        if values.size and not (values[0] >= 0.0 and values[-1] <= 1.0):
            msg = f"`points` must be probabilities in [0, 1]; got {values[0]!r}..{values[-1]!r}."
            raise InputError(msg)
        return values
    if ranking.n_groups <= limit:
        return np.ascontiguousarray(ranking.scores[::-1])
    return np.unique(row_quantiles(ranking, np.linspace(0.0, 1.0, limit)))


def _curve_at(scores: Floats, positives: Floats, rows: Floats, points: Floats) -> Floats:
    """The PAV fit of groups (ascending, every one with rows) read at `points`."""
    values, starts, _ = pav(positives, rows)
    return _read_at(scores, values, starts, points)


def _read_at(scores: Floats, values: Floats, starts: NDArray[np.intp], points: Floats) -> Floats:
    """PAV blocks (each block's value and first group) over ascending scores read at
    `points`: `np.interp(points, scores, fitted)` of every group's fitted value, from the
    groups on either side of each point alone (the same pairs, so the same numbers)."""
    last = scores.size - 1
    after = np.searchsorted(scores, points)
    knots = np.unique(np.concatenate((np.clip(after - 1, 0, last), np.minimum(after, last))))
    fitted = values[np.searchsorted(starts, knots, side="right") - 1]
    return np.asarray(np.interp(points, scores[knots], fitted))


def _case_draws(
    rng: np.random.Generator, cells: Floats, weighted: bool
) -> Callable[[], tuple[Floats, float]]:
    """A case bootstrap of the rows behind `cells`: each call draws Multinomial(cases,
    cells / cases) counts and the factor back to the total (`draw_counts`). Whole counts
    of at most `INDEX_DRAWS` cases a cell (and `INDEX_CASES` in all) draw their cases one
    by one, uniform among the rows with replacement, and count them per cell (the same
    multinomial, in a third of the time of numpy's, which draws a binomial a cell); else
    numpy's multinomial."""
    cases = int(cells.sum())
    if not weighted and 0 < cases <= min(INDEX_DRAWS * cells.size, INDEX_CASES):
        owner = np.repeat(np.arange(cells.size, dtype=np.int32), cells.astype(np.int64))

        def one_by_one() -> tuple[Floats, float]:
            picked = owner[rng.integers(0, cases, cases)]
            return np.bincount(picked, minlength=cells.size).astype(np.float64), 1.0

        return one_by_one

    def multinomial() -> tuple[Floats, float]:
        drawn, scale = draw_counts(rng, cells, 1)
        return drawn[0], scale

    return multinomial


def _calibrated_hits(
    rng: np.random.Generator, scores: Floats, trials: NDArray[np.int64], single: NDArray[np.bool_]
) -> Floats:
    """Binomial(trials, score) positives of each group, as calibrated scores would give
    them: a group of one trial (`single`) is positive when a uniform draw falls below its
    score (a Bernoulli draw, a tenth of the time of numpy's binomial)."""
    if single.all():
        return (rng.random(scores.size) < scores).astype(np.float64)
    hits = np.empty(scores.size)
    hits[single] = rng.random(int(np.count_nonzero(single))) < scores[single]
    several = ~single
    hits[several] = rng.binomial(trials[several], scores[several])
    return hits


def _after(counts: Floats, out: Floats) -> Floats:
    """The sums of whole `counts` from each group to the last (one array of a
    `informed.ranking.pav.Cumulative`) written to `out` (at least counts' size + 1): the
    total less the sums before each group, exact for whole counts, in one forward pass
    (numpy's cumsum of a reversed view is no faster)."""
    found = out[: counts.size + 1]
    found[0] = 0.0
    np.cumsum(counts, out=found[1:])
    np.subtract(found[-1], found, out=found)
    return found


def _replicate_numbers(
    scores: Floats,
    positives: Floats,
    rows: Floats,
    blocks: tuple[Floats, Floats, Floats],
    start: Recalibration,
    bins: int,
    cumulative: Cumulative | None = None,
    complement: Floats | None = None,
    scratch: tuple[Floats, Floats] | None = None,
) -> dict[str, float]:
    """`_numbers(calibration(Ranking of these groups))` from the groups (ascending, each
    with rows) and their PAV blocks' (values, positives, rows), with no Ranking built and
    no PAV refitted; the logistic fits start from the estimate's (`start`). `cumulative`:
    whole counts summed after each group, as `calibration` reads them; `complement`: 1 -
    scores (overwritten); `scratch`: two arrays at least the groups' size to write to."""
    complement = 1.0 - scores if complement is None else complement
    if cumulative is None:
        n, n_positive = float(rows.sum()), float(positives.sum())
        totals = None
    else:
        n, n_positive = float(cumulative[1][0]), float(cumulative[0][0])
        totals = (n_positive, n)
    rules = ("brier", "log")
    if scratch is not None:
        scratch = (scratch[0][: scores.size], scratch[1][: scores.size])
    brier, log = decompose_blocks(
        scores, positives, rows, blocks, rules, complement, scratch, totals
    )
    if n_positive == 0 or n_positive == n:
        fit = Recalibration(math.nan, math.nan, math.nan)
    else:
        fit = recalibration_of_groups(
            scores,
            positives,
            rows,
            complement=complement,
            start=start,
            scratch=None if scratch is None else (complement, scratch[1]),
            totals=totals,
        )
    scored = np.multiply(rows, scores, out=None if scratch is None else scratch[0])
    ece = [
        binned_of_groups(scores, positives, rows, n, bins, name, scored, cumulative)
        for name in BINNINGS
    ]
    return _named(brier, log, fit, (ece[0].expected_error, ece[1].expected_error))


def calibration_bands(
    ranking: Ranking,
    *,
    points: Any = None,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    bins: int = 10,
    intervals: bool = True,
    progress: Callable[[int], None] | None = None,
) -> ReliabilityBands:
    """Confidence and consistency bands of the CORP curve, intervals of the calibration
    numbers and the test of calibration, by resampling a Ranking's tie groups.

    Parameters
    ----------
    ranking : Ranking
        Scores in [0, 1], read as probabilities (others are refused, naming one).
    points : array-like, optional
        The scores to read the bands at (`band_points`).
    replicates : int
        Bootstrap replicates, and as many replicates under calibration.
    level : float
        Of the bands and intervals (Dimitriadis, Gneiting & Jordan draw 90 % bands).
    seed : int or numpy.random.Generator, optional
    bins : int
        Bins of the ECE (as in `calibration`).
    intervals : bool
        False: the bands and the test only, without the intervals of the calibration
        numbers (each replicate then costs one PAV, not a whole `calibration`).
    progress : callable, optional
        Called with the replicates done after each one (a progress line).

    Notes
    -----
    O(replicates x groups): each replicate is refitted by PAV and its calibration
    numbers recomputed from its groups (about 0.25 CPU seconds per 100 replicates at
    10,000 distinct scores on a loaded two-core machine). Weighted Rankings are read as
    frequency weights, as in `bootstrap_ranking`: round(total) cases are drawn and the
    counts scaled back; under calibration a group of w rows draws Binomial(max(round(w),
    1), score) scaled to w.

    >>> r = Ranking.from_scores([0, 1, 0, 1, 1, 0, 1, 1], [.1, .2, .3, .4, .6, .7, .8, .9],
    ...                         positive=1)
    >>> bands = calibration_bands(r, replicates=200, seed=0)
    >>> bands.points.tolist() == sorted(r.scores.tolist()), 0 < bands.p_value <= 1
    (True, True)
    """
    rng = check_seed(seed)
    check_probabilities(ranking, "calibration_bands")
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    shown = band_points(ranking, points)
    estimate = calibration(ranking, bins)
    scores, positives, rows = ascending(ranking)
    curve = (
        _curve_at(scores, positives, rows, shown) if scores.size else np.full(shown.size, math.nan)
    )
    negatives = rows - positives
    confidence = np.full((replicates, shown.size), math.nan)
    consistency = np.full((replicates, shown.size), math.nan)
    numbers = {name: np.full(replicates, math.nan) for name in CALIBRATION_INTERVALS}
    null_mcb = np.full(replicates, math.nan)
    trials = np.maximum(np.rint(rows), 1.0)
    whole_trials, trial_share = trials.astype(np.int64), rows / trials
    single = whole_trials == 1
    cells = np.concatenate([positives, negatives])
    draw = _case_draws(rng, cells, ranking.weighted)
    # whole counts: PAV's blocks, the totals and the bins are read off the sums after each
    # group (exact, as `calibration` reads them); a drawn group of no rows adds nothing to
    # them, so the kept groups' are the whole's at their indices
    whole = not ranking.weighted
    after = (np.empty(scores.size + 1), np.empty(scores.size + 1))
    null_after = (after[0], _after(rows, np.empty(scores.size + 1)))
    complement = 1.0 - scores  # the same scores in every replicate
    scratch = (np.empty(scores.size), np.empty(scores.size))  # reused by every replicate
    for b in range(replicates):
        if scores.size == 0:
            break
        drawn, scale = draw()
        if scale != 1.0:
            drawn *= scale
        pos, neg = drawn[: scores.size], drawn[scores.size :]
        size = pos + neg
        keep = np.flatnonzero(size > 0)
        if keep.size:
            kept = (scores[keep], pos[keep], size[keep])
            cumulative = (_after(kept[1], after[0]), _after(kept[2], after[1])) if whole else None
            values, starts, block_rows, block_positives = pav_blocks(kept[1], kept[2], cumulative)
            confidence[b] = _read_at(kept[0], values, starts, shown)
            if intervals:
                blocks = (values, block_positives, block_rows)
                with np.errstate(divide="ignore", invalid="ignore"):
                    replicate = _replicate_numbers(
                        *kept,
                        blocks,
                        estimate.recalibration,
                        bins,
                        cumulative,
                        complement[keep],
                        scratch,
                    )
                for name, value in replicate.items():
                    numbers[name][b] = value
        hits = _calibrated_hits(rng, scores, whole_trials, single)
        if whole:
            cumulative = (_after(hits, null_after[0]), null_after[1])
        else:
            hits *= trial_share
            cumulative = None
        values, starts, block_rows, block_positives = pav_blocks(hits, rows, cumulative)
        consistency[b] = _read_at(scores, values, starts, shown)
        blocks = (values, block_positives, block_rows)
        totals = None if cumulative is None else (float(cumulative[0][0]), float(cumulative[1][0]))
        null_mcb[b] = decompose_blocks(
            scores, hits, rows, blocks, ("brier",), complement, scratch, totals
        )[0].miscalibration
        if progress is not None:
            progress(b + 1)
    observed = _numbers(estimate)
    reasons = _reasons(estimate)
    total = float(cells.sum())
    no_case = no_case_reason(total) if total > 0 and round(total) == 0 else None
    found: dict[str, Interval] = {}
    for name in CALIBRATION_INTERVALS if intervals else ():
        value = observed[name]
        if math.isnan(value) or no_case is not None:
            why = reasons.get(name) or no_case
            why = why or ("no rows" if estimate.n == 0 else "undefined")
            found[name] = nan_interval(value, level, "percentile", why)
        else:
            found[name] = replicate_interval(
                value, numbers[name], level, "percentile", math.nan, _INFINITE.get(name, "")
            )
    mcb = observed["miscalibration"]
    exceed = int(np.count_nonzero(null_mcb >= mcb - 1e-12 * max(abs(mcb), 1e-300)))
    p_value = (1 + exceed) / (replicates + 1) if not math.isnan(mcb) else math.nan
    for array in (*numbers.values(), null_mcb):
        readonly(array)
    return ReliabilityBands(
        points=readonly(shown),
        recalibrated=readonly(curve),
        confidence=percentile_band(confidence, level),
        consistency=percentile_band(consistency, level),
        intervals=found,
        p_value=p_value,
        level=level,
        replicates=replicates,
        distribution={**numbers, "null_miscalibration": null_mcb},
    )
