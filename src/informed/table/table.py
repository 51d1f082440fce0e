"""Table: the contingency table of predicted labels against actual classes.

Rows are predicted labels (+P, -P, ...), columns are actual classes (+R, -R, ...), as in
the seeds (Powers 2003, 2011). A Table is frozen, carries its labels, and merges with
`+` over the union of labels. K predicted labels may differ from C classes (clusters).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.labels import (
    Label,
    as_label,
    as_vector,
    check_one_kind,
    code_labels,
    keyed,
    label_key,
    label_kind,
    sort_labels,
)

__all__ = ["OneVsRest", "Table"]

_INT64_MAX = np.iinfo(np.int64).max
# Integer labels spanning fewer values than this are counted by one bincount, no sort.
_DIRECT_CODE_LIMIT = 1 << 22
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


def _readonly(array: NDArray[Any]) -> NDArray[Any]:
    array.setflags(write=False)
    return array


def _check_counts(counts: NDArray[Any], weighted: bool | None) -> NDArray[Any]:
    """Validate a 2-D counts matrix; return it as int64 or float64."""
    if counts.ndim != 2:
        msg = f"`counts` must be two-dimensional; got shape {counts.shape}."
        raise InputError(msg)
    if counts.dtype.kind == "b":
        msg = "`counts` is boolean; pass integer counts or float weights."
        raise InputTypeError(msg)
    if counts.dtype.kind == "O":
        values = counts.ravel().tolist()
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            too_big = [v for v in values if abs(v) > _INT64_MAX]
            if too_big:
                msg = (
                    f"`counts` holds {too_big[0]}, beyond int64; pass float weights "
                    "(`weighted=True`) for counts this large."
                )
                raise InputError(msg)
            counts = counts.astype(np.int64)
        else:
            try:
                counts = counts.astype(np.float64)
            except (TypeError, ValueError):
                msg = "`counts` must be numeric."
                raise InputTypeError(msg) from None
    if counts.dtype.kind not in "iuf":
        msg = f"`counts` must be numeric; got dtype {counts.dtype}."
        raise InputTypeError(msg)
    if counts.dtype.kind == "f":
        bad = ~np.isfinite(counts)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            msg = f"`counts` must be finite; got {counts[where]!r} at {where}."
            raise InputError(msg)
        integral = bool(np.all(counts == np.round(counts)))
        if weighted is False and not integral:
            where = tuple(int(i) for i in np.argwhere(counts != np.round(counts))[0])
            msg = (
                f"`counts` holds the non-integer {counts[where]!r} at {where} but "
                "`weighted=False`; pass `weighted=True` for weights."
            )
            raise InputError(msg)
        counts = counts.astype(np.int64) if weighted is False else counts.astype(np.float64)
    else:
        if counts.dtype.kind == "u" and counts.size and int(counts.max()) > _INT64_MAX:
            msg = "`counts` exceeds int64; pass float weights (`weighted=True`)."
            raise InputError(msg)
        counts = counts.astype(np.float64) if weighted else counts.astype(np.int64)
    if counts.size and counts.min() < 0:
        where = tuple(int(i) for i in np.argwhere(counts < 0)[0])
        msg = (
            f"`counts` must be non-negative; got {counts[where]!r} at {where}. "
            "Pass weights through `weights=`, not as negative counts."
        )
        raise InputError(msg)
    if counts.dtype.kind == "i" and counts.size:
        total = sum(int(x) for x in counts.sum(axis=1, dtype=object))
        if total > _INT64_MAX:
            msg = f"the total count {total} exceeds int64; pass float weights."
            raise InputError(msg)
    return counts


def _check_label_list(labels: Sequence[Any], name: str) -> tuple[Label, ...]:
    if isinstance(labels, str | bytes | set | frozenset):
        msg = f"`{name}` must be a list or tuple of labels; got {type(labels).__name__}."
        raise InputTypeError(msg)
    out = tuple(as_label(x) for x in labels)
    check_one_kind(out, name)
    keyed = [(label_kind(x), x) for x in out]
    if len(set(keyed)) != len(keyed):
        seen: set[tuple[str, Label]] = set()
        dup = next(x for x in keyed if x in seen or seen.add(x))  # type: ignore[func-returns-value]
        msg = f"`{name}` must hold distinct labels; {dup[1]!r} appears twice."
        raise InputError(msg)
    return out


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
        object.__setattr__(self, "counts", _readonly(counts))
        index: dict[tuple[str, Label], tuple[int | None, int | None]] = {}
        for i, label in enumerate(self.predicted):
            index[(label_kind(label), label)] = (i, None)
        for j, label in enumerate(self.actual):
            row = index.get((label_kind(label), label), (None, None))[0]
            index[(label_kind(label), label)] = (row, j)
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
            `confusion_matrix` has rows = actual, the seeds have rows = predicted.
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
        array = _check_counts(
            np.array(counts, dtype=None if not isinstance(counts, list) else _list_dtype(counts)),
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
            _check_label_list(predicted, "predicted") if predicted is not None else tuple(range(K))
        )
        col_labels = _check_label_list(actual, "actual") if actual is not None else tuple(range(C))
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
        a = as_vector(actual, "actual")
        p = as_vector(predicted, "predicted")
        if a.shape[0] != p.shape[0]:
            msg = (
                "Found input variables with inconsistent numbers of samples: "
                f"actual {a.shape[0]}, predicted {p.shape[0]}."
            )
            raise InputError(msg)
        w = _check_weights(weights, a.shape[0])
        if labels is not None:
            universe = _check_label_list(labels, "labels")
            return _from_labels_fixed(a, p, w, universe)
        direct = _direct_integer_codes(a, p)
        if direct is not None:
            a_codes, a_labels, p_codes, p_labels = direct
        else:
            a_labels, a_codes = code_labels(a, "actual")
            p_labels, p_codes = code_labels(p, "predicted")
        if not clusters:
            kinds_a = {label_kind(x) for x in a_labels}
            kinds_p = {label_kind(x) for x in p_labels}
            if kinds_a and kinds_p and kinds_a != kinds_p:
                msg = (
                    "Labels in `actual` and `predicted` should be of the same kind: actual "
                    f"holds {sorted(kinds_a)} such as {a_labels[0]!r}, predicted holds "
                    f"{sorted(kinds_p)} such as {p_labels[0]!r}. Convert one side, or pass "
                    "`clusters=True` if the predictions are cluster ids."
                )
                raise InputTypeError(msg)
        counts = _count(p_codes, len(p_labels), a_codes, len(a_labels), w)
        keep_rows = np.flatnonzero(counts.sum(axis=1) > 0)
        keep_cols = np.flatnonzero(counts.sum(axis=0) > 0)
        counts = counts[np.ix_(keep_rows, keep_cols)]
        return cls(
            counts=np.ascontiguousarray(counts),
            predicted=tuple(p_labels[i] for i in keep_rows),
            actual=tuple(a_labels[j] for j in keep_cols),
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
        position = {(label_kind(x), x): i for i, x in enumerate(labels)}
        rows = [position[(label_kind(x), x)] for x in self.predicted]
        cols = [position[(label_kind(x), x)] for x in self.actual]
        out = np.zeros((len(labels), len(labels)), dtype=self.counts.dtype)
        if self.counts.size:
            out[np.ix_(rows, cols)] = self.counts
        return labels, out

    def one_vs_rest(self, label: Any) -> OneVsRest:
        """The 2x2 view of `label` against every other label."""
        label = as_label(label)
        found = self._index.get((label_kind(label), label))
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
        i = self._index.get((label_kind(as_label(predicted)), as_label(predicted)), (None, None))[0]
        j = self._index.get((label_kind(as_label(actual)), as_label(actual)), (None, None))[1]
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
        predicted = _check_label_list(data["predicted"], "predicted")
        actual = _check_label_list(data["actual"], "actual")
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
            counts = _check_counts(
                np.array(raw, dtype=np.float64 if weighted else object), weighted
            )
        return cls(counts=counts, predicted=predicted, actual=actual)

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Parse `to_json` output; NaN and Infinity tokens are refused."""

        def refuse(token: str) -> float:
            msg = f"a Table JSON document must not hold {token}."
            raise InputError(msg)

        return cls.from_dict(json.loads(text, parse_constant=refuse))

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


