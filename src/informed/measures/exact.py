"""Exact sums of float64 values, vectorised, and an accurate 2x2 determinant.

A float64 value is an integer times a power of two, so a sum of them is exact when it is
held as integers: `limb_sums` splits each value into 26-bit limbs on one grid of powers
of two (a superaccumulator) and adds the limbs with `numpy.bincount`, exactly (a limb sum
stays below 2^53 for up to 2^27 values). Limb sums combine exactly by integer addition
and subtraction, so a one-vs-rest cell such as tn = N - row - column + tp is exact, not
the difference of large rounded sums (1e17 + 1 - 1e17 is 1, not 0); `to_float` rounds the
result once, to the nearest float64.

`determinant` gives tp tn - fp fn of counts scaled by a power of two (no overflow, no
rounding from the scaling) with the rounding error of each product recovered (Dekker's
two-product), so a near-zero determinant keeps its relative accuracy.

>>> values = np.array([1e17, 1.0, 1.0])
>>> on = grid(values)
>>> rows = limb_sums(values, np.array([0, 0, 1]), 2, on)
>>> to_float(rows.limbs, on.base).tolist()  # [1e17 + 1, 1]: 1e17 + 1 rounds to 1e17
[1e+17, 1.0]
>>> first = limb_sums(values[:1], np.array([0]), 1, on)
>>> float(to_float(rows.limbs[0] - first.limbs[0], on.base))  # (1e17 + 1) - 1e17, exactly
1.0
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["Grid", "LimbSums", "determinant", "grid", "limb_sums", "power_of_two_scale", "to_float"]

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

WIDTH = 26
"""Bits per limb: a limb is below 2^26, so 2^27 of them sum exactly in a float64."""
MASK = (1 << WIDTH) - 1
MOST_VALUES = 1 << 27
"""The most values one exact sum takes at once (each limb sum stays below 2^53)."""


class LimbSums(NamedTuple):
    """Exact sums: value[..., g] = sum_k limbs[..., g, k] * 2^(base + WIDTH k)."""

    limbs: Ints
    base: int


def _split(values: Floats) -> tuple[Ints, Ints, int, int]:
    """Each value as mantissa M (|M| < 2^53, signed) times 2^e; the smallest and largest e."""
    fraction, exponent = np.frexp(values)
    mantissa = np.ldexp(fraction, 53).astype(np.int64)
    exponent = exponent.astype(np.int64) - 53
    nonzero = mantissa != 0
    if not nonzero.any():
        return mantissa, exponent, 0, 0
    return mantissa, exponent, int(exponent[nonzero].min()), int(exponent[nonzero].max())


class Grid(NamedTuple):
    """Where the limbs of a set of values lie: limb k weighs 2^(base + WIDTH k)."""

    base: int
    size: int


def grid(values: Any) -> Grid:
    """The limb grid of `values`: from their smallest to their largest power of two, with
    room for the carries of up to 2^27 of them."""
    _, _, low, high = _split(np.asarray(values, dtype=np.float64))
    base = low - low % WIDTH  # a multiple of WIDTH, so that grids line up
    return Grid(base, (high - base) // WIDTH + 4)


def limb_sums(values: Any, index: Any, size: int, on: Grid | None = None) -> LimbSums:
    """Exact sums of values[..., n] grouped by index[n] into `size` groups, as limbs.

    Any leading (batch) axes of `values` are kept: limbs[..., size, k]. Sums made on one
    `Grid` (by default the values' own) combine limb by limb.
    """
    v = np.asarray(values, dtype=np.float64)
    index = np.asarray(index, dtype=np.intp)
    on = grid(v) if on is None else on
    batch = v.shape[:-1]
    count = int(np.prod(batch, dtype=np.int64)) if batch else 1
    if v.shape[-1] > MOST_VALUES:
        msg = f"an exact sum takes at most {MOST_VALUES:,} values at once; got {v.shape[-1]:,}."
        raise ValueError(msg)
    mantissa, exponent, _, _ = _split(v)
    used = mantissa != 0
    offset = exponent - on.base
    shift = np.where(used, offset % WIDTH, 0)
    first = np.where(used, offset // WIDTH, 0).reshape(count, -1)
    sign = np.sign(mantissa)
    magnitude = np.abs(mantissa)
    keep = WIDTH - shift  # bits of the mantissa that land in the first limb
    parts = (
        (magnitude & ((np.int64(1) << keep) - 1)) << shift,
        (magnitude >> keep) & MASK,
        (magnitude >> (keep + WIDTH)) & MASK,
    )
    groups = (np.arange(count, dtype=np.int64) * size)[:, None] + index[None, :]
    out = np.zeros(count * size * on.size, dtype=np.float64)
    for j, part in enumerate(parts):
        slot = (groups * on.size + first + j).reshape(-1)
        weights = (sign * part).reshape(-1).astype(np.float64)
        out += np.bincount(slot, weights=weights, minlength=out.size)
    return LimbSums(out.astype(np.int64).reshape(*batch, size, on.size), on.base)


def to_float(limbs: Any, base: int) -> Floats:
    """sum_k limbs[..., k] 2^(base + WIDTH k), rounded once to the nearest float64."""
    d = np.array(limbs, dtype=np.int64)  # a copy: the carries are propagated in place
    d = np.concatenate([d, np.zeros((*d.shape[:-1], 2), dtype=np.int64)], axis=-1)
    _normalise(d)  # every limb but the top one in [0, 2^26); the top one holds the sign
    negative = d[..., -1] < 0
    if negative.any():
        flipped = -d[negative]
        _normalise(flipped)
        d[negative] = flipped
    n = d.shape[-1]
    nonzero = d != 0
    top = n - 1 - np.argmax(nonzero[..., ::-1], axis=-1)
    # the four top limbs hold at least 79 bits; any lower non-zero limb is a sticky bit
    # below the rounding position, so the one rounding below is to nearest
    pick = top[..., None] - np.arange(4)
    got = np.take_along_axis(d, np.clip(pick, 0, n - 1), axis=-1)
    got = np.where(pick >= 0, got, 0)
    sticky = (nonzero & (np.arange(n) < (top - 3)[..., None])).any(axis=-1)
    high = got[..., 0] * 2.0**WIDTH + got[..., 1]  # exact: below 2^52
    low = got[..., 2] * 2.0**WIDTH + (got[..., 3] | sticky)
    value = np.ldexp(high * 2.0 ** (2 * WIDTH) + low, base + WIDTH * (top - 3))
    value = np.where(nonzero.any(axis=-1), value, 0.0)
    return np.asarray(np.where(negative, -value, value), dtype=np.float64)


def _normalise(d: Ints) -> None:
    """Carry in place until every limb but the last lies in [0, 2^26) (floor division,
    so the sign gathers in the last limb); a few passes over all limbs at once."""
    while True:
        carry = d[..., :-1] >> WIDTH
        if not carry.any():
            return
        d[..., :-1] -= carry << WIDTH
        d[..., 1:] += carry


def power_of_two_scale(total: Any) -> Floats:
    """2^-e with 2^(e-1) <= total < 2^e: multiplying by it is exact (barring underflow) and
    brings a table of this total to a total in [0.5, 1), so products cannot overflow."""
    t = np.asarray(total, dtype=np.float64)
    _, exponent = np.frexp(np.where(np.isfinite(t) & (t > 0), t, 1.0))
    return np.asarray(np.ldexp(1.0, -exponent), dtype=np.float64)


def _two_product(a: Floats, b: Floats) -> tuple[Floats, Floats]:
    """a b = p + e exactly (Dekker 1971), for |a|, |b| <= 1 (no overflow in the split)."""
    p = a * b
    a_hi, a_lo = _halves(a)
    b_hi, b_lo = _halves(b)
    e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    return p, e


def _halves(a: Floats) -> tuple[Floats, Floats]:
    c = 134217729.0 * a  # 2^27 + 1: Veltkamp's split into two 26-bit halves
    hi = c - (c - a)
    return hi, a - hi


def determinant(tp: Any, fp: Any, fn: Any, tn: Any) -> Floats:
    """tp tn - fp fn of cells already scaled to at most 1, with the products' rounding
    errors recovered: accurate to a few units in the last place even when the two
    products nearly cancel (barring underflow of the error terms).

    >>> a = 0.5 + 2.0**-30  # a * a = 0.25 + 2^-30 + 2^-60 rounds to 0.25 + 2^-30
    >>> float(a * a - 0.5 * (0.5 + 2.0**-29)), float(determinant(a, 0.5, 0.5 + 2.0**-29, a))
    (0.0, 8.673617379884035e-19)
    """
    p1, e1 = _two_product(np.asarray(tp, dtype=np.float64), np.asarray(tn, dtype=np.float64))
    p2, e2 = _two_product(np.asarray(fp, dtype=np.float64), np.asarray(fn, dtype=np.float64))
    s = p1 - p2
    back = s - p1  # Knuth's two-sum: s + t = p1 - p2 exactly
    t = (p1 - (s - back)) + (-p2 - back)
    return np.asarray(s + (t + (e1 - e2)), dtype=np.float64)
