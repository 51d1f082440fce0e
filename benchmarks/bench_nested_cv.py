"""Coverage of the nested and the naive cross-validation intervals, in simulation.

    .venv/bin/python benchmarks/bench_nested_cv.py [--sims 200] [--n 100] [--features 20]
        [--folds 5] [--repetitions 10] [--level 0.9] [--loss zero_one] [--seed 0]

Each simulated data set has Gaussian features and a logistic model on the first four
(coefficients 1, the others 0). `nested_cv` fits scikit-learn's LogisticRegression
(default L2 penalty) by nested cross-validation, and each interval is checked against the
true error of the model fitted on all n cases, measured on 20,000 new cases (Err_XY of
Bates, Hastie & Tibshirani 2023, Cross-validation: what does it estimate and how well
does it do it?). Prints each interval's coverage with its Monte Carlo standard error,
their mean widths, and the time.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

from informed.integrations.sklearn.nested import _loss
from informed.sklearn import nested_cv, nested_refits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--loss", default="zero_one")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    beta = np.zeros(args.features)
    beta[:4] = 1.0

    def draw(m: int) -> tuple[np.ndarray, np.ndarray]:
        X = rng.normal(size=(m, args.features))
        return X, (rng.random(m) < 1 / (1 + np.exp(-X @ beta))).astype(int)

    X_new, y_new = draw(20_000)
    covered = {"nested": 0, "naive": 0}
    widths = {"nested": 0.0, "naive": 0.0}
    start = time.perf_counter()
    for s in range(args.sims):
        X, y = draw(args.n)
        found = nested_cv(
            LogisticRegression(), X, y, loss=args.loss, folds=args.folds,
            repetitions=args.repetitions, level=args.level, seed=s, progress=False,
        )  # fmt: skip
        model = LogisticRegression().fit(X, y)
        classes, codes = np.unique(y_new, return_inverse=True)
        truth = float(_loss(args.loss, classes, codes)(model, X_new, np.arange(y_new.size)).mean())
        for name, interval in (("nested", found.estimate), ("naive", found.naive)):
            covered[name] += interval.low <= truth <= interval.high
            widths[name] += (interval.high - interval.low) / args.sims
    elapsed = time.perf_counter() - start
    refits = nested_refits(args.folds, args.repetitions)
    print(
        f"LogisticRegression, n = {args.n}, {args.features} features, {args.loss}, "
        f"{args.folds} folds x {args.repetitions} repetitions ({refits} refits a data set), "
        f"{args.sims} data sets, nominal {100 * args.level:g} %"
    )
    for name in ("nested", "naive"):
        share = covered[name] / args.sims
        error = math.sqrt(share * (1 - share) / args.sims)
        print(f"  {name:6}  coverage {share:.3f} (+- {error:.3f}), mean width {widths[name]:.4f}")
    print(f"  {elapsed:.0f} s, {elapsed / args.sims:.2f} s a data set")


if __name__ == "__main__":
    main()
