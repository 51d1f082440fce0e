"""The Ranking: scores with actual outcomes, summarised by tie group.

A `Ranking` holds, for each distinct score in descending order, the (weighted) number of
actual positives and actual negatives that carry it, and the float64 group arrays its
curves and summaries share (`informed.ranking.groups`, built once). Every curve and
summary of Arbel & Rokach (quota-limited evaluation) and of ROC analysis is a pure
function of it, computed exactly under ties, in the modules beside this one; the input
checks and the sort are in `informed.ranking.grouping`. A Ranking knows its positive class
(and its negative one, where there is one: `informed.ranking.classes`). Rankings of one
class merge with `+` (union of scores, counts added; `sum(rankings)` works) and round-trip
through JSON without loss. User guide: docs/ranking.md.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np

from informed._common import loads_strict, readonly
from informed.coding.labels import Label, keyed
from informed.errors import InputError, InputTypeError
from informed.ranking.calls import MISSING, call_arguments, frame_arguments
from informed.ranking.classes import check_classes, merged_classes, table_labels
from informed.ranking.display import ranking_html
from informed.ranking.grouping import NOT_GIVEN, check_groups, empty_counts
from informed.ranking.groups import CountArray, FloatArray, Groups, build_groups, groups_of
from informed.ranking.methods import RankingMeasures
from informed.ranking.operating import OperatingPoints
from informed.ranking.rows import merge_groups, one_vs_rest_groups, two_class_groups
from informed.ranking.schema import (
    JSON_KIND,
    JSON_VERSION,
    decode_classes,
    decode_ranking,
    encode_scores,
)

__all__ = ["Ranking", "groups_of"]

ClassLabel = TypeVar("ClassLabel", bound=Hashable)


@dataclass(frozen=True, eq=False)
class Ranking(OperatingPoints, RankingMeasures):
    """Distinct scores, descending, with the (weighted) actual positives and negatives at each.

    Parameters
    ----------
    scores : array-like of float
        Distinct scores in strictly descending order (float64; +-inf allowed, NaN not).
    positives, negatives : array-like of int or float
        For each score, the number (int64) or total weight (float64) of actual positives
        and of actual negatives carrying it. Both non-negative, finite, and not both zero.
    positive, negative : label or None
        The classes counted: the positive class, and the negative one where there is a
        single one. None is unknown (not named, or not seen; for `negative`, also "all
        the other classes"): see `informed.ranking.classes`.

    Notes
    -----
    Build it from rows with `Ranking.from_scores`; the constructor takes counts given
    directly (validated). Equality is by value, by weight mode and by class: a Ranking
    with integer counts never equals one with float counts, nor one of class 1 one of
    class True. -0.0 and 0.0 are one score. Rankings are frozen; their arrays are
    read-only. The measures of the registry are methods too: ``r.auc()``, ``r.pem()``,
    ``r.average_hit_rate()``, ``r.hit_rate(J)``... (`informed.ranking.methods`).

    The cost of building one from n rows is one sort of n 64-bit keys (scores and outcome
    packed together, exact), plus a few linear passes; see `benchmarks/bench_ranking.py`.

    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[0.9, 0.9, 0.5, 0.1], positive=1)
    >>> r.scores.tolist(), r.positives.tolist(), r.negatives.tolist()
    ([0.9, 0.5, 0.1], [1, 1, 0], [1, 0, 1])
    """

    scores: FloatArray
    positives: CountArray
    negatives: CountArray
    positive: Label | None = field(default=None, kw_only=True)
    negative: Label | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        scores, positives, negatives = check_groups(self.scores, self.positives, self.negatives)
        positive, negative = check_classes(self.positive, self.negative)
        object.__setattr__(self, "scores", readonly(scores))
        object.__setattr__(self, "positives", readonly(positives))
        object.__setattr__(self, "negatives", readonly(negatives))
        object.__setattr__(self, "positive", positive)
        object.__setattr__(self, "negative", negative)

    # -- construction ---------------------------------------------------------------

    @classmethod
    def _trusted(
        cls,
        scores: FloatArray,
        positives: CountArray,
        negatives: CountArray,
        *,
        classes: tuple[Label | None, Label | None],
    ) -> Ranking:
        """Wrap arrays built by this module (already canonical) and checked classes
        without re-validating them."""
        ranking = cls.__new__(cls)
        object.__setattr__(ranking, "scores", readonly(scores))
        object.__setattr__(ranking, "positives", readonly(positives))
        object.__setattr__(ranking, "negatives", readonly(negatives))
        object.__setattr__(ranking, "positive", classes[0])
        object.__setattr__(ranking, "negative", classes[1])
        return ranking

    @classmethod
    def empty(
        cls, *, weighted: bool = False, positive: Any = None, negative: Any = None
    ) -> Ranking:
        """The Ranking of no rows: the identity of `+` for Rankings of its classes.

        Its classes are those given, unknown (None) by default: an empty Ranking of
        unknown classes merges with a Ranking of any class.

        >>> Ranking.empty().n_groups, Ranking.empty(positive="y").positive
        (0, 'y')
        """
        return cls._trusted(
            np.empty(0),
            empty_counts(weighted),
            empty_counts(weighted),
            classes=check_classes(positive, negative),
        )

    @classmethod
    def from_scores(
        cls,
        *args: Any,
        positive: Any = MISSING,
        negative: Any = NOT_GIVEN,
        allow_infinite: bool = False,
        **named: Any,
    ) -> Ranking:
        """from_scores(actual, scores, weights=None, *, positive, negative=None, allow_infinite=False)
        Summarise rows of (actual outcome, score[, weight]) by distinct score.

        ``Ranking.from_scores(actual, scores, positive=...)``: `actual` and `scores` by
        position or by name (``y_true``, ``y_score`` and ``score`` are accepted too).

        Parameters
        ----------
        actual : array-like, 1-D
            The actual class of each row. Rows equal to `positive` are positives; every
            other row must hold one and the same other label (or `negative`, if given).
            Labels compare by kind and value: True is not 1, and 1 is not "1".
        scores : array-like of real numbers, 1-D
            The score of each row; higher means more likely positive. NaN is an error; so
            is +-inf unless `allow_infinite=True`, and so is an integer beyond 2**53,
            which float64 cannot hold exactly.
        positive : label
            The positive class, as it appears in `actual`; the Ranking keeps it.
        negative : label, optional
            The negative class. When given, every row must be `positive` or `negative` and
            neither needs to occur (for a chunk of a larger data set). When omitted,
            `positive` must occur in `actual`, and at most one other label may: the
            Ranking keeps the one seen as its negative (None when there is none).
        weights : array-like of non-negative finite numbers, optional
            Frequency weights (``sample_weight`` is accepted too): an integer weight w
            counts a row w times, weight 0 removes it (its score adds no group). With
            weights, counts are float64.
        allow_infinite : bool
            Accept +-inf scores (they are totally ordered; JSON encodes them explicitly).

        Returns
        -------
        Ranking

        Raises
        ------
        InputTypeError
            A bare string, scalar or unordered container where an array is expected;
            non-numeric scores or weights; labels of mixed types in a list; an argument
            missing, unknown, given twice or a third one by position (the message shows
            the call to write).
        InputError
            Arrays of different lengths; a row vector; a NaN or infinite score, a label
            outside {positive, negative}, a NaN label, a negative, NaN or infinite weight:
            each message names the first offending row and its value.

        Notes
        -----
        Without weights the counts are exact int64 whatever the score dtype. With float
        weights each count is a float64 sum whose last bits may depend on the row order;
        integer-valued weights (below 2**53) are exact in any order.

        >>> r = Ranking.from_scores(["y", "n", "n"], [2, 1, 1], positive="y")
        >>> r.n_positive, r.n_negative, r.n_groups, r.positive, r.negative
        (1, 2, 2, 'y', 'n')
        """  # noqa: E501 (the signature line autodoc shows)
        found = call_arguments(
            "Ranking.from_scores",
            "Ranking.from_scores(actual, scores, positive=...)",
            args,
            {**named, "positive": positive},
            positional=("actual", "scores"),
            accepted=("actual", "scores", "weights", "positive"),
            required=("actual", "scores", "positive"),
        )
        positive = found["positive"]
        if positive is None:
            msg = (
                "Ranking.from_scores() needs `positive`, the class high scores point to (a "
                "label is never None): write Ranking.from_scores(actual, scores, positive=...)."
            )
            raise InputTypeError(msg)
        grouped, classes = two_class_groups(
            found["actual"],
            found["scores"],
            positive,
            negative,
            found.get("weights"),
            allow_infinite,
        )
        return cls._trusted(*grouped, classes=classes)

    @classmethod
    def from_frame(cls, frame: Any, *args: Any, **named: Any) -> Ranking:
        """from_frame(frame, *, actual, scores, weights=None, positive, negative=None, allow_infinite=False)
        `from_scores` on the named columns of a DataFrame (see `Table.from_frame`):
        ``Ranking.from_frame(frame, actual="y", scores="s", positive=1)``; `weights=` names
        a column too (``score=`` and ``weight=`` are accepted), the other options are those
        of `from_scores`. A lazy frame (polars, DuckDB, Spark, ibis, Dask) is counted where
        it lives, ``GROUP BY score, actual`` (`informed.engines`).

        >>> Ranking.from_frame({"y": [1, 0, 0], "s": [0.9, 0.2, 0.2]}, actual="y",
        ...                    scores="s", positive=1).n_groups
        2
        """  # noqa: E501 (the signature line autodoc shows)
        found = frame_arguments(frame, args, named)  # a lazy frame's Ranking, counted already
        return found if isinstance(found, Ranking) else cls.from_scores(**found)

    @classmethod
    def one_vs_rest(
        cls, *args: Any, classes: Sequence[ClassLabel], allow_infinite: bool = False, **named: Any
    ) -> dict[ClassLabel, Ranking]:
        """one_vs_rest(actual, scores, weights=None, *, classes, allow_infinite=False)
        One Ranking per class from a score matrix: class k against all the others.

        Parameters
        ----------
        actual : array-like, 1-D, length n
            The actual class of each row; each must be one of `classes` (by kind and
            value: True is not 1).
        scores : array-like, shape (n, K)
            Column k scores membership of `classes[k]` (probabilities or any real scores;
            rows need not sum to 1).
        classes : sequence of K distinct labels
            The class named by each column.
        weights, allow_infinite
            As in `from_scores`; `actual` and `scores` may be given by position.

        Returns
        -------
        dict
            class -> Ranking of that class's column, positives = rows of that class. Each
            Ranking's `positive` is its class and its `negative` None (all the others).

        Notes
        -----
        This is Arbel & Rokach's adaptation to more than two classes ("comparing one
        class to all the others", section 2.2.1). Their Tables 8 and 9 report the measures of the
        smallest and of the largest class: see `smallest_class` and `largest_class`.

        >>> rankings = Ranking.one_vs_rest(
        ...     ["a", "b", "c"], [[.8, .1, .1], [.3, .6, .1], [.2, .2, .6]],
        ...     classes=["a", "b", "c"])
        >>> [r.auc() for r in rankings.values()]
        [1.0, 1.0, 1.0]
        """
        found = call_arguments(
            "Ranking.one_vs_rest",
            "Ranking.one_vs_rest(actual, scores, classes=[...])",
            args,
            named,
            positional=("actual", "scores"),
            accepted=("actual", "scores", "weights"),
            required=("actual", "scores"),
        )
        grouped = one_vs_rest_groups(
            found["actual"], found["scores"], classes, found.get("weights"), allow_infinite
        )
        return {
            label: cls._trusted(*groups, classes=check_classes(label, None))
            for label, groups in grouped
        }

    def with_classes(self, positive: Any, negative: Any = None) -> Ranking:
        """The same counts, said to rank `positive` against `negative` (None: all the other
        classes, or not known): for counts built from codes or booleans whose labels are
        known elsewhere.

        >>> r = Ranking.from_scores([True, False], [0.9, 0.1], positive=True)
        >>> r.with_classes("cat").positive, r.with_classes("cat").negative
        ('cat', None)
        """
        return Ranking._trusted(
            self.scores, self.positives, self.negatives, classes=check_classes(positive, negative)
        )

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
        """(n+, n-): exact integers for counts (the groups' once built); weights' float sums."""
        if self.weighted:
            return self._groups.n_positive, self._groups.n_negative
        groups = self.__dict__.get("_groups")
        if groups is not None and groups.n < 2.0**53:
            return int(groups.n_positive), int(groups.n_negative)
        return int(np.sum(self.positives)), int(np.sum(self.negatives))

    @cached_property
    def _groups(self) -> Groups:
        """Float64 group arrays shared by the curves and summaries (built once)."""
        known = not self.weighted and "_totals" in self.__dict__  # n- not summed again
        return build_groups(self.positives, self.negatives, int(self.n_negative) if known else None)

    def _cuts(self) -> tuple[FloatArray, Groups, bool]:
        """What the threshold methods (`best_threshold`, `at_threshold`) read."""
        return self.scores, self._groups, self.weighted

    def _table_labels(self) -> tuple[Label, Label]:
        """The labels of a table cut from this Ranking: its classes where it knows them."""
        return table_labels(self.positive, self.negative)

    # -- value semantics --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ranking):
            return NotImplemented
        return (
            self.weighted == other.weighted
            and self._class_keys() == other._class_keys()
            and np.array_equal(self.scores, other.scores)
            and np.array_equal(self.positives, other.positives)
            and np.array_equal(self.negatives, other.negatives)
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.weighted,
                self._class_keys(),
                self.scores.tobytes(),
                self.positives.tobytes(),
                self.negatives.tobytes(),
            )
        )

    def _class_keys(self) -> tuple[Any, Any]:
        positive, negative = self.positive, self.negative
        return (
            None if positive is None else keyed(positive),
            None if negative is None else keyed(negative),
        )

    def __repr__(self) -> str:
        kind = "weighted" if self.weighted else "counts"
        return (
            f"Ranking({self.n_groups} groups, n={self.n}, n+={self.n_positive}, "
            f"n-={self.n_negative}, positive={self.positive!r}, negative={self.negative!r}, "
            f"{kind})"
        )

    def _repr_html_(self) -> str:
        """A notebook's view: the classes, the sizes and the first and last tie groups
        (escaped)."""
        return ranking_html(
            self.scores, self.positives, self.negatives, table_labels(self.positive, self.negative)
        )

    def __add__(self, other: object) -> Ranking:
        """Merge: the union of the scores, counts added where a score is in both.

        Both must count the same classes (`informed.ranking.classes`: an unknown class
        gives way to a known one, two different ones are an error naming both) and have
        the same weight mode (both counts or both weights): a mismatch usually means two
        parts of one data set were read differently. ``0 + ranking`` is the ranking, so
        ``sum(rankings)`` merges a list.

        >>> a = Ranking.from_scores(actual=[1, 0], scores=[0.9, 0.5], positive=1)
        >>> b = Ranking.from_scores(actual=[1, 1], scores=[0.5, 0.1], positive=1)
        >>> (a + b).positives.tolist(), (a + b).negatives.tolist(), (a + b).negative
        ([1, 1, 1], [0, 1, 0], 0)
        >>> sum([a, b]) == a + b
        True
        """
        if not isinstance(other, Ranking):
            return NotImplemented
        classes = merged_classes((self.positive, self.negative), (other.positive, other.negative))
        if self.weighted != other.weighted:
            msg = (
                "Cannot merge a Ranking of float weights with one of integer counts; build "
                "both with `weights=` (or both without) so that the parts agree."
            )
            raise InputError(msg)
        if other.n_groups == 0 or self.n_groups == 0:
            kept = self if other.n_groups == 0 else other
            return Ranking._trusted(kept.scores, kept.positives, kept.negatives, classes=classes)
        merged = merge_groups(
            (self.scores, self.positives, self.negatives),
            (other.scores, other.positives, other.negatives),
        )
        return Ranking._trusted(*merged, classes=classes)

    def __radd__(self, other: object) -> Ranking:
        """``0 + ranking`` is the ranking: what `sum(rankings)` starts with."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    # -- JSON -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: scores as JSON numbers, +-inf as the strings "Infinity"/"-Infinity".

        >>> Ranking.from_scores(actual=[1, 0], scores=[1.5, -2], positive=1).to_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'kind': 'informed.Ranking', 'schema_version': 2, 'weighted': False,
         'positive': 1, 'negative': 0, 'scores': [1.5, -2.0], 'positives': [1, 0],
         'negatives': [0, 1]}
        """
        return {
            "kind": JSON_KIND,
            "schema_version": JSON_VERSION,
            "weighted": self.weighted,
            "positive": self.positive,
            "negative": self.negative,
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
        """Rebuild a Ranking from `to_dict()` output, validating every field. A version 1
        document (no classes) gives a Ranking whose classes are unknown."""
        groups = decode_ranking(data)
        positive, negative = decode_classes(data)
        return cls(*groups, positive=positive, negative=negative)

    @classmethod
    def from_json(cls, text: str | bytes) -> Ranking:
        """Rebuild a Ranking from `to_json()` output."""
        try:
            data = loads_strict(text, "a Ranking JSON document", constants=True)
        except json.JSONDecodeError as error:
            msg = f"Not valid JSON: {error}."
            raise InputError(msg) from error
        return cls.from_dict(data)
