"""10^8 rows of Parquet evaluated exactly on one machine, with and without Dask.

    .venv/bin/python benchmarks/bench_scale.py [--rows 100000000] [--files 20]
        [--compare-rows 50000000] [--workers 2] [--repeat 1]

Writes, in a temporary folder (removed at the end), `--files` Parquet files holding
`--rows` rows in all: string labels (the actual class and a prediction, "click" or "no
click", dictionary-encoded as Parquet writes strings) and a float64 score, a model's
probability rounded to 4 decimals. The rounding matters: a Ranking holds one entry per
distinct score, so 10^8 distinct float scores (1.6 GB of scores and counts) cannot fit in
1 GB whatever the engine; a model's rounded probabilities, or float32 outputs, have a
bounded number of distinct values (here at most 10,001), and the Ranking of 10^8 rows is
then a few hundred KB. Every score is still merged exactly, never binned by informed.

Each route runs as a fresh process; its time and peak resident memory are printed:

* bare pyarrow + bincount: the label columns read batch by batch as dictionaries and
  counted with one `np.bincount` per batch (the Table only): the least the data allows;
* informed, one process: ``informed evaluate 'folder/*.parquet' --predicted [--score]``,
  the files read one batch at a time (memory flat): the Table alone (to set beside the
  bare route), then the Table and the Ranking;
* informed on Dask: a LocalCluster of `--workers` single-threaded worker processes, one
  task per file (`informed.dask.summarise`), then the same report. Its peak memory is
  given per process (the client, which also runs the scheduler and the nannies, and each
  worker) and as their sum, an upper bound of the memory in use at any one time
  (`ru_maxrss` of a process tree reports its largest process only).

Then Dask against one process on `--compare-rows` rows (the first files): the ratio of
their times in all and once the cluster is up, beside what the machine allows: how much
faster `--workers` CPU-bound processes run than one (2 on 2 free cores: 2x; virtual cores
get less), and `--workers` plain `informed evaluate` processes sharing the files out
without Dask (reading Parquet is bound by memory traffic as much as by the cores).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bytecode import compile_informed

INFORMED = str(Path(sys.executable).with_name("informed"))
LABELS = pa.array(["click", "no click"])
CHUNK = 1 << 20

BARE = textwrap.dedent(
    """
    import sys
    import numpy as np, pyarrow.parquet as pq
    counts = {}
    for path in sys.argv[1:]:
        source = pq.ParquetFile(path, read_dictionary=["actual", "predicted"])
        for batch in source.iter_batches(batch_size=1 << 18, columns=["actual", "predicted"]):
            actual, predicted = batch.column(0), batch.column(1)
            a_words = actual.dictionary.to_pylist()
            p_words = predicted.dictionary.to_pylist()
            cells = np.bincount(
                predicted.indices.to_numpy().astype(np.int64) * len(a_words)
                + actual.indices.to_numpy(),
                minlength=len(a_words) * len(p_words),
            )
            for k, count in enumerate(cells.tolist()):
                key = (p_words[k // len(a_words)], a_words[k % len(a_words)])
                counts[key] = counts.get(key, 0) + count
    print(sum(counts.values()))
    """
)

DASK = textwrap.dedent(
    """
    import json, logging, resource, sys, time
    start = time.perf_counter()
    import distributed
    import informed.dask
    from informed.ranking import summarize_ranking
    from informed.table import evaluate, payoff

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    if __name__ == "__main__":
        workers, files = int(sys.argv[1]), sys.argv[2:]
        with distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=logging.CRITICAL,
        ) as cluster, distributed.Client(cluster) as client:
            client.run(__import__, "informed.io.summaries")  # each worker's imports
            ready = time.perf_counter()
            found = informed.dask.summarise(
                files, actual="actual", predicted="predicted", scores="score",
                positive="click", scheduler=client,
            )
            evaluation = evaluate(found.table, positive="click")
            payoff(found.table)
            summary = summarize_ranking(found.ranking)
            work = time.perf_counter() - ready
            worker_peaks = sorted(client.run(peak).values())
        print(json.dumps({
            "seconds": time.perf_counter() - start,
            "start": ready - start,
            "work": work,
            "client": peak(),
            "workers": worker_peaks,
            "rows": found.rows,
            "groups": found.ranking.n_groups,
            "informedness": evaluation.measures["informedness"],
            "auc": summary.values["auc"],
        }))
    """
)

LOOP = (
    "import time\nt = time.perf_counter()\nsum(range(30_000_000))\nprint(time.perf_counter() - t)"
)

MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)\n"
    "print(done.stdout)\n"
)


def write(folder: Path, rows: int, files: int) -> list[Path]:
    """`files` Parquet files of `rows` rows in all (row groups of 2^20 rows)."""
    rng = np.random.default_rng(0)
    paths, per_file = [], -(-rows // files)
    left = rows
    for i in range(files):
        path = folder / f"part-{i:03d}.parquet"
        with pq.ParquetWriter(
            path,
            pa.schema(
                {
                    "actual": pa.dictionary(pa.int8(), pa.string()),
                    "predicted": pa.dictionary(pa.int8(), pa.string()),
                    "score": pa.float64(),
                }
            ),
        ) as writer:
            in_file = min(per_file, left)
            while in_file > 0:
                n = min(CHUNK, in_file)
                clicked = rng.random(n) < 0.1
                # a model's probability of a click, rounded to 4 decimals
                logit = -2.5 + 1.8 * clicked + rng.normal(0.0, 1.0, n)
                score = np.round(1.0 / (1.0 + np.exp(-logit)), 4)
                predicted = score >= 0.2
                writer.write_table(
                    pa.table(
                        {
                            "actual": pa.DictionaryArray.from_arrays(
                                pa.array((~clicked).astype(np.int8)), LABELS
                            ),
                            "predicted": pa.DictionaryArray.from_arrays(
                                pa.array((~predicted).astype(np.int8)), LABELS
                            ),
                            "score": pa.array(score),
                        }
                    )
                )
                in_file -= n
                left -= n
        paths.append(path)
    return paths


def run(command: list[str]) -> tuple[float, float, str]:
    """(seconds, peak MiB, stdout) of a command run as a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=True
    ).stdout
    first, _, rest = out.partition("\n")
    peak, seconds = first.split()
    return float(seconds), int(peak) / 1024, rest