# ---------------------------------------------------------------------- helpers
def _keyed(labels: tuple[Label, ...]) -> tuple[tuple[str, Label], ...]:
    return tuple(keyed(x) for x in labels)


def _list_dtype(counts: list[Any]) -> Any:
    """Let numpy infer, but keep Python ints beyond int64 as objects to report them."""
    flat: list[Any] = []
    stack: list[Any] = [counts]
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(item)
        else:
            flat.append(item)
    if any(isinstance(x, int) and not isinstance(x, bool) and abs(x) > _INT64_MAX for x in flat):
        return object
    return None


def _check_weights(weights: Any, n: int) -> NDArray[np.float64] | None:
    if weights is None:
        return None
    w = as_vector(weights, "weights", labels=False)
    if w.shape[0] != n:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"{n} labels, {w.shape[0]} weights."
        )
        raise InputError(msg)
    if w.dtype.kind not in "iuf":
        msg = f"`weights` must be numeric; got dtype {w.dtype}."
        raise InputTypeError(msg)
    w = w.astype(np.float64)
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        msg = f"`weights` must be finite and non-negative; got {w[row]!r} at row {row}."
        raise InputError(msg)
    return w


def _direct_integer_codes(
    a: NDArray[Any], p: NDArray[Any]
) -> tuple[NDArray[np.int64], tuple[Label, ...], NDArray[np.int64], tuple[Label, ...]] | None:
    """Code small-range integer labels by offset, without a sort.

    Returns None when the labels are not integers or span too many values; the caller
    then codes them with `np.unique`.
    """
    if a.dtype.kind not in "iu" or p.dtype.kind not in "iu" or a.size == 0:
        return None
    a_lo, a_hi = int(a.min()), int(a.max())
    p_lo, p_hi = int(p.min()), int(p.max())
    if (a_hi - a_lo + 1) * (p_hi - p_lo + 1) > _DIRECT_CODE_LIMIT:
        return None
    # int64 before arithmetic: uint8 codes wrap at 16 x 17 (tm#1510)
    a_codes = a.astype(np.int64, copy=False)
    p_codes = p.astype(np.int64, copy=False)
    if a_lo:
        a_codes = a_codes - a_lo
    if p_lo:
        p_codes = p_codes - p_lo
    return (
        a_codes,
        tuple(range(a_lo, a_hi + 1)),
        p_codes,
        tuple(range(p_lo, p_hi + 1)),
    )


