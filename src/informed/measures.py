"""The contingency measures of Powers, each defined once, and their registry.

Every measure is a function of a 2x2 table of counts laid out as the seeds lay it out,
rows predicted (+P, -P) and columns actual (+R, -R)::

    counts[..., 0, 0] = tp    counts[..., 0, 1] = fp
    counts[..., 1, 0] = fn    counts[..., 1, 1] = tn

with any leading batch dimensions, so that the one-vs-rest views of all labels and
thousands of bootstrap replicates are one vectorised call. A measure of a table with
more than two labels is named by how it combines the per-label values (`OVERALL` in the
registry): Powers' multiclass informedness is the bias-weighted average of the per-label
informedness, multiclass markedness the prevalence-weighted average of per-class
markedness (seed 001). Undefined values are NaN; `undefined_reason` names the margin that
vanished.

References
----------
Powers, D. M. W. (2003). Recall and Precision versus the Bookmaker. ICCS 2003 (seeds 000, 001).
Powers, D. M. W. The Bookmaker tests your Edge (poster; seed 003).
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. J. Mach. Learn. Technol. 2(1):37-63.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "MEASURES",
    "Measure",
    "accuracy",
    "average_f_measure",
    "average_g_measure",
    "bias",
    "bias_ratio",
    "cells",
    "conditional_entropy",
    "conditional_entropy_given_actual",
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
    "mutual_information",
    "one_vs_rest_counts",
    "precision",
    "prevalence",
    "ratio",
    "recall",
]

Floats = NDArray[np.float64]


# ---------------------------------------------------------------------- helpers
def ratio(numerator: Any, denominator: Any) -> Floats:
    """numerator / denominator, elementwise; nan where the denominator is zero.

    >>> ratio(np.array([1.0, 1.0]), np.array([2.0, 0.0]))
    array([0.5, nan])
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator != 0, numerator / denominator, np.nan)


def cells(counts: Any) -> tuple[Floats, Floats, Floats, Floats]:
    """(tp, fp, fn, tn) of `counts[..., 2, 2]` as float64: the one place that maps cell
    positions to names (rows predicted +P/-P, columns actual +R/-R)."""
    c = np.asarray(counts, dtype=np.float64)
    if c.shape[-2:] != (2, 2):
        msg = f"a binary measure needs counts[..., 2, 2]; got shape {c.shape}."
        raise ValueError(msg)
    return c[..., 0, 0], c[..., 0, 1], c[..., 1, 0], c[..., 1, 1]


def _clip(values: Floats, low: float, high: float) -> Floats:
    """Clamp excursions at rounding level (hlink#187: -1.0000000000000002); nan stays."""
    return np.clip(values, low, high)


def one_vs_rest_counts(square: Any) -> Floats:
    """The 2x2 one-vs-rest tables of every label of `square[..., L, L]`: shape [..., L, 2, 2].

    For label l: tp = n(l, l), fp = row l minus tp, fn = column l minus tp,
    tn = N - tp - fp - fn.
    """
    s = np.asarray(square, dtype=np.float64)
    tp = np.diagonal(s, axis1=-2, axis2=-1)
    rows = s.sum(axis=-1)
    cols = s.sum(axis=-2)
    total = s.sum(axis=(-2, -1))[..., None]
    fp = rows - tp
    fn = cols - tp
    tn = total - tp - fp - fn
    return np.stack([np.stack([tp, fp], axis=-1), np.stack([fn, tn], axis=-1)], axis=-2)


# ---------------------------------------------------------------------- rates
def recall(counts: Any) -> Floats:
    """Recall: the proportion of real positives predicted positive.

    recall = tp / (tp + fn) = |+P+R| / |+R|. Aliases: sensitivity, true positive rate,
    hit rate. Range [0, 1]. Dual (under transpose): precision.
    Notes: nan when there are no real positives (+R is empty).
    References: Powers (2003), seed 001, "Recall, Precision and Accuracy".

    >>> float(recall(np.array([[12, 28], [18, 42]])))  # the poster's guessing table
    0.4
    """
    tp, _, fn, _ = cells(counts)
    return ratio(tp, tp + fn)


