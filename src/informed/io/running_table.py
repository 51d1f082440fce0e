"""A Table counted batch by batch with no per-batch sort of labels.

Merging a batch's Table into a running one sorts and places the union of their labels
each time: with 200,000 labels that is seconds per batch. Here each axis gives its
labels ids in the order they first come (a dictionary lookup per label of a batch), a
batch's non-zero cells are kept under those ids, and the labels are put in canonical
order once, at the end. The cells kept are summed whenever they outgrow the cells
already summed, so memory follows the table's non-zero cells, not the rows, and the
summing costs O(n log n) in all.

>>> from informed.coding.labels import Coded
>>> import numpy as np
>>> running = RunningTable()
>>> running.add(Coded(("b", "a"), np.array([0, 1, 1])), Coded(("a",), np.array([0, 0, 0])), None)
array([0, 1])
>>> running.add(Coded(("c",), np.array([0])), Coded(("b",), np.array([0])), None)
array([0])
>>> table = running.table("auto")
>>> table.predicted, table.actual, table.counts.tolist()
(('a', 'b'), ('a', 'b', 'c'), [[2, 1, 0], [0, 0, 1]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Coded, Label, canonical_order, keyed
from informed.table import Table
from informed.table.counting import check_same_kind, count_codes
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

    def __init__(self, weighted: bool = False, slack: int = 1 << 20) -> None:
        """`weighted`: every batch comes with weights (float counts); `slack`: how many
        cells beyond twice those summed may be held before summing."""
        self.dtype = np.dtype(np.float64 if weighted else np.int64)
        self.slack = slack
        self.predicted, self.actual = _Axis(), _Axis()
        self.parts: list[tuple[NDArray[np.intp], NDArray[np.intp], NDArray[Any]]] = []
        self.summed = 0  # cells in parts[0] after the last sum
        self.held = 0

    def add(
        self, actual: Coded, predicted: Coded, weights: NDArray[np.float64] | None
    ) -> NDArray[np.intp]:
        """Count one batch (columns of equal length, weights already checked, given
        exactly when the table is weighted); return the codes of the actual labels that
        occur in it."""
        counts = count_codes(
            predicted.codes, len(predicted.labels), actual.codes, len(actual.labels), weights
        )
        rows, cols, values = counts.nonzero()
        if weights is None:  # a label occurs exactly when it has a non-zero cell
            if not values.size:
                return np.zeros(0, dtype=np.intp)
            used_rows = np.flatnonzero(np.bincount(rows, minlength=len(predicted.labels)))
            used_cols = np.flatnonzero(np.bincount(cols, minlength=len(actual.labels)))
        else:  # a label whose rows all weigh 0 is a label of the table, with zero weight
            used_rows = np.flatnonzero(
                np.bincount(predicted.codes, minlength=len(predicted.labels))
            )
            used_cols = np.flatnonzero(np.bincount(actual.codes, minlength=len(actual.labels)))
        rows = self.predicted.ids_of(predicted.labels, used_rows)[rows]
        cols = self.actual.ids_of(actual.labels, used_cols)[cols]
        if values.size:
            self.parts.append((rows, cols, values))
            self.held += values.size
            if self.held > 2 * self.summed + self.slack:
                self._sum()
        return used_cols

    def _concatenated(
        self, row_at: NDArray[np.intp] | None = None, col_at: NDArray[np.intp] | None = None
    ) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[Any]]:
        """Every cell kept (a cell may appear more than once), ids moved by `row_at` and
        `col_at` when given."""
        rows = np.concatenate([p[0] for p in self.parts])
        cols = np.concatenate([p[1] for p in self.parts])
        values = np.concatenate([p[2] for p in self.parts]).astype(self.dtype, copy=False)
        return (
            rows if row_at is None else row_at[rows],
            cols if col_at is None else col_at[cols],
            values,
        )

    def _sum(self) -> None:
        """The cells kept so far as one part, each cell once (summed exactly, by
        `from_cells`)."""
        shape = (len(self.predicted.labels), len(self.actual.labels))
        summed = from_cells(*self._concatenated(), shape, self.dtype, "sparse")
        self.parts = [summed.nonzero()]
        self.summed = self.held = summed.nonzero_count

    def table(self, storage: str) -> Table:
        """The Table of every batch added, its labels in canonical order, stored as
        `storage` ("auto", "dense", "sparse") says."""
        choose((0, 0), 0, storage)  # a bad `storage` is refused even for no rows
        predicted, row_at = self.predicted.order()
        actual, col_at = self.actual.order()
        check_same_kind(actual, predicted, "")
        dtype = self.dtype
        if not self.parts:
            empty = np.zeros((len(predicted), len(actual)), dtype=dtype)
            return Table(counts=empty, predicted=predicted, actual=actual)
        cells = self._concatenated(row_at, col_at)
        stored = from_cells(*cells, (len(predicted), len(actual)), dtype, storage)
        return Table(counts=stored, predicted=predicted, actual=actual)
