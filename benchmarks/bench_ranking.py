"""Time Ranking.from_scores and every curve and summary against np.sort and roc_auc_score.

Usage: .venv/bin/python benchmarks/bench_ranking.py [--n 10**7] [--repeat 3] [--ties]

The goals: every curve and summary of a built Ranking together within 2x
`np.sort(scores)` (issue 19, item 11: the sum of the single timings below, each on a
Ranking whose cumulative counts are built), and at least 10x faster than scikit-learn's
`roc_auc_score` (issue 4). Each timing is the best of `--repeat` runs. "pipeline" builds
a fresh Ranking and computes everything listed, so it includes the one-off cumulative
counts that later calls share; "every measure, fresh groups" is the pipeline without
the sort of the rows. `--cpu` times CPU seconds of this process instead of wall-clock
seconds (steadier on a shared machine).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from informed.ranking import (
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    hit_rate,
    lift,
    lift_table,
    pearson,
    pem,
    pem_areas,
    precision_at,
    qrecall,
    recall_at,
    roc_convex_hull,
    roc_curve,
    threshold_at,
)


def parse_size(text: str) -> int:
    """An integer given as 10000000, 1e7 or 10**7."""
    if "**" in text:
        base, exponent = text.split("**")
        return int(base) ** int(exponent)
    return int(float(text))


CLOCK = time.perf_counter


def best(function: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = CLOCK()
        function()
        times.append(CLOCK() - start)
    return min(times)


def every_measure(ranking: Ranking, quotas: np.ndarray, thresholds: np.ndarray) -> None:
    auc(ranking)
    average_hit_rate(ranking)
    average_qrecall(ranking)
    pem(ranking)
    pem_areas(ranking)
    roc_curve(ranking)
    roc_convex_hull(ranking)
    hit_rate(ranking, quotas)
    qrecall(ranking, quotas)
    lift(ranking, quotas)
    pearson(ranking, quotas)
    threshold_at(ranking, quotas)
    lift_table(ranking, 10)
    precision_at(ranking, thresholds)
    recall_at(ranking, thresholds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=parse_size, default=10**7, help="rows (default 10**7)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing, best kept")
    parser.add_argument("--ties", action="store_true", help="round scores to 3 decimals")
    parser.add_argument("--skip-sklearn", action="store_true", help="do not time roc_auc_score")
    parser.add_argument("--cpu", action="store_true", help="time CPU seconds, not wall clock")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time

    rng = np.random.default_rng(0)
    n = args.n
    scores = rng.random(n)
    if args.ties:
        scores = np.round(scores, 3)
    actual = rng.random(n) < 0.2 + 0.6 * scores  # informative scores, prevalence ~ 0.5
    weights = rng.integers(1, 4, n).astype(np.float64)
    quotas = np.linspace(0, n, 11)
    thresholds = np.linspace(0, 1, 11)
    print(f"n = {n:,}, distinct scores = {np.unique(scores).size:,}, repeat = {args.repeat}")

    timings: dict[str, float] = {}
    timings["np.sort(scores)"] = best(lambda: np.sort(scores), args.repeat)
    if not args.skip_sklearn:
        from sklearn.metrics import roc_auc_score

        timings["sklearn roc_auc_score"] = best(lambda: roc_auc_score(actual, scores), args.repeat)
    timings["Ranking.from_scores"] = best(
        lambda: Ranking.from_scores(actual=actual, scores=scores, positive=True), args.repeat
    )
    timings["Ranking.from_scores(weights)"] = best(
        lambda: Ranking.from_scores(actual=actual, scores=scores, positive=True, weights=weights),
        args.repeat,
    )
    timings["from_scores + auc"] = best(
        lambda: auc(Ranking.from_scores(actual=actual, scores=scores, positive=True)), args.repeat
    )
    timings["pipeline: from_scores + every measure"] = best(
        lambda: every_measure(
            Ranking.from_scores(actual=actual, scores=scores, positive=True), quotas, thresholds
        ),
        args.repeat,
    )
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    timings["every measure, fresh groups"] = best(  # a new Ranking of the same arrays
        lambda: every_measure(ranking.with_classes(True, False), quotas, thresholds),
        args.repeat,
    )
    auc(ranking)  # builds the shared cumulative counts once
    singles: dict[str, Callable[[], Any]] = {
        "auc": lambda: auc(ranking),
        "average_hit_rate": lambda: average_hit_rate(ranking),
        "average_qrecall": lambda: average_qrecall(ranking),
        "pem": lambda: pem(ranking),
        "pem_areas": lambda: pem_areas(ranking),
        "roc_curve": lambda: roc_curve(ranking),
        "roc_convex_hull": lambda: roc_convex_hull(ranking),
        "hit_rate(11 quotas)": lambda: hit_rate(ranking, quotas),
        "qrecall(11 quotas)": lambda: qrecall(ranking, quotas),
        "lift(11 quotas)": lambda: lift(ranking, quotas),
        "pearson(11 quotas)": lambda: pearson(ranking, quotas),
        "threshold_at(11 quotas)": lambda: threshold_at(ranking, quotas),
        "lift_table(10 bins)": lambda: lift_table(ranking, 10),
        "precision_at(11 thresholds)": lambda: precision_at(ranking, thresholds),
        "recall_at(11 thresholds)": lambda: recall_at(ranking, thresholds),
    }
    for name, function in singles.items():
        timings[f"  {name}"] = best(function, args.repeat)
    timings["every summary together (sum of the above)"] = sum(
        timings[f"  {name}"] for name in singles
    )

    sort_time = timings["np.sort(scores)"]
    sklearn_time = timings.get("sklearn roc_auc_score")
    width = max(len(name) for name in timings)
    print(f"{'':{width}}  {'seconds':>9}  {'/ np.sort':>9}  {'sklearn /':>9}")
    for name, seconds in timings.items():
        speedup = f"{sklearn_time / seconds:9.1f}" if sklearn_time else f"{'-':>9}"
        print(f"{name:{width}}  {seconds:9.4f}  {seconds / sort_time:9.2f}  {speedup}")
    pipeline = timings["pipeline: from_scores + every measure"]
    together = timings["every summary together (sum of the above)"]
    print(f"\ngoal 1: every summary together <= 2 x np.sort: {together / sort_time:.2f} x")
    print(f"        (pipeline, the sort of the rows included: {pipeline / sort_time:.2f} x)")
    if sklearn_time:
        print(
            f"goal 2: >= 10 x faster than roc_auc_score: from_scores + auc is "
            f"{sklearn_time / timings['from_scores + auc']:.1f} x, the pipeline "
            f"{sklearn_time / pipeline:.1f} x"
        )


if __name__ == "__main__":
    main()
