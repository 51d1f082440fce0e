"""Slice search: `informed.find_slices` against SliceLine, side by side, in one run.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_slice_search.py [--sliceline own|planted|both|none]
        [--big 10000000] [--duckdb 1000000] [--null 200]

Each tool runs in a child process that loads the data, notes its peak resident memory,
runs, and reports its time and its peak memory above the loaded data (ru_maxrss).

1. SliceLine's own benchmark (Sagadeeva & Boehm 2021, the `sliceline` package): 10,000
   rows x 5 columns of 1,000 values each, a random 0/1 error (no slice differs);
   SliceLine with its defaults (alpha 0.6, k=1, max_l=4, min_sup=10); informed with
   depth 3 and min_size 30, and ("informed-small") min_size 10, the least it allows
   (SliceLine's min_sup is 10 rows).
2. A planted data set: 200,000 rows x 6 columns of 10 values; three slices where the
   model is less informed (TPR 0.5, FPR 0.25 against 0.8 and 0.05), of depth 1 (c0=3),
   2 (c1=5, c2=7) and 3 (c3=1, c4=2, c5=4), and one slice that differs only in
   prevalence (c0=8: 90 % positives against 30 %), whose error rate is the largest.
   SliceLine with k=10, max_l=3, alpha=0.95, min_sup=30; informed with depth 3,
   min_size 30. What each finds is printed.
3. 10^7 rows x 8 columns of 5 values in memory: the search (depth 3) against a plain
   evaluation (`Table.from_labels`) of the same rows.
4. DuckDB: the search on a DuckDB relation (one `GROUP BY GROUPING SETS` query per depth,
   and one count of the rows each) against DuckDB's own `GROUP BY GROUPING SETS` of the
   same combinations in one query, best of three each.
5. No planted slice: the share of `--null` simulated data sets of 5,000 rows x 3 columns
   (depth 2) where the search reports any slice, at level 0.95.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import subprocess
import sys
import time
from typing import Any

import numpy as np


def planted(n: int = 200_000, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 10, (n, 6))
    prevalence = np.where(X[:, 0] == 8, 0.9, 0.3)
    actual = (rng.random(n) < prevalence).astype(int)
    worse = (
        (X[:, 0] == 3)
        | ((X[:, 1] == 5) & (X[:, 2] == 7))
        | ((X[:, 3] == 1) & (X[:, 4] == 2) & (X[:, 5] == 4))
    )
    tpr, fpr = np.where(worse, 0.5, 0.8), np.where(worse, 0.25, 0.05)
    predicted = (rng.random(n) < np.where(actual == 1, tpr, fpr)).astype(int)
    return X, actual, predicted


def own_benchmark(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 1000, (10_000, 5))
    actual = rng.integers(0, 2, 10_000)
    predicted = np.where(rng.random(10_000) < 0.8, actual, 1 - actual)
    return X, actual, predicted


def _peak() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(task: str) -> None:
    """Run one task in this process and print its figures as JSON."""
    import pandas as pd

    from informed import find_slices

    if task.startswith("sliceline"):
        from sliceline import Slicefinder
    X, actual, predicted = own_benchmark() if "own" in task else planted()
    base = _peak()
    start = time.perf_counter()
    if task.startswith("sliceline"):
        errors = (actual != predicted).astype(float)
        if task.endswith("own"):  # its defaults
            finder = Slicefinder(alpha=0.6, k=1, max_l=4, min_sup=10, verbose=False)
        else:
            finder = Slicefinder(alpha=0.95, k=10, max_l=3, min_sup=30, verbose=False)
        finder.fit(X, errors)
        found = [
            ", ".join(f"c{j}={int(v)}" for j, v in enumerate(row) if v is not None)
            for row in (finder.top_slices_ if finder.top_slices_ is not None else [])
        ]
    else:
        columns = {f"c{j}": pd.Categorical(X[:, j]) for j in range(X.shape[1])}
        small = task.endswith("-small")  # the smallest slices it tests: 10 a class
        result = find_slices(columns=columns, actual=actual, predicted=predicted, depth=3,
                             min_size=10 if small else 30)  # fmt: skip
        found = [f.name for f in result.found]
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "memory": _peak() - base, "found": found}))


def run_child(task: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", task], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def side_by_side(sliceline: str) -> None:
    for data in ("own", "planted"):
        title = ("SliceLine's benchmark, 10,000 rows x 5 columns of 1,000 values"
                 if data == "own" else "planted, 200,000 rows x 6 columns of 10 values")  # fmt: skip
        print(f"\n== {title}")
        for tool in ("informed", "informed-small", "sliceline"):
            if tool == "sliceline" and sliceline not in ("both", data):
                continue
            task = f"informed-{data}-small" if tool == "informed-small" else f"{tool}-{data}"
            got = run_child(task)
            print(f"{tool:>10}: {got['seconds']:8.2f} s, peak {got['memory'] / 2**20:8.1f} MiB "
                  f"above the data; found {len(got['found'])}")  # fmt: skip
            for name in got["found"][:12]:
                print(f"{'':>12}{name}")


def in_memory(n: int) -> None:
    import pandas as pd

    from informed import Table, find_slices

    rng = np.random.default_rng(1)
    columns = {f"c{j}": pd.Categorical(rng.integers(0, 5, n)) for j in range(8)}
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.85, actual, 1 - actual)
    start = time.perf_counter()
    Table.from_labels(actual=actual, predicted=predicted)
    plain = time.perf_counter() - start
    start = time.perf_counter()
    result = find_slices(columns=columns, actual=actual, predicted=predicted, depth=3)
    search = time.perf_counter() - start
    print(f"\n== {n:,} rows x 8 columns of 5 values, depth 3, in memory")
    print(f"plain evaluation {plain:.2f} s; search {search:.2f} s ({search / plain:.1f}x); "
          f"tested {result.tested:,}, found {len(result.found)}")  # fmt: skip


def on_duckdb(n: int) -> None:
    import duckdb

    from informed import find_slices

    connection = duckdb.connect()
    connection.sql(
        f"CREATE TABLE t AS SELECT (random() * 5)::INT::VARCHAR AS c0, "
        f"(random() * 5)::INT::VARCHAR AS c1, (random() * 5)::INT::VARCHAR AS c2, "
        f"(random() * 5)::INT::VARCHAR AS c3, (random() < 0.5)::INT AS y, "
        f"(random() < 0.5)::INT AS p FROM range({n})"
    )
    names = ["c0", "c1", "c2", "c3"]
    sets = [c for L in (1, 2, 3) for c in itertools.combinations(names, L)]
    grouping = ", ".join("(" + ", ".join([*c, "p", "y"]) + ")" for c in sets)
    relation = connection.table("t")
    start = time.perf_counter()  # the first search loads narwhals, pyarrow and informed's engines
    find_slices(relation, columns=names, actual="y", predicted="p", depth=3)
    cold = time.perf_counter() - start
    own, search = [], []
    for _ in range(3):  # best of three each, taken in turn (the machine is shared)
        start = time.perf_counter()
        connection.sql(f"SELECT {', '.join(names)}, p, y, COUNT(*) FROM t "
                       f"GROUP BY GROUPING SETS ({grouping})").fetchall()  # fmt: skip
        own.append(time.perf_counter() - start)
        start = time.perf_counter()
        find_slices(relation, columns=names, actual="y", predicted="p", depth=3)
        search.append(time.perf_counter() - start)
    print(f"\n== DuckDB, {n:,} rows x 4 columns, depth 3 ({len(sets)} grouping sets)")
    print(f"GROUPING SETS {min(own):.2f} s; find_slices on the relation {min(search):.2f} s "
          f"({min(search) / min(own):.2f}x; best of 3; the first search, loading its "
          f"modules, {cold:.2f} s)")  # fmt: skip


def null_share(count: int) -> None:
    from informed import find_slices

    reported = 0
    for seed in range(count):
        rng = np.random.default_rng(10_000 + seed)
        columns = {c: rng.choice(list("abcd"), 5000) for c in ("r", "s", "t")}
        actual = rng.integers(0, 2, 5000)
        predicted = np.where(rng.random(5000) < 0.85, actual, 1 - actual)
        found = find_slices(columns=columns, actual=actual, predicted=predicted, depth=2)
        reported += bool(found.found)
    print(f"\n== no planted slice: {reported} of {count} data sets report a slice "
          f"({100 * reported / count:.1f} %, level 0.95)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child")
    parser.add_argument(
        "--sliceline",
        choices=["both", "own", "planted", "none"],
        default="own",
        help="which data sets SliceLine runs on (default own; planted took 7 minutes and "
        "17 GiB of memory here, so it runs only when asked: --sliceline both)",
    )
    parser.add_argument("--big", type=int, default=10_000_000)
    parser.add_argument("--duckdb", type=int, default=1_000_000)
    parser.add_argument("--null", type=int, default=200)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    side_by_side(args.sliceline)
    if args.big:
        in_memory(args.big)
    if args.duckdb:
        on_duckdb(args.duckdb)
    if args.null:
        null_share(args.null)


if __name__ == "__main__":
    main()
