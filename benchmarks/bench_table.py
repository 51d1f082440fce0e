"""Table + every measure at n = 10^7, against the numpy lower bound and scikit-learn.

    .venv/bin/python benchmarks/bench_table.py [--n 10000000] [--classes 10] [--repeat 3]

Prints the best-of-`repeat` wall time of each contender and the ratios the project
aims for: informed within 2x of one `np.bincount` over combined codes (the least any
exact method can do), and at least 30x faster than scikit-learn's `confusion_matrix` +
`classification_report` (which sort the labels).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from informed import Table, evaluate, payoff


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**7)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-sklearn", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    k = args.classes
    actual = rng.integers(0, k, args.n)
    predicted = np.where(rng.random(args.n) < 0.7, actual, rng.integers(0, k, args.n))

    def lower_bound() -> object:
        return np.bincount(actual * k + predicted, minlength=k * k)

    def informed_table() -> object:
        return Table.from_labels(actual=actual, predicted=predicted)

    def informed_all() -> object:
        table = Table.from_labels(actual=actual, predicted=predicted)
        return evaluate(table), payoff(table)

    rows = [
        ("numpy bincount (lower bound)", best_of(args.repeat, lower_bound)),
        ("informed Table.from_labels", best_of(args.repeat, informed_table)),
        ("informed Table + every measure + payoff", best_of(args.repeat, informed_all)),
    ]
    if not args.skip_sklearn:
        from sklearn.metrics import classification_report, confusion_matrix

        def sklearn_all() -> object:
            return confusion_matrix(actual, predicted), classification_report(
                actual, predicted, zero_division=0
            )

        rows.append(
            ("scikit-learn confusion_matrix + classification_report", best_of(1, sklearn_all))
        )
    print(f"n = {args.n:,}, {k} classes, best of {args.repeat}")
    for name, seconds in rows:
        print(f"  {name:<55} {seconds * 1000:9.1f} ms")
    base = rows[0][1]
    ours = rows[2][1]
    print(f"  informed (all) / bincount          = {ours / base:6.2f}x   (goal <= 2x)")
    if not args.skip_sklearn:
        print(f"  scikit-learn / informed (all)      = {rows[3][1] / ours:6.1f}x   (goal >= 30x)")


if __name__ == "__main__":
    main()
