"""Lazy frames: a polars LazyFrame (it raised polars' own TypeError after two warnings,
then was collected whole) is counted where it lives, without a warning; a frame of an
engine whose package is missing is refused saying what to install; the calls that read
rows in memory refuse a lazy frame naming those that count it."""

from __future__ import annotations

import warnings

import pytest

from informed import Ranking, Table
from informed.coding.columns import collected, engine_of
from informed.errors import InputError
from informed.io import summarise_frame
from informed.io.tallies import summarise_documents

pl = pytest.importorskip("polars")
pytest.importorskip("narwhals")


def test_a_polars_lazyframe_is_counted_where_it_lives() -> None:
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
    # two classes: the summaries' Ranking names the other one, as Ranking.from_frame does
    assert found.table == table and found.ranking == ranking and found.rows == 4
    with pytest.raises(InputError, match=r"`predicted`: the polars frame has no column 'q'"):
        Table.from_frame(lazy, actual="y", predicted="q")
    documents = pl.LazyFrame({"assigned": [["x"], []], "correct": [["x"], ["y"]]})
    tallied = summarise_documents(documents, part="d", categories=["x", "y"])
    assert tallied.tally is not None and tallied.tally.micro("recall") == 0.5


@pytest.mark.parametrize(
    ("module", "name", "engine"),
    [
        ("duckdb", "DuckDBPyRelation", "DuckDB"),
        ("_duckdb", "DuckDBPyRelation", "DuckDB"),
        ("pyspark.sql.dataframe", "DataFrame", "Spark"),
        ("pyspark.sql.connect.dataframe", "DataFrame", "Spark"),
        ("ibis.expr.types.relations", "Table", "ibis"),
        ("dask.dataframe.dask_expr._collection", "DataFrame", "Dask"),
        ("polars.lazyframe.frame", "LazyFrame", "polars"),
    ],
)
def test_lazy_frames_are_recognised_by_class_and_refused_where_rows_are_read(
    module: str, name: str, engine: str
) -> None:
    """An engine's lazy frame is recognised by its class (no engine imported to know it);
    a call that reads rows in memory (`collected`) refuses it, naming the calls that
    count it on its engine instead of reading it whole."""
    lazy = type(name, (), {"__module__": module, "columns": ["y", "p"]})()
    assert engine_of(lazy) == engine
    with pytest.raises(TypeError, match=rf"lazy {engine} frame .*Table\.from_frame"):
        collected(lazy, actual="y")
