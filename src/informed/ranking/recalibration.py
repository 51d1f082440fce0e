"""Logistic recalibration of a Ranking of probabilities: the calibration slope and
intercept, and calibration-in-the-large, fitted on the tie groups.

Cox's recalibration fits logit P(positive | score) = intercept + slope * logit(score) by
maximum likelihood; a calibrated forecast has intercept 0 and slope 1, a slope below 1
says the scores are too extreme (overfitting), above 1 too timid. Calibration-in-the-large
is the intercept with the slope held at 1 (logit(score) as an offset): 0 when the mean
forecast risk matches the observed rate, positive when the scores underestimate it.

The rows of a tie group share their covariate, so the likelihood is a sum over groups of
binomial terms (positives out of rows): Newton's iterations on the groups, each O(groups),
started from the fit on bins of consecutive groups, so that two passes over the groups
usually reach the maximum; a step that overshoots is halved.

References
----------
Cox, D. R. (1958). Two further applications of a model for binary regression.
Biometrika 45(3-4):562-565.
Van Calster, B., McLernon, D. J., van Smeden, M., Wynants, L. & Steyerberg, E. W. (2019).
Calibration: the Achilles heel of predictive analytics. BMC Medicine 17:230.
"""

from __future__ import annotations

import math
from collections.abc import Callable
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
_SCALE_FREE = 256
"""Weights whose total lies within 2**+-this are fitted unscaled (no sum overflows)."""


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

_EXP_LIMIT = 700.0
"""The largest linear predictor a pass takes the exp of (it overflows past 709.78);
beyond it, or for an intercept beyond it, the pass takes the tanh of half of it."""

_SIMPLIFIED = 1e-5
"""A step that moves no parameter by more than this much of its size barely changes the
information: the pass at its end sums the gradient alone, and the next step reuses the
information at its start (the simplified Newton step; Deuflhard 2004, Newton Methods for
Nonlinear Problems)."""

