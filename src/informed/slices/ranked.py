"""Every slice's tie groups from one sort: (slice, score, outcome) packed in one integer.

The unsliced Ranking sorts one 64-bit key per row (the score's order key with the
outcome in its low bit: `informed.ranking.grouping`). Sliced, the slice code must travel
with the key, and numpy has no fast sort of pairs (an argsort of 10^7 keys costs ten
sorts). So the score's order key is compressed, exactly, until the slice code fits
beside it in the same 64 bits:

* the order key of a float64 score is its bits made monotone (`descending_codes`:
  ascending codes are descending scores, -0.0 is 0.0);
* its top 12 bits (sign and exponent) take few values in any real column of scores:
  they are replaced by their distance from the lowest (no look-up), or where that range
  is too wide to fit, by their rank among the values that occur (a bincount of 4,096);
* the low mantissa bits that are zero in every score (float32 scores, small integers)
  are dropped.

Both steps keep order and equality, so one sort of the packed keys orders the rows by
slice, then by descending score, then by outcome, and each (slice, score) tie group is a
run of the sorted keys, counted as the unsliced grouping counts its runs. Full
mantissas in 25 binary orders of magnitude and 100 slices need 65 bits: a key up to two
bits too long is split by those top bits into parts sorted alone (the parts in order
are the keys in order). Keys are packed, and where each group holds one row
(continuous scores) decoded, a block of rows at a time, in cache: written whole-array,
those steps cost three times the sort (`group_packed` of 10^7 continuous scores in 100
slices: 1.7 s under cProfile, 0.6-0.7 s block by block). Where the compressed key and
the slice code do not fit (scores spread over many binary orders of magnitude and many
slices), `group_packed` returns None and the caller groups slice by slice.
`informed.slices.counting.rank_sliced` takes this route only where the
hash of the scores and a count of their cells (`informed.slices.hashed`) declines.

Fractional weights, whose sums depend on the order of addition, are grouped by
`group_weighted_slices`: one quicksort of the scores and one stable sort of the slice
codes, which add each group's weights in the order the unsliced Ranking adds them.

>>> import numpy as np
>>> found = group_packed(np.array([1, 0, 1, 1]), 2, np.array([.5, .9, .5, .5]),
...                      np.array([True, False, False, True]))
>>> [(s.tolist(), p.tolist(), n.tolist()) for s, p, n in found.slices()]
[([0.9], [0], [1]), ([0.5], [2], [1])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.ranking.blocks import blocks
from informed.ranking.keys import canonical_scores

__all__ = [
    "PackedGroups",
    "PackedKeys",
    "descending_codes",
    "group_packed",
    "group_weighted_slices",
    "pack_keys",
    "scores_of",
]

FloatArray = NDArray[np.float64]
Grouped = tuple[FloatArray, FloatArray, FloatArray]

_ONE = np.uint64(1)
_LOW63 = np.uint64((1 << 63) - 1)
_SIGN = np.uint64(1 << 63)
_MANTISSA_BITS = 52
_MANTISSA = np.uint64((1 << _MANTISSA_BITS) - 1)
_TOPS = 1 << 12
_POSITIVE_TOPS = 1 << 11  # tops below this are of scores >= 0


class PackedGroups(NamedTuple):
    """The tie groups of every slice, slice after slice (slice k's are those from
    `bounds[k]` to `bounds[k + 1]`), each slice's scores descending."""

    scores: NDArray[np.float64]
    positives: NDArray[np.int64]
    negatives: NDArray[np.int64]
    bounds: NDArray[np.intp]

    def slices(self) -> Iterator[tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]]:
        """(scores, positives, negatives) of each slice in turn."""
        for lo, hi in zip(self.bounds[:-1].tolist(), self.bounds[1:].tolist(), strict=True):
            yield self.scores[lo:hi], self.positives[lo:hi], self.negatives[lo:hi]


def descending_codes(values: NDArray[np.float64]) -> NDArray[np.uint64]:
    """A new array of unsigned codes of finite float64 scores: ascending codes are
    descending scores, and equal codes equal scores (-0.0 and 0.0 share one code).

    A score's bits, read as an unsigned integer, order the scores >= 0 ascending; the
    codes are those bits subtracted from 2^63 - 1 (below 2^63), and for a negative
    score its bits themselves (the sign bit set: above every code of a score >= 0, and
    larger for more negative scores).

    >>> codes = descending_codes(np.array([0.5, -0.0, 2.0, -1.0, 0.0]))
    >>> np.argsort(codes, kind="stable").tolist(), bool(codes[1] == codes[4])
    ([2, 0, 1, 4, 3], True)
    """
    bits = values.view(np.uint64)
    return _codes_into(bits, np.empty(bits.shape, dtype=np.uint64))


