"""Slices: evaluation by group in one pass, against fairlearn's MetricFrame.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_slices.py [--n 1000000] [--groups 100]
        [--big 10000000] [--labels 10] [--fairlearn-boot 5] [--skip-fairlearn]

Part 1: 10^6 rows x 100 groups, two classes, weights: fairlearn's `MetricFrame` with
recall and selection rate against `Slices.from_labels` + `evaluate_slices` (every
registry measure of every group). fairlearn's bootstrap (`n_boot`) resamples all rows
and reruns scikit-learn per group for every replicate; it is timed with
`--fairlearn-boot` replicates and scaled linearly to 100 (the output says so), against
`bootstrap_slices` with 100 replicates (every slice from its own cells).
Part 2: 10^7 rows, 100 slices, 10 labels, with scores: the sliced pass (Tables and
Rankings of every slice, and the overall ones) against the unsliced one
(`Table.from_labels` + `Ranking.from_scores`); 1,000 bootstrap replicates of 100 slices.
Part 3: 52 weeks x 100 groups x 10^7 rows with intervals, the week given as a column
crossed with the group (calendar windows, `--by-time`, are not built yet).
Each time is the best of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from informed.inference import bootstrap_slices, disparities
from informed.ranking import Ranking
from informed.slices import Slices
from informed.slices.evaluation import evaluate_slices
from informed.table import Table


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def binary(n: int, groups: int, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    actual = (rng.random(n) < 0.3 + 0.4 * group / groups).astype(np.int64)
    predicted = np.where(rng.random(n) < 0.8, actual, 1 - actual)
    weights = rng.integers(1, 4, n).astype(np.float64)
    return {"group": group, "actual": actual, "predicted": predicted, "weights": weights}


def part1(args: argparse.Namespace) -> None:
    data = binary(args.n, args.groups)
    print(f"Part 1: {args.n:,} rows x {args.groups} groups, two classes, weights")

    def ours() -> Any:
        s = Slices.from_labels(
            by=data["group"],
            actual=data["actual"],
            predicted=data["predicted"],
            weights=data["weights"],
        )
        return evaluate_slices(s, positive=1)

    t_ours, found = best(ours, args.repeat)
    s = found.slices
    t_boot, _ = best(
        lambda: bootstrap_slices(s, ["recall", "bias"], positive=1, replicates=100, seed=0),
        args.repeat,
    )
    t_disp, _ = best(lambda: disparities(s, positive=1, replicates=100, seed=0), args.repeat)
    print(f"  informed: slices + every measure of every group   {t_ours:8.3f} s")
    print(f"  informed: bootstrap_slices, 100 replicates        {t_boot:8.3f} s")
    print(f"  informed: disparities, 100 replicates             {t_disp:8.3f} s")
    if args.skip_fairlearn:
        return
    from fairlearn.metrics import MetricFrame, selection_rate
    from sklearn.metrics import recall_score

    params = {"sample_weight": data["weights"]}

    def frame(n_boot: int | None) -> Any:
        extra = (
            {}
            if n_boot is None
            else {"n_boot": n_boot, "ci_quantiles": [0.025, 0.975], "random_state": 0}
        )
        return MetricFrame(
            metrics={"recall": recall_score, "selection_rate": selection_rate},
            y_true=data["actual"],
            y_pred=data["predicted"],
            sensitive_features=data["group"],
            sample_params={"recall": params, "selection_rate": params},
            **extra,
        )

    t_fair, mf = best(lambda: frame(None), 1)
    recall = mf.by_group["recall"].to_numpy()
    assert np.allclose(recall, found.values["recall"], atol=1e-12), "fairlearn disagrees"
    t_fboot, _ = best(lambda: frame(args.fairlearn_boot), 1)
    scaled = t_fair + (t_fboot - t_fair) * 100 / args.fairlearn_boot
    print(
        f"  fairlearn MetricFrame (recall, selection rate)    {t_fair:8.3f} s   {t_fair / t_ours:7.0f}x slower"
    )
    print(
        f"  fairlearn n_boot={args.fairlearn_boot} measured {t_fboot:.1f} s, scaled to 100: "
        f"{scaled:8.1f} s   {scaled / t_boot:7.0f}x slower than bootstrap_slices"
    )


def part2(args: argparse.Namespace) -> None:
    n, rng = args.big, np.random.default_rng(1)
    print(f"Part 2: {n:,} rows, {args.groups} slices, {args.labels} labels, with scores")
    actual = rng.integers(0, args.labels, n)
    predicted = np.where(rng.random(n) < 0.6, actual, rng.integers(0, args.labels, n))
    group = rng.integers(0, args.groups, n)
    scores = np.round(rng.random(n) + 0.5 * (actual == 0), 4)

    def unsliced() -> Any:
        return (
            Table.from_labels(actual=actual, predicted=predicted),
            Ranking.from_scores(actual=actual == 0, scores=scores, positive=True, negative=False),
        )

    def sliced() -> Slices:
        return Slices.from_labels(
            by=group, actual=actual, predicted=predicted, scores=scores, positive=0
        )

    t_plain, _ = best(unsliced, args.repeat)
    t_sliced, s = best(sliced, args.repeat)
    t_tables, _ = best(
        lambda: Slices.from_labels(by=group, actual=actual, predicted=predicted), args.repeat
    )
    t_boot, _ = best(
        lambda: bootstrap_slices(s, ["informedness", "markedness"], replicates=1000, seed=0),
        args.repeat,
    )
    print(f"  unsliced Table + Ranking                          {t_plain:8.3f} s")
    print(
        f"  sliced Tables + Rankings (and the overall ones)   {t_sliced:8.3f} s   {t_sliced / t_plain:5.2f}x the unsliced pass"
    )
    print(f"  sliced Tables only                                {t_tables:8.3f} s")
    print(f"  1,000 replicates x {args.groups} slices, B and M (multiclass) {t_boot:8.3f} s")


def part3(args: argparse.Namespace) -> None:
    n, rng = args.big, np.random.default_rng(2)
    print(f"Part 3: 52 weeks x {args.groups} groups x {n:,} rows, two classes, intervals")
    week = rng.integers(0, 52, n)
    group = rng.integers(0, args.groups, n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.8, actual, 1 - actual)

    def run() -> Any:
        s = Slices.from_labels(
            by=[week, group], actual=actual, predicted=predicted, names=["week", "group"]
        )
        return bootstrap_slices(s, ["informedness"], positive=1, replicates=200, seed=0)

    t_all, found = best(run, args.repeat)
    print(f"  {len(found.evaluation.n):,} slices, B with 200-replicate intervals  {t_all:8.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--big", type=int, default=10_000_000)
    parser.add_argument("--labels", type=int, default=10)
    parser.add_argument("--fairlearn-boot", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--skip-fairlearn", action="store_true")
    parser.add_argument("--parts", default="123")
    args = parser.parse_args()
    if "1" in args.parts:
        part1(args)
    if "2" in args.parts:
        part2(args)
    if "3" in args.parts:
        part3(args)


if __name__ == "__main__":
    main()