def inverse_recall(counts: Any) -> Floats:
    """Inverse recall: the proportion of real negatives predicted negative.

    inverse_recall = tn / (fp + tn) = |-P-R| / |-R|. Aliases: specificity, true negative
    rate. Range [0, 1]. Dual: inverse precision.
    Notes: nan when there are no real negatives (-R is empty). Seed 003: 42/70 = 60 %.

    >>> float(inverse_recall(np.array([[12, 28], [18, 42]])))
    0.6
    """
    _, fp, _, tn = cells(counts)
    return ratio(tn, fp + tn)


def precision(counts: Any) -> Floats:
    """Precision: the proportion of positive predictions that are right.

    precision = tp / (tp + fp) = |+P+R| / |+P|. Aliases: positive predictive value,
    confidence. Range [0, 1]. Dual: recall.
    Notes: nan when nothing was predicted positive (+P is empty). Seed 003: 12/40 = 30 %.

    >>> float(precision(np.array([[12, 28], [18, 42]])))
    0.3
    """
    tp, fp, _, _ = cells(counts)
    return ratio(tp, tp + fp)


def inverse_precision(counts: Any) -> Floats:
    """Inverse precision: the proportion of negative predictions that are right.

    inverse_precision = tn / (fn + tn) = |-P-R| / |-P|. Alias: negative predictive value.
    Range [0, 1]. Dual: inverse recall.
    Notes: nan when nothing was predicted negative (-P is empty), as for the seed's
    "always noun" tagger. Seed 003: 42/60 = 70 %.

    >>> float(inverse_precision(np.array([[12, 28], [18, 42]])))
    0.7
    """
    _, _, fn, tn = cells(counts)
    return ratio(tn, fn + tn)


def fallout(counts: Any) -> Floats:
    """Fallout: the proportion of real negatives predicted positive.

    fallout = fp / (fp + tn) = 1 - inverse_recall. Alias: false positive rate, type I
    error rate. Range [0, 1].
    Notes: nan when -R is empty. Seed 003: 28/70 = 40 %.

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
    recall and the bias-weighted mean of precision and inverse precision (seed 001,
    "Diverse Definitions of Accuracy"). Range [0, 1].
    Notes: nan for an empty table. Seed 003: (12 + 42)/100 = 54 %.

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
    (seed 001). Range [0, 1]. Notes: nan when tp + fp + fn = 0.

    >>> float(jaccard(np.array([[12, 28], [18, 42]])))
    0.20689655172413793
    """
    tp, fp, fn, _ = cells(counts)
    return ratio(tp, tp + fp + fn)


def f_measure(counts: Any, alpha: float = 0.5) -> Floats:
    """F-measure: the weighted harmonic mean of precision and recall.

    F = 1 / (alpha / precision + (1 - alpha) / recall) = tp / (tp + alpha fp + (1 - alpha) fn).
    alpha = 1 / (1 + beta^2) relates it to the F-beta of scikit-learn: alpha = 0.5 is F1
    (van Rijsbergen's convention; the seed writes the weights the other way round, which
    is the same at the default alpha = 0.5 it uses throughout). The count form is used,
    so F is defined whenever tp + fp + fn > 0 (F = 0 when tp = 0), as in scikit-learn's
    `fbeta_score`. Range [0, 1]. Seed 000/001 Figure 1: F(0.5) = 74.67 % for the chance model.

    >>> round(float(f_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.7467
    """
    if not 0.0 <= alpha <= 1.0:
        msg = f"`alpha` must lie in [0, 1]; got {alpha!r}."
        raise ValueError(msg)
    tp, fp, fn, _ = cells(counts)
    return ratio(tp, tp + alpha * fp + (1.0 - alpha) * fn)


def inverse_f_measure(counts: Any, alpha: float = 0.5) -> Floats:
    """Inverse F: the F-measure of the negatives, from inverse precision and inverse recall.

    IF = tn / (tn + alpha fn + (1 - alpha) fp). Seed Figure 1: IF(0.5) = 24.00 % for the
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


def _weighted_harmonic(values: Floats, weights: Floats, axis: int = -1) -> Floats:
    """sum(w) / sum(w / v) with zero-weight terms left out; 0 if a weighted term is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(weights > 0, weights / values, 0.0)
        total = terms.sum(axis=axis)
        weight = weights.sum(axis=axis)
        return np.where(weight > 0, weight / total, np.nan)


