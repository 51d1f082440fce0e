"""The binary measures of Powers: each a function of counts[..., 2, 2], defined once.

Rows are predicted (+P, -P), columns actual (+R, -R): tp = counts[..., 0, 0],
fp = [..., 0, 1], fn = [..., 1, 0], tn = [..., 1, 1]. Leading batch dimensions are kept,
so one call evaluates every label's one-vs-rest view or every bootstrap replicate.
The registry in `informed.measures` lists them with their ranges, duals and sources.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.measures.counts import cells, clip, ratio, weighted_geometric, weighted_harmonic
from informed.measures.exact import determinant, power_of_two_scale

__all__ = [
    "accuracy",
    "average_f_measure",
    "average_g_measure",
    "bias",
    "bias_ratio",
    "correlation",
    "error",
    "f_measure",
    "fallout",
    "g_measure",
    "informedness",
    "inverse_f_measure",
    "inverse_g_measure",
    "inverse_precision",
    "inverse_recall",
    "jaccard",
    "kappa",
    "markedness",
    "matthews_correlation",
    "miss_rate",
    "precision",
    "prevalence",
    "recall",
    "signed_geometric",
]

Floats = NDArray[np.float64]


# ---------------------------------------------------------------------- rates
def recall(counts: Any) -> Floats:
    """Recall: the proportion of real positives predicted positive.

    recall = tp / (tp + fn) = |+P+R| / |+R|. Aliases: sensitivity, true positive rate,
    hit rate. Range [0, 1]. Dual (under transpose): precision.
    Notes: nan when there are no real positives (+R is empty).
    References: Powers (2003), "Recall, Precision and Accuracy".

    >>> float(recall(np.array([[12, 28], [18, 42]])))  # the poster's guessing table
    0.4
    """
    tp, _, fn, _ = cells(counts)
    return ratio(tp, tp + fn)


def inverse_recall(counts: Any) -> Floats:
    """Inverse recall: the proportion of real negatives predicted negative.

    inverse_recall = tn / (fp + tn) = |-P-R| / |-R|. Aliases: specificity, true negative
    rate. Range [0, 1]. Dual: inverse precision.
    Notes: nan when there are no real negatives (-R is empty). Bookmaker poster: 42/70 = 60 %.

    >>> float(inverse_recall(np.array([[12, 28], [18, 42]])))
    0.6
    """
    _, fp, _, tn = cells(counts)
    return ratio(tn, fp + tn)


def precision(counts: Any) -> Floats:
    """Precision: the proportion of positive predictions that are right.

    precision = tp / (tp + fp) = |+P+R| / |+P|. Aliases: positive predictive value,
    confidence. Range [0, 1]. Dual: recall.
    Notes: nan when nothing was predicted positive (+P is empty). Bookmaker poster: 12/40 = 30 %.

    >>> float(precision(np.array([[12, 28], [18, 42]])))
    0.3
    """
    tp, fp, _, _ = cells(counts)
    return ratio(tp, tp + fp)


def inverse_precision(counts: Any) -> Floats:
    """Inverse precision: the proportion of negative predictions that are right.

    inverse_precision = tn / (fn + tn) = |-P-R| / |-P|. Alias: negative predictive value.
    Range [0, 1]. Dual: inverse recall.
    Notes: nan when nothing was predicted negative (-P is empty), as for Powers (2003)'s
    "always noun" tagger. Bookmaker poster: 42/60 = 70 %.

    >>> float(inverse_precision(np.array([[12, 28], [18, 42]])))
    0.7
    """
    _, _, fn, tn = cells(counts)
    return ratio(tn, fn + tn)


def fallout(counts: Any) -> Floats:
    """Fallout: the proportion of real negatives predicted positive.

    fallout = fp / (fp + tn) = 1 - inverse_recall. Alias: false positive rate, type I
    error rate. Range [0, 1].
    Notes: nan when -R is empty. Bookmaker poster: 28/70 = 40 %.

    >>> float(fallout(np.array([[12, 28], [18, 42]])))
    0.4
    """
    _, fp, _, tn = cells(counts)
    return ratio(fp, fp + tn)


def miss_rate(counts: Any) -> Floats:
    """Miss rate: the proportion of real positives predicted negative.

    miss_rate = fn / (tp + fn) = 1 - recall. Alias: false negative rate, type II error
    rate. Range [0, 1].
    Notes: nan when +R is empty.

    >>> float(miss_rate(np.array([[12, 28], [18, 42]])))
    0.6
    """
    tp, _, fn, _ = cells(counts)
    return ratio(fn, tp + fn)


def accuracy(counts: Any) -> Floats:
    """Rand accuracy: the proportion of all cases labelled correctly.

    accuracy = (tp + tn) / N. It equals the prevalence-weighted mean of recall and inverse
    recall and the bias-weighted mean of precision and inverse precision (Powers 2003,
    "Diverse Definitions of Accuracy"). Range [0, 1].
    Notes: nan for an empty table. Bookmaker poster: (12 + 42)/100 = 54 %.

    >>> float(accuracy(np.array([[12, 28], [18, 42]])))
    0.54
    """
    tp, fp, fn, tn = cells(counts)
    return ratio(tp + tn, tp + fp + fn + tn)


def error(counts: Any) -> Floats:
    """Error rate: 1 - accuracy = (fp + fn) / N. Range [0, 1]; nan for an empty table.

    >>> float(error(np.array([[12, 28], [18, 42]])))
    0.46
    """
    tp, fp, fn, tn = cells(counts)
    return ratio(fp + fn, tp + fp + fn + tn)


def jaccard(counts: Any) -> Floats:
    """Jaccard (Tanimoto) index: tp / (N - tn) = tp / (tp + fp + fn).

    Treats positives and negatives asymmetrically: non-occurrence is not of interest
    (Powers 2003). Range [0, 1]. Notes: nan when tp + fp + fn = 0.

    >>> float(jaccard(np.array([[12, 28], [18, 42]])))
    0.20689655172413793
    """
    tp, fp, fn, _ = cells(counts)
    return ratio(tp, tp + fp + fn)


def f_measure(counts: Any, alpha: float = 0.5) -> Floats:
    """F-measure: the weighted harmonic mean of precision and recall.

    F = 1 / (alpha / precision + (1 - alpha) / recall) = tp / (tp + alpha fp + (1 - alpha) fn).
    alpha = 1 / (1 + beta^2) relates it to the F-beta of scikit-learn: alpha = 0.5 is F1
    (van Rijsbergen's convention; Powers (2003) writes the weights the other way round, which
    is the same at the default alpha = 0.5 it uses throughout). The count form is used,
    so F is defined whenever tp + fp + fn > 0 (F = 0 when tp = 0), as in scikit-learn's
    `fbeta_score`. Range [0, 1]. Powers (2003), Figure 1: F(0.5) = 74.67 % for the chance model.

    >>> round(float(f_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.7467
    """
    if not 0.0 <= alpha <= 1.0:
        msg = f"`alpha` must lie in [0, 1]; got {alpha!r}."
        raise InputError(msg)
    tp, fp, fn, _ = cells(counts)
    return ratio(tp, tp + alpha * fp + (1.0 - alpha) * fn)


def inverse_f_measure(counts: Any, alpha: float = 0.5) -> Floats:
    """Inverse F: the F-measure of the negatives, from inverse precision and inverse recall.

    IF = tn / (tn + alpha fn + (1 - alpha) fp). Powers (2003), Figure 1: IF(0.5) = 24.00 % for the
    chance model. Range [0, 1]. Notes: nan when fp + fn + tn = 0.

    >>> round(float(inverse_f_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.24
    """
    tp, fp, fn, tn = cells(counts)
    return f_measure(np.stack([np.stack([tn, fn], -1), np.stack([fp, tp], -1)], -2), alpha)


def _bias_weights(counts: Any) -> tuple[Floats, Floats]:
    tp, fp, fn, tn = cells(counts)
    total = tp + fp + fn + tn
    return ratio(tp + fp, total), ratio(fn + tn, total)


def average_f_measure(counts: Any, alpha: float = 0.5) -> Floats:
    """Average F: the bias-weighted harmonic mean of F and inverse F.

    AvF = 1 / (pP(+) / F + pP(-) / IF), pP(+) = |+P| / N. A term whose weight is zero is
    left out. Powers (2003), Figure 1: AvF(0.5) = 52.50 % for the chance model. Range [0, 1].

    >>> round(float(average_f_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.525
    """
    weights = np.stack(_bias_weights(counts), axis=-1)
    values = np.stack([f_measure(counts, alpha), inverse_f_measure(counts, alpha)], axis=-1)
    return weighted_harmonic(values, weights)


def g_measure(counts: Any) -> Floats:
    """G-measure: the geometric mean of precision and recall, sqrt(precision x recall).

    Not the G-mean sqrt(recall x inverse recall) of imbalanced-learn and PyCM's GM,
    nor scikit-learn's `fowlkes_mallows_score` (a pair-counting index of clusterings).
    Powers (2003), Figure 1: G(0.5) = 74.83 % for the chance model. Range [0, 1].
    Notes: nan when +P or +R is empty.

    >>> round(float(g_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.7483
    """
    return np.sqrt(precision(counts)) * np.sqrt(recall(counts))  # no underflow of the product


def inverse_g_measure(counts: Any) -> Floats:
    """Inverse G: sqrt(inverse_precision x inverse_recall). Powers (2003), Figure 1: 24.49 %.

    >>> round(float(inverse_g_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.2449
    """
    return np.sqrt(inverse_precision(counts)) * np.sqrt(inverse_recall(counts))


def average_g_measure(counts: Any) -> Floats:
    """Average G: the bias-weighted geometric mean of G and inverse G, G^pP(+) x IG^pP(-).

    A term whose weight is zero is left out. Powers (2003), Figure 1: AvG(0.5) = 59.85 % for the
    chance model. Range [0, 1].

    >>> round(float(average_g_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.5985
    """
    weights = np.stack(_bias_weights(counts), axis=-1)
    values = np.stack([g_measure(counts), inverse_g_measure(counts)], axis=-1)
    return weighted_geometric(values, weights)


# ---------------------------------------------------------------------- chance-corrected
def informedness(counts: Any) -> Floats:
    """Bookmaker informedness: how far predictions beat chance about the real class.

    informedness = recall + inverse_recall - 1 = tp/(tp+fn) - fp/(fp+tn) = tpr - fpr.
    It is the expected payoff per unit stake at fair bookmaker odds (Powers 2003, "Bookmaker
    Odds"): the proportion of decisions that are informed rather than guessed. Aliases:
    Bookmaker, Youden's J, Peirce skill score (binary). Range [-1, 1]; 0 under pure
    chance. Dual (under transpose): markedness.
    Notes: nan when there are no real positives or no real negatives.

    >>> float(informedness(np.array([[12, 28], [18, 42]])))  # Powers' poster: pure guessing
    0.0
    >>> round(float(informedness(np.array([[21, 14], [9, 56]]))), 12)  # half informed
    0.5
    """
    c = np.asarray(counts, dtype=np.float64)
    tp, fp, fn, tn = cells(c)
    return clip(_over_margins(tp, fp, fn, tn, "columns", _small_whole(c)), -1.0, 1.0)


def markedness(counts: Any) -> Floats:
    """Markedness: how far the real class beats chance about the prediction.

    markedness = precision + inverse_precision - 1 = tp/(tp+fp) - fn/(fn+tn).
    The dual of informedness under transpose (Powers 2011). Range [-1, 1]; 0 under
    pure chance.
    Notes: nan when +P or -P is empty.

    >>> float(markedness(np.array([[12, 28], [18, 42]])))
    0.0
    """
    c = np.asarray(counts, dtype=np.float64)
    tp, fp, fn, tn = cells(c)
    return clip(_over_margins(tp, fp, fn, tn, "rows", _small_whole(c)), -1.0, 1.0)


def _over_margins(
    tp: Floats, fp: Floats, fn: Floats, tn: Floats, margins: str, exact: bool
) -> Floats:
    """(tp tn - fp fn) / (the product of the two column or row margins): informedness
    (columns, tpr - fpr) or markedness (rows, ppv - for).

    Each column (or row) is first scaled by the power of two that brings its sum into
    [0.5, 1): exact, and it leaves the ratio as it is. No product then overflows (1e200
    counts) or underflows (1e-200 weights, or 1 beside 1e162), and the determinant is
    computed accurately, so the value keeps its relative accuracy near 0. nan exactly
    when a margin is empty. `exact`: the four cells are whole numbers in [0, 2^26)
    (`_small_whole` of the counts they are read from, checked at once).
    """
    if exact:
        # whole cells below 2^26: the products are exact, and a power of two that
        # scales both sides scales the rounded margins' product and the determinant
        # exactly (no underflow or overflow at these sizes), so their ratio is the
        # same, bit for bit, unscaled
        product = (tp + fn) * (fp + tn) if margins == "columns" else (tp + fp) * (fn + tn)
        return ratio(tp * tn - fp * fn, product)
    if margins == "columns":
        first, second = power_of_two_scale(tp + fn), power_of_two_scale(fp + tn)
        tp, fn, fp, tn = tp * first, fn * first, fp * second, tn * second
        product = (tp + fn) * (fp + tn)
    else:
        first, second = power_of_two_scale(tp + fp), power_of_two_scale(fn + tn)
        tp, fp, fn, tn = tp * first, fp * first, fn * second, tn * second
        product = (tp + fp) * (fn + tn)
    # whole counts below 2^26 have at most 26 significant bits, scaled by a power of two
    # too: their products are exact, and so the determinant is p1 - p2 rounded once,
    # what `determinant` gives for them bit for bit, in two passes instead of thirty
    found = tp * tn - fp * fn if exact else determinant(tp, fp, fn, tn)
    return ratio(found, product)


_SMALL = float(2**26)


def _small_whole(*cells: Floats) -> bool:
    """True when every cell is a whole number in [0, 2^26) (bootstrap replicates of
    counts are): their products then carry at most 52 significant bits, exactly."""
    for cell in cells:
        values = np.asarray(cell)
        if not values.size:
            continue
        # the least and the largest by two reductions, no temporaries: nan fails both
        if not (values.min() >= 0 and values.max() < _SMALL):
            return False
        if values.dtype.kind not in "iub" and not np.all(values == np.trunc(values)):
            return False
    return True


def correlation(counts: Any) -> Floats:
    """Correlation: the signed geometric mean of informedness and markedness.

    correlation = sign(B) sqrt(B x M). For a 2x2 table B and M share a sign (both are
    (tp tn - fp fn) over positive margins) and this is Matthews' correlation. For K > 2
    labels the registry applies it to the multiclass B and M (Powers 2011), which differs
    from Matthews' R_K (the two differ for K > 2: no weighting of B and M gives R_K);
    where B and M disagree in sign it is nan.
    Range [-1, 1].

    >>> float(correlation(np.array([[30, 0], [0, 70]])))  # the poster's perfect table
    1.0
    """
    return signed_geometric(informedness(counts), markedness(counts))


def signed_geometric(b: Floats, m: Floats) -> Floats:
    """sign(b + m) sqrt(b m); nan where b and m differ in sign (or either is nan). Where
    b m underflows the square roots are taken apart (1e-200 x 1e-200 is not 0)."""
    b, m = np.asarray(b, dtype=np.float64), np.asarray(m, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        same = np.sign(b) * np.sign(m) >= 0
        product = np.abs(b * m)  # one rounding, unless the product underflows
        apart = np.sqrt(np.abs(b)) * np.sqrt(np.abs(m))
        root = np.where(product > 2.0**-1000, np.sqrt(product), apart)
        value = np.where(same, np.sign(b + m) * root, np.nan)
    return clip(value, -1.0, 1.0)


def matthews_correlation(counts: Any) -> Floats:
    """Matthews' correlation coefficient (phi) of a 2x2 table.

    MCC = (tp tn - fp fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)), computed in float64 (the
    int64 products overflow near n = 1e5, sk#9622) as sign(B) sqrt(B) sqrt(M): MCC^2 = B M
    for a 2x2 table, and informedness B and markedness M are each computed without
    overflow or underflow and accurately near 0 (1e200 counts, 1e-200 weights). For K
    labels the registry uses Gorodkin's R_K (`matthews_correlation_multiclass`).
    Range [-1, 1].
    Notes: nan when any margin is empty (scikit-learn returns 0 there, torchmetrics 1; a
    value would hide that the table says nothing).

    >>> float(matthews_correlation(np.array([[1e18, 1e18], [1e18, 2]])))
    -0.5
    >>> float(matthews_correlation(np.array([[1e200, 1e199], [1e199, 1e200]])))
    0.8181818181818182
    """
    return signed_geometric(informedness(counts), markedness(counts))


def kappa(counts: Any) -> Floats:
    """Cohen's kappa: agreement beyond the agreement expected from the margins.

    kappa = (po - pe) / (1 - pe), po = accuracy, pe = pP(+) pR(+) + pP(-) pR(-).
    Range [-1, 1]; 0 under chance. Notes: nan when pe = 1 (both margins degenerate).

    For a 2x2 table this is 2 (tp tn - fp fn) / (|+P| |-R| + |-P| |+R|) = 2 MCC / (x + 1/x)
    with x = sqrt(|+P| |-R| / (|-P| |+R|)), computed so (from MCC and ratios of margins)
    that N^2 never overflows and 1 - pe never cancels; with an empty margin the
    determinant is 0, and so is kappa unless pe = 1.

    >>> float(kappa(np.array([[12, 28], [18, 42]])))
    0.0
    """
    tp, fp, fn, tn = cells(counts)
    predicted, not_predicted = tp + fp, fn + tn
    real, not_real = tp + fn, fp + tn
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x = (np.sqrt(predicted) / np.sqrt(real)) * (np.sqrt(not_real) / np.sqrt(not_predicted))
        value = 2.0 * matthews_correlation(counts) / (x + 1.0 / x)
    margins = (predicted > 0) & (not_predicted > 0) & (real > 0) & (not_real > 0)
    chance_below_one = ((predicted > 0) & (not_real > 0)) | ((not_predicted > 0) & (real > 0))
    return clip(np.where(margins, value, np.where(chance_below_one, 0.0, np.nan)), -1.0, 1.0)


def bias(counts: Any) -> Floats:
    """Bias of the positive label: pP(+) = |+P| / N, how often it is predicted (Powers 2003,
    "Label Bias"). Dual: prevalence. Notes: nan for an empty table.

    >>> float(bias(np.array([[90, 10], [0, 0]])))  # Powers' (2003) "always noun" tagger
    1.0
    """
    tp, fp, fn, tn = cells(counts)
    return ratio(tp + fp, tp + fp + fn + tn)


def prevalence(counts: Any) -> Floats:
    """Prevalence of the positive class: pR(+) = |+R| / N. Dual: bias.

    >>> float(prevalence(np.array([[90, 10], [0, 0]])))
    0.9
    """
    tp, fp, fn, tn = cells(counts)
    return ratio(tp + fn, tp + fp + fn + tn)


def bias_ratio(counts: Any) -> Floats:
    """Label bias ratio pP(+) / pR(+) = |+P| / |+R|: 1 when predictions match the class
    distribution, as an ideal model's should (Powers 2003, "Label Bias").
    Notes: nan when +R is empty.

    >>> round(float(bias_ratio(np.array([[90, 10], [0, 0]]))), 4)
    1.1111
    """
    tp, fp, fn, _ = cells(counts)
    return ratio(tp + fp, tp + fn)
