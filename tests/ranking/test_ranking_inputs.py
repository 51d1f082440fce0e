"""Building a Ranking: grouping against a plain reference, bad inputs, JSON, merge, one-vs-rest."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.errors import InputError, InputTypeError
from informed.ranking import (
    Ranking,
    auc,
    hit_rate,
    largest_class,
    lift_table,
    smallest_class,
)


def reference_groups(
    scores: list[float], actual: list[bool]
) -> tuple[list[float], list[int], list[int]]:
    """Distinct scores descending (Python's == merges -0.0 and 0.0) with counts, by loops."""
    distinct = sorted(set(scores), reverse=True)
    positives = [
        sum(1 for s, y in zip(scores, actual, strict=True) if s == d and y) for d in distinct
    ]
    negatives = [
        sum(1 for s, y in zip(scores, actual, strict=True) if s == d and not y) for d in distinct
    ]
    return [d + 0.0 for d in distinct], positives, negatives


SCORE_VALUES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=True),
    st.sampled_from(
        [0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1.7976931348623157e308, math.inf, -math.inf]
    ),
)


@settings(max_examples=150, deadline=None)
@given(
    scores=st.lists(SCORE_VALUES, min_size=0, max_size=25),
    actual=st.lists(st.booleans(), min_size=25, max_size=25),
    sign=st.sampled_from([None, "positive", "negative"]),
)
def test_grouping_matches_reference(
    scores: list[float], actual: list[bool], sign: str | None
) -> None:
    """The packed-key sort groups exactly: signs, infinities, subnormals, -0.0 == 0.0."""
    if sign == "positive":
        scores = [abs(s) for s in scores]
    elif sign == "negative":
        scores = [-abs(s) for s in scores]
    actual = actual[: len(scores)]
    ranking = Ranking.from_scores(
        actual=actual, scores=scores, positive=True, negative=False, allow_infinite=True
    )
    expected_scores, expected_positives, expected_negatives = reference_groups(scores, actual)
    assert ranking.scores.tolist() == expected_scores
    assert not np.signbit(ranking.scores[ranking.scores == 0]).any()
    assert ranking.positives.tolist() == expected_positives
    assert ranking.negatives.tolist() == expected_negatives
    assert ranking.positives.dtype == np.int64
    weighted = Ranking.from_scores(
        actual=actual,
        scores=scores,
        positive=True,
        negative=False,
        weights=np.ones(len(scores)),
        allow_infinite=True,
    )
    assert weighted.scores.tolist() == expected_scores
    assert weighted.positives.tolist() == expected_positives


def test_minus_zero_and_zero_are_one_group() -> None:
    """RELIABILITY 2.B: -0.0 and 0.0 form one tie group, stored as 0.0, also after JSON."""
    ranking = Ranking.from_scores(actual=[1, 0, 1], scores=[-0.0, 0.0, -1.0], positive=1)
    assert ranking.scores.tolist() == [0.0, -1.0]
    assert ranking.positives.tolist() == [1, 1]
    assert "-0.0" not in ranking.to_json()


def test_scores_one_ulp_apart_stay_distinct() -> None:
    """No tolerance merges scores (scikit-learn #3864): 1e-10 and adjacent floats differ.

    Each positive sits just above one negative: 3 of the 4 pairs are won, none tied.
    """
    tiny = [1e-10, 0.0, np.nextafter(1.0, 2.0), 1.0]
    ranking = Ranking.from_scores(actual=[1, 0, 1, 0], scores=tiny, positive=1)
    assert ranking.n_groups == 4
    assert auc(ranking) == 0.75
    assert auc(Ranking.from_scores(actual=[1, 0], scores=[1e-10, 0.0], positive=1)) == 1.0


@pytest.mark.parametrize(
    "dtype", [np.float16, np.float32, np.float64, np.int8, np.int64, np.uint16, bool]
)
def test_score_dtypes_give_the_same_ranking(dtype: Any) -> None:
    """Order-equivalent scores of any numeric dtype give the same counts (RELIABILITY P55)."""
    rng = np.random.default_rng(3)
    values = rng.integers(0, 2 if dtype is bool else 50, 500)
    actual = rng.random(500) < 0.4
    ranking = Ranking.from_scores(actual=actual, scores=values.astype(dtype), positive=True)
    expected = Ranking.from_scores(actual=actual, scores=values.astype(np.float64), positive=True)
    assert ranking == expected


