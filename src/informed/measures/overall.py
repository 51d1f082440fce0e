"""How a table with any number of labels gets one value from its labels' values.

Powers (2003) combines the one-vs-rest views of every label: multiclass informedness is
the bias-weighted average of per-label informedness (B = sum_l pP(l) B(l)), multiclass
markedness the prevalence-weighted average of per-class markedness, and correlation
their signed geometric mean. The F and G measures are averaged harmonically and
geometrically with the same bias weights.

The registry records these rules as data, so that every entry point computes them the
same way and a report can say why one is undefined: an `Average` names the per-label
measure, the weights and the kind of mean; a `SignedGeometric` names the two averages it
combines. Every average takes ``undefined``: a label whose value is nan makes the average
nan ("propagate") or is left out ("omit").

>>> square = [[50, 10, 0], [20, 60, 0], [1, 1, 0]]  # rows predicted; 'c' never occurs
>>> float(bias_weighted_informedness(square))
nan
>>> round(float(bias_weighted_informedness(square, undefined="omit")), 4)
0.5634
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from informed.measures.binary import (
    f_measure,
    g_measure,
    informedness,
    markedness,
    signed_geometric,
)
from informed.measures.cells import as_cells, whole_counts
from informed.measures.counts import (
    clip,
    label_weights,
    one_vs_rest_counts,
    weighted_geometric,
    weighted_harmonic,
    weighted_mean,
)

__all__ = [
    "BIAS_GEOMETRIC_G",
    "BIAS_HARMONIC_F",
    "BIAS_WEIGHTED_INFORMEDNESS",
    "MEANS",
    "MULTICLASS_CORRELATION",
    "PREVALENCE_WEIGHTED_MARKEDNESS",
    "Average",
    "SignedGeometric",
    "bias_geometric_g",
    "bias_harmonic_f",
    "bias_weighted_informedness",
    "exact_average",
    "exact_signed_geometric",
    "multiclass_correlation",
    "per_label_only",
    "prevalence_weighted_markedness",
]

Floats = NDArray[np.float64]

MEANS: Final[dict[str, Callable[[Floats, Floats, str], Floats]]] = {
    "arithmetic": weighted_mean,
    "harmonic": weighted_harmonic,
    "geometric": weighted_geometric,
}
"""The kinds of weighted mean an `Average` may take, each with the `undefined` policy."""


@dataclass(frozen=True)
class Average:
    """An overall value that is a weighted mean of a binary measure over the labels.

    Attributes
    ----------
    function : callable
        The binary measure on counts[..., 2, 2] whose per-label (one-vs-rest) values are
        averaged; its ``__name__`` is its registry name.
    weights : {"macro", "prevalence", "bias"}
        1 for every label, pR(l) (how often l occurs) or pP(l) (how often l is predicted);
        a label of zero weight is left out (`informed.measures.label_weights`).
    mean : {"arithmetic", "harmonic", "geometric"}
    bounds : (float, float) or None
        The range the average is clamped to (rounding excursions only).
    """

    function: Callable[..., Floats]
    weights: str
    mean: str = "arithmetic"
    bounds: tuple[float, float] | None = None

    @property
    def of(self) -> str:
        """The registry name of the averaged per-label measure."""
        return self.function.__name__

    def combine(self, values: Any, square: Any, undefined: str = "propagate") -> Floats:
        """The average of per-label `values[..., L]` of the square tables `square[..., L, L]`."""
        mean = MEANS[self.mean](
            np.asarray(values, dtype=np.float64), label_weights(square, self.weights), undefined
        )
        return clip(mean, *self.bounds) if self.bounds is not None else mean

    def rounding(self, values: Any, square: Any, undefined: str = "propagate") -> Floats:
        """A bound on the rounding error of `combine` (arithmetic means): (2L + 16) units
        of 2^-52 of the mean of |values|. Labels' values of both signs cancel in the
        sum, so an average within this bound of 0 has no known sign."""
        v = np.abs(np.asarray(values, dtype=np.float64))
        size = v.shape[-1]
        mean = MEANS["arithmetic"](v, label_weights(square, self.weights), undefined)
        return np.asarray((2 * size + 16) * 2.0**-52 * mean, dtype=np.float64)

    def __call__(self, square: Any, undefined: str = "propagate", **params: float) -> Floats:
        """The average over the labels of `square[..., L, L]`, from the table itself."""
        with np.errstate(divide="ignore", invalid="ignore"):
            values = self.function(one_vs_rest_counts(square), **params)
            return self.combine(values, square, undefined)


@dataclass(frozen=True)
class SignedGeometric:
    """sign(a + b) sqrt(a b) of two averages a and b; nan when either is nan or their
    signs differ (Powers' correlation of informedness and markedness)."""

    first: Average
    second: Average

    def combine(self, first: Any, second: Any) -> Floats:
        """The signed geometric mean of the two averages' values."""
        return signed_geometric(np.asarray(first), np.asarray(second))

    def of_values(
        self, first: Any, second: Any, square: Any, undefined: str = "propagate"
    ) -> Floats:
        """The signed geometric mean of the averages of per-label `first[..., L]` and
        `second[..., L]`; nan where an average is within its rounding error of 0
        (`Average.rounding`; 0 when every label's value is 0), as the sign of the product
        is then not known."""
        a = self.first.combine(first, square, undefined)
        b = self.second.combine(second, square, undefined)
        bound_a = self.first.rounding(first, square, undefined)
        bound_b = self.second.rounding(second, square, undefined)
        unknown = (np.abs(a) <= bound_a) & (bound_a > 0)
        unknown |= (np.abs(b) <= bound_b) & (bound_b > 0)
        value = np.where(unknown, np.nan, self.combine(a, b))
        if unknown.any() and whole_counts(square):  # whole counts: settled exactly
            shape = value.shape
            views = one_vs_rest_counts(square)
            views = views.reshape(-1, *views.shape[-3:])
            flat = value.reshape(-1)
            for i in np.flatnonzero(np.broadcast_to(unknown, shape)):
                exact = [
                    exact_average(rule, views[i], undefined) for rule in (self.first, self.second)
                ]
                flat[i] = exact_signed_geometric(*exact)
            value = flat.reshape(shape)
        return value

    def __call__(self, square: Any, undefined: str = "propagate") -> Floats:
        """The signed geometric mean of the two averages of `square[..., L, L]`."""
        with np.errstate(divide="ignore", invalid="ignore"):
            ovr = one_vs_rest_counts(square)
            first = self.first.function(ovr)
            second = self.second.function(ovr)
        return self.of_values(first, second, square, undefined)


# the registry's rules for informedness, markedness, correlation, average F and average G
BIAS_WEIGHTED_INFORMEDNESS = Average(informedness, "bias", bounds=(-1.0, 1.0))
PREVALENCE_WEIGHTED_MARKEDNESS = Average(markedness, "prevalence", bounds=(-1.0, 1.0))
MULTICLASS_CORRELATION = SignedGeometric(BIAS_WEIGHTED_INFORMEDNESS, PREVALENCE_WEIGHTED_MARKEDNESS)
BIAS_HARMONIC_F = Average(f_measure, "bias", "harmonic")
BIAS_GEOMETRIC_G = Average(g_measure, "bias", "geometric")


def bias_weighted_informedness(square: Any, undefined: str = "propagate") -> Floats:
    """B = sum_l pP(l) B(l): per-label informedness weighted by how often l is predicted."""
    return BIAS_WEIGHTED_INFORMEDNESS(square, undefined)


def prevalence_weighted_markedness(square: Any, undefined: str = "propagate") -> Floats:
    """M = sum_l pR(l) M(l): per-class markedness weighted by how often l occurs."""
    return PREVALENCE_WEIGHTED_MARKEDNESS(square, undefined)


def multiclass_correlation(square: Any, undefined: str = "propagate") -> Floats:
    """sign(B + M) sqrt(B M) of the multiclass B and M above; nan when their signs differ."""
    return MULTICLASS_CORRELATION(square, undefined)


def bias_harmonic_f(square: Any, alpha: float = 0.5, undefined: str = "propagate") -> Floats:
    """The bias-weighted harmonic mean of the per-label F measures."""
    return BIAS_HARMONIC_F(square, undefined, alpha=alpha)


def bias_geometric_g(square: Any, undefined: str = "propagate") -> Floats:
    """The bias-weighted geometric mean of the per-label G measures."""
    return BIAS_GEOMETRIC_G(square, undefined)


def per_label_only(square: Any) -> Floats:
    """nan for the whole table: the measure is defined per label only (bias, prevalence)."""
    return np.full(as_cells(square).batch, np.nan)


def exact_average(rule: Average, views: Any, undefined: str = "propagate") -> Fraction | None:
    """The exact `rule` average of informedness or markedness over the one-vs-rest views
    [L, 2, 2] of whole counts (each label's det over its margin product); None where it
    is undefined. Used where the float average is within its rounding error of 0."""
    if rule.mean != "arithmetic" or rule.of not in ("informedness", "markedness"):
        msg = f"no exact form of the {rule.mean} average of {rule.of}."
        raise ValueError(msg)
    terms = []
    for view in np.asarray(views).reshape(-1, 4).tolist():
        tp, fp, fn, tn = (Fraction(int(x)) for x in view)
        columns, rows = (tp + fn) * (fp + tn), (tp + fp) * (fn + tn)
        margin = columns if rule.of == "informedness" else rows
        weight = {"macro": Fraction(1), "prevalence": tp + fn, "bias": tp + fp}[rule.weights]
        if weight == 0:
            continue
        if margin == 0:
            if undefined == "omit":
                continue
            return None
        terms.append((weight, (tp * tn - fp * fn) / margin))
    if not terms:
        return None
    return sum((w * v for w, v in terms), Fraction(0)) / sum((w for w, _ in terms), Fraction(0))


def exact_signed_geometric(a: Fraction | None, b: Fraction | None) -> float:
    """sign(a + b) sqrt(a b) of two exact values; nan when either is None or their signs
    differ."""
    if a is None or b is None or a * b < 0:
        return math.nan
    root = math.sqrt(float(abs(a))) * math.sqrt(float(abs(b)))
    return root if a + b > 0 else -root if a + b < 0 else 0.0
