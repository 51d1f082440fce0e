"""Slices: the summaries of every slice of the rows, with one more axis instead of a loop.

A `Slices` holds, for each slice key (a value of one column, or of several crossed), the
counts of that slice's predicted labels against its actual classes (the cells of
counts[S, K, C] that hold rows, counted in one pass: `informed.slices.counting`) and, with
scores, the slice's Ranking. `overall` is the unsliced Table (and Ranking), equal to
`Table.from_labels` on all the rows bit for bit; `table(key)` is the Table of one slice,
equal to `Table.from_labels` on its rows. Slices merge with `+` (the union of the slices
and of the labels, counts added) and round-trip through JSON without loss.

>>> s = Slices.from_labels(by=["m", "w", "w", None], actual=[1, 0, 1, 1],
...                        predicted=[1, 0, 0, 1])
>>> [s.name(k) for k in s.keys], s.n.tolist()
(['m', 'w', 'missing'], [1.0, 2.0, 1.0])
>>> s.table("w").counts.tolist()  # both cases of "w" predicted 0
[[1, 1]]
>>> s.overall == Table.from_labels(actual=[1, 0, 1, 1], predicted=[1, 0, 0, 1])
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory, loads_strict
from informed._routes import engine_route
from informed.coding.arguments import canonical_arguments
from informed.coding.columns import collected, engine_of, frame_column
from informed.coding.labels import Label, keyed, positions_in, sort_labels
from informed.errors import InputError
from informed.measures import Cells
from informed.ranking import Ranking
from informed.ranking.classes import negative_of
from informed.slices.building import check_time, slice_fields, timed
from informed.slices.classes import Side, merged_negative, named, side
from informed.slices.counting import (
    SlicedCells,
    merge_cells,
)
from informed.slices.json_form import slices_dict, slices_parts
from informed.slices.keys import (
    Key,
    column_names,
    key_name,
    keyed_key,
    merged_keys,
    quoted_columns,
)
from informed.table.storage import from_cells
from informed.table.table import Table

__all__ = ["Slices", "build_parts", "build_slices", "with_negative"]

# Values (slices x square cells) of one batch of slices evaluated at once.
BATCH_VALUES = 1 << 22


@dataclass(frozen=True, eq=False)
class Slices:
    """The Table (and Ranking) of every slice, and of all the rows.

    Attributes
    ----------
    by : tuple of str
        The names of the slicing columns.
    keys : tuple of tuples
        The S slice keys in canonical order (one value per `by` column; None is missing).
    rows : ndarray of shape (S,)
        Rows in each slice (weights not applied).
    cells : SlicedCells or None
        The cells of counts[S, K, C] that hold rows (None without predictions).
    overall : Table or None
        The Table of all the rows.
    positive : label or None
        The class the scores point to.
    rankings : tuple of Ranking or None
        One Ranking per slice (None without scores).
    overall_ranking : Ranking or None
    accumulated : str or None
        "cumulative" or "rolling, last=7, every=1d": `informed.slices.rolling.accumulate`'s
        overlapping windows (`overall` is not their sum); None for disjoint slices.
    overall_groups : ndarray or None
        From files: each slice's groups' groups in `overall_ranking` (a checked hint).
    """

    by: tuple[str, ...]
    keys: tuple[Key, ...]
    rows: NDArray[np.int64]
    cells: SlicedCells | None
    overall: Table | None
    positive: Label | None = None
    rankings: tuple[Ranking, ...] | None = None
    overall_ranking: Ranking | None = None
    accumulated: str | None = None
    overall_groups: NDArray[np.intp] | None = field(default=None, repr=False)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_labels(
        cls,
        *,
        by: Any = None,
        actual: Any,
        predicted: Any = None,
        scores: Any = None,
        positive: Any = None,
        weights: Any = None,
        names: Sequence[str] | None = None,
        clusters: bool = False,
        time: Any = None,
        every: str | None = None,
    ) -> Slices:
        """Slice rows by the column `by` (or a list of columns, crossed), by time window
        (`time` and `every`), or both (the window first).

        Parameters
        ----------
        by : array-like, or a list of array-likes, optional
            The slice key of each row; None, NaN and nulls form the slice "missing". A
            list of arrays (not of labels) is several columns crossed.
        time : array-like, optional
            Each row's timestamp, floored to its window of span `every` ("1h", "1d",
            "7d", "1mo", "1q", "1y": `informed.slices.windows`) in the time zone it is
            stored in; a missing one is the window "missing". The window's column is
            named "time (every)".
        actual, predicted : array-like
            As in `Table.from_labels`; without `predicted` only Rankings are made.
        scores : array-like, optional
            Scores pointing to `positive`: a Ranking per slice.
        positive : label, optional
            The positive class of the scores.
        weights : array-like, optional
            Non-negative case weights.
        names : sequence of str, optional
            The names of the `by` columns, one per column (default "by", or "by1",
            "by2", ...).
        """
        crossed = isinstance(by, list | tuple) and len(by) > 0 and _is_column(by[0])
        columns = [] if by is None else list(by) if crossed else [by]
        names = column_names(names, len(columns)) if columns or names else []
        check_time(time, every, bool(columns))
        windows, named = timed(time, every, "time")
        return build_slices(
            [*windows, *columns],
            [*named, *names],
            actual,
            predicted,
            scores,
            positive,
            weights,
            clusters,
        )

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        by: str | Sequence[str] = (),
        actual: str,
        predicted: str | None = None,
        scores: str | None = None,
        positive: Any = None,
        weights: str | None = None,
        clusters: bool = False,
        time: str | None = None,
        every: str | None = None,
        **aliases: Any,
    ) -> Slices:
        """Slice a DataFrame's rows by the column(s) `by` (see `Table.from_frame`) and by
        time window of the column `time` (with `every`, as in `Slices.from_labels`); the
        columns are named as in `Slices.from_labels` (``score=``, ``weight=``,
        ``sample_weight=`` are accepted). A lazy frame is counted where it lives,
        ``GROUP BY window..., by..., predicted, actual`` (`informed.engines`).

        >>> s = Slices.from_frame({"g": ["a", "b", "a"], "y": [1, 0, 1], "p": [1, 1, 0]},
        ...                       by="g", actual="y", predicted="p")
        >>> s.keys, s.rows.tolist()
        ((('a',), ('b',)), [2, 1])
        """
        given = {k: v for k, v in (("scores", scores), ("weights", weights)) if v is not None}
        found = canonical_arguments(
            "Slices.from_frame", {**given, **aliases}, ("scores", "weights")
        )
        scores, weights = found.get("scores"), found.get("weights")
        names = [by] if isinstance(by, str) else list(by)
        check_time(time, every, bool(names))  # before anything is read
        if engine_of(frame) is not None:  # counted on its engine (informed.engines)
            counted: Slices = engine_route().slices(
                frame,
                by=names,
                actual=actual,
                predicted=predicted,
                scores=scores,
                positive=positive,
                weights=weights,
                clusters=clusters,
                time=time,
                every=every,
            )
            return counted
        keys = {f"by[{i}]": name for i, name in enumerate(names)}
        frame = collected(
            frame, actual=actual, predicted=predicted, scores=scores, weights=weights, **keys
        )
        stamps = None if time is None else frame_column(frame, time, "time")
        windows, named = timed(stamps, every, time or "time")
        columns = [frame_column(frame, name, "by") for name in names]
        return build_slices(
            [*windows, *columns],
            [*named, *names],
            frame_column(frame, actual, "actual"),
            None if predicted is None else frame_column(frame, predicted, "predicted"),
            None if scores is None else frame_column(frame, scores, "scores"),
            positive,
            None if weights is None else frame_column(frame, weights, "weights"),
            clusters,
        )

    # ------------------------------------------------------------------ reading
    @property
    def weighted(self) -> bool:
        """True when the counts are float weights."""
        if self.overall is not None:
            return self.overall.weighted
        return self.overall_ranking is not None and self.overall_ranking.weighted

    @property
    def n(self) -> NDArray[np.float64]:
        """Total count (or weight) of each slice."""
        if self.cells is not None:
            return np.bincount(
                self.cells.slice, weights=self.cells.values, minlength=len(self.keys)
            ).astype(np.float64)
        assert self.rankings is not None
        return np.array([float(r.n) for r in self.rankings], dtype=np.float64)

    def name(self, key: Key) -> str:
        """How a report names the slice `key`: distinct for distinct slices (``missing``
        for the missing value, the text "missing" as ``"missing"``: `informed.slices.keys`)."""
        return key_name(key, self.by, self._quoted)

    @cached_property
    def _quoted(self) -> tuple[bool, ...]:
        return quoted_columns(self.keys)

    def named(self, name: str) -> Key:
        """The key of the slice a report names `name` (as `name` gives it), or an error
        listing the names: ``missing`` is the missing slice, ``"missing"`` the text."""
        found = next((key for key in self.keys if self.name(key) == name), None)
        if found is None:
            raise self._no_slice(f"{name!r} is not a slice")
        return found

    def _no_slice(self, what: str) -> InputError:
        shown = [self.name(k) for k in self.keys[:20]]
        return InputError(f"{what}; the slices are {shown}{' ...' if len(self.keys) > 20 else ''}.")

    def index(self, key: Any) -> int:
        """The position of a slice: its key (a tuple), or its value when `by` is one
        column; None is the missing value (`index(None)`, `index("missing")` the text)."""
        wanted = key if isinstance(key, tuple) else (key,)
        found = {keyed_key(k): i for i, k in enumerate(self.keys)}.get(keyed_key(wanted))
        if found is None:
            raise self._no_slice(f"no slice {key!r}")
        return found

    def table(self, key: Any) -> Table:
        """The Table of one slice: its labels only, as `Table.from_labels` of its rows."""
        if self.cells is None:
            msg = "these slices have no predictions, so no Table: pass `predicted`."
            raise InputError(msg)
        s = self.index(key)
        c = self.cells
        lo, hi = np.searchsorted(c.slice, [s, s + 1])
        rows, cols, values = c.row[lo:hi], c.col[lo:hi], c.values[lo:hi]
        used_rows, new_rows = np.unique(rows, return_inverse=True)
        used_cols, new_cols = np.unique(cols, return_inverse=True)
        stored = from_cells(
            new_rows, new_cols, values, (used_rows.size, used_cols.size), values.dtype, "auto"
        )
        return Table(
            stored,
            tuple(c.predicted[i] for i in used_rows),
            tuple(c.actual[j] for j in used_cols),
        )

    def ranking(self, key: Any) -> Ranking:
        """The Ranking of one slice."""
        if self.rankings is None:
            msg = "these slices have no scores, so no Ranking: pass `scores` and `positive`."
            raise InputError(msg)
        return self.rankings[self.index(key)]

    def square_cells(self, start: int, stop: int) -> tuple[tuple[Label, ...], Cells]:
        """Slices start..stop as square tables over the union of all labels: `Cells`
        with values[stop - start, M] at the M square cells non-zero in any of them."""
        assert self.cells is not None
        c = self.cells
        labels = sort_labels((*c.predicted, *c.actual))
        L = len(labels)
        lo, hi = np.searchsorted(c.slice, [start, stop])
        r = positions_in(c.predicted, labels)[c.row[lo:hi]]
        k = positions_in(c.actual, labels)[c.col[lo:hi]]
        flat = r.astype(np.int64) * L + k
        distinct, where = np.unique(flat, return_inverse=True)
        count = stop - start
        check_memory(8 * count * distinct.size, f"{count:,} slices' cells", "slice by fewer keys")
        values = np.zeros((count, distinct.size), dtype=c.values.dtype)
        values[c.slice[lo:hi] - start, where.reshape(-1)] = c.values[lo:hi]
        rows, cols = np.divmod(distinct, L)
        return labels, Cells(values, rows.astype(np.intp), cols.astype(np.intp), (L, L))

    def batches(self) -> list[tuple[int, int]]:
        """(start, stop) of batches of slices whose square cells fit `BATCH_VALUES`."""
        if self.cells is None or not len(self.keys):
            return [(0, len(self.keys))] if len(self.keys) else []
        K, C = len(self.cells.predicted), len(self.cells.actual)
        step = max(1, BATCH_VALUES // max(1, min(K * C, len(self.cells.values))))
        return [(s, min(s + step, len(self.keys))) for s in range(0, len(self.keys), step)]

    # ------------------------------------------------------------------ merge, equality
    def __add__(self, other: object) -> Slices:
        """Merge: the union of the slices and of the labels, counts added."""
        if not isinstance(other, Slices):
            return NotImplemented
        if self.by != other.by:
            msg = f"cannot merge slices by {list(self.by)} with slices by {list(other.by)}."
            raise InputError(msg)
        if self.accumulated or other.accumulated:  # a window's earlier ones may be elsewhere
            msg = "cannot merge accumulated (cumulative or rolling) slices: merge, then accumulate."
            raise InputError(msg)
        if (self.cells is None) != (other.cells is None) or (self.rankings is None) != (
            other.rankings is None
        ):
            msg = "cannot merge slices with a Table (or Ranking) and slices without one."
            raise InputError(msg)
        if self.rankings is not None and keyed(_label(self.positive)) != keyed(
            _label(other.positive)
        ):
            msg = f"cannot merge rankings of positive {self.positive!r} and {other.positive!r}."
            raise InputError(msg)
        if self.weighted != other.weighted:
            msg = "cannot merge weighted slices with unweighted ones."
            raise InputError(msg)
        keys, mine, theirs = merged_keys(self.keys, other.keys)
        rows = np.zeros(len(keys), dtype=np.int64)
        np.add.at(rows, mine, self.rows)
        np.add.at(rows, theirs, other.rows)
        cells = overall = None
        if self.cells is not None and other.cells is not None:
            cells = merge_cells(self.cells, other.cells, mine, theirs)
            assert self.overall is not None
            assert other.overall is not None
            overall = self.overall + other.overall
        rankings = overall_ranking = None
        if self.rankings is not None and other.rankings is not None:
            assert self.overall_ranking is not None
            assert other.overall_ranking is not None
            positive = self.positive  # the classes named again after the merge: none lost
            negative = merged_negative(self._side(), other._side())
            merged: list[Ranking | None] = [None] * len(keys)
            for positions, found in ((mine, self.rankings), (theirs, other.rankings)):
                for s, ranking in zip(positions.tolist(), found, strict=True):
                    before, ranking = merged[s], ranking.with_classes(positive)
                    merged[s] = ranking if before is None else before + ranking
            rankings, overall_ranking = named(
                tuple(r for r in merged if r is not None),
                self.overall_ranking.with_classes(positive)
                + other.overall_ranking.with_classes(positive),
                *(positive, negative),
            )
        return Slices(self.by, keys, rows, cells, overall, self.positive, rankings, overall_ranking)

    def _side(self) -> Side:
        """What these Slices say of their classes when merged (`informed.slices.classes`)."""
        assert self.overall_ranking is not None
        classes = None if self.cells is None else self.cells.actual
        return side(self.overall_ranking, classes, self.positive)

    def __eq__(self, other: object) -> bool:
        """Same slices, labels, counts and rankings (True is not 1, as for labels)."""
        if not isinstance(other, Slices):
            return NotImplemented
        return self._kinds() == other._kinds() and self.to_dict() == other.to_dict()

    def _kinds(self) -> tuple[Any, ...]:
        """The keys and labels with their kinds: what == on the JSON form cannot tell."""
        labels = () if self.cells is None else (self.cells.predicted, self.cells.actual)
        return (
            tuple(keyed_key(k) for k in self.keys),
            tuple(tuple(keyed(x) for x in axis) for axis in labels),
            None if self.positive is None else keyed(self.positive),
        )

    def __hash__(self) -> int:
        return hash(self.to_json())

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `Slices.from_dict` restores the slices exactly."""
        return slices_dict(self)

    def to_json(self) -> str:
        """Serialise to JSON (floats as Python's shortest exact repr)."""
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Slices:
        """Restore `Slices` from `to_dict` output, validating every field."""
        return cls(*slices_parts(data))

    @classmethod
    def from_json(cls, text: str) -> Slices:
        """Parse `to_json` output."""
        return cls.from_dict(loads_strict(text, "a Slices JSON document"))

    def __repr__(self) -> str:
        return (
            f"Slices(by={list(self.by)!r}, slices={len(self.keys)}, "
            f"rows={int(self.rows.sum())}, table={self.overall is not None}, "
            f"ranking={self.rankings is not None})"
        )


