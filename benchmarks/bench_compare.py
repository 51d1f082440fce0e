"""Paired bootstrap of three models at n = 10^6: the joint table vs resampling the rows.

    .venv/bin/python benchmarks/bench_compare.py [--n 1000000] [--models 3]
        [--replicates 1000] [--row-replicates 20] [--score-n 20000]

Part 1 (labels): `informed.compare` reads the rows once into the joint table of the
models' outcomes (at most 2^(m+1) cells for two classes and m models) and draws every
replicate as a multinomial over those cells: O(B x cells). The row bootstrap resamples n
row indices per replicate, the same indices for every model (that is what pairs them),
and counts each model's table with one `bincount` (O(B n)); it is given its fastest numpy
form (cell codes computed once) and the same vectorised measure evaluation. It is timed
on `--row-replicates` replicates and extrapolated linearly to `--replicates`, which the
output says. Goal: >= 100x.

Part 2 (scores): the paired bootstrap of AUC, PEM and average Qrecall needs the scores;
its joint cells are (actual, tie group of each model's score), about n for continuous
scores, so it is O(B x n) and timed at a smaller n.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from informed.comparison import compare, joint_outcomes
from informed.comparison.joint import draw_cells
from informed.comparison.paired import paired_replicates
from informed.table.evaluation import measure_values

MEASURES = [
    "informedness",
    "markedness",
    "correlation",
    "matthews_correlation",
    "accuracy",
    "f_measure",
]


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def best_of(repeat: int, work: Callable[[], object]) -> float:
    return min(timed(work) for _ in range(repeat))


def models(n: int, count: int, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    actual = (rng.random(n) < 0.4).astype(np.int64)
    hard = rng.random(n)
    out = {}
    for m in range(count):
        right = rng.random(n) * 0.5 + hard * 0.5 < 0.85 - 0.05 * m
        out[f"model{m}"] = np.where(right, actual, 1 - actual)
    return actual, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--models", type=int, default=3)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--row-replicates", type=int, default=20)
    parser.add_argument("--score-n", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n, b = args.n, args.replicates
    actual, predicted = models(n, args.models, rng)
    print(
        f"Paired bootstrap of {len(MEASURES)} measures, {args.models} models, n = {n:,}, "
        f"{b} replicates"
    )

    build = best_of(args.repeat, lambda: joint_outcomes(actual, predicted))
    joint = joint_outcomes(actual, predicted)

    def joint_bootstrap() -> object:
        draws = draw_cells(np.random.default_rng(1), joint.cells, b)
        return paired_replicates(joint, draws, MEASURES, 1, 0.5, "propagate")

    cells = best_of(args.repeat, joint_bootstrap)
    full = best_of(
        1,
        lambda: compare(actual, predicted, positive=1, replicates=b, permutations=9999, seed=1),
    )

    codes = {name: 2 * p + actual for name, p in predicted.items()}  # rows predicted

    def row_bootstrap(replicates: int) -> object:
        counts = {name: np.empty((replicates, 4)) for name in codes}
        for r in range(replicates):
            rows = rng.integers(0, n, n)  # the same cases for every model: paired
            for name, code in codes.items():
                counts[name][r] = np.bincount(code[rows], minlength=4)
        return {
            name: measure_values(c.reshape(replicates, 2, 2), MEASURES, 0, 0.5, "propagate")
            for name, c in counts.items()
        }

    rows_time = best_of(1, lambda: row_bootstrap(args.row_replicates))
    rows_extrapolated = rows_time * b / args.row_replicates
    lines = [
        (f"joint table of the outcomes ({joint.cells.counts.size} cells), built once", build),
        (f"paired bootstrap on the joint table, {b} replicates", cells),
        (f"rows resampled (numpy), {args.row_replicates} replicates (measured)", rows_time),
        (f"rows resampled (numpy), {b} replicates (extrapolated)", rows_extrapolated),
        (
            f"informed.compare end to end ({b} replicates, McNemar, 9999 permutations x "
            f"{args.models - 1}), from the rows",
            full,
        ),
    ]
    width = max(len(label) for label, _ in lines)
    for label, seconds in lines:
        print(f"  {label:<{width}}  {seconds:9.3f} s")
    print(f"  ratio rows / joint table (bootstrap):           {rows_extrapolated / cells:9.0f}x")
    print(
        f"  ratio rows / joint table (including building it): "
        f"{rows_extrapolated / (cells + build):7.0f}x"
    )

    m = args.score_n
    scores = {
        name: p[:m] + rng.normal(0, 1.0, m) for name, p in predicted.items()
    }  # continuous: about m joint cells
    score_time = best_of(
        1,
        lambda: compare(
            actual[:m], scores=scores, positive=1, replicates=b, permutations=1, seed=1
        ),
    )
    print(
        f"\nScores (AUC, PEM, average Qrecall; DeLong), {args.models} models, n = {m:,}, "
        f"continuous scores, {b} replicates: {score_time:.3f} s"
    )


if __name__ == "__main__":
    main()
