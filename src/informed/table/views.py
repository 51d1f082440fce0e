"""The views a Table hands out: its non-zero cells, and one label against the rest."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label

__all__ = ["OneVsRest", "TableCells"]


class TableCells(NamedTuple):
    """The non-zero cells of a Table in row-major order: cell k holds counts[k] cases
    predicted `table.predicted[predicted[k]]` whose class is `table.actual[actual[k]]`."""

    predicted: NDArray[np.intp]
    actual: NDArray[np.intp]
    counts: NDArray[Any]


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
