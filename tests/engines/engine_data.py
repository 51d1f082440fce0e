"""Random predictions with ties and weights, and the same rows as each engine's lazy
frame, in several partitions (files, chunks), for the engine tests."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def rows(seed: int, n: int = 600) -> pa.Table:
    """Labels of three classes, scores with heavy ties (two decimals), weights that are
    multiples of 1/4 (0 included: sums of them are exact in any order, so the in-memory
    float sums are the exact ones too), a slice column with missing values."""
    rng = np.random.default_rng(seed)
    actual = rng.choice(["cat", "dog", "eel"], n, p=[0.5, 0.3, 0.2])
    right = rng.random(n) < 0.6
    predicted = np.where(right, actual, rng.choice(["cat", "dog", "eel"], n))
    scores = np.round(np.clip(rng.normal(0.5, 0.25, n) + 0.3 * (actual == "cat"), -1, 2), 2)
    scores[rng.random(n) < 0.05] = -0.0  # -0.0 and 0.0 are one score
    weights = rng.integers(0, 9, n) / 4
    group = rng.choice(np.array(["north", "south", "west", None], dtype=object), n)
    return pa.table(
        {
            "y": actual,
            "p": predicted,
            "s": scores,
            "w": weights,
            "g": pa.array(group.tolist(), type=pa.string()),
            "b": actual == "cat",
        }
    )


def engine_frames(table: pa.Table, folder: Path, parts: int = 3) -> dict[str, Any]:
    """The rows as a polars LazyFrame (chunks concatenated), a DuckDB relation over
    `parts` Parquet files, and an ibis table (DuckDB backend)."""
    import duckdb
    import ibis
    import polars as pl

    n = table.num_rows
    cuts = np.linspace(0, n, parts + 1).astype(int)
    chunks = [table.slice(int(a), int(b - a)) for a, b in itertools.pairwise(cuts.tolist())]
    files = []
    for i, chunk in enumerate(chunks):
        path = folder / f"part-{i}.parquet"
        pq.write_table(chunk, path)
        files.append(str(path))
    connection = duckdb.connect()
    listed = ", ".join(f"'{f}'" for f in files)
    return {
        "polars": pl.concat([pl.from_arrow(c).lazy() for c in chunks]),
        "duckdb": connection.sql(f"SELECT * FROM read_parquet([{listed}])"),
        "ibis": ibis.memtable(table),
    }
