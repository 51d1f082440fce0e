"""Slices: evaluation by group in one pass, against fairlearn's MetricFrame.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_slices.py [--n 1000000] [--groups 100]
        [--big 10000000] [--labels 10] [--fairlearn-boot 5] [--skip-fairlearn]
        [--parts 123] [--repeat 2] [--scores decimal|continuous]
        [--weights none|whole|fractional]

Part 1: 10^6 rows x 100 groups, two classes, weights: fairlearn's `MetricFrame` with
recall and selection rate against `Slices.from_labels` + `evaluate_slices` (every
registry measure of every group). fairlearn's bootstrap (`n_boot`) resamples all rows
and reruns scikit-learn per group for every replicate; it is timed with
`--fairlearn-boot` replicates and scaled linearly to 100 (the output says so), against
`bootstrap_slices` with 100 replicates (every slice from its own cells).
Part 2: 10^7 rows, 100 slices, 10 labels, with scores: the sliced pass (Tables and
Rankings of every slice, and the overall ones) against the unsliced one
(`Table.from_labels` + `Ranking.from_scores`), interleaved, in wall-clock and in CPU
seconds (the machine may be shared); then where the time goes: the unsliced pass's
sort, the sliced pass's hash of the scores and count of (slice, score, outcome) cells,
and the packed sort the sliced pass made before (still its route where the cells would
outnumber the rows); 1,000 bootstrap replicates of 100 slices. The scores have four
decimals (15,001 distinct values) unless `--scores continuous` (10^7 distinct: the
packed sort's route); `--weights whole` or `fractional` weighs the rows of both passes
(whole weights are summed exactly by the hashed route, fractional ones slice by slice
in the order `Ranking.from_scores` sums them); the breakdown is shown for the default.
Part 3: 52 weeks x 100 groups x 10^7 rows with intervals: 10^7 timestamps over 52
weeks floored to their calendar week (`informed.slices.windows.window_codes`, as
`--by-time COL --every 1w` does) crossed with the group, sliced and bootstrapped.
Each time is the best of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from informed.inference import bootstrap_slices, disparities
from informed.ranking import Ranking
from informed.slices import Slices
from informed.slices.evaluation import evaluate_slices
from informed.slices.windows import window_codes
from informed.table import Table


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    wall, _, result = timed(run, repeat)
    return wall, result


def timed(run: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """(best wall-clock seconds, best CPU seconds, the last result) of `repeat` runs."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = run()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


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
    kind = f"{args.scores} scores" + ("" if args.weights == "none" else f", {args.weights} weights")
    print(f"Part 2: {n:,} rows, {args.groups} slices, {args.labels} labels, {kind}")
    actual = rng.integers(0, args.labels, n)
    predicted = np.where(rng.random(n) < 0.6, actual, rng.integers(0, args.labels, n))
    group = rng.integers(0, args.groups, n)
    scores = rng.random(n) + 0.5 * (actual == 0)
    if args.scores == "decimal":  # four decimals: 15,001 distinct scores
        scores = np.round(scores, 4)
    weights = None
    if args.weights == "whole":
        weights = rng.integers(1, 4, n).astype(np.float64)
    elif args.weights == "fractional":
        weights = rng.random(n) + 0.5

    def unsliced() -> Any:
        return (
            Table.from_labels(actual=actual, predicted=predicted, weights=weights),
            Ranking.from_scores(
                actual=actual == 0, scores=scores, positive=True, negative=False, weights=weights
            ),
        )

    def sliced() -> Slices:
        return Slices.from_labels(
            by=group, actual=actual, predicted=predicted, scores=scores, positive=0, weights=weights
        )

    # interleaved, so that both passes meet the same load on a shared machine
    plain, cut = [math.inf, math.inf], [math.inf, math.inf]
    s: Any = None
    for _ in range(args.repeat):
        plain = [min(a, b) for a, b in zip(plain, timed(unsliced, 1)[:2], strict=True)]
        *measured, s = timed(sliced, 1)
        cut = [min(a, b) for a, b in zip(cut, measured, strict=True)]
    tables = timed(
        lambda: Slices.from_labels(by=group, actual=actual, predicted=predicted, weights=weights),
        args.repeat,
    )
    boot = timed(
        lambda: bootstrap_slices(s, ["informedness", "markedness"], replicates=1000, seed=0),
        args.repeat,
    )
    print(f"  {'':50s}{'wall':>8s}  {'CPU':>8s}")
    print(f"  {'unsliced Table + Ranking':50s}{plain[0]:8.3f}  {plain[1]:8.3f} s")
    print(
        f"  {'sliced Tables + Rankings (and the overall ones)':50s}{cut[0]:8.3f}  "
        f"{cut[1]:8.3f} s   {cut[0] / plain[0]:5.2f}x wall, {cut[1] / plain[1]:5.2f}x CPU"
    )
    print(f"  {'sliced Tables only':50s}{tables[0]:8.3f}  {tables[1]:8.3f} s")
    if args.scores == "decimal" and args.weights == "none":
        floor(args, actual, group, scores)
    title = f"1,000 replicates x {args.groups} slices, B and M"
    print(f"  {title:50s}{boot[0]:8.3f}  {boot[1]:8.3f} s")


