"""Lazy frames: a polars LazyFrame is collected with just the named columns (it raised
polars' own TypeError after two warnings); an engine's lazy frame is refused with the
call that hands its rows over."""

from __future__ import annotations

import warnings

import pytest

from informed import Ranking, Table
from informed.errors import InputError
from informed.io import summarise_frame
from informed.io.tallies import summarise_documents

pl = pytest.importorskip("polars")


def test_a_polars_lazyframe_is_collected_with_just_the_named_columns() -> None:
    """Table.from_frame, Ranking.from_frame and summarise_frame read a LazyFrame (they
    raised polars' own TypeError after two warnings) and equal the eager result."""
    eager = pl.DataFrame(
        {
            "y": ["a", "b", "b", "a"],
            "p": ["a", "b", "a", "a"],
            "s": [0.9, 0.2, 0.4, 0.8],
            "w": [1.0, 2.0, 0.5, 1.0],
            "unused": [object()] * 4,
        }
    )
    lazy = eager.lazy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = Table.from_frame(lazy, actual="y", predicted="p", weights="w")
        ranking = Ranking.from_frame(lazy, actual="y", score="s", positive="a", weights="w")
        found = summarise_frame(
            lazy, part="x", actual="y", predicted="p", score="s", weight="w", positive="a"
        )
    assert table == Table.from_frame(eager, actual="y", predicted="p", weights="w")
    assert ranking == Ranking.from_frame(eager, actual="y", score="s", positive="a", weights="w")
    assert found.table == table and found.ranking == ranking.with_classes("a") and found.rows == 4
    with pytest.raises(InputError, match=r"`predicted`: the frame has no column 'q'; its col"):
        Table.from_frame(lazy, actual="y", predicted="q")
    documents = pl.LazyFrame({"assigned": [["x"], []], "correct": [["x"], ["y"]]})
    tallied = summarise_documents(documents, part="d", categories=["x", "y"])
    assert tallied.tally is not None and tallied.tally.micro("recall") == 0.5


@pytest.mark.parametrize(
    ("module", "name", "hint"),
    [
        ("duckdb", "DuckDBPyRelation", r"a DuckDB relation; pass `relation\.arrow\(\)`"),
        ("_duckdb", "DuckDBPyRelation", r"a DuckDB relation"),
        ("pyspark.sql.dataframe", "DataFrame", r"a Spark DataFrame; pass `df\.select"),
        ("pyspark.sql.connect.dataframe", "DataFrame", r"a Spark DataFrame"),
    ],
)
def test_lazy_frames_of_other_engines_are_refused_with_the_way_in(
    module: str, name: str, hint: str
) -> None:
    """An engine's lazy frame (recognised by its class, as informed recognises pandas and
    polars: neither engine is installed here) gets one line saying what to pass."""
    lazy = type(name, (), {"__module__": module, "columns": ["y", "p"]})()
    with pytest.raises(TypeError, match=hint):
        Table.from_frame(lazy, actual="y", predicted="p")
