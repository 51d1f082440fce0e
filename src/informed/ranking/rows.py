"""Rows to a Ranking's tie groups and classes, two Rankings' groups merged, and the
smallest and largest class of Arbel & Rokach's Tables 8 and 9.

`Ranking.from_scores` wraps `two_class_groups` (one positive class against one other),
`Ranking.one_vs_rest` wraps `one_vs_rest_groups` (one Ranking per column of a score
matrix), `Ranking.__add__` wraps `merge_groups`; this module holds their checks, so that
the Ranking's own module stays small.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, TypeVar

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label, as_vector
from informed.errors import InputError, InputTypeError, at_row
from informed.ranking.classes import check_classes
from informed.ranking.grouping import (
    NOT_GIVEN,
    as_numeric,
    as_weights,
    canonical_scores,
    check_exact_integers,
    check_listed_integers,
    equal_mask,
    group_rows,
    label_array,
    positive_mask,
    scores_and_bounds,
    shown,
)
from informed.ranking.groups import CountArray, FloatArray


class _Sized(Protocol):
    """What the class selections read of a Ranking (which imports this module)."""

    @property
    def n_positive(self) -> int | float: ...


__all__ = [
    "Tree",
    "check_lengths",
    "largest_class",
    "merge_groups",
    "merge_tree",
    "one_vs_rest_groups",
    "runs_order",
    "smallest_class",
    "two_class_groups",
]

ClassLabel = TypeVar("ClassLabel", bound=Hashable)
Grouped = tuple[FloatArray, CountArray, CountArray]
Tree: TypeAlias = int | tuple["Tree", "Tree"]
"""Parts merged a pair at a time: a part's index, or the pair (left, right) merged."""


def two_class_groups(
    actual: Any, scores: Any, positive: Any, negative: Any, weights: Any, allow_infinite: bool
) -> tuple[Grouped, tuple[Label | None, Label | None]]:
    """The tie groups of rows of `positive` against one other class, and the checked
    (positive, negative) classes: `negative` as given, else the other label seen (None
    when every row is positive)."""
    actual_array = label_array(actual)
    score_array = as_vector(scores, "scores", labels=False)
    check_listed_integers(scores, score_array, "scores")
    weight_array = None if weights is None else as_vector(weights, "weights", labels=False)
    check_lengths(actual=actual_array.size, scores=score_array.size, weights=weight_array)
    score_values, bounds = scores_and_bounds(score_array, allow_infinite=allow_infinite)
    is_positive = positive_mask(actual_array, positive, negative)
    if negative is NOT_GIVEN:
        other = int(np.argmin(is_positive)) if is_positive.size else 0  # the first False
        negative = None if other >= is_positive.size or is_positive[other] else actual_array[other]
    weight_values = None if weight_array is None else as_weights(weight_array)
    grouped = group_rows(score_values, is_positive, weight_values, bounds)
    return grouped, check_classes(positive, negative)


def runs_order(negated: FloatArray, runs: int, *, in_order: bool) -> NDArray[np.intp]:
    """The order that sorts `negated` (`runs` ascending runs one after the other), equal
    values in the order of the runs if `in_order` (float weights, added in that order).

    A stable sort merges the runs (numpy's stable sort finds them): a merge per pair for
    a few runs, faster than any sort; counts add up exactly in any order, and past 16 runs
    a quicksort (vectorised) is faster (10^7 scores in 32 runs: 0.25 s of CPU, not 0.33 s;
    in 100, 0.23 s, not 0.47 s).
    """
    return np.argsort(negated, kind="stable" if in_order or runs <= 16 else "quicksort")


