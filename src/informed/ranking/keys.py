"""The one sort behind `Ranking.from_scores` without weights: each score's order key and
the row's outcome packed into one 64-bit integer.

One sort of the packed keys (numpy's vectorised sort of uint64) orders the rows by score,
then outcome, and yields exact counts per distinct score. Ascending keys are descending
scores, and equal keys equal scores (-0.0 == 0.0). Scores of one sign (probabilities,
the common case) are packed before the sort, and unpacked after it, block by block: the
few steps on each block stay in the processor's cache, so each full-size array is
written once. The rare scores whose keys cannot be packed exactly go through an argsort
(`informed.ranking.grouping`).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from informed.ranking.blocks import blocks

__all__ = ["canonical_scores", "group_unweighted"]

FloatArray = NDArray[np.float64]
CountArray = NDArray[np.int64] | NDArray[np.float64]

_ONE = np.uint64(1)
_TOP63 = np.uint64((1 << 63) - 1)
_BIT62 = np.uint64(1 << 62)


def canonical_scores(scores: FloatArray) -> FloatArray:
    """-0.0 becomes 0.0, so equal Rankings have equal bytes and JSON."""
    return np.add(scores, 0.0)


def _order_keys(
    scores: FloatArray, low: float, high: float
) -> tuple[NDArray[np.uint64], int, int] | None:
    """Descending-order keys below 2**63 for float64 scores, or None if none fit exactly.

    Returns (keys, case, exponent): ascending keys are descending scores, and equal keys
    are equal scores (-0.0 == 0.0). The top bit is left free for the outcome.
    Case 0: all scores >= 0, keys = (2**63 - 1) - bits. Case 1: all <= 0, keys = bits of
    -score. Case 2: mixed signs, scores scaled exactly by 2**-exponent into (-1, 1), so the
    exponent's top bit is free; +-inf take the extreme keys.
    """
    if low >= 0:
        if low == 0 and np.signbit(scores).any():
            scores = scores + 0.0  # -0.0 -> 0.0: its sign bit would break the key order
        return np.subtract(_TOP63, scores.view(np.uint64)), 0, 0
    if high <= 0:
        negated = -scores
        negated += 0.0
        return negated.view(np.uint64), 1, 0
    finite = np.isfinite(scores)
    largest = float(np.abs(scores[finite]).max()) if finite.any() else 0.0
    exponent = math.frexp(largest)[1] if largest > 0 else 0
    scaled = np.ldexp(scores, -exponent)
    if not np.array_equal(np.ldexp(scaled, exponent), scores):
        return None
    magnitude = np.abs(scaled).view(np.uint64)
    # Monotone code u: x >= 0 -> 2**62 + bits(x); x < 0 -> 2**62 - 1 - bits(-x); the key
    # is (2**63 - 1) - u, so that ascending keys are descending scores.
    keys = np.where(scaled >= 0, _TOP63 - _BIT62 - magnitude, _BIT62 + magnitude)
    keys[np.isposinf(scaled)] = np.uint64(0)
    keys[np.isneginf(scaled)] = _TOP63
    return keys, 2, exponent


def _decode_keys(keys: NDArray[np.uint64], case: int, exponent: int) -> FloatArray:
    """Invert `_order_keys` on the distinct keys (in place where possible)."""
    if case == 0:
        return np.subtract(_TOP63, keys, out=keys).view(np.float64)
    if case == 1:
        return np.subtract(0.0, keys.view(np.float64))
    positive_side = keys < _BIT62
    magnitude = np.where(positive_side, _TOP63 - _BIT62 - keys, keys - _BIT62)
    magnitude[(keys == 0) | (keys == _TOP63)] = 0  # the +-inf sentinels, set below
    values = np.ldexp(magnitude.view(np.float64), exponent)
    values = np.where(positive_side, values, -values)
    values[keys == 0] = math.inf
    values[keys == _TOP63] = -math.inf
    return canonical_scores(values)


def group_unweighted(
    scores: FloatArray, is_positive: NDArray[np.bool_], bounds: tuple[float, float] | None
) -> tuple[FloatArray, CountArray, CountArray]:
    """Distinct scores (descending) with positive and negative counts, by one key sort.

    The outcome is packed into the free low bit of each score's order key, so one sort
    orders by score, then outcome. Scores of one sign (probabilities) have their keys
    packed, and after the sort unpacked, block by block (`informed.ranking.blocks`): the
    few steps on each block stay in the cache, one write of the keys, one of each count.
    """
    if scores.size == 0:
        empty = np.empty(0, dtype=np.int64)
        return np.empty(0), empty, empty.copy()
    low, high = bounds if bounds is not None else (float(scores.min()), float(scores.max()))
    if low >= 0 or high <= 0:
        case, exponent = (_PROBABILITIES if low >= 0 and high <= 1 else 0 if low >= 0 else 1), 0
        keys = _packed_keys(scores, is_positive, case, canonical=low == 0)
        if case == _PROBABILITIES:  # negative floats: numpy sorts float64 faster than uint64
            keys.view(np.float64).sort()
            return _unpacked_groups(keys, case, exponent)
    else:
        encoded = _order_keys(scores, low, high)
        if encoded is None:
            return _group_by_argsort(scores, is_positive)
        keys, case, exponent = encoded
        keys <<= _ONE
        keys |= is_positive
    keys.sort()
    return _unpacked_groups(keys, case, exponent)


_PROBABILITIES = 3
"""Every score in [0, 1]: (bits << 1) | outcome is then below the bits of infinity (for
scores below 1.5), so sign | (bits << 1) | outcome is a negative float64, never a NaN,
whose ascending order is that of the scores descending; numpy's sort of float64
(vectorised with AVX-512 where the processor has it) is faster than its sort of uint64."""
_SIGN = np.uint64(1 << 63)


def _packed_keys(
    scores: FloatArray, is_positive: NDArray[np.bool_], case: int, *, canonical: bool
) -> NDArray[np.uint64]:
    """(order key << 1) | outcome of scores of one sign (`_order_keys`' case 0: all >= 0,
    or 1: all <= 0; or `_PROBABILITIES`), made block by block; `canonical`: -0.0 may occur
    (made 0.0 first)."""
    keys = np.empty(scores.size, dtype=np.uint64)
    bits = scores.view(np.uint64)
    for low, high in blocks(scores.size):
        part = keys[low:high]
        values = part.view(np.float64)
        if case == _PROBABILITIES:
            if canonical:
                np.add(scores[low:high], 0.0, out=values)
                part <<= _ONE
            else:
                np.left_shift(bits[low:high], _ONE, out=part)
            part |= is_positive[low:high]
            part |= _SIGN
            continue
        if case == 1:  # the bits of -score (-0.0 as 0.0)
            np.negative(scores[low:high], out=values)
            values += 0.0
        elif canonical:  # -0.0 -> 0.0: its sign bit would break the key order
            np.add(scores[low:high], 0.0, out=values)
            np.subtract(_TOP63, part, out=part)
        else:
            np.subtract(_TOP63, bits[low:high], out=part)
        part <<= _ONE
        part |= is_positive[low:high]
    return keys


def _unpacked_groups(
    keys: NDArray[np.uint64], case: int, exponent: int
) -> tuple[FloatArray, CountArray, CountArray]:
    """The groups of sorted packed keys: block by block, the outcome bit taken out, the
    key decoded in place (scores of one sign) and the changes of key counted; the
    negatives are made while every key so far is distinct (no ties: a group per row)."""
    n = keys.size
    outcome = np.empty(n, dtype=np.int64)
    negatives = np.empty(n, dtype=np.int64)
    changes, previous = 0, None
    for low, high in blocks(n):
        part = keys[low:high]
        np.bitwise_and(part, _ONE, out=outcome[low:high].view(np.uint64))
        part >>= _ONE
        if case == _PROBABILITIES:  # the sign bit, now bit 62, off: the score's bits
            part ^= _BIT62
        changes += int(np.count_nonzero(part[1:] != part[:-1]))
        changes += previous is not None and bool(part[0] != previous)
        previous = part[-1]
        if changes == high - 1:  # no ties yet
            np.subtract(1, outcome[low:high], out=negatives[low:high])
        if case == 0:
            np.subtract(_TOP63, part, out=part)
        elif case == 1:
            values = part.view(np.float64)
            np.subtract(0.0, values, out=values)
    if changes == n - 1:
        # No ties: every row is its own group.
        scores = keys.view(np.float64) if case != 2 else _decode_keys(keys, case, exponent)
        return scores, outcome, negatives
    del negatives
    # equal bits are equal scores (decoded in place, or still keys)
    ends = np.flatnonzero(keys[1:] != keys[:-1])
    ends = np.append(ends, n - 1)
    cumulative = np.cumsum(outcome, out=outcome)[ends]
    positives = np.diff(cumulative, prepend=0)
    totals = np.diff(ends, prepend=-1)
    scores = keys.view(np.float64)[ends] if case != 2 else _decode_keys(keys[ends], case, exponent)
    return scores, positives, totals - positives


def _group_by_argsort(
    scores: FloatArray, is_positive: NDArray[np.bool_]
) -> tuple[FloatArray, CountArray, CountArray]:
    """Group by argsort: scores whose order keys cannot be packed exactly (int64 counts)."""
    n = scores.size
    if n == 0:
        return np.empty(0), np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    order = np.argsort(-scores)
    ordered = scores[order]
    starts = np.concatenate(([0], np.flatnonzero(ordered[1:] != ordered[:-1]) + 1))
    outcome = is_positive[order]
    positives: CountArray = np.add.reduceat(outcome.astype(np.int64), starts)
    totals = np.diff(starts, append=n).astype(np.int64)
    return canonical_scores(ordered[starts]), positives, totals - positives
