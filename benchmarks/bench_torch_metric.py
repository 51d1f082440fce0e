"""informed.torch's `update` against torchmetrics' confusion matrices, on CPU.

    .venv/bin/python benchmarks/bench_torch_metric.py [--n 1000000] [--batches 20]
        [--classes 10] [--threads 1]

Each side counts the same batches of `--n` elements from a fresh metric: binary
probabilities thresholded at 0.5 (`ContingencyTable("binary")` against
`BinaryConfusionMatrix()`), binary labels, and multiclass logits of shape (n, C) read by
argmax (`ContingencyTable("multiclass", num_classes=C)` against
`MulticlassConfusionMatrix(C)`). Both check their input by default (torchmetrics'
`validate_args=True`): informed with `torch.aminmax`, torchmetrics with `torch.unique`.
The time is the best of `--rounds` runs per batch; the ratio is informed / torchmetrics
(goal: 1 or less). The last line times `table()` and `Informedness.compute()`, which move
the C x C counts to the CPU and evaluate them.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import torch
from torchmetrics.classification import BinaryConfusionMatrix, MulticlassConfusionMatrix

from informed.torch import ContingencyTable, Informedness


def _best(run: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def _per_batch(
    make: Callable[[], object], batches: list[tuple[torch.Tensor, torch.Tensor]], rounds: int
) -> float:
    """Seconds per batch of `update`, best of `rounds` passes over the batches."""

    def run() -> None:
        metric = make()
        for preds, target in batches:
            metric.update(preds, target)  # type: ignore[attr-defined]

    return _best(run, rounds) / len(batches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1, help="torch.set_num_threads")
    parser.add_argument("--rounds", type=int, default=5, help="best of this many passes")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    generator = torch.Generator().manual_seed(0)
    n, C = args.n, args.classes

    def batches(
        preds: Callable[[], torch.Tensor], classes: int
    ) -> list[tuple[torch.Tensor, torch.Tensor]]:
        return [
            (preds(), torch.randint(0, classes, (n,), generator=generator))
            for _ in range(args.batches)
        ]

    def probabilities() -> torch.Tensor:  # none exactly 0.5, where the conventions differ
        drawn = torch.rand(n, generator=generator)
        return drawn.masked_fill_(drawn == 0.5, 0.25)

    cases = [
        (
            "binary probabilities",
            batches(probabilities, 2),
            lambda: ContingencyTable("binary"),
            BinaryConfusionMatrix,
        ),
        (
            "binary labels",
            batches(lambda: torch.randint(0, 2, (n,), generator=generator), 2),
            lambda: ContingencyTable("binary"),
            BinaryConfusionMatrix,
        ),
        (
            f"multiclass logits (n, {C})",
            batches(lambda: torch.randn(n, C, generator=generator), C),
            lambda: ContingencyTable("multiclass", num_classes=C),
            lambda: MulticlassConfusionMatrix(C),
        ),
    ]
    print(
        f"torch {torch.__version__}, {args.threads} thread(s), batches of {n:,} elements, "
        f"best of {args.rounds}"
    )
    print(f"{'update, per batch':28} {'informed':>10} {'torchmetrics':>13} {'ratio':>6}")
    for name, data, ours, theirs in cases:
        mine = _per_batch(ours, data, args.rounds)
        peer = _per_batch(theirs, data, args.rounds)
        print(f"{name:28} {mine * 1e3:8.2f} ms {peer * 1e3:10.2f} ms {mine / peer:6.2f}")
        ours_counts, their_counts = ours(), theirs()
        for preds, target in data:
            ours_counts.update(preds, target)
            their_counts.update(preds, target)
        # the same counts
        assert torch.equal(ours_counts.compute(), their_counts.compute()), name

    metric = Informedness("multiclass", num_classes=C, compute_with_cache=False)
    for preds, target in cases[2][1]:
        metric.update(preds, target)
    table_time = _best(metric.table, args.rounds)
    compute_time = _best(metric.compute, args.rounds)
    print(
        f"table() {table_time * 1e3:.2f} ms, Informedness.compute() {compute_time * 1e3:.2f} ms"
        f" ({C} classes)"
    )


if __name__ == "__main__":
    main()
