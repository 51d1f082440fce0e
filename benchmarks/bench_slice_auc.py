"""Differences of AUC between slices: every slice's rest read at once against building the
rest's Ranking for each slice.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_slice_auc.py [--rows 1000000]
        [--slices 100 10000] [--repeat 3]

`auc_differences` reads each slice's rest (every other row) from the overall Ranking less
the slice's, every slice at once: O(G + g log G) for the G tie groups of all rows and the
g of all slices. The way it replaces builds the rest's Ranking on the overall groups for
each slice and reads DeLong's components from it (`_direct`, what it still does for a rest
whose centred sums would lose digits): O(S G). That one is timed on the first 20 slices
and scaled to all of them (said so). Scores are continuous: G is about the number of rows.
Best of `--repeat` runs; a shared machine makes every figure noisy.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from informed.slices import Slices

module = importlib.import_module("informed.inference.auc_differences")


def _best(function: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--slices", type=int, nargs="+", default=[100, 10_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    actual = (rng.random(args.rows) < 0.3).astype(int)
    scores = rng.random(args.rows) + 0.5 * actual
    for count in args.slices:
        group = rng.integers(0, count, args.rows)
        s = Slices.from_labels(by=group, actual=actual, scores=scores, positive=1)
        assert s.rankings is not None
        assert s.overall_ranking is not None
        at_once = _best(lambda s=s: module.auc_differences(s, reference=0), args.repeat)
        overall = module.Overall(s.overall_ranking)
        first = s.rankings[: min(20, count)]

        def one_by_one(overall: Any = overall, first: Any = first) -> None:
            for ranking in first:
                idx = np.searchsorted(overall.negated, -ranking.scores)
                module._direct(overall, idx, ranking.positives, ranking.negatives, "the rest")

        scaled = _best(one_by_one, args.repeat) * count / len(first)
        groups = s.overall_ranking.scores.size
        print(
            f"{args.rows:,} rows ({groups:,} tie groups), {count:,} slices: every rest at once "
            f"{at_once:.3f} s; each rest's Ranking built, {len(first)} slices timed and "
            f"scaled to {count:,}: {scaled:.1f} s ({scaled / at_once:,.0f}x slower)"
        )


if __name__ == "__main__":
    main()
