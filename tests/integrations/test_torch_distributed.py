"""`informed.torch` under distributed sync: two CPU processes (gloo) each count half of the
batches; what they compute together equals one process counting every batch, for the
metrics on torchmetrics' `Metric` and on `PureMetric` (torch.distributed.all_reduce).
The work of each process is in tests/torch_ranks.py."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
mp = pytest.importorskip("torch.multiprocessing")
dist = pytest.importorskip("torch.distributed")

import torch_ranks  # noqa: E402  (tests/ is on the path: pyproject's pythonpath)

from informed import Table, evaluate  # noqa: E402
from informed.torch import ContingencyTable  # noqa: E402

WORLD = 2
DEADLINE = 240  # seconds, under the suite's 300 s limit: about 15 s on an idle 2-core machine


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _batches() -> list[dict[str, torch.Tensor]]:
    """Seven batches of uneven sizes (one empty), so the two shares differ."""
    generator = torch.Generator().manual_seed(31)
    batches = []
    for size in (50, 0, 333, 7, 1000, 64, 129):
        classes = torch.randint(0, 4, (size,), generator=generator)
        logits = torch.randn(size, 4, generator=generator) + 1.5 * torch.nn.functional.one_hot(
            classes, 4
        )
        batches.append(
            {
                "classes": classes,
                "logits": logits,
                "binary": torch.randint(0, 2, (size,), generator=generator),
                "scores": torch.rand(size, generator=generator),
            }
        )
    return batches


def _spawn(batches_path: Path, out: Path) -> None:
    """Both processes, each given DEADLINE seconds; a hang is ended and fails the test."""
    port = _free_port()
    context = mp.start_processes(
        torch_ranks.rank_counts,
        args=(WORLD, port, str(batches_path), str(out)),
        nprocs=WORLD,
        join=False,
        start_method="spawn",
    )
    deadline = time.monotonic() + DEADLINE
    while not context.join(timeout=1):  # raises with the child's traceback if one failed
        if time.monotonic() > deadline:
            for process in context.processes:
                process.kill()
            pytest.fail(f"the two processes did not finish in {DEADLINE} s")


@pytest.mark.skipif(not dist.is_available(), reason="this torch has no torch.distributed")
def test_two_gloo_processes_sum_to_one_process_over_every_batch(tmp_path: Path) -> None:
    batches = _batches()
    path = tmp_path / "batches.pt"
    torch.save(batches, path)
    _spawn(path, tmp_path)

    # one process, every batch; the counts' oracle: Table.from_labels of the labels
    target = torch.cat([b["classes"] for b in batches])
    predicted = torch.cat([b["logits"] for b in batches]).argmax(dim=1)
    oracle = Table.from_labels(target.numpy(), predicted.numpy(), labels=range(4))
    binary_target = torch.cat([b["binary"] for b in batches])
    binary_predicted = (torch.cat([b["scores"] for b in batches]) >= 0.3).long()
    binary_oracle = Table.from_labels(
        binary_target.numpy(), binary_predicted.numpy(), labels=[0, 1]
    )
    one = ContingencyTable("multiclass", num_classes=4)
    for batch in batches:
        one.update(batch["logits"], batch["classes"])
    assert torch.equal(one.compute(), torch.from_numpy(oracle.counts.T.copy()))
    informedness = evaluate(target.numpy(), predicted.numpy(), labels=range(4)).measures[
        "informedness"
    ]

    results = [torch.load(tmp_path / f"rank{r}.pt", weights_only=True) for r in range(WORLD)]
    for base in torch_ranks.BASES:
        locals_ = []
        for rank, result in enumerate(results):
            found = result[base]
            assert found["base"] == ("Metric" if base == "torchmetrics" else "PureMetric")
            assert torch.equal(found["multiclass"], one.compute()), (base, rank)
            assert torch.equal(found["multiclass_table"], torch.from_numpy(oracle.counts.copy())), (
                base
            )
            assert torch.equal(found["binary"], torch.from_numpy(binary_oracle.counts.T.copy()))
            assert found["informedness"].item() == informedness, (base, rank)
            assert found["unchanged"], (base, rank)  # each process keeps its own counts
            locals_.append(found["local"])
        # each process counted its share only: the shares add up to the whole
        assert not torch.equal(locals_[0], one.compute())
        assert torch.equal(locals_[0] + locals_[1], one.compute())
