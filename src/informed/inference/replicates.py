"""Intervals from bootstrap replicates: percentile and BCa, and the jackknife acceleration.

The table bootstrap (`informed.inference.table_bootstrap`) and the ranking bootstrap
(`informed.inference.ranking_bootstrap`) both read their intervals from here.

References
----------
Efron, B. (1987). Better bootstrap confidence intervals. J. Amer. Statist. Assoc.
82(397):171-185.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from informed.inference.interval import Interval

__all__ = ["jackknife_acceleration", "replicate_interval"]

Floats = NDArray[np.float64]


def _quantiles(values: Floats, probabilities: Floats) -> Floats:
    # linear interpolation between order statistics (numpy's default); an infinite
    # replicate (bias_ratio with no +R) may meet another one: inf - inf is left as nan
    with np.errstate(invalid="ignore"):
        return np.asarray(np.quantile(values, probabilities), dtype=np.float64)


def replicate_interval(
    estimate: float,
    replicates: Floats,
    level: float,
    method: str,
    acceleration: float,
) -> Interval:
    """Percentile or BCa interval from the replicate values (nan replicates left out)."""
    defined = replicates[~np.isnan(replicates)]
    undefined = int(replicates.size - defined.size)
    if defined.size == 0:
        return Interval(
            estimate,
            math.nan,
            math.nan,
            level,
            method,
            reason="undefined in every bootstrap replicate",
            undefined_replicates=undefined,
        )
    finite = defined[np.isfinite(defined)]
    se = float(np.std(finite, ddof=1)) if finite.size > 1 else math.nan
    tails = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    if method == "bca":
        from scipy import special  # loaded when used: a report without intervals skips it

        below = float(np.count_nonzero(defined < estimate))
        tied = float(np.count_nonzero(defined == estimate))
        # ties count one half, so a degenerate distribution (all replicates equal to the
        # estimate) gives z0 = 0 and the interval [estimate, estimate]
        z0 = float(special.ndtri((below + 0.5 * tied) / defined.size))
        z = special.ndtri(tails)
        shrink = 1.0 - acceleration * (z0 + z)
        if not np.isfinite(z0) or not np.isfinite(acceleration) or np.any(shrink <= 0):
            return Interval(
                estimate,
                math.nan,
                math.nan,
                level,
                method,
                standard_error=se,
                reason="BCa undefined: every replicate lies on one side of the estimate "
                "or the acceleration is not finite; use method='percentile'",
                undefined_replicates=undefined,
            )
        tails = special.ndtr(z0 + (z0 + z) / shrink)
    low, high = _quantiles(defined, tails)
    return Interval(
        estimate,
        float(low),
        float(high),
        level,
        method,
        standard_error=se,
        undefined_replicates=undefined,
    )


def jackknife_acceleration(values: Floats, multiplicity: Floats) -> Floats:
    """Efron's (1987) acceleration from jackknife values: a = sum d^3 / (6 (sum d^2)^1.5),
    d = mean - value, each distinct leave-one-case-out value weighted by how many cases
    give it. Undefined jackknife values are left out; no spread gives a = 0.

    values: [M, ...] jackknife values; multiplicity: [M] cases per value.
    """
    shape = (-1,) + (1,) * (values.ndim - 1)
    w = np.where(np.isnan(values), 0.0, multiplicity.reshape(shape))
    v = np.where(np.isnan(values), 0.0, values)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = (w * v).sum(axis=0) / w.sum(axis=0)
        d = np.where(w > 0, mean - v, 0.0)
        second = (w * d**2).sum(axis=0)
        third = (w * d**3).sum(axis=0)
        a = np.where(second > 0, third / (6.0 * second**1.5), 0.0)
    return np.asarray(a, dtype=np.float64)
