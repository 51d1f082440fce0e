"""Table: constructors, orientation, bad inputs, merge, JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import tables

from informed import InputError, InputTypeError, Table, evaluate

FAST = settings(max_examples=60, deadline=None)


def test_orientation_is_stated_not_guessed() -> None:
    """rows='actual' transposes into the seeds' orientation; `rows` has no default."""
    by_actual = Table.from_counts([[5, 2], [3, 7]], rows="actual", labels=["a", "b"])
    by_predicted = Table.from_counts([[5, 3], [2, 7]], rows="predicted", labels=["a", "b"])
    assert by_actual == by_predicted
    with pytest.raises(TypeError):
        Table.from_counts([[1, 2], [3, 4]])  # type: ignore[call-arg]
    with pytest.raises(InputError, match="rows"):
        Table.from_counts([[1, 2], [3, 4]], rows="columns")  # type: ignore[arg-type]


def test_from_labels_counts_each_pair() -> None:
    """from_labels: rows are predicted labels, columns actual classes."""
    table = Table.from_labels(actual=["a", "a", "b", "b", "b"], predicted=["a", "b", "b", "b", "a"])
    assert table.predicted == ("a", "b") and table.actual == ("a", "b")
    assert table.count(predicted="a", actual="a") == 1
    assert table.count(predicted="b", actual="a") == 1
    assert table.count(predicted="a", actual="b") == 1
    assert table.count(predicted="b", actual="b") == 2
    assert table.n == 5


@pytest.mark.parametrize(
    ("actual", "predicted"),
    [
        ([0, 1, 1, 2], [0, 1, 2, 2]),
        (np.array([0, 1, 1, 2], dtype=np.uint8), np.array([0, 1, 2, 2], dtype=np.int32)),
        (np.array([[0], [1], [1], [2]]), [0, 1, 2, 2]),
        ((0, 1, 1, 2), np.array([0, 1, 2, 2], dtype=np.int64)),
    ],
)
def test_input_representations_agree(actual: object, predicted: object) -> None:
    """Lists, tuples, arrays of any integer dtype and (n, 1) columns give one table (P01, P58)."""
    table = Table.from_labels(actual=actual, predicted=predicted)
    assert table.counts.dtype == np.int64
    assert table == Table.from_counts([[1, 0, 0], [0, 1, 0], [0, 1, 1]], rows="predicted")


def test_pandas_series_are_accepted() -> None:
    pd = pytest.importorskip("pandas")
    table = Table.from_labels(actual=pd.Series(["x", "y"]), predicted=pd.Series(["x", "x"]))
    assert table.counts.tolist() == [[1, 1]]


def test_many_small_integer_labels_do_not_wrap() -> None:
    """uint8 codes for 20 classes: 19 * 20 + 19 must not wrap (tm#1510)."""
    labels = np.arange(20, dtype=np.uint8)
    table = Table.from_labels(actual=labels, predicted=labels[::-1].copy())
    assert table.n == 20
    assert table.count(predicted=19, actual=0) == 1


def test_large_and_negative_integer_labels() -> None:
    """Labels far apart use the sorting path; negative labels are fine."""
    table = Table.from_labels(actual=[-5, 10**12, -5], predicted=[10**12, 10**12, -5])
    assert table.predicted == (-5, 10**12)
    assert table.count(predicted=10**12, actual=-5) == 1


