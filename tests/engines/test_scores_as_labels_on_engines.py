"""A lazy frame's column of probabilities given as predicted labels is refused where it is
counted, as in memory (issue 27, item 10): the grouped count's message names the column
and the rows holding the value, and shows the call with scores=."""

from __future__ import annotations

import pytest

from informed import Slices, Table
from informed.errors import InputError

for _package in ("narwhals", "duckdb", "polars"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_probabilities_as_labels_are_refused_on_the_engine(engine: str) -> None:
    import duckdb
    import polars as pl

    data = {"y": [0, 1, 0, 1, 1], "p": [0.1, 0.9, 0.1, 0.3, 0.8], "g": list("aabba")}
    frame = pl.DataFrame(data)
    lazy = frame.lazy() if engine == "polars" else duckdb.sql("SELECT * FROM frame")
    for call in (
        lambda: Table.from_frame(lazy, actual="y", predicted="p"),
        lambda: Slices.from_frame(lazy, by="g", actual="y", predicted="p"),
    ):
        with pytest.raises(InputError) as error:
            call()
        message = str(error.value)
        assert "look like scores" in message and "scores=" in message
        assert "of the column 'p'" in message
    whole = pl.DataFrame({"y": [0, 1], "p": [0.0, 1.0]})
    lazy = whole.lazy() if engine == "polars" else duckdb.sql("SELECT * FROM whole")
    assert Table.from_frame(lazy, actual="y", predicted="p") == Table.from_labels([0, 1], [0, 1])
