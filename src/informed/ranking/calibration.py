"""Calibration of a Ranking's scores read as probabilities: the CORP reliability curve and
the decomposition of the Brier and the log score.

A Ranking holds, for every distinct score, how many actual positives and negatives carry
it. Every mean of a function of (score, outcome) over the rows is a sum over those tie
groups, so calibration needs no row: the CORP reliability curve (Dimitriadis, Gneiting &
Jordan 2021) is the isotonic regression of the outcome on the score, and the
pool-adjacent-violators algorithm (PAV) over the tie groups, each weighted by its rows,
is that regression exactly (rows tied on a score share one fitted value, as in
scikit-learn's `IsotonicRegression`). No bins, so no choice that moves the result.

The mean score of the forecasts decomposes into miscalibration (MCB: what recalibrating
the scores by that curve would save), discrimination (DSC: what the recalibrated scores
gain over the constant forecast at the prevalence) and uncertainty (UNC: the score of
that constant forecast): mean score = MCB - DSC + UNC.

These read the scores as probabilities of the positive class: a score outside [0, 1] is
refused with the reason (`check_probabilities`); the ranking measures (AUC, PEM, ...) do
not need it.

References
----------
Dimitriadis, T., Gneiting, T. & Jordan, A. I. (2021). Stable reliability diagrams for
probabilistic classifiers. PNAS 118(8):e2016191118.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float, json_number, readonly
from informed.errors import InputError, InputTypeError
from informed.ranking.groups import FloatArray, groups_of
from informed.ranking.pav import Cumulative, pav, pav_blocks
from informed.ranking.ranking import Ranking

__all__ = [
    "SCORING_RULES",
    "Decomposition",
    "ReliabilityCurve",
    "check_probabilities",
    "cumulative_counts",
    "curve_of_groups",
    "decompose_blocks",
    "decompose_curve",
    "decompose_groups",
    "dot",
    "pav",
    "reliability_curve",
    "score_decomposition",
]

SCORING_RULES = {
    "brier": "Brier score: mean (score - outcome)^2",
    "log": "log score: mean -log(probability given to the outcome), natural log",
}
"""The scoring rules decomposed, and what each is."""

Rule = Literal["brier", "log"]


def check_probabilities(ranking: Ranking, what: str, positive: Any = None) -> None:
    """Refuse a Ranking whose scores are not probabilities (outside [0, 1]), naming one;
    `positive` names the class as the caller was given it (a Ranking of is-positive
    flags has the class True).

    >>> check_probabilities(Ranking.from_scores([1, 0], [0.9, 0.2], positive=1), "x")
    >>> check_probabilities(Ranking.from_scores([1, 0], [1.5, 0.2], positive=1), "x")
    Traceback (most recent call last):
    ...
    informed.errors.InputError: x reads the scores as probabilities of the positive class 1, ...
    """
    if not isinstance(ranking, Ranking):
        msg = f"{what} needs a Ranking; got {type(ranking).__name__}."
        raise InputTypeError(msg)
    scores = ranking.scores
    if scores.size == 0 or (scores[0] <= 1.0 and scores[-1] >= 0.0):
        return
    outside = (scores > 1.0) | (scores < 0.0)
    value = float(scores[0] if scores[0] > 1.0 else scores[-1])
    msg = (
        f"{what} reads the scores as probabilities of the positive class "
        f"{ranking.positive if positive is None else positive!r}, but score {value!r} "
        "lies outside [0, 1] "
        f"({int(outside.sum()):,} of {scores.size:,} distinct scores do). Calibration and "
        "decision curves need probabilities; the ranking measures (AUC, PEM, ...) do not."
    )
    raise InputError(msg)


@dataclass(frozen=True, eq=False)
class ReliabilityCurve:
    """The CORP reliability curve: the isotonic recalibration of each distinct score.

    Attributes
    ----------
    scores : array
        The distinct scores, ascending.
    recalibrated : array
        The fitted conditional event probability at each score (non-decreasing): the
        observed rate of the PAV block that holds it.
    rows, positives : array
        The (weighted) rows and actual positives at each score.
    block_starts : array of int
        The index (into `scores`) of the first score of each PAV block.
    block_values, block_rows, block_positives : array
        Each block's observed rate, its rows and its actual positives.

    Notes
    -----
    A calibrated forecast lies on the diagonal (recalibrated == score). The curve is
    drawn through the points (score, recalibrated), as scikit-learn's
    `IsotonicRegression` interpolates them.
    """

    scores: FloatArray
    recalibrated: FloatArray
    rows: FloatArray
    positives: FloatArray
    block_starts: NDArray[np.intp]
    block_values: FloatArray
    block_rows: FloatArray
    block_positives: FloatArray

    @property
    def block_ends(self) -> NDArray[np.intp]:
        """The index of the last score of each block."""
        return np.append(self.block_starts[1:], self.scores.size).astype(np.intp) - 1

    def at(self, score: float | FloatArray) -> float | FloatArray:
        """The curve at any score in [0, 1]: linear between the fitted points, constant
        beyond the first and the last (scikit-learn's `out_of_bounds="clip"`)."""
        values = np.interp(score, self.scores, self.recalibrated)
        return float(values) if np.ndim(values) == 0 else values

    def to_dict(self) -> dict[str, object]:
        """The blocks as JSON: each block's lowest and highest score, value and rows."""
        ends = self.block_ends
        return {
            "blocks": [
                {
                    "low": float(self.scores[s]),
                    "high": float(self.scores[e]),
                    "value": json_float(v),
                    "rows": float(r),
                }
                for s, e, v, r in zip(
                    self.block_starts.tolist(),
                    ends.tolist(),
                    self.block_values.tolist(),
                    self.block_rows.tolist(),
                    strict=True,
                )
            ]
        }


def dot(a: FloatArray, b: FloatArray) -> float:
    """The sum of a * b over two float64 vectors, in one thread: numpy's `einsum`, as fast
    as BLAS's `dot` alone and not slowed a hundredfold by BLAS threads on a busy machine."""
    return float(np.einsum("i,i->", a, b))


def ascending(ranking: Ranking, *, view: bool = False) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(scores, positives, rows) of the tie groups in ascending order of score, as float64.
    `view`: the scores as the Ranking's own reversed (no copy), for a caller that reads
    them element by element (a sum over a reversed view runs in another order)."""
    # contiguous copies, whatever the counts' type: a dot product over a reversed view may
    # sum in another order, and whole weights must give the numbers of repeated rows
    scores = ranking.scores[::-1] if view else np.ascontiguousarray(ranking.scores[::-1])
    positives = np.ascontiguousarray(ranking.positives[::-1], dtype=np.float64)
    rows = np.add(positives, ranking.negatives[::-1], dtype=np.float64)
    return scores, positives, rows


def cumulative_counts(ranking: Ranking) -> Cumulative | None:
    """The positives and rows after each group, ascending (`informed.ranking.pav.Cumulative`):
    the Ranking's own cumulative counts reversed, for counts; None for weights."""
    if ranking.weighted:
        return None
    groups = groups_of(ranking)
    return groups.cumulative_positives[::-1], groups.cumulative_total[::-1]


def reliability_curve(ranking: Ranking) -> ReliabilityCurve:
    """The CORP reliability curve of a Ranking of probabilities (Dimitriadis, Gneiting &
    Jordan 2021): PAV over its tie groups, each weighted by its rows.

    >>> r = Ranking.from_scores([0, 1, 0, 1, 1], [0.1, 0.2, 0.4, 0.4, 0.9], positive=1)
    >>> curve = reliability_curve(r)
    >>> curve.scores.tolist(), curve.recalibrated.tolist()  # 0.2 and 0.4 pooled: 2 of 3
    ([0.1, 0.2, 0.4, 0.9], [0.0, 0.6666666666666666, 0.6666666666666666, 1.0])
    """
    check_probabilities(ranking, "reliability_curve")
    return curve_of_groups(*ascending(ranking), cumulative_counts(ranking))


def curve_of_groups(
    scores: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    cumulative: Cumulative | None = None,
    buffer: FloatArray | None = None,
) -> ReliabilityCurve:
    """The CORP reliability curve of tie groups in ascending order of score (`ascending`);
    `cumulative`: whole counts summed after each group (`informed.ranking.pav.Cumulative`);
    `buffer`: an array of the groups' size PAV may overwrite."""
    values, starts, block_rows, block_positives = pav_blocks(positives, rows, cumulative, buffer)
    counts = np.diff(np.append(starts, scores.size))
    return ReliabilityCurve(
        scores=readonly(scores),
        recalibrated=readonly(np.repeat(values, counts)),
        rows=readonly(rows),
        positives=readonly(positives),
        block_starts=readonly(starts),
        block_values=readonly(values),
        block_rows=readonly(block_rows),
        block_positives=readonly(block_positives),
    )


@dataclass(frozen=True)
class Decomposition:
    """A mean score and its CORP decomposition: score = miscalibration - discrimination +
    uncertainty (MCB - DSC + UNC; Dimitriadis, Gneiting & Jordan 2021).

    `score` is the mean over the rows; `miscalibration` >= 0 (0: the scores are their own
    isotonic recalibration), `discrimination` >= 0, `uncertainty` the score of the
    constant forecast at the prevalence. NaN where undefined (`reason` says why); the log
    score is +inf where a row's outcome was given probability 0.
    """

    rule: str
    score: float
    miscalibration: float
    discrimination: float
    uncertainty: float
    reason: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The four numbers as JSON: NaN as null with the reason, +inf as the string
        "Infinity" (as a Ranking's JSON writes an infinite score) with why it is."""
        names = ("score", "miscalibration", "discrimination", "uncertainty")
        values = [getattr(self, name) + 0.0 for name in names]  # -0.0 (UNC of one class): 0.0
        document: dict[str, object] = {
            name: json_number(value) for name, value in zip(names, values, strict=True)
        }
        if self.reason:
            document["undefined"] = self.reason
        if math.inf in values:
            document["infinite"] = (
                "a positive is given probability 0 or a negative probability 1: -log 0 is "
                "infinite (scikit-learn's log_loss clips the probabilities instead)"
            )
        return document


def _mean_loss(
    rule: str,
    probability: FloatArray,
    positives: FloatArray,
    negatives: FloatArray,
    n: float,
    complement: FloatArray | None = None,
    buffer: FloatArray | None = None,
) -> float:
    """The mean loss of forecasting `probability` for groups of positives and negatives;
    `complement` is 1 - probability when already computed, `buffer` an array of its size
    that the terms are written to."""
    if complement is None:
        complement = 1.0 - probability
    if rule == "brier":
        total = dot(positives, np.square(complement, out=buffer)) + dot(
            negatives, np.square(probability, out=buffer)
        )
    else:
        total = -(_xlogy(positives, probability, buffer) + _xlogy(negatives, complement, buffer))
    return total / n


def _xlogy(counts: FloatArray, probability: FloatArray, buffer: FloatArray | None) -> float:
    """sum of counts * log(probability), 0 log 0 = 0 (no row, no loss; scipy's `xlogy`)."""
    if buffer is not None and not probability.flags.c_contiguous:
        # numpy's vectorised log reads contiguous arrays only: a strided view (a Ranking's
        # scores reversed) copied first takes a fifth of the time
        np.copyto(buffer, probability)
        probability = buffer
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(probability, out=buffer)
        total = dot(counts, logs)  # NaN only where a group without rows has log 0
        if math.isnan(total):
            total = dot(counts, np.where(counts == 0, 0.0, logs))
    return total


def score_decomposition(
    ranking: Ranking, rule: Rule = "brier", curve: ReliabilityCurve | None = None
) -> Decomposition:
    """The mean Brier or log score of a Ranking of probabilities and its decomposition
    into miscalibration, discrimination and uncertainty (CORP).

    Parameters
    ----------
    ranking : Ranking
        Scores in [0, 1], read as probabilities of its positive class.
    rule : {"brier", "log"}
        The scoring rule (`SCORING_RULES`); the log score uses the natural logarithm
        (scikit-learn's `log_loss`).
    curve : ReliabilityCurve, optional
        `reliability_curve(ranking)`, when already computed.

    Notes
    -----
    MCB = S(scores) - S(recalibrated), DSC = S(prevalence) - S(recalibrated), UNC =
    S(prevalence), each a mean over the rows computed as a sum over the tie groups (the
    recalibrated forecasts over the PAV blocks). A log score with a positive scored 0
    (or a negative scored 1) is +inf, and so is its MCB; scikit-learn's `log_loss` clips
    the probabilities to [eps, 1 - eps] instead and gives a finite number.

    Recalibrated, the scores 0.2, 0.4, 0.6, 0.8 of outcomes 0, 1, 0, 1 become 0, 1/2, 1/2,
    1: Brier 0.2 = MCB 0.075 - DSC 0.125 + UNC 0.25.

    >>> r = Ranking.from_scores([0, 1, 0, 1], [0.2, 0.4, 0.6, 0.8], positive=1)
    >>> d = score_decomposition(r)
    >>> d.score, d.uncertainty, d.discrimination, round(d.miscalibration, 12)
    (0.2, 0.25, 0.125, 0.075)
    """
    if rule not in SCORING_RULES:
        msg = f"`rule` must be one of {sorted(SCORING_RULES)}; got {rule!r}."
        raise InputError(msg)
    check_probabilities(ranking, "score_decomposition")
    n = float(ranking.n)
    if n == 0:
        nan = math.nan
        return Decomposition(rule, nan, nan, nan, nan, reason="no rows")
    curve = reliability_curve(ranking) if curve is None else curve
    return decompose_curve(curve, (rule,))[0]


def decompose_curve(
    curve: ReliabilityCurve,
    rules: Sequence[Rule],
    complement: FloatArray | None = None,
    scratch: tuple[FloatArray, FloatArray] | None = None,
    totals: tuple[float, float] | None = None,
) -> list[Decomposition]:
    """`score_decomposition` by each rule from a curve with rows, the passes over the
    groups shared: 1 - score (`complement`, if given) the negatives and the totals are
    computed once, the terms written to one buffer, and the blocks' sums are the curve's.
    `scratch`: two arrays of the groups' size to write the negatives and the terms to;
    `totals`: the positives and the rows, for whole counts (their sums, exactly)."""
    blocks = (curve.block_values, curve.block_positives, curve.block_rows)
    return decompose_blocks(
        curve.scores, curve.positives, curve.rows, blocks, rules, complement, scratch, totals
    )


def decompose_blocks(
    scores: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    blocks: tuple[FloatArray, FloatArray, FloatArray],
    rules: Sequence[str],
    complement: FloatArray | None = None,
    scratch: tuple[FloatArray, FloatArray] | None = None,
    totals: tuple[float, float] | None = None,
) -> list[Decomposition]:
    """`decompose_curve` from tie groups in ascending order of score, with rows, and their
    PAV blocks' (values, positives, rows) (`informed.ranking.pav.pav_blocks`)."""
    block_values, block_positives, block_rows = blocks
    n = float(rows.sum()) if totals is None else totals[1]
    negatives = np.subtract(rows, positives, out=None if scratch is None else scratch[0])
    complement = 1.0 - scores if complement is None else complement
    buffer = np.empty(scores.size) if scratch is None else scratch[1]
    block_negatives = block_rows - block_positives
    n_positive = float(positives.sum()) if totals is None else totals[0]
    found = []
    for rule in rules:
        score = _mean_loss(rule, scores, positives, negatives, n, complement, buffer)
        recalibrated = _mean_loss(rule, block_values, block_positives, block_negatives, n)
        marginal = _marginal_loss(rule, n_positive, n)
        found.append(
            Decomposition(rule, score, score - recalibrated, marginal - recalibrated, marginal)
        )
    return found


def _marginal_loss(rule: str, n_positive: float, n: float) -> float:
    """The mean loss of forecasting the prevalence everywhere (UNC)."""
    return _mean_loss(
        rule,
        np.array([n_positive / n]),
        np.array([n_positive]),
        np.array([n - n_positive]),
        n,
    )


def decompose_groups(
    rule: str,
    scores: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    block_starts: NDArray[np.intp],
    block_values: FloatArray,
) -> tuple[float, float, float, float]:
    """(score, MCB, DSC, UNC) of tie groups in ascending order of score and their PAV
    blocks (`pav`): the arithmetic of `score_decomposition`, for resampled groups too."""
    n = float(rows.sum())
    negatives = rows - positives
    score = _mean_loss(rule, scores, positives, negatives, n)
    block_positives = np.add.reduceat(positives, block_starts)
    block_negatives = np.add.reduceat(rows, block_starts) - block_positives
    recalibrated = _mean_loss(rule, block_values, block_positives, block_negatives, n)
    marginal = _marginal_loss(rule, float(positives.sum()), n)
    return score, score - recalibrated, marginal - recalibrated, marginal
