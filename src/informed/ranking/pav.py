"""The pool-adjacent-violators algorithm over tie groups: the weighted isotonic regression
behind the CORP reliability curve (`informed.ranking.calibration`).

Groups in ascending order of score, each with its rows and actual positives, are pooled
into blocks until the blocks' observed rates increase strictly; each block's value is its
own sum of positives over its own sum of rows. The pooling runs in rounds over numpy
arrays (every run of adjacent violators at once); a cascade, where each pooled block
violates the one before it, is finished by the textbook stack. Whole counts (a Ranking's
counts, not weights) are exact in float64 in any order of summation, so their blocks'
sums are read off cumulative sums at the blocks' first groups (two gathers a round, where
weights are summed again from the groups by `np.add.reduceat`).

References
----------
Ayer, M., Brunk, H. D., Ewing, G. M., Reid, W. T. & Silverman, E. (1955). An empirical
distribution function for sampling with incomplete information. Annals of Mathematical
Statistics 26(4):641-647.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.ranking.groups import FloatArray

__all__ = ["Cumulative", "pav", "pav_blocks"]

Cumulative = tuple[FloatArray, FloatArray]
"""Whole positives and rows summed from each group to the last, groups ascending: arrays
of length groups + 1 (the last 0), so groups a..b-1 hold after[a] - after[b]. A Ranking's
cumulative counts reversed (`informed.ranking.groups.Groups`) are these, with no pass."""


def _block_means(
    positives: FloatArray, size: FloatArray, starts: NDArray[np.intp]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each block's positives over its rows, its rows and its positives, from the sums of
    its own groups."""
    block_positives = np.add.reduceat(positives, starts)
    block_size = np.add.reduceat(size, starts)
    return block_positives / block_size, block_size, block_positives


def _pool_runs(
    positives: FloatArray,
    rows: FloatArray,
    starts: NDArray[np.intp] | None,
    buffer: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, NDArray[np.intp], bool]:
    """Rounds of pooling over blocks (their positives, rows and first groups; None: the
    blocks are the groups themselves): each round pools every maximal run of blocks whose
    values do not increase (a run of adjacent violators pools into one block, whatever
    the order PAV would pool it in). Stops when the values increase strictly (True) or
    when a round pools fewer than a sixteenth of the blocks (False: a cascade, where each
    pooled block violates the one before it). `buffer`: an array of the blocks' size for
    the first round's values."""
    while positives.size > 1:
        values = np.divide(positives, rows, out=buffer)
        buffer = None
        begins = np.empty(values.size, dtype=bool)  # whether a block begins a new one
        begins[0] = True
        pooled = np.less_equal(values[1:], values[:-1], out=begins[1:])  # pools into the one before
        merged = int(np.count_nonzero(pooled))
        if merged == 0:
            break
        np.logical_not(pooled, out=pooled)
        first = np.flatnonzero(begins)
        positives = np.add.reduceat(positives, first)
        rows = np.add.reduceat(rows, first)
        starts = first if starts is None else starts[first]
        if merged * 16 < values.size:
            return positives, rows, starts, False
    return positives, rows, np.arange(rows.size) if starts is None else starts, True


def _pool_stack(positives: FloatArray, rows: FloatArray) -> NDArray[np.intp]:
    """The index of the first block of each PAV block by the textbook stack: each block in
    turn pools with the top of the stack while the top's value is no lower than its own.
    O(blocks) steps in Python, for what the rounds leave."""
    stack_p: list[float] = []
    stack_r: list[float] = []
    stack_s: list[int] = []
    for s, (p, r) in enumerate(zip(positives.tolist(), rows.tolist(), strict=True)):
        while stack_p and stack_p[-1] / stack_r[-1] >= p / r:
            p += stack_p.pop()
            r += stack_r.pop()
            s = stack_s.pop()
        stack_p.append(p)
        stack_r.append(r)
        stack_s.append(s)
    return np.asarray(stack_s, dtype=np.intp)


def _check_groups(positives: FloatArray, size: FloatArray) -> None:
    """Refuse groups PAV cannot fit, naming the first bad one: a size that is not positive
    and finite (a group of no rows has no rate, and its NaN would never pool), a positives
    count that is not finite, arrays of different shapes."""
    if np.shape(positives) != np.shape(size) or np.ndim(size) != 1:
        msg = (
            "pav needs positives and size as two 1-D arrays of the same length; got shapes "
            f"{np.shape(positives)} and {np.shape(size)}."
        )
        raise InputError(msg)
    with np.errstate(invalid="ignore"):
        bad_size = ~((size > 0.0) & (size < math.inf))
        bad_positives = ~np.isfinite(positives)
    if bad_size.any():
        at = int(np.argmax(bad_size))
        msg = (
            "pav needs every group to hold rows (a positive, finite size); group "
            f"{at:,} has size {float(size[at])!r}: drop empty groups first."
        )
        raise InputError(msg)
    if bad_positives.any():
        at = int(np.argmax(bad_positives))
        msg = (
            f"pav needs finite positives in every group; group {at:,} has {float(positives[at])!r}."
        )
        raise InputError(msg)


