"""Coding label columns by hashing: every route (pyarrow's hash, numpy's exact keys, the
verified FNV hash, the value-by-value loop) gives the labels a brute-force count gives,
and bad values are named by the same messages whichever route a column takes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import informed.coding.columns
from informed import Table
from informed.coding.labels import code_column
from informed.errors import InputError, InputTypeError

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

# no NUL and no surrogate: such text is refused as a label (tests/core/test_label_text.py)
TEXT = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12
)
MISSING = "`actual` has a missing value"
INTS = st.integers(min_value=-(2**62), max_value=2**62)


def _decoded(values: Any, arrow: bool) -> list[Any]:
    informed.coding.columns.ARROW_DISABLED = not arrow
    try:
        coded = code_column(values, "actual")
    finally:
        informed.coding.columns.ARROW_DISABLED = False
    return [coded.labels[int(c)] for c in coded.codes]


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(st.sampled_from(["a", "bb", "ünï", "x" * 30]) | TEXT, min_size=1, max_size=40)
)
def test_strings_decode_to_themselves(words: list[str]) -> None:
    for arrow in (True, False):
        for form in (np.array(words, dtype=str), np.array(words, dtype=object), words):
            assert _decoded(form, arrow) == words


@settings(max_examples=150, deadline=None)
@given(numbers=st.lists(INTS, min_size=1, max_size=40))
def test_integers_decode_to_themselves(numbers: list[int]) -> None:
    for arrow in (True, False):
        decoded = _decoded(np.array(numbers, dtype=np.int64), arrow)
        assert decoded == numbers and all(type(x) is int for x in decoded)


@settings(max_examples=100, deadline=None)
@given(
    numbers=st.lists(
        st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, -0.0]),
        min_size=1,
        max_size=30,
    )
)
def test_floats_decode_to_equal_values_and_zero_is_one_label(numbers: list[float]) -> None:
    for arrow in (True, False):
        decoded = _decoded(np.array(numbers), arrow)
        assert decoded == numbers  # -0.0 == 0.0
        zeros = {np.signbit(x) for x in decoded if x == 0}
        assert len(zeros) <= 1


@settings(max_examples=100, deadline=None)
@given(pairs=st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("abcdf")), min_size=1))
def test_table_counts_are_the_brute_force_counts(pairs: list[tuple[str, str]]) -> None:
    actual = [a for a, _ in pairs]
    predicted = [p for _, p in pairs]
    cells = Counter(zip(predicted, actual, strict=True))
    for arrow in (True, False):
        informed.coding.columns.ARROW_DISABLED = not arrow
        try:
            table = Table.from_labels(actual=pd.Categorical(actual), predicted=np.array(predicted))
        finally:
            informed.coding.columns.ARROW_DISABLED = False
        assert list(table.predicted) == sorted(set(predicted))
        assert list(table.actual) == sorted(set(actual))
        assert table.counts.tolist() == [
            [cells[(r, c)] for c in table.actual] for r in table.predicted
        ]


def test_long_strings_take_the_verified_hash_and_collisions_fall_back() -> None:
    """Strings too long for an exact 64-bit key are hashed, then checked row by row."""
    words = np.array([f"a long label number {i % 7}" for i in range(100)])
    assert _decoded(words, False) == words.tolist()


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: pa.array(["a", None, "b"]), InputError, rf"{MISSING} \(None\) at row 2"),
        (
            lambda: pd.Series(["a", "b", None], dtype="category"),
            InputError,
            rf"{MISSING} \(nan\) at row 3 \(index 2\)",
        ),
        (lambda: pl.Series(["a", None]), InputError, rf"{MISSING} \(None\) at row 2 \(index 1\)"),
        (lambda: np.array(["a", None], dtype=object), InputError, r"row 2 \(index 1\)"),
        (lambda: np.array(["a", 1], dtype=object), InputTypeError, "mixes label kinds"),
        (lambda: np.array([True, 1], dtype=object), InputTypeError, "mixes label kinds"),
        (lambda: pd.Categorical([1, "a"]), InputTypeError, "mixes label kinds"),
        (lambda: np.array([1.0, np.inf]), InputError, r"holds inf at row 2 \(index 1\)"),
        (lambda: pa.array([b"x"]), InputTypeError, "got b'x'"),
    ],
)
def test_bad_values_are_named_on_every_route(
    make: Any, error: type[Exception], message: str, arrow: bool
) -> None:
    informed.coding.columns.ARROW_DISABLED = not arrow
    try:
        with pytest.raises(error, match=message):
            code_column(make(), "actual")
    finally:
        informed.coding.columns.ARROW_DISABLED = False


def test_frames_name_a_missing_column() -> None:
    frame = pd.DataFrame({"y": [1, 2], "p": [1, 1]})
    with pytest.raises(
        InputError, match=r"`predicted`: the frame has no column 'q'; its columns are \['y', 'p'\]"
    ):
        Table.from_frame(frame, actual="y", predicted="q")
    with pytest.raises(InputTypeError, match="expected a DataFrame"):
        Table.from_frame([1, 2], actual="y", predicted="p")


def test_uint64_labels_beyond_int64_keep_their_values() -> None:
    """Offsets are taken in the array's own type: 2**63 + 5 does not wrap to a negative."""
    big = np.array([2**63 + 5, 2**63 + 6, 2**63 + 5], dtype=np.uint64)
    table = Table.from_labels(actual=big, predicted=big)
    assert table.actual == (2**63 + 5, 2**63 + 6)
    assert table.counts.tolist() == [[2, 0], [0, 1]]
