"""Cross-validation folds: the Slices of a fold column, and their pooled sum.

A fold's rows are the cases it tested; its Table (and Ranking) is a slice, and the
pooled Table of all folds is the Slices' `overall`, equal to `Table.from_labels` of all
the rows bit for bit. `Folds` is a thin view of such a `Slices` that knows what a fold
is: each fold's measure, the pooled measure, their mean and spread across folds, and
the training-set size of each fold (which the corrected resampled t-test of
`informed.comparison.folds` needs). Repeated cross-validation slices by a repeat column
and a fold column crossed; its pooled Table counts each case once per repeat. Folds
are listed in numeric order: fold (and repeat) ids that are text reading as whole
numbers, as a CSV or Parquet file's are read, sort by their value ("2" before "10",
`informed.slices.keys.numeric_order`), where the Slices keep their canonical order
(text by code point).

>>> folds = Folds.from_labels(folds=[1, 1, 2, 2], actual=[1, 0, 1, 0],
...                           predicted=[1, 0, 0, 0])
>>> folds.values("informedness").tolist(), folds.measure("informedness").pooled
([1.0, 0.0], 0.5)
>>> folds.train.tolist()  # each fold trained on the other fold's rows
[2.0, 2.0]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import check_document, json_float, loads_strict, readonly
from informed.coding.label_text import is_missing, missing_message
from informed.errors import InputError, InputTypeError, at_row
from informed.measures import MEASURES
from informed.ranking import RANKING_MEASURES, Ranking
from informed.slices.evaluation import evaluate_slices
from informed.slices.keys import Key, numeric_order
from informed.slices.slices import Slices
from informed.table.evaluation import evaluate
from informed.table.table import Table

__all__ = ["FOLD_RANKING_MEASURES", "FoldRows", "FoldSummary", "Folds", "fold_measure"]

Floats = NDArray[np.float64]

FOLD_RANKING_MEASURES = tuple(
    m.name for m in RANKING_MEASURES.values() if m.kind == "summary" and m.function is not None
)
"""The ranking measures a fold is measured by (AUC, PEM, average hit rate, average Qrecall)."""


class FoldRows(NamedTuple):
    """One fold's test rows as `informed.sklearn.cross_evaluate` kept them.

    Attributes
    ----------
    rows : ndarray of int
        Positions of the fold's test rows in the data.
    predicted : ndarray
        The fold model's predictions of those rows.
    scores : ndarray of float or None
        Its scores of the positive class (None without scores).
    """

    rows: NDArray[np.intp]
    predicted: NDArray[Any]
    scores: NDArray[np.float64] | None


def fold_measure(name: str) -> str:
    """`name` if folds can be measured by it (a registry measure or a ranking summary)."""
    if not isinstance(name, str) or (name not in MEASURES and name not in FOLD_RANKING_MEASURES):
        msg = (
            f"unknown measure {name!r}; give a registry name ({', '.join(list(MEASURES)[:6])}, "
            f"...) or a ranking measure {list(FOLD_RANKING_MEASURES)}."
        )
        raise InputError(msg)
    return name


@dataclass(frozen=True, eq=False)
class FoldSummary:
    """One measure across folds.

    Attributes
    ----------
    measure : str
    folds : tuple of str
        The folds' names ("3", or "repeat=2, fold=3").
    values : ndarray [S]
        The measure of each fold (nan where undefined in that fold).
    pooled : float
        The measure of the pooled Table (or Ranking): every fold's cases counted once.
    mean, std : float
        The mean of the folds' values and their sample standard deviation (ddof = 1);
        nan when a fold's value is undefined (or fewer than two folds for `std`).
    """

    measure: str
    folds: tuple[str, ...]
    values: Floats
    pooled: float
    mean: float
    std: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (nan as None)."""
        return {
            "measure": self.measure,
            "folds": dict(zip(self.folds, map(json_float, self.values.tolist()), strict=True)),
            "pooled": json_float(self.pooled),
            "mean": json_float(self.mean),
            "std": json_float(self.std),
        }

    def __repr__(self) -> str:
        return (
            f"{self.measure} over {len(self.folds)} folds: pooled {self.pooled:.4f}, "
            f"mean {self.mean:.4f}, std {self.std:.4f}"
        )


