"""Ranking.from_scores against np.sort of the same scores, in CPU seconds (issue 27 item 24).

Usage: .venv/bin/python benchmarks/bench_build.py [--n 10**7] [--repeat 5] [--pipeline]

Rows: `--n` float64 scores from `rng.random` (all distinct) and outcomes `rng.random() <
0.3`, passed as a bool array (positive=True) and as int64 0/1 (positive=1), with and
without `negative=`. Each timing is the CPU time of this process (`time.process_time`,
steadier than wall-clock on a shared machine), the best of `--repeat` runs, the runs of
every case interleaved so that a burst of load falls on all of them alike; the range
(best to worst) is printed too. The goals: `from_scores` <= 1.3x `np.sort` of the
scores, and (`--pipeline`) building the Ranking plus every summary of
`bench_ranking.py` <= 2x.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from informed.ranking import Ranking


def parse_size(text: str) -> int:
    """An integer given as 10000000, 1e7 or 10**7."""
    if "**" in text:
        base, exponent = text.split("**")
        return int(base) ** int(exponent)
    return int(float(text))


def cpu_seconds(function: Callable[[], Any]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=parse_size, default=10**7, help="rows (default 10**7)")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs, best kept")
    parser.add_argument("--pipeline", action="store_true", help="also the build plus every summary")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    scores = rng.random(args.n)
    as_bool = rng.random(args.n) < 0.3
    as_int = as_bool.astype(np.int64)
    cases: dict[str, Callable[[], Any]] = {
        "np.sort(scores)": lambda: np.sort(scores),
        "from_scores, bool actual": lambda: Ranking.from_scores(as_bool, scores, positive=True),
        "from_scores, int 0/1 actual": lambda: Ranking.from_scores(as_int, scores, positive=1),
        "from_scores, bool, negative=False": lambda: Ranking.from_scores(
            as_bool, scores, positive=True, negative=False
        ),
        "from_scores, int, negative=0": lambda: Ranking.from_scores(
            as_int, scores, positive=1, negative=0
        ),
    }
    if args.pipeline:
        from bench_ranking import every_measure  # type: ignore[import-not-found]

        quotas = np.linspace(0, args.n, 11)
        thresholds = np.linspace(0, 1, 11)
        cases["pipeline: from_scores (bool) + every summary"] = lambda: every_measure(
            Ranking.from_scores(as_bool, scores, positive=True), quotas, thresholds
        )
    Ranking.from_scores(as_bool[:1000], scores[:1000], positive=True)  # warm the imports
    runs: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeat):
        for name, function in cases.items():
            runs[name].append(cpu_seconds(function))

    print(f"n = {args.n:,} distinct scores, CPU seconds, best of {args.repeat} (range)")
    sort_time = min(runs["np.sort(scores)"])
    width = max(len(name) for name in cases)
    for name, seconds in runs.items():
        low, high = min(seconds), max(seconds)
        print(f"{name:<{width}}  {low:7.3f}-{high:.3f} s  {low / sort_time:5.2f}x np.sort")


if __name__ == "__main__":
    main()
