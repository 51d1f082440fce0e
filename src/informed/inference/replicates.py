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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import readonly
from informed.inference.interval import Interval, normal_cdf, normal_quantile

__all__ = ["jackknife_acceleration", "percentile_band", "replicate_interval", "replicate_intervals"]

Floats = NDArray[np.float64]


def _quantiles(ordered: Floats, counts: Any, probabilities: Any) -> Floats:
    """`numpy.quantile` (linear interpolation between order statistics) of each row of
    `ordered` (sorted along its last axis, its `counts` defined values first, NaN after),
    at `probabilities` ([k], or one row of them per row of `ordered`), from one sort: numpy
    2.4's quantile calls `numpy.unique`, which imports numpy.ma (0.1 s) in a process that
    had no need of it. Finite order statistics give numpy's numbers bit for bit; infinite
    ones are read by `_between`. A row of no defined value gives NaN."""
    counts = np.asarray(counts)
    last = counts - 1
    virtual = last[..., None] * np.asarray(probabilities, dtype=np.float64)
    previous = np.floor(virtual)
    top = np.maximum(last, 0)[..., None]
    at = np.clip(previous, 0, top).astype(np.intp)
    after = np.clip(previous + 1, 0, top).astype(np.intp)
    found = _between(
        np.take_along_axis(ordered, at, axis=-1),
        np.take_along_axis(ordered, after, axis=-1),
        virtual - previous,
    )
    return np.where(counts[..., None] > 0, found, math.nan)


def _between(a: Floats, b: Floats, t: Floats) -> Floats:
    """The value a fraction t of the way from the order statistic a up to the next one, b:
    numpy's linear interpolation (`_lerp`) between finite ones; a where t = 0 or a = b
    (so inf at inf, inf); the infinite one where one is infinite (the limit of the
    interpolation: finite to inf gives inf, -inf to finite -inf); NaN from -inf to inf,
    where every value lies between. numpy leaves inf - inf and 0 inf as NaN instead."""
    with np.errstate(invalid="ignore"):
        found = _lerp(a, b, t)
    infinite = ~(np.isfinite(a) & np.isfinite(b))
    if not infinite.any():
        return found
    limit = np.where(np.isneginf(a) & np.isposinf(b), math.nan, np.where(np.isneginf(a), a, b))
    return np.where(infinite, np.where((t == 0) | (a == b), a, limit), found)


def _infinite_reason(low: float, high: float, infinite: int, total: int, cause: str) -> str:
    """Why an interval read from replicates of which `infinite` (of `total`) are +-inf
    has an infinite end, or an undefined one, or why it has no standard error.

    >>> _infinite_reason(0.5, math.inf, 3, 200, "")
    'unbounded: the upper end is infinite because 3 of 200 replicates are infinite'
    >>> _infinite_reason(0.5, 0.75, 3, 200, "")
    '3 of 200 replicates are infinite: no standard error'
    """
    share = f"{infinite:,} of {total:,} replicates {cause or 'are infinite'}"
    if math.isnan(low) or math.isnan(high):
        return f"an end falls between replicates at -inf and inf ({share})"
    ends = [name for name, end in (("lower", low), ("upper", high)) if math.isinf(end)]
    if not ends:
        return f"{share}: no standard error"
    which = "both ends are" if len(ends) == 2 else f"the {ends[0]} end is"
    return f"unbounded: {which} infinite because {share}"


def replicate_interval(
    estimate: float,
    replicates: Floats,
    level: float,
    method: str,
    acceleration: float,
    infinite: str = "",
) -> Interval:
    """Percentile or BCa interval from the replicate values (nan replicates left out).

    The ends are read from the ordered replicates as `numpy.quantile` reads them (linear
    interpolation between order statistics), the same numbers where those are finite; an
    end that falls among infinite replicates is infinite, a true value: the measure is
    infinite in that share of the resamples (`_between`). With any infinite replicate the
    standard error is NaN (the replicates' spread is infinite; one of the finite ones
    alone would understate it), and the reason says how many replicates are infinite:
    "N of B replicates are infinite", or "N of B replicates `infinite`" where the caller
    knows why ("drew a case given probability 0 of its outcome").
    """
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
    unbounded = int(np.count_nonzero(np.isinf(defined)))
    se = float(np.std(defined, ddof=1)) if defined.size > 1 and not unbounded else math.nan
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
    low, high = (float(end) for end in _quantiles(np.sort(defined), defined.size, tails))
    reason = None
    if unbounded:
        reason = _infinite_reason(low, high, unbounded, replicates.size, infinite)
    return Interval(
        estimate,
        low,
        high,
        level,
        method,
        standard_error=se,
        reason=reason,
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
        bounds = _quantiles(rows, np.full(columns.size, B), np.where(usable[:, None], tails, 0.0))
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
    """The pointwise percentile band of replicate curves `values[B, points]`, read-only,
    each point's ends read from its defined replicates as `replicate_interval` reads them
    (`numpy.nanquantile`'s numbers where they are finite; an end among infinite replicates
    infinite); a point undefined (nan) in every replicate stays nan.

    >>> low, high = percentile_band(np.array([[0.0, np.nan], [1.0, np.nan]]), 0.5)
    >>> low.tolist(), high.tolist()
    ([0.25, nan], [0.75, nan])
    """
    tails = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    points = np.asarray(values, dtype=np.float64).T  # [points, B]: each row one point
    counts = np.count_nonzero(~np.isnan(points), axis=1)
    bounds = _quantiles(np.sort(points, axis=1), counts, tails)
    return readonly(np.ascontiguousarray(bounds[:, 0])), readonly(
        np.ascontiguousarray(bounds[:, 1])
    )
