"""Newton's iterations for the binomial log likelihood of tie groups, the fits behind
`informed.ranking.recalibration`: logit p = intercept + slope * covariate, or the
covariate as an offset (the slope held at 1), each group's positives out of its rows.

A pass over the groups sums the gradient and the information (the Hessian's negation)
chunk by chunk, so the temporaries stay in the cache. `derivatives` takes any linear
predictor (p from a tanh); `odds_derivatives` takes fewer operations a group (p = t /
(1 + t), t from the odds or one exp), where the caller keeps t finite. `newton` keeps a
step when the likelihood still rises at its end or when Newton's decrement shrinks
(Deuflhard's natural monotonicity test), else halves it.

References
----------
Deuflhard, P. (2004). Newton Methods for Nonlinear Problems: Affine Invariance and
Adaptive Algorithms. Springer.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from informed.ranking.calibration import dot
from informed.ranking.groups import FloatArray

__all__ = [
    "CHUNK",
    "EXP_LIMIT",
    "Pass",
    "chunks",
    "derivatives",
    "log_likelihood",
    "newton",
    "newton_step",
    "odds_derivatives",
    "tanh_fit",
]

ITERATIONS = 100
TOLERANCE = 1e-12

CHUNK = 1 << 15
"""Groups a pass over the groups takes at a time: its temporaries stay in the cache, where
arrays of the size of the groups would be written to memory (and page-faulted) whole."""

EXP_LIMIT = 700.0
"""The largest linear predictor a pass takes the exp of (it overflows past 709.78);
beyond it, or for an intercept beyond it, the pass takes the tanh of half of it."""

SIMPLIFIED = 1e-5
"""A step that moves no parameter by more than this much of its size barely changes the
information: the pass at its end sums the gradient alone, and the next step reuses the
information at its start (the simplified Newton step; Deuflhard 2004, Newton Methods for
Nonlinear Problems)."""

Pass = Callable[[FloatArray, bool], tuple[FloatArray, FloatArray | None]]
"""The gradient (g0, g1) and, when asked (True), the information (h00, h01, h11: the
Hessian's negation; else None) of a log likelihood at (intercept, slope); g1, h01 and h11
are 0 when the slope is held."""


def chunks(size: int) -> range:
    return range(0, size, CHUNK)


def derivatives(
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
    for start in chunks(x.size):
        end = start + CHUNK
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


def odds_derivatives(
    beta: FloatArray,
    covariate: FloatArray,
    slope: bool,
    rows: FloatArray,
    hits: tuple[float, float],
    information: bool = True,
) -> tuple[FloatArray, FloatArray | None]:
    """`derivatives` in fewer operations a group, with p = t / (1 + t), 1 - p = 1 / (1 + t)
    and the positives' sums `hits` (sum(positives), sum(positives z)) computed once.

    With `slope`, `covariate` is z, the centred logits, logit p = beta[0] + beta[1] z and
    t = e^eta: one exp a group (`derivatives` takes a tanh and more passes). Without,
    `covariate` is the odds score / (1 - score) and logit p = beta[0] +
    logit(score) (the slope held at 1): t = e^beta[0] odds, no exp a group. The caller
    keeps t finite (`EXP_LIMIT`). Without `information`, the gradient alone (None)."""
    a, b = float(beta[0]), float(beta[1])
    factor = math.exp(a)
    e0 = e1 = h00 = h01 = h11 = 0.0
    t, u = np.empty(min(CHUNK, rows.size)), np.empty(min(CHUNK, rows.size))
    for start in chunks(rows.size):
        end = start + CHUNK
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


def log_likelihood(
    beta: FloatArray,
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    centre: float,
    fit_slope: bool,
) -> float:
    """The binomial log likelihood at `beta` (as in `derivatives`), chunk by chunk."""
    # log sigma(eta) = -(log1p(e^-|eta|) + max(-eta, 0)); log(1 - sigma) = log sigma - eta
    total = 0.0
    for start in chunks(x.size):
        end = start + CHUNK
        xs = x[start:end]
        eta = (xs - centre) * float(beta[1]) if fit_slope else xs.copy()
        eta += float(beta[0])
        softplus = np.log1p(np.exp(-np.abs(eta)))
        softplus += np.maximum(-eta, 0.0)
        negatives = rows[start:end] - positives[start:end]
        total -= dot(rows[start:end], softplus) + dot(negatives, eta)
    return total


def newton_step(g: FloatArray, h: FloatArray, fit_slope: bool) -> FloatArray | None:
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


def newton(
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
    is halved. Converged when a step moves no parameter by more than 1e-12 of its size,
    or when the steps after it would not, by the contraction of the last two full steps
    (`_contracted`): near the maximum each step lands on the next iterate, one pass over
    the groups each (after a small step, `SIMPLIFIED`, a pass for the gradient alone)."""
    g, h = derivatives(beta, True)
    if h is None:
        return None
    step = newton_step(g, h, fit_slope)
    previous = None  # the decrement of the full step before, if it was not halved
    for _ in range(ITERATIONS):
        if step is None:
            return None
        decrement = float(g @ step)
        bound = TOLERANCE * (1.0 + np.abs(beta))
        if np.all(np.abs(step) <= bound) or _contracted(step, decrement, previous, bound):
            beta = beta + step
            return beta if np.all(np.isfinite(beta)) else None
        small = bool(np.all(np.abs(step) <= SIMPLIFIED * (1.0 + np.abs(beta))))
        current = None
        full: float | None = decrement
        for _ in range(60):
            trial = beta + step
            g_trial, h_found = derivatives(trial, not small)
            h_trial = h if h_found is None else h_found
            following = newton_step(g_trial, h_trial, fit_slope)
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
            full = None
        else:
            return None
        beta, g, h, step, previous = trial, g_trial, h_trial, following, full
    return None


def _contracted(
    step: FloatArray, decrement: float, previous: float | None, bound: FloatArray
) -> bool:
    """Whether the iterate after `step` lies within `bound` of the maximum by Deuflhard's
    a-priori estimate: the steps contract by Theta = sqrt(decrement / previous), the
    ratio of their lengths in the information's metric (Newton's decrements), so the
    steps after this one sum to at most Theta / (1 - Theta) times it (a quadratically
    converging sequence contracts faster). Asked only of a step after a full one, with
    Theta below 1/2; it saves the pass that would only confirm a step of 1e-19."""
    if previous is None or not 0.0 <= decrement < 0.25 * previous:
        return False
    theta = math.sqrt(decrement / previous)
    return bool(np.all(theta / (1.0 - theta) * np.abs(step) <= bound))


def tanh_fit(
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    fit_slope: bool,
) -> tuple[float, float] | None:
    """Maximum likelihood (intercept, slope) of logit p = intercept + slope * x, or of
    logit p = intercept + x (the slope held at 1) when not `fit_slope`, from the
    prevalence, by `derivatives`: the fit on the bins that starts the fits on the groups
    (`_in_the_large`, `_slope_fit`)."""
    # the covariate centred (for the slope) so that the two parameters are nearly
    # orthogonal; the offset model starts from the forecasts as given
    centre = dot(rows, x) / float(rows.sum()) if fit_slope else 0.0
    rate = float(positives.sum() / rows.sum())
    beta = np.array([math.log(rate / (1.0 - rate)) if fit_slope else 0.0, 0.0])
    found = newton(
        lambda b, _: derivatives(b, x, positives, rows, centre, fit_slope),
        lambda b: log_likelihood(b, x, positives, rows, centre, fit_slope),
        beta,
        fit_slope,
    )
    if found is None:
        return None
    return float(found[0] - found[1] * centre), float(found[1]) if fit_slope else 1.0
