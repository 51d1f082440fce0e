"""Logistic recalibration of a Ranking of probabilities: the calibration slope and
intercept, and calibration-in-the-large, fitted on the tie groups.

Cox's recalibration fits logit P(positive | score) = intercept + slope * logit(score) by
maximum likelihood; a calibrated forecast has intercept 0 and slope 1, a slope below 1
says the scores are too extreme (overfitting), above 1 too timid. Calibration-in-the-large
is the intercept with the slope held at 1 (logit(score) as an offset): 0 when the mean
forecast risk matches the observed rate, positive when the scores underestimate it.

The rows of a tie group share their covariate, so the likelihood is a sum over groups of
binomial terms (positives out of rows): Newton's iterations on the groups, each O(groups),
with step halving so that the likelihood never decreases.

References
----------
Cox, D. R. (1958). Two further applications of a model for binary regression.
Biometrika 45(3-4):562-565.
Van Calster, B., McLernon, D. J., van Smeden, M., Wynants, L. & Steyerberg, E. W. (2019).
Calibration: the Achilles heel of predictive analytics. BMC Medicine 17:230.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from informed._common import json_float
from informed.ranking.calibration import ascending, check_probabilities, dot
from informed.ranking.groups import FloatArray
from informed.ranking.ranking import Ranking

__all__ = ["Recalibration", "recalibration"]

_ITERATIONS = 100
_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Recalibration:
    """The logistic recalibration of a Ranking of probabilities.

    Attributes
    ----------
    intercept, slope : float
        Of logit P(positive | score) = intercept + slope * logit(score); (0, 1) when
        calibrated.
    in_the_large : float
        Calibration-in-the-large: the intercept with the slope fixed at 1; 0 when the
        mean forecast matches the observed rate.
    reason : str or None
        Why the values are NaN, where they are.
    note : str or None
        Rows left out of the fit, and why that changes nothing (scores of exactly 0 or 1
        whose outcomes agree with them).
    """

    intercept: float
    slope: float
    in_the_large: float
    reason: str | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The three numbers as JSON (NaN as null), with the reason or the note."""
        document: dict[str, object] = {
            "intercept": json_float(self.intercept),
            "slope": json_float(self.slope),
            "in_the_large": json_float(self.in_the_large),
        }
        if self.reason:
            document["undefined"] = self.reason
        if self.note:
            document["note"] = self.note
        return document


def _sigmoid(eta: FloatArray) -> FloatArray:
    """0.5 (1 + tanh(eta / 2)), written over `eta`: the same operations in the same order
    as the expression, without its three temporaries of the size of the groups."""
    eta *= 0.5
    np.tanh(eta, out=eta)
    eta += 1.0
    eta *= 0.5
    return eta


def _log_likelihood(eta: FloatArray, positives: FloatArray, rows: FloatArray) -> float:
    # log sigma(eta) = -log(1 + e^-eta) = -(log1p(e^-|eta|) + max(-eta, 0)), stable and
    # twice as fast as np.logaddexp; log(1 - sigma(eta)) = log sigma(eta) - eta
    softplus = np.log1p(np.exp(-np.abs(eta)))
    softplus += np.maximum(-eta, 0.0)
    negatives = rows - positives
    return -dot(rows, softplus) - dot(negatives, eta)