def single(
    files: list[Path], folder: Path, repeat: int, score: bool = True
) -> tuple[float, float, dict]:
    """``informed evaluate`` of the files: a glob of the folder when they are all of it."""
    every = len(files) == len(list(folder.glob("part-*.parquet")))
    sources = [str(folder / "part-*.parquet")] if every else [str(f) for f in files]
    command = [
        INFORMED, "evaluate", *sources, "--actual", "actual", "--predicted", "predicted",
        *(["--score", "score"] if score else []),
        "--positive", "click", "--format", "json", "--quiet",
    ]  # fmt: skip
    best = (float("inf"), 0.0, {})
    for _ in range(repeat):
        seconds, peak, out = run(command)
        if seconds < best[0]:
            best = (seconds, peak, json.loads(out))
    return best


def on_dask(files: list[Path], workers: int, repeat: int) -> dict:
    best: dict = {"seconds": float("inf")}
    for _ in range(repeat):
        t = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", DASK, str(workers), *map(str, files)],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        found = json.loads(out)
        found["wall"] = time.perf_counter() - t
        if found["wall"] < best["seconds"]:
            best = found | {"seconds": found["wall"]}
    return best


def parallel_speedup(workers: int) -> float:
    """How much faster `workers` processes get through CPU-bound work than one: a loop run
    alone, then `workers` copies at once (`workers` on a machine with as many free cores)."""
    alone = float(subprocess.run([sys.executable, "-c", LOOP], capture_output=True,
                                 text=True, check=True).stdout)  # fmt: skip
    running = [
        subprocess.Popen([sys.executable, "-c", LOOP], stdout=subprocess.PIPE, text=True)
        for _ in range(workers)
    ]
    together = max(float(p.communicate()[0]) for p in running)
    return workers * alone / together


