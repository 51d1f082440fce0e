"""Table: the contingency table of predicted labels against actual classes.

Rows are predicted labels (+P, -P, ...), columns are actual classes (+R, -R, ...), as in
Powers (2003, 2011). A Table is frozen, carries its labels, and merges with
`+` over the union of labels. K predicted labels may differ from C classes (clusters).
A table of many labels, few of whose K x C cells are filled, holds only its non-zero
cells (`storage="sparse"`, chosen automatically; `informed.table.storage`), with the
same measures, merges, JSON and equality as the dense one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import loads_strict, readonly
from informed.coding.columns import engine_of
from informed.coding.labels import Label, as_label, keyed, positions_in, sort_labels
from informed.errors import InputError, InputTypeError, MemoryLimitError
from informed.measures import Cells, one_vs_rest_counts
from informed.table.counting import check_axis_texts, count_labels, count_matrix
from informed.table.display import some_labels as _some
from informed.table.display import table_html, table_repr, table_text
from informed.table.inputs import engine_table, frame_label_columns, label_columns
from informed.table.json_form import parts_from_dict, table_dict
from informed.table.storage import DENSE_VIEW, Stored, as_stored, canonical, merged
from informed.table.views import OneVsRest, TableCells

__all__ = ["OneVsRest", "Table", "TableCells"]


@dataclass(frozen=True, eq=False, init=False)
class Table:
    """Counts of predicted label (rows) x actual class (columns).

    Build it with a constructor whose orientation cannot be misread:
    `Table.from_labels(actual, predicted)` (scikit-learn's order, or by name),
    `Table.from_frame(frame, actual=..., predicted=...)`, `Table.binary(tp=, fp=, fn=, tn=)`
    or `Table.from_counts(counts, rows="predicted" | "actual")`.

    Attributes
    ----------
    predicted : tuple
        The K row labels, in canonical order (`informed.coding.labels`), whatever built the
        Table: counts given in another order are moved with their labels.
    actual : tuple
        The C column labels, in canonical order.
    counts : ndarray of shape (K, C)
        int64 counts, or float64 weights; read-only. A sparse table gives it only up to
        2^24 cells; `cells` lists the non-zero cells of any table.
    storage : {"dense", "sparse"}
        How the counts are held: every cell, or only the non-zero ones.

    >>> t = Table.binary(tp=12, fp=28, fn=18, tn=42)
    >>> t.one_vs_rest("+")
    OneVsRest(label='+', tp=12.0, fp=28.0, fn=18.0, tn=42.0)
    """

    predicted: tuple[Label, ...]
    actual: tuple[Label, ...]
    _stored: Stored = field(repr=False)
    _cache: dict[str, Any] = field(repr=False)  # label positions, made on first use

    def __init__(
        self,
        counts: Any = None,
        predicted: Sequence[Label] | None = None,
        actual: Sequence[Label] | None = None,
    ) -> None:
        if counts is None or predicted is None or actual is None:
            # Table(y, p) would read as (counts, predicted): a matrix of counts is made
            # only with its labels, and labels are counted by from_labels, never guessed
            msg = (
                "Table(counts, predicted, actual) takes a matrix of counts with the labels "
                "of its rows and columns; to count labels write Table.from_labels(actual, "
                "predicted) (scikit-learn's order, y_true first), or evaluate(actual, predicted)."
            )
            raise InputTypeError(msg)
        predicted, actual = tuple(predicted), tuple(actual)
        check_axis_texts(predicted, actual)
        stored = as_stored(counts)
        if stored.shape != (len(predicted), len(actual)):
            msg = (
                f"`counts` has shape {stored.shape} but there are {len(predicted)} "
                f"predicted and {len(actual)} actual labels."
            )
            raise InputError(msg)
        stored, predicted, actual = canonical(stored, predicted, actual)
        object.__setattr__(self, "predicted", predicted)
        object.__setattr__(self, "actual", actual)
        object.__setattr__(self, "_stored", stored)
        object.__setattr__(self, "_cache", {})

    @property
    def _index(self) -> dict[tuple[str, Label], tuple[int | None, int | None]]:
        """Label -> (its row, its column), None where absent from an axis."""
        if "index" not in self._cache:
            index: dict[tuple[str, Label], tuple[int | None, int | None]] = {}
            for i, label in enumerate(self.predicted):
                index[keyed(label)] = (i, None)
            for j, label in enumerate(self.actual):
                row = index.get(keyed(label), (None, None))[0]
                index[keyed(label)] = (row, j)
            self._cache["index"] = index
        found: dict[tuple[str, Label], tuple[int | None, int | None]] = self._cache["index"]
        return found

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_counts(
        cls,
        counts: Any,
        *,
        rows: Literal["predicted", "actual"],
        labels: Sequence[Any] | None = None,
        predicted: Sequence[Any] | None = None,
        actual: Sequence[Any] | None = None,
        weighted: bool | None = None,
        storage: Literal["auto", "dense", "sparse"] = "auto",
    ) -> Table:
        """A Table from a matrix of counts whose orientation you state.

        Parameters
        ----------
        counts : array-like of shape (K, C) or (C, K), or a scipy.sparse matrix
            Non-negative, finite counts. Integers give an int64 table, floats a weighted
            (float64) table unless `weighted` says otherwise.
        rows : {"predicted", "actual"}
            What the rows of `counts` are. There is no default: scikit-learn's
            `confusion_matrix` has rows = actual, Powers' papers have rows = predicted.
        labels : sequence, optional
            Labels for both axes of a square matrix. Default: 0 .. K-1.
        predicted, actual : sequence, optional
            Labels of each axis, for rectangular tables (instead of `labels`).
        weighted : bool, optional
            True stores float64 weights; False requires integer values.
        storage : {"auto", "dense", "sparse"}
            Hold every cell, or only the non-zero ones; "auto" is sparse for a table of
            more than 2^16 cells with fewer than one in four filled.

        Examples
        --------
        >>> Table.from_counts([[5, 2], [3, 7]], rows="actual", labels=["a", "b"]).counts
        array([[5, 3],
               [2, 7]])
        """
        if rows not in ("predicted", "actual"):
            msg = f"`rows` must be 'predicted' or 'actual'; got {rows!r}."
            raise InputError(msg)
        counted = count_matrix(counts, rows, labels, predicted, actual, weighted, storage)
        return cls(counted.counts, counted.predicted, counted.actual)

    @classmethod
    def binary(
        cls,
        *,
        tp: float,
        fp: float,
        fn: float,
        tn: float,
        labels: tuple[Label, Label] = ("+", "-"),
    ) -> Table:
        """A 2x2 Table from its four cells; `labels` are (positive, negative), kept in
        canonical order as every Table's (the cells are reached by name: `one_vs_rest`).

        >>> Table.binary(tp=42, fp=18, fn=28, tn=12).counts
        array([[42, 18],
               [28, 12]])
        >>> Table.binary(tp=42, fp=18, fn=28, tn=12, labels=("yes", "no")).counts
        array([[12, 28],
               [18, 42]])
        """
        counts = [[tp, fp], [fn, tn]]
        return cls.from_counts(counts, rows="predicted", labels=list(labels))

    @classmethod
    def from_labels(
        cls,
        actual: Any = None,
        predicted: Any = None,
        *extra: Any,
        weights: Any = None,
        labels: Sequence[Any] | None = None,
        clusters: bool = False,
        storage: Literal["auto", "dense", "sparse"] = "auto",
        **aliases: Any,
    ) -> Table:
        """Count predicted labels against actual classes: ``Table.from_labels(y, p)``.

        Parameters
        ----------
        actual, predicted : array-like of shape (n,)
            Labels: str, int, float or bool (numpy arrays, lists, pandas Series). By
            position in scikit-learn's order, actual (y_true) first; `y_true=`, `y_pred=`
            are accepted as aliases.
        weights : array-like of shape (n,), optional
            Non-negative finite weights (alias `sample_weight=`); the Table then holds
            float64 weights. A row of weight 0 adds to no cell, but its labels are labels
            of the Table (with zero weight), so a part's labels do not depend on its weights.
        labels : sequence, optional
            The label universe for both axes (a square table, in this order of labels
            canonicalised); a value outside it is an error naming the row.
        clusters : bool
            The predicted values are cluster ids, unrelated to the class labels, and may
            be of another kind (ints against strings); see `informed.table`.
        storage : {"auto", "dense", "sparse"}
            As in `from_counts`; thousands of labels are counted without a K x C matrix.

        Returns
        -------
        Table
            Rows: the labels predicted at least once, whatever the weight (or `labels`);
            columns: the classes seen at least once (or `labels`).
        """
        if weights is not None:
            aliases = {**aliases, "weights": weights}
        given = label_columns("Table.from_labels", (actual, predicted, *extra), aliases)
        counted = count_labels(*given, labels, clusters, storage)
        return cls(counted.counts, counted.predicted, counted.actual)

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        actual: str | None = None,
        predicted: str | None = None,
        weights: str | None = None,
        labels: Sequence[Any] | None = None,
        clusters: bool = False,
        storage: Literal["auto", "dense", "sparse"] = "auto",
        **aliases: Any,
    ) -> Table:
        """Count two columns of a DataFrame: `from_labels` on the named columns (aliases
        `y_true=`, `y_pred=`, `sample_weight=` accepted).

        `frame` is a pandas or polars DataFrame, a pyarrow Table or RecordBatch, a mapping
        of names to columns, or any object with the Arrow PyCapsule interface (with
        pyarrow installed).
        None of these libraries is a dependency of informed. Columns keep their form: a
        categorical or dictionary column's codes are counted directly. A lazy frame (a
        polars LazyFrame, a DuckDB relation, a Spark DataFrame, an ibis table, a Dask
        DataFrame) is counted where it lives, ``GROUP BY predicted, actual``, and only the
        counts come back (`informed.engines`; docs/engines.md).

        >>> Table.from_frame({"y": ["a", "b", "b"], "p": ["a", "b", "a"]},
        ...                  actual="y", predicted="p").counts.tolist()
        [[1, 1], [0, 1]]
        """
        named = {"actual": actual, "predicted": predicted, "weights": weights}
        given = {k: v for k, v in named.items() if v is not None} | aliases
        columns = frame_label_columns("Table.from_frame", frame, given)
        if engine_of(frame) is not None:
            counted_there: Table = engine_table(frame, columns, labels, clusters, storage)
            return counted_there
        counted = count_labels(*columns, labels, clusters, storage)
        return cls(counted.counts, counted.predicted, counted.actual)

    @classmethod
    def empty(cls) -> Table:
        """The Table of no cases and no labels: the identity of `+`, where `sum` starts.

        >>> tables = [Table.binary(tp=1, fp=2, fn=3, tn=4)] * 3
        >>> sum(tables, Table.empty()) == sum(tables) == Table.binary(tp=3, fp=6, fn=9, tn=12)
        True
        """
        return cls(np.zeros((0, 0), dtype=np.int64), (), ())

    # ------------------------------------------------------------------ properties
    @property
    def counts(self) -> NDArray[Any]:
        """The (K, C) matrix of counts, read-only. A sparse table makes it on demand, up
        to 2^24 cells; beyond, an error points to `cells` and `sparse_counts`."""
        return self._stored.dense_view()

    @property
    def storage(self) -> str:
        """ "dense" (every cell held) or "sparse" (only the non-zero cells)."""
        return self._stored.kind

    @property
    def cells(self) -> TableCells:
        """The non-zero cells in row-major order (positions in `predicted` and `actual`,
        and their counts), for a table stored either way.

        >>> Table.binary(tp=5, fp=0, fn=2, tn=3).cells.counts.tolist()
        [5, 2, 3]
        """
        return TableCells(*self._stored.nonzero())

    @property
    def sparse_counts(self) -> Any:
        """The counts as a scipy.sparse CSR array of shape (K, C) (a new copy)."""
        from scipy import sparse

        rows, cols, values = self._stored.nonzero()
        return sparse.csr_array((values.copy(), (rows, cols)), shape=self.shape)

    def to_dense(self) -> Table:
        """The same table stored densely (checked against the memory there is)."""
        return Table(self._stored.stored_as("dense"), self.predicted, self.actual)

    def to_sparse(self) -> Table:
        """The same table holding only its non-zero cells."""
        return Table(self._stored.stored_as("sparse"), self.predicted, self.actual)

    @property
    def n(self) -> float:
        """Total count (or total weight) N."""
        return self._stored.total()

    @property
    def weighted(self) -> bool:
        """True when the table holds float weights rather than integer counts."""
        return self._stored.dtype.kind == "f"

    @property
    def dtype(self) -> np.dtype[Any]:
        """int64 for counts, float64 for weights."""
        return self._stored.dtype

    @property
    def labels(self) -> tuple[Label, ...]:
        """The union of predicted and actual labels, in canonical order."""
        return self._square_positions()[0]

    @property
    def shape(self) -> tuple[int, int]:
        """(K predicted labels, C actual classes)."""
        return self._stored.shape

    def _square_positions(
        self,
    ) -> tuple[tuple[Label, ...], NDArray[np.intp], NDArray[np.intp]]:
        """The union of labels and where each row and column falls in it (kept)."""
        if "union" not in self._cache:
            labels = sort_labels((*self.predicted, *self.actual))
            rows = positions_in(self.predicted, labels)
            cols = positions_in(self.actual, labels)
            self._cache["union"] = (labels, readonly(rows), readonly(cols))
        found: tuple[tuple[Label, ...], NDArray[np.intp], NDArray[np.intp]] = self._cache["union"]
        return found

    def label_position(self, label: Any) -> int | None:
        """Where `label` is in `labels` (True is not 1); None if it is not a label."""
        found = self._index.get(keyed(as_label(label)))
        if found is None:
            return None
        _, rows, cols = self._square_positions()
        return int(rows[found[0]]) if found[0] is not None else int(cols[found[1] or 0])

    def square(self) -> tuple[tuple[Label, ...], NDArray[Any]]:
        """Counts over the union of labels on both axes: (labels, counts[L, L]).

        A label that was never predicted gets a row of zeros; a label that never occurs
        gets a column of zeros. Per-label measures are computed on this square form; a
        sparse table gives it as `square_cells`, and as an array only as `counts` does.
        """
        labels, rows, cols = self._square_positions()
        L = len(labels)
        if self.storage == "sparse" and L * L > DENSE_VIEW:
            msg = (
                f"the square table of {L:,} labels would have {L * L:,} cells; this table "
                "is stored sparsely: use `table.square_cells()`."
            )
            raise MemoryLimitError(msg)
        return labels, self._stored.placed(rows, cols, L)

    def square_cells(self) -> tuple[tuple[Label, ...], Cells]:
        """The square table over the union of labels as `informed.measures.Cells`: its
        non-zero cells in row-major order (kept), read by every measure as it reads the
        array `square` gives, to the last bit, however the table is stored."""
        if "cells" not in self._cache:
            labels, rows, cols = self._square_positions()
            sr, sc, values = self._stored.placed_cells(rows, cols, len(labels))
            cells = Cells(values, sr, sc, (len(labels),) * 2)
            for array in (cells.values, cells.rows, cells.cols):
                array.flags.writeable = False
            self._cache["cells"] = (labels, cells)
        found: tuple[tuple[Label, ...], Cells] = self._cache["cells"]
        return found

    def one_vs_rest(self, label: Any) -> OneVsRest:
        """The 2x2 view of `label` against every other label."""
        label = as_label(label)
        found = self._index.get(keyed(label))
        if found is None:
            msg = f"{label!r} is not a label of this table; labels are {_some(self.labels)}."
            raise InputError(msg)
        # each cell an exact sum of the table's cells, never large sums subtracted
        views = one_vs_rest_counts(self.square_cells()[1])
        tp, fp, fn, tn = views[self.label_position(label) or 0].ravel().tolist()
        return OneVsRest(label=label, tp=tp, fp=fp, fn=fn, tn=tn)

    def transpose(self) -> Table:
        """Swap prediction and reality: recall <-> precision, informedness <-> markedness."""
        return Table(self._stored.transpose(), self.actual, self.predicted)

    def count(self, predicted: Any, actual: Any) -> float:
        """The count in one cell, 0 for labels absent from an axis."""
        i = self._index.get(keyed(as_label(predicted)), (None, None))[0]
        j = self._index.get(keyed(as_label(actual)), (None, None))[1]
        if i is None or j is None:
            return 0
        value = self._stored.value(i, j)
        return int(value) if not self.weighted else float(value)

    # ------------------------------------------------------------------ merge, equality
    def __add__(self, other: object) -> Table:
        """Merge two tables: counts added over the union of labels on each axis.

        The sum is stored sparsely when both tables are, else as "auto" chooses."""
        if not isinstance(other, Table):
            return NotImplemented
        stored, rows, cols = merged(
            (self._stored, self.predicted, self.actual),
            (other._stored, other.predicted, other.actual),
        )
        return Table(stored, rows, cols)

    def __radd__(self, other: object) -> Table:
        """``0 + table`` is the table, so that ``sum(tables)`` starts from Python's 0."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        """Same labels on each axis, same kind of counts, same counts (however stored)."""
        if not isinstance(other, Table):
            return NotImplemented
        if not (
            _keyed(self.predicted) == _keyed(other.predicted)
            and _keyed(self.actual) == _keyed(other.actual)
            and self.dtype == other.dtype
        ):
            return False
        if self.storage == other.storage == "dense":
            return bool(np.array_equal(self.counts, other.counts))
        mine, theirs = self._stored.nonzero(), other._stored.nonzero()
        return all(np.array_equal(a, b) for a, b in zip(mine, theirs, strict=True))

    def __hash__(self) -> int:
        rows, cols, values = self._stored.nonzero()
        return hash(
            (
                _keyed(self.predicted),
                _keyed(self.actual),
                self.dtype.str,
                rows.tobytes(),
                cols.tobytes(),
                values.tobytes(),
            )
        )

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `Table.from_dict` restores the table exactly.

        ``"counts"`` is a list of rows for a dense table, and the sparse form
        ``{"row": [...], "column": [...], "count": [...]}`` (the non-zero cells,
        positions in ``"predicted"`` and ``"actual"``) for a sparse one.
        """
        return table_dict(self._stored, self.predicted, self.actual)

    def to_json(self) -> str:
        """Serialise to JSON (floats written with Python's shortest exact repr)."""
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Table:
        """Restore a Table from `to_dict` output, validating every field."""
        stored, predicted, actual = parts_from_dict(data)
        return cls(stored, predicted, actual)

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Parse `to_json` output; NaN and Infinity tokens are refused."""
        return cls.from_dict(loads_strict(text, "a Table JSON document"))

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        return table_repr(self._stored, self.predicted, self.actual)

    def __str__(self) -> str:
        return table_text(self._stored, self.predicted, self.actual)

    def _repr_html_(self) -> str:
        """A notebook's view: the counts with their margins, rows predicted (escaped)."""
        return table_html(self._stored, self.predicted, self.actual, self.weighted)


# ---------------------------------------------------------------------- helpers
def _keyed(labels: tuple[Label, ...]) -> tuple[tuple[str, Label], ...]:
    return tuple(keyed(x) for x in labels)
