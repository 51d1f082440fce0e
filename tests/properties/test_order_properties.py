"""Order and relabelling invariances (RELIABILITY P09, P13, P14, P22)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import MEASURES, Table, evaluate

FAST = settings(max_examples=50, deadline=None)

pairs = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=80)


def _equal(a: float, b: float) -> bool:
    return bool((np.isnan(a) and np.isnan(b)) or abs(a - b) <= 1e-12 * max(1.0, abs(a)))


@FAST
@given(pairs, st.randoms(use_true_random=False))
def test_shuffling_rows_changes_nothing(data: list[tuple[int, int]], rnd) -> None:  # type: ignore[no-untyped-def]
    """The same permutation of actual and predicted gives the same table and measures."""
    shuffled = list(data)
    rnd.shuffle(shuffled)
    a = Table.from_labels(actual=[x for x, _ in data], predicted=[y for _, y in data])
    b = Table.from_labels(actual=[x for x, _ in shuffled], predicted=[y for _, y in shuffled])
    assert a == b


@FAST
@given(pairs, st.permutations(["w", "x", "y", "z"]))
def test_renaming_labels_permutes_per_label_values(
    data: list[tuple[int, int]], names: list[str]
) -> None:
    """A bijective renaming permutes per-label values and keeps every overall value."""
    a = Table.from_labels(actual=[x for x, _ in data], predicted=[y for _, y in data])
    b = Table.from_labels(actual=[names[x] for x, _ in data], predicted=[names[y] for _, y in data])
    ra, rb = evaluate(a), evaluate(b)
    for name in MEASURES:
        assert _equal(ra.measures[name], rb.measures[name]), name
        for label in a.labels:
            assert _equal(ra.per_label[label][name], rb.per_label[names[int(label)]][name]), name


@FAST
@given(pairs, st.lists(st.integers(0, 4), min_size=80, max_size=80))
def test_integer_weights_equal_repetition(data: list[tuple[int, int]], weights: list[int]) -> None:
    """An integer weight w_i is the same as repeating row i w_i times (P22, P23), in every
    cell; a row of weight 0 adds to no cell, but its labels stay labels of the table."""
    w = weights[: len(data)]
    weighted = Table.from_labels(
        actual=[x for x, _ in data], predicted=[y for _, y in data], weights=w
    )
    actual = [x for (x, _), k in zip(data, w, strict=True) for _ in range(k)]
    predicted = [y for (_, y), k in zip(data, w, strict=True) for _ in range(k)]
    repeated = Table.from_labels(actual=actual, predicted=predicted)
    assert weighted.predicted == tuple(sorted({y for _, y in data}))
    assert weighted.actual == tuple(sorted({x for x, _ in data}))
    cells = [[repeated.count(p, a) for a in weighted.actual] for p in weighted.predicted]
    assert np.array_equal(weighted.counts, np.array(cells, dtype=float).reshape(weighted.shape))


def test_strings_and_numbers_give_the_same_measures() -> None:
    """Labels {0, 1} and {'eggs', 'spam'} give identical results once mapped (P02)."""
    rng = np.random.default_rng(1)
    actual = rng.integers(0, 2, 200)
    predicted = rng.integers(0, 2, 200)
    names = np.array(["eggs", "spam"])
    a = evaluate(Table.from_labels(actual=actual, predicted=predicted), positive=1)
    b = evaluate(
        Table.from_labels(actual=names[actual], predicted=names[predicted]), positive="spam"
    )
    assert all(_equal(a.measures[k], b.measures[k]) for k in MEASURES)
