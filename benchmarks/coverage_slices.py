"""How often the per-slice 95 % bootstrap intervals cover the truth, by slice size.

    PYTHONPATH=src .venv/bin/python benchmarks/coverage_slices.py [--sims 40] [--slices 100]
        [--replicates 500] [--sizes 30 100 1000] [--method bca|percentile]

Every slice is drawn from one population: two classes, prevalence 0.4, TPR 0.8 and FPR
0.2, so informedness is 0.6 and recall 0.8 in every slice. Each simulation slices
`--slices` x n rows and runs `bootstrap_slices` (`--method`, `--replicates`); a slice
whose interval is refused (every replicate agreed: recall 1.0 from few positives) is
counted apart, never as covering.
"""

from __future__ import annotations

import argparse

import numpy as np

from informed.inference import bootstrap_slices
from informed.slices import Slices

TRUTH = {"informedness": 0.6, "recall": 0.8}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sims", type=int, default=40)
    parser.add_argument("--slices", type=int, default=100)
    parser.add_argument("--replicates", type=int, default=500)
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 100, 1000])
    parser.add_argument("--method", choices=["bca", "percentile"], default="bca")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    for n in args.sizes:
        hits: dict[str, list[bool]] = {name: [] for name in TRUTH}
        refused = dict.fromkeys(TRUTH, 0)
        for sim in range(args.sims):
            by = np.repeat(np.arange(args.slices), n)
            actual = (rng.random(by.size) < 0.4).astype(int)
            draw = rng.random(by.size)
            predicted = np.where(actual == 1, draw < 0.8, draw < 0.2).astype(int)
            s = Slices.from_labels(by=by, actual=actual, predicted=predicted)
            found = bootstrap_slices(
                s,
                list(TRUTH),
                positive=1,
                replicates=args.replicates,
                seed=sim,
                min_count=0,
                method=args.method,
            )
            for name, truth in TRUTH.items():
                for interval in found.intervals[name]:
                    if np.isnan(interval.low):
                        refused[name] += 1
                    else:
                        hits[name].append(interval.low <= truth <= interval.high)
        shown = ", ".join(
            f"{name} {np.mean(hits[name]):.3f} of {len(hits[name])} ({refused[name]} refused)"
            for name in TRUTH
        )
        print(f"{args.method}, n = {n:5d} rows per slice: coverage {shown}")


if __name__ == "__main__":
    main()
