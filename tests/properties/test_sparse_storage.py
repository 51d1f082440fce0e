"""A sparse and a dense Table of the same counts are one table: equal, with the same
measures (every registry measure, overall and per label, with or without a positive
label), merges, JSON round trips, payoffs and bootstrap replicates (same seed)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Table, bootstrap, evaluate, payoff
from informed.measures import AVERAGES, MEASURES
from informed.table import average


@st.composite
def table_pairs(
    draw: Any, weighted: bool | None = None, strings: bool | None = None
) -> tuple[Table, Table]:
    """(dense, sparse) Tables of one random, mostly empty K x C matrix; labels ints or
    strings, the two axes overlapping but not equal."""
    k = draw(st.integers(1, 6))
    c = draw(st.integers(1, 6))
    is_weighted = draw(st.booleans()) if weighted is None else weighted
    cell = (
        st.one_of(st.just(0.0), st.just(0.0), st.floats(0.25, 40.0, allow_nan=False))
        if is_weighted
        else st.one_of(st.just(0), st.just(0), st.integers(1, 40))
    )
    counts = np.array(
        draw(st.lists(st.lists(cell, min_size=c, max_size=c), min_size=k, max_size=k)),
        dtype=np.float64 if is_weighted else np.int64,
    )
    shift = draw(st.integers(0, 3))
    if draw(st.booleans()) if strings is None else strings:
        predicted: list[Any] = [f"l{i}" for i in range(k)]
        actual: list[Any] = [f"l{j + shift}" for j in range(c)]
    else:
        predicted, actual = list(range(k)), [j + shift for j in range(c)]
    made = [
        Table.from_counts(
            counts,
            rows="predicted",
            predicted=predicted,
            actual=actual,
            weighted=is_weighted,
            storage=storage,
        )
        for storage in ("dense", "sparse")
    ]
    return made[0], made[1]


def _same(a: Any, b: Any) -> None:
    np.testing.assert_allclose(
        np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), rtol=1e-12, atol=0
    )


def _same_evaluation(dense: Table, sparse: Table, positive: Any = None) -> None:
    a, b = evaluate(dense, positive=positive), evaluate(sparse, positive=positive)
    assert list(a.per_label) == list(b.per_label) == list(dense.labels)
    for name in MEASURES:
        _same(a.measures[name], b.measures[name])
        _same([a.per_label[x][name] for x in dense.labels], b.per_label.column(name))  # type: ignore[attr-defined]
    assert a.reasons == b.reasons
    assert all(a.per_label_reasons[x] == b.per_label_reasons[x] for x in dense.labels)


@settings(max_examples=150, deadline=None)
@given(table_pairs())
def test_sparse_and_dense_tables_are_equal_with_equal_measures(pair: tuple[Table, Table]) -> None:
    dense, sparse = pair
    assert (dense.storage, sparse.storage) == ("dense", "sparse")
    assert dense == sparse and hash(dense) == hash(sparse)
    assert sparse.to_dense() == dense and dense.to_sparse() == sparse
    np.testing.assert_array_equal(sparse.counts, dense.counts)
    assert dense.n == sparse.n and dense.shape == sparse.shape
    _same_evaluation(dense, sparse)
    _same_evaluation(dense, sparse, positive=dense.labels[0])
    _same_evaluation(dense.transpose(), sparse.transpose())
    for name in ("recall", "f_measure", "informedness"):
        for how in AVERAGES:
            _same(average(dense, name, how), average(sparse, name, how))


@settings(max_examples=100, deadline=None)
@given(table_pairs(weighted=False, strings=True), table_pairs(weighted=False, strings=True))
def test_merges_agree(first: tuple[Table, Table], second: tuple[Table, Table]) -> None:
    """Dense + dense, sparse + sparse and the mixed sums are one table with one set of
    measures; the sum of two sparse tables stays sparse."""
    sums = [first[0] + second[0], first[1] + second[1], first[0] + second[1]]
    assert sums[0] == sums[1] == sums[2]
    assert sums[1].storage == "sparse"
    _same_evaluation(sums[0].to_dense(), sums[1])


@settings(max_examples=100, deadline=None)
@given(table_pairs())
def test_json_round_trips_keep_counts_and_storage(pair: tuple[Table, Table]) -> None:
    dense, sparse = pair
    for table in pair:
        back = Table.from_json(table.to_json())
        assert back == table and back.storage == table.storage
    document = sparse.to_dict()["counts"]
    assert set(document) == {"row", "column", "count"}
    assert len(document["count"]) == np.count_nonzero(dense.counts)
    assert 0 not in document["count"]
    assert isinstance(dense.to_dict()["counts"], list)


@settings(max_examples=60, deadline=None)
@given(table_pairs())
def test_payoffs_agree(pair: tuple[Table, Table]) -> None:
    dense, sparse = (payoff(t) for t in pair)
    assert dense.labels == sparse.labels
    for key in ("won", "weighted", "column_sums", "odds"):
        _same(getattr(dense, key), getattr(sparse, key))
    _same(dense.matrix, sparse.matrix)
    if dense.labels:
        _same(dense.row(0), sparse.matrix[0])
    cells = sparse.to_dict()["matrix"]
    rebuilt = np.zeros((len(dense.labels), len(dense.labels)))
    rebuilt[cells["row"], cells["column"]] = cells["value"]
    _same(rebuilt, dense.matrix)


@settings(max_examples=40, deadline=None)
@given(table_pairs(weighted=False), st.integers(0, 2**32 - 1))
def test_bootstrap_replicates_agree_with_one_seed(pair: tuple[Table, Table], seed: int) -> None:
    """Both storages draw the same replicates; no replicate fills an empty cell (each
    replicate's total is N and every value stays in range)."""
    dense, sparse = pair
    names = ["informedness", "accuracy", "mutual_information", "kappa"]
    a = bootstrap(dense, names, replicates=20, seed=seed, per_label=True)
    b = bootstrap(sparse, names, replicates=20, seed=seed, per_label=True)
    for name in names:
        np.testing.assert_array_equal(a.distribution[name], b.distribution[name])
        for label in dense.labels:
            np.testing.assert_array_equal(
                a.per_label_distribution[label][name], b.per_label_distribution[label][name]
            )
