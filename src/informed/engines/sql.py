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
- Files with `engine="duckdb"`: named as for the file route (paths, glob patterns),
  Parquet files read by ``read_parquet`` (integer and boolean label columns cast to text,
  as the file route reads them, and the slice search's columns as it reads them: numbers
  of few values as text, floats as Python writes them), CSV files by ``read_csv`` in the
  file route's dialect with every column as text, as informed's own CSV reader reads labels (``007``
  stays a label, not the number 7), the score and weight columns then cast to DOUBLE on
  the engine (`informed.engines.csv_files`).
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

from informed.disparity.columns import BINS
from informed.errors import InputError

__all__ = ["Source", "source"]


class Source(NamedTuple):
    """A lazy frame, how reports name it, the connection to close after, and for CSV
    files the rows they hold (counted by informed, for the coverage check).

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
    rows : int or None
        The records of CSV files read by DuckDB, counted by informed; None otherwise.
    """

    frame: Any
    name: str
    engine: str
    connection: Any
    rows: int | None = None


def _module(name: str, extra: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        msg = f"this source needs {name}: pip install 'informed[{extra}]'."
        raise InputError(msg) from None


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _duckdb_files(
    duckdb: Any,
    named: Sequence[str],
    columns: Sequence[str],
    numbers: Sequence[str],
    stored: Sequence[str] = (),
    search: Sequence[str] = (),
    bins: int = BINS,
) -> tuple[Any, Any, int | None]:
    """A relation over Parquet or CSV files (one kind), read by DuckDB; with CSV, the rows
    the files hold, counted by informed (`informed.engines.csv_files`). The files are
    named as for the file route: a path, a glob pattern, a list (`informed.io.paths`),
    each checked to be a readable file."""
    from informed.io.files import check_file, file_format
    from informed.io.paths import expand_paths

    files = expand_paths(named[0] if len(named) == 1 else list(named))
    kinds = {file_format(file) for file in files}
    for file in files:
        check_file(file)
    connection = duckdb.connect()
    try:
        if kinds == {"parquet"}:
            listed = "[" + ", ".join("'" + str(f).replace("'", "''") + "'" for f in files) + "]"
            try:
                relation = connection.sql(f"SELECT * FROM read_parquet({listed})")
                labels = [c for c in columns if c not in (*numbers, *stored, *search)]
                relation = _labels_as_text(relation, labels, files[0])
                relation = _search_as_text(relation, search, bins)
            except duckdb.Error as error:
                msg = f"{files[0]}: DuckDB could not read it: {_first_line(error)}"
                raise InputError(msg) from None
            return connection, relation, None
        if kinds == {"csv"}:
            from informed.engines.csv_files import csv_relation

            relation, rows = csv_relation(connection, files, columns, numbers)
            try:
                relation = _csv_search(relation, search, bins)
            except duckdb.Error as error:
                msg = f"{files[0]}: DuckDB could not read it: {_first_line(error)}"
                raise InputError(msg) from None
            return connection, relation, rows
    except BaseException:
        connection.close()
        raise
    connection.close()
    msg = (
        f"--engine duckdb reads Parquet files or CSV files (one kind at a time); got "
        f"{sorted(kinds)}."
    )
    raise InputError(msg)


_WHOLE = {"tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint"}
_WHOLE |= {"uinteger", "ubigint", "uhugeint", "boolean"}


def _labels_as_text(relation: Any, labels: Sequence[str], file: Path) -> Any:
    """The Parquet `relation` with its integer and boolean columns among `labels` cast to
    text, as the file route reads them (`informed.io.arrow_files`): `1` is the label
    "1", `true` the label "true", so that one file gives one document on both routes; a
    float column among `labels` refused in the file route's words (of `file`)."""
    kinds = dict(zip(relation.columns, (kind.id for kind in relation.types), strict=True))
    for name in labels:  # in the order the file route checks them
        if kinds.get(name) in ("float", "double"):
            msg = (
                f"{file}: label column {name!r} has type {kinds[name]}; expected strings, "
                "integers or booleans (a column of scores or probabilities goes to "
                "--score, or scores=)."
            )
            raise InputError(msg)
    return _projected(
        relation,
        {
            name: f"CAST({_quoted(name)} AS VARCHAR)"
            for name, kind in zip(relation.columns, relation.types, strict=True)
            if name in labels and kind.id in _WHOLE
        },
    )


def _search_as_text(relation: Any, search: Sequence[str], bins: int) -> Any:
    """The Parquet `relation` with the slice search's columns read as the file route reads
    them (`informed.disparity.columns.code_column`): booleans, and integers and floats of
    at most `bins` distinct values (nulls and NaN aside), as text (floats as Python writes
    them, `float_label_text`, NaN missing); integers and floats of more values kept as
    numbers (which the search on an engine refuses: the file route cuts them)."""
    from informed.coding.columns import float_label_text

    shown: dict[str, str] = {}
    for name, kind in zip(relation.columns, relation.types, strict=True):
        if name not in search or kind.id not in (*_WHOLE, "float", "double"):
            continue
        column = _quoted(name)
        if kind.id == "boolean":
            shown[name] = f"CAST({column} AS VARCHAR)"
            continue
        present = f"{column} IS NOT NULL"
        if kind.id in ("float", "double"):
            present += f" AND NOT isnan({column})"
        found = relation.project(column).filter(present).distinct().limit(bins + 1).fetchall()
        if len(found) > bins:
            continue
        if kind.id in _WHOLE:
            shown[name] = f"CAST({column} AS VARCHAR)"
            continue
        bits = 64 if kind.id == "double" else 32
        cases = " ".join(
            f"WHEN CAST({column} AS DOUBLE) = CAST('{x!r}' AS DOUBLE) "
            f"THEN '{float_label_text(x, bits)}'"
            for (x,) in found
        )
        shown[name] = f"CASE {cases} END" if cases else "CAST(NULL AS VARCHAR)"
    return _projected(relation, shown)


def _projected(relation: Any, shown: dict[str, str]) -> Any:
    """`relation` with each column named in `shown` read as its SQL expression there, the
    other columns as they are, in their order; `relation` itself when `shown` is empty."""
    if not shown:
        return relation
    listed = ", ".join(
        f"{shown[name]} AS {_quoted(name)}" if name in shown else _quoted(name)
        for name in relation.columns
    )
    return relation.project(listed)


# text DuckDB reads as a number and Arrow's cast, which the file route reads CSV numbers
# with, does not: whitespace around it, "_" between digits, "+-1"
_NOT_ARROW = r"'[\s_]|^\+-'"


def _csv_search(relation: Any, search: Sequence[str], bins: int) -> Any:
    """The CSV `relation` with the slice search's columns of numbers of more than `bins`
    distinct values (every value text that reads as a number, NaN aside) as DOUBLE, which
    the search on an engine refuses as it refuses a Parquet file's (the file route cuts
    them into ranges; as text each number would be a slice); other columns stay text as
    written, as the file route reads them."""
    cast = {}
    for name in search:
        column = _quoted(name)
        number = f"TRY_CAST({column} AS DOUBLE)"
        text = f"{number} IS NULL OR regexp_matches({column}, {_NOT_ARROW})"
        if relation.filter(f"{column} IS NOT NULL AND ({text})").limit(1).fetchall():
            continue
        numbers = relation.project(f"{number} AS x").filter("x IS NOT NULL AND NOT isnan(x)")
        if len(numbers.distinct().limit(bins + 1).fetchall()) > bins:
            cast[name] = number
    if not cast:
        return relation
    listed = ", ".join(
        f"{cast[name]} AS {_quoted(name)}" if name in cast else _quoted(name)
        for name in relation.columns
    )
    return relation.project(listed)


def source(
    *,
    database: str | None = None,
    table: str | None = None,
    sql: str | None = None,
    files: Sequence[str] = (),
    numbers: Sequence[str] = (),
    columns: Sequence[str] = (),
    encoding: str = "utf-8",
    stored: Sequence[str] = (),
    search: Sequence[str] = (),
    bins: int = BINS,
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
    columns : sequence of str
        With CSV files, the columns to read (every file must hold them); all the columns
        of the first file's header (which every file must share) when none are named.
    encoding : str
        The text encoding of CSV files: DuckDB reads them as UTF-8 only.
    stored : sequence of str
        Columns of Parquet files kept in their own type (the timestamps of `--by-time`);
        the other label columns' integers and booleans are read as text.
    search : sequence of str
        Columns of Parquet files that the slice search crosses, read as the file route
        reads them: booleans, and numbers of at most `bins` distinct values, as text;
        numbers of more values kept (the search on an engine refuses them).
    bins : int
        The quantile ranges the search cuts a column of numbers into (`--ranges`).
    """
    if (table is None) == (sql is None) and not files:
        msg = "name a --table of the database or give a --sql query (one of them)."
        raise InputError(msg)
    if files:
        from informed.io.csv_standard import is_utf8

        if not is_utf8(encoding):
            msg = (
                f"--engine duckdb reads CSV files as UTF-8; files in {encoding} are read by "
                "informed itself: run without --engine."
            )
            raise InputError(msg)
        duckdb = _module("duckdb", "sql")
        connection, relation, rows = _duckdb_files(
            duckdb, files, columns, numbers, stored, search, bins
        )
        shown = files[0] if len(files) == 1 else f"{files[0]} and {len(files) - 1} more files"
        return Source(relation, shown, "DuckDB", connection, rows)
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
