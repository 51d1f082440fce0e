"""What text can be a label, and one wording for a missing label, on every route.

A str label holding NUL (U+0000) or a surrogate code point (U+D800 to U+DFFF) is refused
with a message naming the row and the column: numpy's fixed-width strings drop a trailing
NUL (so "a\\0" and "a" were merged on some routes and kept apart on others), and JSON
reads two lone surrogates back as one character. A missing value (None, NaN, pd.NA, NaT,
an Arrow or polars null) is "a missing value" whatever its form.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import informed.coding.columns
from informed import Ranking, Table, Tally
from informed.errors import InputError
from informed.io import read_summaries
from informed.io.coverage import Summaries
from informed.io.jsonl import read_jsonl

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

NUL = "a\x00"  # "a" followed by NUL: numpy's <U arrays cannot even hold it
SURROGATES = ["\ud83d", "\ude00"]  # the two halves of U+1F600, each alone

# every in-memory form a column of str labels may take
ROUTES: dict[str, Callable[[list[str]], Any]] = {
    "list": lambda values: values,
    "object array": lambda values: np.array(values, dtype=object),
    "pandas object": lambda values: pd.Series(values, dtype=object),
    "pandas category": lambda values: pd.Series(values, dtype="category"),
    "pyarrow": lambda values: pa.array(values),
    "pyarrow dictionary": lambda values: pa.array(values).dictionary_encode(),
    "polars": lambda values: pl.Series(values),
    "polars categorical": lambda values: pl.Series(values, dtype=pl.Categorical),
}
# the routes that can hold a surrogate (Arrow and polars strings are UTF-8, and pandas'
# Categorical cannot hash one)
UNICODE_ROUTES = ["list", "object array", "pandas object"]


def _with_arrow(arrow: bool, make: Callable[[], Any]) -> Any:
    informed.coding.columns.ARROW_DISABLED = not arrow
    try:
        return make()
    finally:
        informed.coding.columns.ARROW_DISABLED = False


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("side", ["actual", "predicted"])
def test_a_trailing_nul_is_refused_naming_row_and_column(
    route: str, side: str, arrow: bool
) -> None:
    """The issue's data (actual a\\0 and b, predicted a and b) is refused on every route,
    where it used to give a 2x2 table of informedness 1 listing 'a\\x00' and 'a' apart."""
    columns = {"actual": ["b", NUL, "b"], "predicted": ["b", "a", "b"]}
    if side == "predicted":
        columns = {"actual": columns["predicted"], "predicted": columns["actual"]}
    make = ROUTES[route]
    with pytest.raises(InputError, match=rf"`{side}` holds 'a\\x00' at row 2 \(index 1\), which"):
        _with_arrow(
            arrow,
            lambda: Table.from_labels(
                actual=make(columns["actual"]), predicted=make(columns["predicted"])
            ),
        )


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("text", ["a\x00b", "\x00b", "\ud83d", "x\udfff"])
def test_numpy_str_arrays_refuse_nul_inside_and_surrogates(text: str, arrow: bool) -> None:
    """A <U array keeps a NUL that is not trailing, and any surrogate: both are refused."""
    values = np.array(["b", text])
    assert values[1] == text  # numpy kept it
    with pytest.raises(InputError, match=r"`actual` holds .* at row 2 \(index 1\), which cannot"):
        _with_arrow(arrow, lambda: Table.from_labels(actual=values, predicted=values))


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("route", UNICODE_ROUTES)
def test_lone_surrogates_are_refused_when_the_table_is_made(route: str, arrow: bool) -> None:
    """Two lone surrogates were written to JSON and read back as one emoji (and a table
    holding both could not be read back): now no table holds one."""
    values = ROUTES[route](["b", *SURROGATES])
    with pytest.raises(InputError, match=r"row 2 \(index 1\), which cannot be a label: it holds"):
        _with_arrow(arrow, lambda: Table.from_labels(actual=values, predicted=values))


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.text(st.characters() | st.sampled_from(["\x00", *SURROGATES]), max_size=4),
        min_size=1,
        max_size=6,
    ),
    route=st.sampled_from(UNICODE_ROUTES),
)
def test_a_table_is_made_exactly_when_json_can_hold_its_labels(
    words: list[str], route: str
) -> None:
    """Any text: either every label survives JSON exactly, or the table is refused."""
    clean = all("\x00" not in w and not any(0xD800 <= ord(c) <= 0xDFFF for c in w) for w in words)
    if not clean:
        with pytest.raises(InputError, match="cannot be a label"):
            Table.from_labels(actual=ROUTES[route](words), predicted=ROUTES[route](words))
        return
    table = Table.from_labels(actual=ROUTES[route](words), predicted=ROUTES[route](words))
    assert set(table.labels) == set(words)
    assert Table.from_json(table.to_json()) == table


def test_label_lists_and_json_documents_are_checked_too() -> None:
    """Labels given directly (from_counts, Table(), a Table's or Summaries' JSON) follow
    the rule: no Table holds a label its JSON could not give back."""
    with pytest.raises(InputError, match=r"`predicted`, label 2: 'a\\x00' cannot be a label"):
        Table.from_counts(
            [[1, 0], [0, 1]], rows="predicted", predicted=["b", NUL], actual=["a", "b"]
        )
    document = json.loads(Table.from_labels(actual=["a", "b"], predicted=["a", "b"]).to_json())
    document["actual"] = ["\ud83d", "b"]
    with pytest.raises(InputError, match=r"`actual`, label 1: '\\ud83d' cannot be a label"):
        Table.from_dict(document)
    with pytest.raises(InputError, match=r"`actual`, label 2: '\\ude00' cannot be a label"):
        Table([[1, 0], [0, 1]], predicted=["a", "b"], actual=["a", "\ude00"])
    table = Table.from_labels(actual=["a", "b"], predicted=["a", "b"])
    found = Summaries(2, table, None, table.labels, 2, frozenset({"part"}))
    summary = json.loads(found.to_json())
    summary["labels"] = ["a", "a\x00", "b"]
    with pytest.raises(InputError, match="'a\\\\x00' cannot be a label"):
        Summaries.from_dict(summary)


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_files_refuse_nul_naming_file_data_row_and_column(
    tmp_path: Path, fmt: str, arrow: bool
) -> None:
    """CSV (pyarrow's route and the standard reader's) and Parquet name the file's row."""
    path = tmp_path / f"x.{fmt}"
    if fmt == "csv":
        path.write_text("y,p\nb,b\na\x00,a\nb,b\n", encoding="utf-8")
    else:
        pq.write_table(pa.table({"y": ["b", NUL, "b"], "p": ["b", "a", "b"]}), path)
    with pytest.raises(InputError, match=r"`y` holds 'a\\x00' at .*x\.\w+ data row 2, which"):
        _with_arrow(arrow, lambda: read_summaries(path, actual="y", predicted="p"))


