"""Every calibration number of a Ranking of probabilities, computed once: `Calibration`.

`calibration` computes the CORP reliability curve, the Brier and log scores with their
decompositions, the logistic recalibration and the binned tables (equal width and equal
mass) from one Ranking; the reports (text, JSON, HTML) and the plots format that one
object. Every number is a function of the tie groups, so a merged Ranking gives the same
numbers as the Ranking of all the rows, bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from informed._common import json_float
from informed.ranking.binned import (
    BINNINGS,
    BinnedCalibration,
    binned_calibration,
    binned_of_groups,
    check_bins,
)
from informed.ranking.calibration import (
    Decomposition,
    ReliabilityCurve,
    ascending,
    check_probabilities,
    cumulative_counts,
    curve_of_groups,
    decompose_curve,
    score_decomposition,
)
from informed.ranking.ranking import Ranking
from informed.ranking.recalibration import (
    Recalibration,
    recalibration,
    recalibration_of_groups,
)

__all__ = ["CALIBRATION_NUMBERS", "Calibration", "calibration", "is_probability_ranking"]

CALIBRATION_NUMBERS = {
    "mean_score": ("mean score", "the mean forecast probability"),
    "observed_rate": ("observed rate", "the prevalence: actual positives / rows"),
    "brier": ("Brier score", "mean (score - outcome)^2; lower is better"),
    "log": ("log score", "mean -ln(probability given to the outcome); lower is better"),
    "miscalibration": (
        "MCB",
        "miscalibration: score minus the score of the CORP-recalibrated forecasts; 0 when "
        "calibrated",
    ),
    "discrimination": (
        "DSC",
        "discrimination: score of the prevalence minus that of the recalibrated forecasts",
    ),
    "uncertainty": ("UNC", "uncertainty: the score of forecasting the prevalence everywhere"),
    "slope": ("calibration slope", "b in logit P(+) = a + b logit(score); 1 when calibrated"),
    "intercept": ("calibration intercept", "a in the same fit; 0 when calibrated"),
    "in_the_large": (
        "calibration-in-the-large",
        "a with b held at 1; 0 when the mean forecast matches the observed rate",
    ),
    "ece": (
        "ECE",
        "expected calibration error: sum over bins of rows/n |observed - mean score|",
    ),
}
"""Each number of a calibration report: its short title and what it is."""


def is_probability_ranking(ranking: Ranking) -> bool:
    """Whether every score lies in [0, 1] (so calibration and decision curves apply)."""
    scores = ranking.scores
    return bool(scores.size == 0 or (scores[0] <= 1.0 and scores[-1] >= 0.0))


@dataclass(frozen=True, eq=False)
class Calibration:
    """The calibration of a Ranking of probabilities.

    Attributes
    ----------
    n, n_positive : float
        Rows and actual positives (weights summed).
    mean_score, observed_rate : float
        The mean forecast and the prevalence (NaN without rows).
    curve : ReliabilityCurve
        The CORP reliability curve (isotonic recalibration over the tie groups).
    brier, log : Decomposition
        Each mean score with its MCB, DSC and UNC.
    recalibration : Recalibration
        Calibration slope, intercept and calibration-in-the-large.
    binned : dict
        "uniform" and "quantile" -> `BinnedCalibration` with `bins` bins.
    bins : int
    """

    n: float
    n_positive: float
    mean_score: float
    observed_rate: float
    curve: ReliabilityCurve
    brier: Decomposition
    log: Decomposition
    recalibration: Recalibration
    binned: dict[str, BinnedCalibration]
    bins: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: every number (NaN as null, each undefined one with its
        reason), the CORP curve's blocks, the binned tables and what each number is."""
        return {
            "n": self.n,
            "mean_score": json_float(self.mean_score),
            "observed_rate": json_float(self.observed_rate),
            "brier": self.brier.to_dict(),
            "log": self.log.to_dict(),
            "recalibration": self.recalibration.to_dict(),
            "corp": self.curve.to_dict(),
            "binned": {name: table.to_dict() for name, table in self.binned.items()},
            "definitions": {name: text for name, (_, text) in CALIBRATION_NUMBERS.items()},
            "source": "Dimitriadis et al. (2021); Cox (1958)",
        }

    def __repr__(self) -> str:
        return (
            f"Calibration(n={self.n:g}, mean score={self.mean_score:.4g}, observed rate="
            f"{self.observed_rate:.4g}, Brier={self.brier.score:.4g} (MCB "
            f"{self.brier.miscalibration:.3g}, DSC {self.brier.discrimination:.3g}, UNC "
            f"{self.brier.uncertainty:.3g}), slope={self.recalibration.slope:.4g}, "
            f"intercept={self.recalibration.intercept:.4g}, "
            f"ECE={self.binned['uniform'].expected_error:.3g})"
        )