def _codes_into(bits: NDArray[np.uint64], codes: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """`descending_codes` of scores' `bits`, written into `codes`."""
    np.subtract(_LOW63, bits, out=codes)  # wraps past 2^63 for a set sign bit: fixed below
    if codes.size and codes.max() > _LOW63:  # a negative score, or -0.0
        negative = bits > _LOW63
        codes[negative] = bits[negative]
        codes[bits == _SIGN] = _LOW63  # -0.0 is 0.0
    return codes


def scores_of(codes: NDArray[np.uint64]) -> NDArray[np.float64]:
    """The scores of `descending_codes` (0.0 for the code of -0.0 and 0.0).

    >>> scores_of(descending_codes(np.array([0.5, -2.0, -0.0]))).tolist()
    [0.5, -2.0, 0.0]
    """
    bits = np.where(codes > _LOW63, codes, _LOW63 - codes)
    return np.add(bits.view(np.float64), 0.0)


class PackedKeys(NamedTuple):
    """Each row's (slice, score, outcome) in one unsigned integer, unsorted, and what
    decodes it: the tops that occur, the mantissa bits kept and dropped. A key that
    needs up to `_SPLIT_BITS` bits more than 64 is held without its top `spare` bits:
    the rows are split by them into `parts` (part j's keys, their top bits j, in any
    order), and `shift` is where those bits were in the key's high part."""

    parts: tuple[NDArray[np.uint64], ...]
    tops: NDArray[np.intp]
    kept: int
    dropped: int
    spare: int
    shift: int

    @property
    def keys(self) -> NDArray[np.uint64]:
        """Every row's key (the parts one after the other: the rows' order where the
        key fits in 64 bits)."""
        return self.parts[0] if len(self.parts) == 1 else np.concatenate(self.parts)


_SPLIT_BITS = 2
"""Bits a key may need beyond 64: its rows are then split by those top bits into up to
four parts, each sorted alone (their keys in order of part are the keys' order). 10^7
scores of full mantissas in 25 binades and 100 slices need one bit more."""
_LOOKUP_BITS = 16  # high parts up to 2^16: their top and sign looked up, not divided


def pack_keys(
    slices: NDArray[np.intp],
    n_slices: int,
    values: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    limits: tuple[float, float] | None = None,
) -> PackedKeys | None:
    """The packed key of every row (see the module's notes), or None when the slice code
    and the compressed score do not fit in 63 bits beside the outcome (with up to
    `_SPLIT_BITS` more in `parts`). `limits`: the lowest and highest score, if known.
    Made a block of rows at a time (in cache): one pass finds the mantissa bits no score
    sets, one codes the scores and packs the keys."""
    n = values.shape[0]
    bits = values.view(np.uint64)
    keys = np.empty(n, dtype=np.uint64)
    raw_or = 0
    for low, high in blocks(n):
        raw_or |= int(np.bitwise_or.reduce(bits[low:high]))
    dropped = _trailing_zeros(raw_or & int(_MANTISSA))  # -0.0 sets no mantissa bit
    kept = _MANTISSA_BITS - dropped
    if n and limits is None:
        limits = (float(values.min()), float(values.max()))
    # the codes of the highest and the lowest score: the first and the last top
    ends = descending_codes(np.array(limits[::-1] if limits else [0.0, 0.0])) >> np.uint64(52)
    first, last = int(ends[0]), int(ends[1])
    # the high part of a key is slice * len(tops) + the rank of its top: the tops from
    # the first to the last (no look-up) where those fit, else the tops that occur
    tops = np.arange(first, last + 1) if n else np.zeros(0, dtype=np.intp)
    rank = None
    if _high_bits(n_slices, tops.size) + kept + 1 - 64 > _SPLIT_BITS:
        seen = np.zeros(_TOPS, dtype=np.int64)
        for low, high in blocks(n):
            codes = _codes_into(bits[low:high], keys[low:high])
            top = (codes >> np.uint64(_MANTISSA_BITS)).view(np.int64)
            seen += np.bincount(top, minlength=_TOPS)
        tops = np.flatnonzero(seen)
        rank = (np.cumsum(seen > 0) - 1).astype(np.int64)
    high_bits = _high_bits(n_slices, tops.size)
    spare = max(high_bits + kept + 1 - 64, 0)
    if spare > _SPLIT_BITS:
        return None
    shift = high_bits - spare
    width = tops.size
    # part 0 kept in `keys` (compacted in place), the others written to new arrays
    # (pages never touched are never made: each row's key is written once more)
    outs = [keys, *(np.empty(n, dtype=np.uint64) for _ in range(1, 1 << spare))]
    filled = [0] * len(outs)
    for low, high in blocks(n):
        part = keys[low:high]
        if rank is None:  # not coded yet
            _codes_into(bits[low:high], part)
        top = (part >> np.uint64(_MANTISSA_BITS)).view(np.int64)
        if rank is None:
            top -= first
        else:
            top = rank[top]
        top += slices[low:high] * width  # the high part
        top = top.view(np.uint64)
        part &= _MANTISSA
        if dropped:
            part >>= np.uint64(dropped)
        if spare:
            split = top >> np.uint64(shift)
            top &= np.uint64((1 << shift) - 1)
        part |= top << np.uint64(kept)
        part <<= _ONE
        part |= is_positive[low:high]
        if spare:
            for j in reversed(range(len(outs))):  # part 0 last: it may overwrite `part`
                piece = np.compress(split == j, part)
                outs[j][filled[j] : filled[j] + piece.size] = piece
                filled[j] += piece.size
    parts = tuple(out[:size] for out, size in zip(outs, filled, strict=True)) if spare else (keys,)
    return PackedKeys(parts, tops, kept, dropped, spare, shift)


def _high_bits(n_slices: int, width: int) -> int:
    """Bits of the high part of a key: slice * width + the rank of a top."""
    return (max(n_slices, 1) * max(width, 1) - 1).bit_length()


def group_packed(
    slices: NDArray[np.intp],
    n_slices: int,
    values: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    limits: tuple[float, float] | None = None,
) -> PackedGroups | None:
    """The tie groups of every slice by one sort of packed keys (see the module's notes;
    a sort of each part of them where they need more than 64 bits), or None when the
    slice code and the compressed score do not fit. Where no two rows of a slice share
    a score (a group a row: continuous scores) the sorted keys are decoded a block at a
    time (in cache)."""
    n = values.shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return PackedGroups(np.zeros(0), empty, empty, np.zeros(n_slices + 1, dtype=np.intp))
    packed = pack_keys(slices, n_slices, values, is_positive, limits)
    if packed is None:
        return None
    for keys in packed.parts:
        keys.sort()
    distinct = _distinct(packed, n_slices, n)
    if distinct is not None:
        return distinct
    found = [_runs(keys, j << packed.shift, packed.kept) for j, keys in enumerate(packed.parts)]
    high, low, positives, totals = (np.concatenate(a) for a in zip(*found, strict=True))
    slice_of, rank_of = np.divmod(high, packed.tops.size)
    scores = _decode(rank_of, low, packed.tops, packed.dropped)
    bounds = np.searchsorted(slice_of, np.arange(n_slices + 1)).astype(np.intp)
    return PackedGroups(scores, positives, totals - positives, bounds)


def _distinct(packed: PackedKeys, n_slices: int, n: int) -> PackedGroups | None:
    """The groups of sorted packed keys where each holds one row (the scores decoded, the
    outcome read, block by block), or None where two rows share a (slice, score)."""
    tops, kept, dropped = packed.tops, packed.kept, packed.dropped
    top = tops.astype(np.uint64) << np.uint64(_MANTISSA_BITS)
    negative = tops >= _POSITIVE_TOPS
    # a score's bits are base - mantissa (>= 0: its code's complement) or base + mantissa
    base = np.where(negative, top, _LOW63 - top - np.uint64((1 << dropped) - 1))
    mixed = bool(negative.any())
    scores = np.empty(n, dtype=np.float64)
    positives = np.empty(n, dtype=np.int64)
    negatives = np.empty(n, dtype=np.int64)
    bounds = np.zeros(n_slices + 1, dtype=np.intp)
    at = 0
    for j, keys in enumerate(packed.parts):
        last = None
        offset = j << packed.shift
        # each high part's base and sign, looked up (in cache) where they are few
        few = packed.shift <= _LOOKUP_BITS
        if few:
            ranks = (np.arange(1 << packed.shift, dtype=np.int64) + offset) % tops.size
            bases, signs = base[ranks], negative[ranks]
        for low, high in blocks(keys.size):
            key = keys[low:high] >> _ONE
            if bool((key[1:] == key[:-1]).any()) or (last is not None and key[0] == last):
                return None
            last = key[-1]
            out = slice(at + low, at + high)
            np.bitwise_and(keys[low:high], _ONE, out=positives[out].view(np.uint64))
            np.subtract(1, positives[out], out=negatives[out])
            rank = (key >> np.uint64(kept)).view(np.int64)
            if not few:
                rank += offset
                rank %= tops.size
            value = (bases if few else base)[rank]
            key &= np.uint64((1 << kept) - 1)
            if dropped:
                key <<= np.uint64(dropped)
            if mixed:
                sign = (signs if few else negative)[rank]
                key[~sign] = np.negative(key[~sign])  # wraps: base - key
                value += key
            else:
                value -= key
            np.add(value.view(np.float64), 0.0, out=scores[out])
        bounds += _starts(keys, j << packed.shift, tops.size, n_slices, kept, packed.shift)
        at += keys.size
    return PackedGroups(scores, positives, negatives, bounds)


def _starts(
    keys: NDArray[np.uint64], offset: int, width: int, n_slices: int, kept: int, shift: int
) -> NDArray[np.intp]:
    """Where each slice (and the end) starts among sorted keys of one part (high parts
    from `offset` to `offset + 2^shift`)."""
    first = np.arange(n_slices + 1, dtype=np.int64) * width - offset
    inside = (first > 0) & (first < (1 << shift))
    where = np.where(first <= 0, 0, keys.size).astype(np.intp)
    wanted = first[inside].astype(np.uint64) << np.uint64(kept + 1)
    where[inside] = np.searchsorted(keys, wanted)
    return where


def _runs(
    keys: NDArray[np.uint64], offset: int, kept: int
) -> tuple[NDArray[np.int64], NDArray[np.uint64], NDArray[np.int64], NDArray[np.int64]]:
    """The groups of sorted packed keys (shifted right by one in place): each group's
    high part (plus `offset`), kept mantissa bits, positives and rows."""
    if keys.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(0, dtype=np.uint64), empty, empty
    outcome = np.bitwise_and(keys, _ONE).view(np.int64)
    keys >>= _ONE
    ends = np.flatnonzero(keys[1:] != keys[:-1])
    ends = np.append(ends, keys.size - 1)
    positives = np.diff(np.cumsum(outcome, out=outcome)[ends], prepend=0)
    totals = np.diff(ends, prepend=-1)
    group_keys = keys[ends]
    high = (group_keys >> np.uint64(kept)).view(np.int64)
    if offset:
        high += offset
    return high, group_keys & np.uint64((1 << kept) - 1), positives, totals


def _trailing_zeros(value: int) -> int:
    """Trailing zero bits of a mantissa (52 when it is 0)."""
    return _MANTISSA_BITS if value == 0 else (value & -value).bit_length() - 1


def _decode(
    rank: NDArray[np.int64], kept: NDArray[np.uint64], tops: NDArray[np.intp], dropped: int
) -> NDArray[np.float64]:
    """The scores of compressed codes: the rank of their top, their kept mantissa bits."""
    top = tops[rank].astype(np.uint64)
    positive = top < _POSITIVE_TOPS
    full = top << np.uint64(_MANTISSA_BITS)
    full |= kept << np.uint64(dropped)
    if dropped:  # the dropped bits are 0 in every score's bits: 1 in a code of a score >= 0
        full |= np.where(positive, np.uint64((1 << dropped) - 1), np.uint64(0))
    bits = np.where(positive, _LOW63 - full, full)
    return np.add(bits.view(np.float64), 0.0)


def group_weighted_slices(
    slices: NDArray[np.intp],
    n_slices: int,
    scores: FloatArray,
    is_positive: NDArray[np.bool_],
    weights: FloatArray,
    groups: tuple[NDArray[np.uint16], FloatArray] | None = None,
) -> tuple[NDArray[np.intp], Grouped, Grouped] | None:
    """`group_rows` of each slice's rows (`slices`: each row's slice, 0 .. n_slices - 1)
    and of all the rows, weighted, by one sort of the scores for all of them: how many
    groups each slice holds, the groups of every slice one after the other, and the
    overall groups. None where a sum is not finite (`group_rows` refuses it).

    The unsliced grouping (`informed.ranking.grouping`) sorts (score, signed weight)
    pairs and adds each group's weights in that order. Here one quicksort of the scores
    orders every row, the rows of tied scores are put in (score, signed weight) order by
    a sort of theirs alone, and a stable sort of the slice codes (a radix sort) takes
    each slice's rows out in that order: each group's weights are added in the order
    `group_rows` adds them, by `np.add.reduceat` (whose sum of a group depends on the
    group's values alone).

    With `groups` (each row's tie group, 0 for the highest score, and the groups' scores:
    `informed.slices.hashed.score_groups`, for up to 2^16 distinct scores) no pair is
    sorted: one quicksort of the signed weights and one stable sort of the rows' groups
    (a radix sort) put every row in (score, signed weight) order (10^7 rows of 15,001
    scores: the sort of their pairs took most of 3.4 s of CPU).
    """
    keep = weights > 0
    if not keep.all():
        slices, scores = slices[keep], scores[keep]
        is_positive, weights = is_positive[keep], weights[keep]
        groups = None if groups is None else (groups[0][keep], groups[1])
    # each row's key: equal keys are equal scores (the group's number, or -score)
    key: NDArray[Any]
    if groups is not None:
        signed = np.where(is_positive, weights, np.negative(weights))
        order = np.argsort(signed)  # equal signed weights: rows alike
        key = groups[0][order]
        by_group = np.argsort(key, kind="stable")
        order, key = order[by_group], key[by_group]
        signed = signed[order]
        tied = True
        table = groups[1]
        scores_at: Callable[[NDArray[Any]], FloatArray] = table.take
    else:
        order = np.argsort(np.negative(scores))  # equal scores in any order: set below
        key = np.negative(scores[order])
        signed = np.where(is_positive[order], weights[order], np.negative(weights[order]))
        tied = bool(np.any(key[1:] == key[:-1]))  # -0.0 == 0.0: one group
        scores_at = _unnegated
    if tied and groups is None:
        held = np.zeros(key.size, dtype=bool)
        held[1:] = key[1:] == key[:-1]
        held[:-1] |= held[1:]
        rows = np.flatnonzero(held)  # runs of tied rows, the runs in order of score
        pairs = np.empty(rows.size, dtype=np.complex128)
        pairs.real, pairs.imag = key[rows], signed[rows]
        # sorted as the unsliced grouping sorts them (equal pairs: rows alike)
        by = rows[np.argsort(pairs)]
        order[rows], key[rows], signed[rows] = order[by], key[by], signed[by]
    small = slices.astype(np.int16 if n_slices < (1 << 15) else np.int64)
    codes = small[order]
    del small
    by_slice = np.argsort(codes, kind="stable")  # each slice's rows, in the order above
    new = np.ones(key.size, dtype=bool)
    if tied:
        np.not_equal(key[1:], key[:-1], out=new[1:])
    overall = _sums(key, signed, new, scores_at)
    codes, key, signed = codes[by_slice], key[by_slice], signed[by_slice]
    if tied:
        np.not_equal(key[1:], key[:-1], out=new[1:])
        new[1:] |= codes[1:] != codes[:-1]
    grouped = _sums(key, signed, new, scores_at)
    if not all(np.isfinite(a).all() for a in (*overall[1:], *grouped[1:])):
        return None
    return np.bincount(codes[new], minlength=n_slices).astype(np.intp), grouped, overall


def _unnegated(negated: FloatArray) -> FloatArray:
    """Scores of negated scores (-0.0 as 0.0)."""
    return canonical_scores(np.negative(negated))


def _sums(
    key: NDArray[Any],
    signed: FloatArray,
    new: NDArray[np.bool_],
    scores_at: Callable[[NDArray[Any]], FloatArray],
) -> Grouped:
    """The groups of rows sorted by (score, signed weight) starting where `new` is True,
    each group's weights added as the unsliced grouping adds them, and its score read
    from its first row's `key` by `scores_at`."""
    if new.all():  # one row a group: its weight, as `np.add.reduceat` gives it
        groups = (key, np.maximum(signed, 0.0), np.maximum(np.negative(signed), 0.0))
    else:
        starts = np.flatnonzero(new)
        with np.errstate(over="ignore"):  # checked by the caller, which then declines
            positives = np.add.reduceat(np.maximum(signed, 0.0), starts)
            negatives = np.add.reduceat(np.maximum(np.negative(signed), 0.0), starts)
        groups = (key[starts], positives, negatives)
    return scores_at(groups[0]), groups[1], groups[2]
