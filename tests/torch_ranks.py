"""The work of one process of the two-process test of `informed.torch`
(tests/integrations/test_torch_distributed.py), in a module of its own: a spawned process
imports it to find `rank_counts`, and it imports informed.torch only there, after it has
chosen the metrics' base.

Each process joins a gloo group on 127.0.0.1, counts its share of the batches (batch i
goes to process i % world), and writes what the synced metrics give, for the metrics
on torchmetrics' `Metric` and then for the same metrics on `PureMetric` (torchmetrics
hidden, informed.torch imported again).
"""

from __future__ import annotations

import datetime
import os
import socket
import sys
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

BASES = ("torchmetrics", "pure")


def _fresh_informed_torch(base: str) -> Any:
    """informed.torch imported anew, its metrics on torchmetrics' Metric or PureMetric."""
    for name in [
        m for m in sys.modules if m.startswith(("informed.torch", "informed.integrations.torch"))
    ]:
        del sys.modules[name]
    if base == "pure":
        sys.modules["torchmetrics"] = None  # type: ignore[assignment]  # import fails
    import informed.torch

    return informed.torch


def _counted(module: Any, share: list[dict[str, torch.Tensor]]) -> dict[str, Any]:
    """The synced values of the metrics over this process's share of the batches."""
    binary = module.ContingencyTable("binary", threshold=0.3)
    multiclass = module.ContingencyTable("multiclass", num_classes=4)
    informedness = module.Informedness("multiclass", num_classes=4)
    for batch in share:
        binary.update(batch["scores"], batch["binary"])
        multiclass.update(batch["logits"], batch["classes"])
        informedness.update(batch["logits"], batch["classes"])
    local = multiclass.counts.clone()
    found = {
        "base": type(binary).__mro__[1].__name__,
        "binary": binary.compute(),
        "multiclass": multiclass.compute(),
        "multiclass_table": torch.from_numpy(multiclass.table().counts.copy()),
        "informedness": informedness.compute(),
        "local": local,
    }
    found["unchanged"] = bool(torch.equal(multiclass.counts, local))  # sync left them
    return found


def rank_counts(rank: int, world: int, port: int, batches_path: str, out: str) -> None:
    """One process: join the group, count its share for both bases, write the results."""
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    if "GLOO_SOCKET_IFNAME" not in os.environ and "lo" in dict(socket.if_nameindex()).values():
        os.environ["GLOO_SOCKET_IFNAME"] = "lo"  # the loopback device, whatever the hostname
    torch.set_num_threads(1)
    timeout = datetime.timedelta(seconds=120)  # the other process may still be importing
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timeout)
    try:
        batches = torch.load(batches_path, weights_only=True)
        share = [batch for i, batch in enumerate(batches) if i % world == rank]
        results = {base: _counted(_fresh_informed_torch(base), share) for base in BASES}
        torch.save(results, Path(out) / f"rank{rank}.pt")
    finally:
        dist.destroy_process_group()
