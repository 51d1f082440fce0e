"""The most frequent labels of a table, for the views and reports that show a few of many.

A label's volume is the larger of how often it is predicted and how often it occurs, so
a label predicted often but rarely true stays in view. The terminal and HTML reports and
the heat map (`informed.plot_contingency`) choose the labels they show with `top_labels`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label
from informed.measures import margins
from informed.table.table import Table

__all__ = ["label_volumes", "top_labels"]

Floats = NDArray[np.float64]


def label_volumes(table: Table) -> tuple[tuple[Label, ...], Floats]:
    """The labels of `table` (the union, in canonical order) and each one's volume: the
    larger of how often it is predicted and how often it occurs (from the margins, so a
    sparse table of many labels costs O(cells + labels))."""
    labels, cells = table.square_cells()
    m = margins(cells)
    return labels, np.maximum(m.rows, m.cols)


def top_labels(table: Table, limit: int | None) -> list[int]:
    """Positions in `table.labels` of at most `limit` labels (None: every one), the
    largest volumes first picked (ties: the first label), kept in the labels' order."""
    labels, volume = label_volumes(table)
    if limit is None or len(labels) <= limit:
        return list(range(len(labels)))
    order = np.lexsort((np.arange(len(labels)), -volume))  # by volume, then position
    return sorted(order[: max(limit, 0)].tolist())
