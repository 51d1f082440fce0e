"""Arithmetic on counts shared by every measure: safe ratios, cell names, averages.

The one rule for undefined values lives here: a ratio whose denominator is zero is nan
(never a silent 0 or 1), and averages say what they do with nan (`weighted_mean`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.measures.cells import margins, one_vs_rest

__all__ = [
    "AVERAGES",
    "cells",
    "clip",
    "label_weights",
    "one_vs_rest_counts",
    "ratio",
    "weighted_geometric",
    "weighted_harmonic",
    "weighted_mean",
]

Floats = NDArray[np.float64]


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
        raise InputError(msg)
    return c[..., 0, 0], c[..., 0, 1], c[..., 1, 0], c[..., 1, 1]


def clip(values: Floats, low: float, high: float) -> Floats:
    """Clamp excursions at rounding level (hlink#187: -1.0000000000000002); nan stays."""
    return np.clip(values, low, high)


def one_vs_rest_counts(square: Any) -> Floats:
    """The 2x2 one-vs-rest tables of every label of `square[..., L, L]` (an array or
    `Cells`): shape [..., L, 2, 2], read-only.

    For label l: tp = n(l, l), fp = the rest of row l, fn = the rest of column l, tn =
    the cells off row l and column l, each an exact sum rounded once
    (`informed.measures.cells.one_vs_rest`); a sparse table of many labels costs
    O(cells + L).
    """
    return one_vs_rest(square)


def weighted_harmonic(
    values: Floats, weights: Floats, undefined: str = "propagate", axis: int = -1
) -> Floats:
    """sum(w) / sum(w / v) with zero-weight terms left out; 0 if a weighted term is 0.

    A weighted nan value makes the mean nan (undefined="propagate") or is left out
    ("omit"), as in `weighted_mean`.

    >>> weighted_harmonic(np.array([0.5, np.nan]), np.array([1.0, 1.0]), "omit")
    array(0.5)
    """
    w, v, bad = _terms(values, weights, undefined, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, w / np.where(w > 0, v, 1.0), 0.0)
        total = _sum(terms, axis)
        weight = _sum(w, axis)
        mean = np.where(weight > 0, weight / total, np.nan)
    return np.where(bad, np.nan, mean)


def weighted_geometric(
    values: Floats, weights: Floats, undefined: str = "propagate", axis: int = -1
) -> Floats:
    """prod(v ** w) ** (1 / sum(w)) with zero-weight terms left out.

    A weighted nan value makes the mean nan (undefined="propagate") or is left out
    ("omit"), as in `weighted_mean`.

    >>> weighted_geometric(np.array([0.25, np.nan]), np.array([1.0, 1.0]), "omit")
    array(0.25)
    """
    w, v, bad = _terms(values, weights, undefined, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(w > 0, w * np.log(np.where(w > 0, v, 1.0)), 0.0)
        weight = _sum(w, axis)
        mean = np.where(
            weight > 0, np.exp(_sum(logs, axis) / np.where(weight > 0, weight, 1.0)), np.nan
        )
    return np.where(bad, np.nan, mean)


def _sum(terms: Floats, axis: int = -1) -> Floats:
    """The sum over the labels in sorted order: renaming the labels permutes the terms but
    cannot change the bits of an average (near 0, sqrt(B M) magnifies a last-bit change)."""
    return np.asarray(np.sort(terms, axis=axis).sum(axis=axis), dtype=np.float64)


def _terms(values: Any, weights: Any, undefined: str, axis: int = -1) -> tuple[Floats, Floats, Any]:
    """The weights and values that enter an average, and where a nan value spoils it.

    Zero (or nan) weights leave a label out; under "omit" so does a nan value; under
    "propagate" a nan value with positive weight makes the average nan (`bad`).
    """
    if undefined not in ("propagate", "omit"):
        msg = f"`undefined` must be 'propagate' or 'omit'; got {undefined!r}."
        raise InputError(msg)
    values = np.asarray(values, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    weights = np.where(np.isnan(weights), 0.0, weights)
    active = weights > 0
    if undefined == "omit":
        active = active & ~np.isnan(values)
    bad = (active & np.isnan(values)).any(axis=axis) if undefined == "propagate" else False
    return np.where(active, weights, 0.0), np.where(active, values, 0.0), bad


# ---------------------------------------------------------------------- averaging
AVERAGES = ("macro", "micro", "prevalence", "bias")


def label_weights(square: Any, how: str) -> Floats:
    """Weights of each label of `square[..., L, L]` (an array or `Cells`) for an average:
    macro 1, prevalence pR(l), bias pP(l)."""
    m = margins(square)
    if how == "macro":
        return np.ones(m.rows.shape, dtype=np.float64)
    if how == "prevalence":
        return ratio(m.cols, m.total[..., None])
    if how == "bias":
        return ratio(m.rows, m.total[..., None])
    msg = (
        f"label weights are 'macro', 'prevalence' or 'bias'; got {how!r} "
        "(a micro average pools the cells instead: `informed.average(table, name, 'micro')`)."
    )
    raise InputError(msg)


def weighted_mean(values: Floats, weights: Floats, undefined: str = "propagate") -> Floats:
    """sum(w v) / sum(w) over the last axis; labels with zero weight are left out.

    undefined="propagate" gives nan when a weighted value is nan; "omit" leaves such
    labels out (and renormalises the weights).

    >>> weighted_mean(np.array([0.5, np.nan]), np.array([3.0, 1.0]), "omit")
    array(0.5)
    """
    w, v, bad = _terms(values, weights, undefined)
    mean = ratio(_sum(w * v), _sum(w))
    return np.where(bad, np.nan, mean)