def _weighted_geometric(values: Floats, weights: Floats, axis: int = -1) -> Floats:
    """prod(v ** w) ** (1 / sum(w)) with zero-weight terms left out."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(weights > 0, weights * np.log(np.where(weights > 0, values, 1.0)), 0.0)
        weight = weights.sum(axis=axis)
        return np.where(
            weight > 0, np.exp(logs.sum(axis=axis) / np.where(weight > 0, weight, 1.0)), np.nan
        )


def average_f_measure(counts: Any, alpha: float = 0.5) -> Floats:
    """Average F: the bias-weighted harmonic mean of F and inverse F.

    AvF = 1 / (pP(+) / F + pP(-) / IF), pP(+) = |+P| / N. A term whose weight is zero is
    left out. Seed Figure 1: AvF(0.5) = 52.50 % for the chance model. Range [0, 1].

    >>> round(float(average_f_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.525
    """
    weights = np.stack(_bias_weights(counts), axis=-1)
    values = np.stack([f_measure(counts, alpha), inverse_f_measure(counts, alpha)], axis=-1)
    return _weighted_harmonic(values, weights)


def g_measure(counts: Any) -> Floats:
    """G-measure: the geometric mean of precision and recall, sqrt(precision x recall).

    Not the G-mean sqrt(recall x inverse recall) of imbalanced-learn (PITFALLS P26).
    Seed Figure 1: G(0.5) = 74.83 % for the chance model. Range [0, 1].
    Notes: nan when +P or +R is empty.

    >>> round(float(g_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.7483
    """
    return np.sqrt(precision(counts) * recall(counts))


def inverse_g_measure(counts: Any) -> Floats:
    """Inverse G: sqrt(inverse_precision x inverse_recall). Seed Figure 1: 24.49 %.

    >>> round(float(inverse_g_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.2449
    """
    return np.sqrt(inverse_precision(counts) * inverse_recall(counts))


def average_g_measure(counts: Any) -> Floats:
    """Average G: the bias-weighted geometric mean of G and inverse G, G^pP(+) x IG^pP(-).

    A term whose weight is zero is left out. Seed Figure 1: AvG(0.5) = 59.85 % for the
    chance model. Range [0, 1].

    >>> round(float(average_g_measure(np.array([[56, 24], [14, 6]]))), 4)
    0.5985
    """
    weights = np.stack(_bias_weights(counts), axis=-1)
    values = np.stack([g_measure(counts), inverse_g_measure(counts)], axis=-1)
    return _weighted_geometric(values, weights)


# ---------------------------------------------------------------------- chance-corrected
def informedness(counts: Any) -> Floats:
    """Bookmaker informedness: how far predictions beat chance about the real class.

    informedness = recall + inverse_recall - 1 = tp/(tp+fn) - fp/(fp+tn) = tpr - fpr.
    It is the expected payoff per unit stake at fair bookmaker odds (seed 001, "Bookmaker
    Odds"): the proportion of decisions that are informed rather than guessed. Aliases:
    Bookmaker, Youden's J, Peirce skill score (binary). Range [-1, 1]; 0 under pure
    chance. Dual (under transpose): markedness.
    Notes: nan when there are no real positives or no real negatives.

    >>> float(informedness(np.array([[12, 28], [18, 42]])))  # Powers' poster: pure guessing
    0.0
    >>> round(float(informedness(np.array([[21, 14], [9, 56]]))), 12)  # half informed
    0.5
    """
    tp, fp, fn, tn = cells(counts)
    return _clip(ratio(tp, tp + fn) - ratio(fp, fp + tn), -1.0, 1.0)


def markedness(counts: Any) -> Floats:
    """Markedness: how far the real class beats chance about the prediction.

    markedness = precision + inverse_precision - 1 = tp/(tp+fp) - fn/(fn+tn).
    The dual of informedness under transpose (Powers 2011). Range [-1, 1]; 0 under
    pure chance.
    Notes: nan when +P or -P is empty.

    >>> float(markedness(np.array([[12, 28], [18, 42]])))
    0.0
    """
    tp, fp, fn, tn = cells(counts)
    return _clip(ratio(tp, tp + fp) - ratio(fn, fn + tn), -1.0, 1.0)


def correlation(counts: Any) -> Floats:
    """Correlation: the signed geometric mean of informedness and markedness.

    correlation = sign(B) sqrt(B x M). For a 2x2 table B and M share a sign (both are
    (tp tn - fp fn) over positive margins) and this is Matthews' correlation. For K > 2
    labels the registry applies it to the multiclass B and M (Powers 2011), which differs
    from Matthews' R_K (PITFALLS P10); where they disagree in sign it is nan.
    Range [-1, 1].

    >>> float(correlation(np.array([[30, 0], [0, 70]])))  # the poster's perfect table
    1.0
    """
    return _signed_geometric(informedness(counts), markedness(counts))


def _signed_geometric(b: Floats, m: Floats) -> Floats:
    product = b * m
    with np.errstate(invalid="ignore"):
        value = np.where(product >= 0, np.sign(b + m) * np.sqrt(np.abs(product)), np.nan)
    return _clip(value, -1.0, 1.0)


def matthews_correlation(counts: Any) -> Floats:
    """Matthews' correlation coefficient (phi) of a 2x2 table.

    MCC = (tp tn - fp fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)), computed in float64 (the
    int64 products overflow near n = 1e5, sk#9622). For K labels the registry uses
    Gorodkin's R_K (`matthews_correlation_multiclass`). Range [-1, 1].
    Notes: nan when any margin is empty (scikit-learn returns 0 there, PITFALLS P6).

    >>> float(matthews_correlation(np.array([[1e18, 1e18], [1e18, 2]])))
    -0.5
    """
    tp, fp, fn, tn = cells(counts)
    with np.errstate(over="ignore"):
        denominator = np.sqrt(tp + fp) * np.sqrt(tp + fn) * np.sqrt(tn + fp) * np.sqrt(tn + fn)
    return _clip(ratio(tp * tn - fp * fn, denominator), -1.0, 1.0)


def kappa(counts: Any) -> Floats:
    """Cohen's kappa: agreement beyond the agreement expected from the margins.

    kappa = (po - pe) / (1 - pe), po = accuracy, pe = pP(+) pR(+) + pP(-) pR(-).
    Range [-1, 1]; 0 under chance. Notes: nan when pe = 1 (both margins degenerate).

    >>> float(kappa(np.array([[12, 28], [18, 42]])))
    0.0
    """
    return kappa_multiclass(counts)


def bias(counts: Any) -> Floats:
    """Bias of the positive label: pP(+) = |+P| / N, how often it is predicted (seed 001,
    "Label Bias"). Dual: prevalence. Notes: nan for an empty table.

    >>> float(bias(np.array([[90, 10], [0, 0]])))  # the seed's "always noun" tagger
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
    distribution, as an ideal model's should (seed 001, "Label Bias").
    Notes: nan when +R is empty.

    >>> round(float(bias_ratio(np.array([[90, 10], [0, 0]]))), 4)
    1.1111
    """
    tp, fp, fn, _ = cells(counts)
    return ratio(tp + fp, tp + fn)


# ---------------------------------------------------------------------- whole-table measures
def _joint(square: Any) -> tuple[Floats, Floats, Floats, Floats]:
    s = np.asarray(square, dtype=np.float64)
    total = s.sum(axis=(-2, -1))
    p = ratio(s, total[..., None, None])
    return p, p.sum(axis=-1), p.sum(axis=-2), total


def _xlogy_ratio(p: Floats, q: Floats) -> Floats:
    """p log2(p / q), 0 where p = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0) / np.where(q > 0, q, 1.0)), 0.0)


def conditional_entropy(counts: Any) -> Floats:
    """Conditional entropy H(R|P) in bits: what remains unknown about the real class once
    the prediction is known (seed 001, "Diverse Definitions of Accuracy").

    H(R|P) = - sum_l pP(l) sum_c pR(c|l) log2 pR(c|l) = - sum p(l, c) log2(p(l, c) / pP(l)).
    Works on any K x C table (K need not equal C). Range [0, log2 C]. Dual: H(P|R).
    Notes: nan for an empty table.

    >>> float(conditional_entropy(np.array([[1, 1], [1, 1]])))
    1.0
    """
    p, rows, _, total = _joint(counts)
    value = -_xlogy_ratio(p, np.broadcast_to(rows[..., :, None], p.shape)).sum(axis=(-2, -1))
    return np.where(total > 0, np.abs(value), np.nan)


def conditional_entropy_given_actual(counts: Any) -> Floats:
    """Conditional entropy H(P|R) in bits: what remains unknown about the prediction once
    the real class is known; PyCM's "Conditional Entropy" (PITFALLS P12).

    H(P|R) = - sum p(l, c) log2(p(l, c) / pR(c)). Dual: H(R|P).

    >>> float(conditional_entropy_given_actual(np.array([[2, 0], [0, 2]])))
    0.0
    """
    p, _, cols, total = _joint(counts)
    value = -_xlogy_ratio(p, np.broadcast_to(cols[..., None, :], p.shape)).sum(axis=(-2, -1))
    return np.where(total > 0, np.abs(value), np.nan)


def mutual_information(counts: Any) -> Floats:
    """Mutual information I(P; R) in bits = H(R) - H(R|P).

    I = sum p(l, c) log2(p(l, c) / (pP(l) pR(c))). 0 under independence (pure chance).

    >>> float(mutual_information(np.array([[2, 0], [0, 2]])))
    1.0
    """
    p, rows, cols, total = _joint(counts)
    outer = rows[..., :, None] * cols[..., None, :]
    value = _xlogy_ratio(p, outer).sum(axis=(-2, -1))
    return np.where(total > 0, np.abs(value), np.nan)


def accuracy_multiclass(square: Any) -> Floats:
    """Rand accuracy of a square L x L table: trace / N."""
    s = np.asarray(square, dtype=np.float64)
    return ratio(np.trace(s, axis1=-2, axis2=-1), s.sum(axis=(-2, -1)))


def error_multiclass(square: Any) -> Floats:
    """Error rate of a square table: 1 - trace / N."""
    s = np.asarray(square, dtype=np.float64)
    total = s.sum(axis=(-2, -1))
    return ratio(total - np.trace(s, axis1=-2, axis2=-1), total)


def matthews_correlation_multiclass(square: Any) -> Floats:
    """Gorodkin's R_K: Matthews' correlation for K labels (square table, rows predicted).

    R_K = (N sum_k n_kk - sum_k p_k t_k) / sqrt((N^2 - sum_k p_k^2)(N^2 - sum_k t_k^2)),
    p_k predicted and t_k actual totals. Equals MCC for K = 2. Not the signed geometric
    mean of multiclass informedness and markedness (PITFALLS P10).
    """
    s = np.asarray(square, dtype=np.float64)
    total = s.sum(axis=(-2, -1))
    p = s.sum(axis=-1)
    t = s.sum(axis=-2)
    numerator = total * np.trace(s, axis1=-2, axis2=-1) - (p * t).sum(axis=-1)
    denominator = np.sqrt(total**2 - (p**2).sum(axis=-1)) * np.sqrt(total**2 - (t**2).sum(axis=-1))
    return _clip(ratio(numerator, denominator), -1.0, 1.0)


def kappa_multiclass(square: Any) -> Floats:
    """Cohen's kappa of a square table: (po - pe) / (1 - pe), pe = sum_k pP(k) pR(k)."""
    s = np.asarray(square, dtype=np.float64)
    total = s.sum(axis=(-2, -1))
    po = ratio(np.trace(s, axis1=-2, axis2=-1), total)
    pe = ratio((s.sum(axis=-1) * s.sum(axis=-2)).sum(axis=-1), total**2)
    with np.errstate(invalid="ignore"):
        return _clip(ratio(po - pe, 1.0 - pe), -1.0, 1.0)


# ---------------------------------------------------------------------- averaging
AVERAGES = ("macro", "micro", "prevalence", "bias")


def label_weights(square: Any, how: str) -> Floats:
    """Weights of each label of `square[..., L, L]` for an average: macro 1, prevalence
    pR(l), bias pP(l)."""
    s = np.asarray(square, dtype=np.float64)
    if how == "macro":
        return np.ones(s.shape[:-1], dtype=np.float64)
    if how == "prevalence":
        return ratio(s.sum(axis=-2), s.sum(axis=(-2, -1))[..., None])
    if how == "bias":
        return ratio(s.sum(axis=-1), s.sum(axis=(-2, -1))[..., None])
    msg = f"`average` must be one of {sorted(AVERAGES)}; got {how!r}."
    raise ValueError(msg)


def weighted_mean(values: Floats, weights: Floats, undefined: str = "propagate") -> Floats:
    """sum(w v) / sum(w) over the last axis; labels with zero weight are left out.

    undefined="propagate" gives nan when a weighted value is nan; "omit" leaves such
    labels out (and renormalises the weights).
    """
    if undefined not in ("propagate", "omit"):
        msg = f"`undefined` must be 'propagate' or 'omit'; got {undefined!r}."
        raise ValueError(msg)
    weights = np.where(np.isnan(weights), 0.0, weights)
    active = weights > 0
    if undefined == "omit":
        active = active & ~np.isnan(values)
    w = np.where(active, weights, 0.0)
    v = np.where(active, values, 0.0)
    bad = (active & np.isnan(values)).any(axis=-1) if undefined == "propagate" else False
    mean = ratio((w * v).sum(axis=-1), w.sum(axis=-1))
    return np.where(bad, np.nan, mean)


# ---------------------------------------------------------------------- registry
OverallRule = str | Callable[[Any], Floats]


@dataclass(frozen=True)
class Measure:
    """One registered measure: its definition and what the reports need to know of it.

    Attributes
    ----------
    name : str
        The registry name, used as JSON key and CLI column.
    function : callable
        The binary measure on counts[..., 2, 2].
    overall : str or callable
        How the measure of a table with any number of labels is formed: an average of the
        per-label values ("macro", "prevalence", "bias"), or a function of the square
        counts[..., L, L].
    title : str
        A human heading.
    formula : str
        The definition, as in the docstring.
    aliases : tuple of str
        Other names for the same quantity.
    low, high : float
        The range.
    chance : float or None
        The value under pure chance (independent rows and columns), when it is a constant.
    dual : str or None
        The measure it becomes under transpose (prediction <-> reality).
    symmetric : bool
        Unchanged when prediction and reality are swapped.
    requires : tuple of str
        Margins whose vanishing makes it undefined: "+R", "-R", "+P", "-P", "N", "tp+fp+fn",
        "fp+fn+tn".
    source : str
        The seed or paper that defines it.
    """

    name: str
    function: Callable[..., Floats]
    overall: OverallRule
    title: str
    formula: str
    aliases: tuple[str, ...]
    low: float
    high: float
    chance: float | None
    dual: str | None
    symmetric: bool
    requires: tuple[str, ...]
    source: str
    takes_alpha: bool = False

    def __call__(self, counts: Any, **params: float) -> Floats:
        return self.function(counts, **params)


_MARGIN_REASONS: dict[str, tuple[Callable[[Floats, Floats, Floats, Floats], Floats], str]] = {
    "N": (lambda tp, fp, fn, tn: tp + fp + fn + tn, "no data (N = 0)"),
    "+R": (lambda tp, fp, fn, tn: tp + fn, "no real positives (+R is empty)"),
    "-R": (lambda tp, fp, fn, tn: fp + tn, "no real negatives (-R is empty)"),
    "+P": (lambda tp, fp, fn, tn: tp + fp, "no +P predictions"),
    "-P": (lambda tp, fp, fn, tn: fn + tn, "no -P predictions"),
    "tp+fp+fn": (
        lambda tp, fp, fn, tn: tp + fp + fn,
        "no positive predictions or cases (tp + fp + fn = 0)",
    ),
    "fp+fn+tn": (
        lambda tp, fp, fn, tn: fp + fn + tn,
        "no negative predictions or cases (fp + fn + tn = 0)",
    ),
}


def undefined_reason(measure: Measure, counts: Any) -> str | None:
    """Why `measure` is nan on one 2x2 table, naming the vanished margin; None if defined.

    >>> undefined_reason(MEASURES["inverse_precision"], np.array([[90, 10], [0, 0]]))
    'no -P predictions'
    """
    value = measure(counts)
    if not np.isnan(value).any():
        return None
    tp, fp, fn, tn = cells(counts)
    for key in measure.requires:
        margin, text = _MARGIN_REASONS[key]
        if float(margin(tp, fp, fn, tn)) == 0:
            return text
    if measure.name == "kappa":
        return "chance agreement is 1 (both margins degenerate)"
    if measure.name == "correlation":
        return "informedness and markedness differ in sign"
    return "undefined for this table"


_POWERS = "Powers (2003), Recall and Precision versus the Bookmaker (seeds 000, 001)"
_POSTER = "Powers, The Bookmaker tests your Edge (seed 003)"
_POWERS_2011 = "Powers (2011), Evaluation: from precision, recall and F-measure to ROC, ..."


def _bias_weighted_informedness(square: Any) -> Floats:
    per_label = informedness(one_vs_rest_counts(square))
    return _clip(weighted_mean(per_label, label_weights(square, "bias")), -1.0, 1.0)


def _prevalence_weighted_markedness(square: Any) -> Floats:
    per_label = markedness(one_vs_rest_counts(square))
    return _clip(weighted_mean(per_label, label_weights(square, "prevalence")), -1.0, 1.0)


def _multiclass_correlation(square: Any) -> Floats:
    return _signed_geometric(
        _bias_weighted_informedness(square), _prevalence_weighted_markedness(square)
    )


def _bias_harmonic_f(square: Any, alpha: float = 0.5) -> Floats:
    per_label = f_measure(one_vs_rest_counts(square), alpha)
    return _weighted_harmonic(per_label, label_weights(square, "bias"))


def _bias_geometric_g(square: Any) -> Floats:
    per_label = g_measure(one_vs_rest_counts(square))
    return _weighted_geometric(per_label, label_weights(square, "bias"))


def _per_label_only(square: Any) -> Floats:
    s = np.asarray(square, dtype=np.float64)
    return np.full(s.shape[:-2], np.nan)


def _m(
    function: Callable[..., Floats],
    overall: OverallRule,
    title: str,
    formula: str,
    *,
    aliases: tuple[str, ...] = (),
    low: float = 0.0,
    high: float = 1.0,
    chance: float | None = None,
    dual: str | None = None,
    symmetric: bool = False,
    requires: tuple[str, ...] = ("N",),
    source: str = _POWERS,
    takes_alpha: bool = False,
) -> Measure:
    return Measure(
        name=function.__name__,
        function=function,
        overall=overall,
        title=title,
        formula=formula,
        aliases=aliases,
        low=low,
        high=high,
        chance=chance,
        dual=dual,
        symmetric=symmetric,
        requires=requires,
        source=source,
        takes_alpha=takes_alpha,
    )


_REGISTERED = [
    _m(
        recall,
        "macro",
        "Recall",
        "tp / (tp + fn)",
        aliases=("sensitivity", "true positive rate", "tpr"),
        dual="precision",
        requires=("+R",),
    ),
    _m(
        inverse_recall,
        "macro",
        "Inverse recall",
        "tn / (fp + tn)",
        aliases=("specificity", "true negative rate", "tnr"),
        dual="inverse_precision",
        requires=("-R",),
    ),
    _m(
        precision,
        "macro",
        "Precision",
        "tp / (tp + fp)",
        aliases=("positive predictive value", "ppv", "confidence"),
        dual="recall",
        requires=("+P",),
    ),
    _m(
        inverse_precision,
        "macro",
        "Inverse precision",
        "tn / (fn + tn)",
        aliases=("negative predictive value", "npv"),
        dual="inverse_recall",
        requires=("-P",),
    ),
    _m(
        fallout,
        "macro",
        "Fallout",
        "fp / (fp + tn)",
        aliases=("false positive rate", "fpr"),
        requires=("-R",),
    ),
    _m(
        miss_rate,
        "macro",
        "Miss rate",
        "fn / (tp + fn)",
        aliases=("false negative rate", "fnr"),
        requires=("+R",),
    ),
    _m(
        accuracy,
        accuracy_multiclass,
        "Accuracy (Rand)",
        "(tp + tn) / N; trace / N for K labels",
        aliases=("rand accuracy",),
        dual="accuracy",
        symmetric=True,
    ),
    _m(
        error,
        error_multiclass,
        "Error",
        "(fp + fn) / N = 1 - accuracy",
        aliases=("error rate",),
        dual="error",
        symmetric=True,
    ),
    _m(
        jaccard,
        "macro",
        "Jaccard",
        "tp / (tp + fp + fn)",
        aliases=("tanimoto", "critical success index"),
        dual="jaccard",
        symmetric=True,
        requires=("tp+fp+fn",),
    ),
    _m(
        f_measure,
        "macro",
        "F-measure",
        "1 / (alpha / precision + (1 - alpha) / recall)",
        aliases=("F1", "F-score", "F-factor"),
        dual="f_measure",
        symmetric=True,
        requires=("tp+fp+fn",),
        takes_alpha=True,
    ),
    _m(
        inverse_f_measure,
        "macro",
        "Inverse F",
        "1 / (alpha / inverse_precision + (1 - alpha) / inverse_recall)",
        aliases=("IF",),
        dual="inverse_f_measure",
        symmetric=True,
        requires=("fp+fn+tn",),
        takes_alpha=True,
    ),
    _m(
        average_f_measure,
        _bias_harmonic_f,
        "Average F",
        "1 / (pP(+) / F + pP(-) / IF); for K labels the bias-weighted harmonic mean of F(l)",
        aliases=("AvF",),
        takes_alpha=True,
    ),
    _m(
        g_measure,
        "macro",
        "G-measure",
        "sqrt(precision x recall)",
        aliases=("Fowlkes-Mallows (binary)",),
        dual="g_measure",
        symmetric=True,
        requires=("+P", "+R"),
    ),
    _m(
        inverse_g_measure,
        "macro",
        "Inverse G",
        "sqrt(inverse_precision x inverse_recall)",
        aliases=("IG",),
        dual="inverse_g_measure",
        symmetric=True,
        requires=("-P", "-R"),
    ),
    _m(
        average_g_measure,
        _bias_geometric_g,
        "Average G",
        "G^pP(+) x IG^pP(-); for K labels the bias-weighted geometric mean of G(l)",
        aliases=("AvG",),
        requires=("N", "+R", "-R", "+P", "-P"),
    ),
    _m(
        informedness,
        _bias_weighted_informedness,
        "Informedness",
        "recall + inverse_recall - 1 = tpr - fpr; for K labels sum_l pP(l) B(l)",
        aliases=("bookmaker", "Youden's J", "Peirce skill score", "bm"),
        low=-1.0,
        chance=0.0,
        dual="markedness",
        requires=("+R", "-R"),
        source=_POSTER,
    ),
    _m(
        markedness,
        _prevalence_weighted_markedness,
        "Markedness",
        "precision + inverse_precision - 1; for K labels sum_c pR(c) M(c)",
        aliases=("mk", "deltaP"),
        low=-1.0,
        chance=0.0,
        dual="informedness",
        requires=("+P", "-P"),
        source=_POWERS_2011,
    ),
    _m(
        correlation,
        _multiclass_correlation,
        "Correlation",
        "sign(B) sqrt(B x M)",
        aliases=("Powers correlation",),
        low=-1.0,
        chance=0.0,
        dual="correlation",
        symmetric=True,
        requires=("+R", "-R", "+P", "-P"),
        source=_POWERS_2011,
    ),
    _m(
        matthews_correlation,
        matthews_correlation_multiclass,
        "Matthews correlation",
        "(tp tn - fp fn) / sqrt(|+P| |+R| |-R| |-P|); R_K for K labels",
        aliases=("MCC", "phi", "R_K"),
        low=-1.0,
        chance=0.0,
        dual="matthews_correlation",
        symmetric=True,
        requires=("+R", "-R", "+P", "-P"),
        source="Matthews (1975); Gorodkin (2004)",
    ),
    _m(
        kappa,
        kappa_multiclass,
        "Cohen's kappa",
        "(po - pe) / (1 - pe)",
        aliases=("Cohen's kappa",),
        low=-1.0,
        chance=0.0,
        dual="kappa",
        symmetric=True,
        source="Cohen (1960)",
    ),
    _m(
        conditional_entropy,
        conditional_entropy,
        "Conditional entropy H(R|P)",
        "-sum p(l,c) log2(p(l,c) / pP(l)) bits",
        aliases=("H(R|P)",),
        high=float("inf"),
        dual="conditional_entropy_given_actual",
        source=_POWERS,
    ),
    _m(
        conditional_entropy_given_actual,
        conditional_entropy_given_actual,
        "Conditional entropy H(P|R)",
        "-sum p(l,c) log2(p(l,c) / pR(c)) bits",
        aliases=("H(P|R)",),
        high=float("inf"),
        dual="conditional_entropy",
        source="Cover and Thomas (1991)",
    ),
    _m(
        mutual_information,
        mutual_information,
        "Mutual information",
        "sum p(l,c) log2(p(l,c) / (pP(l) pR(c))) bits",
        aliases=("I(P;R)",),
        high=float("inf"),
        chance=0.0,
        dual="mutual_information",
        symmetric=True,
        source="Cover and Thomas (1991)",
    ),
    _m(
        bias,
        _per_label_only,
        "Bias pP",
        "|+P| / N",
        aliases=("prediction rate",),
        dual="prevalence",
    ),
    _m(
        prevalence,
        _per_label_only,
        "Prevalence pR",
        "|+R| / N",
        aliases=("base rate",),
        dual="bias",
    ),
    _m(
        bias_ratio,
        _per_label_only,
        "Bias / prevalence",
        "|+P| / |+R|",
        high=float("inf"),
        requires=("+R",),
    ),
]

MEASURES: dict[str, Measure] = {m.name: m for m in _REGISTERED}
"""The registry: every measure by name, in report order."""
