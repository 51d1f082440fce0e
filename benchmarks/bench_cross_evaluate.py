"""cross_evaluate against scikit-learn's cross_validate: the same estimator, the same folds.

    .venv/bin/python benchmarks/bench_cross_evaluate.py [--n 20000] [--features 20]
        [--folds 10] [--repeats 3]

Both fit a clone of the estimator on every training split of the same splitter. On each
test fold `cross_validate` scores accuracy and ROC AUC (it predicts and takes the
decision function, once each); `cross_evaluate` predicts, takes the decision function,
keeps both, and counts every fold's Table and Ranking into `Folds`. The fits dominate
both; the ratio says what the summaries add. A second line times the summaries alone
(the measures of every fold from the `Folds`).
"""

from __future__ import annotations

import argparse
import time

from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate

from informed.sklearn import cross_evaluate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    X, y = make_classification(n_samples=args.n, n_features=args.features, random_state=0)
    cv = RepeatedStratifiedKFold(n_splits=args.folds, n_repeats=args.repeats, random_state=0)
    model = LogisticRegression(max_iter=1000)

    def best(run: object) -> float:
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            run()  # type: ignore[operator]
            times.append(time.perf_counter() - start)
        return min(times)

    sklearn_time = best(lambda: cross_validate(model, X, y, cv=cv, scoring=["accuracy", "roc_auc"]))
    informed_time = best(lambda: cross_evaluate(model, X, y, cv=cv))
    folds = cross_evaluate(model, X, y, cv=cv)
    measures_time = best(lambda: (folds.measure("informedness"), folds.measure("auc")))
    splits = args.folds * args.repeats
    print(f"n = {args.n:,}, {args.features} features, {splits} folds, LogisticRegression")
    print(f"cross_validate (accuracy, roc_auc)  {sklearn_time:8.3f} s")
    print(f"cross_evaluate (Folds)              {informed_time:8.3f} s")
    print(f"ratio cross_evaluate / cross_validate: {informed_time / sklearn_time:.2f}")
    print(f"every fold's informedness and AUC from the Folds: {measures_time * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