@dataclass(frozen=True, eq=False)
class Folds:
    """The Table (and Ranking) of every fold of a cross-validation, and of all of them.

    Attributes
    ----------
    slices : Slices
        Sliced by the fold column, or by a repeat column and a fold column crossed.
    train_sizes : ndarray [S] or None
        Each fold's training-set size, in the order of the Slices' keys (`train` gives
        them in the folds' order); None: each repeat's folds partition its rows (k-fold),
        so a fold trained on the rest of its repeat.
    predictions : tuple of FoldRows or None
        Each fold's test rows, predictions and scores (`informed.sklearn.cross_evaluate`);
        not part of the JSON form, which holds the summaries only.
    """

    slices: Slices
    train_sizes: Floats | None = None
    predictions: tuple[FoldRows, ...] | None = field(default=None, repr=False)
    order: NDArray[np.intp] = field(init=False, repr=False)
    """Positions of the Slices' keys in the folds' (numeric) order."""

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "order", readonly(np.array(numeric_order(self.slices.keys), dtype=np.intp))
        )
        if not 1 <= len(self.slices.by) <= 2:
            msg = f"folds are slices by a fold column (and a repeat column); got {self.slices.by}."
            raise InputError(msg)
        missing = [self.slices.name(k) for k in self.slices.keys if None in k]
        if missing:
            msg = f"rows without a fold (or repeat): slice {missing[0]!r}; give every row its fold."
            raise InputError(msg)
        if self.train_sizes is not None:
            if np.shape(self.train_sizes) != (len(self.slices.keys),):
                msg = (
                    f"`train` needs one size per fold ({len(self.slices.keys)}); "
                    f"got shape {np.shape(self.train_sizes)}."
                )
                raise InputError(msg)
            readonly(self.train_sizes)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_labels(
        cls,
        *,
        folds: Any,
        actual: Any,
        predicted: Any = None,
        scores: Any = None,
        positive: Any = None,
        weights: Any = None,
        repeats: Any = None,
        train: Any = None,
    ) -> Folds:
        """Folds from each row's fold (and repeat), as `Slices.from_labels` slices rows.

        Parameters
        ----------
        folds : array-like
            The fold that tested each row.
        repeats : array-like, optional
            The repeat of each row (repeated cross-validation: a case appears once per
            repeat).
        train : array-like, optional
            Each fold's training-set size, in the folds' order (`keys`, numeric); by default the
            rows of the fold's repeat that it did not test (k-fold). Give it where the
            test sets overlap (repeated random splits).
        actual, predicted, scores, positive, weights
            As in `Slices.from_labels`.
        """
        by = [folds] if repeats is None else [repeats, folds]
        names = ["fold"] if repeats is None else ["repeat", "fold"]
        slices = Slices.from_labels(
            by=by,
            actual=actual,
            predicted=predicted,
            scores=scores,
            positive=positive,
            weights=weights,
            names=names,
        )
        if any(None in key for key in slices.keys):  # name the first such row, then refuse
            for name, column in (("folds", folds), ("repeats", repeats)):
                rows = enumerate(() if column is None else column)
                found = next(((i, x) for i, x in rows if is_missing(x)), None)
                if found is not None:
                    raise InputError(missing_message(name, found[1], at_row(found[0])))
        return cls(slices, _stored(slices, _train(train)))

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        folds: str,
        actual: str,
        predicted: str | None = None,
        scores: str | None = None,
        positive: Any = None,
        weights: str | None = None,
        repeats: str | None = None,
        train: Any = None,
    ) -> Folds:
        """Folds of a DataFrame's rows by its fold column (and repeat column), counted as
        `Slices.from_frame` counts them (an engine's lazy frame where it lives)."""
        by = [folds] if repeats is None else [repeats, folds]
        slices = Slices.from_frame(
            frame,
            by=by,
            actual=actual,
            predicted=predicted,
            scores=scores,
            positive=positive,
            weights=weights,
        )
        return cls(slices, _stored(slices, _train(train)))

    # ------------------------------------------------------------------ reading
    @property
    def keys(self) -> tuple[Key, ...]:
        """The folds' keys, (fold,) or (repeat, fold), in numeric order."""
        keys = self.slices.keys
        return tuple(keys[i] for i in self.order.tolist())

    @property
    def names(self) -> tuple[str, ...]:
        """How a report names each fold."""
        return tuple(self.slices.name(k) for k in self.keys)

    @property
    def repeats(self) -> tuple[Any, ...]:
        """The repeat of each fold (all None without a repeat column)."""
        return tuple(k[0] if len(self.slices.by) == 2 else None for k in self.keys)

    @property
    def test(self) -> Floats:
        """Each fold's test-set size (rows; weights not applied)."""
        return self.slices.rows[self.order].astype(np.float64)

    @property
    def train(self) -> Floats:
        """Each fold's training-set size: given, or the rest of its repeat's rows."""
        if self.train_sizes is not None:
            return readonly(self.train_sizes[self.order])
        rows = self.test
        repeats = self.repeats
        total: dict[Any, float] = {}
        for r, n in zip(repeats, rows.tolist(), strict=True):
            total[r] = total.get(r, 0.0) + n
        return np.array([total[r] - n for r, n in zip(repeats, rows.tolist(), strict=True)])

    @property
    def pooled(self) -> Table:
        """The Table of every fold's test rows, equal to `Table.from_labels` of them all."""
        if self.slices.overall is None:
            msg = "these folds have no predictions, so no Table: pass `predicted`."
            raise InputError(msg)
        return self.slices.overall

    @property
    def pooled_ranking(self) -> Ranking:
        """The Ranking of every fold's scores together."""
        if self.slices.overall_ranking is None:
            msg = "these folds have no scores, so no Ranking: pass `scores` and `positive`."
            raise InputError(msg)
        return self.slices.overall_ranking

    def table(self, key: Any) -> Table:
        """The Table of one fold (its key, or its value without repeats)."""
        return self.slices.table(key)

    def ranking(self, key: Any) -> Ranking:
        """The Ranking of one fold."""
        return self.slices.ranking(key)

    def values(self, measure: str, *, positive: Any = None) -> Floats:
        """The measure of each fold, in the order of `keys` (nan where undefined).

        A registry measure as `informed.evaluate(fold_table, positive=...)` gives it; a
        ranking measure ("auc", "pem", ...) of each fold's Ranking.
        """
        measure = fold_measure(measure)
        if measure in MEASURES:
            if self.slices.cells is None:
                msg = f"{measure} is a table measure: these folds have no predictions."
                raise InputError(msg)
            found = evaluate_slices(self.slices, positive=positive).values[measure]
            return np.asarray(found, dtype=np.float64)[self.order]
        if self.slices.rankings is None:
            msg = f"{measure} is a ranking measure: these folds have no scores."
            raise InputError(msg)
        function = RANKING_MEASURES[measure].function
        assert function is not None
        with np.errstate(divide="ignore", invalid="ignore"):
            rankings = self.slices.rankings
            return np.array([float(function(rankings[i])) for i in self.order.tolist()])

    def pooled_value(self, measure: str, *, positive: Any = None) -> float:
        """The measure of the pooled Table (or Ranking)."""
        measure = fold_measure(measure)
        if measure in MEASURES:
            return float(evaluate(self.pooled, positive=positive).measures[measure])
        function = RANKING_MEASURES[measure].function
        assert function is not None
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(function(self.pooled_ranking))

    def measure(self, measure: str, *, positive: Any = None) -> FoldSummary:
        """Each fold's value of `measure`, the pooled value, their mean and spread."""
        values = readonly(self.values(measure, positive=positive))
        defined = not np.isnan(values).any()
        mean = float(values.mean()) if defined and values.size else math.nan
        std = float(values.std(ddof=1)) if defined and values.size > 1 else math.nan
        return FoldSummary(
            measure,
            self.names,
            values,
            self.pooled_value(measure, positive=positive),
            mean,
            std,
        )

    # ------------------------------------------------------------------ merge, JSON
    def __add__(self, other: object) -> Folds:
        """Merge the counts of the same folds read in parts (the union of the folds)."""
        if not isinstance(other, Folds):
            return NotImplemented
        if (self.train_sizes is None) != (other.train_sizes is None):
            msg = "cannot merge folds with given training sizes and folds without."
            raise InputError(msg)
        merged = self.slices + other.slices
        train = None
        if self.train_sizes is not None and other.train_sizes is not None:
            if self.keys != other.keys or not np.array_equal(self.train_sizes, other.train_sizes):
                msg = "cannot merge folds whose given training sizes differ."
                raise InputError(msg)
            train = self.train_sizes
        return Folds(merged, train)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Folds):
            return NotImplemented
        return self.slices == other.slices and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def to_dict(self) -> dict[str, Any]:
        """{"kind": "informed.Folds", "slices": ..., "train": ...}: the summaries only."""
        train = None if self.train_sizes is None else self.train_sizes.tolist()
        return {
            "kind": "informed.Folds",
            "version": 1,
            "slices": self.slices.to_dict(),
            "train": train,
        }

    def to_json(self) -> str:
        """Serialise to JSON (the summaries; not the predictions)."""
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Folds:
        """Restore `Folds` from `to_dict` output."""
        keys = frozenset({"kind", "version", "slices", "train"})
        check_document(data, "Folds", keys, "informed.Folds", 1)
        return cls(Slices.from_dict(data["slices"]), _train(data["train"]))

    @classmethod
    def from_json(cls, text: str) -> Folds:
        """Parse `to_json` output."""
        return cls.from_dict(loads_strict(text, "a Folds JSON document"))

    def __repr__(self) -> str:
        return (
            f"Folds(folds={len(self.keys)}, by={list(self.slices.by)!r}, "
            f"rows={int(self.slices.rows.sum())}, table={self.slices.cells is not None}, "
            f"ranking={self.slices.rankings is not None})"
        )


def _train(train: Any) -> Floats | None:
    if train is None:
        return None
    if isinstance(train, str | bytes) or not hasattr(train, "__len__"):
        msg = f"`train` must be one training-set size per fold; got {train!r}."
        raise InputTypeError(msg)
    sizes = np.asarray(train, dtype=np.float64)
    if sizes.ndim != 1 or not np.isfinite(sizes).all() or (sizes <= 0).any():
        msg = f"`train` sizes must be positive numbers, one per fold; got {list(train)!r}."
        raise InputError(msg)
    return sizes


def _stored(slices: Slices, sizes: Floats | None) -> Floats | None:
    """Training sizes given in the folds' (numeric) order, in the Slices' order."""
    if sizes is None or sizes.shape != (len(slices.keys),):
        return sizes  # Folds says what is wrong with them
    stored = np.empty_like(sizes)
    stored[numeric_order(slices.keys)] = sizes
    return stored
