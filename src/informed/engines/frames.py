"""An engine's lazy frame as a narwhals LazyFrame: the one expression language in which
informed writes its grouped counts once, for every engine.

narwhals (a dependency-free layer over DataFrame libraries) compiles the same
`group_by().agg()` to polars' lazy engine, DuckDB's relations, Spark SQL and ibis
(which itself compiles to Postgres, BigQuery, Snowflake, Trino, ...); the work stays on
the engine and only the grouped counts come back. Why narwhals rather than ibis or SQL
text: docs/engines.md. A Dask DataFrame takes informed's own Dask adapter
(`informed.engines.dask`), which counts each partition where it lies.

The messages say how to find rows on the engine (`find_rows`): a grouped count cannot
name a row, so a check that fails gives the count and the filter that shows them.
"""

from __future__ import annotations

from typing import Any

from informed.coding.columns import engine_of
from informed.errors import InputError, InputTypeError

__all__ = ["find_rows", "lazy_frame", "narwhals", "source_engine"]


def narwhals() -> Any:
    """The narwhals module (2.x), or an InputTypeError saying how to install it."""
    try:
        import narwhals as nw
    except ImportError:
        msg = (
            "counting a lazy frame on its engine needs narwhals and pyarrow: "
            "pip install 'informed[sql]' (DuckDB, polars, ibis) or 'informed[spark]'."
        )
        raise InputTypeError(msg) from None
    try:
        import pyarrow  # noqa: F401  # the grouped counts come back as Arrow columns
    except ImportError:
        msg = "counting a lazy frame on its engine needs pyarrow: pip install pyarrow."
        raise InputTypeError(msg) from None
    return nw


def source_engine(frame: Any) -> str:
    """The engine's name for messages and reports ("DuckDB", "Spark", "polars", "ibis")."""
    engine = engine_of(frame)
    if engine == "narwhals":
        return str(frame.implementation)
    return engine or type(frame).__name__


def lazy_frame(frame: Any, columns: dict[str, str | None]) -> Any:
    """`frame` as a narwhals LazyFrame, every named column checked (`columns` maps each
    argument, such as "actual", to the column it names, or None)."""
    nw = narwhals()
    lazy = frame if engine_of(frame) == "narwhals" else nw.from_native(frame)
    if not isinstance(lazy, nw.LazyFrame):  # pragma: no cover - engine_of said lazy
        lazy = lazy.lazy()
    names = list(lazy.collect_schema().names())
    for option, name in columns.items():
        if name is None:
            continue
        if not isinstance(name, str):
            msg = f"`{option}` must be a column name (str); got {type(name).__name__} {name!r}."
            raise InputTypeError(msg)
        if name not in names:
            shown = names[:20] + (["..."] if len(names) > 20 else [])
            msg = (
                f"`{option}`: the {source_engine(frame)} frame has no column {name!r}; its "
                f"columns are {shown}."
            )
            raise InputError(msg)
    return lazy


def find_rows(frame: Any, condition: str, column: str) -> str:
    """How to find, on the engine, the rows of `column` meeting `condition` ("null",
    "nan", "negative", "infinite", "large", "nul" (text holding NUL), or "== value")."""
    engine = source_engine(frame)
    quoted = '"' + column.replace('"', '""') + '"'
    sql = {
        "null": f"{quoted} IS NULL",
        "nan": f"isnan({quoted})",
        "negative": f"{quoted} < 0",
        "infinite": f"isinf({quoted})",
        "large": f"{quoted} >= 4503599627370496",
        "nul": f"strpos({quoted}, chr(0)) > 0",
    }.get(condition, f"{quoted} {condition}")
    if engine == "Spark":
        spark = {
            "null": f"df[{column!r}].isNull()",
            "nan": f"isnan(df[{column!r}])",
            "nul": f"df[{column!r}].contains(chr(0))",
        }.get(condition, f"expr({sql!r})")
        return f"df.filter({spark})"
    if engine == "polars":
        found = {
            "null": f"pl.col({column!r}).is_null()",
            "nan": f"pl.col({column!r}).is_nan()",
            "negative": f"pl.col({column!r}) < 0",
            "infinite": f"pl.col({column!r}).is_infinite()",
            "large": f"pl.col({column!r}) >= 2**52",
            "nul": f"pl.col({column!r}).str.contains(chr(0), literal=True)",
        }.get(condition, f"pl.col({column!r}) {condition}")
        return f"frame.filter({found})"
    return f"WHERE {sql}"