def test_unpackable_scores_fall_back_exactly() -> None:
    """Mixed signs spanning 1e308 to subnormals cannot be scaled exactly: the argsort path."""
    scores = [-1e308, 5e-324, 1e-310, 0.0, -0.0, 1e308, 5e-324, -1e308]
    actual = [1, 0, 1, 1, 0, 0, 1, 0]
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    expected = reference_groups(scores, [bool(a) for a in actual])
    assert (
        ranking.scores.tolist(),
        ranking.positives.tolist(),
        ranking.negatives.tolist(),
    ) == expected


def test_counts_stay_exact_beyond_float32() -> None:
    """RELIABILITY P59: 2**24 + 10 rows with float32 scores give exact integer counts."""
    n = 2**24 + 10
    scores = np.zeros(n, dtype=np.float32)
    scores[:10] = 1.0
    actual = np.zeros(n, dtype=bool)
    actual[::2] = True
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    assert ranking.positives.tolist() == [5, n // 2 - 5]
    assert ranking.negatives.tolist() == [5, n // 2 - 5]
    assert ranking.n == n


# -- bad inputs: each message names the row and the value --------------------------------


def raises(error: type[Exception], pattern: str) -> Any:
    return pytest.raises(error, match=pattern)


def test_nan_score_names_the_row() -> None:
    with raises(InputError, r"`scores` must be finite; row 3 \(index 2\) holds nan"):
        Ranking.from_scores(actual=[1, 0, 1], scores=[0.1, 0.2, math.nan], positive=1)


def test_infinite_score_names_the_row_and_the_opt_in() -> None:
    with raises(InputError, r"row 2 \(index 1\) holds -inf\. Pass `allow_infinite=True`"):
        Ranking.from_scores(actual=[1, 0], scores=[0.1, -math.inf], positive=1)
    ranking = Ranking.from_scores(
        actual=[1, 0], scores=[0.1, -math.inf], positive=1, allow_infinite=True
    )
    assert ranking.scores.tolist() == [0.1, -math.inf]
    with raises(InputError, r"row 1 \(index 0\) holds nan"):
        Ranking.from_scores(actual=[1, 0], scores=[math.nan, 1], positive=1, allow_infinite=True)


def test_third_label_names_the_row_and_lists_the_labels() -> None:
    with raises(
        InputError, r"row 4 \(index 3\) holds 'maybe' besides 'no'\. Found \['maybe', 'no', 'yes'\]"
    ):
        Ranking.from_scores(
            actual=["yes", "no", "yes", "maybe"], scores=[1, 2, 3, 4], positive="yes"
        )


def test_positive_not_found_lists_the_labels() -> None:
    with raises(InputError, r"positive='1' does not occur in `actual`, which holds \[0, 1\]"):
        Ranking.from_scores(actual=[0, 1, 1], scores=[1, 2, 3], positive="1")


def test_label_outside_positive_and_negative_names_the_row() -> None:
    with raises(
        InputError, r"row 2 \(index 1\) holds 2, which is neither positive=1 nor negative=0"
    ):
        Ranking.from_scores(actual=[1, 2], scores=[1, 2], positive=1, negative=0)
    with raises(InputError, r"must differ"):
        Ranking.from_scores(actual=[1], scores=[1], positive=1, negative=1)


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.float64, np.bool_, np.str_])
def test_labels_counted_by_blocks_agree_with_the_rows(dtype: type) -> None:
    """The labels of a typed array are checked by counting (block by block, past the
    first block of 65,536 rows): a third label in the last row is still found and named,
    with and without `negative=`, and two labels give the counts of the rows."""
    rows = 70_001
    codes = np.arange(rows) % 3 == 0
    labels = codes.astype(np.int64).astype(dtype) if dtype is not np.bool_ else codes
    positive, negative = labels[0].item(), labels[1].item()
    scores = np.arange(rows, dtype=np.float64)
    for options in ({}, {"negative": negative}):
        ranking = Ranking.from_scores(labels, scores, positive=positive, **options)
        assert (ranking.n_positive, ranking.n_negative) == (23_334, 46_667)
    if dtype is np.bool_:
        return
    third = labels.copy()
    third[-1] = np.array(2).astype(dtype)
    shown = repr(third[-1].item())
    with raises(InputError, rf"row 70001 \(index 70000\) holds {shown} besides"):
        Ranking.from_scores(third, scores, positive=positive)
    with raises(InputError, rf"row 70001 \(index 70000\) holds {shown}, which is neither"):
        Ranking.from_scores(third, scores, positive=positive, negative=negative)


