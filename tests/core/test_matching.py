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
    assert one.abstained == ("unmatched 2",)
    assert one.table == Table.from_counts(
        [[10, 0], [0, 10], [3, 1]],
        rows="predicted",
        predicted=["a", "b", "unmatched 2"],
        actual=["a", "b"],
    )
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


def _bookmaker(counts: np.ndarray, assignment: dict[int, int]) -> float:
    """Powers's payoff formula, B = sum_l pP(l) sum_c pPR(l, c) w(c|l), cell by cell:
    w = +1/pR(c) on the class c matched to row l, -1/(1 - pR(c)) elsewhere in the row,
    0 for a row with no class (zero weight)."""
    total = counts.sum()
    prevalence = counts.sum(axis=0) / total
    value = 0.0
    for row in range(counts.shape[0]):
        if row not in assignment:
            continue
        target = assignment[row]
        won = 0.0
        for col in range(counts.shape[1]):
            joint = counts[row, col] / total
            if col == target:
                won += joint / prevalence[target]
            else:
                won -= joint / (1 - prevalence[target])
        value += counts[row].sum() / total * won
    return value


def _best_assignment(counts: np.ndarray) -> tuple[float, dict[int, int]]:
    """The best zero-weight B over every injective assignment of rows to columns."""
    k, c = counts.shape
    best: tuple[float, dict[int, int]] = (-np.inf, {})
    for rows in itertools.permutations(range(k), min(k, c)):
        for cols in itertools.permutations(range(c), min(k, c)):
            assignment = dict(zip(rows, cols, strict=True))
            value = _bookmaker(counts, assignment)
            if value > best[0] + 1e-12:
                best = (value, assignment)
    return best


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 4).flatmap(
        lambda k: st.integers(2, k - 1).flatmap(
            lambda c: hnp.arrays(np.int64, (k, c), elements=st.integers(1, 30))
        )
    )
)
def test_clusters_workflow_against_brute_force(counts: np.ndarray) -> None:
    """K > C: `score` is the best zero-weight Bookmaker, equal to `abstention.zero_weight`;
    `abstention` evaluates the matched rows alone and discounts B by n/N (Powers 2003)."""
    k, c = counts.shape
    table = Table.from_counts(
        counts, rows="predicted", predicted=list(range(k)), actual=[f"c{j}" for j in range(c)]
    )
    m = match(table)
    best, _ = _best_assignment(counts)
    assert m.score == pytest.approx(best, abs=1e-12)
    abstention = m.abstention
    assert abstention.zero_weight == pytest.approx(m.score, abs=1e-12)
    # the abstentions are the rows left without a class, under their own names
    assert set(m.unmatched) == set(range(k)) - set(m.mapping)
    assert abstention.ignored == m.abstained == tuple(f"unmatched {x}" for x in m.unmatched)
    # conditional B: the matched rows alone, on their own margins; discounted by n / N
    matched = sorted(m.mapping)
    kept = counts[matched]
    kept_cols = [j for j in range(c) if kept[:, j].sum() > 0]
    kept = kept[:, kept_cols]
    position = {f"c{j}": i for i, j in enumerate(kept_cols)}
    conditional = _bookmaker(kept, {i: position[m.mapping[r]] for i, r in enumerate(matched)})
    n, total = kept.sum(), counts.sum()
    assert (abstention.n, abstention.total) == (n, total)
    assert abstention.coverage == pytest.approx(n / total)
    assert abstention.conditional.measures["informedness"] == pytest.approx(conditional)
    assert abstention.discounted["informedness"] == pytest.approx(conditional * n / total)


def test_unmatched_cluster_is_not_added_to_the_class_of_its_name() -> None:
    """Regression: cluster 2 is unmatched and class 2 exists; its cases stayed in row 2.

    Before, the relabelled table kept the unmatched id as the row's name, so cluster 2's
    rows were added to those of cluster 1 (matched to class 2), as with KMeans on digits.
    """
    counts = [[9, 1], [1, 9], [4, 5]]
    table = Table.from_counts(counts, rows="predicted", predicted=[0, 1, 2], actual=[1, 2])
    m = match(table)
    assert m.mapping == {0: 1, 1: 2} and m.unmatched == (2,)
    assert m.table.count(2, 2) == 9 and m.table.count(2, 1) == 1
    assert m.table.count("unmatched 2", 1) == 4 and m.table.count("unmatched 2", 2) == 5
    assert m.abstention.table == Table.from_counts(
        [[9, 1], [1, 9]], rows="predicted", labels=[1, 2]
    )


def test_unmatched_name_never_collides_with_a_class() -> None:
    """A class already called "unmatched 2" keeps its row; the unmatched cluster gets another."""
    table = Table.from_counts(
        [[9, 1], [1, 9], [4, 5]],
        rows="predicted",
        predicted=[0, 1, 2],
        actual=["a", "unmatched 2"],
    )
    m = match(table)
    assert m.unmatched == (2,)
    assert m.abstained == ("unmatched unmatched 2",)
    assert m.table.count("unmatched 2", "unmatched 2") == 9
    assert m.abstention.n == 20


