"""The joint table of several classifiers' outcomes on the same cases, and its resampling.

Comparing classifiers on the same cases needs their outcomes case by case: whether
model a and model b were right on the same rows. Their separate tables lose that, the
rows keep it at O(n) per replicate. The joint table keeps it in few cells: one cell per
distinct tuple (actual class, label predicted by each model), with its count. With two
classes and three models there are at most 2^4 = 16 cells, whatever n.

Resampling n cases jointly (the paired bootstrap) is then a multinomial draw over the
joint cells, and each model's table in a replicate is a sum over cells: O(B x cells)
instead of O(B x n). For scores the joint cells are the distinct tuples (actual class,
tie group of each model's score): with continuous scores that is about n cells, with
rounded or binned scores far fewer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import (
    Coded,
    Label,
    as_vector,
    code_labels,
    keyed,
    label_kind,
    refuse_scores,
    sort_labels,
)
from informed.errors import InputError, InputTypeError
from informed.inference.ranking_bootstrap import draw_counts
from informed.table.counting import check_weights
from informed.table.table import Table

__all__ = [
    "JointCells",
    "JointOutcomes",
    "draw_cells",
    "joint_cells",
    "joint_outcomes",
    "reduce_cells",
]

Floats = NDArray[np.float64]
Codes = NDArray[np.intp]

# a combined code of the columns is counted by one bincount below this many codes
_BINCOUNT_LIMIT = 1 << 22


@dataclass(frozen=True)
class JointCells:
    """Distinct tuples of small integer codes with their counts (or total weights).

    `codes[i, j]` is column j's code in cell i; `counts[i]` how many cases (or how much
    weight) share that tuple. Cells with no case are left out.
    """

    codes: Codes
    counts: Floats
    weighted: bool

    @property
    def n(self) -> float:
        """The number of cases (total weight)."""
        return float(self.counts.sum())


def joint_cells(
    columns: Sequence[Codes], sizes: Sequence[int], weights: Floats | None = None
) -> JointCells:
    """Count the distinct tuples of `columns` (each with codes in [0, size)).

    One combined int64 code per row when the product of the sizes fits; counted by a
    bincount when it is small, by one sort (`numpy.unique`) otherwise. O(n) or O(n log n).

    >>> cells = joint_cells([np.array([0, 1, 1, 0]), np.array([1, 1, 1, 0])], [2, 2])
    >>> cells.codes.tolist(), cells.counts.tolist()
    ([[0, 0], [0, 1], [1, 1]], [1.0, 1.0, 2.0])
    """
    stacked = np.column_stack([np.asarray(c, dtype=np.int64) for c in columns])
    n = stacked.shape[0]
    space = 1
    for size in sizes:
        space *= max(int(size), 1)
    if space < 2**62:
        combined = np.zeros(n, dtype=np.int64)
        for j, size in enumerate(sizes):
            combined = combined * max(int(size), 1) + stacked[:, j]
        if space <= max(_BINCOUNT_LIMIT, 4 * n):
            totals = np.bincount(combined, weights=weights, minlength=space)
            present = np.flatnonzero(totals)
            counts = totals[present].astype(np.float64)
        else:
            present, inverse = np.unique(combined, return_inverse=True)
            counts = np.bincount(inverse.reshape(-1), weights=weights).astype(np.float64)
            keep = counts > 0
            present, counts = present[keep], counts[keep]
        codes = np.empty((present.size, len(sizes)), dtype=np.intp)
        rest = present.copy()
        for j in range(len(sizes) - 1, -1, -1):
            size = max(int(sizes[j]), 1)
            codes[:, j] = rest % size
            rest //= size
    else:
        rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
        counts = np.bincount(inverse.reshape(-1), weights=weights).astype(np.float64)
        keep = counts > 0
        codes, counts = rows[keep].astype(np.intp), counts[keep]
    return JointCells(codes=codes, counts=counts, weighted=weights is not None)


def draw_cells(rng: np.random.Generator, cells: JointCells, count: int) -> Floats:
    """`count` case-bootstrap replicates of the cells: shape (count, cells).

    Multinomial(n, counts / n); weighted cells are read as frequency weights, drawn as
    round(total) cases and scaled back to the total (as `informed.inference.bootstrap`);
    more than 2**63 - 1 cases are refused in one line (`draw_counts`).
    """
    drawn, scale = draw_counts(rng, cells.counts, count)
    return drawn * scale if cells.weighted else drawn


def reduce_cells(values: Floats, index: Codes, size: int) -> Floats:
    """Sum the cells of `values[..., cells]` that share an `index` in [0, size): shape
    (..., size). One stable sort of the (few) cells, then one `add.reduceat`."""
    out = np.zeros((*values.shape[:-1], size))
    if index.size == 0:
        return out
    order = np.argsort(index, kind="stable")
    ordered = index[order]
    starts = np.concatenate(([0], np.flatnonzero(ordered[1:] != ordered[:-1]) + 1))
    out[..., ordered[starts]] = np.add.reduceat(values[..., order], starts, axis=-1)
    return out


@dataclass(frozen=True)
class JointOutcomes:
    """Several classifiers' predicted labels against the actual classes of the same cases.

    Attributes
    ----------
    models : tuple of str
        The classifiers' names, in the order given.
    labels : tuple
        Every label seen (actual or predicted by any model), in canonical order.
    cells : JointCells
        Column 0 codes the actual class, column 1 + m model m's prediction (positions in
        `labels`).
    model_labels : dict
        Model -> the labels of its own table (the actual classes and its predictions), so
        that each model is measured as `informed.evaluate` measures its own table.
    """

    models: tuple[str, ...]
    labels: tuple[Label, ...]
    cells: JointCells
    model_labels: dict[str, tuple[Label, ...]]

    def squares(self, model: str, counts: Floats | None = None) -> Floats:
        """Model `model`'s square tables over its labels from cell counts [..., cells]
        (default the observed counts): shape (..., L, L), rows predicted."""
        values = self.cells.counts if counts is None else counts
        m = self.models.index(model)
        own = self.model_labels[model]
        position = np.full(len(self.labels), -1, dtype=np.intp)
        for i, label in enumerate(self.labels):
            if label in own:
                position[i] = own.index(label)
        size = len(own)
        index = position[self.cells.codes[:, 1 + m]] * size + position[self.cells.codes[:, 0]]
        flat = reduce_cells(values, index, size * size)
        return flat.reshape(*flat.shape[:-1], size, size)

    def table(self, model: str) -> Table:
        """Model `model`'s Table (as `Table.from_labels` would count it)."""
        own = self.model_labels[model]
        square = self.squares(model)
        counts = square if self.cells.weighted else np.rint(square).astype(np.int64)
        keep_rows = np.flatnonzero(counts.sum(axis=1) > 0)
        keep_cols = np.flatnonzero(counts.sum(axis=0) > 0)
        return Table(
            counts=np.ascontiguousarray(counts[np.ix_(keep_rows, keep_cols)]),
            predicted=tuple(own[i] for i in keep_rows),
            actual=tuple(own[j] for j in keep_cols),
        )

    def correct(self, model: str) -> NDArray[np.bool_]:
        """Whether model `model` is right in each cell."""
        m = self.models.index(model)
        return np.asarray(self.cells.codes[:, 1 + m] == self.cells.codes[:, 0])


