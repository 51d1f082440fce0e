"""The metrics' base without torchmetrics: `PureMetric`, a `torch.nn.Module` holding
count tensors summed across processes.

With torchmetrics installed the metrics of `informed.torch` subclass
`torchmetrics.Metric` (Lightning's ``self.log`` takes them); without it they subclass
this class, which has the same calls for what the metrics need: `add_state` (a tensor
and ``dist_reduce_fx="sum"``), `update`, `compute`, `reset`, ``metric(preds, target)``
(the batch added, and its value alone, as torchmetrics' `forward` gives it),
`.to(device)` and the `state_dict` of any Module.

When a `torch.distributed` process group is initialised, `compute` and `table` sum every
process's counts with `torch.distributed.all_reduce` on a copy: each process's own counts
are left as they were, so training goes on adding to them. Every process must call
`compute` (or `table`) together, as with torchmetrics.
"""

from __future__ import annotations

from typing import Any

import torch

__all__ = ["PureMetric"]


class PureMetric(torch.nn.Module):
    """A metric whose states are tensors summed over batches and processes.

    Subclasses call `add_state` in their ``__init__`` and define `update` and `compute`.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        if kwargs:
            msg = (
                f"{sorted(kwargs)} are torchmetrics' options; install torchmetrics to use "
                "them (without it the metric is a plain torch Module)."
            )
            raise TypeError(msg)
        self._defaults: dict[str, torch.Tensor] = {}
        self._local = False  # forward's value of one batch: this process's alone

    def add_state(
        self, name: str, default: torch.Tensor, dist_reduce_fx: str = "sum", **_: Any
    ) -> None:
        """A state tensor, `default` at the start and after `reset`, summed across processes."""
        if dist_reduce_fx != "sum":
            msg = f"PureMetric sums its states; got dist_reduce_fx={dist_reduce_fx!r}."
            raise ValueError(msg)
        self._defaults[name] = default.detach().clone()
        self.register_buffer(name, default.detach().clone())

    def reset(self) -> None:
        """Every state back to its default (on the metric's device)."""
        for name, default in self._defaults.items():
            state: torch.Tensor = getattr(self, name)
            state.copy_(default)

    def synced(self, name: str) -> torch.Tensor:
        """The state `name` summed over every process (a copy), or this process's own
        counts when no process group is initialised."""
        state: torch.Tensor = getattr(self, name)
        distributed = torch.distributed.is_available() and torch.distributed.is_initialized()
        if distributed and not self._local:
            total = state.clone()
            torch.distributed.all_reduce(total, op=torch.distributed.ReduceOp.SUM)
            return total
        return state

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Add a batch to the states."""
        raise NotImplementedError

    def compute(self) -> Any:
        """The metric's value from the states summed over every process."""
        raise NotImplementedError

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Add a batch to the states, and return the value of this batch alone (on this
        process: no other process takes part)."""
        kept = {name: getattr(self, name).clone() for name in self._defaults}
        self.reset()
        try:
            self.update(*args, **kwargs)
            self._local = True
            value = self.compute()
        finally:
            self._local = False
            for name, state in kept.items():
                getattr(self, name).add_(state)
        return value
