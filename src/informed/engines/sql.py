"""SQL sources as lazy frames: DuckDB embedded (a database file, or Parquet and CSV files
queried by DuckDB), and other databases through ibis.

`source` opens what the command line names (`informed evaluate --database ... --table
... | --sql ...`, or files with `--engine duckdb`) and returns a lazy frame that the engine
route counts where it lives (`informed.engines.route`): nothing is read into Python but
the grouped counts.

- A DuckDB database (a path): opened read-only; `table` names a table or view, `sql` is a
  query of it.
- No database: `sql` runs on an in-memory DuckDB, which reads files itself
  (``FROM 'data/*.parquet'``, ``read_csv('x.csv')``).
- Files with `engine="duckdb"`: Parquet files read by ``read_parquet``, CSV files by
  ``read_csv`` with every column as text, as informed's own CSV reader reads labels
  (``007`` stays a label, not the number 7); the score and weight columns are then cast
  to DOUBLE on the engine.
- A URL (``postgres://...``, ``snowflake://...``, ``bigquery://...``, ``trino://...``):
  opened by ``ibis.connect`` (``pip install 'ibis-framework[postgres]'``...), whose table
  or query narwhals compiles to that database's SQL. Tested here: DuckDB through ibis
  (``duckdb://path``); the others are expected to work as far as ibis and narwhals
  support them (docs/engines.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from informed.errors import InputError

__all__ = ["Source", "source"]


class Source(NamedTuple):
    """A lazy frame, how reports name it, and the connection to close after.

    Attributes
    ----------
    frame : lazy frame
        The rows where they live (a DuckDB relation, an ibis table, ...).
    name : str
        How reports name the source (a file, a table, a query).
    engine : str
        The engine that counts it: "duckdb", "ibis", ...
    connection : object or None
        The connection opened for the source, closed when the count is done.
    """

    frame: Any
    name: str
    engine: str
    connection: Any


def _module(name: str, extra: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        msg = f"this source needs {name}: pip install 'informed[{extra}]'."
        raise InputError(msg) from None


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _duckdb_files(duckdb: Any, files: Sequence[str], numbers: Sequence[str]) -> tuple[Any, Any]:
    """A relation over Parquet or CSV files (one kind), read by DuckDB."""
    suffixes = {Path(f).suffix.lower() for f in files}
    connection = duckdb.connect()
    listed = "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "]"
    if suffixes <= {".parquet"}:
        return connection, connection.sql(f"SELECT * FROM read_parquet({listed})")
    if suffixes <= {".csv"}:
        relation = connection.sql(
            f"SELECT * FROM read_csv({listed}, all_varchar = true, header = true)"
        )
        names = relation.columns
        columns = [
            f"CAST({_quoted(c)} AS DOUBLE) AS {_quoted(c)}" if c in numbers else _quoted(c)
            for c in names
        ]
        return connection, relation.project(", ".join(columns))
    msg = (
        f"--engine duckdb reads Parquet files or CSV files (one kind at a time); got "
        f"{sorted(suffixes)}."
    )
    raise InputError(msg)


def source(
    *,
    database: str | None = None,
    table: str | None = None,
    sql: str | None = None,
    files: Sequence[str] = (),
    numbers: Sequence[str] = (),
) -> Source:
    """Open a database's table or query, or files read by DuckDB, as a lazy frame.

    Parameters
    ----------
    database : str, optional
        A DuckDB database file, or a URL that ``ibis.connect`` opens.
    table, sql : str, optional
        A table (or view) of the database, or a query (one of them).
    files : sequence of str
        Parquet or CSV files for DuckDB to read (without `database`, `table` or `sql`).
    numbers : sequence of str
        Columns that hold numbers (scores, weights): cast to DOUBLE when CSV is read as text.
    """
    if (table is None) == (sql is None) and not files:
        msg = "name a --table of the database or give a --sql query (one of them)."
        raise InputError(msg)
    if files:
        duckdb = _module("duckdb", "sql")
        connection, relation = _duckdb_files(duckdb, files, numbers)
        shown = files[0] if len(files) == 1 else f"{files[0]} and {len(files) - 1} more files"
        return Source(relation, shown, "DuckDB", connection)
    if database is not None and "://" in database:
        ibis = _module("ibis", "ibis")
        try:
            connection = ibis.connect(database)
            frame = connection.table(table) if table is not None else connection.sql(sql)
        except Exception as exc:
            msg = f"{database}: {_first_line(exc)}"
            raise InputError(msg) from None
        return Source(frame, table or "the --sql query", "ibis", connection)
    duckdb = _module("duckdb", "sql")
    try:
        if database is not None:
            if not Path(database).is_file():
                msg = f"{database}: no such DuckDB database file."
                raise InputError(msg)
            connection = duckdb.connect(database, read_only=True)
        else:
            connection = duckdb.connect()
        frame = connection.table(table) if table is not None else connection.sql(sql)
    except duckdb.Error as exc:
        msg = f"{database or 'DuckDB'}: {_first_line(exc)}"
        raise InputError(msg) from None
    name = table if table is not None else "the --sql query"
    return Source(frame, f"{database}: {name}" if database else name, "DuckDB", connection)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
