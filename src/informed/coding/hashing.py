"""Coding numpy arrays of labels to small integers by hashing, never by sorting.

pyarrow's `dictionary_encode` hashes when pyarrow is installed (the array crosses over
through its buffers, `informed.coding.columns.numpy_arrow`, so pandas is never imported); without
it, exact 64-bit keys (short strings packed into one integer) or verified 64-bit hashes
are coded by numpy. Each function returns the distinct values, in the order they first
come, and each row's index among them; `informed.coding.labels` turns that into a `Coded`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.columns import arrow, arrow_numbers, numpy_arrow

__all__ = ["Codes", "code_integers", "code_keys", "code_strings"]

# (distinct values, the index of each row's value among them)
Codes = tuple[tuple[Any, ...], NDArray[Any]]

# Integer labels spanning at most this many values are coded by offset: no hash, no sort.
_DIRECT_RANGE = 1 << 20


def code_integers(values: NDArray[Any]) -> Codes:
    """Code integers: by offset when they span few values, else by hashing."""
    if values.size == 0:
        return (), np.zeros(0, np.intp)
    low, high = int(values.min()), int(values.max())
    if high - low < _DIRECT_RANGE:
        # subtract in the array's own type first: uint64 beyond int64 must not wrap
        shifted = values - values.dtype.type(low) if low else values
        return tuple(range(low, high + 1)), shifted.astype(np.intp, copy=False)
    pa = arrow()
    if pa is not None:
        encoded = numpy_arrow(values).dictionary_encode()
        return tuple(encoded.dictionary.to_pylist()), arrow_numbers(encoded.indices)
    distinct, codes = np.unique(values, return_inverse=True)
    return tuple(distinct.tolist()), codes.reshape(-1)


def code_keys(keys: NDArray[np.uint64]) -> tuple[NDArray[np.uint64], NDArray[np.intp]]:
    """Distinct 64-bit keys and each row's index among them: a hash, or a sort of the keys."""
    pa = arrow()
    if pa is not None:
        encoded = numpy_arrow(keys).dictionary_encode()
        return arrow_numbers(encoded.dictionary), arrow_numbers(encoded.indices)
    distinct = np.unique(keys)
    return distinct, np.searchsorted(distinct, keys)


def code_strings(values: NDArray[np.str_]) -> Codes:
    """Code a numpy str array by its raw fixed-width bytes (no conversion to Python str)."""
    values = np.ascontiguousarray(values)
    n, width = values.size, values.dtype.itemsize // 4
    if n == 0:
        return (), np.zeros(0, np.intp)
    pa = arrow()
    if pa is not None:
        raw = pa.FixedSizeBinaryArray.from_buffers(
            pa.binary(values.dtype.itemsize), n, [None, pa.py_buffer(values)]
        )
        encoded = raw.dictionary_encode()
        words = encoded.dictionary
        distinct = np.frombuffer(
            words.buffers()[1],
            dtype=values.dtype,
            count=len(words),
            offset=words.offset * values.dtype.itemsize,
        )
        return tuple(distinct.tolist()), arrow_numbers(encoded.indices)
    points = values.view(np.uint32).reshape(n, width)
    keys = _exact_keys(points)
    if keys is None:
        keys = _hash_keys(points)
        distinct_keys, codes = code_keys(keys)
        first = np.zeros(distinct_keys.size, dtype=np.intp)
        first[codes[::-1]] = np.arange(n - 1, -1, -1)  # first row of each key
        representatives = values[first]
        if not np.array_equal(representatives[codes], values):  # a hash collision
            distinct, inverse = np.unique(values, return_inverse=True)
            return tuple(distinct.tolist()), inverse.reshape(-1)
        return tuple(representatives.tolist()), codes
    distinct_keys, codes = code_keys(keys)
    first = np.zeros(distinct_keys.size, dtype=np.intp)
    first[codes[::-1]] = np.arange(n - 1, -1, -1)
    return tuple(values[first].tolist()), codes


def _exact_keys(points: NDArray[np.uint32]) -> NDArray[np.uint64] | None:
    """One 64-bit key per string that is equal exactly when the strings are, if they fit:
    up to 8 ASCII characters (8 bits each) or 3 of any (21 bits each)."""
    width = points.shape[1]
    top = int(points.max())
    bits = 8 if top < 256 else 21
    if width * bits > 64:
        return None
    keys = np.zeros(points.shape[0], dtype=np.uint64)
    for column in range(width):
        keys <<= np.uint64(bits)
        keys |= points[:, column]
    return keys


def _hash_keys(points: NDArray[np.uint32]) -> NDArray[np.uint64]:
    """A 64-bit FNV-style hash of each row of code points (collisions are checked after)."""
    keys = np.full(points.shape[0], 0xCBF29CE484222325, dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    for column in range(points.shape[1]):
        keys ^= points[:, column]
        keys *= prime
    return keys
