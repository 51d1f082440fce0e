"""Slices against a loop over groups: each slice's Table, Ranking and measures equal those
built from its rows alone; overall equals the unsliced summaries bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.errors import InputError
from informed.measures import MEASURES
from informed.ranking import Ranking
from informed.slices import Slices
from informed.slices.evaluation import evaluate_slices
from informed.table import Table, evaluate


def _data(seed: int, n: int = 400, groups: int = 7, labels: int = 4, weighted: bool = False):
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, labels, n)
    predicted = np.where(rng.random(n) < 0.6, actual, rng.integers(0, labels, n))
    by = rng.integers(0, groups, n)
    scores = np.round(rng.random(n) + 0.3 * (actual == 1), 2)
    weights = rng.integers(0, 4, n).astype(float) if weighted else None
    return by, actual, predicted, scores, weights


def _same_bits(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("weighted", [False, True])
def test_every_slice_equals_a_loop_over_groups(weighted: bool) -> None:
    """Each slice's Table and Ranking equal Table.from_labels / Ranking.from_scores on its rows."""
    by, actual, predicted, scores, weights = _data(1, weighted=weighted)
    s = Slices.from_labels(
        by=by, actual=actual, predicted=predicted, scores=scores, positive=1, weights=weights
    )
    assert [k[0] for k in s.keys] == sorted(set(by.tolist()))
    for g in sorted(set(by.tolist())):
        rows = by == g
        w = None if weights is None else weights[rows]
        assert s.table(g) == Table.from_labels(
            actual=actual[rows], predicted=predicted[rows], weights=w
        )
        expected = Ranking.from_scores(
            actual=actual[rows] == 1, scores=scores[rows], positive=True, negative=False, weights=w
        ).with_classes(1)  # 1 against all the other classes, as summarise_frame records it
        assert s.ranking(g) == expected
        assert s.rows[s.index(g)] == rows.sum()


@pytest.mark.parametrize("weighted", [False, True])
def test_overall_is_the_unsliced_summary_bit_for_bit(weighted: bool) -> None:
    """overall == Table.from_labels of all rows (same bits, weighted too), and the Ranking."""
    by, actual, predicted, scores, weights = _data(2, weighted=weighted)
    rng = np.random.default_rng(0)
    if weights is not None:
        weights = rng.random(by.size)  # non-integer: float sums in row order
    s = Slices.from_labels(
        by=by, actual=actual, predicted=predicted, scores=scores, positive=1, weights=weights
    )
    unsliced = Table.from_labels(actual=actual, predicted=predicted, weights=weights)
    assert s.overall == unsliced
    assert s.overall is not None and s.overall.counts.tobytes() == unsliced.counts.tobytes()
    assert s.overall_ranking == Ranking.from_scores(
        actual=actual == 1, scores=scores, positive=True, negative=False, weights=weights
    ).with_classes(1)
    if weights is None:  # integer counts: the overall is exactly the sum over slices
        assert s.cells is not None
        summed = np.zeros(unsliced.shape, dtype=np.int64)
        np.add.at(summed, (s.cells.row, s.cells.col), s.cells.values)
        assert np.array_equal(summed, unsliced.counts)


@pytest.mark.parametrize("positive", [None, 1])
def test_every_measure_of_every_slice_equals_evaluate(positive: int | None) -> None:
    """One vectorised call gives, bit for bit, what evaluate gives on each slice's own Table
    (multiclass: Powers' bias-weighted informedness, prevalence-weighted markedness)."""
    by, actual, predicted, _, _ = _data(3, n=300, groups=9, labels=5)
    predicted[by == 0] = 0  # a slice predicting one label only, with labels absent
    s = Slices.from_labels(by=by, actual=actual, predicted=predicted)
    result = evaluate_slices(s, positive=positive)
    for k, key in enumerate(s.keys):
        table = s.table(key)
        if positive is not None and table.label_position(positive) is None:
            continue
        expected = evaluate(table, positive=positive)
        for name in MEASURES:
            got = float(result.values[name][k])
            assert _same_bits(got, expected.measures[name]), (
                key,
                name,
                got,
                expected.measures[name],
            )
            if math.isnan(got):
                assert result.flag(name, k) is not None


