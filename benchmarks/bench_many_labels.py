"""Extreme multiclass: 10^6 rows with 200,000 distinct actual and predicted labels.

    .venv/bin/python benchmarks/bench_many_labels.py [--rows 1000000] [--labels 200000]

A dense 200,000 x 200,000 table would take 298 GiB; informed stores the table sparsely
(only its non-zero cells) and computes every measure from the diagonal, the margins and
those cells. Each route runs as a fresh process (this script with ``--route``), which
prints its time and its peak resident memory (ru_maxrss); every process gets an
address-space limit of 3/4 of the memory available, so that a route that would exhaust
the machine fails instead (and the failure is printed). Routes:

* numpy: the lower bound, the cells and margins of the table by `np.unique` of the
  combined codes and `np.bincount` (nothing else: no measure).
* informed table: `Table.from_labels` on the integer labels and `evaluate` (every
  registry measure, overall and per label).
* informed json / html: the command line on the CSV file of string labels:
  ``informed evaluate FILE --format json`` and ``--html``.
* sklearn report: `sklearn.metrics.classification_report` on the integer labels.
* sklearn confusion_matrix: skipped, and why: it makes the dense K x C matrix.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bytecode import compile_informed

ROUTES = ("numpy", "informed table", "informed json", "informed html", "sklearn report")


def make_data(folder: Path, rows: int, labels: int) -> None:
    """Integer labels (every one of `labels` occurs on both sides) as .npy, and the same
    rows as a CSV of string labels."""
    rng = np.random.default_rng(0)
    actual = np.concatenate([rng.permutation(labels), rng.integers(0, labels, rows - labels)])
    predicted = np.where(rng.random(rows) < 0.5, actual, rng.integers(0, labels, rows))
    predicted[:labels] = rng.permutation(labels)  # every label is also predicted
    np.save(folder / "actual.npy", actual)
    np.save(folder / "predicted.npy", predicted)
    with (folder / "rows.csv").open("w") as handle:
        handle.write("actual,predicted\n")
        step = 100_000
        for start in range(0, rows, step):
            a, p = actual[start : start + step], predicted[start : start + step]
            handle.write(
                "".join(f"c{x},c{y}\n" for x, y in zip(a.tolist(), p.tolist(), strict=True))
            )


class _Counted(io.StringIO):
    """stdout that counts the characters written (ASCII here: bytes) and keeps none."""

    size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


def run_route(route: str, folder: Path) -> dict[str, object]:
    """Do one route's work in this process; its time and peak memory."""
    start = time.perf_counter()
    note = ""
    if route in ("informed json", "informed html"):
        from informed.cli.main import main

        args = ["evaluate", str(folder / "rows.csv"), "--actual", "actual"]
        args += ["--predicted", "predicted", "--quiet"]
        args += (
            ["--format", "json"] if route == "informed json" else ["--html", str(folder / "r.html")]
        )
        with contextlib.redirect_stdout(_Counted()) as out:  # counted, not kept
            code = main(args)
        note = f"exit {code}, {out.size:,} bytes of stdout"
        if route == "informed html":
            note += f", page {os.path.getsize(folder / 'r.html'):,} bytes"
    else:
        actual = np.load(folder / "actual.npy")
        predicted = np.load(folder / "predicted.npy")
        start = time.perf_counter()
        if route == "numpy":
            size = int(max(actual.max(), predicted.max())) + 1
            cells, counts = np.unique(predicted * size + actual, return_counts=True)
            np.bincount(cells // size, weights=counts, minlength=size)
            np.bincount(cells % size, weights=counts, minlength=size)
            note = f"{cells.size:,} non-zero cells"
        elif route == "informed table":
            from informed import Table, evaluate

            table = Table.from_labels(actual=actual, predicted=predicted)
            result = evaluate(table)
            note = (
                f"{table.storage}, {table.shape[0]:,} x {table.shape[1]:,}, "
                f"{len(table.cells.counts):,} non-zero cells, {len(result.measures)} measures"
            )
        elif route == "sklearn report":
            from sklearn.metrics import classification_report

            text = classification_report(actual, predicted, zero_division=0)
            note = f"{len(text):,} characters"
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"route": route, "seconds": seconds, "peak_mib": peak, "note": note}


def _limit() -> int:
    """3/4 of the memory available (MemAvailable), in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024 * 3 // 4
    return 8 << 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--labels", type=int, default=200_000)
    parser.add_argument("--route", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
    if args.route:
        print(json.dumps(run_route(args.route, Path(args.folder))))
        return
    limit = _limit()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        make_data(folder, args.rows, args.labels)
        csv_bytes = (folder / "rows.csv").stat().st_size
        arrays = 2 * 8 * args.rows
        print(
            f"{args.rows:,} rows, {args.labels:,} distinct actual and predicted labels; "
            f"input: CSV {csv_bytes / 2**20:.1f} MiB, int64 arrays {arrays / 2**20:.1f} MiB; "
            f"each route a fresh process limited to {limit / 2**30:.1f} GiB of address space"
        )
        print(f"{'route':<26}{'seconds':>9}{'peak MiB':>10}  note")
        for route in ROUTES:
            command = [sys.executable, __file__, "--route", route, "--folder", str(folder)]
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                check=False,
                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
            )
            if done.returncode == 0:
                found = json.loads(done.stdout.strip().splitlines()[-1])
                print(
                    f"{route:<26}{found['seconds']:>9.2f}{found['peak_mib']:>10.0f}  {found['note']}"
                )
            else:
                why = (done.stderr.strip().splitlines() or ["no message"])[-1]
                print(f"{route:<26}{'failed':>9}{'':>10}  {why[:150]}")
        dense = args.labels * args.labels * 8
        print(
            f"{'sklearn confusion_matrix':<26}{'skipped':>9}{'':>10}  it makes the dense "
            f"{args.labels:,} x {args.labels:,} int64 matrix: {dense / 2**30:,.0f} GiB"
        )


if __name__ == "__main__":
    main()
