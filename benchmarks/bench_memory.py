"""Peak memory of `informed evaluate` on Parquet files of growing size.

    .venv/bin/python benchmarks/bench_memory.py [--rows 1000000 10000000]

Writes a Parquet file per size (three string classes, predicted labels; row groups of
2^16 rows) to a temporary folder, runs the command line on each in a fresh process, and
prints the process's peak resident memory (ru_maxrss) and time. Reading in record batches
and merging a Table per batch keeps memory flat: the peak should not grow with the rows.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bytecode import compile_informed


def write(path: Path, rows: int) -> None:
    rng = np.random.default_rng(0)
    classes = pa.array(["cat", "dog", "eel"])
    with pq.ParquetWriter(
        path,
        pa.schema(
            [
                ("actual", pa.dictionary(pa.int8(), pa.string())),
                ("predicted", pa.dictionary(pa.int8(), pa.string())),
            ]
        ),
    ) as writer:
        step = 1 << 20
        for start in range(0, rows, step):
            size = min(step, rows - start)
            actual = rng.integers(0, 3, size).astype(np.int8)
            predicted = np.where(rng.random(size) < 0.7, actual, rng.integers(0, 3, size)).astype(
                np.int8
            )
            writer.write_table(
                pa.table(
                    {
                        "actual": pa.DictionaryArray.from_arrays(pa.array(actual), classes),
                        "predicted": pa.DictionaryArray.from_arrays(pa.array(predicted), classes),
                    }
                ),
                row_group_size=1 << 16,
            )


def peak_of(command: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, seconds) of a child process."""
    script = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, *command], check=True, capture_output=True, text=True
    )
    kib, seconds = out.stdout.split()
    return int(kib) / 1024, float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[10**6, 10**7])
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
    informed = str(Path(sys.executable).with_name("informed"))
    print(f"{'rows':>12} {'file MiB':>9} {'peak RSS MiB':>13} {'seconds':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for rows in args.rows:
            path = Path(folder) / f"rows{rows}.parquet"
            write(path, rows)
            peak, seconds = peak_of(
                [
                    informed,
                    "evaluate",
                    str(path),
                    "--actual",
                    "actual",
                    "--predicted",
                    "predicted",
                    "--quiet",
                    "--format",
                    "json",
                ]
            )
            print(f"{rows:>12,} {path.stat().st_size / 2**20:>9.1f} {peak:>13.1f} {seconds:>8.1f}")
            path.unlink()


if __name__ == "__main__":
    main()
