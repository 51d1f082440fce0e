"""What every report shows, written once: the headline measures, the per-label columns,
and which labels a report of many labels shows (the largest by volume; the rest pooled).

The terminal, HTML and CSV reports read these lists; titles, formulas and sources come
from the registries (`informed.measures.MEASURES`, `informed.ranking.RANKING_MEASURES`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from informed.table.frequent import label_volumes, top_labels
from informed.table.table import Table

__all__ = [
    "HEADLINE",
    "PER_LABEL",
    "PER_LABEL_HEADINGS",
    "label_volumes",
    "pooled_square",
    "table_block",
    "top_labels",
]

Floats = NDArray[np.float64]

HEADLINE = ("informedness", "markedness", "correlation")
"""The measures each report leads with: what was got right beyond chance."""

PER_LABEL = (
    "recall",
    "precision",
    "f_measure",
    "informedness",
    "markedness",
    "bias",
    "prevalence",
    "bias_ratio",
)
"""The one-vs-rest measures listed per label, with the label-bias diagnostics last."""

PER_LABEL_HEADINGS = {
    "recall": "recall",
    "precision": "precision",
    "f_measure": "F",
    "informedness": "informed.",
    "markedness": "marked.",
    "bias": "bias pP",
    "prevalence": "prev. pR",
    "bias_ratio": "pP / pR",
}
"""Short column headings for the terminal, where the registry's titles are too wide."""


# ---------------------------------------------------------------------- many labels
def pooled_square(table: Table, shown: Sequence[int]) -> NDArray[np.float64]:
    """The square counts of the labels at positions `shown` (in `table.labels`), with a
    last row and column "other" pooling every other label: shape (s + 1, s + 1), summed
    from the non-zero cells (no L x L matrix is made)."""
    labels, cells = table.square_cells()
    slot = np.full(len(labels), len(shown), dtype=np.intp)
    slot[np.asarray(shown, dtype=np.intp)] = np.arange(len(shown))
    size = len(shown) + 1
    flat = slot[cells.rows] * size + slot[cells.cols]
    out = np.asarray(np.bincount(flat, weights=cells.values, minlength=size * size), np.float64)
    return out.reshape(size, size)


def table_block(
    table: Table, rows: Sequence[int], cols: Sequence[int]
) -> tuple[list[list[int | float]], list[int | float], list[int | float]]:
    """The counts of the predicted labels at `rows` against the classes at `cols`
    (positions in `table.predicted` and `table.actual`), with those rows' and columns'
    totals over the whole table: from the non-zero cells, no K x C matrix made."""
    cells = table.cells
    K, C = table.shape
    where_row = np.full(K, -1, dtype=np.intp)
    where_row[np.asarray(rows, dtype=np.intp)] = np.arange(len(rows))
    where_col = np.full(C, -1, dtype=np.intp)
    where_col[np.asarray(cols, dtype=np.intp)] = np.arange(len(cols))
    r, c = where_row[cells.predicted], where_col[cells.actual]
    inside = (r >= 0) & (c >= 0)
    block = np.zeros((len(rows), len(cols)), dtype=table.dtype)
    block[r[inside], c[inside]] = cells.counts[inside]
    row_totals = np.bincount(cells.predicted, weights=cells.counts, minlength=K)
    col_totals = np.bincount(cells.actual, weights=cells.counts, minlength=C)
    kind = int if not table.weighted else float
    return (
        block.tolist(),
        [kind(v) for v in row_totals[np.asarray(rows, dtype=np.intp)]],
        [kind(v) for v in col_totals[np.asarray(cols, dtype=np.intp)]],
    )