def split_processes(files: list[Path], workers: int) -> float:
    """The files shared out among `workers` plain `informed evaluate` processes run at
    once, without Dask: what `workers` processes gain on this data and this machine
    (memory traffic, not only cores, bounds it)."""
    t = time.perf_counter()
    running = [
        subprocess.Popen(
            [INFORMED, "evaluate", *map(str, files[i::workers]), "--actual", "actual",
             "--predicted", "predicted", "--score", "score", "--positive", "click",
             "--format", "json", "--quiet", "--partial", os.devnull],
            stdout=subprocess.DEVNULL,
        )
        for i in range(workers)
    ]  # fmt: skip
    for process in running:
        if process.wait() != 0:
            msg = "informed evaluate failed on a share of the files"
            raise RuntimeError(msg)
    return time.perf_counter() - t


def report_dask(name: str, found: dict, bare: float) -> None:
    client = found["client"] / 1024
    workers = [w / 1024 for w in found["workers"]]
    total = client + sum(workers)
    print(
        f"  {name:<34} {found['seconds']:7.2f} s  {total:7.0f} MiB peak (sum: client "
        f"{client:.0f} + workers {' + '.join(f'{w:.0f}' for w in workers)})  "
        f"{found['seconds'] / bare:5.2f}x"
    )
    print(
        f"  {'':<34} (of which {found['start']:.2f} s to start the cluster and import "
        f"informed on the workers, {found['work']:.2f} s of work: {found['work'] / bare:.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10**8)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--compare-rows", type=int, default=5 * 10**7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
    folder = Path(tempfile.mkdtemp(prefix="informed-bench-scale-"))
    try:
        t = time.perf_counter()
        files = write(folder, args.rows, args.files)
        size = sum(f.stat().st_size for f in files) / 2**20
        print(
            f"{args.rows:,} rows in {len(files)} Parquet files ({size:.0f} MiB), string labels "
            f"and float64 scores rounded to 4 decimals (written in {time.perf_counter() - t:.0f} s)"
        )
        print(f"cores: {os.cpu_count()}, Dask workers: {args.workers}")
        bare, bare_peak, _ = run([sys.executable, "-c", BARE, *map(str, files)])
        print(f"  {'bare pyarrow + bincount (Table)':<34} {bare:7.2f} s  {bare_peak:7.0f} MiB peak")
        seconds, peak, _ = single(files, folder, args.repeat, score=False)
        print(
            f"  {'informed, one process (Table)':<34} {seconds:7.2f} s  {peak:7.0f} MiB peak  "
            f"{seconds / bare:5.2f}x"
        )
        seconds, peak, document = single(files, folder, args.repeat)
        coverage = document["coverage"]
        print(
            f"  {'informed, one process (+ Ranking)':<34} {seconds:7.2f} s  {peak:7.0f} MiB peak  "
            f"{seconds / bare:5.2f}x"
        )
        found = on_dask(files, args.workers, args.repeat)
        report_dask(f"informed on Dask, {args.workers} w. (+ Ranking)", found, bare)
        print(
            f"  rows read {coverage['rows_read']:,}, counted {coverage['rows_counted']:,} "
            f"(one process), {found['rows']:,} (Dask); the Ranking has {found['groups']:,} "
            "distinct scores"
        )
        print(
            f"  informedness {document['measures']['informedness']:.6f} "
            f"(one process), {found['informedness']:.6f} (Dask); "
            f"AUC {document['ranking']['auc']:.6f}, {found['auc']:.6f}"
        )
        share = max(1, round(len(files) * args.compare_rows / args.rows))
        part = files[:share]
        rows = sum(pq.ParquetFile(f).metadata.num_rows for f in part)
        print(f"Dask against one process on {rows:,} rows ({share} files):")
        one, one_peak, _ = single(part, folder, args.repeat)
        many = on_dask(part, args.workers, args.repeat)
        print(f"  {'informed, one process (+ Ranking)':<34} {one:7.2f} s  {one_peak:7.0f} MiB peak")
        report_dask(f"informed on Dask, {args.workers} w. (+ Ranking)", many, one)
        print(
            f"  one process / Dask: {one / many['seconds']:.2f}x in all, "
            f"{one / many['work']:.2f}x once the cluster is up"
        )
        speedup = parallel_speedup(args.workers)
        shared = split_processes(part, args.workers)
        print(
            f"  what {args.workers} processes can gain here: a CPU-bound loop runs "
            f"{speedup:.2f}x as fast, and {args.workers} plain informed processes sharing "
            f"the files out (no Dask) take {shared:.2f} s, {one / shared:.2f}x as fast as one"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