# ---------------------------------------------------------------------- helpers
def _label(value: Any) -> Label:
    return value if value is not None else ""


def _is_column(value: Any) -> bool:
    """A column (list, tuple, array, Series), not a label: `by` is several columns."""
    return not isinstance(value, str | bytes | int | float | bool | type(None)) and hasattr(
        value, "__len__"
    )


def build_slices(
    columns: list[Any],
    names: list[str],
    actual: Any,
    predicted: Any,
    scores: Any,
    positive: Any,
    weights: Any,
    clusters: bool = False,
    partial: bool = False,
) -> Slices:
    """Slices of coded rows (`Slices.from_labels`); a `partial` batch of a larger input
    need not hold the positive class, and its Rankings name no negative class (the whole
    input's classes name it: `build_parts`)."""
    found, classes = build_parts(
        columns, names, actual, predicted, scores, positive, weights, clusters, partial
    )
    return found if partial else with_negative(found, classes)


def with_negative(found: Slices, classes: Sequence[Label]) -> Slices:
    """`found` with every Ranking naming the one class of `classes` (the actual classes
    of all its rows) other than the positive one (`informed.slices.classes`)."""
    if found.rankings is None or found.overall_ranking is None:
        return found
    negative = negative_of(classes, found.positive)
    rankings, overall = named(found.rankings, found.overall_ranking, found.positive, negative)
    return replace(found, rankings=rankings, overall_ranking=overall)


def build_parts(
    columns: list[Any],
    names: list[str],
    actual: Any,
    predicted: Any,
    scores: Any,
    positive: Any,
    weights: Any,
    clusters: bool = False,
    partial: bool = False,
    text: bool = False,
) -> tuple[Slices, tuple[Label, ...]]:
    """The Slices of coded rows, their Rankings naming no negative class, and the actual
    classes of the rows (a label of weight 0 included), to name it once every part is in;
    `text`: the labels are a CSV file's text (`informed.coding.labels.refuse_scores`)."""
    fields, classes = slice_fields(
        columns, names, actual, predicted, scores, positive, weights, clusters, partial, text
    )
    return Slices(*fields), classes
