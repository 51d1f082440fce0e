"""One label order for every Table, whatever built it (issue 27, item 8).

`Ranking.at_threshold(T).table` listed its positive class first: `.predicted` was
('malignant', 'benign') while `.labels` was ('benign', 'malignant'), `.counts` followed
one order and `payoff` the other, and `==` with `Table.from_labels` of the same rows was
False. Now every constructor puts each axis in canonical order, its counts moved with it.
Expected cells are counted here by a dictionary over the rows; expected orders are
Python's `sorted` of the distinct labels.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Ranking, Table, payoff
from informed.errors import InputError
from informed.table.storage import from_cells

ACTUAL = ["benign", "malignant", "benign", "malignant", "benign", "malignant", "benign"]
SCORES = [0.1, 0.9, 0.4, 0.3, 0.8, 0.7, 0.2]


def _cells(actual: list[str], predicted: list[str]) -> Counter[tuple[str, str]]:
    return Counter(zip(predicted, actual, strict=True))


@pytest.mark.parametrize("threshold", [0.05, 0.35, 0.5, 0.75, 0.95])
def test_the_table_at_a_threshold_is_the_table_of_its_rows(threshold: float) -> None:
    """The issue's case: equal to Table.from_labels of the rows it predicts, one order on
    every attribute, payoff's rows and columns the table's."""
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive="malignant")
    point = ranking.at_threshold(threshold)
    predicted = ["malignant" if s >= threshold else "benign" for s in SCORES]
    table = point.table
    # both classes on both axes, as a 2x2 table of a threshold has them
    assert table == Table.from_labels(ACTUAL, predicted, labels=["malignant", "benign"])
    assert table.predicted == table.actual == table.labels == ("benign", "malignant")
    cells = _cells(ACTUAL, predicted)
    assert table.counts.tolist() == [
        [cells[(p, a)] for a in ("benign", "malignant")] for p in ("benign", "malignant")
    ]
    tp, fp = cells[("malignant", "malignant")], cells[("malignant", "benign")]
    fn, tn = cells[("benign", "malignant")], cells[("benign", "benign")]
    assert point.cells == (tp, fp, fn, tn)
    assert point.to_dict()["counts"] == {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    assert (point.positive, point.negative) == ("malignant", "benign")
    bet = payoff(table)
    assert bet.labels == table.labels
    # Powers' fair-odds payoff per unit stake, pPR(l, c) w(c|l) with w = 1/pR(l) when the
    # bet on l wins and -1/(1 - pR(l)) when it loses, in the table's own order
    n = len(ACTUAL)
    prevalence = {c: Fraction(ACTUAL.count(c), n) for c in ("benign", "malignant")}
    for i, bet_on in enumerate(("benign", "malignant")):
        for j, real in enumerate(("benign", "malignant")):
            won = 1 / prevalence[bet_on] if real == bet_on else -1 / (1 - prevalence[bet_on])
            share = Fraction(cells[(bet_on, real)], n)
            assert bet.matrix[i, j] == pytest.approx(float(share * won), abs=1e-15)


def test_a_table_given_in_another_order_is_put_in_canonical_order() -> None:
    """Table(counts, predicted, actual) with K != C, dense and sparse: each cell stays with
    its labels; equal (and hashed equal) to the canonical one, through JSON too."""
    counts = np.array([[1, 2, 3], [4, 5, 0]])
    predicted, actual = ["b", "a"], ["z", "x", "y"]
    expected = {
        (p, a): int(counts[i, j]) for i, p in enumerate(predicted) for j, a in enumerate(actual)
    }
    canonical = Table(
        np.array([[expected[(p, a)] for a in "xyz"] for p in "ab"]), ("a", "b"), tuple("xyz")
    )
    r, c = np.nonzero(counts)
    sparse = from_cells(r, c, counts[r, c], counts.shape, np.int64, "sparse")
    for stored, storage in ((counts, "dense"), (sparse, "sparse")):
        found = Table(stored, predicted, actual)  # the counts in the order of their labels
        assert found.predicted == ("a", "b") and found.actual == ("x", "y", "z")
        assert found.storage == storage
        assert {(p, a): found.count(p, a) for p in "ab" for a in "xyz"} == expected
        assert found == canonical and hash(found) == hash(canonical)
    document = canonical.to_dict()
    document["predicted"], document["actual"] = predicted, actual
    document["counts"] = counts.tolist()
    assert Table.from_json(json.dumps(document)) == canonical


def test_binary_and_clusters_and_kinds_are_ordered_too() -> None:
    """Table.binary's (positive, negative), numbers against text (clusters), booleans."""
    binary = Table.binary(tp=5, fp=1, fn=2, tn=7, labels=("spam", "ham"))
    assert binary.predicted == ("ham", "spam") and binary.count("spam", "ham") == 1
    clusters = Table([[3, 0], [1, 4], [0, 2]], [7, 2, 5], ["y", "x"])
    assert clusters.predicted == (2, 5, 7) and clusters.actual == ("x", "y")
    assert clusters.count(7, "y") == 3 and clusters.count(5, "y") == 0
    flags = Table([[1, 2], [3, 4]], [True, False], [True, False])
    assert flags.predicted == (False, True) and flags.count(True, False) == 2


def test_a_label_twice_on_an_axis_is_refused() -> None:
    with pytest.raises(InputError, match="'a' twice"):
        Table([[1, 2], [3, 4]], ["b", "a"], ["a", "a"])
    with pytest.raises(InputError, match="twice"):
        Table([[1], [2]], [1, 1.0], ["x"])  # 1 and 1.0 are one label


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    k=st.integers(1, 5),
    c=st.integers(1, 5),
    sparse=st.booleans(),
)
def test_any_order_equals_the_labels_counted(
    data: st.DataObject, k: int, c: int, sparse: bool
) -> None:
    """Counts given with their labels in any order equal Table.from_labels of the rows
    they stand for (clusters: K may differ from C)."""
    rows = data.draw(st.permutations([f"r{i}" for i in range(k)]))
    cols = data.draw(st.permutations(list(range(c))))
    counts = np.array(
        data.draw(
            st.lists(st.lists(st.integers(0, 3), min_size=c, max_size=c), min_size=k, max_size=k)
        ),
        dtype=np.int64,
    )
    table = Table(counts, rows, cols)
    table = table.to_sparse() if sparse else table
    assert table.predicted == tuple(sorted(rows)) and table.actual == tuple(sorted(cols))
    actual = [
        a for i, p in enumerate(rows) for j, a in enumerate(cols) for _ in range(counts[i, j])
    ]
    predicted = [
        p for i, p in enumerate(rows) for j, a in enumerate(cols) for _ in range(counts[i, j])
    ]
    if actual:  # from_labels holds the labels that occur; compare on those cells
        counted = Table.from_labels(actual, predicted, clusters=True)
        for p in counted.predicted:
            for a in counted.actual:
                assert table.count(p, a) == counted.count(p, a)
    full = Table.from_counts(counts, rows="predicted", predicted=rows, actual=cols)
    assert table == full
