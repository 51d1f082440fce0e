"""CSV files read by DuckDB as informed's file route reads them (`informed evaluate FILE
--engine duckdb`): the same dialect, the same columns, the same rows.

By default DuckDB's ``read_csv`` guesses a file's dialect (its sniffer): a data row
starting with ``#`` was dropped as a comment, ``'`` taken as a quote and ``\\"`` as an
escape, a short or long row made the whole file one column, and of two ``y`` columns one
was picked. Here nothing is guessed. DuckDB reads the dialect of the file route (RFC 4180:
a comma between fields, ``"`` around a field and doubled inside it, no escape character,
no comment, UTF-8; every column as text, a blank field as missing), with the header
informed read and checked (`informed.io.csv_records.csv_header`: duplicate names and
missing columns refused in the file route's words) given as the columns every row must
have (``strict_mode``, no null padding: a short or long row is an error). Files that share
a header are read by one ``read_csv``, files of different headers by one each, their
wanted columns put together (UNION ALL).

The rows DuckDB counts are then checked against the records informed counts on the
files' bytes (`informed.io.csv_records.data_records`), not against DuckDB's own count: a
blank line, which the file route refuses, is a record there and skipped by DuckDB.

Numbers (scores, weights) are cast to DOUBLE on the engine, which reads number text as
Python's `float` does but for two forms Python refuses and DuckDB reads as numbers:
``+-1`` (read as -1) and ``nan(...)``; those are refused on the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from informed.errors import InputError
from informed.io.csv_records import csv_header, data_records

__all__ = ["csv_relation"]

# number text DuckDB reads as a number and Python's float refuses: a sign after a "+",
# and "nan(" (C's strtod form)
_NOT_PYTHON = r"^\s*\+-|\("


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _read(files: Sequence[Path], header: Sequence[str]) -> str:
    """The ``read_csv`` of files sharing `header`, in the file route's dialect."""
    listed = "[" + ", ".join(_text(str(f)) for f in files) + "]"
    columns = "{" + ", ".join(f"{_text(name)}: 'VARCHAR'" for name in header) + "}"
    return (
        f"read_csv({listed}, columns = {columns}, header = true, auto_detect = false, "
        "delim = ',', quote = '\"', escape = '\"', comment = '', encoding = 'utf-8', "
        "strict_mode = true, null_padding = false)"
    )


def _column(name: str, numbers: Sequence[str]) -> str:
    quoted = _quoted(name)
    if name not in numbers:
        return quoted
    refused = _text(f"the column {name!r} holds a number informed does not read: ")
    return (
        f"CASE WHEN regexp_matches({quoted}, {_text(_NOT_PYTHON)}) "
        f"THEN error({refused} || {quoted}) ELSE CAST({quoted} AS DOUBLE) END AS {quoted}"
    )


def csv_relation(
    connection: Any, files: Sequence[Path], wanted: Sequence[str], numbers: Sequence[str]
) -> tuple[Any, int]:
    """A DuckDB relation of the `wanted` columns of CSV `files` (the `numbers` among them
    as DOUBLE, the others as text), read in the file route's dialect; and the rows the
    files hold, counted by informed."""
    import duckdb

    headers = {file: csv_header(file, wanted) for file in files}
    if not wanted:
        wanted = next(iter(headers.values()))
        for file, names in headers.items():
            if names != list(wanted):
                msg = (
                    f"{file}: its columns {names} are not those of {files[0]} "
                    f"{list(wanted)}; name the columns to read."
                )
                raise InputError(msg)
    groups: dict[tuple[str, ...], list[Path]] = {}
    for file, names in headers.items():
        groups.setdefault(tuple(names), []).append(file)
    projection = ", ".join(_column(name, numbers) for name in dict.fromkeys(wanted))
    query = " UNION ALL ".join(
        f"SELECT {projection} FROM {_read(group, header)}" for header, group in groups.items()
    )
    try:
        relation = connection.sql(query)
    except duckdb.Error as error:
        lines = str(error).strip().splitlines()
        msg = f"{files[0]}: DuckDB could not read it: {lines[0] if lines else error!r}"
        raise InputError(msg) from None
    return relation, sum(data_records(file) for file in files)
