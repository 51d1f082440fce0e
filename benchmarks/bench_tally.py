"""Benchmark: Tally.add_results against scikit-learn's multilabel_confusion_matrix.

10^6 documents x 20 categories (issue 3: at least 10x faster than scikit-learn on the same
data), dense boolean and sparse CSR, plus plain-numpy references:

- "numpy column sums": the obvious numpy code, (A & C).sum(0), A.sum(0), C.sum(0);
- "numpy one read": count_nonzero over each matrix, a floor for any method that must read
  both matrices once (dense), or one bincount per matrix of the stored column indices
  (sparse).

Every method's counts are checked against the others before timing. Run:

    .venv/bin/python benchmarks/bench_tally.py [--documents N] [--categories K] [--repeat R]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse

from informed.tally import Tally


def best_time(function: Callable[[], Any], repeat: int) -> float:
    """The best wall time of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def tally_counts(assigned: Any, correct: Any, categories: list[str]) -> np.ndarray:
    tally = Tally(categories)
    tally.add_results(assigned, correct)
    return tally.counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10**6)
    parser.add_argument("--categories", type=int, default=20)
    parser.add_argument("--density", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from sklearn.metrics import multilabel_confusion_matrix

    n, k = args.documents, args.categories
    rng = np.random.default_rng(2024)
    correct = rng.random((n, k)) < args.density
    assigned = correct ^ (rng.random((n, k)) < args.density / 2)  # a noisy classifier
    categories = [f"category{j:02d}" for j in range(k)]
    sparse_assigned, sparse_correct = (
        scipy.sparse.csr_array(assigned),
        scipy.sparse.csr_array(correct),
    )

    # correctness first. sklearn's table per category is [[tn, fp], [fn, tp]] (rows actual);
    # ours is [[tp, fp], [fn, tn]] (rows assigned): reverse both axes, then transpose.
    def from_sklearn(mcm: np.ndarray) -> np.ndarray:
        return mcm[:, ::-1, ::-1].transpose(0, 2, 1)

    ours = tally_counts(assigned, correct, categories)
    assert np.array_equal(ours, from_sklearn(multilabel_confusion_matrix(correct, assigned)))
    assert np.array_equal(ours, tally_counts(sparse_assigned, sparse_correct, categories))
    assert np.array_equal(
        ours, from_sklearn(multilabel_confusion_matrix(sparse_correct, sparse_assigned))
    )
    a = (assigned & correct).sum(axis=0)
    assert np.array_equal(ours[:, 0, 0], a)
    assert np.array_equal(ours[:, 0, 1], assigned.sum(axis=0) - a)

    def numpy_column_sums() -> Any:
        return (assigned & correct).sum(axis=0), assigned.sum(axis=0), correct.sum(axis=0)

    def numpy_one_read() -> Any:
        return np.count_nonzero(assigned), np.count_nonzero(correct)

    def numpy_sparse_bincounts() -> Any:
        return (
            np.bincount(sparse_assigned.indices, minlength=k),
            np.bincount(sparse_correct.indices, minlength=k),
        )

    sklearn = "sklearn multilabel_confusion_matrix"
    rows: list[tuple[str, str, Callable[[], Any]]] = [
        ("dense", "Tally.add_results", lambda: tally_counts(assigned, correct, categories)),
        ("dense", sklearn, lambda: multilabel_confusion_matrix(correct, assigned)),
        ("dense", "numpy column sums", numpy_column_sums),
        ("dense", "numpy one read (floor)", numpy_one_read),
        (
            "sparse",
            "Tally.add_results",
            lambda: tally_counts(sparse_assigned, sparse_correct, categories),
        ),
        ("sparse", sklearn, lambda: multilabel_confusion_matrix(sparse_correct, sparse_assigned)),
        ("sparse", "numpy bincount of indices (floor)", numpy_sparse_bincounts),
    ]
    print(f"{n} documents x {k} categories, density {args.density}, best of {args.repeat}")
    print(f"nnz: assigned {sparse_assigned.nnz}, correct {sparse_correct.nnz}")
    times: dict[tuple[str, str], float] = {}
    for layout, label, function in rows:
        repeat = args.repeat if label != sklearn else max(1, args.repeat // 2)
        times[layout, label] = best_time(function, repeat)
    for layout in ("dense", "sparse"):
        ours_time = times[layout, "Tally.add_results"]
        for (row_layout, label), seconds in times.items():
            if row_layout != layout:
                continue
            ratio = seconds / ours_time
            print(f"{layout:6s} {label:38s} {seconds * 1e3:9.1f} ms   {ratio:7.2f} x Tally")
    few = min(n, 100_000)
    documents = [
        (
            [categories[j] for j in np.flatnonzero(assigned[i])],
            [categories[j] for j in np.flatnonzero(correct[i])],
        )
        for i in range(few)
    ]

    def one_by_one() -> Any:
        tally = Tally(categories)
        for doc_assigned, doc_correct in documents:
            tally.add_result(doc_assigned, doc_correct)
        return tally.counts

    assert np.array_equal(one_by_one(), tally_counts(assigned[:few], correct[:few], categories))
    seconds = best_time(one_by_one, max(1, args.repeat // 2))
    print(
        f"Tally.add_result one by one: {seconds / few * 1e6:.1f} us per document ({few} documents)"
    )
    for layout in ("dense", "sparse"):
        speedup = times[layout, sklearn] / times[layout, "Tally.add_results"]
        verdict = "meets" if speedup >= 10 else "MISSES"
        print(
            f"{layout}: Tally is {speedup:.1f}x faster than scikit-learn ({verdict} the 10x goal)"
        )


if __name__ == "__main__":
    main()
