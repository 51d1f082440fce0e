"""`informed evaluate FILE --by COL` against the same command without `--by`, whole
process against whole process (issue 27, item 24).

    .venv/bin/python benchmarks/bench_sliced_files.py [--rows 200000] [--repeat 3]
        [--groups 2 10 100] [--formats parquet csv] [--kinds labels scores weights]
        [--folder DIR]

Writes (in a temporary folder, or `--folder`, where files already written are kept)
`--rows` rows of two label columns (`y`, `p`: "pos" and "neg"), a continuous score `s`
(as many distinct values as rows), a fractional weight `w` in [0.5, 1.5) and slice
columns `g2`, `g10`, `g100` of 2, 10 and 100 values, as Parquet (pyarrow) and as CSV as
pandas' `to_csv(index=False)` writes it. Each command runs as a fresh process, the
unsliced one and the sliced ones interleaved so that they meet the same load on a
shared machine; the CPU time (user + system, of the child alone) of each run is kept,
and the table gives its range over `--repeat` runs and the ratio of the sliced
command's best CPU time to the unsliced one's. Kinds:

* labels: ``--actual y --predicted p --positive pos``;
* scores: with ``--score s`` (the report adds each slice's AUC and its DeLong
  difference from the rest's, and calibration within slices without intervals);
* weights: with ``--score s --weight w``.

The sliced report bootstraps 1,000 replicates of every slice (informedness and
markedness intervals, the differences and the ranges between slices): work that the
unsliced report does not do, and that grows with the slices, not with the rows.
Goal (issue 27): every sliced route within 1.5x of the unsliced one at 2x10^5 and 10^7
rows. informed is compiled to bytecode first (`bytecode.compile_informed`).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bytecode import compile_informed

INFORMED = str(Path(sys.executable).with_name("informed"))

KINDS = {
    "labels": ["--actual", "y", "--predicted", "p", "--positive", "pos"],
    "scores": ["--actual", "y", "--predicted", "p", "--positive", "pos", "--score", "s"],
    "weights": [
        *("--actual", "y", "--predicted", "p", "--positive", "pos"),
        *("--score", "s", "--weight", "w"),
    ],
}


def write(folder: Path, rows: int, formats: list[str]) -> dict[str, Path]:
    """The rows as Parquet and as pandas' CSV (written once into `folder`)."""
    paths = {kind: folder / f"sliced-{rows}.{kind}" for kind in formats}
    if all(path.exists() for path in paths.values()):
        return paths
    rng = np.random.default_rng(0)
    actual = rng.integers(0, 2, rows)
    score = np.clip(rng.random(rows) * 0.7 + 0.3 * actual, 0.0, 1.0)
    columns = {
        "y": np.where(actual == 1, "pos", "neg"),
        "p": np.where(score > 0.5, "pos", "neg"),
        "s": score,
        "w": rng.random(rows) + 0.5,
        "g2": rng.integers(0, 2, rows).astype(str),
        "g10": np.char.add("g", rng.integers(0, 10, rows).astype(str)),
        "g100": np.char.add("g", rng.integers(0, 100, rows).astype(str)),
    }
    if "parquet" in paths:
        pq.write_table(pa.table(columns), paths["parquet"])
    if "csv" in paths:
        import pandas as pd  # the CSV as pandas writes it (the test extra installs it)

        pd.DataFrame(columns).to_csv(paths["csv"], index=False)
    return paths


def cpu_run(command: list[str]) -> tuple[float, float]:
    """(CPU seconds of the child, user + system; wall seconds) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--groups", type=int, nargs="+", default=[2, 10, 100])
    parser.add_argument("--formats", nargs="+", default=["parquet", "csv"])
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    compile_informed()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        paths = write(folder, args.rows, args.formats)
        print(f"{args.rows:,} rows; CPU seconds (user + system) over {args.repeat} runs each")
        print(f"{'file':8s} {'kind':8s} {'by':6s} {'CPU range':>15s}  {'ratio':>6s}  goal <= 1.5")
        for kind_of_file, path in paths.items():
            for kind in args.kinds:
                commands = {"": [INFORMED, "evaluate", str(path), *KINDS[kind]]}
                for groups in args.groups:
                    commands[f"g{groups}"] = [*commands[""], "--by", f"g{groups}"]
                cpu: dict[str, list[float]] = {name: [] for name in commands}
                for _ in range(args.repeat):  # interleaved: the same load on each
                    for name, command in commands.items():
                        cpu[name].append(cpu_run(command)[0])
                plain = min(cpu[""])
                for name, found in cpu.items():
                    shown = f"{min(found):.2f}-{max(found):.2f} s"
                    ratio = "" if not name else f"{min(found) / plain:5.2f}x"
                    print(f"{kind_of_file:8s} {kind:8s} {name or '-':6s} {shown:>15s}  {ratio:>6s}")


if __name__ == "__main__":
    main()