def test_weights() -> None:
    """Weight 0 equals removal; integer weights equal repetition; list equals array."""
    actual, predicted = ["a", "b", "b", "c"], ["a", "a", "b", "b"]
    weighted = Table.from_labels(actual=actual, predicted=predicted, weights=[2, 1, 0, 3])
    repeated = Table.from_labels(
        actual=["a", "a", "b", "c", "c", "c"], predicted=["a", "a", "a", "b", "b", "b"]
    )
    assert np.array_equal(weighted.counts, repeated.counts)
    assert weighted.weighted and not repeated.weighted
    as_array = Table.from_labels(
        actual=actual, predicted=predicted, weights=np.array([2.0, 1, 0, 3])
    )
    assert weighted == as_array
    ones = Table.from_labels(actual=actual, predicted=predicted, weights=[1, 1, 1, 1])
    assert np.array_equal(ones.counts, Table.from_labels(actual=actual, predicted=predicted).counts)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"actual": [1, 2], "predicted": [1]}, InputError, "inconsistent numbers of samples"),
        ({"actual": [1.0, np.nan], "predicted": [1.0, 1.0]}, InputError, r"row 2 \(index 1\)"),
        ({"actual": ["a", None], "predicted": ["a", "a"]}, InputError, r"missing value \(None\)"),
        ({"actual": ["a", 1], "predicted": ["a", "a"]}, InputTypeError, "mixes label kinds"),
        ({"actual": ["a", "b"], "predicted": [1, 2]}, InputTypeError, "same kind"),
        ({"actual": "ab", "predicted": "ab"}, InputTypeError, "bare str"),
        ({"actual": {1, 2}, "predicted": [1, 2]}, InputTypeError, "ordered"),
        ({"actual": [[1, 2]], "predicted": [[1, 2]]}, InputError, "one-dimensional"),
        (
            {"actual": [1, 2], "predicted": [1, 2], "weights": [1, -1]},
            InputError,
            r"row 2 \(index 1\)",
        ),
        (
            {"actual": [1, 2], "predicted": [1, 2], "weights": [1, np.inf]},
            InputError,
            r"row 2 \(index 1\)",
        ),
        ({"actual": [1, 2], "predicted": [1, 2], "weights": [1]}, InputError, "inconsistent"),
        (
            {"actual": [1, 3], "predicted": [1, 2], "labels": [1, 2]},
            InputError,
            r"row 2 \(index 1\)",
        ),
        ({"actual": [1, 2], "predicted": [1, 2], "labels": [1, 1, 2]}, InputError, "distinct"),
        ({"actual": [True, 1], "predicted": [1, 1]}, InputTypeError, "mixes"),
    ],
)
def test_bad_labels_are_refused(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    """Bad inputs raise, naming the row and the value (RELIABILITY 2.A, 2.C)."""
    with pytest.raises(error, match=match):
        Table.from_labels(**kwargs)  # type: ignore[arg-type]


def test_clusters_may_be_of_another_kind() -> None:
    """Cluster ids (ints) against class names (str) with clusters=True: a rectangular table."""
    table = Table.from_labels(actual=["a", "b", "b"], predicted=[0, 0, 1], clusters=True)
    assert table.shape == (2, 2)
    assert table.predicted == (0, 1) and table.actual == ("a", "b")


@pytest.mark.parametrize(
    ("counts", "match"),
    [
        ([[1, -1], [0, 0]], "non-negative"),
        ([[1, np.nan], [0, 0]], "finite"),
        ([[1, np.inf], [0, 0]], "finite"),
        ([1, 2, 3], "two-dimensional"),
        ([[True, False], [False, True]], "boolean"),
        ([[2**64, 0], [0, 0]], "int64"),
        ([[2**62, 2**62], [2**62, 2**62]], "exceeds int64"),
    ],
)
def test_bad_counts_are_refused(counts: object, match: str) -> None:
    """Counts given directly: negative, NaN, inf, ragged, bool, too big (RELIABILITY 2.E)."""
    with pytest.raises((InputError, InputTypeError), match=match):
        Table.from_counts(counts, rows="predicted")


def test_non_integer_counts_need_weighted() -> None:
    with pytest.raises(InputError, match="non-integer"):
        Table.from_counts([[1.5, 0], [0, 1]], rows="predicted", weighted=False)
    assert Table.from_counts([[1.5, 0], [0, 1]], rows="predicted").weighted


def test_exact_integer_storage_near_2_62() -> None:
    """Counts near 2^62 are stored exactly as int64."""
    big = 2**62 - 1
    table = Table.from_counts([[big, 0], [0, 1]], rows="predicted")
    assert int(table.counts[0, 0]) == big
    assert table.n == big + 1


def test_table_is_frozen() -> None:
    table = Table.binary(tp=1, fp=2, fn=3, tn=4)
    with pytest.raises(ValueError, match="read-only"):
        table.counts[0, 0] = 5
    with pytest.raises(AttributeError):
        table.predicted = ("x", "y")  # type: ignore[misc]


def test_inputs_are_not_mutated() -> None:
    """Building a table never changes its inputs (P05)."""
    actual = np.array([3, 1, 2])
    predicted = np.array([1, 1, 2])
    counts = np.array([[1, 2], [3, 4]])
    Table.from_labels(actual=actual, predicted=predicted)
    table = Table.from_counts(counts, rows="actual")
    assert actual.tolist() == [3, 1, 2] and predicted.tolist() == [1, 1, 2]
    counts[0, 0] = 99
    assert table.counts[0, 0] == 1


def test_one_vs_rest_view() -> None:
    table = Table.from_counts(
        [[5, 3, 1], [2, 7, 4], [0, 6, 9]], rows="actual", labels=["x", "y", "z"]
    )
    view = table.one_vs_rest("y")
    assert (view.tp, view.fp, view.fn, view.tn) == (7, 3 + 6, 2 + 4, 5 + 1 + 0 + 9)
    with pytest.raises(InputError, match="not a label"):
        table.one_vs_rest("w")


def test_empty_table_is_valid_and_undefined() -> None:
    """An all-zero table is a valid summary; every measure is nan with reason 'no data'."""
    table = Table.from_counts([[0, 0], [0, 0]], rows="predicted", labels=["+", "-"])
    result = evaluate(table, positive="+")
    assert all(np.isnan(v) for v in result.measures.values())
    assert all("N = 0" in r or "no " in r for r in result.reasons.values())
    empty = Table.from_labels(actual=[], predicted=[])
    assert empty.shape == (0, 0) and empty.n == 0
    assert np.isnan(evaluate(empty).measures["informedness"])


def test_single_class_is_valid_and_says_why() -> None:
    """Fewer than two classes: a valid table, measures nan with the vanished margin."""
    table = Table.from_labels(actual=["a", "a"], predicted=["a", "a"])
    result = evaluate(table, positive="a")
    assert result.measures["recall"] == 1.0
    assert np.isnan(result.measures["informedness"])
    assert result.reasons["informedness"] == "no real negatives (-R is empty)"


@FAST
@given(tables(max_count=50), tables(max_count=50), tables(max_count=50))
def test_merge_is_associative_and_commutative(a: Table, b: Table, c: Table) -> None:
    """(a + b) + c == a + (b + c); a + b == b + a; counts add over the union of labels."""
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert (a + b).n == a.n + b.n


def test_merge_over_the_union_of_labels() -> None:
    left = Table.from_labels(actual=["a", "b"], predicted=["a", "a"])
    right = Table.from_labels(actual=["c"], predicted=["c"])
    merged = left + right
    assert merged.predicted == ("a", "c") and merged.actual == ("a", "b", "c")
    assert merged == Table.from_labels(actual=["a", "b", "c"], predicted=["a", "a", "c"])


@FAST
@given(
    st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd")), min_size=1, max_size=60),
    st.integers(0, 60),
)
def test_chunks_merge_to_the_whole(pairs: list[tuple[str, str]], cut: int) -> None:
    """Any split of the rows, merged, equals the table of all rows (order of labels canonical)."""
    actual = [a for a, _ in pairs]
    predicted = [p for _, p in pairs]
    whole = Table.from_labels(actual=actual, predicted=predicted)
    cut = min(cut, len(pairs))
    parts = [(actual[:cut], predicted[:cut]), (actual[cut:], predicted[cut:])]
    merged = sum(
        (Table.from_labels(actual=x, predicted=y) for x, y in parts),
        Table.from_labels(actual=[], predicted=[]),
    )
    assert merged == whole


@FAST
@given(tables(max_count=10**6))
def test_json_round_trip_is_exact(table: Table) -> None:
    assert Table.from_json(table.to_json()) == table


def test_json_round_trip_of_weights_and_label_kinds() -> None:
    for table in (
        Table.from_counts([[0.1, 1 / 3], [2.5e-300, 7e10]], rows="predicted", labels=[1.5, 2.25]),
        Table.from_labels(actual=[True, False], predicted=[True, True]),
        Table.from_labels(actual=["", "NA"], predicted=["NA", "null"]),
    ):
        assert Table.from_json(table.to_json()) == table


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: d.update(kind="other"), "expected kind"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(version=True), "version True"),  # True == 1 in Python
        (lambda d: d.update(extra=1), "unknown"),
        (lambda d: d.pop("counts"), "missing"),
        (lambda d: d.update(counts=[[1, -2], [0, 0]]), "non-negative"),
        (lambda d: d.update(counts=[[1], [0, 0]]), "each as long"),
    ],
)
def test_bad_json_is_refused(mutate, match: str) -> None:  # type: ignore[no-untyped-def]
    data = Table.binary(tp=1, fp=2, fn=3, tn=4).to_dict()
    mutate(data)
    with pytest.raises(InputError, match=match):
        Table.from_json(json.dumps(data))


