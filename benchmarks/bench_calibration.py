"""Calibration and decision curves from a Ranking against the row-wise peers, in one run.

Usage: .venv/bin/python benchmarks/bench_calibration.py [--n 10**7] [--distinct 10**6]
       [--repeat 1] [--skip-dcurves] [--skip-peers] [--cpu]

Rows: `--n` scores with about `--distinct` distinct values (a Beta(2, 5) draw rounded),
outcomes drawn from the scores themselves. informed builds the Ranking once (the one
O(n) pass), then computes the calibration summary (`informed.ranking.calibration`: CORP
curve, Brier and log scores with MCB/DSC/UNC, logistic slope and intercept,
calibration-in-the-large, binned ECE) and the decision curve at every distinct score
below 1 (`informed.ranking.decision_curve`), each from the groups alone. The peers work
on the rows: scikit-learn's `calibration_curve` + `brier_score_loss` + `log_loss`;
model-diagnostics' `decompose` for the Brier and the log score (its CORP decomposition)
and its `plot_reliability_diagram` (the isotonic fit it draws); dcurves' `dca` on its
default grid of 100 thresholds. Each timing is the best of `--repeat` runs (dcurves:
one run), wall-clock; the ratios are printed against informed's calibration summary
and decision curve, and each part of the summary against the build (`--distinct 10**7`
for scores all distinct, as a file of probabilities has them); "calibration report" is
what a report computes (`informed.report.calibration.calibration_report`: the summary and
the decision curve at the report's thresholds, with the intervals where the model beats
both defaults, read from every distinct score). `--cpu` times CPU seconds of this
process instead of wall-clock (steadier on a shared machine). The issue's goals (issue
29): the calibration summary and report <= 0.2x the cost of building the Ranking and >=
10x faster than each peer; the decision curve at every distinct threshold faster than
dcurves on its 100.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from informed.ranking import Ranking, calibration, decision_curve
from informed.report.calibration import calibration_report


def parse_size(text: str) -> int:
    """An integer given as 10000000, 1e7 or 10**7."""
    if "**" in text:
        base, exponent = text.split("**")
        return int(base) ** int(exponent)
    return int(float(text))


CLOCK = time.perf_counter


def best(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = CLOCK()
        result = function()
        times.append(CLOCK() - start)
    return min(times), result


def _parts(ranking: Ranking, repeat: int) -> list[tuple[str, float]]:
    """The summary's parts, each timed alone from the tie groups as the summary reads them
    (the scores the Ranking's own reversed, two arrays of their size to write to)."""
    from informed.ranking.binned import binned_of_groups
    from informed.ranking.calibration import (
        ascending,
        cumulative_counts,
        curve_of_groups,
        decompose_curve,
    )
    from informed.ranking.recalibration import recalibration_of_groups

    groups = ascending(ranking, view=True)
    scores, _, rows = groups
    scratch = (np.empty(scores.size), np.empty(scores.size))
    cumulative = cumulative_counts(ranking)
    curve = curve_of_groups(*groups, cumulative, scratch[0])
    n = float(ranking.n)
    totals = (float(ranking.n_positive), n)

    def fit() -> object:
        complement = 1.0 - scores
        return recalibration_of_groups(
            *groups, complement=complement, scratch=(complement, scratch[1]), totals=totals
        )

    return [
        ("the groups ascending", best(lambda: ascending(ranking, view=True), repeat)[0]),
        (
            "CORP curve (PAV)",
            best(lambda: curve_of_groups(*groups, cumulative, scratch[0]), repeat)[0],
        ),
        (
            "Brier and log decompositions",
            best(
                lambda: decompose_curve(curve, ("brier", "log"), 1.0 - scores, scratch, totals),
                repeat,
            )[0],
        ),
        ("logistic slope, intercept, in-the-large", best(fit, repeat)[0]),
        (
            "two binned tables",
            best(
                lambda: [
                    binned_of_groups(*groups, n, 10, s, rows * scores, cumulative)
                    for s in ("uniform", "quantile")
                ],
                repeat,
            )[0],
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=parse_size, default=10**7)
    parser.add_argument("--distinct", type=parse_size, default=10**6)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--skip-dcurves", action="store_true", help="dcurves takes minutes")
    parser.add_argument(
        "--skip-peers", action="store_true", help="informed alone: the build and the summary"
    )
    parser.add_argument("--cpu", action="store_true", help="time CPU seconds, not wall clock")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time

    rng = np.random.default_rng(0)
    scores = np.floor(rng.beta(2.0, 5.0, args.n) * args.distinct) / args.distinct
    actual = (rng.random(args.n) < scores).astype(np.int8)
    print(f"{args.n:,} rows, {np.unique(scores).size:,} distinct scores")

    # warm the lazy imports (scipy.optimize for PAV) outside the timings
    small = Ranking.from_scores(actual[:1000], scores[:1000], positive=1, negative=0)
    calibration(small)
    decision_curve(small)

    build, ranking = best(
        lambda: Ranking.from_scores(actual, scores, positive=1, negative=0), args.repeat
    )
    ranking.auc()  # the Ranking's cumulative counts, built by any summary (a report's first)
    summary, result = best(lambda: calibration(ranking), args.repeat)
    report, _ = best(lambda: calibration_report(ranking), args.repeat)
    parts = _parts(ranking, args.repeat)
    curve_time, curve = best(lambda: decision_curve(ranking), args.repeat)
    rows: list[tuple[str, float]] = [
        ("informed: build the Ranking (rows -> groups)", build),
        ("informed: calibration summary (from the groups)", summary),
        ("informed: calibration report (summary + decision curve at 11 thresholds)", report),
        (f"informed: decision curve at {curve.thresholds.size:,} thresholds", curve_time),
    ]
    print(
        f"  Brier {result.brier.score:.6f}, log {result.log.score:.6f}, slope "
        f"{result.recalibration.slope:.4f}, ECE {result.binned['uniform'].expected_error:.5f}"
    )

    if args.skip_peers:
        print(f"calibration summary / building the Ranking: {summary / build:.2f}x (goal <= 0.2x)")
        print(f"calibration report / building the Ranking: {report / build:.2f}x (goal <= 0.2x)")
        for name, seconds in [*rows[:4], *parts]:
            print(f"  {name}: {seconds:.3f} s ({seconds / build:.2f}x the build)")
        return

    from sklearn.calibration import calibration_curve
    from sklearn.metrics import brier_score_loss, log_loss

    def sklearn_peer() -> tuple[float, float]:
        calibration_curve(actual, scores, n_bins=10)
        return brier_score_loss(actual, scores), log_loss(actual, scores)

    peer, (brier, _) = best(sklearn_peer, args.repeat)
    rows.append(("scikit-learn: calibration_curve + brier_score_loss + log_loss", peer))
    print(f"  scikit-learn Brier {brier:.6f} (informed {result.brier.score:.6f})")

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from model_diagnostics.calibration import plot_reliability_diagram
    from model_diagnostics.scoring import LogLoss, SquaredError, decompose

    peer, found = best(lambda: decompose(actual, scores, scoring_function=SquaredError()), 1)
    rows.append(("model-diagnostics: decompose (Brier)", peer))
    mcb = float(found["miscalibration"][0])
    print(f"  model-diagnostics Brier MCB {mcb:.8f} (informed {result.brier.miscalibration:.8f})")
    peer, _ = best(lambda: decompose(actual, scores, scoring_function=LogLoss()), 1)
    rows.append(("model-diagnostics: decompose (log score)", peer))
    peer, _ = best(lambda: plot_reliability_diagram(actual, scores, ax=Figure().add_subplot()), 1)
    rows.append(("model-diagnostics: plot_reliability_diagram", peer))

    dcurves_time = None
    if not args.skip_dcurves:
        import pandas as pd
        from dcurves import dca

        frame = pd.DataFrame({"outcome": actual.astype(np.int64), "model": scores})
        tracemalloc.start()
        dcurves_time, theirs = best(
            lambda: dca(data=frame, outcome="outcome", modelnames=["model"]), 1
        )
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append(
            (f"dcurves: dca on 100 thresholds (peak {peak / 2**30:.2f} GiB traced)", dcurves_time)
        )
        grid = np.arange(100) / 100
        ours = decision_curve(ranking, grid).net_benefit
        model = theirs[theirs.model == "model"].net_benefit.to_numpy()
        print(
            f"  dcurves vs informed on its grid: max |difference| {np.max(np.abs(ours - model)):.2e}"
        )

    width = max(len(name) for name, _ in rows)
    print()
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds:8.3f} s")
    print()
    print(f"calibration summary / building the Ranking: {summary / build:.2f}x (goal <= 0.2x)")
    for name, seconds in parts:
        print(f"  {name} / building the Ranking: {seconds / build:.2f}x")
    for name, seconds in rows[4:]:
        if name.startswith("dcurves"):
            continue
        print(
            f"{name.split(':')[0]} / informed calibration summary: {seconds / summary:.1f}x "
            f"({name.split(': ')[1]})"
        )
    print(
        f"scikit-learn + model-diagnostics / informed summary + build: "
        f"{sum(s for _, s in rows[4:7]) / (summary + build):.1f}x"
    )
    if dcurves_time is not None:
        print(
            f"dcurves (100 thresholds) / informed decision curve "
            f"({curve.thresholds.size:,} thresholds): {dcurves_time / curve_time:.0f}x"
        )


if __name__ == "__main__":
    main()
