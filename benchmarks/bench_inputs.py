"""Label coding on the inputs people have, at n = 10^7, against the bare routes.

    .venv/bin/python benchmarks/bench_inputs.py [--n 10000000] [--repeat 3]

Ten string classes ("cat", "dog", ...) as numpy `<U5`, numpy object arrays of str and
pandas Categorical, and ten small integers. Each informed figure is set beside the least
the data allows, measured in the same run: `pyarrow.array` + `dictionary_encode` + one
`np.bincount` for strings, one `np.bincount` of the codes for a Categorical and for
small integers. The numpy-only routes (pyarrow absent) are shown for information. Goals
(issue 11): strings and Categorical <= 1.5x, small integers <= 2x. Also weighted rankings:
one sort of complex pairs against the argsort route it replaces and a bare `np.sort`.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa

import informed.coding.columns
from informed import Ranking, Table

WORDS = np.array(["cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay", "kiwi", "lynx"])


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def arrow_route(actual: object, predicted: object) -> object:
    """pyarrow.array + dictionary_encode on each column, then one bincount."""
    codes = []
    sizes = []
    for column in (actual, predicted):
        array = pa.array(column)
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        encoded = array.dictionary_encode()
        codes.append(encoded.indices.to_numpy().astype(np.int64))
        sizes.append(len(encoded.dictionary))
    return np.bincount(codes[1] * sizes[0] + codes[0], minlength=sizes[0] * sizes[1])


def argsort_weighted(scores: np.ndarray, positive: np.ndarray, weights: np.ndarray) -> object:
    """The route weighted rankings took before: argsort, three gathers, reduceat."""
    order = np.argsort(-scores)
    ordered = scores[order]
    starts = np.concatenate(([0], np.flatnonzero(ordered[1:] != ordered[:-1]) + 1))
    outcome = positive[order]
    weight = weights[order]
    return (
        np.add.reduceat(np.where(outcome, weight, 0.0), starts),
        np.add.reduceat(np.where(outcome, 0.0, weight), starts),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    n, r = args.n, args.repeat
    a_int = rng.integers(0, 10, n)
    p_int = np.where(rng.random(n) < 0.7, a_int, rng.integers(0, 10, n))
    a_str, p_str = WORDS[a_int], WORDS[p_int]
    a_obj, p_obj = a_str.astype(object), p_str.astype(object)
    a_cat, p_cat = pd.Categorical(a_str), pd.Categorical(p_str)

    def table(actual: object, predicted: object) -> Callable[[], object]:
        return lambda: Table.from_labels(actual=actual, predicted=predicted)

    def numpy_only(work: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            informed.coding.columns.ARROW_DISABLED = True
            try:
                return work()
            finally:
                informed.coding.columns.ARROW_DISABLED = False

        return run

    rows: list[tuple[str, float, float, float | None]] = []

    def compare(
        name: str, ours: Callable[[], object], base: Callable[[], object], goal: float
    ) -> None:
        rows.append((name, best_of(r, ours), best_of(r, base), goal))

    compare("numpy <U5 strings", table(a_str, p_str), lambda: arrow_route(a_str, p_str), 1.5)
    compare("numpy object strings", table(a_obj, p_obj), lambda: arrow_route(a_obj, p_obj), 1.5)
    k = len(a_cat.categories)
    compare(
        "pandas Categorical (vs bincount of codes)",
        table(a_cat, p_cat),
        lambda: np.bincount(p_cat.codes.astype(np.int64) * k + a_cat.codes, minlength=k * k),
        1.5,
    )
    compare(
        "pandas Categorical (vs pyarrow route)",
        table(a_cat, p_cat),
        lambda: arrow_route(a_cat, p_cat),
        1.5,
    )
    compare(
        "small integers (vs bincount)",
        table(a_int, p_int),
        lambda: np.bincount(p_int * 10 + a_int, minlength=100),
        2.0,
    )
    compare(
        "numpy-only: <U5 strings",
        numpy_only(table(a_str, p_str)),
        lambda: arrow_route(a_str, p_str),
        0.0,
    )
    compare(
        "numpy-only: object strings",
        numpy_only(table(a_obj, p_obj)),
        lambda: arrow_route(a_obj, p_obj),
        0.0,
    )
    scores = rng.random(n)
    positive = rng.random(n) < 0.3
    weights = rng.random(n) + 0.5
    compare(
        "weighted Ranking (vs old argsort route)",
        lambda: Ranking.from_scores(actual=positive, scores=scores, positive=True, weights=weights),
        lambda: argsort_weighted(scores, positive, weights),
        0.0,
    )
    compare(
        "weighted Ranking (vs np.sort of the scores)",
        lambda: Ranking.from_scores(actual=positive, scores=scores, positive=True, weights=weights),
        lambda: np.sort(scores),
        0.0,
    )
    print(f"n = {n:,}, ten classes, best of {r}")
    print(f"  {'input':<45} {'informed':>10} {'bare route':>11} {'ratio':>7}  goal")
    for name, ours, base, goal in rows:
        target = f"<= {goal:g}x" if goal else "(information)"
        print(
            f"  {name:<45} {ours * 1000:8.0f}ms {base * 1000:9.0f}ms {ours / base:6.2f}x  {target}"
        )


if __name__ == "__main__":
    main()
