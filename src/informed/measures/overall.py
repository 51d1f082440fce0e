"""How a table with any number of labels gets one value from its per-label values.

Powers (2003) combines the one-vs-rest views of every label: multiclass informedness is
the bias-weighted average of per-label informedness (B = sum_l pP(l) B(l)), multiclass
markedness the prevalence-weighted average of per-class markedness, and correlation
their signed geometric mean. The F and G measures are averaged harmonically and
geometrically with the same bias weights.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures.binary import (
    f_measure,
    g_measure,
    informedness,
    markedness,
    signed_geometric,
)
from informed.measures.counts import (
    clip,
    label_weights,
    one_vs_rest_counts,
    weighted_geometric,
    weighted_harmonic,
    weighted_mean,
)

__all__ = [
    "bias_geometric_g",
    "bias_harmonic_f",
    "bias_weighted_informedness",
    "multiclass_correlation",
    "per_label_only",
    "prevalence_weighted_markedness",
]

Floats = NDArray[np.float64]


def bias_weighted_informedness(square: Any) -> Floats:
    """B = sum_l pP(l) B(l): per-label informedness weighted by how often l is predicted."""
    per_label = informedness(one_vs_rest_counts(square))
    return clip(weighted_mean(per_label, label_weights(square, "bias")), -1.0, 1.0)


def prevalence_weighted_markedness(square: Any) -> Floats:
    """M = sum_l pR(l) M(l): per-class markedness weighted by how often l occurs."""
    per_label = markedness(one_vs_rest_counts(square))
    return clip(weighted_mean(per_label, label_weights(square, "prevalence")), -1.0, 1.0)


def multiclass_correlation(square: Any) -> Floats:
    """sign(B + M) sqrt(B M) of the multiclass B and M above; nan when their signs differ."""
    return signed_geometric(
        bias_weighted_informedness(square), prevalence_weighted_markedness(square)
    )


def bias_harmonic_f(square: Any, alpha: float = 0.5) -> Floats:
    """The bias-weighted harmonic mean of the per-label F measures."""
    per_label = f_measure(one_vs_rest_counts(square), alpha)
    return weighted_harmonic(per_label, label_weights(square, "bias"))


def bias_geometric_g(square: Any) -> Floats:
    """The bias-weighted geometric mean of the per-label G measures."""
    per_label = g_measure(one_vs_rest_counts(square))
    return weighted_geometric(per_label, label_weights(square, "bias"))


def per_label_only(square: Any) -> Floats:
    """nan for the whole table: the measure is defined per label only (bias, prevalence)."""
    s = np.asarray(square, dtype=np.float64)
    return np.full(s.shape[:-2], np.nan)
