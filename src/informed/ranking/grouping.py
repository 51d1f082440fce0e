"""Rows to tie groups: the input checks and the one sort behind `Ranking.from_scores`.

Every check names the offending row and value (rows count from 1, as in every message).
Rows without weights are grouped by one sort of each score's order key packed with the
row's outcome into one 64-bit integer (`informed.ranking.keys`). Weighted rows are
grouped by one sort of complex numbers (real part: the negated score; imaginary part:
the weight, negated for an actual negative): the weight travels with its score through
the sort, so no argsort and no gathers are needed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from informed.coding.label_text import (
    bad_text_message,
    check_text_rows,
    is_missing,
    missing_message,
    text_problem,
)
from informed.coding.labels import as_vector, check_one_kind
from informed.errors import InputError, InputTypeError, at_row
from informed.ranking.blocks import BLOCK, blocks, first_index
from informed.ranking.keys import canonical_scores, group_unweighted

__all__ = [
    "NOT_GIVEN",
    "as_numeric",
    "as_scores",
    "as_weights",
    "canonical_scores",
    "check_exact_integers",
    "check_groups",
    "check_listed_integers",
    "count_equal",
    "empty_counts",
    "equal_mask",
    "group_rows",
    "label_array",
    "positive_mask",
    "scores_and_bounds",
    "shown",
]

FloatArray = NDArray[np.float64]
CountArray = NDArray[np.int64] | NDArray[np.float64]

# Integers beyond 2**53 are not all representable in float64; distinct ones could merge.
_EXACT_INT = 1 << 53
_SHOWN_LABELS = 10


class _NotGiven:
    """Marker for an omitted `negative=` (None may be a real label)."""

    def __repr__(self) -> str:
        return "<not given>"


NOT_GIVEN: Any = _NotGiven()


def group_rows(
    scores: FloatArray,
    is_positive: NDArray[np.bool_],
    weights: FloatArray | None,
    bounds: tuple[float, float] | None = None,
) -> tuple[FloatArray, CountArray, CountArray]:
    """Distinct scores (descending, -0.0 as 0.0) with their positive and negative counts.

    Without weights the counts are int64 and the cost is one sort of n uint64 keys. With
    weights, rows of weight 0 are dropped first (they add no group) and counts are float64.
    `bounds`: the scores' lowest and highest value, when known (`scores_and_bounds`).
    """
    if weights is None:
        return group_unweighted(scores, is_positive, bounds)
    keep = weights > 0
    if not keep.all():
        scores, is_positive, weights = scores[keep], is_positive[keep], weights[keep]
    return _group_weighted(scores, is_positive, weights)


def as_numeric(name: str, array: NDArray[Any]) -> NDArray[Any]:
    """Check that an array holds real numbers; object arrays are converted if they can be."""
    kind = array.dtype.kind
    if kind in "biuf":
        return array
    if kind == "O":
        try:
            return array.astype(np.float64)
        except (TypeError, ValueError):
            for row, value in enumerate(array.tolist()):
                try:
                    float(value)
                except (TypeError, ValueError):
                    msg = f"`{name}` must hold real numbers; {at_row(row)} holds {shown(value)}."
                    raise InputTypeError(msg) from None
            raise
    msg = f"`{name}` must hold real numbers; got dtype {array.dtype} (e.g. {array[:1].tolist()})."
    raise InputTypeError(msg)


def as_scores(array: NDArray[Any], *, allow_infinite: bool, name: str = "scores") -> FloatArray:
    """Scores as float64, every value checked; -0.0 left for the grouping to merge."""
    return scores_and_bounds(array, allow_infinite=allow_infinite, name=name)[0]


def scores_and_bounds(
    array: NDArray[Any], *, allow_infinite: bool, name: str = "scores"
) -> tuple[FloatArray, tuple[float, float] | None]:
    """`as_scores`, and the lowest and highest score (None without scores): one pass over
    the scores, block by block, which is also the check (a NaN or an infinite score makes
    one of them so)."""
    check_exact_integers(array, name)
    array = as_numeric(name, array)
    values = np.asarray(array, dtype=np.float64)
    if not values.size:
        return values, None
    # each block's lowest and highest, the second read from the cache (NaN propagates)
    parts = [(values[a:b].min(), values[a:b].max()) for a, b in blocks(values.size)]
    low, high = float(np.min([p[0] for p in parts])), float(np.max([p[1] for p in parts]))
    if math.isfinite(low) and math.isfinite(high):
        return values, (low, high)
    finite = np.isfinite(values)
    if not finite.all():
        bad = ~finite if not allow_infinite else np.isnan(values)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            value = values[row]
            hint = (
                " Pass `allow_infinite=True` to rank infinite scores."
                if not math.isnan(value)
                else ""
            )
            msg = f"`{name}` must be finite; {at_row(row)} holds {shown(value)}.{hint}"
            raise InputError(msg)
    return values, (low, high)


def check_exact_integers(array: NDArray[Any], name: str) -> None:
    """Refuse integers beyond 2**53 in magnitude (int64, uint64, or Python ints of any
    size in an object array): float64 cannot hold them all, and distinct scores could
    merge. Compared as integers, so 2**53 + 1 is caught (as a float it equals 2**53)."""
    kind = array.dtype.kind
    if kind not in "iuO" or not array.size:
        return
    if kind == "O":
        beyond = np.array(
            [
                isinstance(v, int | np.integer)
                and not isinstance(v, bool | np.bool_)
                and abs(int(v)) > _EXACT_INT
                for v in array.ravel().tolist()
            ],
            dtype=bool,
        )
    elif kind == "u":
        beyond = (array > _EXACT_INT).ravel()
    else:
        beyond = ((array > _EXACT_INT) | (array < -_EXACT_INT)).ravel()
    if beyond.any():
        index = int(np.flatnonzero(beyond)[0])
        where = at_row(index) if array.ndim == 1 else at_row(index // array.shape[1])
        value = array.ravel()[index]
        msg = (
            f"`{name}` {where} holds {shown(value)}, an integer beyond 2**53 that "
            "float64 cannot hold exactly (distinct scores could merge); rescale the scores."
        )
        raise InputError(msg)


def check_listed_integers(given: Any, array: NDArray[Any], name: str) -> None:
    """`check_exact_integers` on a list as given: numpy turns [2**63 + 1, 1] into float64
    (rounding it) before any check could see the integer. Only a float array holding a
    value of 2**53 or more is looked at again, element by element."""
    if (
        isinstance(given, list | tuple)
        and array.dtype.kind == "f"
        and array.size
        and bool((np.abs(array) >= _EXACT_INT).any())
    ):
        check_exact_integers(np.array(given, dtype=object), name)


def as_weights(array: NDArray[Any]) -> FloatArray:
    values = np.asarray(as_numeric("weights", array), dtype=np.float64)
    bad = ~(values >= 0) | ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        msg = (
            f"`weights` must be finite and non-negative; {at_row(row)} holds {shown(values[row])}."
        )
        raise InputError(msg)
    return values


def equal_mask(array: NDArray[Any], label: Any) -> NDArray[np.bool_]:
    """Elementwise array == label as a boolean array, by `informed.coding.labels.keyed`: labels of
    different kinds compare unequal (True is not 1, nor "1" 1), as everywhere in informed."""
    wanted = _label_kind(label)
    kind = array.dtype.kind
    if kind != "O" and _ARRAY_KINDS.get(kind) != wanted:
        return np.zeros(array.shape, dtype=bool)
    mask = np.asarray(array == label)
    if mask.shape != array.shape or mask.dtype != np.bool_:
        mask = np.array([value == label for value in array.tolist()], dtype=bool)
    if kind == "O" and wanted != "str" and mask.any():
        # True == 1 in Python: drop the matches of another kind (only matches are looked at).
        hits = np.flatnonzero(mask)
        other = [_label_kind(v) != wanted for v in array[hits].tolist()]
        mask[hits[np.array(other, dtype=bool)]] = False
    return mask


_ARRAY_KINDS = {"b": "bool", "i": "number", "u": "number", "f": "number", "U": "str"}
_TYPED = "biufU"  # arrays whose == is numpy's own, transitive (NaN labels refused before)


def count_equal(array: NDArray[Any], label: Any) -> int:
    """The number of True in `equal_mask(array, label)` for an array of kind "biufU",
    counted block by block in a cache-sized buffer: no mask the size of the array."""
    if _ARRAY_KINDS.get(array.dtype.kind) != _label_kind(label):
        return 0
    buffer = np.empty(min(array.size, BLOCK), dtype=bool)
    return sum(
        int(np.count_nonzero(np.equal(array[low:high], label, out=buffer[: high - low])))
        for low, high in blocks(array.size)
    )


def _mask_counting(array: NDArray[Any], label: Any, other: Any) -> tuple[NDArray[np.bool_], int]:
    """`equal_mask(array, label)` and `count_equal(array, other)` of a typed array whose
    kind is `label`'s, in one read of the array: block by block, the second comparison
    reads the block from the cache."""
    mask = np.empty(array.shape, dtype=bool)
    counted = _ARRAY_KINDS.get(array.dtype.kind) == _label_kind(other)
    buffer = np.empty(min(array.size, BLOCK), dtype=bool)
    count = 0
    for low, high in blocks(array.size):
        part = array[low:high]
        np.equal(part, label, out=mask[low:high])
        if counted:
            count += int(np.count_nonzero(np.equal(part, other, out=buffer[: high - low])))
    return mask, count


def _label_kind(value: Any) -> str | None:
    """bool, number or str (numpy scalars as their Python kind); None for anything else."""
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | float | np.integer | np.floating):
        return "number"
    if isinstance(value, str):
        return "str"
    return None


def _nan_labels(array: NDArray[Any]) -> NDArray[np.bool_]:
    if array.dtype.kind in "fc":
        return np.asarray(np.isnan(array), dtype=bool)
    if array.dtype.kind == "O":
        try:  # elementwise in C: NaN is the one value unequal to itself
            unequal = np.asarray(np.not_equal(array, array), dtype=bool)
            none = np.asarray(np.equal(array, np.array([None], dtype=object)), dtype=bool)
        except TypeError:  # pandas' NA compares to NA, not to a bool
            return np.fromiter(map(is_missing, array.tolist()), dtype=bool, count=array.size)
        return np.asarray(unequal | none, dtype=bool)
    return np.zeros(array.shape, dtype=bool)


def _found_labels(array: NDArray[Any]) -> str:
    try:
        values = np.unique(array).tolist()
    except TypeError:
        values = list(dict.fromkeys(array.tolist()))
    shown = ", ".join(repr(v) for v in values[:_SHOWN_LABELS])
    more = f", ... ({len(values)} in all)" if len(values) > _SHOWN_LABELS else ""
    return f"[{shown}{more}]"


def label_array(actual: Any) -> NDArray[Any]:
    """The `actual` labels as a 1-D array; a list must hold labels of one kind (True is not
    1, nor "1" 1), and a list of plain str, int, float or bool becomes a typed array."""
    if isinstance(actual, list | tuple):
        types = set(map(type, actual))
        if len(types) > 1:
            check_one_kind(actual, "actual")  # the slow check only when the types differ
        elif types <= {str, int, float, bool}:
            check_text_rows(actual, "actual")  # before numpy's <U drops a trailing NUL
            return as_vector(np.asarray(actual), "actual")
    return as_vector(actual, "actual")


def positive_mask(actual: NDArray[Any], positive: Any, negative: Any) -> NDArray[np.bool_]:
    """True where the row is positive; every other row must be the one negative label."""
    nan_rows = _nan_labels(actual) if actual.dtype.kind in "fcO" else None  # else none
    if nan_rows is not None and nan_rows.any():
        row = int(np.flatnonzero(nan_rows)[0])
        raise InputError(missing_message("actual", actual[row], at_row(row)))
    for name, label in (("positive", positive), ("negative", negative)):
        if isinstance(label, str) and text_problem(label):
            msg = f"{name}={shown(label)} cannot be a label: {text_problem(label)}."
            raise InputError(msg)
    # a typed array of the positive label's kind: the rows of the other label counted in
    # the same read as the mask (== is transitive there: no row equals both labels)
    fused = actual.dtype.kind in _TYPED and _ARRAY_KINDS[actual.dtype.kind] == _label_kind(positive)
    if negative is not NOT_GIVEN:
        if equal_mask(np.asarray([negative], dtype=object), positive).any():
            msg = f"`positive` and `negative` must differ; both are {shown(positive)}."
            raise InputError(msg)
        if fused:
            is_positive, negatives = _mask_counting(actual, positive, negative)
        else:
            is_positive = equal_mask(actual, positive)
            negatives = count_equal(actual, negative) if actual.dtype.kind in _TYPED else -1
        if negatives == actual.size - int(np.count_nonzero(is_positive)):
            return is_positive  # every other row is negative: counts will do
        inside = equal_mask(actual, negative)
        np.logical_or(inside, is_positive, out=inside)
        if not inside.all():
            row = int(np.argmin(inside))
            msg = (
                f"`actual` {at_row(row)} holds {shown(actual[row])}, which is neither positive="
                f"{shown(positive)} nor negative={shown(negative)}."
            )
            raise InputError(msg)
        return is_positive
    reference_count = -1  # rows equal to the first other row, where counted
    if fused and actual.dtype.kind != "b":
        first = first_index(lambda a, b: np.not_equal(actual[a:b], positive), 0, actual.size)
        other = actual[first] if first is not None else positive  # none: nothing to count
        is_positive, reference_count = _mask_counting(actual, positive, other)
    else:
        is_positive = equal_mask(actual, positive)
    n_positive = int(np.count_nonzero(is_positive))
    if actual.size and not n_positive:
        msg = (
            f"positive={shown(positive)} does not occur in `actual`, which holds "
            f"{_found_labels(actual)}. Pass the positive label as it appears in `actual` "
            "(1, '1' and True are three labels), or pass `negative=` for data with no positives."
        )
        raise InputError(msg)
    if n_positive < actual.size:
        first = int(np.argmin(is_positive))  # the first other row
        reference = actual[first]
        if isinstance(reference, str) and text_problem(reference):
            raise InputError(bad_text_message("actual", reference, at_row(first)))
        if actual.dtype.kind == "b":  # two values at most
            return is_positive
        # in typed arrays == is transitive, so no row equals both labels: counting will do
        if reference_count < 0 and actual.dtype.kind in _TYPED:
            reference_count = count_equal(actual, reference)
        if n_positive + reference_count == actual.size:
            return is_positive
        same = equal_mask(actual, reference)
        third = ~is_positive & ~same
        if third.any():
            row = int(np.argmax(third))
            msg = (
                f"`actual` must hold two classes, positive={shown(positive)} and one other; "
                f"{at_row(row)} holds {shown(actual[row])} besides {shown(reference)}. Found "
                f"{_found_labels(actual)}; use `Ranking.one_vs_rest` for more classes."
            )
            raise InputError(msg)
    return is_positive


def check_groups(
    scores: ArrayLike, positives: ArrayLike, negatives: ArrayLike
) -> tuple[FloatArray, CountArray, CountArray]:
    """Validate counts given directly; return canonical copies (float64, int64 or float64)."""
    score_array = as_vector(scores, "scores", labels=False)
    positive_array = as_vector(positives, "positives", labels=False)
    negative_array = as_vector(negatives, "negatives", labels=False)
    if not (score_array.size == positive_array.size == negative_array.size):
        msg = (
            "`scores`, `positives` and `negatives` must have one entry per group; got "
            f"{score_array.size}, {positive_array.size} and {negative_array.size}."
        )
        raise InputError(msg)
    score_values = np.array(as_numeric("scores", score_array), dtype=np.float64)
    if np.isnan(score_values).any():
        row = int(np.flatnonzero(np.isnan(score_values))[0])
        msg = f"`scores` must not be NaN; group {row} is."
        raise InputError(msg)
    if score_values.size > 1 and not (score_values[:-1] > score_values[1:]).all():
        row = int(np.flatnonzero(~(score_values[:-1] > score_values[1:]))[0]) + 1
        msg = (
            "`scores` must be distinct and strictly descending; group "
            f"{row} holds {shown(score_values[row])} after {shown(score_values[row - 1])}."
        )
        raise InputError(msg)
    kinds = {as_numeric("positives", positive_array).dtype.kind}
    kinds.add(as_numeric("negatives", negative_array).dtype.kind)
    integer = kinds <= set("biu")
    counts: list[CountArray] = []
    for name, array in (("positives", positive_array), ("negatives", negative_array)):
        values: CountArray = (
            np.array(array, dtype=np.int64) if integer else np.array(array, dtype=np.float64)
        )
        bad = ~(values >= 0) if integer else ~(values >= 0) | ~np.isfinite(values)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            msg = (
                f"`{name}` must be finite and non-negative; group {row} holds {shown(values[row])}."
            )
            raise InputError(msg)
        counts.append(np.add(values, 0, dtype=values.dtype))  # -0.0 weights become 0.0
    empty = (counts[0] == 0) & (counts[1] == 0)
    if empty.any():
        row = int(np.flatnonzero(empty)[0])
        msg = (
            f"Group {row} (score {shown(score_values[row])}) has no positives and no "
            "negatives; drop it."
        )
        raise InputError(msg)
    return canonical_scores(score_values), counts[0], counts[1]


def empty_counts(weighted: bool) -> CountArray:
    """No groups' counts: float64 for weights, int64 for counts."""
    return np.empty(0, dtype=np.float64) if weighted else np.empty(0, dtype=np.int64)


def shown(value: Any) -> str:
    """repr of a value as the user wrote it: numpy scalars shown as Python values."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _group_weighted(
    scores: FloatArray, is_positive: NDArray[np.bool_], weights: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Distinct scores (descending) with positive and negative weights, by one sort.

    Complex numbers sort by real part, then imaginary part: the real part -score orders
    the rows by descending score, and the imaginary part carries the row's (positive)
    weight, negated for an actual negative, so each group's sums are read off in place.
    """
    n = scores.size
    if n == 0:
        return np.empty(0), np.empty(0), np.empty(0)
    pairs = np.empty(n, dtype=np.complex128)
    np.negative(scores, out=pairs.real)
    pairs.imag = np.where(is_positive, weights, np.negative(weights))
    pairs.sort()
    ordered = pairs.real
    signed = pairs.imag
    starts = np.flatnonzero(ordered[1:] != ordered[:-1])  # -0.0 == 0.0: one group
    starts += 1
    starts = np.concatenate(([0], starts))
    positives = np.add.reduceat(np.maximum(signed, 0.0), starts)
    negatives = np.add.reduceat(np.maximum(np.negative(signed), 0.0), starts)
    return canonical_scores(np.negative(ordered[starts])), positives, negatives