def test_json_refuses_nan_tokens() -> None:
    text = Table.binary(tp=1, fp=2, fn=3, tn=4).to_json().replace("[[1, 2]", "[[NaN, 2]")
    with pytest.raises(InputError, match="NaN"):
        Table.from_json(text)


def test_binary_is_in_canonical_order_and_read_by_name() -> None:
    """(positive, negative) = ("yes", "no") is stored as every Table is, "no" first; the
    cells are the same by name, and the table equals the one counted from its rows."""
    table = Table.binary(tp=1, fp=2, fn=3, tn=4, labels=("yes", "no"))
    assert table.predicted == table.actual == table.labels == ("no", "yes")
    assert table.counts.tolist() == [[4, 3], [2, 1]]  # rows no, yes; columns no, yes
    view = table.one_vs_rest("yes")
    assert (view.tp, view.fp, view.fn, view.tn) == (1, 2, 3, 4)
    rows = [("yes", "yes")] + [("yes", "no")] * 2 + [("no", "yes")] * 3 + [("no", "no")] * 4
    predicted, actual = zip(*rows, strict=True)
    assert table == Table.from_labels(actual, predicted)


def test_docs_list_every_registered_measure() -> None:
    """docs/measures.md documents exactly the registry's measures."""
    import re
    from pathlib import Path

    from informed import MEASURES

    text = (Path(__file__).resolve().parents[2] / "docs" / "measures.md").read_text()
    documented = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE))
    assert documented == set(MEASURES)


def test_true_and_one_stay_two_labels() -> None:
    """True == 1 in Python, but as labels they differ: the union keeps both, in kind order."""
    from informed.coding.labels import sort_labels

    assert sort_labels([1, True, "a", 1.0, False]) == (False, True, 1, "a")
    table = Table.from_labels(actual=[True, False], predicted=[1, 0], clusters=True)
    assert table.labels == (False, True, 0, 1)