def test_labels_whose_first_other_row_is_far_are_counted_from_it() -> None:
    """The first row that is not positive is looked for before the one read that makes
    the mask and counts the rows equal to it: past the first block, the other label is
    still the one seen first, and a third label after it is named."""
    rows = 70_010
    labels = np.ones(rows, dtype=np.int64)
    labels[70_000:] = 7
    scores = np.arange(rows, dtype=np.float64)
    ranking = Ranking.from_scores(labels, scores, positive=1)
    assert (ranking.n_positive, ranking.n_negative, ranking.negative) == (70_000, 10, 7)
    labels[-1] = 8
    with raises(InputError, r"row 70010 \(index 70009\) holds 8 besides 7"):
        Ranking.from_scores(labels, scores, positive=1)
    everything = Ranking.from_scores(np.ones(rows, dtype=np.int64), scores, positive=1)
    assert (everything.n_positive, everything.negative) == (rows, None)


def test_negative_given_allows_a_chunk_without_positives() -> None:
    ranking = Ranking.from_scores(actual=[0, 0], scores=[1, 2], positive=1, negative=0)
    assert ranking.n_positive == 0
    assert math.isnan(auc(ranking))


def test_nan_label_names_the_row() -> None:
    with raises(InputError, r"`actual` has a missing value \(nan\) at row 2 \(index 1\)"):
        Ranking.from_scores(actual=[1.0, math.nan], scores=[1, 2], positive=1.0)
    with raises(InputError, r"`actual` has a missing value \(None\) at row 1 \(index 0\)"):
        Ranking.from_scores(actual=np.array([None, "a"], dtype=object), scores=[1, 2], positive="a")


def test_length_mismatch_lists_the_lengths() -> None:
    with raises(InputError, r"inconsistent numbers of samples: actual 3, scores 2"):
        Ranking.from_scores(actual=[1, 0, 1], scores=[1, 2], positive=1)
    with raises(InputError, r"actual 2, scores 2, weights 3"):
        Ranking.from_scores(actual=[1, 0], scores=[1, 2], positive=1, weights=[1, 1, 1])


@pytest.mark.parametrize(
    ("weight", "shown"), [(-1.0, r"-1\.0"), (math.nan, "nan"), (math.inf, "inf")]
)
def test_bad_weight_names_the_row(weight: float, shown: str) -> None:
    with raises(
        InputError, rf"`weights` must be finite and non-negative; row 2 \(index 1\) holds {shown}"
    ):
        Ranking.from_scores(actual=[1, 0], scores=[1, 2], positive=1, weights=[1.0, weight])


def test_row_vector_is_refused_and_column_accepted() -> None:
    with raises(
        InputError, r"`scores` must be one-dimensional .* got shape \(1, 3\) \(a row vector"
    ):
        Ranking.from_scores(actual=[1, 0, 1], scores=np.array([[0.1, 0.2, 0.3]]), positive=1)
    column = Ranking.from_scores(
        actual=[1, 0, 1], scores=np.array([[0.1], [0.2], [0.3]]), positive=1
    )
    assert column == Ranking.from_scores(actual=[1, 0, 1], scores=[0.1, 0.2, 0.3], positive=1)


@pytest.mark.parametrize(
    ("argument", "value", "pattern"),
    [
        ("actual", "abc", r"`actual` must be an array-like .* the bare string 'abc'"),
        ("scores", "0.5", r"`scores` must be an array-like .* the bare string '0.5'"),
        ("actual", {1, 0}, r"`actual` must be an ordered array-like .* set"),
        ("scores", 0.5, r"`scores` must be an array-like .* got float 0.5"),
        ("scores", ["a", "b"], r"`scores` must hold real numbers; got dtype <U1"),
        ("scores", np.array([1 + 2j, 3]), r"`scores` must hold real numbers; got dtype complex128"),
        ("actual", [1, "1"], r"`actual` mixes label kinds \['number', 'str'\]"),
        ("actual", ["1", True], r"`actual` mixes label kinds \['bool', 'str'\]"),
    ],
)
def test_wrong_types(argument: str, value: Any, pattern: str) -> None:
    inputs: dict[str, Any] = {"actual": ["1", "0"], "scores": [0.1, 0.2], "positive": "1"}
    inputs[argument] = value
    with raises(InputTypeError, pattern):
        Ranking.from_scores(**inputs)