def _newton(
    x: FloatArray, positives: FloatArray, rows: FloatArray, fit_slope: bool
) -> tuple[float, float] | None:
    """Maximum likelihood (intercept, slope) of logit p = intercept + slope * x, or of
    logit p = intercept + x (the slope held at 1) when not `fit_slope`; None if the
    iterations do not converge.

    Newton's steps; a step is kept when the likelihood still rises at its end (concave
    along the step, so it rose all the way: no likelihood to evaluate), else when the
    likelihood there is no lower than rounding explains, else halved. Converged when a
    step moves no parameter by more than 1e-12 of its size."""
    # the covariate centred (for the slope) so that the two parameters are nearly
    # orthogonal; the offset model starts from the forecasts as given
    centre = dot(rows, x) / float(rows.sum()) if fit_slope else 0.0
    z = x - centre
    z2 = z * z
    rate = float(positives.sum() / rows.sum())
    beta = np.array([math.log(rate / (1.0 - rate)) if fit_slope else 0.0, 0.0])

    def eta(b: FloatArray) -> FloatArray:
        return np.asarray(b[0] + b[1] * z if fit_slope else b[0] + x)

    def gradient(b: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(gradient, p) at b."""
        p = _sigmoid(eta(b))  # eta(b) is a new array: the sigmoid is written over it
        residual = rows * p
        np.subtract(positives, residual, out=residual)
        found = [float(residual.sum()), dot(residual, z) if fit_slope else 0.0]
        return np.array(found), p

    g, p = gradient(beta)
    for _ in range(_ITERATIONS):
        weight = rows * p * (1.0 - p)
        h00 = float(weight.sum())
        if fit_slope:
            h01, h11 = dot(weight, z), dot(weight, z2)
            determinant = h00 * h11 - h01 * h01
            if not determinant > 0:
                return None
            step = np.array([(h11 * g[0] - h01 * g[1]), (h00 * g[1] - h01 * g[0])]) / determinant
        elif h00 > 0:
            step = np.array([g[0] / h00, 0.0])
        else:
            return None
        if not np.all(np.isfinite(step)):
            return None
        if np.all(np.abs(step) <= _TOLERANCE * (1.0 + np.abs(beta))):
            beta = beta + step
            break
        current = None
        for _ in range(60):
            trial = beta + step
            g_trial, p_trial = gradient(trial)
            if float(g_trial @ step) >= 0:  # still rising at the end of the step
                break
            if current is None:
                current = _log_likelihood(eta(beta), positives, rows)
            value = _log_likelihood(eta(trial), positives, rows)
            if value >= current - 1e-12 * (1.0 + abs(current)):  # rounding of the sums
                break
            step = step / 2.0
        else:
            return None
        beta, g, p = trial, g_trial, p_trial
    else:
        return None
    if not np.all(np.isfinite(beta)):
        return None
    if fit_slope:
        return float(beta[0] - beta[1] * centre), float(beta[1])
    return float(beta[0]), 1.0


def _overlap(x: FloatArray, positives: FloatArray, negatives: FloatArray) -> bool:
    """Whether the maximum likelihood slope exists: the positives' and the negatives'
    covariates overlap (no threshold puts all positives on one side, negatives on the
    other, ties allowed)."""
    with_positives, with_negatives = x[positives > 0], x[negatives > 0]
    return bool(
        with_positives.min() < with_negatives.max() and with_negatives.min() < with_positives.max()
    )


def recalibration(ranking: Ranking) -> Recalibration:
    """The calibration intercept and slope (Cox 1958) and calibration-in-the-large of a
    Ranking of probabilities, fitted by maximum likelihood on its tie groups.

    Notes
    -----
    Scores of exactly 0 or 1 have an infinite logit. A score of 1 carried only by
    positives (or 0 only by negatives) has likelihood 1 for every positive slope, so
    those rows are left out of the fit and `note` says so; the fit is then kept only if
    its slope is positive. A positive scored 0 or a negative scored 1 has likelihood 0
    for every positive slope: the values are NaN with the reason. They are NaN too when
    the maximum likelihood does not exist: one class only, a single distinct score, or
    the classes separated by a threshold on the score (the slope would be infinite).

    >>> import numpy as np
    >>> r = Ranking.from_scores([1, 0, 0, 1, 0, 1], [.2, .2, .5, .5, .8, .8], positive=1)
    >>> fit = recalibration(r)
    >>> [round(v, 9) + 0.0 for v in (fit.slope, fit.intercept, fit.in_the_large)]
    [0.0, 0.0, 0.0]
    """
    check_probabilities(ranking, "recalibration")
    nan = math.nan
    scores, positives, rows = ascending(ranking)
    negatives = rows - positives
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        why = "no rows" if ranking.n == 0 else "only one class among the rows"
        return Recalibration(nan, nan, nan, reason=why)
    low, high = scores == 0.0, scores == 1.0
    if np.any(positives[low] > 0) or np.any(negatives[high] > 0):
        return Recalibration(
            nan,
            nan,
            nan,
            reason="a positive is scored 0 or a negative 1: its logit is infinite and "
            "no positive slope gives it a non-zero likelihood",
        )
    note = None
    inside = ~(low | high)
    if not np.all(inside):
        left = float(rows[~inside].sum())
        note = (
            f"{left:g} rows scored exactly 0 or 1, all with the outcome their score "
            "gives probability 1, are left out: their likelihood is 1 for every positive slope"
        )
        scores, positives, rows, negatives = (
            a[inside] for a in (scores, positives, rows, negatives)
        )
    if positives.sum() == 0 or negatives.sum() == 0:
        return Recalibration(
            nan, nan, nan, reason="only one class among the rows scored inside (0, 1)", note=note
        )
    x = np.log(scores) - np.log1p(-scores)
    large = _newton(x, positives, rows, fit_slope=False)
    in_the_large = nan if large is None else large[0]
    if not _overlap(x, positives, negatives):
        why = (
            "one distinct score: no slope to fit"
            if scores.size == 1
            else "a threshold on the score separates the classes: the slope is infinite"
        )
        return Recalibration(nan, nan, in_the_large, reason=why, note=note)
    fitted = _newton(x, positives, rows, fit_slope=True)
    if fitted is None:
        return Recalibration(nan, nan, in_the_large, reason="Newton's iterations did not converge")
    intercept, slope = fitted
    if note is not None and not slope > 0:
        return Recalibration(
            nan,
            nan,
            in_the_large,
            reason="the slope fitted without the rows scored 0 or 1 is not positive, so "
            "leaving them out is not exact",
            note=note,
        )
    return Recalibration(intercept, slope, in_the_large, note=note)
