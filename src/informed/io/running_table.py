"""A Table counted batch by batch with no per-batch sort of labels.

Merging a batch's Table into a running one sorts and places the union of their labels
each time: with 200,000 labels that is seconds per batch. Here each axis gives its
labels ids in the order they first come (a dictionary lookup per label of a batch), a
batch's non-zero cells are kept under those ids, and the labels are put in canonical
order once, at the end. The cells kept are summed whenever they outgrow the cells
already summed, so memory follows the table's non-zero cells, not the rows, and the
summing costs O(n log n) in all.

>>> from informed.labels import Coded
>>> import numpy as np
>>> running = RunningTable()
>>> running.add(Coded(("b", "a"), np.array([0, 1, 1])), Coded(("a",), np.array([0, 0, 0])), None)
>>> running.add(Coded(("c",), np.array([0])), Coded(("b",), np.array([0])), None)
>>> table = running.table("auto")
>>> table.predicted, table.actual, table.counts.tolist()
(('a', 'b'), ('a', 'b', 'c'), [[2, 1, 0], [0, 0, 1]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputTypeError
from informed.labels import Coded, Label, canonical_order, keyed, label_kinds
from informed.table import Table
from informed.table.counting import count_codes
from informed.table.storage import choose, from_cells

__all__ = ["RunningTable", "key_of"]


def key_of(label: Label) -> Any:
    """A label's key in a dictionary of labels: a string is its own key (no other label
    equals it); any other label is keyed by its kind, since True == 1 in Python."""
    return label if type(label) is str else keyed(label)


class _Axis:
    """The labels of one axis, each with the id it got when first seen."""

    def __init__(self) -> None:
        self.ids: dict[Any, int] = {}
        self.labels: list[Label] = []

    def ids_of(self, labels: tuple[Label, ...], used: NDArray[np.intp]) -> NDArray[np.intp]:
        """The ids of `labels[used]`, new labels getting the next ids (a string is its
        own key; any other label is keyed by its kind, since True == 1 in Python)."""
        out = np.empty(len(labels), dtype=np.intp)
        wanted = list(labels) if used.size == len(labels) else [labels[i] for i in used.tolist()]
        keys = wanted if set(map(type, wanted)) == {str} else [key_of(x) for x in wanted]
        ids = self.ids
        new = [i for i, key in enumerate(keys) if key not in ids]
        ids.update(zip([keys[i] for i in new], range(len(ids), len(ids) + len(new)), strict=True))
        self.labels.extend(wanted[i] for i in new)
        out[used] = np.fromiter(map(ids.__getitem__, keys), dtype=np.intp, count=len(keys))
        return out

    def order(self) -> tuple[tuple[Label, ...], NDArray[np.intp]]:
        """The labels in canonical order, and each id's position in it."""
        order = canonical_order(self.labels)
        rank = np.empty(len(order), dtype=np.intp)
        rank[order] = np.arange(len(order))
        return tuple(self.labels[i] for i in order), rank


class RunningTable:
    """Predicted against actual, counted one batch of coded columns at a time."""

    def __init__(self, slack: int = 1 << 20) -> None:
        """`slack`: how many cells beyond twice those summed may be held before summing."""
        self.slack = slack
        self.predicted, self.actual = _Axis(), _Axis()
        self.parts: list[tuple[NDArray[np.intp], NDArray[np.intp], NDArray[Any]]] = []
        self.summed = 0  # cells in parts[0] after the last sum
        self.held = 0
        self.weighted = False

    def add(self, actual: Coded, predicted: Coded, weights: NDArray[np.float64] | None) -> None:
        """Count one batch (columns of equal length, weights already checked)."""
        self.weighted = self.weighted or weights is not None
        counts = count_codes(
            predicted.codes, len(predicted.labels), actual.codes, len(actual.labels), weights
        )
        rows, cols, values = counts.nonzero()
        if not values.size:
            return
        used_rows = np.flatnonzero(np.bincount(rows, minlength=len(predicted.labels)))
        used_cols = np.flatnonzero(np.bincount(cols, minlength=len(actual.labels)))
        rows = self.predicted.ids_of(predicted.labels, used_rows)[rows]
        cols = self.actual.ids_of(actual.labels, used_cols)[cols]
        self.parts.append((rows, cols, values))
        self.held += values.size
        if self.held > 2 * self.summed + self.slack:
            self._sum()

    def _sum(self) -> None:
        """The cells kept so far as one part, each cell once."""
        rows = np.concatenate([p[0] for p in self.parts])
        cols = np.concatenate([p[1] for p in self.parts])
        values = np.concatenate([p[2].astype(self._dtype()) for p in self.parts])
        width = max(len(self.actual.labels), 1)
        keys, inverse = np.unique(rows.astype(np.int64) * width + cols, return_inverse=True)
        summed = np.bincount(inverse.reshape(-1), weights=values, minlength=keys.size)
        r, c = np.divmod(keys, width)
        self.parts = [(r.astype(np.intp), c.astype(np.intp), summed.astype(self._dtype()))]
        self.summed = self.held = int(keys.size)

    def _dtype(self) -> np.dtype[Any]:
        return np.dtype(np.float64 if self.weighted else np.int64)

    def table(self, storage: str) -> Table:
        """The Table of every batch added, its labels in canonical order, stored as
        `storage` ("auto", "dense", "sparse") says."""
        choose((0, 0), 0, storage)  # a bad `storage` is refused even for no rows
        predicted, row_at = self.predicted.order()
        actual, col_at = self.actual.order()
        kinds_p, kinds_a = label_kinds(predicted), label_kinds(actual)
        if kinds_p and kinds_a and kinds_p != kinds_a:
            msg = (
                "Labels in `actual` and `predicted` should be of the same kind: actual "
                f"holds {sorted(kinds_a)} such as {actual[0]!r}, predicted holds "
                f"{sorted(kinds_p)} such as {predicted[0]!r}. Convert one side."
            )
            raise InputTypeError(msg)
        dtype = self._dtype()
        if not self.parts:
            empty = np.zeros((len(predicted), len(actual)), dtype=dtype)
            return Table(counts=empty, predicted=predicted, actual=actual)
        rows = np.concatenate([row_at[p[0]] for p in self.parts])
        cols = np.concatenate([col_at[p[1]] for p in self.parts])
        values = np.concatenate([p[2].astype(dtype) for p in self.parts])
        stored = from_cells(rows, cols, values, (len(predicted), len(actual)), dtype, storage)
        return Table(counts=stored, predicted=predicted, actual=actual)
