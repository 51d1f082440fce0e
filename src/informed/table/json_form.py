"""The JSON form of a Table: its labels and its counts, dense rows or sparse cells.

A densely stored table writes ``"counts"`` as a list of rows (rows predicted); a sparsely
stored one (many labels, few of their cells filled) as an object of three parallel
lists, ``{"row": [...], "column": [...], "count": [...]}``: cell k holds count[k] cases
predicted ``predicted[row[k]]`` whose class is ``actual[column[k]]``, and every cell not
listed is 0. Either form restores the table exactly, in the storage it was written from.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from informed._common import check_document, check_json_numbers, printable
from informed.coding.labels import Label
from informed.errors import InputError, InputTypeError
from informed.table.counting import check_counts, check_label_list
from informed.table.storage import Stored, from_cells, from_dense

__all__ = [
    "JSON_KIND",
    "JSON_VERSION",
    "SPARSE_KEYS",
    "counts_json",
    "parts_from_dict",
    "table_dict",
]

JSON_KIND = "informed.Table"
JSON_VERSION = 1
SPARSE_KEYS = ("row", "column", "count")
"""The keys of the sparse form of ``"counts"``: parallel lists, one entry per non-zero cell."""


def table_dict(
    stored: Stored, predicted: tuple[Label, ...], actual: tuple[Label, ...]
) -> dict[str, Any]:
    """The JSON document of a Table (`Table.to_dict`)."""
    return {
        "kind": JSON_KIND,
        "version": JSON_VERSION,
        "rows": "predicted",
        "weighted": stored.dtype.kind == "f",
        "predicted": list(predicted),
        "actual": list(actual),
        "counts": counts_json(stored),
    }


def counts_json(stored: Stored) -> Any:
    """The ``"counts"`` entry: a list of rows (dense) or the non-zero cells (sparse)."""
    if stored.dense is not None:
        return stored.dense.tolist()
    rows, cols, values = stored.nonzero()
    return {"row": rows.tolist(), "column": cols.tolist(), "count": values.tolist()}


_KEYS = frozenset({"kind", "version", "rows", "weighted", "predicted", "actual", "counts"})


def parts_from_dict(data: Any) -> tuple[Stored, tuple[Label, ...], tuple[Label, ...]]:
    """The counts and the labels of each axis of a Table's JSON document, every field
    checked (`Table.from_dict`)."""
    check_document(data, "Table", _KEYS, JSON_KIND, JSON_VERSION)
    if data["rows"] != "predicted":
        msg = f"`rows` must be 'predicted'; got {data['rows']!r}."
        raise InputError(msg)
    weighted = data["weighted"]
    if not isinstance(weighted, bool):
        msg = f"`weighted` must be true or false; got {weighted!r}."
        raise InputError(msg)
    predicted = check_label_list(data["predicted"], "predicted")
    actual = check_label_list(data["actual"], "actual")
    stored = stored_from_json(
        data["counts"], weighted, (len(predicted), len(actual)), (predicted, actual)
    )
    return stored, predicted, actual


def stored_from_json(
    raw: Any,
    weighted: bool,
    shape: tuple[int, int],
    labels: tuple[tuple[Label, ...], tuple[Label, ...]] | None = None,
) -> Stored:
    """The counts of a ``"counts"`` entry, checked against `weighted` and the labels'
    `shape` (K predicted, C actual). A count that is not a JSON number (the string "7",
    true) or that int64 (float, when weighted) cannot hold is refused by its cell, named
    by its `labels` (predicted, actual) when given, else by its position."""
    K, C = shape
    dtype = np.float64 if weighted else np.int64
    if isinstance(raw, dict):
        return _sparse(raw, weighted, shape, labels)
    if K == 0 or C == 0:
        return from_dense(np.zeros((K, C), dtype=dtype))
    if (
        not isinstance(raw, list)
        or len(raw) != K
        or any(not isinstance(r, list) or len(r) != C for r in raw)
    ):
        msg = (
            f"`counts` must be a list of rows, one per predicted label ({K}), each as long "
            f"as `actual` ({C}), or the sparse form "
            '{"row": [...], "column": [...], "count": [...]}.'
        )
        raise InputError(msg)
    for i, row in enumerate(raw):
        check_json_numbers(row, lambda j, i=i: _cell(i, j, labels), whole=not weighted)
    counts = check_counts(np.array(raw, dtype=np.float64 if weighted else object), weighted)
    return from_dense(counts)


def _cell(i: int, j: int, labels: tuple[tuple[Label, ...], tuple[Label, ...]] | None) -> str:
    """How a message names the count of cell (i, j)."""
    if labels is None:
        return f"`counts` at ({i}, {j})"
    return printable(f"`counts` of predicted {labels[0][i]!r}, actual {labels[1][j]!r}")


def _sparse(
    raw: dict[str, Any],
    weighted: bool,
    shape: tuple[int, int],
    labels: tuple[tuple[Label, ...], tuple[Label, ...]] | None,
) -> Stored:
    K, C = shape
    if set(raw) != set(SPARSE_KEYS):
        msg = f"the sparse form of `counts` has keys {list(SPARSE_KEYS)}; got {sorted(raw)}."
        raise InputError(msg)
    lists = [raw[key] for key in SPARSE_KEYS]
    if not all(isinstance(x, list) for x in lists) or len({len(x) for x in lists}) != 1:
        msg = "`row`, `column` and `count` of the sparse `counts` must be lists of one length."
        raise InputError(msg)
    positions = []
    for values, size, name in ((lists[0], K, "row"), (lists[1], C, "column")):
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            msg = f"`{name}` of the sparse `counts` must hold whole numbers (positions)."
            raise InputTypeError(msg)
        index = np.array(values, dtype=np.int64)
        bad = np.flatnonzero((index < 0) | (index >= size))
        if bad.size:
            msg = (
                f"`{name}` of the sparse `counts` holds {int(index[bad[0]])} at entry "
                f"{int(bad[0])}; positions run from 0 to {size - 1}."
            )
            raise InputError(msg)
        positions.append(index)
    keys = positions[0] * max(C, 1) + positions[1]
    if keys.size > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        msg = "the cells of the sparse `counts` must be in row-major order, each cell once."
        raise InputError(msg)
    rows, columns = positions[0].tolist(), positions[1].tolist()
    check_json_numbers(lists[2], lambda k: _cell(rows[k], columns[k], labels), not weighted)
    raw_counts = np.array(lists[2], dtype=np.float64 if weighted else object).reshape(1, -1)
    values = check_counts(raw_counts, weighted)[0]
    zero = np.flatnonzero(values == 0)
    if zero.size:
        k = int(zero[0])
        msg = f"{_cell(rows[k], columns[k], labels)} is 0: the sparse form lists non-zero cells."
        raise InputError(msg)
    dtype = values.dtype
    return from_cells(positions[0], positions[1], values, shape, dtype, "sparse")
