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
from numpy.typing import NDArray

from informed._common import json_float
from informed.ranking.calibration import ascending, check_probabilities, dot
from informed.ranking.groups import FloatArray
from informed.ranking.ranking import Ranking

__all__ = ["Recalibration", "recalibration", "recalibration_of_groups"]

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


_CHUNK = 1 << 15
"""Groups a pass over the groups takes at a time: its temporaries stay in the cache, where
arrays of the size of the groups would be written to memory (and page-faulted) whole."""

_START_BINS = 1 << 12
"""Bins of consecutive groups whose fit starts Newton's iterations on all the groups."""


def _chunks(size: int) -> range:
    return range(0, size, _CHUNK)


def _derivatives(
    beta: FloatArray,
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    centre: float,
    fit_slope: bool,
) -> tuple[FloatArray, FloatArray]:
    """The gradient and the Hessian (both of minus the log likelihood's negation: the
    information) of the binomial log likelihood at `beta`, in one pass over the groups.

    logit p = beta[0] + beta[1] * (x - centre) when `fit_slope`, else beta[0] + x. The
    gradient is sum(positives - rows p) and sum((positives - rows p) z); the information
    sum(rows p (1 - p)) times 1, z, z^2; p = (1 + tanh(eta / 2)) / 2."""
    g0 = g1 = h00 = h01 = h11 = 0.0
    half0, half1 = 0.5 * float(beta[0]), 0.5 * float(beta[1])
    for start in _chunks(x.size):
        end = start + _CHUNK
        xs, hits, size = x[start:end], positives[start:end], rows[start:end]
        if fit_slope:
            z = xs - centre
            p = z * half1
            p += half0
        else:
            z = xs
            p = xs * 0.5
            p += half0
        np.tanh(p, out=p)
        p += 1.0
        p *= 0.5
        expected = size * p
        residual = hits - expected
        g0 += float(residual.sum())
        np.subtract(1.0, p, out=p)
        expected *= p  # rows p (1 - p)
        h00 += float(expected.sum())
        if fit_slope:
            g1 += dot(residual, z)
            expected *= z
            h01 += float(expected.sum())
            h11 += dot(expected, z)
    return np.array([g0, g1]), np.array([h00, h01, h11])


def _log_likelihood(
    beta: FloatArray,
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    centre: float,
    fit_slope: bool,
) -> float:
    """The binomial log likelihood at `beta` (as in `_derivatives`), chunk by chunk."""
    # log sigma(eta) = -(log1p(e^-|eta|) + max(-eta, 0)); log(1 - sigma) = log sigma - eta
    total = 0.0
    for start in _chunks(x.size):
        end = start + _CHUNK
        xs = x[start:end]
        eta = (xs - centre) * float(beta[1]) if fit_slope else xs.copy()
        eta += float(beta[0])
        softplus = np.log1p(np.exp(-np.abs(eta)))
        softplus += np.maximum(-eta, 0.0)
        negatives = rows[start:end] - positives[start:end]
        total -= dot(rows[start:end], softplus) + dot(negatives, eta)
    return total


def _newton(
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    fit_slope: bool,
    start: tuple[float, float] | None = None,
) -> tuple[float, float] | None:
    """Maximum likelihood (intercept, slope) of logit p = intercept + slope * x, or of
    logit p = intercept + x (the slope held at 1) when not `fit_slope`; None if the
    iterations do not converge.

    Newton's steps from `start` (an (intercept, slope), else the prevalence); a step is
    kept when the likelihood still rises at its end (concave along the step, so it rose
    all the way: no likelihood to evaluate), else when the likelihood there is no lower
    than rounding explains, else halved. Converged when a step moves no parameter by more
    than 1e-12 of its size."""
    # the covariate centred (for the slope) so that the two parameters are nearly
    # orthogonal; the offset model starts from the forecasts as given
    centre = dot(rows, x) / float(rows.sum()) if fit_slope else 0.0
    if start is not None:
        beta = np.array([start[0] + start[1] * centre, start[1] if fit_slope else 0.0])
    else:
        rate = float(positives.sum() / rows.sum())
        beta = np.array([math.log(rate / (1.0 - rate)) if fit_slope else 0.0, 0.0])

    def derivatives(b: FloatArray) -> tuple[FloatArray, FloatArray]:
        return _derivatives(b, x, positives, rows, centre, fit_slope)

    def likelihood(b: FloatArray) -> float:
        return _log_likelihood(b, x, positives, rows, centre, fit_slope)

    g, (h00, h01, h11) = derivatives(beta)
    for _ in range(_ITERATIONS):
        if fit_slope:
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
            g_trial, h_trial = derivatives(trial)
            if float(g_trial @ step) >= 0:  # still rising at the end of the step
                break
            if current is None:
                current = likelihood(beta)
            value = likelihood(trial)
            if value >= current - 1e-12 * (1.0 + abs(current)):  # rounding of the sums
                break
            step = step / 2.0
        else:
            return None
        beta, g, (h00, h01, h11) = trial, g_trial, h_trial
    else:
        return None
    if not np.all(np.isfinite(beta)):
        return None
    if fit_slope:
        return float(beta[0] - beta[1] * centre), float(beta[1])
    return float(beta[0]), 1.0


