"""How much less informed a slice is than other rows, with intervals that hold together.

The gap of a slice is the measure of the rest of the rows less the slice's: B_rest -
B_slice, positive where the model is less informed in the slice. Informedness B =
TPR - FPR (Powers 2011) for two classes or the positive class's one-vs-rest view;
Powers' bias-weighted multiclass B for more; markedness on request; with scores the AUC.

The slice and its rest are disjoint rows, so their estimates are independent and the
variance of the gap is the sum of theirs. For two classes B is a difference of two
proportions measured on different rows (TPR on the real positives, FPR on the real
negatives), and the gap is a linear function of four independent proportions; its
interval is Price & Bonett's (2004) adjusted Wald interval for such a function, which
adds 2/m successes and 4/m trials to each of its m = 4 proportions (1/2 to each cell of
the two 2x2 tables) before the estimate and its variance p(1 - p)/n are taken; the same
pseudo-count of 1/2 per cell, with the delta-method variance of the multiclass measure,
serves for more classes. Unadjusted, a slice whose TPR is 1 would have variance 0 and an
interval of no width. With scores the variance of each AUC is DeLong's (DeLong, DeLong &
Clarke-Pearson 1988), as in `informed.inference.auc_differences`.

Every interval is simultaneous over the search: Bonferroni's correction over the m
hypotheses the search tests (every slice tested against its rest, and every nested
slice tested against the rest of each tested slice it lies in), each interval at level
1 - (1 - level) / m, so that with probability at least `level` every gap lies in its
interval at once, whatever the dependence between overlapping slices. Bonferroni rather
than Holm: Holm's steps give decisions, not intervals, and the search reports intervals;
rather than a max-statistic bootstrap: slices at different depths overlap, and a joint
resampling needs the cells of the finest crossing of every column, which can be as
many as the rows.

References
----------
Price, R. M. & Bonett, D. G. (2004). An improved confidence interval for a linear
function of binomial proportions. Computational Statistics & Data Analysis 45(3):449-456.
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. J. Mach. Learn. Technol. 2(1):37-63.
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under
two or more correlated receiver operating characteristic curves: a nonparametric
approach. Biometrics 44(3):837-845.

>>> slice_ = np.array([[[40, 10], [10, 40]]])  # B = 0.8 - 0.2 = 0.6
>>> rest = np.array([[[90, 5], [10, 95]]])     # B = 0.9 - 0.05 = 0.85
>>> found = table_gaps(slice_, rest, 1, "informedness")
>>> round(float(found.gap[0]), 4), round(float(found.value[0]), 4)
(0.25, 0.6)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from informed.inference.delong import _group_components
from informed.measures import (
    bias_weighted_informedness,
    prevalence_weighted_markedness,
)
from informed.ranking import Ranking

__all__ = [
    "AUC_METHOD",
    "PSEUDO_COUNT",
    "TABLE_METHOD",
    "Gaps",
    "critical_value",
    "ranking_gap",
    "table_gaps",
]

Floats = NDArray[np.float64]

PSEUDO_COUNT = 0.5
"""Added to every cell of the slice's and the rest's tables for the interval only."""

TABLE_METHOD = "bonferroni-price-bonett"
AUC_METHOD = "bonferroni-delong"

# square cells x slices differentiated at once, for the multiclass delta method
_BATCH = 1 << 22


@dataclass(frozen=True)
class Gaps:
    """Per slice: its value, the rest's, the gap, the adjusted gap and its variance."""

    value: Floats
    rest: Floats
    gap: Floats
    centre: Floats
    variance: Floats


def critical_value(level: float, hypotheses: int) -> float:
    """z of a two-sided interval at level 1 - (1 - level) / hypotheses (Bonferroni)."""
    from scipy import special

    return float(special.ndtri(1.0 - (1.0 - level) / (2.0 * max(hypotheses, 1))))


def _binary(counts: Floats, index: int, measure: str) -> tuple[Floats, Floats]:
    """The binary measure of tables [S, M, M] (positive `index`) and its variance as a
    sum of the two proportions' binomial variances."""
    if measure == "markedness":  # markedness is informedness of the transposed table
        counts = np.swapaxes(counts, -1, -2)
    total = counts.sum(axis=(-1, -2))
    tp = counts[:, index, index]
    positives = counts[:, :, index].sum(axis=-1)
    fp = counts[:, index, :].sum(axis=-1) - tp
    negatives = total - positives
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = tp / positives
        fpr = fp / negatives
        variance = tpr * (1 - tpr) / positives + fpr * (1 - fpr) / negatives
    return tpr - fpr, variance


