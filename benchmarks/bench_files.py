"""`informed evaluate` on CSV files as users write them and on Parquet, against bare
pyarrow processes (issue 19, items 8, 9, 10 and 12).

    .venv/bin/python benchmarks/bench_files.py [--rows 5000000] [--repeat 3]
        [--scale-rows 20000000] [--files 20]

Writes, in a temporary folder, `--rows` rows of two label columns (ten classes) and a
score rounded to three decimals, as

* plain.csv: no quotes at all (plain words; pyarrow, ``quoting_style="none"``);
* pyarrow.csv: `pyarrow.csv.write_csv` as it is, every string quoted;
* r.csv: as R's ``write.csv`` writes it: row names, every string quoted, numbers bare;
* pandas.csv: as pandas' ``to_csv`` writes it: an index, quotes only where needed;
* d.parquet;

the quoted files' classes include ``fox, red`` and ``ibis "sacred"`` (a comma and doubled
quotes), so that pandas quotes some values too. Each command runs as a fresh process
(interpreter start-up included on both sides), best of `--repeat`; its time, peak
resident memory and ratio to the bare route are printed. The bare routes are the least
the data allows, in pyarrow, each run twice: as it runs (pyarrow imports pandas, when it
is installed, on `to_numpy`), and with pandas hidden from the process (as if it were not
installed), the stricter baseline, since informed never imports pandas:

* Table (CSV, Parquet): the two label columns read as strings (`pyarrow.csv.read_csv`,
  `pyarrow.parquet.read_table`), `dictionary_encode`, one `np.bincount`;
* Ranking (Parquet): the class and score columns read, `pc.equal(actual, positive)`,
  ``group_by([score, is_positive]).aggregate(count)``;
* many files (item 10): `--scale-rows` rows in `--files` Parquet files written as
  `bench_scale.py` writes them, read batch by batch as dictionaries and counted with one
  `np.bincount` per batch (`bench_scale.BARE`), against ``informed evaluate
  'folder/part-*.parquet' --predicted``; and the Ranking, the files read as one dataset
  and counted by ``group_by([score, is_positive])``, against ``--score``.

Item 12: each process says whether pandas was imported (pyarrow imports it, when it is
installed, on `to_numpy` and `pa.array`), and `import pandas` alone is timed.

Goals (issue 19): every CSV within 1.3x of its bare route, the Ranking within 1.3x of
its bare route, Parquet without a score at about 0.95x, many files within 1.3x.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import NamedTuple

import bench_scale
import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
from bytecode import compile_informed

PLAIN = np.array(["cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay", "kiwi", "lynx"])
QUOTED = np.array(
    ["cat", "dog", "eel", "fox, red", "gnu", "hen", 'ibis "sacred"', "jay", "kiwi", "lynx"]
)
INFORMED = str(Path(sys.executable).with_name("informed"))

PANDAS = "print('pandas' in sys.modules, file=sys.stderr)\n"

# The bare route as it would run without pandas installed: pyarrow's import of it fails.
NO_PANDAS = textwrap.dedent(
    """
    import sys
    class NoPandas:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "pandas":
                raise ImportError("pandas is hidden from this process")
    sys.meta_path.insert(0, NoPandas())
    """
)

BARE_TABLE = textwrap.dedent(
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

BARE_RANKING = textwrap.dedent(
    """
    import sys
    import pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
    positive, paths = sys.argv[1], sys.argv[2:]  # one file, or several as one dataset
    table = pq.read_table(paths[0] if len(paths) == 1 else paths, columns=["actual", "score"])
    table = pa.table({
        "score": table.column("score"),
        "is_positive": pc.equal(table.column("actual"), positive),
    })
    counts = table.group_by(["score", "is_positive"]).aggregate([([], "count_all")])
    print(counts.num_rows)
    """
)

MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL,"
    " stderr=subprocess.PIPE, text=True)\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(used.ru_maxrss, time.perf_counter() - t, used.ru_utime + used.ru_stime,"
    " done.stderr.strip().splitlines()[-1] if done.stderr.strip() else '-')\n"
)

INFORMED_PROBE = (
    "import sys\n"
    "from informed.cli.main import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "finally:\n"
    "    " + PANDAS
)


def write(folder: Path, rows: int) -> dict[str, Path]:
    """The same rows as plain CSV, CSV in pyarrow's, R's and pandas' styles, and Parquet."""
    rng = np.random.default_rng(0)
    actual = rng.integers(0, 10, rows)
    predicted = np.where(rng.random(rows) < 0.7, actual, rng.integers(0, 10, rows))
    score = np.round(rng.random(rows), 3)
    paths = {
        name: folder / f"{name}{rows}.{'parquet' if name == 'parquet' else 'csv'}"
        for name in ("plain", "pyarrow", "r", "pandas", "parquet")
    }
    plain = pa.table({"actual": PLAIN[actual], "predicted": PLAIN[predicted], "score": score})
    pcsv.write_csv(plain, paths["plain"], pcsv.WriteOptions(quoting_style="none"))
    quoted = pa.table({"actual": QUOTED[actual], "predicted": QUOTED[predicted], "score": score})
    pcsv.write_csv(quoted, paths["pyarrow"])
    pq.write_table(quoted, paths["parquet"], row_group_size=1 << 20)
    with paths["r"].open("w", newline="") as handle:  # write.csv(frame): row names first
        writer = csv.writer(handle, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        writer.writerow(["", "actual", "predicted", "score"])
        writer.writerows(
            zip(
                map(str, range(1, rows + 1)),
                QUOTED[actual].tolist(),
                QUOTED[predicted].tolist(),
                score.tolist(),
                strict=True,
            )
        )
    with paths["pandas"].open("w", newline="") as handle:  # frame.to_csv(path)
        writer = csv.writer(handle, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        writer.writerow(["", "actual", "predicted", "score"])
        writer.writerows(
            zip(
                range(rows),
                QUOTED[actual].tolist(),
                QUOTED[predicted].tolist(),
                score.tolist(),
                strict=True,
            )
        )
    return paths


class Found(NamedTuple):
    """A command's best wall time and CPU time (of all its threads) over the repeats,
    its peak memory, and whether it imported pandas."""

    seconds: float
    cpu: float
    peak: float
    pandas: str


def run(command: list[str], repeat: int) -> Found:
    """The best of `repeat` runs of a command, each a fresh process."""
    best, cpu, peak, pandas = float("inf"), float("inf"), 0.0, "-"
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=True
        ).stdout.split()
        peak = max(peak, int(out[0]) / 1024)
        best = min(best, float(out[1]))
        cpu = min(cpu, float(out[2]))
        pandas = out[3]
    return Found(best, cpu, peak, pandas)


def pandas_import(repeat: int) -> float:
    """Seconds `import pandas` takes in a process that has numpy and pyarrow already."""
    code = (
        "import time, numpy, pyarrow\n"
        "t = time.perf_counter()\nimport pandas\nprint(time.perf_counter() - t)"
    )
    return min(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout)
        for _ in range(repeat)
    )  # fmt: skip