def test_huge_integer_scores_are_refused() -> None:
    with raises(InputError, r"row 2 \(index 1\) holds .*beyond 2\*\*53"):
        Ranking.from_scores(actual=[1, 0], scores=np.array([1, 2**60], dtype=np.int64), positive=1)


def test_counts_given_directly_are_checked() -> None:
    with raises(InputError, r"strictly descending; group 1 holds 0\.5 after 0\.5"):
        Ranking(scores=[0.5, 0.5], positives=[1, 0], negatives=[0, 1])
    with raises(InputError, r"`negatives` must be finite and non-negative; group 0 holds -1"):
        Ranking(scores=[0.5], positives=[1], negatives=[-1])
    with raises(InputError, r"Group 1 \(score 0\.1\) has no positives and no negatives"):
        Ranking(scores=[0.5, 0.1], positives=[1, 0], negatives=[0, 0])
    with raises(InputError, r"must not be NaN; group 0"):
        Ranking(scores=[math.nan], positives=[1], negatives=[0])
    with raises(InputError, r"one entry per group"):
        Ranking(scores=[0.5], positives=[1, 2], negatives=[0])
    direct = Ranking(scores=[0.9, -0.0], positives=[1, 0], negatives=[0, 2], positive=1, negative=0)
    assert direct == Ranking.from_scores(actual=[1, 0, 0], scores=[0.9, 0.0, 0.0], positive=1)
    assert not direct.weighted
    assert Ranking(scores=[0.9], positives=[1.0], negatives=[0]).weighted


def test_rankings_are_frozen_and_read_only() -> None:
    ranking = Ranking.from_scores(actual=[1, 0], scores=[1, 2], positive=1)
    with pytest.raises(ValueError, match="read-only"):
        ranking.positives[0] = 5
    with pytest.raises(AttributeError):
        ranking.scores = np.zeros(2)  # type: ignore[misc]


def test_inputs_are_not_mutated() -> None:
    """RELIABILITY P05: the caller's arrays are left as they were."""
    scores = np.array([0.3, -0.0, 0.3, 0.1])
    actual = np.array([1, 0, 0, 1])
    weights = np.array([1.0, 0.0, 2.0, 1.0])
    copies = scores.copy(), actual.copy(), weights.copy()
    Ranking.from_scores(actual=actual, scores=scores, positive=1)
    Ranking.from_scores(actual=actual, scores=scores, positive=1, weights=weights)
    for before, after in zip(copies, (scores, actual, weights), strict=True):
        assert before.tobytes() == after.tobytes()


# -- JSON and merge ----------------------------------------------------------------------


def test_json_encodes_infinity_explicitly() -> None:
    ranking = Ranking.from_scores(
        actual=[1, 0], scores=[math.inf, -math.inf], positive=1, allow_infinite=True
    )
    data = json.loads(ranking.to_json())
    assert data["scores"] == ["Infinity", "-Infinity"]
    assert Ranking.from_json(ranking.to_json()) == ranking


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [
        ({"kind": "informed.Table"}, r"Not a Ranking document"),
        ({"schema_version": 3}, r"Unsupported Ranking schema_version 3"),
        ({"schema_version": True}, r"Unsupported Ranking schema_version True"),
        ({"scores": [0.5, "NaN"]}, r"`scores` entry 1 must be a number"),
        ({"positives": [1, 1.5]}, r"`positives` entry 1 must be an integer"),
        ({"weighted": "no"}, r"`weighted` must be true or false"),
        ({"scores": [0.1, 0.5]}, r"strictly descending"),
        ({"extra": 1}, r"exactly the keys"),
    ],
)
def test_json_is_validated(edit: dict[str, Any], pattern: str) -> None:
    document = Ranking.from_scores(actual=[1, 0, 1], scores=[0.5, 0.1, 0.1], positive=1).to_dict()
    document.update(edit)
    with pytest.raises((InputError, InputTypeError), match=pattern):
        Ranking.from_dict(document)


def test_json_rejects_nan_tokens_and_garbage() -> None:
    text = '{"kind":"informed.Ranking","schema_version":1,"weighted":true,"scores":[NaN],"positives":[1.0],"negatives":[0.0]}'
    with raises(InputError, r"`scores` entry 0 must be a number"):
        Ranking.from_json(text)
    with raises(InputError, r"Not valid JSON"):
        Ranking.from_json("{")


