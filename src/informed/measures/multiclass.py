"""Measures of a whole table (any K x C, or square L x L): entropies, R_K, kappa.

These are not averages of one-vs-rest views: they read the whole table at once, through
its margins and diagonal (accuracy, R_K, kappa) and its non-zero cells (the entropies),
so a dense array and the `Cells` of a sparse table give the same value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures.cells import Cells, as_cells, cell_sum, gather, margins
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


def _joint(table: Any) -> tuple[Cells, Floats, Floats, Floats, Floats]:
    """The cells, p(l, c) of each cell, pP(l), pR(c) and N of a table (array or Cells)."""
    cells = as_cells(table)
    m = margins(cells)
    total = m.total
    p = ratio(cells.values, total[..., None])
    return cells, p, ratio(m.rows, total[..., None]), ratio(m.cols, total[..., None]), total


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
    cells, p, rows, _, total = _joint(counts)
    value = -cell_sum(cells, _xlogy_ratio(p, gather(rows, cells.rows)))
    return np.where(total > 0, np.abs(value), np.nan)


def conditional_entropy_given_actual(counts: Any) -> Floats:
    """Conditional entropy H(P|R) in bits: what remains unknown about the prediction once
    the real class is known; PyCM's "Conditional Entropy"
    (H(R|P) is `conditional_entropy`; the two directions differ).

    H(P|R) = - sum p(l, c) log2(p(l, c) / pR(c)). Dual: H(R|P).

    >>> float(conditional_entropy_given_actual(np.array([[2, 0], [0, 2]])))
    0.0
    """
    cells, p, _, cols, total = _joint(counts)
    value = -cell_sum(cells, _xlogy_ratio(p, gather(cols, cells.cols)))
    return np.where(total > 0, np.abs(value), np.nan)


def mutual_information(counts: Any) -> Floats:
    """Mutual information I(P; R) in bits = H(R) - H(R|P).

    I = sum p(l, c) log2(p(l, c) / (pP(l) pR(c))). 0 under independence (pure chance).

    >>> float(mutual_information(np.array([[2, 0], [0, 2]])))
    1.0
    """
    cells, p, rows, cols, total = _joint(counts)
    outer = gather(rows, cells.rows) * gather(cols, cells.cols)
    value = cell_sum(cells, _xlogy_ratio(p, outer))
    return np.where(total > 0, np.abs(value), np.nan)


def accuracy_multiclass(square: Any) -> Floats:
    """Rand accuracy of a square L x L table: trace / N."""
    m = margins(square)
    return ratio(m.diagonal.sum(axis=-1), m.total)


def error_multiclass(square: Any) -> Floats:
    """Error rate of a square table: 1 - trace / N."""
    m = margins(square)
    return ratio(m.total - m.diagonal.sum(axis=-1), m.total)


def matthews_correlation_multiclass(square: Any) -> Floats:
    """Gorodkin's R_K: Matthews' correlation for K labels (square table, rows predicted).

    R_K = (N sum_k n_kk - sum_k p_k t_k) / sqrt((N^2 - sum_k p_k^2)(N^2 - sum_k t_k^2)),
    p_k predicted and t_k actual totals. Equals MCC for K = 2. Not the signed geometric
    mean of multiclass informedness and markedness (they differ for K > 2).
    """
    m = margins(square)
    total, p, t = m.total, m.rows, m.cols
    numerator = total * m.diagonal.sum(axis=-1) - (p * t).sum(axis=-1)
    denominator = np.sqrt(total**2 - (p**2).sum(axis=-1)) * np.sqrt(total**2 - (t**2).sum(axis=-1))
    return clip(ratio(numerator, denominator), -1.0, 1.0)


def kappa_multiclass(square: Any) -> Floats:
    """Cohen's kappa of a square table: (po - pe) / (1 - pe), pe = sum_k pP(k) pR(k)."""
    m = margins(square)
    total = m.total
    po = ratio(m.diagonal.sum(axis=-1), total)
    pe = ratio((m.rows * m.cols).sum(axis=-1), total**2)
    with np.errstate(invalid="ignore"):
        return clip(ratio(po - pe, 1.0 - pe), -1.0, 1.0)