def test_tally_category_names_follow_the_same_rule(tmp_path: Path) -> None:
    """Declared categories, a document's categories, JSON lines and a Tally's JSON."""
    with pytest.raises(InputError, match=r"`categories` holds 'a\\x00', which cannot be a cat"):
        Tally(categories=["b", NUL])
    tally = Tally(categories=["b"])
    with pytest.raises(InputError, match=r"document 0: `assigned` holds '\\ud83d', which"):
        tally.add_result(["\ud83d"], ["b"])
    path = tmp_path / "docs.jsonl"
    path.write_text('{"assigned": ["a\\u0000"], "correct": ["b"]}\n', encoding="utf-8")
    with pytest.raises(InputError, match="NUL character"):
        read_jsonl(path)
    text = Tally(categories=["x", "y"]).to_json().replace('"x"', '"\\ud83d"')
    with pytest.raises(InputError, match="lone surrogate U\\+D83D"):
        Tally.from_json(text)


# ---------------------------------------------------------------- missing values
STRS, INTS, FLOATS = ["a"] * 3, [1] * 3, [1.0] * 3
# a column with a missing value in row 2, and a column of the same kind to count it with
MISSING: dict[str, tuple[Callable[[], Any], list[Any]]] = {
    "list None": (lambda: ["a", None, "a"], STRS),
    "list nan": (lambda: [1.0, math.nan, 1.0], FLOATS),
    "float array nan": (lambda: np.array([1.0, np.nan, 1.0]), FLOATS),
    "object array None": (lambda: np.array(["a", None, "a"], dtype=object), STRS),
    "pandas object None": (lambda: pd.Series(["a", None, "a"]), STRS),
    "pandas Int64 NA": (lambda: pd.Series([1, None, 1], dtype="Int64"), INTS),
    "pandas string NA": (lambda: pd.Series(["a", pd.NA, "a"], dtype="string"), STRS),
    "pandas float nan": (lambda: pd.Series([1.0, np.nan, 1.0]), FLOATS),
    "pandas NaT": (lambda: pd.Series(["a", pd.NaT, "a"], dtype=object), STRS),
    "pandas category nan": (lambda: pd.Series(["a", None, "a"], dtype="category"), STRS),
    "numpy NaT": (lambda: np.array(["a", np.datetime64("NaT"), "a"], dtype=object), STRS),
    "pyarrow null": (lambda: pa.array(["a", None, "a"]), STRS),
    "pyarrow int null": (lambda: pa.array([1, None, 1]), INTS),
    "pyarrow dictionary null": (lambda: pa.array(["a", None, "a"]).dictionary_encode(), STRS),
    "polars null": (lambda: pl.Series(["a", None, "a"]), STRS),
    "polars int null": (lambda: pl.Series([1, None, 1]), INTS),
}


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("form", sorted(MISSING))
def test_every_missing_value_is_missing_with_its_row_and_column(form: str, arrow: bool) -> None:
    """pandas' Int64 <NA> said "holds nan ... must be finite", None "must be a str": now
    every missing value is one InputError, "a missing value", naming row and column."""
    make, other = MISSING[form]
    with pytest.raises(
        InputError, match=r"^`predicted` has a missing value \(.+\) at row 2 \(index 1\); every"
    ):
        _with_arrow(arrow, lambda: Table.from_labels(actual=other, predicted=make()))


