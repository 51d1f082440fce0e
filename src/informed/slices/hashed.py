"""Every slice's tie groups from one hash of the scores and one count, no sort of the rows.

The packed route (`informed.slices.ranked`) sorts one key per row holding slice, score
and outcome: as many distinct keys as there are tie groups in all slices (1.6 million
for 100 slices of 10^7 rows with 15,000 distinct scores), and numpy's sort of them is
the cost of slicing. Here the rows are never sorted:

* each score's bits are coded by pyarrow's hash (`dictionary_encode`, through buffers):
  the index of the row's score among the D distinct bit patterns, in the order they come;
* one `numpy.bincount` of outcome * S * D + slice * D + index counts every slice's rows
  per (score, outcome): 2 x S x D cells;
* only the D distinct scores are sorted (descending; -0.0 and 0.0, two bit patterns,
  are merged into one score 0.0), and the cells' score axis is put in that order;
* each slice's tie groups are the non-zero cells of its row, and the overall Ranking is
  the sum over the slices.

Counts are integers, so every sum is exact and each slice's groups equal those
`Ranking.from_scores` gives its rows, the overall ones those of all rows. Weights are
summed by the same count in row order, exact only when every weight is a whole number
and their total stays below 2^52 (frequency weights); other weights, which
`Ranking.from_scores` sums in its own order, are left to the caller's route. So are
inputs without pyarrow, inputs of fewer than `FEWEST_ROWS` rows, and inputs with more
than `MOST_SCORES` distinct scores (the hash slows down once its table leaves the
processor's caches) or whose 2 x S x D cells would outnumber the rows (a sort of the
rows is then cheaper than the cells) or not fit in memory: `group_hashed` returns
None. The distinct scores of one row in 64 bound D from below, and how seldom they
repeat estimates it, so a column of many distinct scores is recognised before it is
hashed whole (hashing each batch of 10^7 continuous scores in 10 slices to learn that
took 1.5 s).

>>> quarter = FEWEST_ROWS // 4
>>> found = group_hashed(np.repeat([1, 0, 1, 1], quarter), 2,
...                      np.repeat([0.5, 0.9, -0.0, 0.0], quarter),
...                      np.repeat([True, False, False, True], quarter), None)
>>> [(s.tolist(), p.tolist(), n.tolist()) for s, p, n in found.slices()]
[([0.9], [0], [16384]), ([0.5, 0.0], [16384, 16384], [0, 16384])]
>>> found.overall_scores.tolist(), found.overall_negatives.tolist()
([0.9, 0.5, 0.0], [16384, 0, 16384])
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory
from informed.coding.columns import arrow, arrow_numbers, numpy_arrow
from informed.errors import MemoryLimitError
from informed.slices.ranked import descending_codes, scores_of

__all__ = [
    "FEWEST_ROWS",
    "MOST_SCORES",
    "HashedGroups",
    "exact_weights",
    "group_hashed",
    "score_groups",
]

Counts = NDArray[np.int64] | NDArray[np.float64]

# Fewer rows than this are grouped by the packed route: as fast there, and it needs
# no pyarrow (whose import alone takes a tenth of a second).
FEWEST_ROWS = 1 << 16
# Distinct scores up to which the hash is fast: its table stays in the processor's
# caches (measured on 10^7 rows: 0.12 s for 15,000 distinct scores, 0.17 s for 65,536,
# 0.32 s for 131,072 and 0.87 s for a million, where the packed route groups the rows
# of 4 slices in 0.3 to 0.5 s).
MOST_SCORES = 1 << 16
# One row in this many is hashed first: its distinct scores bound the column's.
_SAMPLE = 1 << 6
# Rows combined at a time into the cell codes (the temporaries stay in cache).
_BLOCK = 1 << 16
# Integers up to here are exact in float64, with room for a sum's rounding.
_EXACT_TOTAL = float(1 << 52)


class HashedGroups(NamedTuple):
    """The tie groups of every slice (`slice` ascending, then scores descending) and of
    all the rows (their sum over the slices)."""

    slice: NDArray[np.int64]
    scores: NDArray[np.float64]
    positives: Counts
    negatives: Counts
    bounds: NDArray[np.intp]
    overall_scores: NDArray[np.float64]
    overall_positives: Counts
    overall_negatives: Counts

    def slices(self) -> Iterator[tuple[NDArray[np.float64], Counts, Counts]]:
        """(scores, positives, negatives) of each slice in turn."""
        for lo, hi in zip(self.bounds[:-1].tolist(), self.bounds[1:].tolist(), strict=True):
            yield self.scores[lo:hi], self.positives[lo:hi], self.negatives[lo:hi]


def exact_weights(weights: NDArray[np.float64]) -> bool:
    """True when every sum of these weights, in any order, is exact: whole numbers whose
    total stays below 2^52 (every partial sum is then an integer float64 holds).

    >>> exact_weights(np.array([1.0, 3.0, 0.0])), exact_weights(np.array([0.5, 1.0]))
    (True, False)
    """
    if weights.size == 0:
        return True
    return bool(float(weights.sum()) < _EXACT_TOTAL and (np.floor(weights) == weights).all())


def group_hashed(
    slices: NDArray[np.intp],
    n_slices: int,
    values: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    weights: NDArray[np.float64] | None,
) -> HashedGroups | None:
    """The tie groups of every slice and of all rows from one hash of the scores and one
    count (see the module's notes), or None where that route is not taken: no pyarrow,
    weights that are not whole numbers, more cells than rows, or not enough memory.

    `values` are finite float64 scores (checked by the caller), `slices` each row's slice
    code below `n_slices`."""
    n = values.shape[0]
    if n < FEWEST_ROWS or n_slices == 0 or arrow() is None:
        return None
    if weights is not None and not exact_weights(weights):
        return None
    bits = np.ascontiguousarray(values).view(np.uint64)
    sample = bits[::_SAMPLE]
    seen = len(numpy_arrow(sample).dictionary_encode().dictionary)
    if not _few_scores(seen, n_slices, n) or _past_the_hash(sample, seen):
        return None  # a sample of the rows alone has too many distinct scores
    encoded = numpy_arrow(bits).dictionary_encode()
    distinct = arrow_numbers(encoded.dictionary)
    D = distinct.size  # distinct bit patterns: -0.0 and 0.0 are two
    if not _few_scores(D, n_slices, n):
        return None
    cells = 2 * n_slices * D
    try:
        check_memory(8 * (cells + n), f"the cell codes of {n:,} rows", "slice by fewer keys")
    except MemoryLimitError:
        return None
    codes = _cell_codes(slices, arrow_numbers(encoded.indices), is_positive, D, n_slices * D)
    del encoded
    flat = np.bincount(codes, weights=weights, minlength=cells)
    # the score axis in descending order of score, -0.0 and 0.0 merged into 0.0
    order, order_codes, starts = _descending(distinct)
    # the codes' memory, already paged in, takes the cells in their new order
    reuse = codes[:cells]  # cells <= n
    counts = np.take(
        flat.reshape(2, n_slices, D),
        order,
        axis=2,
        out=reuse.view(flat.dtype).reshape(2, n_slices, D),
        mode="clip",  # the indices are in range: no buffered copy of `out`
    )
    del flat
    if starts.size < D:
        counts = np.add.reduceat(counts, starts, axis=2)
    scores = scores_of(order_codes[starts])
    G = scores.size
    negatives, positives = counts[0].reshape(-1), counts[1].reshape(-1)
    nonzero = np.flatnonzero(negatives + positives)  # weights of 0 leave no group
    slice_of = nonzero // G
    bounds = np.searchsorted(slice_of, np.arange(n_slices + 1)).astype(np.intp)
    all_negatives, all_positives = counts[0].sum(axis=0), counts[1].sum(axis=0)
    used = np.flatnonzero(all_negatives + all_positives)
    return HashedGroups(
        slice_of,
        scores[nonzero - slice_of * G],
        positives[nonzero],
        negatives[nonzero],
        bounds,
        scores[used],
        all_positives[used],
        all_negatives[used],
    )


def score_groups(
    values: NDArray[np.float64],
) -> tuple[NDArray[np.uint16], NDArray[np.float64]] | None:
    """Each row's tie group (0 for the highest score; -0.0 and 0.0 one group) and the
    groups' scores, descending, from one hash of the scores; None where the route of
    `group_hashed` is not taken for the scores alone: no pyarrow, fewer than
    `FEWEST_ROWS` rows, more than `MOST_SCORES` distinct scores.

    >>> rows = np.tile([0.5, -0.0, 2.0, 0.0], FEWEST_ROWS // 4)
    >>> group, scores = score_groups(rows)
    >>> group[:4].tolist(), scores.tolist()
    ([1, 2, 0, 2], [2.0, 0.5, 0.0])
    """
    n = values.shape[0]
    if n < FEWEST_ROWS or arrow() is None:
        return None
    bits = np.ascontiguousarray(values).view(np.uint64)
    sample = bits[::_SAMPLE]
    seen = len(numpy_arrow(sample).dictionary_encode().dictionary)
    if seen > MOST_SCORES or _past_the_hash(sample, seen):
        return None
    encoded = numpy_arrow(bits).dictionary_encode()
    distinct = arrow_numbers(encoded.dictionary)
    if distinct.size > MOST_SCORES:
        return None
    order, codes, starts = _descending(distinct)
    new = np.zeros(distinct.size, dtype=np.uint16)
    new[starts[1:]] = 1
    group = np.empty(distinct.size, dtype=np.uint16)
    group[order] = np.cumsum(new, dtype=np.uint16)  # below MOST_SCORES = 2^16
    return group[arrow_numbers(encoded.indices)], scores_of(codes[starts])


def _descending(
    distinct: NDArray[np.uint64],
) -> tuple[NDArray[np.intp], NDArray[np.uint64], NDArray[np.intp]]:
    """The order of distinct score bits by descending score, their codes in that order
    (`descending_codes`) and where each score starts (-0.0 and 0.0, two bit patterns,
    one score)."""
    codes = descending_codes(distinct.view(np.float64))
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    return order, codes, np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])


def _few_scores(distinct: int, n_slices: int, n: int) -> bool:
    """Few enough distinct scores for the hash to be fast and the cells (2 per slice and
    score) to be no more than the rows."""
    return distinct <= MOST_SCORES and 2 * n_slices * distinct <= n


def _past_the_hash(sample: NDArray[np.uint64], seen: int) -> bool:
    """The sample's scores repeat too seldom for the column to hold MOST_SCORES distinct
    ones or fewer: m rows drawn from D equally frequent scores hold about m^2 / (2 D)
    repeats (128 for the 4,096 rows sampled of 2^18 at D = MOST_SCORES, give or take 11;
    unequal frequencies repeat more). Fewer than a quarter of that says D > 4 MOST_SCORES,
    unless the sampled scores are in order (a column sorted by score, whose ties the
    stride steps over). Only the route depends on it: both give the same groups."""
    m = sample.size
    if (m - seen) * 8 * MOST_SCORES >= m * m:
        return False
    values = sample.view(np.float64)
    rising, falling = values[1:] >= values[:-1], values[1:] <= values[:-1]
    return not (bool(rising.all()) or bool(falling.all()))


def _cell_codes(
    slices: NDArray[np.intp],
    index: NDArray[np.integer],
    is_positive: NDArray[np.bool_],
    width: int,
    half: int,
) -> NDArray[np.int64]:
    """outcome * half + slice * width + index of every row, a block of rows at a time
    (the temporaries stay in cache)."""
    n = slices.shape[0]
    codes = np.empty(n, dtype=np.int64)
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        part = codes[lo:hi]
        np.multiply(slices[lo:hi], width, out=part)
        part += index[lo:hi]
        part += is_positive[lo:hi] * half
    return codes