def bare_routes(code: str, arguments: list[str], repeat: int) -> tuple[Found, Found]:
    """A bare route as it runs (pyarrow imports pandas when installed), and without pandas."""
    found = run([sys.executable, "-c", code + PANDAS, *arguments], repeat)
    show("bare pyarrow", found, None)
    hidden = run([sys.executable, "-c", NO_PANDAS + code + PANDAS, *arguments], repeat)
    show("bare pyarrow, pandas hidden", hidden, found)
    return found, hidden


def show(name: str, found: Found, bare: Found | None) -> None:
    ratio = (
        f"{found.seconds / bare.seconds:5.2f}x {found.cpu / bare.cpu:5.2f}x"
        if bare
        else "    1      1 "
    )
    print(
        f"  {name:<30} {found.seconds:6.2f} s {found.cpu:6.2f} s {found.peak:5.0f} MiB"
        f"  {ratio}  pandas: {found.pandas}"
    )


def ratio(found: Found, bare: Found) -> tuple[float, float]:
    """Wall time and CPU time of `found` over those of `bare`."""
    return found.seconds / bare.seconds, found.cpu / bare.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[5_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale-rows", type=int, default=20_000_000)
    parser.add_argument("--files", type=int, default=20, help="0: skip the many-files route")
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
    probe = [sys.executable, "-c", INFORMED_PROBE]
    # route -> (wall, CPU) over the bare route as it runs, and over it with pandas hidden
    ratios: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    peaks: dict[tuple[str, int], float] = {}
    print("columns: best wall time, best CPU time (all threads), peak memory, wall and CPU")
    print("ratios to the first bare route of the group, whether pandas was imported")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for rows in args.rows:
            paths = write(folder, rows)
            for fmt, path in paths.items():
                size = path.stat().st_size / 2**20
                print(f"{fmt}, {rows:,} rows ({size:.0f} MiB)")
                base = [*probe, "evaluate", str(path), "--actual", "actual", "--quiet"]
                print(" Table: read the two label columns, dictionary_encode, bincount")
                bare, hidden = bare_routes(BARE_TABLE, [str(path)], args.repeat)
                found = run([*base, "--predicted", "predicted", "--format", "json"], args.repeat)
                show("informed --predicted", found, bare)
                ratios[f"Table, {fmt}"] = (ratio(found, bare), ratio(found, hidden))
                peaks[(fmt, rows)] = found.peak
                if fmt != "parquet":
                    continue
                print(" Ranking: group_by([score, is_positive]).aggregate(count)")
                ranking = ["--score", "score", "--positive", "cat", "--format", "json"]
                bare, hidden = bare_routes(BARE_RANKING, ["cat", str(path)], args.repeat)
                found = run([*base, *ranking], args.repeat)
                show("informed --score (Ranking)", found, bare)
                ratios["Ranking, parquet"] = (ratio(found, bare), ratio(found, hidden))
        if args.files:
            part = folder / "scale"
            part.mkdir()
            files = bench_scale.write(part, args.scale_rows, args.files)
            size = sum(f.stat().st_size for f in files) / 2**20
            print(f"{args.scale_rows:,} rows in {len(files)} Parquet files ({size:.0f} MiB)")
            base = [*probe, "evaluate", str(part / "part-*.parquet"), "--actual", "actual",
                    "--positive", "click", "--format", "json", "--quiet"]  # fmt: skip
            print(" Table: batches read as dictionaries, one bincount per batch")
            bare, hidden = bare_routes(
                bench_scale.BARE + "import sys\n", list(map(str, files)), args.repeat
            )
            found = run([*base, "--predicted", "predicted"], args.repeat)
            show("informed --predicted (Table)", found, bare)
            ratios[f"Table, {len(files)} files"] = (ratio(found, bare), ratio(found, hidden))
            print(" Ranking: the files as one dataset, group_by([score, is_positive]) count")
            bare, hidden = bare_routes(BARE_RANKING, ["click", *map(str, files)], args.repeat)
            found = run([*base, "--score", "score"], args.repeat)
            show("informed --score (Ranking)", found, bare)
            ratios[f"Ranking, {len(files)} files"] = (ratio(found, bare), ratio(found, hidden))
    print(f"import pandas alone (numpy and pyarrow loaded): {pandas_import(args.repeat):.2f} s")
    if len(args.rows) > 1:
        small, large = min(args.rows), max(args.rows)
        print(f"peak memory of informed --predicted, {large:,} rows / {small:,} (flat: 1):")
        for fmt in ("plain", "pyarrow", "parquet"):
            print(f"  {fmt:<8} {peaks[(fmt, large)] / peaks[(fmt, small)]:5.2f}")
    print(f"informed / bare route at {max(args.rows):,} rows (goal 1.3x; Parquet Table ~0.95x):")
    print(f"  {'':<24} {'as it runs':>14} {'pandas hidden':>16}")
    print(f"  {'':<24} {'wall':>7} {'CPU':>6} {'wall':>8} {'CPU':>6}")
    for route, ((wall, cpu), (hidden_wall, hidden_cpu)) in ratios.items():
        print(f"  {route:<24} {wall:6.2f}x {cpu:5.2f}x {hidden_wall:7.2f}x {hidden_cpu:5.2f}x")


if __name__ == "__main__":
    main()