def _count(
    p_codes: NDArray[Any],
    n_rows: int,
    a_codes: NDArray[Any],
    n_cols: int,
    weights: NDArray[np.float64] | None,
) -> NDArray[Any]:
    """counts[row, col] by one bincount over combined codes (int64 or float64)."""
    if n_rows == 0 or n_cols == 0:
        return np.zeros((n_rows, n_cols), dtype=np.int64 if weights is None else np.float64)
    combined = p_codes.astype(np.int64, copy=False) * n_cols
    combined += a_codes
    flat = np.bincount(combined, weights=weights, minlength=n_rows * n_cols)
    counts = flat.reshape(n_rows, n_cols)
    return counts.astype(np.int64, copy=False) if weights is None else counts


def _from_labels_fixed(
    a: NDArray[Any], p: NDArray[Any], w: NDArray[np.float64] | None, universe: tuple[Label, ...]
) -> Table:
    """Count over a given label universe; any other value is an error naming its row."""
    ordered = sort_labels(universe)
    codes = []
    for values, name in ((a, "actual"), (p, "predicted")):
        seen, row_codes = code_labels(values, name)
        position = {(label_kind(x), x): i for i, x in enumerate(ordered)}
        mapped = np.array([position.get((label_kind(x), x), -1) for x in seen], dtype=np.int64)
        if (mapped < 0).any():
            missing = seen[int(np.flatnonzero(mapped < 0)[0])]
            row = int(np.flatnonzero(row_codes == int(np.flatnonzero(mapped < 0)[0]))[0])
            msg = (
                f"`{name}` holds {missing!r} at row {row}, which is not in `labels` "
                f"{list(ordered)}."
            )
            raise InputError(msg)
        codes.append(mapped[row_codes] if len(row_codes) else np.zeros(0, np.int64))
    counts = _count(codes[1], len(ordered), codes[0], len(ordered), w)
    return Table(counts=np.ascontiguousarray(counts), predicted=ordered, actual=ordered)
