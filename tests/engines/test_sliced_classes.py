"""Slices counted on an engine name the classes in-memory Slices name (issue 27, item 9):
two classes, weights of 0 (a label seen only with weight 0 stays a label of its slice),
in three partitions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from engine_data import engine_frames, rows

from informed import Ranking, Slices, Table

for _package in ("narwhals", "duckdb", "polars", "ibis"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_slices_counted_on_an_engine_are_those_of_each_slices_rows(
    engine: str, tmp_path: Path
) -> None:
    """Equal to the in-memory Slices, and each slice to the unsliced constructors."""
    memory = rows(3, n=300)
    binary = memory.set_column(
        memory.schema.get_field_index("y"), "y", pa.array(np.where(memory["b"], "cat", "dog"))
    )
    frame = engine_frames(binary, tmp_path, parts=3)[engine]
    options = {"by": "g", "actual": "y", "predicted": "p", "scores": "s", "positive": "cat"}
    found = Slices.from_frame(frame, **options, weights="w")
    assert found == Slices.from_frame(binary, **options, weights="w")
    columns = binary.to_pydict()
    for key in found.keys:
        at = [i for i, g in enumerate(columns["g"]) if g == key[0]]
        y, p, s, w = ([columns[c][i] for i in at] for c in ("y", "p", "s", "w"))
        assert found.table(key) == Table.from_labels(y, p, weights=w)
        expected = Ranking.from_scores(y, s, positive="cat", negative="dog", weights=w)
        assert found.ranking(key) == expected
    assert found.overall_ranking == Ranking.from_scores(
        columns["y"], columns["s"], positive="cat", weights=columns["w"]
    )
