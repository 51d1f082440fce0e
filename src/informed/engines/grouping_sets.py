"""Many slicings of one frame in one query: ``GROUP BY GROUPING SETS`` on a SQL engine.

A slice search (`informed.find_slices`) counts, at each depth, every combination of its
columns. On an engine that has grouping sets (DuckDB, Spark), the whole level is one
query:

    SELECT c1, ..., cn, predicted, actual, GROUPING(c1), ..., GROUPING(cn), COUNT(*)
    FROM frame GROUP BY GROUPING SETS ((c1, predicted, actual), (c1, c2, predicted, ...), ...)

(with scores, ``score, actual`` in place of ``predicted, actual``), plus one
``COUNT(*)`` of the frame, which every set's rows must add up to. A column a set rolls up
comes back NULL, as does a missing value of a column it groups by: ``GROUPING(c)`` (1
where the set rolls `c` up, 0 where it groups by it) tells them apart, so a missing value
stays the slice "missing". Each set's groups become the `Slices` that `Slices.from_frame`
would give for its columns (`informed.engines.sliced`), equal to it exactly.

Engines without grouping sets (polars), and ibis (whose SQL varies by database), get
None: the search then counts each combination by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from informed._common import memory_budget
from informed.coding.columns import engine_of
from informed.engines.frames import lazy_frame
from informed.engines.query import Grouped, check_coverage, count_rows
from informed.engines.sliced import sliced
from informed.errors import InputError
from informed.slices.slices import Slices

__all__ = ["slices_by_sets"]

_ROWS = "__informed_rows"
_GROUPING = "__informed_grouping"


def _native(frame: Any) -> tuple[Any, str | None]:
    """The DuckDB relation or Spark DataFrame of `frame` (itself, or under narwhals) and
    its engine; (frame, None) for an engine without grouping sets here."""
    engine = engine_of(frame)
    if engine == "narwhals" and str(frame.implementation).lower() in ("duckdb", "pyspark"):
        frame = frame.to_native()
        engine = engine_of(frame)
    return frame, engine if engine in ("DuckDB", "Spark") else None


def _quoting(engine: str) -> Any:
    """How the engine's SQL quotes a column name: "name" (DuckDB), `name` (Spark)."""
    mark = "`" if engine == "Spark" else '"'
    return lambda name: mark + name.replace(mark, mark * 2) + mark


def _run(native: Any, engine: str, sql: str) -> Any:
    """`sql`, which reads the frame as __informed_frame, run on the engine; Arrow back."""
    if engine == "Spark":
        view = f"__informed_frame_{id(native)}"
        native.createOrReplaceTempView(view)
        try:
            return native.sparkSession.sql(sql.replace("__informed_frame", view)).toArrow()
        finally:
            native.sparkSession.catalog.dropTempView(view)
    result = native.query("__informed_frame", sql)
    # to_arrow_table is DuckDB's newer name of fetch_arrow_table (deprecated there)
    return getattr(result, "to_arrow_table", result.fetch_arrow_table)()


def slices_by_sets(
    frame: Any,
    sets: Sequence[Sequence[str]],
    *,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    positive: Any = None,
) -> list[Slices] | None:
    """The Slices of `frame` by each set of columns in `sets`, from one grouping-sets
    query and one count of the rows; None where the engine has no grouping sets, where a
    set's column is also `actual`, `predicted` or `scores`, or where the groups would not
    fit the memory budget (the caller then counts each set by itself)."""
    native, engine = _native(frame)
    if engine is None or not sets:
        return None
    quoted = _quoting(engine)
    first = scores if predicted is None else predicted
    if first is None:
        msg = "pass `predicted` (a Table per slice) or `scores` (a Ranking per slice)."
        raise InputError(msg)
    cell = [first, actual]
    columns = list(dict.fromkeys(c for s in sets for c in s))
    if set(columns) & set(cell):
        return None
    named = {f"by[{i}]": c for i, c in enumerate(columns)}
    lazy = lazy_frame(frame, {**named, "actual": actual, "predicted": predicted,
                              "scores": scores})  # fmt: skip
    keys = ", ".join(quoted(c) for c in [*columns, *cell])
    flags = ", ".join(f"GROUPING({quoted(c)}) AS {_GROUPING}{i}" for i, c in enumerate(columns))
    grouping = ", ".join("(" + ", ".join(quoted(c) for c in [*s, *cell]) + ")" for s in sets)
    sql = (
        f"SELECT {keys}, {flags}, COUNT(*) AS {_ROWS} FROM __informed_frame "
        f"GROUP BY GROUPING SETS ({grouping})"
    )
    budget = memory_budget()
    limit = None if budget is None else max(budget // (64 * (len(columns) + 3)), 1)
    if limit is not None:
        sql += f" LIMIT {limit + 1}"
    try:
        fetched = _run(native, engine, sql)
    except Exception as exc:  # the engine's own error classes: any of them
        lines = str(exc).strip().splitlines()
        msg = f"{engine} could not run the count: {lines[0] if lines else exc!r}"
        raise InputError(msg) from exc
    if limit is not None and fetched.num_rows > limit:
        return None  # counted set by set, each refused where it would not fit
    held = count_rows(frame, lazy)
    rows = np.asarray(fetched.column(_ROWS).to_numpy(zero_copy_only=False), dtype=np.int64)
    rolled = np.stack(
        [
            np.asarray(fetched.column(f"{_GROUPING}{i}").to_numpy(zero_copy_only=False)) != 0
            for i in range(len(columns))
        ],
        axis=1,
    ) if columns else np.zeros((rows.size, 0), dtype=bool)  # fmt: skip
    found = []
    for s in sets:
        wanted = np.array([c not in s for c in columns], dtype=bool)
        at = np.flatnonzero((rolled == wanted).all(axis=1))
        part = fetched.take(at)
        grouped = Grouped({c: part.column(c) for c in [*s, *cell]}, rows[at], None, None)
        check_coverage(frame, int(grouped.rows.sum()), held)
        table_groups = None if predicted is None else grouped
        ranking_groups = grouped if predicted is None else None
        found.append(sliced(frame, list(s), actual, predicted, scores, positive,
                            table_groups, ranking_groups, clusters=False))  # fmt: skip
    return found