@pytest.mark.parametrize("form", sorted(MISSING))
def test_a_rankings_missing_labels_have_the_same_wording(form: str) -> None:
    """Ranking.from_scores: pd.NA raised numpy's "boolean value of NA is ambiguous" and
    ["a", None] said None was a 'number'; now the one wording, naming the row."""
    make, other = MISSING[form]
    with pytest.raises(
        InputError, match=r"^`actual` has a missing value \(.+\) at row 2 \(index 1\); every"
    ):
        Ranking.from_scores(actual=make(), scores=[0.1, 0.2, 0.3], positive=other[0])


@pytest.mark.parametrize("route", ["list", "object array", "pandas object", "polars", "pyarrow"])
def test_a_ranking_refuses_nul_where_it_merged_or_kept_it(route: str) -> None:
    """From a list (or polars) 'a\\0' became 'a' and was counted positive: n+ was 2."""
    actual = ROUTES[route]([NUL, "a", "b"])
    with pytest.raises(InputError, match=r"holds 'a\\x00' at row 1 \(index 0\), which cannot be a"):
        Ranking.from_scores(actual=actual, scores=[0.1, 0.2, 0.3], positive="a")
    for name in ("positive", "negative"):
        options = {"positive": "a", "negative": "b", name: "\ud83d"}
        with pytest.raises(InputError, match=rf"{name}='\\ud83d' cannot be a label: it holds"):
            Ranking.from_scores(actual=["a", "b"], scores=[1, 2], **options)