def floor(args: argparse.Namespace, actual: Any, group: Any, scores: Any) -> None:
    """Where the time of each pass goes: the unsliced Ranking sorts (score, outcome)
    keys; the sliced one hashes the scores (pyarrow's `dictionary_encode`) and counts
    (slice, score, outcome) cells with one bincount (`informed.slices.hashed`), where
    it used to sort (slice, score, outcome) keys packed in as many bits
    (`informed.slices.ranked.group_packed`, still the route where the cells would
    outnumber the rows): the same number of keys as the unsliced sort, but as many
    distinct values as there are (slice, score, outcome) groups."""
    from informed.coding.columns import arrow_numbers, numpy_arrow
    from informed.slices.hashed import group_hashed
    from informed.slices.ranked import descending_codes, group_packed, pack_keys

    positive = actual == 0
    plain = (descending_codes(scores) << np.uint64(1)) | positive.astype(np.uint64)
    packed = pack_keys(group, args.groups, scores, positive)
    assert packed is not None
    bits = scores.view(np.uint64)
    hashed = timed(lambda: numpy_arrow(bits).dictionary_encode(), args.repeat)
    G = len(hashed[2].dictionary)
    cells = arrow_numbers(hashed[2].indices) * 2 + group * (2 * G) + positive
    count = timed(lambda: np.bincount(cells, minlength=2 * G * args.groups), args.repeat)
    sort_plain = timed(lambda: np.sort(plain), args.repeat)
    sort_cut = timed(lambda: np.sort(packed.keys), args.repeat)
    by_hash = timed(lambda: group_hashed(group, args.groups, scores, positive, None), args.repeat)
    by_sort = timed(lambda: group_packed(group, args.groups, scores, positive), args.repeat)
    assert by_hash[2] is not None, "the hashed route declined"
    assert by_sort[2] is not None, "the packed key did not fit"
    for name in ("scores", "positives", "negatives", "bounds"):
        assert np.array_equal(getattr(by_hash[2], name), getattr(by_sort[2], name)), name
    distinct = [int(np.count_nonzero(np.diff(np.sort(k)))) + 1 for k in (plain, packed.keys)]
    rows = [
        ("the sort alone, unsliced keys", sort_plain, f"{distinct[0]:,} distinct keys"),
        ("the hash of the scores alone", hashed, f"{G:,} distinct scores"),
        ("the count of the sliced cells alone", count, f"{2 * G * args.groups:,} cells"),
        ("every slice's groups: hash and count", by_hash, ""),
        ("every slice's groups: packed sort (the fallback)", by_sort, ""),
        ("  of which the sort alone, sliced keys", sort_cut, f"{distinct[1]:,} distinct keys"),
    ]
    for title, (wall, cpu, _), note in rows:
        print(f"  {title:50s}{wall:8.3f}  {cpu:8.3f} s   {note}".rstrip())


def part3(args: argparse.Namespace) -> None:
    n, rng = args.big, np.random.default_rng(2)
    print(f"Part 3: 52 weeks x {args.groups} groups x {n:,} rows, two classes, intervals")
    start = np.datetime64("2024-01-01T00:00:00", "s")  # a Monday
    seconds = rng.integers(0, 52 * 7 * 86400, n).astype("timedelta64[s]")
    when = start + seconds
    group = rng.integers(0, args.groups, n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.8, actual, 1 - actual)

    def run() -> Any:
        weeks = window_codes(when, "1w", "when")
        s = Slices.from_labels(
            by=[weeks, group], actual=actual, predicted=predicted, names=["when (1w)", "group"]
        )
        return bootstrap_slices(s, ["informedness"], positive=1, replicates=200, seed=0)

    everything = timed(run, args.repeat)
    found = everything[2]
    weeks = timed(lambda: window_codes(when, "1w", "when"), args.repeat)
    title = f"{len(found.evaluation.n):,} slices, B with 200-replicate intervals"
    print(f"  {'':50s}{'wall':>8s}  {'CPU':>8s}")
    print(f"  {title:50s}{everything[0]:8.3f}  {everything[1]:8.3f} s")
    print(f"  {f'of which the weeks of {n:,} timestamps':50s}{weeks[0]:8.3f}  {weeks[1]:8.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--big", type=int, default=10_000_000)
    parser.add_argument("--labels", type=int, default=10)
    parser.add_argument("--fairlearn-boot", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--skip-fairlearn", action="store_true")
    parser.add_argument("--scores", choices=["decimal", "continuous"], default="decimal")
    parser.add_argument("--weights", choices=["none", "whole", "fractional"], default="none")
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
