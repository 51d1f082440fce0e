"""Measures of a whole table (any K x C, or square L x L): entropies, R_K, kappa.

These are not averages of one-vs-rest views: they read the whole table at once, through
its margins and diagonal (accuracy, R_K, kappa) and its non-zero cells (the entropies),
so a dense array and the `Cells` of a sparse table give the same value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures.binary import kappa, matthews_correlation
from informed.measures.cells import as_cells, cell_sum, gather, margins, one_vs_rest, rests
from informed.measures.counts import clip, ratio
from informed.measures.exact import determinant, power_of_two_scale

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


def _entropy(table: Any, axis: str) -> Floats:
    """H(R|P) (axis "rows": the cells' shares of their rows) or H(P|R) ("columns"):
    sum p(l, c) (-log2 share), a sum of non-negative terms.

    -log2 share is log2 of the share when it is below one half, else
    -log1p(-rest / line) / ln 2 with the rest of the line summed exactly, so that a share
    near 1 (a cell of 1e17 beside a cell of 1) keeps its small logarithm.
    """
    cells = as_cells(table)
    m = margins(cells)
    line = gather(
        m.rows if axis == "rows" else m.cols, cells.rows if axis == "rows" else cells.cols
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        share = cells.values / line
        minus_log = -np.log2(np.where(share > 0, share, 1.0))
        large = (share >= 0.5) & (cells.values > 0)  # at most two cells of a line
        at = np.nonzero(large)
        rest = rests(cells, axis, large)
        minus_log[at] = -np.log1p(-rest / line[at]) / np.log(2.0)
    p = ratio(cells.values, m.total[..., None])
    terms = np.where(cells.values > 0, p * minus_log, 0.0)
    return np.where(m.total > 0, np.abs(cell_sum(cells, terms)), np.nan)


def conditional_entropy(counts: Any) -> Floats:
    """Conditional entropy H(R|P) in bits: what remains unknown about the real class once
    the prediction is known (Powers 2003, "Diverse Definitions of Accuracy").

    H(R|P) = - sum_l pP(l) sum_c pR(c|l) log2 pR(c|l) = - sum p(l, c) log2(p(l, c) / pP(l)).
    Works on any K x C table (K need not equal C). Range [0, log2 C]. Dual: H(P|R).
    Notes: nan for an empty table.

    >>> float(conditional_entropy(np.array([[1, 1], [1, 1]])))
    1.0
    """
    return _entropy(counts, "rows")


def conditional_entropy_given_actual(counts: Any) -> Floats:
    """Conditional entropy H(P|R) in bits: what remains unknown about the prediction once
    the real class is known; PyCM's "Conditional Entropy"
    (H(R|P) is `conditional_entropy`; the two directions differ).

    H(P|R) = - sum p(l, c) log2(p(l, c) / pR(c)). Dual: H(R|P).

    >>> float(conditional_entropy_given_actual(np.array([[2, 0], [0, 2]])))
    0.0
    """
    return _entropy(counts, "columns")


def mutual_information(counts: Any) -> Floats:
    """Mutual information I(P; R) in bits = H(R) - H(R|P).

    I = sum p(l, c) log2(p(l, c) / (pP(l) pR(c))). 0 under independence (pure chance).
    Each ratio is taken as (n / row) / (column / N), so that no product of two small
    proportions underflows.

    >>> float(mutual_information(np.array([[2, 0], [0, 2]])))
    1.0
    """
    cells = as_cells(counts)
    m = margins(cells)
    total = m.total[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        share = cells.values / gather(m.rows, cells.rows)
        lift = share / (gather(m.cols, cells.cols) / total)
        p = ratio(cells.values, total)
        terms = np.where(cells.values > 0, p * np.log2(np.where(cells.values > 0, lift, 1.0)), 0.0)
    value = cell_sum(cells, terms)
    return np.where(m.total > 0, np.abs(value), np.nan)


def accuracy_multiclass(square: Any) -> Floats:
    """Rand accuracy of a square L x L table: trace / N."""
    m = margins(square)
    return ratio(m.diagonal.sum(axis=-1), m.total)


def error_multiclass(square: Any) -> Floats:
    """Error rate of a square table: the cells off the diagonal over N (1 - trace / N,
    summed from the cells themselves so that a tiny error beside a huge trace stays)."""
    m = margins(square)
    return ratio(one_vs_rest(square)[..., 0, 1].sum(axis=-1), m.total)


def _scaled_views(square: Any) -> tuple[Floats, Floats, Floats, Floats]:
    """tp, fp, fn, tn [..., L] of every label's one-vs-rest view, scaled by the power of
    two that brings N into [0.5, 1) (exact): products of them cannot overflow."""
    views = one_vs_rest(square)
    scale = power_of_two_scale(margins(square).total)[..., None]
    return (
        views[..., 0, 0] * scale,
        views[..., 0, 1] * scale,
        views[..., 1, 0] * scale,
        views[..., 1, 1] * scale,
    )


def matthews_correlation_multiclass(square: Any) -> Floats:
    """Gorodkin's R_K: Matthews' correlation for K labels (square table, rows predicted).

    R_K = (N sum_k n_kk - sum_k p_k t_k) / sqrt((N^2 - sum_k p_k^2)(N^2 - sum_k t_k^2)),
    p_k predicted and t_k actual totals. Equals MCC for K = 2. Not the signed geometric
    mean of multiclass informedness and markedness (they differ for K > 2).

    Computed as sum_k det_k / sqrt(sum_k p_k (N - p_k) x sum_k t_k (N - t_k)), with det_k =
    tp tn - fp fn of label k's one-vs-rest view (N n_kk - p_k t_k) and N - p_k, N - t_k
    the view's -P and -R margins: sums of the cells themselves, scaled by a power of two,
    so that no N^2 overflows and no difference of large sums cancels.
    """
    if as_cells(square).shape == (2, 2):  # MCC, without under- or overflow
        return matthews_correlation(one_vs_rest(square)[..., 0, :, :])
    tp, fp, fn, tn = _scaled_views(square)
    numerator = determinant(tp, fp, fn, tn).sum(axis=-1)
    rows = ((tp + fp) * (fn + tn)).sum(axis=-1)
    cols = ((tp + fn) * (fp + tn)).sum(axis=-1)
    product = rows * cols  # one square root (one rounding) unless it underflows
    denominator = np.where(product > 2.0**-1000, np.sqrt(product), np.sqrt(rows) * np.sqrt(cols))
    return clip(ratio(numerator, denominator), -1.0, 1.0)


def kappa_multiclass(square: Any) -> Floats:
    """Cohen's kappa of a square table: (po - pe) / (1 - pe), pe = sum_k pP(k) pR(k).

    Computed as sum_k det_k / sum_k p_k (N - t_k) (the same ratio times N^2), with det_k
    = tp tn - fp fn of label k's one-vs-rest view and N - t_k its -R margin, on cells
    scaled by a power of two: N^2 never overflows, and 1 - pe is a sum of the cells, 0
    only when chance agreement is 1.
    """
    if as_cells(square).shape == (2, 2):  # the 2x2 form, without under- or overflow
        return kappa(one_vs_rest(square)[..., 0, :, :])
    tp, fp, fn, tn = _scaled_views(square)
    numerator = determinant(tp, fp, fn, tn).sum(axis=-1)
    denominator = ((tp + fp) * (fp + tn)).sum(axis=-1)
    return clip(ratio(numerator, denominator), -1.0, 1.0)