def _multiclass(counts: Floats, measure: str) -> Floats:
    if measure == "markedness":
        return np.asarray(prevalence_weighted_markedness(counts), dtype=np.float64)
    return np.asarray(bias_weighted_informedness(counts), dtype=np.float64)


def _delta_variance(counts: Floats, measure: str) -> Floats:
    """Var f = sum_i n_i (df/dn_i)^2 for a multinomial table: the delta method for a
    measure of degree 0 in the counts (sum_i n_i df/dn_i = 0), the gradient by central
    differences, a batch of slices at a time."""
    S, M, _ = counts.shape
    cells = M * M
    out = np.empty(S, dtype=np.float64)
    step = max(1, _BATCH // max(1, cells * cells))
    h = 1e-4
    eye = np.eye(cells).reshape(cells, M, M) * h
    for lo in range(0, S, step):
        part = counts[lo : lo + step]
        up = _multiclass((part[:, None] + eye).reshape(-1, M, M), measure)
        down = _multiclass((part[:, None] - eye).reshape(-1, M, M), measure)
        gradient = ((up - down) / (2 * h)).reshape(-1, M, M)
        out[lo : lo + step] = np.sum(part * gradient * gradient, axis=(-1, -2))
    return out


def _measure(counts: Floats, index: int | None, measure: str) -> tuple[Floats, Floats]:
    if index is not None:
        return _binary(counts, index, measure)
    return _multiclass(counts, measure), _delta_variance(counts, measure)


def table_gaps(
    slices: NDArray[np.int64], rests: NDArray[np.int64], index: int | None, measure: str
) -> Gaps:
    """Gaps of tables [S, M, M] (rows predicted, columns actual) against their rests;
    `index` the positive label's position (None: Powers' multiclass measure)."""
    mine = slices.astype(np.float64)
    theirs = rests.astype(np.float64)
    adjusted_mine, var_mine = _measure(mine + PSEUDO_COUNT, index, measure)
    adjusted_rest, var_rest = _measure(theirs + PSEUDO_COUNT, index, measure)
    value, rest = _value(mine, index, measure), _value(theirs, index, measure)
    return Gaps(value, rest, rest - value, adjusted_rest - adjusted_mine, var_mine + var_rest)


def _value(counts: Floats, index: int | None, measure: str) -> Floats:
    return _binary(counts, index, measure)[0] if index is not None else _multiclass(counts, measure)


def _delong(positives: Floats, negatives: Floats) -> tuple[float, float]:
    """AUC and DeLong's variance of tie groups (descending); nan where not estimable."""
    if not positives.sum() > 1 or not negatives.sum() > 1:
        return math.nan, math.nan
    area, s10, s01, n_pos, n_neg = _group_components(positives, negatives)
    return area, max(s10 / n_pos + s01 / n_neg, 0.0)


def ranking_gap(inside: Ranking, outside: Ranking) -> tuple[float, float, float, float]:
    """(AUC inside, AUC outside, gap outside - inside, variance of the gap), where
    `outside` holds `inside`'s rows and others: the other rows' Ranking is `outside`'s
    tie groups less `inside`'s."""
    scores = np.asarray(outside.scores, dtype=np.float64)
    at = np.searchsorted(-scores, -np.asarray(inside.scores, dtype=np.float64))
    positives = np.asarray(outside.positives, dtype=np.float64).copy()
    negatives = np.asarray(outside.negatives, dtype=np.float64).copy()
    positives[at] -= np.asarray(inside.positives, dtype=np.float64)
    negatives[at] -= np.asarray(inside.negatives, dtype=np.float64)
    keep = (positives > 0) | (negatives > 0)
    own, own_var = _delong(
        np.asarray(inside.positives, dtype=np.float64),
        np.asarray(inside.negatives, dtype=np.float64),
    )
    other, other_var = _delong(positives[keep], negatives[keep])
    return own, other, other - own, own_var + other_var
