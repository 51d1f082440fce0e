"""Matching a sparse table reads only its non-zero cells and gives the dense answer:
the diagonal assignment's total is `linear_sum_assignment`'s on the dense counts, each
label's best class (many-to-one) is `numpy.argmax` of its dense row of scores, and the
one-to-one assignment by informedness, which needs the dense scores, checks their
memory first."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from informed import MemoryLimitError, Table, match


@st.composite
def sparse_tables(draw) -> Table:  # type: ignore[no-untyped-def]
    k, c = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cell = st.one_of(st.just(0), st.just(0), st.integers(1, 9))
    counts = np.array(
        draw(st.lists(st.lists(cell, min_size=c, max_size=c), min_size=k, max_size=k))
    )
    return Table.from_counts(
        counts,
        rows="predicted",
        predicted=[f"k{i}" for i in range(k)],
        actual=[f"c{j}" for j in range(c)],
        storage="sparse",
    )


def _diagonal(table: Table, mapping: dict[object, object]) -> float:
    return float(sum(table.count(p, a) for p, a in mapping.items()))


@settings(max_examples=150, deadline=None)
@given(sparse_tables())
def test_diagonal_assignment_total_is_linear_sum_assignments(table: Table) -> None:
    counts = table.to_dense().counts
    rows, cols = linear_sum_assignment(counts, maximize=True)
    best = float(counts[rows, cols].sum())
    found = match(table, objective="diagonal")
    assert len(found.mapping) == min(table.shape)  # min(K, C) pairs, as the dense route
    assert len(set(found.mapping.values())) == len(found.mapping)  # one-to-one
    assert _diagonal(table, found.mapping) == best
    if table.n:
        assert found.score == pytest.approx(best / table.n)


def _informedness_scores(counts: np.ndarray) -> np.ndarray:
    """tpr - fpr of each label if sent to each class, brute force (nan as -inf)."""
    n = counts.sum()
    rows = counts.sum(axis=1, keepdims=True)
    cols = counts.sum(axis=0, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = np.where(cols > 0, counts / cols, np.nan)
        fpr = np.where(n - cols > 0, (rows - counts) / (n - cols), np.nan)
    value = tpr - fpr
    return np.where(np.isnan(value), -np.inf, value)


@settings(max_examples=150, deadline=None)
@given(sparse_tables(), st.sampled_from(["informedness", "diagonal"]))
def test_many_to_one_picks_the_dense_argmax(table: Table, objective: str) -> None:
    counts = table.to_dense().counts.astype(np.float64)
    scores = counts if objective == "diagonal" else _informedness_scores(counts)
    expected = {p: table.actual[int(np.argmax(scores[i]))] for i, p in enumerate(table.predicted)}
    assert match(table, method="many-to-one", objective=objective).mapping == expected  # type: ignore[arg-type]
    dense = match(table.to_dense(), method="many-to-one", objective=objective)  # type: ignore[arg-type]
    assert dense.mapping == expected


@settings(max_examples=80, deadline=None)
@given(sparse_tables())
def test_one_to_one_by_informedness_is_the_dense_assignment(table: Table) -> None:
    sparse, dense = match(table), match(table.to_dense())
    assert sparse.mapping == dense.mapping
    assert sparse.score == pytest.approx(dense.score)
    assert sparse.table == dense.table and sparse.table.storage == "sparse"


def test_thousands_of_labels_match_from_the_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 clusters against 3,000 classes under a 50 MB budget: the diagonal and
    many-to-one routes never make the 72 MB dense table; the one-to-one assignment by
    informedness is refused in one line naming the sizes and the way out."""
    rng = np.random.default_rng(0)
    actual = np.repeat(np.arange(3000), 3)
    clusters = (actual * 7 + 1) % 3000  # a relabelling: each class is one cluster
    noisy = np.where(rng.random(actual.size) < 0.2, rng.integers(0, 3000, actual.size), clusters)
    table = Table.from_labels(actual=actual, predicted=noisy, clusters=True)
    assert table.storage == "sparse"
    monkeypatch.setenv("INFORMED_MEMORY_LIMIT", str(50_000_000))
    found = match(table, objective="diagonal")
    assert all(found.mapping[(a * 7 + 1) % 3000] == a for a in range(0, 3000, 97))
    many = match(table, method="many-to-one", objective="informedness")
    assert many.mapping[(5 * 7 + 1) % 3000] == 5
    with pytest.raises(MemoryLimitError) as error:
        match(table)
    message = str(error.value)
    k, c = table.shape
    assert f"{k:,} predicted labels to {c:,} classes" in message and k > 2900
    assert "objective='diagonal'" in message and "\n" not in message
