"""The slice search on a Dask DataFrame: each level's combinations counted on the cluster
(through the engine route `Slices.from_frame` takes), the result equal to the search of
the same rows in memory, a planted slice found."""

from __future__ import annotations

from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd

from informed import find_slices


def _planted(n: int = 6000) -> pd.DataFrame:
    """Two columns; the model is uninformed where a == "x" and b == "w" (its predictions
    there are coin flips), informed at 0.8 elsewhere."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {
            "a": rng.choice(["x", "y", "z"], n),
            "b": rng.choice(["u", "v", "w"], n),
            "y": rng.integers(0, 2, n),
        }
    )
    planted = (frame["a"] == "x") & (frame["b"] == "w")
    right = rng.random(n) < np.where(planted, 0.5, 0.9)
    frame["p"] = np.where(right, frame["y"], 1 - frame["y"])
    return frame


def test_a_dask_frame_is_searched_as_its_rows_are_in_memory(client: Any) -> None:
    frame = _planted()
    options: dict[str, Any] = {"columns": ["a", "b"], "actual": "y", "predicted": "p"}
    on_dask = find_slices(dd.from_pandas(frame, npartitions=4), **options)
    in_memory = find_slices(frame, **options)
    assert on_dask.to_dict() == in_memory.to_dict()
    assert [f.name for f in on_dask.found][:1] == ["a=x, b=w"]
    found = on_dask.found[0]
    rows = frame[(frame["a"] == "x") & (frame["b"] == "w")]
    assert found.n == len(rows)  # the brute force over the rows of its predicate
    assert found.positives == int((rows["y"] == 1).sum())
