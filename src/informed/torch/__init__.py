"""`informed.torch`: training-loop metrics in the torchmetrics form whose state is the
contingency table, for informedness, markedness and the whole table.

The adapter lives in `informed.integrations.torch`, beside the other integrations; this
package re-exports its names (docs/torch.md). PyTorch is imported when this package is,
never by `import informed`.
"""

from __future__ import annotations

from informed.integrations.torch import (
    Base,
    ContingencyTable,
    Informedness,
    Markedness,
    PureMetric,
    TableMeasure,
)

__all__ = [
    "Base",
    "ContingencyTable",
    "Informedness",
    "Markedness",
    "PureMetric",
    "TableMeasure",
]
