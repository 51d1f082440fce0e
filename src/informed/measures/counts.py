"""Arithmetic on counts shared by every measure: safe ratios, cell names, averages.

The one rule for undefined values lives here: a ratio whose denominator is zero is nan
(never a silent 0 or 1), and averages say what they do with nan (`weighted_mean`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

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
        raise ValueError(msg)
    return c[..., 0, 0], c[..., 0, 1], c[..., 1, 0], c[..., 1, 1]


def clip(values: Floats, low: float, high: float) -> Floats:
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


def weighted_harmonic(values: Floats, weights: Floats, axis: int = -1) -> Floats:
    """sum(w) / sum(w / v) with zero-weight terms left out; 0 if a weighted term is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(weights > 0, weights / values, 0.0)
        total = terms.sum(axis=axis)
        weight = weights.sum(axis=axis)
        return np.where(weight > 0, weight / total, np.nan)


def weighted_geometric(values: Floats, weights: Floats, axis: int = -1) -> Floats:
    """prod(v ** w) ** (1 / sum(w)) with zero-weight terms left out."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(weights > 0, weights * np.log(np.where(weights > 0, values, 1.0)), 0.0)
        weight = weights.sum(axis=axis)
        return np.where(
            weight > 0, np.exp(logs.sum(axis=axis) / np.where(weight > 0, weight, 1.0)), np.nan
        )


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
    msg = (
        f"label weights are 'macro', 'prevalence' or 'bias'; got {how!r} "
        "(a micro average pools the cells instead: `informed.average(table, name, 'micro')`)."
    )
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