Bins = tuple[FloatArray, FloatArray, FloatArray]


def _bins(x: FloatArray, positives: FloatArray, rows: FloatArray) -> Bins | None:
    """`_START_BINS` bins of consecutive groups: each bin's mean covariate, positives and
    rows; None where the groups are few."""
    if x.size <= 4 * _START_BINS:
        return None
    cuts = np.linspace(0, x.size, _START_BINS + 1).astype(np.intp)[:-1]
    bin_rows = np.add.reduceat(rows, cuts)
    bin_x = np.add.reduceat(rows * x, cuts) / bin_rows
    return bin_x, np.add.reduceat(positives, cuts), bin_rows


def _fit(
    x: FloatArray, positives: FloatArray, rows: FloatArray, fit_slope: bool, bins: Bins | None
) -> tuple[float, float] | None:
    """`_newton` on the groups, started from its fit on the bins of consecutive groups
    (`_bins`, each bin's rows at its mean covariate): that fit lies close to the groups'
    own, so the iterations over all the groups are few. Where the groups are few, or the
    bins' fit fails, Newton's iterations start from the prevalence."""
    start = None if bins is None else _newton(*bins, fit_slope)
    return _newton(x, positives, rows, fit_slope, start)


def _overlap(x: FloatArray, positives: FloatArray, negatives: NDArray[np.bool_]) -> bool:
    """Whether the maximum likelihood slope exists: the positives' and the negatives'
    covariates (`x` ascending; `negatives` marks the groups with one) overlap (no
    threshold puts all positives on one side, negatives on the other, ties allowed)."""
    with_positives = positives > 0
    first_positive, last_positive = (
        _first(with_positives),
        x.size - 1 - _first(with_positives[::-1]),
    )
    first_negative, last_negative = _first(negatives), x.size - 1 - _first(negatives[::-1])
    return bool(x[first_positive] < x[last_negative] and x[first_negative] < x[last_positive])


def _first(mask: NDArray[np.bool_]) -> int:
    return int(np.argmax(mask))


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
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        why = "no rows" if ranking.n == 0 else "only one class among the rows"
        return Recalibration(math.nan, math.nan, math.nan, reason=why)
    return recalibration_of_groups(*ascending(ranking))


def recalibration_of_groups(
    scores: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    *,
    complement: FloatArray | None = None,
) -> Recalibration:
    """`recalibration` of tie groups in ascending order of score (`ascending`), both
    classes among them; `complement` is 1 - scores, when already computed."""
    nan = math.nan
    # the scores ascend: those of 0 come first, those of 1 last
    low = int(np.searchsorted(scores, 0.0, side="right"))
    high = int(np.searchsorted(scores, 1.0, side="left"))
    if np.any(positives[:low] > 0) or np.any(rows[high:] > positives[high:]):
        return Recalibration(
            nan,
            nan,
            nan,
            reason="a positive is scored 0 or a negative 1: its logit is infinite and "
            "no positive slope gives it a non-zero likelihood",
        )
    note = None
    if low > 0 or high < scores.size:
        left = float(rows[:low].sum() + rows[high:].sum())
        note = (
            f"{left:g} rows scored exactly 0 or 1, all with the outcome their score "
            "gives probability 1, are left out: their likelihood is 1 for every positive slope"
        )
        scores, positives, rows = scores[low:high], positives[low:high], rows[low:high]
        complement = None if complement is None else complement[low:high]
    negatives = rows > positives
    if not np.any(positives > 0) or not np.any(negatives):
        return Recalibration(
            nan, nan, nan, reason="only one class among the rows scored inside (0, 1)", note=note
        )
    x = scores / (1.0 - scores if complement is None else complement)
    np.log(x, out=x)
    # The fit does not depend on the weights' scale (the maximum likelihood of weights c w
    # is that of w), but its sums do: weights of 1e160 overflowed the information matrix.
    # Scaled by the power of two that brings their total into [1, 2): exact in floating
    # point, so ordinary weights fit as before, and no sum overflows whatever their scale.
    shift = 1 - math.frexp(float(rows.sum()))[1]
    positives, rows = np.ldexp(positives, shift), np.ldexp(rows, shift)
    bins = _bins(x, positives, rows)  # both fits start from the fit on these
    large = _fit(x, positives, rows, False, bins)
    in_the_large = nan if large is None else large[0]
    if not _overlap(x, positives, negatives):
        why = (
            "one distinct score: no slope to fit"
            if scores.size == 1
            else "a threshold on the score separates the classes: the slope is infinite"
        )
        return Recalibration(nan, nan, in_the_large, reason=why, note=note)
    fitted = _fit(x, positives, rows, True, bins)
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