Pass = Callable[[FloatArray, bool], tuple[FloatArray, FloatArray | None]]
"""The gradient (g0, g1) and, when asked (True), the information (h00, h01, h11: the
Hessian's negation; else None) of a log likelihood at (intercept, slope); g1, h01 and h11
are 0 when the slope is held."""


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
    """The gradient and the information of the binomial log likelihood at `beta`, in one
    pass over the groups, for any linear predictor.

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


def _odds_derivatives(
    beta: FloatArray,
    covariate: FloatArray,
    slope: bool,
    rows: FloatArray,
    hits: tuple[float, float],
    information: bool = True,
) -> tuple[FloatArray, FloatArray | None]:
    """`_derivatives` in fewer operations a group, with p = t / (1 + t), 1 - p = 1 / (1 + t)
    and the positives' sums `hits` (sum(positives), sum(positives z)) computed once.

    With `slope`, `covariate` is z, the centred logits, logit p = beta[0] + beta[1] z and
    t = e^eta: one exp a group (`_derivatives` takes a tanh and more passes). Without,
    `covariate` is the odds score / (1 - score) and logit p = beta[0] +
    logit(score) (the slope held at 1): t = e^beta[0] odds, no exp a group. The caller
    keeps t finite (`_EXP_LIMIT`). Without `information`, the gradient alone (None)."""
    a, b = float(beta[0]), float(beta[1])
    factor = math.exp(a)
    e0 = e1 = h00 = h01 = h11 = 0.0
    t, u = np.empty(min(_CHUNK, rows.size)), np.empty(min(_CHUNK, rows.size))
    for start in _chunks(rows.size):
        end = start + _CHUNK
        zs = covariate[start:end]
        t_, u_ = t[: zs.size], u[: zs.size]
        if not slope:
            np.multiply(zs, factor, out=t_)
        else:
            np.multiply(zs, b, out=t_)
            t_ += a
            np.exp(t_, out=t_)
        np.add(t_, 1.0, out=u_)
        np.divide(t_, u_, out=t_)  # p
        t_ *= rows[start:end]  # rows p
        e0 += float(t_.sum())
        if slope:
            e1 += dot(t_, zs)
        if not information:
            continue
        t_ /= u_  # rows p (1 - p)
        h00 += float(t_.sum())
        if slope:
            h01 += dot(t_, zs)
            t_ *= zs
            h11 += dot(t_, zs)
    gradient = np.array([hits[0] - e0, hits[1] - e1])
    return gradient, np.array([h00, h01, h11]) if information else None


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


def _step(g: FloatArray, h: FloatArray, fit_slope: bool) -> FloatArray | None:
    """Newton's step, the information's inverse times the gradient; None where the
    information is not positive definite or the step not finite."""
    h00, h01, h11 = (float(v) for v in h)
    if fit_slope:
        determinant = h00 * h11 - h01 * h01
        if not determinant > 0:
            return None
        step = np.array([(h11 * g[0] - h01 * g[1]), (h00 * g[1] - h01 * g[0])]) / determinant
    elif h00 > 0:
        step = np.array([g[0] / h00, 0.0])
    else:
        return None
    return step if np.all(np.isfinite(step)) else None


def _newton(
    derivatives: Pass,
    likelihood: Callable[[FloatArray], float],
    beta: FloatArray,
    fit_slope: bool,
) -> FloatArray | None:
    """The maximum of a concave log likelihood by Newton's steps from `beta`; None if the
    iterations do not converge.

    A step is kept, with no likelihood to evaluate, when the likelihood still rises at
    its end (concave along the step, so it rose all the way) or when Newton's decrement
    (g' H^-1 g, the step's length in the information's metric) at its end is at most a
    quarter of the one at its start (Deuflhard's natural monotonicity test: the steps
    shrink geometrically, so the iterates converge, to where the gradient is 0, the
    maximum); else when the likelihood there is no lower than rounding explains; else it
    is halved. Converged when a step moves no parameter by more than 1e-12 of its size:
    near the maximum each step lands on the next iterate, one pass over the groups each
    (after a small step, `_SIMPLIFIED`, a pass for the gradient alone)."""
    g, h = derivatives(beta, True)
    if h is None:
        return None
    step = _step(g, h, fit_slope)
    for _ in range(_ITERATIONS):
        if step is None:
            return None
        if np.all(np.abs(step) <= _TOLERANCE * (1.0 + np.abs(beta))):
            beta = beta + step
            return beta if np.all(np.isfinite(beta)) else None
        decrement = float(g @ step)
        small = bool(np.all(np.abs(step) <= _SIMPLIFIED * (1.0 + np.abs(beta))))
        current = None
        for _ in range(60):
            trial = beta + step
            g_trial, h_found = derivatives(trial, not small)
            h_trial = h if h_found is None else h_found
            following = _step(g_trial, h_trial, fit_slope)
            if float(g_trial @ step) >= 0:  # still rising at the end of the step
                break
            if following is not None and 4.0 * float(g_trial @ following) <= decrement:
                break
            if current is None:
                current = likelihood(beta)
            value = likelihood(trial)
            if value >= current - 1e-12 * (1.0 + abs(current)):  # rounding of the sums
                break
            step = step / 2.0
        else:
            return None
        beta, g, h, step = trial, g_trial, h_trial, following
    return None


def _tanh_fit(
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    fit_slope: bool,
) -> tuple[float, float] | None:
    """Maximum likelihood (intercept, slope) of logit p = intercept + slope * x, or of
    logit p = intercept + x (the slope held at 1) when not `fit_slope`, from the
    prevalence, by `_derivatives`: the fit on the bins that starts the fits on the groups
    (`_in_the_large`, `_slope_fit`)."""
    # the covariate centred (for the slope) so that the two parameters are nearly
    # orthogonal; the offset model starts from the forecasts as given
    centre = dot(rows, x) / float(rows.sum()) if fit_slope else 0.0
    rate = float(positives.sum() / rows.sum())
    beta = np.array([math.log(rate / (1.0 - rate)) if fit_slope else 0.0, 0.0])
    found = _newton(
        lambda b, _: _derivatives(b, x, positives, rows, centre, fit_slope),
        lambda b: _log_likelihood(b, x, positives, rows, centre, fit_slope),
        beta,
        fit_slope,
    )
    if found is None:
        return None
    return float(found[0] - found[1] * centre), float(found[1]) if fit_slope else 1.0


Bins = tuple[FloatArray, FloatArray, FloatArray]


def _bins(x: FloatArray, positives: FloatArray, rows: FloatArray) -> Bins | None:
    """`_START_BINS` bins of consecutive groups, as many in each (the last takes the rest):
    each bin's mean covariate, positives and rows; None where the groups are few."""
    if x.size <= 4 * _START_BINS:
        return None
    width = x.size // _START_BINS
    whole = width * _START_BINS

    def sums(values: FloatArray) -> FloatArray:
        found = values[:whole].reshape(_START_BINS, width).sum(axis=1)
        found[-1] += float(values[whole:].sum())
        return found

    bin_rows = sums(rows)
    bin_x = np.einsum(
        "ij,ij->i", rows[:whole].reshape(_START_BINS, width), x[:whole].reshape(_START_BINS, width)
    )
    bin_x[-1] += dot(rows[whole:], x[whole:])
    bin_x /= bin_rows
    return bin_x, sums(positives), bin_rows


def _in_the_large(
    x: FloatArray,
    odds: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    start: float | None,
) -> float:
    """Calibration-in-the-large, the intercept of logit p = intercept + x, x = log(odds)
    (ascending); NaN if Newton's iterations do not converge. They start from the fit on
    the bins of consecutive groups (`_bins`, each bin's rows at its mean covariate),
    which lies close to the groups' own, so the passes over all the groups are few
    (`start`: that fit, or one of similar groups; None: from 0)."""
    hits = (float(positives.sum()), 0.0)

    def derivatives(beta: FloatArray, information: bool) -> tuple[FloatArray, FloatArray | None]:
        if abs(beta[0]) < _EXP_LIMIT and beta[0] + x[-1] < _EXP_LIMIT:
            return _odds_derivatives(beta, odds, False, rows, hits, information)
        return _derivatives(beta, x, positives, rows, 0.0, False)

    found = _newton(
        derivatives,
        lambda b: _log_likelihood(b, x, positives, rows, 0.0, False),
        np.array([0.0 if start is None else start, 0.0]),
        False,
    )
    return math.nan if found is None else float(found[0])


def _slope_fit(
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    start: tuple[float, float] | None,
) -> tuple[float, float] | None:
    """The maximum likelihood (intercept, slope) of logit p = intercept + slope * x (`x`
    ascending, overwritten), started as `_in_the_large`; None if the iterations do not
    converge. `start`: the (intercept, slope) to start from; None: the prevalence."""
    # the covariate centred so that the two parameters are nearly orthogonal
    centre = dot(rows, x) / float(rows.sum())
    z = np.subtract(x, centre, out=x)
    hits = (float(positives.sum()), dot(positives, z))
    if start is None:
        rate = hits[0] / float(rows.sum())
        beta = np.array([math.log(rate / (1.0 - rate)), 0.0])
    else:
        beta = np.array([start[0] + start[1] * centre, start[1]])

    def derivatives(b: FloatArray, information: bool) -> tuple[FloatArray, FloatArray | None]:
        if max(b[0] + b[1] * z[0], b[0] + b[1] * z[-1]) < _EXP_LIMIT:
            return _odds_derivatives(b, z, True, rows, hits, information)
        return _derivatives(b, z, positives, rows, 0.0, True)

    found = _newton(
        derivatives, lambda b: _log_likelihood(b, z, positives, rows, 0.0, True), beta, True
    )
    if found is None:
        return None
    return float(found[0] - found[1] * centre), float(found[1])


def _overlap(x: FloatArray, positives: tuple[int, int], negatives: tuple[int, int]) -> bool:
    """Whether the maximum likelihood slope exists: the positives' and the negatives'
    covariates (`x` ascending; the first and the last group with a positive, with a
    negative) overlap (no threshold puts all positives on one side, negatives on the
    other, ties allowed)."""
    return bool(x[positives[0]] < x[negatives[1]] and x[negatives[0]] < x[positives[1]])


def _ends(values: FloatArray, below: FloatArray | None) -> tuple[int, int] | None:
    """The first and the last index where `values` > `below` (> 0 if None; None if
    nowhere), a chunk at a time from either end: each scan stops at the first chunk that
    holds one, so the groups are read whole only where one class is rare."""

    def where(start: int) -> NDArray[np.intp]:
        chunk = values[start : start + _CHUNK]
        return np.flatnonzero(chunk > (0.0 if below is None else below[start : start + _CHUNK]))

    for start in _chunks(values.size):
        found = where(start)
        if found.size:
            first = start + int(found[0])
            break
    else:
        return None
    for start in reversed(_chunks(values.size)):
        found = where(start)
        if found.size:
            return first, start + int(found[-1])
    return None  # pragma: no cover - the forward scan found one


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


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
    start: Recalibration | None = None,
) -> Recalibration:
    """`recalibration` of tie groups in ascending order of score (`ascending`), both
    classes among them; `complement` is 1 - scores, when already computed. Newton's
    iterations start from the fit on bins of the groups, or from `start`'s finite values
    (the fit of similar groups, such as a bootstrap replicate's estimate): the maximum
    is the same, reached in fewer passes."""
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
    with_positives = _ends(positives, None)
    with_negatives = _ends(rows, positives)
    if with_positives is None or with_negatives is None:
        return Recalibration(
            nan, nan, nan, reason="only one class among the rows scored inside (0, 1)", note=note
        )
    odds = scores / (1.0 - scores if complement is None else complement)
    x = np.log(odds)
    # The fit does not depend on the weights' scale (the maximum likelihood of weights c w
    # is that of w), nor does Newton's step (a power of two scales every sum exactly), but
    # the sums overflow for weights of 1e160: weights whose total lies far from 1 are
    # scaled by the power of two that brings it into [1, 2), exact in floating point.
    shift = 1 - math.frexp(float(rows.sum()))[1]
    if abs(shift) > _SCALE_FREE:
        positives, rows = np.ldexp(positives, shift), np.ldexp(rows, shift)
    bins = None if start is not None else _bins(x, positives, rows)
    if bins is not None:  # both fits start from the fits on these
        fit = _tanh_fit(*bins, False)
        large_start = None if fit is None else fit[0]
    else:
        large_start = _finite(start.in_the_large if start else math.nan)
    in_the_large = _in_the_large(x, odds, positives, rows, large_start)
    if not _overlap(x, with_positives, with_negatives):
        why = (
            "one distinct score: no slope to fit"
            if scores.size == 1
            else "a threshold on the score separates the classes: the slope is infinite"
        )
        return Recalibration(nan, nan, in_the_large, reason=why, note=note)
    if bins is not None:
        slope_start = _tanh_fit(*bins, True)
    elif start is not None and math.isfinite(start.intercept + start.slope):
        slope_start = (start.intercept, start.slope)
    else:
        slope_start = None
    fitted = _slope_fit(x, positives, rows, slope_start)
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