def merge_groups(*parts: Grouped) -> Grouped:
    """The union of Rankings' scores (each descending), counts added where a score is in
    several (in the order of the parts)."""
    scores = np.concatenate([part[0] for part in parts])
    counts = all(part[1].dtype.kind in "iu" for part in parts)
    order = runs_order(np.negative(scores), len(parts), in_order=not counts)
    ordered = scores[order]
    positives = np.concatenate([part[1] for part in parts])[order]
    negatives = np.concatenate([part[2] for part in parts])[order]
    same = ordered[1:] == ordered[:-1]
    if not same.any():  # no score in two parts: nothing to add (continuous scores, mostly)
        return canonical_scores(ordered), positives, negatives
    twice = np.flatnonzero(same)
    if np.any(twice[1:] == twice[:-1] + 1):  # a score thrice: added in order by reduceat
        starts = np.flatnonzero(np.concatenate(([True], ~same)))
        return (
            canonical_scores(ordered[starts]),
            np.add.reduceat(positives, starts),
            np.add.reduceat(negatives, starts),
        )
    positives[twice] += positives[twice + 1]
    negatives[twice] += negatives[twice + 1]
    keep = np.ones(ordered.size, dtype=bool)
    keep[twice + 1] = False
    return canonical_scores(ordered[keep]), positives[keep], negatives[keep]


def merge_tree(tree: Tree, parts: Mapping[int, Grouped]) -> Grouped | None:
    """The groups `merge_groups` gives when the parts are merged a pair at a time as
    `tree` says (a part absent from `parts`, or without groups, is left out of its pair:
    its partner passes on as it is), by one sort of all of them.

    Counts add up exactly in any order, but float weights do not: the pairs decide how
    a score's weights are added. A score in one part alone is never added to anything,
    so one sort of every part's groups places those; the few scores in several parts
    (none, for continuous scores) are merged pair by pair as the tree says, each score's
    sums depending on its own weights alone, and put in their place by a merge of the
    two sorted runs. Where most scores are in several parts, the parts are merged pair by
    pair. None where no part has a group.
    """
    kept = [i for i in _leaves(tree) if i in parts and parts[i][0].size]
    if len(kept) <= 1:
        return parts[kept[0]] if kept else None
    scores = np.concatenate([parts[i][0] for i in kept])
    order = np.argsort(np.negative(scores), kind="stable" if len(kept) <= 16 else "quicksort")
    ordered = scores[order]
    same = ordered[1:] == ordered[:-1]
    if not same.any():  # no score in two parts: the union of the groups, nothing added
        positives = np.concatenate([parts[i][1] for i in kept])[order]
        negatives = np.concatenate([parts[i][2] for i in kept])[order]
        return ordered, positives, negatives
    shared = np.zeros(ordered.size, dtype=bool)
    shared[1:] = same
    shared[:-1] |= same
    if 2 * int(np.count_nonzero(shared)) > ordered.size:
        return _pairwise(tree, parts)
    in_several = np.empty(ordered.size, dtype=bool)
    in_several[order] = shared
    split = np.cumsum([parts[i][0].size for i in kept])[:-1]
    several = dict(zip(kept, np.split(in_several, split), strict=True))
    merged = _pairwise(
        tree,
        {i: tuple(a[several[i]] for a in parts[i]) for i in kept},
    )
    assert merged is not None
    once = order[~shared]
    scores = np.concatenate((scores[once], merged[0]))
    positives = np.concatenate((np.concatenate([parts[i][1] for i in kept])[once], merged[1]))
    negatives = np.concatenate((np.concatenate([parts[i][2] for i in kept])[once], merged[2]))
    order = np.argsort(np.negative(scores), kind="stable")  # two runs, no score in both
    return scores[order], positives[order], negatives[order]


def _leaves(tree: Tree) -> list[int]:
    return [tree] if isinstance(tree, int) else [*_leaves(tree[0]), *_leaves(tree[1])]


def _pairwise(tree: Tree, parts: Mapping[int, Grouped]) -> Grouped | None:
    """The parts merged a pair at a time as `tree` says (`merge_tree`)."""
    if isinstance(tree, int):
        found = parts.get(tree)
        return found if found is not None and found[0].size else None
    left, right = _pairwise(tree[0], parts), _pairwise(tree[1], parts)
    if left is None or right is None:
        return left if right is None else right
    return merge_groups(left, right)


