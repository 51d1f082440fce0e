"""Grouped counts of (predicted, actual) become a Table, by the Table's own constructor.

Each group is one cell: its rows (int64, exact) or its exact weight sum. Two groups of
the engine can be one cell here (0.0 and -0.0 are one label; an engine may keep them
apart), so cells are added before anything is rounded: integer counts as int64, weights
as their exact limb sums (`informed.engines.query`), rounded once per cell. The counted
cells go through `Table.from_counts` (every check of a matrix of counts, canonical label
order, the storage chosen as for any table), after the checks `Table.from_labels` makes
of its labels: one kind per side unless the predictions are cluster ids, and with
`labels=`, no label outside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Coded, Label, keyed
from informed.engines.query import Grouped, exact_sums, weight_sums
from informed.errors import InputError
from informed.table import Table
from informed.table.counting import check_label_list, check_same_kind

__all__ = ["Cells", "cells_of", "table_of"]


class Cells(NamedTuple):
    """Distinct (row, column) cells with their counts or exact limb sums."""

    row: NDArray[np.intp]
    col: NDArray[np.intp]
    rows: NDArray[np.int64]
    limbs: NDArray[np.int64] | None
    inverse: NDArray[np.intp]


def cells_of(p: NDArray[np.intp], a: NDArray[np.intp], columns: int, grouped: Grouped) -> Cells:
    """The groups' codes (predicted `p`, actual `a`) added into distinct cells."""
    flat = p.astype(np.int64) * max(columns, 1) + a
    distinct, inverse = np.unique(flat, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.intp)
    rows = np.zeros(distinct.size, dtype=np.int64)
    np.add.at(rows, inverse, grouped.rows)
    limbs = None if grouped.limbs is None else exact_sums(grouped.limbs, inverse, distinct.size)
    row, col = np.divmod(distinct, max(columns, 1))
    return Cells(row.astype(np.intp), col.astype(np.intp), rows, limbs, inverse)


def _universe(
    p: Coded, a: Coded, labels: Sequence[Any], rows: NDArray[np.int64]
) -> tuple[tuple[Label, ...], NDArray[np.intp], NDArray[np.intp]]:
    """`labels=` as both axes, each side's codes moved onto it; a label outside is refused."""
    universe = check_label_list(labels, "labels")
    position = {keyed(x): i for i, x in enumerate(universe)}
    moved = []
    for coded, name in ((p, "predicted"), (a, "actual")):
        mapping = np.array([position.get(keyed(x), -1) for x in coded.labels], dtype=np.intp)
        codes = mapping[coded.codes] if coded.codes.size else coded.codes
        outside = codes < 0
        if outside.any():
            label = coded.labels[int(coded.codes[np.flatnonzero(outside)[0]])]
            count = int(rows[outside].sum())
            msg = (
                f"`{name}` holds {label!r} in {count:,} rows, which is not in `labels` "
                f"{list(universe)}."
            )
            raise InputError(msg)
        moved.append(np.asarray(codes, dtype=np.intp))
    return universe, moved[0], moved[1]


def table_of(
    grouped: Grouped,
    p: Coded,
    a: Coded,
    *,
    labels: Sequence[Any] | None = None,
    clusters: bool = False,
    storage: str = "auto",
) -> Table:
    """The Table of the groups whose predicted and actual labels are coded as `p`, `a`."""
    if not clusters:
        check_same_kind(
            a.labels, p.labels, "or pass `clusters=True` if the predictions are cluster ids"
        )
    if labels is not None:
        universe, p_codes, a_codes = _universe(p, a, labels, grouped.rows)
        predicted, actual = universe, universe
    else:
        p_codes, a_codes = p.codes.astype(np.intp), a.codes.astype(np.intp)
        predicted, actual = p.labels, a.labels
    cells = cells_of(p_codes, a_codes, len(actual), grouped)
    from scipy.sparse import coo_matrix

    if cells.limbs is None:
        values: NDArray[Any] = cells.rows
    else:
        values = weight_sums(cells.limbs)
    matrix = coo_matrix((values, (cells.row, cells.col)), shape=(len(predicted), len(actual)))
    return Table.from_counts(
        matrix,
        rows="predicted",
        predicted=list(predicted),
        actual=list(actual),
        weighted=cells.limbs is not None,
        storage=storage,  # type: ignore[arg-type]
    )
