"""`informed evaluate` on 10^6 and 10^7-row CSV and Parquet files, against bare pyarrow.

    .venv/bin/python benchmarks/bench_files.py [--rows 1000000 10000000] [--repeat 1]

Writes, in a temporary folder, files of ten string classes with a score column (rounded to
three decimals): CSV without quotes, and Parquet. Each command runs as a fresh process
(interpreter start-up included on both sides); the time and the peak resident memory of
the process are printed. The bare routes read the two label columns with pyarrow
(`pyarrow.csv.read_csv` as strings / `pyarrow.parquet.read_table`), `dictionary_encode`
them and count with one `np.bincount`: the least the data allows. Goals (issue 11): the
command line within 1.5x of the bare route on Parquet and 2x on CSV at 10^7 rows, and
peak memory flat in the rows (10^6 against 10^7).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

WORDS = np.array(["cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay", "kiwi", "lynx"])
INFORMED = str(Path(sys.executable).with_name("informed"))

BARE = textwrap.dedent(
    """
    import sys
    import numpy as np, pyarrow as pa, pyarrow.csv as pcsv, pyarrow.parquet as pq
    path = sys.argv[1]
    columns = ["actual", "predicted"]
    if path.endswith(".csv"):
        table = pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(
            include_columns=columns, column_types={c: pa.string() for c in columns}))
    else:
        table = pq.read_table(path, columns=columns)
    codes, sizes = [], []
    for name in columns:
        encoded = table.column(name).combine_chunks().dictionary_encode()
        codes.append(encoded.indices.to_numpy().astype(np.int64))
        sizes.append(len(encoded.dictionary))
    counts = np.bincount(codes[1] * sizes[0] + codes[0], minlength=sizes[0] * sizes[1])
    print(int(counts.sum()))
    """
)

MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)\n"
)


def write(folder: Path, rows: int) -> dict[str, Path]:
    rng = np.random.default_rng(0)
    actual_codes = rng.integers(0, 10, rows)
    predicted_codes = np.where(rng.random(rows) < 0.7, actual_codes, rng.integers(0, 10, rows))
    table = pa.table(
        {
            "actual": pa.array(WORDS[actual_codes]),
            "predicted": pa.array(WORDS[predicted_codes]),
            "score": pa.array(np.round(rng.random(rows), 3)),
        }
    )
    paths = {"csv": folder / f"d{rows}.csv", "parquet": folder / f"d{rows}.parquet"}
    pcsv.write_csv(table, paths["csv"], pcsv.WriteOptions(quoting_style="none"))
    pq.write_table(table, paths["parquet"], row_group_size=1 << 20)
    return paths


def run(command: list[str], repeat: int) -> tuple[float, float]:
    """(best seconds, peak MiB) of a command run as a fresh process."""
    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=True
        ).stdout.split()
        peak = max(peak, int(out[0]) / 1024)
        best = min(best, float(out[1]))
    return best, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    results: dict[tuple[str, int, str], tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for rows in args.rows:
            paths = write(Path(folder), rows)
            for fmt, path in paths.items():
                size = path.stat().st_size / 2**20
                base = [INFORMED, "evaluate", str(path), "--actual", "actual", "--quiet"]
                commands = {
                    "bare pyarrow route": [sys.executable, "-c", BARE, str(path)],
                    "informed --predicted": [*base, "--predicted", "predicted", "--format", "json"],
                    "informed --predicted --score": [
                        *base,
                        "--predicted",
                        "predicted",
                        "--score",
                        "score",
                        "--positive",
                        "cat",
                        "--format",
                        "json",
                    ],
                }
                print(f"{fmt}, {rows:,} rows ({size:.0f} MiB)")
                for name, command in commands.items():
                    seconds, peak = run(command, args.repeat)
                    results[(fmt, rows, name)] = (seconds, peak)
                    ratio = seconds / results[(fmt, rows, "bare pyarrow route")][0]
                    print(f"  {name:<30} {seconds:7.2f} s  {peak:7.0f} MiB peak  {ratio:5.2f}x")
    if len(args.rows) > 1:
        small, large = min(args.rows), max(args.rows)
        print(f"peak memory, {large:,} rows / {small:,} rows (flat = about 1):")
        for fmt in ("csv", "parquet"):
            for name in ("informed --predicted", "informed --predicted --score"):
                ratio = results[(fmt, large, name)][1] / results[(fmt, small, name)][1]
                print(f"  {fmt:<8} {name:<30} {ratio:5.2f}")
    goals = {"parquet": 1.5, "csv": 2.0}
    large = max(args.rows)
    print(f"at {large:,} rows, informed --predicted / bare route (goal):")
    for fmt, goal in goals.items():
        ours = results[(fmt, large, "informed --predicted")][0]
        bare = results[(fmt, large, "bare pyarrow route")][0]
        print(f"  {fmt:<8} {ours / bare:5.2f}x  (<= {goal}x)")


if __name__ == "__main__":
    main()