def joint_outcomes(actual: Any, predicted: Mapping[str, Any], weights: Any = None) -> JointOutcomes:
    """The joint table of `predicted` (model name -> labels) against `actual`.

    Every column is checked as `Table.from_labels` checks it (lengths, NaN or None
    labels named by row, one kind of label per column and the same kind as `actual`),
    and weights as frequency weights (non-negative, finite). O(n) for few labels.

    >>> joint = joint_outcomes([1, 1, 0, 0], {"a": [1, 0, 0, 0], "b": [1, 1, 1, 0]})
    >>> joint.cells.counts.size, joint.table("a").counts.tolist()
    (4, [[2, 1], [0, 1]])
    """
    if not isinstance(predicted, Mapping) or not predicted:
        msg = (
            "`predicted` must be a dict of model name -> predicted labels, such as "
            f'{{"a": pred_a, "b": pred_b}}; got {type(predicted).__name__}.'
        )
        raise InputTypeError(msg)
    a = as_vector(actual, "actual")
    actual_labels, actual_codes = code_labels(a, "actual")
    refuse_scores(Coded(actual_labels, actual_codes), "actual")
    columns: list[tuple[tuple[Label, ...], Codes]] = [(actual_labels, actual_codes)]
    kinds = {label_kind(x) for x in actual_labels}
    for name, values in predicted.items():
        if not isinstance(name, str):
            msg = f"model names must be str; got {name!r}."
            raise InputTypeError(msg)
        column = as_vector(values, f"predicted[{name!r}]")
        if column.shape[0] != a.shape[0]:
            msg = (
                "Found input variables with inconsistent numbers of samples: "
                f"actual {a.shape[0]}, predicted[{name!r}] {column.shape[0]}."
            )
            raise InputError(msg)
        labels, codes = code_labels(column, f"predicted[{name!r}]")
        call = f"compare(actual, scores={{{name!r}: ...}}, positive=...)"
        refuse_scores(Coded(labels, codes), f"predicted[{name!r}]", call=call)
        found = {label_kind(x) for x in labels}
        if kinds and found and found != kinds:
            msg = (
                f"Labels in `actual` and predicted[{name!r}] should be of the same kind: "
                f"actual holds {sorted(kinds)} such as {actual_labels[0]!r}, "
                f"predicted[{name!r}] holds {sorted(found)} such as {labels[0]!r}."
            )
            raise InputTypeError(msg)
        columns.append((labels, codes))
    w = check_weights(weights, a.shape[0])
    universe = sort_labels(label for labels, _ in columns for label in labels)
    where = {keyed(x): i for i, x in enumerate(universe)}
    coded = [
        np.array([where[keyed(x)] for x in labels], dtype=np.intp)[codes] if codes.size else codes
        for labels, codes in columns
    ]
    cells = joint_cells(coded, [len(universe)] * len(coded), w)
    model_labels = {
        name: sort_labels((*actual_labels, *labels))
        for name, (labels, _) in zip(predicted, columns[1:], strict=True)
    }
    return JointOutcomes(
        models=tuple(predicted), labels=universe, cells=cells, model_labels=model_labels
    )
