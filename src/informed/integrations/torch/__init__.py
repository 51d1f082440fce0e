"""PyTorch adapter: training-loop metrics in the torchmetrics form whose state is the
contingency table (`informed.torch`).

* `ContingencyTable`: the C x C counts of every batch, counted on the batches' device
  (one `torch.bincount`), a state with ``dist_reduce_fx="sum"``; `table()` is the informed
  `Table` of the exact counts;
* `Informedness`, `Markedness` and `TableMeasure` (any measure of `informed.MEASURES`):
  the measure of those counts as `informed.evaluate` gives it.

They subclass `torchmetrics.Metric` when torchmetrics is installed (`Base` says which),
else `PureMetric`, a `torch.nn.Module` with the same calls that sums the counts of a
process group with `torch.distributed.all_reduce`. PyTorch is imported with this package,
never by `import informed` (`pip install 'informed[torch]'`).
"""

from __future__ import annotations

try:
    import torch  # noqa: F401
except ImportError as missing:  # pragma: no cover - the test extra installs torch
    msg = "informed.torch needs PyTorch: pip install 'informed[torch]'."
    raise ImportError(msg) from missing

from informed.integrations.torch.metrics import (
    Base,
    ContingencyTable,
    Informedness,
    Markedness,
    TableMeasure,
)
from informed.integrations.torch.pure import PureMetric

__all__ = [
    "Base",
    "ContingencyTable",
    "Informedness",
    "Markedness",
    "PureMetric",
    "TableMeasure",
]
