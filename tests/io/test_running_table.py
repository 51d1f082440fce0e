"""A Table counted batch by batch (`RunningTable`, the file readers' route) equals the
Table of all the rows at once, whatever the batches, labels, weights and summing."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Table
from informed.coding.labels import code_column
from informed.errors import InputTypeError
from informed.io.running_table import RunningTable

LABELS = st.sampled_from(
    [
        ["a", "b", "c", "d", "e"],
        [3, 1, 2, 10, -5],
        [True, False],
        [0.0, 1.0, 2.0, -3.0],  # float labels are whole numbers: 0.5 reads as a score
    ]
)


def _by_batches(
    actual: list[Any], predicted: list[Any], cuts: list[int], weights: Any, slack: int
) -> Table:
    running = RunningTable(weights is not None, slack=slack)
    edges = [0, *sorted(cuts), len(actual)]
    for start, stop in itertools.pairwise(edges):
        if start == stop:
            continue
        running.add(
            code_column(actual[start:stop], "actual"),
            code_column(predicted[start:stop], "predicted"),
            None if weights is None else np.asarray(weights[start:stop], dtype=np.float64),
        )
    return running.table("auto")


@settings(max_examples=60, deadline=None)
@given(
    labels=LABELS,
    data=st.data(),
    weighted=st.booleans(),
    slack=st.sampled_from([0, 3, 1 << 20]),
)
def test_batches_give_the_table_of_all_rows(
    labels: list[Any], data: st.DataObject, weighted: bool, slack: int
) -> None:
    n = data.draw(st.integers(1, 60))
    actual = data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    predicted = data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    cuts = data.draw(st.lists(st.integers(0, n), max_size=6))
    weights = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)) if weighted else None
    # the oracle: every row at once, by the ordinary constructor
    whole = Table.from_labels(actual=actual, predicted=predicted, weights=weights)
    found = _by_batches(actual, predicted, cuts, weights, slack)
    assert found.predicted == whole.predicted
    assert found.actual == whole.actual
    assert [type(x) for x in found.labels] == [type(x) for x in whole.labels]  # True is not 1
    assert np.array_equal(found.counts, whole.counts)
    assert found.counts.dtype == whole.counts.dtype


def test_many_labels_are_summed_sparsely_and_sorted_once() -> None:
    rng = np.random.default_rng(3)
    actual = [f"c{x}" for x in rng.integers(0, 5000, 20_000)]
    predicted = [f"c{x}" for x in rng.integers(0, 5000, 20_000)]
    found = _by_batches(actual, predicted, list(range(0, 20_000, 1_000)), None, slack=10)
    whole = Table.from_labels(actual=actual, predicted=predicted)
    assert found.storage == whole.storage == "sparse"
    assert found == whole


def test_labels_of_two_kinds_are_refused() -> None:
    running = RunningTable()
    running.add(code_column(["a", "b"], "actual"), code_column([1, 2], "predicted"), None)
    with pytest.raises(InputTypeError, match="same kind"):
        running.table("auto")
