"""The search on DuckDB by one `GROUP BY GROUPING SETS` query per level.

GROUPING SETS writes NULL both for a column a set rolls up and for a missing value of a
column it groups by; the route tells them apart by GROUPING(). Here a column holds NULLs
and the model is planted worse where it is NULL: the search must find that slice with
the counts of its rows (counted here by numpy on the rows themselves), and give the
in-memory search's result exactly, without one query per combination.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
pytest.importorskip("narwhals")

from informed import Slices, find_slices  # noqa: E402


def _rows(n: int = 15000, seed: int = 21) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    region = rng.choice(["north", "south", "east", ""], n, p=[0.3, 0.3, 0.25, 0.15])
    device = rng.choice(["phone", "tablet", "desktop"], n)
    plan = rng.choice(["basic", "pro", ""], n, p=[0.5, 0.4, 0.1])
    actual = rng.integers(0, 2, n)
    inside = (region == "") & (device == "phone")  # worse where region is missing
    tpr, fpr = np.where(inside, 0.5, 0.9), np.where(inside, 0.35, 0.1)
    predicted = (rng.random(n) < np.where(actual == 1, tpr, fpr)).astype(int)
    return {
        "region": [None if r == "" else str(r) for r in region],
        "device": device.tolist(),
        "plan": [None if p == "" else str(p) for p in plan],
        "y": actual.tolist(),
        "p": predicted.tolist(),
    }


def _essentials(document: dict[str, Any]) -> dict[str, Any]:
    keep = ("found", "tested", "pruned", "hypotheses", "levels", "method", "overall", "rows")
    return {k: document[k] for k in keep}


def test_one_grouping_sets_query_per_level_equals_the_search_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No per-combination count is run (Slices.from_frame would fail); the found slices,
    counts, gaps and figures are the in-memory search's; the slice of missing regions on
    phones is found with the counts of its rows."""
    data = _rows()
    rows = pa.table(data)
    options = {"columns": ["region", "device", "plan"], "actual": "y", "predicted": "p",
               "depth": 3, "min_size": 25}  # fmt: skip
    in_memory = find_slices(rows, **options).to_dict()
    relation = duckdb.connect().from_arrow(rows)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a combination was counted by a query of its own")

    monkeypatch.setattr(Slices, "from_frame", refused)
    on_duckdb = find_slices(relation, **options).to_dict()
    assert _essentials(on_duckdb) == _essentials(in_memory)
    found = {tuple(sorted(f["slice"].items(), key=str)): f for f in on_duckdb["found"]}
    planted = found[(("device", "phone"), ("region", None))]
    region, device = np.array(data["region"], dtype=object), np.array(data["device"])
    match = np.array([r is None for r in region]) & (device == "phone")
    real = np.array(data["y"])[match] == 1
    assert (planted["n"], planted["positives"], planted["negatives"]) == (
        int(match.sum()), int(real.sum()), int((~real).sum()))  # fmt: skip


def test_each_set_of_the_query_is_the_slices_of_its_columns() -> None:
    """Every set's Slices (keys, rows, cells) from the grouping-sets query equal the
    Slices counted by a query of its own, NULLs and all; polars, which has no grouping
    sets, gets None (its combinations are counted one by one)."""
    from informed.engines.route import slices_by_sets

    data = _rows(3000, seed=4)
    relation = duckdb.connect().from_arrow(pa.table(data))
    sets = [("region",), ("plan",), ("region", "plan"), ("region", "device", "plan")]
    found = slices_by_sets(relation, sets, actual="y", predicted="p")
    assert found is not None
    for columns, mine in zip(sets, found, strict=True):
        alone = Slices.from_frame(relation, by=list(columns), actual="y", predicted="p")
        assert mine.keys == alone.keys
        assert mine.rows.tolist() == alone.rows.tolist()
        assert mine.cells is not None and alone.cells is not None
        assert mine.cells.values.tolist() == alone.cells.values.tolist()
        assert mine.cells.slice.tolist() == alone.cells.slice.tolist()
        # the brute force: each slice's rows are the rows holding its values
        for key, n in zip(mine.keys, mine.rows.tolist(), strict=True):
            match = np.ones(len(data["y"]), dtype=bool)
            for column, value in zip(columns, key, strict=True):
                match &= np.array([v == value for v in data[column]])
            assert int(match.sum()) == n, (columns, key)
    pl = pytest.importorskip("polars")
    lazy = pl.from_arrow(pa.table(data)).lazy()
    assert slices_by_sets(lazy, sets, actual="y", predicted="p") is None