def test_missing_key_values_form_a_slice_of_their_own() -> None:
    """None, NaN and pandas nulls are the slice "missing", never dropped."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {
            "g": pd.Series(["a", None, "b", np.nan, "a"], dtype=object),
            "c": pd.Categorical(["x", "y", None, "x", "x"]),
            "y": [1, 0, 1, 1, 0],
            "p": [1, 0, 0, 1, 1],
        }
    )
    one = Slices.from_frame(frame, by="g", actual="y", predicted="p")
    assert one.keys == (("a",), ("b",), (None,))
    assert one.rows.tolist() == [2, 1, 2]
    assert one.name(one.keys[-1]) == "missing"
    crossed = Slices.from_frame(frame, by=["g", "c"], actual="y", predicted="p")
    assert crossed.keys == (("a", "x"), ("b", None), (None, "x"), (None, "y"))
    assert crossed.name(crossed.keys[1]) == "g=b, c=missing"
    floats = Slices.from_labels(by=[1.5, float("nan"), 1.5], actual=[0, 1, 1], predicted=[0, 1, 0])
    assert floats.keys == ((1.5,), (None,))


def test_crossed_keys_equal_a_loop_over_pairs() -> None:
    """Two columns crossed: every occurring pair is a slice, equal to its rows' Table."""
    by, actual, predicted, _, _ = _data(4, n=200, groups=3)
    other = np.array(["u", "v"])[np.random.default_rng(5).integers(0, 2, by.size)]
    s = Slices.from_labels(by=[by, other], actual=actual, predicted=predicted, names=["g", "d"])
    pairs = sorted(set(zip(by.tolist(), other.tolist(), strict=True)))
    assert list(s.keys) == pairs
    for g, d in pairs:
        rows = (by == g) & (other == d)
        assert s.table((g, d)) == Table.from_labels(actual=actual[rows], predicted=predicted[rows])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c", None]),
            st.integers(0, 2),
            st.integers(0, 2),
            st.integers(0, 5),
        ),
        min_size=1,
        max_size=40,
    ),
    st.integers(0, 40),
)
def test_slices_of_partitions_merged_equal_the_slices_of_the_whole(rows, cut) -> None:
    """Split the rows anywhere: the merged slices equal the slices of all rows (and JSON)."""
    by = [r[0] for r in rows]
    actual = [r[1] for r in rows]
    predicted = [r[2] for r in rows]
    scores = [float(r[3]) for r in rows]

    def build(part: slice) -> Slices:
        return Slices.from_labels(
            by=np.array(by[part], dtype=object),
            actual=actual[part],
            predicted=predicted[part],
            scores=scores[part],
            positive=actual[0],
        )

    whole = build(slice(None))
    cut = min(cut, len(rows) - 1)
    if cut == 0 or actual[0] not in actual[:cut] or actual[0] not in actual[cut:]:
        return
    merged = build(slice(0, cut)) + build(slice(cut, None))
    assert merged == whole
    assert Slices.from_json(merged.to_json()) == whole


def test_merge_refuses_other_columns_and_json_refuses_bad_documents() -> None:
    """A merge of slices by other columns, and a document with a wrong field, are errors."""
    a = Slices.from_labels(by=["x"], actual=[1], predicted=[1], names=["g"])
    b = Slices.from_labels(by=["x"], actual=[1], predicted=[1], names=["h"])
    with pytest.raises(InputError, match="cannot merge slices by"):
        a + b
    document = a.to_dict()
    document["keys"] = [["y"], ["x"]]
    with pytest.raises(InputError):
        Slices.from_dict(document)