def one_vs_rest_groups(
    actual: Any,
    scores: Any,
    classes: Sequence[ClassLabel],
    weights: Any,
    allow_infinite: bool,
) -> list[tuple[ClassLabel, Grouped]]:
    """For each class k: the tie groups of column k, rows of class k positive."""
    if isinstance(classes, str | bytes) or not isinstance(classes, Sequence):
        msg = f"`classes` must be a sequence of labels (a list); got {type(classes).__name__}."
        raise InputTypeError(msg)
    class_list = list(classes)
    if len(set(class_list)) != len(class_list):
        duplicate = next(c for i, c in enumerate(class_list) if c in class_list[:i])
        msg = f"`classes` must be distinct; {duplicate!r} appears twice."
        raise InputError(msg)
    actual_array = label_array(actual)
    if isinstance(scores, str | bytes):
        msg = "`scores` must be a 2-D array of scores; got a string."
        raise InputTypeError(msg)
    matrix = np.asarray(scores)
    if matrix.ndim != 2:
        msg = f"`scores` must be 2-D with one column per class; got shape {matrix.shape}."
        raise InputError(msg)
    if matrix.shape[1] != len(class_list):
        msg = (
            f"`scores` has {matrix.shape[1]} columns but `classes` names "
            f"{len(class_list)}; give one class per column."
        )
        raise InputError(msg)
    weight_array = None if weights is None else as_vector(weights, "weights", labels=False)
    check_lengths(actual=actual_array.size, scores=matrix.shape[0], weights=weight_array)
    check_exact_integers(matrix, "scores")
    check_listed_integers(scores, matrix, "scores")
    values = as_numeric("scores", matrix).astype(np.float64)
    finite = np.isfinite(values) if not allow_infinite else ~np.isnan(values)
    if not finite.all():
        row, column = (int(i) for i in np.argwhere(~finite)[0])
        hint = "" if allow_infinite else " (pass `allow_infinite=True` to rank +-inf)"
        msg = (
            f"`scores` must be finite{hint}; {at_row(row)}, column {column} "
            f"(class {class_list[column]!r}) holds {shown(values[row, column])}."
        )
        raise InputError(msg)
    masks = [equal_mask(actual_array, c) for c in class_list]
    matched = np.sum(masks, axis=0, dtype=np.int64) if masks else np.zeros(0, np.int64)
    if actual_array.size and not matched.all():
        row = int(np.flatnonzero(matched == 0)[0])
        msg = (
            f"`actual` {at_row(row)} holds {shown(actual_array[row])}, which is not among "
            f"`classes` {class_list!r}."
        )
        raise InputError(msg)
    weight_values = None if weight_array is None else as_weights(weight_array)
    return [
        (label, group_rows(np.ascontiguousarray(values[:, k]), mask, weight_values))
        for k, (label, mask) in enumerate(zip(class_list, masks, strict=True))
    ]


def check_lengths(*, actual: int, scores: int, weights: NDArray[Any] | None) -> None:
    """actual, scores (and weights) have one entry per row."""
    lengths = {"actual": actual, "scores": scores}
    if weights is not None:
        lengths["weights"] = weights.size
    if len(set(lengths.values())) > 1:
        found = ", ".join(f"{name} {size}" for name, size in lengths.items())
        msg = f"Found input variables with inconsistent numbers of samples: {found}."
        raise InputError(msg)


def smallest_class(rankings: Mapping[ClassLabel, _Sized]) -> ClassLabel:
    """The class with the fewest actual instances (n+ of its one-vs-rest Ranking).

    Arbel & Rokach's Table 8 reports every measure "for the smallest class": the one-vs-rest
    Ranking of the least frequent class present in the test set. Classes absent from the
    data (n+ = 0) are skipped; ties go to the first class in `rankings` order.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.one_vs_rest(actual=["a", "b", "b"], scores=[[.9, .1], [.2, .8], [.4, .6]],
    ...                         classes=["a", "b"])
    >>> smallest_class(r), largest_class(r)
    ('a', 'b')
    """
    return _select_class(rankings, largest=False)


def largest_class(rankings: Mapping[ClassLabel, _Sized]) -> ClassLabel:
    """The class with the most actual instances (Arbel & Rokach's Table 9); ties go to the first."""
    return _select_class(rankings, largest=True)


def _select_class(rankings: Mapping[ClassLabel, _Sized], *, largest: bool) -> ClassLabel:
    present = [(label, r.n_positive) for label, r in rankings.items() if r.n_positive > 0]
    if not present:
        msg = "No class has an actual instance; the smallest and largest class are undefined."
        raise InputError(msg)
    best_label, best_size = present[0]
    for label, size in present[1:]:
        if (size > best_size) if largest else (size < best_size):
            best_label, best_size = label, size
    return best_label
