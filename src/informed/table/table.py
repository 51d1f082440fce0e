"""Table: the contingency table of predicted labels against actual classes.

Rows are predicted labels (+P, -P, ...), columns are actual classes (+R, -R, ...), as in
Powers (2003, 2011). A Table is frozen, carries its labels, and merges with
`+` over the union of labels. K predicted labels may differ from C classes (clusters).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import loads_strict, readonly
from informed.columns import frame_column
from informed.errors import InputError, InputTypeError
from informed.labels import Label, as_label, keyed, label_key, label_kind, sort_labels
from informed.table.counting import check_counts, check_label_list, count_labels, list_dtype
from informed.table.display import table_html

__all__ = ["OneVsRest", "Table"]

_JSON_KIND = "informed.Table"
_JSON_VERSION = 1


@dataclass(frozen=True)
class OneVsRest:
    """The 2x2 view of one label against all others, cells reached by name.

    tp: predicted `label` and actually `label`; fp: predicted `label`, actually another
    class; fn: predicted another label, actually `label`; tn: neither.
    """

    label: Label
    tp: float
    fp: float
    fn: float
    tn: float

    @property
    def counts(self) -> NDArray[np.float64]:
        """The cells as [[tp, fp], [fn, tn]] (rows predicted +P/-P, columns actual +R/-R)."""
        return np.array([[self.tp, self.fp], [self.fn, self.tn]], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class Table:
    """Counts of predicted label (rows) x actual class (columns).

    Build it with a constructor whose orientation cannot be misread:
    `Table.from_labels(actual=..., predicted=...)`, `Table.binary(tp=, fp=, fn=, tn=)`
    or `Table.from_counts(counts, rows="predicted" | "actual")`.

    Attributes
    ----------
    counts : ndarray of shape (K, C)
        int64 counts, or float64 weights; read-only.
    predicted : tuple
        The K row labels, in canonical order.
    actual : tuple
        The C column labels, in canonical order.

    >>> t = Table.binary(tp=12, fp=28, fn=18, tn=42)
    >>> t.one_vs_rest("+")
    OneVsRest(label='+', tp=12.0, fp=28.0, fn=18.0, tn=42.0)
    """

    counts: NDArray[Any]
    predicted: tuple[Label, ...]
    actual: tuple[Label, ...]
    _index: dict[tuple[str, Label], tuple[int | None, int | None]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        counts = np.asarray(self.counts)
        if counts.shape != (len(self.predicted), len(self.actual)):
            msg = (
                f"`counts` has shape {counts.shape} but there are {len(self.predicted)} "
                f"predicted and {len(self.actual)} actual labels."
            )
            raise InputError(msg)
        if counts.dtype not in (np.dtype(np.int64), np.dtype(np.float64)):
            msg = f"`counts` must be int64 or float64; got {counts.dtype}."
            raise InputTypeError(msg)
        counts = counts.copy() if counts.flags.writeable else counts
        object.__setattr__(self, "counts", readonly(counts))
        index: dict[tuple[str, Label], tuple[int | None, int | None]] = {}
        for i, label in enumerate(self.predicted):
            index[keyed(label)] = (i, None)
        for j, label in enumerate(self.actual):
            row = index.get(keyed(label), (None, None))[0]
            index[keyed(label)] = (row, j)
        object.__setattr__(self, "_index", index)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def _canonical(
        cls,
        counts: NDArray[Any],
        predicted: Sequence[Label],
        actual: Sequence[Label],
    ) -> Table:
        """Reorder rows and columns into canonical label order."""
        row_order = sorted(range(len(predicted)), key=lambda i: label_key(predicted[i]))
        col_order = sorted(range(len(actual)), key=lambda j: label_key(actual[j]))
        counts = counts[np.ix_(row_order, col_order)] if counts.size else counts
        return cls(
            counts=np.ascontiguousarray(counts),
            predicted=tuple(predicted[i] for i in row_order),
            actual=tuple(actual[j] for j in col_order),
        )

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
    ) -> Table:
        """A Table from a matrix of counts whose orientation you state.

        Parameters
        ----------
        counts : array-like of shape (K, C) or (C, K)
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

        >>> Table.from_counts([[5, 2], [3, 7]], rows="actual", labels=["a", "b"]).counts
        array([[5, 3],
               [2, 7]])
        """
        if rows not in ("predicted", "actual"):
            msg = f"`rows` must be 'predicted' or 'actual'; got {rows!r}."
            raise InputError(msg)
        array = check_counts(
            np.array(counts, dtype=None if not isinstance(counts, list) else list_dtype(counts)),
            weighted,
        )
        if rows == "actual":
            array = array.T
        K, C = array.shape
        if labels is not None:
            if predicted is not None or actual is not None:
                msg = "pass either `labels` or `predicted`/`actual`, not both."
                raise InputError(msg)
            if K != C:
                msg = (
                    f"`labels` names both axes of a square table, but `counts` is {K}x{C} "
                    "(predicted x actual); pass `predicted=` and `actual=` instead."
                )
                raise InputError(msg)
            predicted = actual = labels
        row_labels = (
            check_label_list(predicted, "predicted") if predicted is not None else tuple(range(K))
        )
        col_labels = check_label_list(actual, "actual") if actual is not None else tuple(range(C))
        if len(row_labels) != K or len(col_labels) != C:
            msg = (
                f"`counts` is {K}x{C} (predicted x actual) but {len(row_labels)} predicted and "
                f"{len(col_labels)} actual labels were given."
            )
            raise InputError(msg)
        return cls._canonical(array, row_labels, col_labels)

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
        """A 2x2 Table from its four cells; `labels` are (positive, negative).

        >>> Table.binary(tp=42, fp=18, fn=28, tn=12).counts
        array([[42, 18],
               [28, 12]])
        """
        counts = [[tp, fp], [fn, tn]]
        table = cls.from_counts(counts, rows="predicted", labels=list(labels))
        # keep (positive, negative) order even when it is not the canonical one
        if table.predicted != tuple(labels):
            return cls(
                counts=table.counts[::-1, ::-1].copy(),
                predicted=tuple(labels),
                actual=tuple(labels),
            )
        return table

    @classmethod
    def from_labels(
        cls,
        *,
        actual: Any,
        predicted: Any,
        weights: Any = None,
        labels: Sequence[Any] | None = None,
        clusters: bool = False,
    ) -> Table:
        """Count predicted labels against actual classes.

        Parameters
        ----------
        actual, predicted : array-like of shape (n,)
            Labels: str, int, float or bool (numpy arrays, lists, pandas Series).
        weights : array-like of shape (n,), optional
            Non-negative finite weights; the Table then holds float64 weights. A weight of
            0 is the same as leaving the row out.
        labels : sequence, optional
            The label universe for both axes (a square table, in this order of labels
            canonicalised); a value outside it is an error naming the row.
        clusters : bool
            The predicted values are cluster ids, unrelated to the class labels, and may
            be of another kind (ints against strings); see `informed.table`.

        Returns
        -------
        Table
            Rows: the labels predicted at least once (or `labels`); columns: the classes
            seen at least once (or `labels`).
        """
        counted = count_labels(actual, predicted, weights, labels, clusters)
        return cls(counts=counted.counts, predicted=counted.predicted, actual=counted.actual)

    @classmethod
    def from_frame(
        cls,
        frame: Any,
        *,
        actual: str,
        predicted: str,
        weights: str | None = None,
        labels: Sequence[Any] | None = None,
        clusters: bool = False,
    ) -> Table:
        """Count two columns of a DataFrame: `from_labels` on the named columns.

        `frame` is a pandas or polars DataFrame, a pyarrow Table or RecordBatch, a mapping
        of names to columns, or any object with the Arrow PyCapsule interface (with
        pyarrow installed). None of these libraries is a dependency of informed. Columns
        keep their form: a categorical or dictionary column's codes are counted directly.

        >>> Table.from_frame({"y": ["a", "b", "b"], "p": ["a", "b", "a"]},
        ...                  actual="y", predicted="p").counts.tolist()
        [[1, 1], [0, 1]]
        """
        return cls.from_labels(
            actual=frame_column(frame, actual, "actual"),
            predicted=frame_column(frame, predicted, "predicted"),
            weights=None if weights is None else frame_column(frame, weights, "weights"),
            labels=labels,
            clusters=clusters,
        )

    # ------------------------------------------------------------------ properties
    @property
    def n(self) -> float:
        """Total count (or total weight) N."""
        total = self.counts.sum()
        return int(total) if self.counts.dtype.kind == "i" else float(total)

    @property
    def weighted(self) -> bool:
        """True when the table holds float weights rather than integer counts."""
        return self.counts.dtype.kind == "f"

    @property
    def labels(self) -> tuple[Label, ...]:
        """The union of predicted and actual labels, in canonical order."""
        return sort_labels((*self.predicted, *self.actual))

    @property
    def shape(self) -> tuple[int, int]:
        """(K predicted labels, C actual classes)."""
        return (len(self.predicted), len(self.actual))

    def square(self) -> tuple[tuple[Label, ...], NDArray[Any]]:
        """Counts over the union of labels on both axes: (labels, counts[L, L]).

        A label that was never predicted gets a row of zeros; a label that never occurs
        gets a column of zeros. Per-label measures are computed on this square form.
        """
        labels = self.labels
        position = {keyed(x): i for i, x in enumerate(labels)}
        rows = [position[keyed(x)] for x in self.predicted]
        cols = [position[keyed(x)] for x in self.actual]
        out = np.zeros((len(labels), len(labels)), dtype=self.counts.dtype)
        if self.counts.size:
            out[np.ix_(rows, cols)] = self.counts
        return labels, out

    def one_vs_rest(self, label: Any) -> OneVsRest:
        """The 2x2 view of `label` against every other label."""
        label = as_label(label)
        found = self._index.get(keyed(label))
        if found is None:
            msg = f"{label!r} is not a label of this table; labels are {list(self.labels)}."
            raise InputError(msg)
        i, j = found
        total = float(self.counts.sum())
        tp = float(self.counts[i, j]) if i is not None and j is not None else 0.0
        row = float(self.counts[i].sum()) if i is not None else 0.0
        col = float(self.counts[:, j].sum()) if j is not None else 0.0
        return OneVsRest(label=label, tp=tp, fp=row - tp, fn=col - tp, tn=total - row - col + tp)

    def transpose(self) -> Table:
        """Swap prediction and reality: recall <-> precision, informedness <-> markedness."""
        return Table(counts=self.counts.T.copy(), predicted=self.actual, actual=self.predicted)

    def count(self, predicted: Any, actual: Any) -> float:
        """The count in one cell, 0 for labels absent from an axis."""
        i = self._index.get(keyed(as_label(predicted)), (None, None))[0]
        j = self._index.get(keyed(as_label(actual)), (None, None))[1]
        if i is None or j is None:
            return 0
        value = self.counts[i, j]
        return int(value) if self.counts.dtype.kind == "i" else float(value)

    # ------------------------------------------------------------------ merge, equality
    def __add__(self, other: object) -> Table:
        """Merge two tables: counts added over the union of labels on each axis."""
        if not isinstance(other, Table):
            return NotImplemented
        for mine, theirs, axis in (
            (self.predicted, other.predicted, "predicted"),
            (self.actual, other.actual, "actual"),
        ):
            if mine and theirs:
                kinds = {label_kind(x) for x in (*mine, *theirs)}
                if len(kinds) > 1:
                    msg = (
                        f"cannot merge tables whose {axis} labels are of different kinds: "
                        f"{sorted(kinds)}."
                    )
                    raise InputTypeError(msg)
        rows = sort_labels((*self.predicted, *other.predicted))
        cols = sort_labels((*self.actual, *other.actual))
        dtype = np.int64 if not (self.weighted or other.weighted) else np.float64
        out = np.zeros((len(rows), len(cols)), dtype=dtype)
        for table in (self, other):
            r = [rows.index(x) for x in table.predicted]
            c = [cols.index(x) for x in table.actual]
            if table.counts.size:
                out[np.ix_(r, c)] += table.counts.astype(dtype)
        return Table(counts=out, predicted=rows, actual=cols)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return (
            _keyed(self.predicted) == _keyed(other.predicted)
            and _keyed(self.actual) == _keyed(other.actual)
            and self.counts.dtype == other.counts.dtype
            and bool(np.array_equal(self.counts, other.counts))
        )

    def __hash__(self) -> int:
        return hash((_keyed(self.predicted), _keyed(self.actual), self.counts.tobytes()))

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `Table.from_dict` restores the table exactly."""
        return {
            "kind": _JSON_KIND,
            "version": _JSON_VERSION,
            "rows": "predicted",
            "weighted": self.weighted,
            "predicted": list(self.predicted),
            "actual": list(self.actual),
            "counts": self.counts.tolist(),
        }

    def to_json(self) -> str:
        """Serialise to JSON (floats written with Python's shortest exact repr)."""
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Table:
        """Restore a Table from `to_dict` output, validating every field."""
        if not isinstance(data, dict):
            msg = f"a Table JSON document must be an object; got {type(data).__name__}."
            raise InputTypeError(msg)
        expected = {"kind", "version", "rows", "weighted", "predicted", "actual", "counts"}
        if set(data) != expected:
            msg = (
                f"a Table JSON document has keys {sorted(expected)}; got {sorted(data)} "
                f"(missing {sorted(expected - set(data))}, unknown {sorted(set(data) - expected)})."
            )
            raise InputError(msg)
        if data["kind"] != _JSON_KIND or data["version"] != _JSON_VERSION:
            msg = (
                f"expected kind {_JSON_KIND!r} version {_JSON_VERSION}; got "
                f"{data['kind']!r} version {data['version']!r}."
            )
            raise InputError(msg)
        if data["rows"] != "predicted":
            msg = f"`rows` must be 'predicted'; got {data['rows']!r}."
            raise InputError(msg)
        weighted = data["weighted"]
        if not isinstance(weighted, bool):
            msg = f"`weighted` must be true or false; got {weighted!r}."
            raise InputError(msg)
        predicted = check_label_list(data["predicted"], "predicted")
        actual = check_label_list(data["actual"], "actual")
        raw = data["counts"]
        if not predicted or not actual:
            counts = np.zeros(
                (len(predicted), len(actual)), dtype=np.float64 if weighted else np.int64
            )
        else:
            if not isinstance(raw, list) or any(
                not isinstance(r, list) or len(r) != len(actual) for r in raw
            ):
                msg = "`counts` must be a list of rows, each as long as `actual`."
                raise InputError(msg)
            counts = check_counts(np.array(raw, dtype=np.float64 if weighted else object), weighted)
        return cls(counts=counts, predicted=predicted, actual=actual)

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Parse `to_json` output; NaN and Infinity tokens are refused."""
        return cls.from_dict(loads_strict(text, "a Table JSON document"))

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        return (
            f"Table(predicted={list(self.predicted)!r}, actual={list(self.actual)!r}, "
            f"counts={self.counts.tolist()!r})"
        )

    def __str__(self) -> str:
        def fmt(x: Any) -> str:
            return f"{x:g}" if isinstance(x, float) else str(x)

        head = ["predicted \\ actual", *(str(c) for c in self.actual), "total"]
        body = [
            [str(r), *(fmt(v) for v in row), fmt(sum(row))]
            for r, row in zip(self.predicted, self.counts.tolist(), strict=True)
        ]
        totals = self.counts.sum(axis=0).tolist()
        body.append(["total", *(fmt(v) for v in totals), fmt(sum(totals))])
        widths = [max(len(line[k]) for line in [head, *body]) for k in range(len(head))]
        lines = [
            "  ".join(
                cell.rjust(w) if k else cell.ljust(w)
                for k, (cell, w) in enumerate(zip(line, widths, strict=True))
            )
            for line in [head, *body]
        ]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """A notebook's view: the counts with their margins, rows predicted (escaped)."""
        return table_html(self.counts, self.predicted, self.actual, self.weighted)


# ---------------------------------------------------------------------- helpers
def _keyed(labels: tuple[Label, ...]) -> tuple[tuple[str, Label], ...]:
    return tuple(keyed(x) for x in labels)
