"""Measures of a whole table (any K x C, or square L x L): entropies, R_K, kappa.

These are not averages of one-vs-rest views: they read the whole table at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures.counts import clip, ratio

__all__ = [
    "accuracy_multiclass",
    "conditional_entropy",
    "conditional_entropy_given_actual",
    "error_multiclass",
    "kappa_multiclass",
    "matthews_correlation_multiclass",
    "mutual_information",
]

Floats = NDArray[np.float64]


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
    the prediction is known (Powers 2003, "Diverse Definitions of Accuracy").

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
    the real class is known; PyCM's "Conditional Entropy"
    (H(R|P) is `conditional_entropy`; the two directions differ).

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
    mean of multiclass informedness and markedness (they differ for K > 2).
    """
    s = np.asarray(square, dtype=np.float64)
    total = s.sum(axis=(-2, -1))
    p = s.sum(axis=-1)
    t = s.sum(axis=-2)
    numerator = total * np.trace(s, axis1=-2, axis2=-1) - (p * t).sum(axis=-1)
    denominator = np.sqrt(total**2 - (p**2).sum(axis=-1)) * np.sqrt(total**2 - (t**2).sum(axis=-1))
    return clip(ratio(numerator, denominator), -1.0, 1.0)


def kappa_multiclass(square: Any) -> Floats:
    """Cohen's kappa of a square table: (po - pe) / (1 - pe), pe = sum_k pP(k) pR(k)."""
    s = np.asarray(square, dtype=np.float64)
    total = s.sum(axis=(-2, -1))
    po = ratio(np.trace(s, axis1=-2, axis2=-1), total)
    pe = ratio((s.sum(axis=-1) * s.sum(axis=-2)).sum(axis=-1), total**2)
    with np.errstate(invalid="ignore"):
        return clip(ratio(po - pe, 1.0 - pe), -1.0, 1.0)
