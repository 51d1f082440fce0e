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
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float
from informed.ranking.calibration import ascending, check_probabilities, dot
from informed.ranking.groups import FloatArray
from informed.ranking.newton import (
    CHUNK,
    EXP_LIMIT,
    chunks,
    derivatives,
    log_likelihood,
    newton,
    odds_derivatives,
    tanh_fit,
)
from informed.ranking.ranking import Ranking

__all__ = ["Recalibration", "recalibration", "recalibration_of_groups"]

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


_START_BINS = 1 << 12
"""Bins of consecutive groups whose fit starts Newton's iterations on all the groups."""

Bins = tuple[FloatArray, FloatArray, FloatArray]


def _bins(x: FloatArray, positives: FloatArray, rows: FloatArray) -> Bins | None:
    """`_START_BINS` bins of consecutive groups, as many in each (the last takes the rest):
    each bin's mean covariate, positives and rows; None where the groups are few."""
    if x.size <= 4 * _START_BINS:
        return None
    width = x.size // _START_BINS
    whole = width * _START_BINS

    def sums(values: FloatArray) -> FloatArray:
        found: FloatArray = values[:whole].reshape(_START_BINS, width).sum(axis=1)
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
    totals: tuple[float, float],
) -> float:
    """Calibration-in-the-large, the intercept of logit p = intercept + x, x = log(odds)
    (ascending); NaN if Newton's iterations do not converge. They start from the fit on
    the bins of consecutive groups (`_bins`, each bin's rows at its mean covariate),
    which lies close to the groups' own, so the passes over all the groups are few
    (`start`: that fit, or one of similar groups; None: from 0). `totals`: the sums of
    `positives` and of `rows`."""
    hits = (totals[0], 0.0)

    def one_pass(beta: FloatArray, information: bool) -> tuple[FloatArray, FloatArray | None]:
        if abs(beta[0]) < EXP_LIMIT and beta[0] + x[-1] < EXP_LIMIT:
            return odds_derivatives(beta, odds, False, rows, hits, information)
        return derivatives(beta, x, positives, rows, 0.0, False)

    found = newton(
        one_pass,
        lambda b: log_likelihood(b, x, positives, rows, 0.0, False),
        np.array([0.0 if start is None else start, 0.0]),
        False,
    )
    return math.nan if found is None else float(found[0])


def _slope_fit(
    x: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    start: tuple[float, float] | None,
    totals: tuple[float, float],
) -> tuple[float, float] | None:
    """The maximum likelihood (intercept, slope) of logit p = intercept + slope * x (`x`
    ascending, overwritten), started as `_in_the_large`; None if the iterations do not
    converge. `start`: the (intercept, slope) to start from; None: the prevalence.
    `totals`: the sums of `positives` and of `rows`."""
    # the covariate centred so that the two parameters are nearly orthogonal
    centre = dot(rows, x) / totals[1]
    z = np.subtract(x, centre, out=x)
    hits = (totals[0], dot(positives, z))
    if start is None:
        rate = hits[0] / totals[1]
        beta = np.array([math.log(rate / (1.0 - rate)), 0.0])
    else:
        beta = np.array([start[0] + start[1] * centre, start[1]])

    def one_pass(b: FloatArray, information: bool) -> tuple[FloatArray, FloatArray | None]:
        if max(b[0] + b[1] * z[0], b[0] + b[1] * z[-1]) < EXP_LIMIT:
            return odds_derivatives(b, z, True, rows, hits, information)
        return derivatives(b, z, positives, rows, 0.0, True)

    found = newton(one_pass, lambda b: log_likelihood(b, z, positives, rows, 0.0, True), beta, True)
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
        chunk = values[start : start + CHUNK]
        return np.flatnonzero(chunk > (0.0 if below is None else below[start : start + CHUNK]))

    for start in chunks(values.size):
        found = where(start)
        if found.size:
            first = start + int(found[0])
            break
    else:
        return None
    for start in reversed(chunks(values.size)):
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
    scratch: tuple[FloatArray, FloatArray] | None = None,
    totals: tuple[float, float] | None = None,
) -> Recalibration:
    """`recalibration` of tie groups in ascending order of score (`ascending`), both
    classes among them; `complement` is 1 - scores, when already computed. Newton's
    iterations start from the fit on bins of the groups, or from `start`'s finite values
    (the fit of similar groups, such as a bootstrap replicate's estimate): the maximum
    is the same, reached in fewer passes. `scratch`: two arrays of the groups' size the
    odds and the logits are written to (the first may be `complement` itself); `totals`:
    the positives and the rows, for whole counts (their sums, exactly)."""
    nan = math.nan
    # the scores ascend: those of 0 come first, those of 1 last (searched only if there
    # are any: numpy copies a strided view whole to search it)
    size = scores.size
    low = 0 if not size or scores[0] > 0.0 else int(np.searchsorted(scores, 0.0, side="right"))
    high = size if not size or scores[-1] < 1.0 else int(np.searchsorted(scores, 1.0, "left"))
    if np.any(positives[:low] > 0) or np.any(rows[high:] > positives[high:]):
        return Recalibration(
            nan,
            nan,
            nan,
            reason="a positive is scored 0 or a negative 1: its logit is infinite and "
            "no positive slope gives it a non-zero likelihood",
        )
    note = None
    if low > 0 or high < size:
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
    odds_out, x_out = (None, None) if scratch is None else (a[low:high] for a in scratch)
    odds = np.divide(scores, 1.0 - scores if complement is None else complement, out=odds_out)
    x = np.log(odds, out=x_out)
    # The fit does not depend on the weights' scale (the maximum likelihood of weights c w
    # is that of w), nor does Newton's step (a power of two scales every sum exactly), but
    # the sums overflow for weights of 1e160: weights whose total lies far from 1 are
    # scaled by the power of two that brings it into [1, 2), exact in floating point.
    if note is not None or totals is None:  # summed once for both fits
        totals = (float(positives.sum()), float(rows.sum()))
    shift = 1 - math.frexp(totals[1])[1]
    if abs(shift) > _SCALE_FREE:
        positives, rows = np.ldexp(positives, shift), np.ldexp(rows, shift)
        totals = (float(positives.sum()), float(rows.sum()))
    bins = None if start is not None else _bins(x, positives, rows)
    if bins is not None:  # both fits start from the fits on these
        fit = tanh_fit(*bins, False)
        large_start = None if fit is None else fit[0]
    else:
        large_start = _finite(start.in_the_large if start else math.nan)
    in_the_large = _in_the_large(x, odds, positives, rows, large_start, totals)
    if not _overlap(x, with_positives, with_negatives):
        why = (
            "one distinct score: no slope to fit"
            if scores.size == 1
            else "a threshold on the score separates the classes: the slope is infinite"
        )
        return Recalibration(nan, nan, in_the_large, reason=why, note=note)
    if bins is not None:
        slope_start = tanh_fit(*bins, True)
    elif start is not None and math.isfinite(start.intercept + start.slope):
        slope_start = (start.intercept, start.slope)
    else:
        slope_start = None
    fitted = _slope_fit(x, positives, rows, slope_start, totals)
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
