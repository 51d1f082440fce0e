"""CPU seconds of `calibration_bands` (the bands, the intervals and the test of calibration
behind `informed evaluate --ci`) at many distinct scores.

Usage: PYTHONPATH=src .venv/bin/python benchmarks/bench_calibration_bands.py
       [--n 200000] [--replicates 200 1000] [--repeat 1]

Rows: `--n` Beta(2, 5) scores (all distinct), outcomes drawn from the scores themselves
(seed 1); each run is `calibration_bands(ranking, replicates=B, seed=0)`, timed in CPU
seconds of this process (steadier than wall-clock on a shared machine). To compare two
versions, run it with PYTHONPATH pointing at each one's src in turn, interleaved. The
goal (issue 29): about 10 s at 1,000 replicates of 200,000 distinct scores.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from informed import Ranking
from informed.inference import calibration_bands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--replicates", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    scores = rng.beta(2.0, 5.0, args.n)
    outcomes = (rng.random(args.n) < scores).astype(int)
    ranking = Ranking.from_scores(outcomes, scores, positive=1)
    print(f"{args.n:,} rows, {ranking.n_groups:,} distinct scores")
    for replicates in args.replicates:
        for _ in range(args.repeat):
            start = time.process_time()
            bands = calibration_bands(ranking, replicates=replicates, seed=0)
            seconds = time.process_time() - start
            print(f"{replicates:>6,} replicates: {seconds:6.2f} CPU s (p = {bands.p_value:.3f})")


if __name__ == "__main__":
    main()