def test_small_slices_say_so_with_their_own_denominator() -> None:
    """A slice with 3 real positives flags recall with that count; an undefined value says why."""
    s = Slices.from_labels(
        by=["w"] * 10 + ["m"] * 60,
        actual=[1, 1, 1] + [0] * 7 + [1, 0] * 30,
        predicted=[1, 0, 1] + [0] * 7 + [1, 0] * 30,
    )
    result = evaluate_slices(s, positive=1)
    w = s.index("w")
    assert result.denominators["recall"][w] == 3
    assert result.flag("recall", w) == "recall: 3 real positives in slice 'w'"
    assert result.flag("recall", s.index("m")) is None
    assert result.bias_diagnosis(w) == "under-predicted ×0.67"


def test_true_is_not_one_in_keys_or_labels() -> None:
    """Slices keyed by True differ from slices keyed by 1 (labels keep their kind)."""
    by_bool = Slices.from_labels(by=[True, False], actual=[1, 0], predicted=[1, 0])
    by_int = Slices.from_labels(by=[1, 0], actual=[1, 0], predicted=[1, 0])
    assert by_bool != by_int
    assert by_bool == Slices.from_json(by_bool.to_json())


def test_a_polars_frame_with_missing_slice_values_is_sliced() -> None:
    """polars hands its strings to Arrow as string_view, which Arrow's `take` had no kernel
    for: a `by` column with a missing value raised ArrowNotImplementedError."""
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"g": ["a", None, "b", "a"], "y": [1, 0, 1, 1], "p": [1, 1, 0, 1]})
    found = Slices.from_frame(frame, by="g", actual="y", predicted="p")
    expected = Slices.from_labels(
        by=["a", None, "b", "a"], actual=[1, 0, 1, 1], predicted=[1, 1, 0, 1], names=["g"]
    )
    assert found == expected and found.rows.tolist() == [2, 1, 1]


def test_nan_in_a_float_by_column_is_the_missing_slice_in_arrow_and_polars_frames() -> None:
    """NaN in a float `by` column of a pyarrow Table or a polars DataFrame (kept as NaN, not
    null) is the slice "missing" with the nulls, as in a numpy column (the oracle); it was
    refused as a missing label."""
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    g = [1.5, float("nan"), 2.0, None, 1.5, float("nan")]
    rows = {"y": [1, 0, 1, 1, 0, 1], "p": [1, 0, 0, 1, 1, 1]}
    expected = Slices.from_labels(
        by=np.array([np.nan if v is None else v for v in g]),
        actual=rows["y"],
        predicted=rows["p"],
        names=["g"],
    )
    assert expected.keys == ((1.5,), (2.0,), (None,)) and expected.rows.tolist() == [2, 1, 3]
    arrow = pa.table({"g": pa.array(g, pa.float64()), **rows})
    frames = [arrow, pl.from_arrow(arrow), pl.from_arrow(arrow).lazy()]
    for frame in frames:
        assert Slices.from_frame(frame, by="g", actual="y", predicted="p") == expected
    crossed = Slices.from_frame(arrow, by=["g", "y"], actual="y", predicted="p")
    assert crossed.rows.sum() == 6 and (None, 1) in crossed.keys


def test_an_empty_slice_of_the_positive_label_has_no_data() -> None:
    """A slice whose rows all weigh 0 is an empty table: with positive= its one-vs-rest
    measures are undefined because there is no data, as without positive=, not because
    its first required margin (+R for recall, +P for precision) is empty."""
    from informed.measures import undefined_reason

    s = Slices.from_labels(
        by=["a", "a", "b", "b"], actual=[1, 0, 1, 0], predicted=[1, 0, 0, 1], weights=[1, 1, 0, 0]
    )
    for positive in (1, None):
        found = evaluate_slices(s, positive=positive)
        for name in ("recall", "precision", "inverse_recall", "markedness"):
            assert found.reason(name, 1) == "no data (N = 0)", (positive, name)
    # a non-empty table keeps the margin that vanished
    assert undefined_reason(MEASURES["recall"], [[0, 0], [0, 3]]) == (
        "no real positives (+R is empty)"
    )
    assert undefined_reason(MEASURES["precision"], [[0, 0], [2, 3]]) == "no +P predictions"
