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
import warnings

import numpy as np
from numpy.typing import NDArray

from informed._common import readonly
from informed.inference.interval import Interval, normal_cdf, normal_quantile

__all__ = ["jackknife_acceleration", "percentile_band", "replicate_interval", "replicate_intervals"]

Floats = NDArray[np.float64]


def _quantiles(values: Floats, probabilities: Floats) -> Floats:
    """`numpy.quantile(values, probabilities)` of replicates without NaN, in its steps
    (linear interpolation between order statistics, `_lerp`) but from one sort: numpy
    2.4's quantile calls `numpy.unique`, which imports numpy.ma (0.1 s) in a process
    that had no need of it. An infinite replicate (bias_ratio with no +R) may meet
    another one: inf - inf is left as nan."""
    ordered = np.sort(np.asarray(values, dtype=np.float64))
    last = ordered.size - 1
    virtual = last * np.asarray(probabilities, dtype=np.float64)
    previous = np.floor(virtual)
    at = np.minimum(previous, last).astype(np.intp)
    after = np.minimum(previous + 1, last).astype(np.intp)
    with np.errstate(invalid="ignore"):
        return _lerp(ordered[at], ordered[after], virtual - previous)


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
        below = float(np.count_nonzero(defined < estimate))
        tied = float(np.count_nonzero(defined == estimate))
        # ties count one half, so a degenerate distribution (all replicates equal to the
        # estimate) gives z0 = 0 and the interval [estimate, estimate]
        z0 = float(normal_quantile((below + 0.5 * tied) / defined.size))
        z = normal_quantile(tails)
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
        tails = normal_cdf(z0 + (z0 + z) / shrink)
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


def replicate_intervals(
    estimates: Floats,
    replicates: Floats,
    level: float,
    method: str,
    accelerations: Floats | None = None,
) -> list[Interval]:
    """`replicate_interval` of every column of replicates[B, S] at once (estimates[S],
    accelerations[S] for BCa), the same numbers bit for bit: the columns whose
    replicates are all defined and finite are sorted and read together (each its own
    BCa tails, numpy's linear interpolation between order statistics); the others one
    by one."""
    B, S = replicates.shape
    out: list[Interval | None] = [None] * S
    a = np.full(S, math.nan) if accelerations is None else np.asarray(accelerations)
    plain = np.isfinite(replicates).all(axis=0) & (B > 1)
    columns = np.flatnonzero(plain)
    if columns.size:
        rows = np.ascontiguousarray(replicates[:, columns].T)  # [s, B]: each row one slice
        se = np.std(rows, axis=1, ddof=1)
        tails = np.broadcast_to(
            np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0]), (columns.size, 2)
        )
        usable = np.ones(columns.size, dtype=bool)
        if method == "bca":
            estimate = estimates[columns][:, None]
            below = np.count_nonzero(rows < estimate, axis=1).astype(np.float64)
            tied = np.count_nonzero(rows == estimate, axis=1).astype(np.float64)
            z0 = normal_quantile((below + 0.5 * tied) / B)[:, None]
            z = normal_quantile(tails[0])[None, :]
            acceleration = a[columns][:, None]
            with np.errstate(invalid="ignore", divide="ignore"):
                shrink = 1.0 - acceleration * (z0 + z)
                usable = (
                    np.isfinite(z0[:, 0])
                    & np.isfinite(acceleration[:, 0])
                    & (shrink > 0).all(axis=1)
                )
                tails = normal_cdf(z0 + (z0 + z) / shrink)
        rows.sort(axis=1)
        virtual = (B - 1) * np.where(usable[:, None], tails, 0.0)
        previous = np.floor(virtual)
        at = np.minimum(previous, B - 1).astype(np.intp)
        after = np.minimum(previous + 1, B - 1).astype(np.intp)
        gamma = virtual - previous
        first = np.take_along_axis(rows, at, axis=1)
        second = np.take_along_axis(rows, after, axis=1)
        bounds = _lerp(first, second, gamma)
        for k, s in enumerate(columns.tolist()):
            if usable[k]:
                out[s] = Interval(
                    float(estimates[s]),
                    float(bounds[k, 0]),
                    float(bounds[k, 1]),
                    level,
                    method,
                    standard_error=float(se[k]),
                    undefined_replicates=0,
                )
    return [
        found
        if found is not None
        else replicate_interval(float(estimates[s]), replicates[:, s], level, method, float(a[s]))
        for s, found in enumerate(out)
    ]


def _lerp(a: Floats, b: Floats, t: Floats) -> Floats:
    """numpy's linear interpolation between order statistics (`numpy.quantile`'s), in
    the same floating-point steps: a + (b - a) t, or b - (b - a)(1 - t) for t >= 1/2."""
    difference = b - a
    found = a + difference * t
    np.subtract(b, difference * (1 - t), out=found, where=t >= 0.5)
    return found


def percentile_band(values: Floats, level: float) -> tuple[Floats, Floats]:
    """The pointwise percentile band of replicate curves `values[B, points]`, read-only;
    a point undefined (nan) in every replicate stays nan, without numpy's warning.

    >>> low, high = percentile_band(np.array([[0.0, np.nan], [1.0, np.nan]]), 0.5)
    >>> low.tolist(), high.tolist()
    ([0.25, nan], [0.75, nan])
    """
    tails = [(1.0 - level) / 2.0, (1.0 + level) / 2.0]
    if not np.isnan(values).any():  # the same numbers, in one sort rather than per point
        low, high = np.quantile(values, tails, axis=0)
        return readonly(np.asarray(low)), readonly(np.asarray(high))
    with warnings.catch_warnings():  # "All-NaN slice": the point is undefined, nan says so
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanquantile(values, tails, axis=0)
    return readonly(np.asarray(low)), readonly(np.asarray(high))
