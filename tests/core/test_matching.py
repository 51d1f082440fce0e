"""Matching labels to classes (checked against brute force) and abstention."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from informed import InputError, Table, abstain, evaluate, match


def _brute_force(counts: np.ndarray, objective: str) -> float:
    """Best objective over every injective assignment of rows to columns (or columns to rows)."""
    k, c = counts.shape
    cols = [f"c{j}" for j in range(c)]
    best = -np.inf
    rows_to_use = min(k, c)
    for rows in itertools.permutations(range(k), rows_to_use) if k > c else [tuple(range(k))]:
        for targets in itertools.permutations(range(c), rows_to_use):
            mapping = dict(zip(rows, targets, strict=True))
            names = [cols[mapping[i]] if i in mapping else f"r{i}" for i in range(k)]
            table = Table.from_counts(
                counts, rows="predicted", predicted=[f"p{i}" for i in range(k)], actual=cols
            )
            # relabel by hand: rows that share a name are added up
            merged: dict[str, np.ndarray] = {}
            for i in range(k):
                merged[names[i]] = merged.get(names[i], 0) + counts[i]
            relabelled = Table.from_counts(
                np.array(list(merged.values())),
                rows="predicted",
                predicted=list(merged),
                actual=cols,
            )
            assert table.n == relabelled.n
            if objective == "informedness":
                # matched classes only: an unmatched label bets nothing (zero weight)
                result = evaluate(relabelled)
                value = sum(
                    result.per_label[cols[t]]["bias"] * result.per_label[cols[t]]["informedness"]
                    for t in targets
                )
            else:
                _, square = relabelled.square()
                value = float(np.trace(square) / square.sum())
            best = max(best, value)
    return float(best)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda k: st.integers(2, 4).flatmap(
            lambda c: hnp.arrays(np.int64, (k, c), elements=st.integers(1, 30))
        )
    ),
    st.sampled_from(["informedness", "diagonal"]),
)
def test_one_to_one_matching_is_optimal(counts: np.ndarray, objective: str) -> None:
    """The linear assignment finds the best of all injective matchings (K != C included)."""
    k, c = counts.shape
    table = Table.from_counts(
        counts,
        rows="predicted",
        predicted=[f"p{i}" for i in range(k)],
        actual=[f"c{j}" for j in range(c)],
    )
    result = match(table, objective=objective)  # type: ignore[arg-type]
    assert result.score == pytest.approx(_brute_force(counts, objective), abs=1e-12)
    assert len(result.mapping) == min(k, c)
    assert len(set(result.mapping.values())) == len(result.mapping)
    assert result.table.n == table.n


def test_permuted_clusters_are_recovered() -> None:
    """Clusters named 0..2 in a shuffled order map back to their classes, B becomes 1."""
    actual = np.array(["cat", "dog", "eel"] * 5)
    clusters = np.array([2, 0, 1] * 5)
    table = Table.from_labels(actual=actual, predicted=clusters, clusters=True)
    result = match(table)
    assert result.mapping == {2: "cat", 0: "dog", 1: "eel"}
    assert result.score == pytest.approx(1.0)
    assert evaluate(result.table).measures["informedness"] == pytest.approx(1.0)


def test_more_clusters_than_classes() -> None:
    """K > C one-to-one leaves a cluster unmatched; many-to-one merges it into its best class."""
    counts = [[10, 0], [0, 10], [3, 1]]
    table = Table.from_counts(counts, rows="predicted", predicted=[0, 1, 2], actual=["a", "b"])
    one = match(table)
    assert one.mapping == {0: "a", 1: "b"}
    assert one.unmatched == (2,)
    many = match(table, method="many-to-one")
    assert many.mapping == {0: "a", 1: "b", 2: "a"}
    assert many.unmatched == ()
    assert many.table == Table.from_counts([[13, 1], [0, 10]], rows="predicted", labels=["a", "b"])


def test_bad_options() -> None:
    table = Table.binary(tp=1, fp=1, fn=1, tn=1)
    with pytest.raises(InputError, match="method"):
        match(table, method="greedy")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="objective"):
        match(table, objective="accuracy")  # type: ignore[arg-type]


def test_abstention_drops_catch_all_rows_and_discounts() -> None:
    """Conditional values are those of the retained table; recall and B are discounted by n/N."""
    table = Table.from_counts(
        [[40, 10, 0], [10, 40, 0], [25, 25, 50]],
        rows="predicted",
        predicted=["a", "b", "other"],
        actual=["a", "b", "c"],
    )
    result = abstain(table, ignore=["other"])
    retained = Table.from_counts([[40, 10], [10, 40]], rows="predicted", labels=["a", "b"])
    assert result.table == retained  # class c only occurs under the ignored label: dropped
    assert result.n == 100 and result.total == 200 and result.coverage == 0.5
    expected = evaluate(retained).measures
    np.testing.assert_equal(result.conditional.measures, expected)
    assert result.discounted["informedness"] == pytest.approx(expected["informedness"] * 0.5)
    assert result.discounted["recall"] == pytest.approx(expected["recall"] * 0.5)
    with pytest.raises(InputError, match="not a predicted label"):
        abstain(table, ignore=["zzz"])