def calibration(ranking: Ranking, bins: int = 10) -> Calibration:
    """Every calibration number of a Ranking whose scores are probabilities.

    Parameters
    ----------
    ranking : Ranking
        Scores in [0, 1], read as probabilities of its positive class (others are
        refused, naming one). For several classes, one Ranking per class
        (`Ranking.one_vs_rest`), each calibrated against the rest.
    bins : int
        Bins of the binned tables and their ECE (scikit-learn's `n_bins`).

    Returns
    -------
    Calibration

    >>> r = Ranking.from_scores([0, 1, 0, 1], [0.2, 0.4, 0.6, 0.8], positive=1)
    >>> c = calibration(r, bins=2)
    >>> c.mean_score, c.observed_rate, c.brier.score, c.curve.recalibrated.tolist()
    (0.5, 0.5, 0.2, [0.0, 0.5, 0.5, 1.0])
    """
    check_probabilities(ranking, "calibration")
    check_bins(bins)
    n = float(ranking.n)
    # every part reads these arrays, element by element where they are the Ranking's own
    # scores reversed (no copy), and writes its terms to two arrays of their size
    groups = ascending(ranking, view=True)
    scores, _, rows = groups
    scratch = (np.empty(scores.size), np.empty(scores.size))
    cumulative = cumulative_counts(ranking)  # whole counts: the sums after each group
    curve = curve_of_groups(*groups, cumulative, scratch[0])
    if not n:
        return _without_rows(ranking, curve, bins)
    complement = 1.0 - scores  # shared by the decompositions and the logistic fits
    # whole counts: the totals are the Ranking's own (sums of whole numbers are exact)
    totals = None if cumulative is None else (float(ranking.n_positive), n)
    brier, log = decompose_curve(curve, ("brier", "log"), complement, scratch, totals)
    scored = np.multiply(rows, scores, out=scratch[0])  # summed per bin by both binnings
    mean_score = float(scored.sum()) / n
    binned = {
        name: binned_of_groups(*groups, n, bins, name, scored, cumulative) for name in BINNINGS
    }
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        fit = recalibration(ranking)  # NaN with the reason
    else:  # the last reader of 1 - score: the odds overwrite it
        fit = recalibration_of_groups(
            *groups, complement=complement, scratch=(complement, scratch[1]), totals=totals
        )
    return Calibration(
        n=n,
        n_positive=float(ranking.n_positive),
        mean_score=mean_score,
        observed_rate=float(ranking.n_positive) / n,
        curve=curve,
        brier=brier,
        log=log,
        recalibration=fit,
        binned=binned,
        bins=bins,
    )


def _without_rows(ranking: Ranking, curve: ReliabilityCurve, bins: int) -> Calibration:
    """The calibration of a Ranking without rows: every number NaN with its reason."""
    binned = {name: binned_calibration(ranking, bins, name) for name in BINNINGS}  # type: ignore[arg-type]
    return Calibration(
        n=0.0,
        n_positive=float(ranking.n_positive),
        mean_score=math.nan,
        observed_rate=math.nan,
        curve=curve,
        brier=score_decomposition(ranking, "brier", curve),
        log=score_decomposition(ranking, "log", curve),
        recalibration=recalibration(ranking),
        binned=binned,
        bins=bins,
    )
