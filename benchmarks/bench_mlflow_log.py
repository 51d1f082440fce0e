"""Logging a result with its summary to MLflow against logging its values alone.

Usage: .venv/bin/python benchmarks/bench_mlflow_log.py [--labels 2] [--n 10**5]
       [--repeat 15] [--html]

A Table of `--labels` labels and a Ranking of `--n` scored rows (about 1500 distinct
scores), with the Table's bootstrap intervals (1000 replicates, computed before the
timing). Each repeat starts a new run for each of the two calls below, in turn (each
first every other time), in a SQLite tracking store in a temporary folder (MLflow 3's
default store; no server), and times:

* ``mlflow.log_metrics`` of the values `informed.mlflow.log` logs (the same keys and
  numbers: each value, its _ci_low, _ci_high and _n, the intervals' level and
  replicates), the baseline;
* ``informed.mlflow.log(table, intervals, ranking, html=False)``: the same metrics, the
  result document, the exact Table and Ranking and undefined.json as artifacts, and the
  work to make them (the document, the records, the keys).

The medians are printed, with their difference and ratio. The issue's goal (issue 31):
the difference under 50 ms. With `--html`, one more run times the HTML report as well
(matplotlib draws its plots; not part of the goal).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


def parse_size(text: str) -> int:
    """An integer given as 100000, 1e5 or 10**5."""
    if "**" in text:
        base, exponent = text.split("**")
        return int(base) ** int(exponent)
    return int(float(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=int, default=2)
    parser.add_argument("--n", type=parse_size, default=10**5)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--html", action="store_true")
    args = parser.parse_args()

    import mlflow

    import informed.mlflow
    from informed import Ranking, Table, bootstrap
    from informed.integrations.mlflow.keys import metric_values
    from informed.report.records import measure_records, result_document

    rng = np.random.default_rng(0)
    actual = rng.integers(0, args.labels, args.n)
    predicted = np.where(rng.random(args.n) < 0.7, actual, rng.integers(0, args.labels, args.n))
    scores = np.round(rng.random(args.n) + 0.5 * (actual == 0), 3)
    table = Table.from_labels(actual, predicted)
    positive = 0 if args.labels == 2 else None
    intervals = bootstrap(table, positive=positive, seed=0)
    ranking = Ranking.from_scores(actual == 0, scores, positive=True)
    document = result_document(table, intervals, ranking, positive=positive)
    metrics, _ = metric_values(measure_records(document))
    metrics.update(ci_level=intervals.level, ci_replicates=intervals.replicates)

    folder = Path(tempfile.mkdtemp(prefix="bench-mlflow-"))
    os.environ.pop("MLFLOW_RUN_ID", None)
    mlflow.set_tracking_uri(f"sqlite:///{folder / 'mlflow.db'}")
    experiment = mlflow.create_experiment("bench", (folder / "artifacts").as_uri())

    def timed(action: str) -> float:
        with mlflow.start_run(experiment_id=experiment):
            start = time.perf_counter()
            if action == "metrics":
                mlflow.log_metrics(metrics)
            else:
                informed.mlflow.log(
                    table, intervals, ranking, positive=positive, html=action == "html"
                )
            return time.perf_counter() - start

    timed("metrics"), timed("informed")  # warm-up: imports, the store's first writes
    baseline, logged = [], []
    for repeat in range(args.repeat):  # in turn, each first every other time
        if repeat % 2:
            baseline.append(timed("metrics"))
            logged.append(timed("informed"))
        else:
            logged.append(timed("informed"))
            baseline.append(timed("metrics"))
    base, full = statistics.median(baseline), statistics.median(logged)
    print(
        f"{len(metrics)} metrics ({args.labels} labels, Ranking of {args.n:,} rows, "
        f"{len(ranking.scores):,} distinct scores); median of {args.repeat} runs each"
    )
    print(f"  mlflow.log_metrics of the values   {base * 1000:8.1f} ms")
    print(f"  informed.mlflow.log (html=False)   {full * 1000:8.1f} ms")
    goal = "met" if full - base < 0.050 else "NOT met"
    print(
        f"  difference {1000 * (full - base):.1f} ms (goal < 50 ms: {goal}), "
        f"ratio {full / base:.2f}x"
    )
    if args.html:
        print(f"  with the HTML report (one run)     {timed('html') * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