def pav(positives: FloatArray, size: FloatArray) -> tuple[FloatArray, NDArray[np.intp], FloatArray]:
    """Weighted isotonic (non-decreasing) regression of positives/size over groups in
    ascending order of score (each with rows): the fitted value of each block, the index
    of each block's first group, and each block's rows.

    The pool-adjacent-violators algorithm (Ayer, Brunk, Ewing, Reid & Silverman 1955, "An
    empirical distribution function for sampling with incomplete information"): blocks
    whose values do not increase are pooled until they do, so the blocks are the maximal
    runs of equal fitted values. Pooling is done in rounds over numpy arrays (every run
    of adjacent violators at once, O(blocks) a round); when a round pools little (a
    cascade), the textbook stack finishes over the blocks left. Each block's value is its
    own sum of positives over its own sum of rows (for integer counts, a correctly
    rounded ratio of exact integers, not a running average), and blocks are pooled again
    wherever that ratio does not increase.

    >>> values, starts, rows = pav(np.array([1.0, 0, 2, 1]), np.array([1.0, 2, 2, 1]))
    >>> values.tolist(), starts.tolist(), rows.tolist()
    ([0.3333333333333333, 1.0], [0, 2], [3.0, 3.0])

    Every group must hold rows (a positive, finite size) and finite positives; anything
    else is refused with its position and value (a group of no rows has no rate to fit):

    >>> pav(np.array([1.0, 0.0]), np.array([1.0, 0.0]))
    Traceback (most recent call last):
    ...
    informed.errors.InputError: pav needs every group to hold rows ...
    """
    _check_groups(positives, size)
    values, starts, block_rows, _ = pav_blocks(positives, size)
    return values, starts, block_rows


def pav_blocks(
    positives: FloatArray,
    size: FloatArray,
    cumulative: Cumulative | None = None,
    buffer: FloatArray | None = None,
) -> tuple[FloatArray, NDArray[np.intp], FloatArray, FloatArray]:
    """`pav`, with each block's positives too. `cumulative`: the counts are whole and these
    are their sums after each group (`Cumulative`); the blocks' sums are read off them.
    `buffer`: an array of the groups' size that the first round's values are written to."""
    if size.size == 0:
        empty = np.empty(0)
        return empty, np.empty(0, dtype=np.intp), empty, empty
    if cumulative is not None:
        block_positives, block_rows, starts, done = _pool_whole(positives, size, cumulative, buffer)
        if not done:
            starts = starts[_pool_stack(block_positives, block_rows)]
            block_positives, block_rows = _sums_from(cumulative, starts)
        # the rounds and the stack pool until the values increase strictly
        return block_positives / block_rows, starts, block_rows, block_positives
    block_positives, block_rows, known = positives, size, None
    while True:
        block_positives, block_rows, starts, done = _pool_runs(
            block_positives, block_rows, known, buffer
        )
        buffer = None
        if not done:
            starts = starts[_pool_stack(block_positives, block_rows)]
        # each block's own sums, in the order of its groups
        values, block_rows, block_positives = _block_means(positives, size, starts)
        if values.size == 1 or np.all(values[1:] > values[:-1]):
            return values, starts, block_rows, block_positives
        known = starts


def _sums_from(cumulative: Cumulative, starts: NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
    """The positives and rows of the blocks beginning at `starts` (the last runs to the end)."""
    after_positives, after_rows = cumulative
    bounds = np.append(starts, after_rows.size - 1)
    edges = after_positives[bounds]
    positives = edges[:-1] - edges[1:]
    edges = after_rows[bounds]
    return positives, edges[:-1] - edges[1:]


def _pool_whole(
    positives: FloatArray, rows: FloatArray, cumulative: Cumulative, buffer: FloatArray | None
) -> tuple[FloatArray, FloatArray, NDArray[np.intp], bool]:
    """`_pool_runs` from the groups for whole counts, each round's block sums read off the
    cumulative sums (exact) instead of summed by `np.add.reduceat`."""
    # each block's first group, then the end, and the cumulative sums there (each round's
    # bounds are some of the round before's: read off the arrays of its size)
    bounds = None
    after_positives, after_rows = cumulative
    while positives.size > 1:
        values = np.divide(positives, rows, out=buffer)
        buffer = None
        begins = np.empty(values.size + 1, dtype=bool)  # and the end, which bounds the last
        begins[0] = begins[-1] = True
        pooled = np.less_equal(values[1:], values[:-1], out=begins[1:-1])
        merged = int(np.count_nonzero(pooled))
        if merged == 0:
            break
        np.logical_not(pooled, out=pooled)
        first = np.flatnonzero(begins)
        bounds = first if bounds is None else bounds[first]
        after_positives, after_rows = after_positives[first], after_rows[first]
        positives = after_positives[:-1] - after_positives[1:]
        rows = after_rows[:-1] - after_rows[1:]
        if merged * 16 < values.size:
            return positives, rows, bounds[:-1], False
    return positives, rows, np.arange(rows.size) if bounds is None else bounds[:-1], True
