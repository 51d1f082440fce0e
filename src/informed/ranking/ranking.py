"""The Ranking: scores with actual outcomes, summarised by tie group.

A `Ranking` holds, for each distinct score in descending order, the (weighted) number of
actual positives and actual negatives that carry it, and the float64 group arrays its
curves and summaries share (`informed.ranking.groups`, built once). Every curve and
summary of Arbel & Rokach (quota-limited evaluation) and of ROC analysis is a pure
function of it, computed exactly under ties, in the modules beside this one; the input
checks and the sort are in `informed.ranking.grouping`. Rankings merge with `+` (union of
scores, counts added) and round-trip through JSON without loss. User guide:
docs/ranking.md.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from informed._common import loads_strict, readonly
from informed.columns import frame_column
from informed.errors import InputError, InputTypeError, at_row
from informed.labels import as_vector
from informed.ranking.display import ranking_html
from informed.ranking.grouping import (
    NOT_GIVEN,
    as_numeric,
    as_scores,
    as_weights,
    canonical_scores,
    check_groups,
    empty_counts,
    equal_mask,
    group_rows,
    label_array,
    positive_mask,
    shown,
)
from informed.ranking.groups import CountArray, FloatArray, Groups, build_groups
from informed.ranking.operating import OperatingPoints
from informed.ranking.schema import JSON_KIND, JSON_VERSION, decode_ranking, encode_scores

__all__ = ["Ranking", "groups_of", "largest_class", "smallest_class"]

ClassLabel = TypeVar("ClassLabel", bound=Hashable)


@dataclass(frozen=True, eq=False)
class Ranking(OperatingPoints):
    """Distinct scores, descending, with the (weighted) actual positives and negatives at each.

    Parameters
    ----------
    scores : array-like of float
        Distinct scores in strictly descending order (float64; +-inf allowed, NaN not).
    positives, negatives : array-like of int or float
        For each score, the number (int64) or total weight (float64) of actual positives
        and of actual negatives carrying it. Both non-negative, finite, and not both zero.

    Notes
    -----
    Build it from rows with `Ranking.from_scores`; the constructor takes counts given
    directly (validated). Equality is by value and by weight mode: a Ranking with integer
    counts never equals one with float counts. -0.0 and 0.0 are one score. Rankings are
    frozen; their arrays are read-only.

    The cost of building one from n rows is one sort of n 64-bit keys (scores and outcome
    packed together, exact), plus a few linear passes; see `benchmarks/bench_ranking.py`.

    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[0.9, 0.9, 0.5, 0.1], positive=1)
    >>> r.scores.tolist(), r.positives.tolist(), r.negatives.tolist()
    ([0.9, 0.5, 0.1], [1, 1, 0], [1, 0, 1])
    """

    scores: FloatArray
    positives: CountArray
    negatives: CountArray

    def __post_init__(self) -> None:
        scores, positives, negatives = check_groups(self.scores, self.positives, self.negatives)
        object.__setattr__(self, "scores", readonly(scores))
        object.__setattr__(self, "positives", readonly(positives))
        object.__setattr__(self, "negatives", readonly(negatives))

    # -- construction ---------------------------------------------------------------

    @classmethod
    def _trusted(cls, scores: FloatArray, positives: CountArray, negatives: CountArray) -> Ranking:
        """Wrap arrays built by this module (already canonical) without re-validating them."""
        ranking = cls.__new__(cls)
        object.__setattr__(ranking, "scores", readonly(scores))
        object.__setattr__(ranking, "positives", readonly(positives))
        object.__setattr__(ranking, "negatives", readonly(negatives))
        return ranking

    @classmethod
    def empty(cls, *, weighted: bool = False) -> Ranking:
        """The Ranking of no rows: the identity of `+`.

        >>> Ranking.empty().n_groups
        0
        """
        return cls._trusted(np.empty(0), empty_counts(weighted), empty_counts(weighted))

    @classmethod
    def from_scores(
        cls,
        *,
        actual: ArrayLike,
        scores: ArrayLike,
        positive: Any,
        negative: Any = NOT_GIVEN,
        weights: ArrayLike | None = None,
        allow_infinite: bool = False,
    ) -> Ranking:
        """Summarise rows of (actual outcome, score[, weight]) by distinct score.

        Parameters
        ----------
        actual : array-like, 1-D
            The actual class of each row. Rows equal to `positive` are positives; every
            other row must hold one and the same other label (or `negative`, if given).
        scores : array-like of real numbers, 1-D
            The score of each row; higher means more likely positive. NaN is an error; so
            is +-inf unless `allow_infinite=True`.
        positive : label
            The positive class, as it appears in `actual`.
        negative : label, optional
            The negative class. When given, every row must be `positive` or `negative` and
            neither needs to occur (for a chunk of a larger data set). When omitted,
            `positive` must occur in `actual`, and at most one other label may.
        weights : array-like of non-negative finite numbers, optional
            Frequency weights: an integer weight w counts a row w times, weight 0 removes
            it (its score adds no group). With weights, counts are float64.
        allow_infinite : bool
            Accept +-inf scores (they are totally ordered; JSON encodes them explicitly).

        Returns
        -------
        Ranking

        Raises
        ------
        InputTypeError
            A bare string, scalar or unordered container where an array is expected;
            non-numeric scores or weights; labels of mixed types in a list.
        InputError
            Arrays of different lengths; a row vector; a NaN or infinite score, a label
            outside {positive, negative}, a NaN label, a negative, NaN or infinite weight:
            each message names the first offending row and its value.

        Notes
        -----
        Without weights the counts are exact int64 whatever the score dtype. With float
        weights each count is a float64 sum whose last bits may depend on the row order;
        integer-valued weights (below 2**53) are exact in any order.

        >>> r = Ranking.from_scores(actual=["y", "n", "n"], scores=[2, 1, 1], positive="y")
        >>> r.n_positive, r.n_negative, r.n_groups
        (1, 2, 2)
        """
        actual_array = label_array(actual)
        score_array = as_vector(scores, "scores", labels=False)
        weight_array = None if weights is None else as_vector(weights, "weights", labels=False)
        _check_lengths(actual=actual_array.size, scores=score_array.size, weights=weight_array)
        score_values = as_scores(score_array, allow_infinite=allow_infinite)
        is_positive = positive_mask(actual_array, positive, negative)
        weight_values = None if weight_array is None else as_weights(weight_array)
        return cls._trusted(*group_rows(score_values, is_positive, weight_values))

    @classmethod
    def from_frame(cls, frame: Any, *, actual: str, score: str, **options: Any) -> Ranking:
        """`from_scores` on the named columns of a DataFrame (see `Table.from_frame`);
        `weights=` names a column too, the other options are those of `from_scores`.

        >>> Ranking.from_frame({"y": [1, 0, 0], "s": [0.9, 0.2, 0.2]}, actual="y",
        ...                    score="s", positive=1).n_groups
        2
        """
        if options.get("weights") is not None:
            options["weights"] = frame_column(frame, options["weights"], "weights")
        return cls.from_scores(
            actual=frame_column(frame, actual, "actual"),
            scores=frame_column(frame, score, "score"),
            **options,
        )

    @classmethod
    def one_vs_rest(
        cls,
        *,
        actual: ArrayLike,
        scores: ArrayLike,
        classes: Sequence[ClassLabel],
        weights: ArrayLike | None = None,
        allow_infinite: bool = False,
    ) -> dict[ClassLabel, Ranking]:
        """One Ranking per class from a score matrix: class k against all the others.

        Parameters
        ----------
        actual : array-like, 1-D, length n
            The actual class of each row; each must be one of `classes`.
        scores : array-like, shape (n, K)
            Column k scores membership of `classes[k]` (probabilities or any real scores;
            rows need not sum to 1).
        classes : sequence of K distinct labels
            The class named by each column.
        weights, allow_infinite
            As in `from_scores`.

        Returns
        -------
        dict
            class -> Ranking of that class's column, positives = rows of that class.

        Notes
        -----
        This is Arbel & Rokach's adaptation to more than two classes ("comparing one
        class to all the others", section 2.2.1). Their Tables 8 and 9 report the measures of the
        smallest and of the largest class: see `smallest_class` and `largest_class`.

        >>> rankings = Ranking.one_vs_rest(
        ...     actual=["a", "b", "c"], scores=[[.8, .1, .1], [.3, .6, .1], [.2, .2, .6]],
        ...     classes=["a", "b", "c"])
        >>> from informed.ranking import auc
        >>> [float(auc(r)) for r in rankings.values()]
        [1.0, 1.0, 1.0]
        """
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
        _check_lengths(actual=actual_array.size, scores=matrix.shape[0], weights=weight_array)
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
        return {
            label: cls._trusted(
                *group_rows(np.ascontiguousarray(values[:, k]), mask, weight_values)
            )
            for k, (label, mask) in enumerate(zip(class_list, masks, strict=True))
        }

    # -- sizes ------------------------------------------------------------------------

    @property
    def weighted(self) -> bool:
        """True when the counts are float64 weights, False for int64 counts."""
        return bool(self.positives.dtype.kind == "f")

    @property
    def n_groups(self) -> int:
        """The number of distinct scores (tie groups)."""
        return int(self.scores.size)

    @property
    def n_positive(self) -> int | float:
        """n+: the (weighted) number of actual positives."""
        return self._totals[0]

    @property
    def n_negative(self) -> int | float:
        """n-: the (weighted) number of actual negatives."""
        return self._totals[1]

    @property
    def n(self) -> int | float:
        """n: the (weighted) number of rows."""
        return self._totals[0] + self._totals[1]

    @cached_property
    def _totals(self) -> tuple[int, int] | tuple[float, float]:
        """(n+, n-): exact integers for counts; for weights, the curves' own float sums."""
        if self.weighted:
            groups = self._groups
            return groups.n_positive, groups.n_negative
        return int(np.sum(self.positives)), int(np.sum(self.negatives))

    @cached_property
    def _groups(self) -> Groups:
        """Float64 group arrays shared by the curves and summaries (built once)."""
        return build_groups(self.positives, self.negatives)

    def _cuts(self) -> tuple[FloatArray, Groups, bool]:
        """What the threshold methods (`best_threshold`, `at_threshold`) read."""
        return self.scores, self._groups, self.weighted

    # -- value semantics --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ranking):
            return NotImplemented
        return (
            self.weighted == other.weighted
            and np.array_equal(self.scores, other.scores)
            and np.array_equal(self.positives, other.positives)
            and np.array_equal(self.negatives, other.negatives)
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.weighted,
                self.scores.tobytes(),
                self.positives.tobytes(),
                self.negatives.tobytes(),
            )
        )

    def __repr__(self) -> str:
        kind = "weighted" if self.weighted else "counts"
        return (
            f"Ranking({self.n_groups} groups, n={self.n}, n+={self.n_positive}, "
            f"n-={self.n_negative}, {kind})"
        )

    def _repr_html_(self) -> str:
        """A notebook's view: the sizes and the first and last tie groups (escaped)."""
        return ranking_html(self.scores, self.positives, self.negatives)

    def __add__(self, other: object) -> Ranking:
        """Merge: the union of the scores, counts added where a score is in both.

        Both must have the same weight mode (both counts or both weights): a mismatch
        usually means two parts of one data set were read differently.

        >>> a = Ranking.from_scores(actual=[1, 0], scores=[0.9, 0.5], positive=1)
        >>> b = Ranking.from_scores(actual=[1, 0], scores=[0.5, 0.1], positive=1)
        >>> (a + b).positives.tolist(), (a + b).negatives.tolist()
        ([1, 1, 0], [0, 1, 1])
        """
        if not isinstance(other, Ranking):
            return NotImplemented
        if self.weighted != other.weighted:
            msg = (
                "Cannot merge a Ranking of float weights with one of integer counts; build "
                "both with `weights=` (or both without) so that the parts agree."
            )
            raise InputError(msg)
        if other.n_groups == 0:
            return self
        if self.n_groups == 0:
            return other
        scores = np.concatenate([self.scores, other.scores])
        # Both inputs are descending, so a stable sort of -scores merges two runs.
        order = np.argsort(-scores, kind="stable")
        ordered = scores[order]
        starts = np.concatenate(([0], np.flatnonzero(ordered[1:] != ordered[:-1]) + 1))
        positives = np.add.reduceat(
            np.concatenate([self.positives, other.positives])[order], starts
        )
        negatives = np.add.reduceat(
            np.concatenate([self.negatives, other.negatives])[order], starts
        )
        return Ranking._trusted(canonical_scores(ordered[starts]), positives, negatives)

    # -- JSON -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: scores as JSON numbers, +-inf as the strings "Infinity"/"-Infinity".

        >>> Ranking.from_scores(actual=[1, 0], scores=[1.5, -2], positive=1).to_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'kind': 'informed.Ranking', 'schema_version': 1, 'weighted': False,
         'scores': [1.5, -2.0], 'positives': [1, 0], 'negatives': [0, 1]}
        """
        return {
            "kind": JSON_KIND,
            "schema_version": JSON_VERSION,
            "weighted": self.weighted,
            "scores": encode_scores(self.scores),
            "positives": self.positives.tolist(),
            "negatives": self.negatives.tolist(),
        }

    def to_json(self) -> str:
        """Serialise without loss (floats by their shortest round-tripping repr, no NaN).

        >>> r = Ranking.from_scores(actual=[1, 0], scores=[0.1, 0.2], positive=1)
        >>> Ranking.from_json(r.to_json()) == r
        True
        """
        return json.dumps(self.to_dict(), separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ranking:
        """Rebuild a Ranking from `to_dict()` output, validating every field."""
        scores, positives, negatives = decode_ranking(data)
        return cls(scores=scores, positives=positives, negatives=negatives)

    @classmethod
    def from_json(cls, text: str | bytes) -> Ranking:
        """Rebuild a Ranking from `to_json()` output."""
        try:
            data = loads_strict(text, "a Ranking JSON document", constants=True)
        except json.JSONDecodeError as error:
            msg = f"Not valid JSON: {error}."
            raise InputError(msg) from error
        return cls.from_dict(data)


def groups_of(ranking: Ranking) -> Groups:
    """The float64 group arrays the curves and summaries share (built once per Ranking)."""
    return ranking._groups


# -- multiclass selections -------------------------------------------------------------


def smallest_class(rankings: Mapping[ClassLabel, Ranking]) -> ClassLabel:
    """The class with the fewest actual instances (n+ of its one-vs-rest Ranking).

    Arbel & Rokach's Table 8 reports every measure "for the smallest class": the one-vs-rest
    Ranking of the least frequent class present in the test set. Classes absent from the
    data (n+ = 0) are skipped; ties go to the first class in `rankings` order.

    >>> r = Ranking.one_vs_rest(actual=["a", "b", "b"], scores=[[.9, .1], [.2, .8], [.4, .6]],
    ...                         classes=["a", "b"])
    >>> smallest_class(r), largest_class(r)
    ('a', 'b')
    """
    return _select_class(rankings, largest=False)


def largest_class(rankings: Mapping[ClassLabel, Ranking]) -> ClassLabel:
    """The class with the most actual instances (Arbel & Rokach's Table 9); ties go to the first."""
    return _select_class(rankings, largest=True)


def _select_class(rankings: Mapping[ClassLabel, Ranking], *, largest: bool) -> ClassLabel:
    present = [(label, r.n_positive) for label, r in rankings.items() if r.n_positive > 0]
    if not present:
        msg = "No class has an actual instance; the smallest and largest class are undefined."
        raise InputError(msg)
    best_label, best_size = present[0]
    for label, size in present[1:]:
        if (size > best_size) if largest else (size < best_size):
            best_label, best_size = label, size
    return best_label


def _check_lengths(*, actual: int, scores: int, weights: NDArray[Any] | None) -> None:
    lengths = {"actual": actual, "scores": scores}
    if weights is not None:
        lengths["weights"] = weights.size
    if len(set(lengths.values())) > 1:
        found = ", ".join(f"{name} {size}" for name, size in lengths.items())
        msg = f"Found input variables with inconsistent numbers of samples: {found}."
        raise InputError(msg)