def test_merge_refuses_mixed_weight_modes() -> None:
    counts = Ranking.from_scores(actual=[1, 0], scores=[1, 2], positive=1)
    weights = Ranking.from_scores(actual=[1, 0], scores=[1, 2], positive=1, weights=[1, 1])
    with raises(InputError, r"Cannot merge a Ranking of float weights with one of integer counts"):
        _ = counts + weights
    assert counts != weights
    assert counts == Ranking.from_scores(actual=[0, 1], scores=[2, 1], positive=1)
    assert hash(counts) == hash(Ranking.from_scores(actual=[0, 1], scores=[2, 1], positive=1))


def test_merge_identity_and_exact_counts() -> None:
    """The empty Ranking is the identity; counts near 2**62 add exactly (no float detour)."""
    big = Ranking(scores=[1.0, 0.0], positives=[2**61, 0], negatives=[0, 2**61])
    assert big + Ranking.empty() == big
    assert (big + big).positives.tolist() == [2**62, 0]
    assert auc(big) == 1.0


# -- one-vs-rest ---------------------------------------------------------------------------


def test_one_vs_rest_equals_binary_rankings() -> None:
    """Each class's Ranking is its column against a 0/1 outcome."""
    rng = np.random.default_rng(5)
    classes = ["cat", "dog", "owl"]
    actual = rng.choice(classes, 200, p=[0.5, 0.35, 0.15])
    scores = np.round(rng.dirichlet([1, 1, 1], 200), 2)
    weights = rng.integers(0, 3, 200)
    rankings = Ranking.one_vs_rest(actual=actual, scores=scores, classes=classes, weights=weights)
    assert list(rankings) == classes
    for k, label in enumerate(classes):
        expected = Ranking.from_scores(
            actual=actual == label,
            scores=scores[:, k],
            positive=True,
            negative=False,
            weights=weights,
        )
        assert rankings[label] == expected.with_classes(label)
    assert smallest_class(rankings) == "owl"
    assert largest_class(rankings) == "cat"


def test_one_vs_rest_errors_name_row_and_column() -> None:
    scores = [[0.5, 0.5], [0.2, math.nan]]
    with raises(InputError, r"row 2 \(index 1\), column 1 \(class 'b'\) holds nan"):
        Ranking.one_vs_rest(actual=["a", "b"], scores=scores, classes=["a", "b"])
    with raises(InputError, r"`actual` row 2 \(index 1\) holds 'c', which is not among `classes`"):
        Ranking.one_vs_rest(actual=["a", "c"], scores=[[1, 0], [0, 1]], classes=["a", "b"])
    with raises(InputError, r"has 2 columns but `classes` names 3"):
        Ranking.one_vs_rest(actual=["a", "b"], scores=[[1, 0], [0, 1]], classes=["a", "b", "c"])
    with raises(InputError, r"`classes` must be distinct; 'a' appears twice"):
        Ranking.one_vs_rest(actual=["a", "b"], scores=[[1, 0], [0, 1]], classes=["a", "a"])
    with raises(InputError, r"inconsistent numbers of samples: actual 3, scores 2"):
        Ranking.one_vs_rest(actual=["a", "b", "a"], scores=[[1, 0], [0, 1]], classes=["a", "b"])


def test_smallest_class_skips_absent_classes_and_breaks_ties_by_order() -> None:
    rankings = Ranking.one_vs_rest(
        actual=["a", "b", "b", "c"], scores=np.eye(4)[:, :4], classes=["a", "b", "c", "d"]
    )
    assert smallest_class(rankings) == "a"  # "d" has no instance; "a" and "c" tie
    assert largest_class(rankings) == "b"
    with raises(InputError, r"No class has an actual instance"):
        smallest_class({"x": Ranking.empty()})


def test_empty_input_gives_an_empty_ranking() -> None:
    """RELIABILITY 2.D: no rows is an empty summary whose measures are NaN."""
    ranking = Ranking.from_scores(actual=[], scores=[], positive=1, negative=0)
    assert ranking == Ranking.empty(positive=1, negative=0)
    assert math.isnan(auc(ranking))
    assert math.isnan(hit_rate(ranking, 0))
    assert np.isnan(lift_table(ranking).lift).all()
    assert re.search(r"0 groups", repr(ranking))
