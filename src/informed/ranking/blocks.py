"""Per-group terms evaluated block by block: temporaries the size of a cache, not of a Ranking.

A summary such as sum_g m2_g (N_g + N_g+1) or Pearson's sums of squares needs a few
elementwise steps per tie group before a sum. Written as whole-array numpy expressions,
each step writes a new array of U floats (80 MB at 10**7 groups), and writing fresh memory
costs more than the arithmetic. Here the steps run on blocks of `BLOCK` groups in buffers
that stay in the processor's cache, and only the sums leave a block. The sums are the
same pairwise `np.add.reduce` sums within each block (or stretch of one), added across
blocks; integer sums are exact (Python integers across blocks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["BLOCK", "blocks", "first_index", "integer_total", "sums_before"]

BLOCK = 1 << 16
"""Groups per block: a few float64 buffers of this length fit in a core's L2 cache."""


def blocks(stop: int, size: int | None = None) -> Iterator[tuple[int, int]]:
    """(low, high) covering 0..stop-1 in blocks of `size` (`BLOCK` by default; buffers
    of `BLOCK` values hold any block)."""
    step = BLOCK if size is None else size
    for low in range(0, stop, step):
        yield low, min(low + step, stop)


def integer_total(stop: int, part: Callable[[int, int], float]) -> int:
    """sum of part(low, high) over the blocks of 0..stop-1, each part an integer-valued
    float below 2**53 (so exact), added as Python integers (so exact at any size)."""
    return sum(int(part(low, high)) for low, high in blocks(stop))


def sums_before(
    terms: Callable[[int, int], Sequence[NDArray[Any]]],
    stop: int,
    cuts: NDArray[np.intp],
    dtype: Any = np.float64,
) -> list[NDArray[Any]]:
    """For each array `terms(low, high)` returns (the terms of groups low..high-1, of
    `dtype`), the sum of its terms over groups 0..c-1 for each c in `cuts` (0 <= c <= stop).

    Every cut and every block start begins a stretch; each stretch is summed by
    `np.add.reduceat` within its block, and the few stretch sums are accumulated in order.

    >>> values = np.arange(1.0, 11.0)
    >>> sums_before(lambda a, b: [values[a:b]], 10, np.array([3, 0, 10]))[0].tolist()
    [6.0, 0.0, 55.0]
    """
    distinct, where = np.unique(cuts, return_inverse=True)
    starts = np.union1d(distinct[distinct < stop], np.arange(0, stop, BLOCK))
    pieces: list[NDArray[Any]] = []
    for low, high in blocks(stop):
        first, last = np.searchsorted(starts, (low, high))
        local = starts[first:last] - low
        for k, values in enumerate(terms(low, high)):
            if k == len(pieces):
                pieces.append(np.zeros(starts.size + 1, dtype=dtype))
            pieces[k][first + 1 : last + 1] = np.add.reduceat(values, local)
    position = np.searchsorted(starts, distinct).reshape(-1)
    index = where.reshape(np.shape(cuts))
    return [np.cumsum(p)[position][index] for p in pieces]


def first_index(test: Callable[[int, int], NDArray[np.bool_]], start: int, stop: int) -> int | None:
    """The first i in start..stop-1 where `test(low, high)` (booleans for groups
    low..high-1) holds, looked at in growing chunks: the cost is proportional to how far
    that i lies, not to stop - start. None if it holds nowhere."""
    low, chunk = start, 256
    while low < stop:
        high = min(low + chunk, stop)
        found = np.flatnonzero(test(low, high))
        if found.size:
            return low + int(found[0])
        low, chunk = high, min(chunk * 4, BLOCK)
    return None
