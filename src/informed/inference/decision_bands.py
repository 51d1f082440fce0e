"""Bands of a decision curve, by resampling a Ranking's tie groups: net benefit, treat-all,
standardized net benefit and interventions avoided at each threshold probability, and
intervals of where the model beats both defaults.

A case bootstrap of the rows is a multinomial draw over the 2 x groups cells (the
positives and negatives of each distinct score), unstratified, as
`informed.inference.bootstrap_ranking` draws it with ``stratified=False``: net benefit
depends on the prevalence, which a case bootstrap lets vary. The rows acted on at p_t in
a replicate are still those scored at least p_t, so each replicate's curve is read from
its cumulative counts at the same thresholds: O(groups) per replicate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_floats, readonly
from informed.inference.checks import check_count, check_level, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.ranking_bootstrap import draw_counts
from informed.inference.replicates import percentile_band, replicate_interval
from informed.ranking import Ranking
from informed.ranking.binned import row_quantiles
from informed.ranking.calibration import check_probabilities
from informed.ranking.decision import (
    DecisionCurve,
    beats_defaults,
    decision_curve,
    threshold_probabilities,
)

__all__ = ["CURVE_POINTS", "DecisionCurveBands", "band_thresholds", "decision_curve_bands"]

Floats = NDArray[np.float64]

CURVE_POINTS = 400
"""Bands are read at every distinct score below 1 when there are at most this many, else
at the 100 thresholds 0, 0.01, ..., 0.99 and this many quantiles of the scores."""

_SERIES = ("net_benefit", "treat_all", "standardized", "interventions_avoided")


@dataclass(frozen=True, eq=False)
class DecisionCurveBands:
    """A decision curve with percentile bands, and intervals of its range.

    Attributes
    ----------
    curve : DecisionCurve
        The curve of the data at the bands' thresholds.
    bands : dict
        "net_benefit", "treat_all", "standardized", "interventions_avoided" -> (low, high)
        arrays, one value per threshold of `curve`.
    lowest, highest : Interval
        The lowest and the highest p_t at which the model beats both defaults (the ends
        of `curve.beats_defaults`), with intervals; NaN where it never does.
    level, replicates : float, int
    """

    curve: DecisionCurve
    bands: dict[str, tuple[Floats, Floats]]
    lowest: Interval
    highest: Interval
    level: float
    replicates: int
    distribution: dict[str, Floats] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The curve, its bands and the range's intervals as JSON (NaN as null)."""
        document = self.curve.to_dict()
        document["level"] = self.level
        document["replicates"] = self.replicates
        document["bands"] = {
            name: [json_floats(low), json_floats(high)] for name, (low, high) in self.bands.items()
        }
        document["beats_defaults_from"] = self.lowest.as_list()
        document["beats_defaults_to"] = self.highest.as_list()
        return document


def band_thresholds(ranking: Ranking, limit: int = CURVE_POINTS) -> Floats:
    """Where a band is read: every distinct score below 1 when at most `limit`, else the
    grid 0, 0.01, ..., 0.99 with `limit` quantiles of the rows' scores (below 1)."""
    every = threshold_probabilities(ranking)
    if every.size <= limit:
        return every
    quantiles = row_quantiles(ranking, np.linspace(0.0, 1.0, limit))
    grid = np.arange(100) / 100
    both = np.union1d(grid, quantiles)
    return np.asarray(both[(both >= 0.0) & (both < 1.0)])


def _ends(intervals: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    if not intervals:
        return math.nan, math.nan
    return intervals[0][0], intervals[-1][1]


def decision_curve_bands(
    ranking: Ranking,
    thresholds: Any = None,
    *,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
) -> DecisionCurveBands:
    """Percentile bands of a Ranking's decision curve and intervals of where it beats both
    defaults, by a case bootstrap of its tie groups.

    Parameters
    ----------
    ranking : Ranking
        Scores in [0, 1] read as probabilities (others refused, naming one).
    thresholds : array-like in [0, 1), optional
        Where to read the bands; by default `band_thresholds`.
    replicates, level, seed
        As in `bootstrap_ranking`.

    >>> r = Ranking.from_scores([0, 0, 1, 0, 1, 1], [.1, .2, .3, .4, .6, .8], positive=1)
    >>> result = decision_curve_bands(r, [0.25, 0.5], replicates=200, seed=0)
    >>> low, high = result.bands["net_benefit"]
    >>> bool(np.all(low <= result.curve.net_benefit) and np.all(result.curve.net_benefit <= high))
    True
    """
    check_probabilities(ranking, "decision_curve_bands")
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    rng = check_seed(seed)
    points = band_thresholds(ranking) if thresholds is None else thresholds
    curve = decision_curve(ranking, points)
    shown = curve.thresholds
    selected = np.searchsorted(-ranking.scores, -shown, side="right")  # groups scored >= p_t
    positives = np.asarray(ranking.positives, dtype=np.float64)
    negatives = np.asarray(ranking.negatives, dtype=np.float64)
    groups = positives.size
    cells = np.concatenate([positives, negatives])
    values = {name: np.full((replicates, shown.size), math.nan) for name in _SERIES}
    ends = np.full((2, replicates), math.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = shown / (1.0 - shown)
        for b in range(replicates):
            if groups == 0:
                break
            drawn, scale = draw_counts(rng, cells, 1)
            pos, neg = drawn[0, :groups] * scale, drawn[0, groups:] * scale
            n, n_positive = float(pos.sum() + neg.sum()), float(pos.sum())
            tp = np.concatenate([[0.0], np.cumsum(pos)])[selected]
            fp = np.concatenate([[0.0], np.cumsum(neg)])[selected]
            benefit = tp / n - fp / n * odds
            prevalence = n_positive / n
            everyone = prevalence - (1.0 - prevalence) * odds
            values["net_benefit"][b] = benefit
            values["treat_all"][b] = everyone
            values["standardized"][b] = benefit / prevalence if n_positive > 0 else math.nan
            values["interventions_avoided"][b] = np.where(
                shown > 0, (benefit - everyone) / odds * 100.0, math.nan
            )
            keep = (pos + neg) > 0
            counts_p, counts_n = pos[keep], neg[keep]
            if not ranking.weighted:
                counts_p, counts_n = (
                    np.rint(counts_p).astype(np.int64),
                    np.rint(counts_n).astype(np.int64),
                )
            replicate = Ranking(ranking.scores[keep], counts_p, counts_n)
            ends[:, b] = _ends(beats_defaults(replicate))
        bands = {name: percentile_band(array, level) for name, array in values.items()}
    estimates = _ends(curve.beats_defaults)
    intervals = []
    for estimate, replicate_values in zip(estimates, ends, strict=True):
        if math.isnan(estimate):
            intervals.append(
                nan_interval(estimate, level, "percentile", "the model never beats both defaults")
            )
        else:
            intervals.append(
                replicate_interval(estimate, replicate_values, level, "percentile", math.nan)
            )
    for array in values.values():
        readonly(array)
    return DecisionCurveBands(
        curve=curve,
        bands=bands,
        lowest=intervals[0],
        highest=intervals[1],
        level=level,
        replicates=replicates,
        distribution={**values, "lowest": readonly(ends[0]), "highest": readonly(ends[1])},
    )
