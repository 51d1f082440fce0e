"""Bootstrap of every measure at n = 10^7 by the cells vs by the rows; DeLong at n = 10^6.

    .venv/bin/python benchmarks/bench_inference.py [--n 10000000] [--classes 10]
        [--replicates 1000] [--row-replicates 5] [--auc-n 1000000]

Part 1: `informed.inference.bootstrap` draws each replicate table from a multinomial over
the K x K cells (O(B K^2)); the row bootstrap resamples n row indices per replicate and
counts them (O(B n)). The row method is given its fastest numpy form (cell codes computed
once, one `integers` draw, one gather and one `bincount` per replicate, the measures then
evaluated in the same vectorised pass) and timed on a few replicates only; its time for
`--replicates` is extrapolated linearly, which the output says. Goal: ratio >= 1000x.

Part 2: DeLong's AUC interval from a Ranking at n = 10^6 (building the Ranking is timed
separately: it is the O(n log n) sort every AUC needs), and the paired DeLong test of two
score vectors (midranks, O(n log n)).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from informed import MEASURES, Table
from informed.inference import bootstrap, bootstrap_ranking, delong_interval, delong_test
from informed.ranking import Ranking
from informed.table.evaluation import measure_values


def timed(work: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def best_of(repeat: int, work: Callable[[], object]) -> float:
    return min(timed(work)[0] for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**7)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--row-replicates", type=int, default=5)
    parser.add_argument("--auc-n", type=int, default=10**6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    k, n = args.classes, args.n
    actual = rng.integers(0, k, n)
    predicted = np.where(rng.random(n) < 0.7, actual, rng.integers(0, k, n))
    table = Table.from_labels(actual=actual, predicted=predicted)
    names = list(MEASURES)
    print(f"Bootstrap of all {len(names)} registry measures, n = {n:,}, K = {k}")

    percentile = best_of(args.repeat, lambda: bootstrap(table, replicates=args.replicates, seed=1))
    bca = best_of(
        args.repeat,
        lambda: bootstrap(table, replicates=args.replicates, seed=1, method="bca"),
    )

    cell_of_row = predicted * k + actual  # rows = predicted, as Table.square() lays them out

    def row_bootstrap(replicates: int) -> object:
        counts = np.empty((replicates, k * k))
        for b in range(replicates):
            rows = rng.integers(0, n, n)
            counts[b] = np.bincount(cell_of_row[rows], minlength=k * k)
        return measure_values(counts.reshape(replicates, k, k), names, None, 0.5, "propagate")

    rows_time = best_of(1, lambda: row_bootstrap(args.row_replicates))
    rows_extrapolated = rows_time * args.replicates / args.row_replicates
    b, r = args.replicates, args.row_replicates
    lines = [
        (f"cells (multinomial), percentile, {b} replicates", f"{percentile:9.3f} s"),
        (f"cells (multinomial), BCa incl. cell jackknife, {b} replicates", f"{bca:9.3f} s"),
        (f"rows resampled, {r} replicates (measured)", f"{rows_time:9.3f} s"),
        (
            f"rows resampled, {b} replicates (EXTRAPOLATED x{b / r:g})",
            f"{rows_extrapolated:9.1f} s",
        ),
        (
            "ratio rows / cells (percentile)",
            f"{rows_extrapolated / percentile:9.0f}x  (goal >= 1000x)",
        ),
    ]
    for name, value in lines:
        print(f"  {name:<62} {value}")

    print(f"\nDeLong, n = {args.auc_n:,}")
    m = args.auc_n
    y = (rng.random(m) < 0.3).astype(int)
    continuous = rng.normal(size=m) + y
    for label, scores in (
        ("distinct scores", continuous),
        ("scores rounded to 0.01", np.round(continuous, 2)),
    ):
        build, ranking = timed(lambda s=scores: Ranking.from_scores(actual=y, scores=s, positive=1))
        assert isinstance(ranking, Ranking)
        interval_time = best_of(args.repeat, lambda r=ranking: delong_interval(r))
        interval = delong_interval(ranking)
        print(
            f"  {label:<24} {ranking.n_groups:>9,} groups: Ranking.from_scores {build * 1e3:7.1f} ms, "
            f"delong_interval {interval_time * 1e3:7.2f} ms "
            f"(AUC {interval.estimate:.4f} [{interval.low:.4f}, {interval.high:.4f}])"
        )
    other = continuous + rng.normal(scale=0.5, size=m)
    start = time.perf_counter()
    test = delong_test(y, continuous, other)
    test_time = time.perf_counter() - start
    print(
        f"  delong_test, two score vectors                   {test_time * 1e3:7.1f} ms "
        f"(z = {test.statistic:.2f})"
    )

    coarse = Ranking.from_scores(actual=y, scores=np.round(continuous, 2), positive=1)
    boot_time = best_of(1, lambda: bootstrap_ranking(coarse, replicates=args.replicates, seed=0))
    print(
        f"  bootstrap_ranking, {args.replicates} replicates, {coarse.n_groups:,} groups "
        f"(AUC, PEM, averages)  {boot_time * 1e3:7.1f} ms"
    )


if __name__ == "__main__":
    main()