def test_raw_cluster_table_is_refused_by_abstain() -> None:
    """Regression: abstain() on cluster ids gave nan for every measure, silently."""
    table = Table.from_labels(
        actual=["a", "a", "b", "b", "c", "c"], predicted=[0, 0, 1, 1, 2, 3], clusters=True
    )
    with pytest.raises(InputError, match=r"is a class .*match\(table\)\.abstention"):
        abstain(table, ignore=[3])
    a = match(table).abstention
    assert a.conditional.measures["informedness"] == pytest.approx(1.0)
    assert a.coverage == pytest.approx(5 / 6)
    assert a.discounted["informedness"] == pytest.approx(5 / 6)


def test_no_abstention_when_every_label_is_matched() -> None:
    """K <= C and many-to-one: nothing abstains; every reading equals the plain evaluation."""
    table = Table.from_counts(
        [[10, 2, 1], [3, 9, 4]], rows="predicted", predicted=[0, 1], actual=["a", "b", "c"]
    )
    for m in (match(table), match(table, method="many-to-one")):
        a = m.abstention
        assert m.abstained == () and a.coverage == 1.0
        full = evaluate(m.table).measures["informedness"]
        assert a.conditional.measures["informedness"] == pytest.approx(full)
        assert a.discounted["informedness"] == pytest.approx(full)
        assert a.zero_weight == pytest.approx(full)
        assert m.score == pytest.approx(full)


def test_digits_clusters_end_to_end() -> None:
    """KMeans on scikit-learn's digits, K = 12 > C = 10 (Powers 2003's unsupervised setting).

    Before: `evaluate(m.table)` was nan while `m.score` was 0.676, and one unmatched
    cluster's rows were added to a class of the same number. Now `m.abstention` gives B
    conditional on a class being given and discounted by n/N, and `m.score` equals its
    zero-weight reading. The oracle is the brute-force payoff sum of this file.
    """
    pytest.importorskip("sklearn")
    from sklearn.cluster import KMeans
    from sklearn.datasets import load_digits

    digits = load_digits()
    clusters = KMeans(n_clusters=12, n_init=10, random_state=0).fit_predict(digits.data)
    table = Table.from_labels(actual=digits.target, predicted=clusters, clusters=True)
    raw = np.zeros((12, 10))
    np.add.at(raw, (clusters, digits.target), 1)
    m = match(table)
    assert len(m.unmatched) == 2 and len(m.mapping) == 10
    assignment = {int(k): int(v) for k, v in m.mapping.items()}
    assert m.score == pytest.approx(_bookmaker(raw, assignment), abs=1e-12)
    assert np.isnan(evaluate(m.table).measures["informedness"])
    assert "unmatched" in evaluate(m.table).reasons["informedness"]
    a = m.abstention
    assert a.zero_weight == pytest.approx(m.score, abs=1e-12)
    matched = sorted(assignment)
    assert a.n == raw[matched].sum() and a.total == 1797
    conditional = _bookmaker(raw[matched], {i: assignment[r] for i, r in enumerate(matched)})
    assert a.conditional.measures["informedness"] == pytest.approx(conditional)
    assert a.discounted["informedness"] == pytest.approx(conditional * a.n / 1797)
    assert 0.5 < a.discounted["informedness"] < a.conditional.measures["informedness"] < 1


def test_readme_clusters_example() -> None:
    """The numbers of the clusters example of docs/tour.md (once the README's), by hand:
    clusters 0, 1, 2 are pure (a, b, c); cluster 3 holds one a and one b. Given a class,
    10 cases are all right: B = 1, and B x n/N = 10/12. Zero weight on cluster 3, over
    all 12 cases: a and b each have tpr 3/4, fpr 0 and pP = 3/12; c has tpr 1, fpr 0 and
    pP = 4/12: B = 2 x 3/16 + 1/3 = 17/24."""
    classes = ["a", "a", "a", "b", "b", "b", "c", "c", "c", "c", "a", "b"]
    table = Table.from_labels(
        actual=classes, predicted=[0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3], clusters=True
    )
    m = match(table)
    assert (m.mapping, m.unmatched) == ({0: "a", 1: "b", 2: "c"}, (3,))
    a = m.abstention
    assert (a.n, a.total) == (10, 12)
    assert a.conditional.measures["informedness"] == pytest.approx(1.0)
    assert a.discounted["informedness"] == pytest.approx(10 / 12)
    assert a.zero_weight == pytest.approx(17 / 24) and m.score == pytest.approx(17 / 24)
    assert "unmatched 3" in evaluate(m.table).reasons["informedness"]
