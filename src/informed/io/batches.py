"""Reading evaluation data from files, strictly and in batches: every row is counted or
rejected with a message naming the file, the line or data row (from 1), the column and
the value.

* CSV (`informed.io.csv_reader`): label columns stay strings exactly as written ("NA",
  "007" are labels, never missing values; a blank cell is an error, but in the keys of
  slices, where it is the slice "missing"), numbers are parsed
  as Python's `float` parses them. pyarrow parses it when installed; the standard library
  reader re-reads any block with a problem, for its exact message.
* Parquet and Arrow IPC (Feather v2) (`informed.io.arrow_files`) are read with pyarrow
  (the ``parquet`` extra) in record batches of the named columns only. Label columns must
  be strings, dictionary strings, integers or booleans and are turned into strings, so a
  file gives the same labels whatever its format; number columns must be numeric. Nulls
  are errors (but in the keys of slices, where they are the slice "missing").

The format comes from the file's extension, never from its contents.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.io.arrow_files import arrow_batches
from informed.io.csv_reader import csv_batches
from informed.io.files import FORMATS, RawBatch, check_file, file_format

__all__ = ["BATCH_ROWS", "FORMATS", "Batch", "Columns", "iter_batches", "iter_raw", "read_columns"]

BATCH_ROWS = 1 << 18


@dataclass(frozen=True)
class Batch:
    """Some consecutive rows of a file: label columns as arrays of str, numbers as float64.

    Label arrays hold Python str objects (dtype object), exactly as in the file. `first_row`
    is the 0-based index of the batch's first data row (data row `first_row + 1` in
    messages); `bytes_read` is how far into the file reading has got (for progress), when
    known.
    """

    labels: dict[str, NDArray[Any]]
    numbers: dict[str, NDArray[np.float64]]
    first_row: int
    rows: int
    bytes_read: int = 0


@dataclass(frozen=True)
class Columns:
    """All rows of the named columns of a file."""

    path: str
    labels: dict[str, NDArray[Any]]
    numbers: dict[str, NDArray[np.float64]]
    rows: int


def iter_raw(
    path: str | Path,
    *,
    labels: Sequence[str] = (),
    numbers: Sequence[str] = (),
    nonnegative: Sequence[str] = (),
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    blanks: Sequence[str] = (),
    times: Sequence[str] = (),
    stored: Sequence[str] = (),
) -> Iterator[RawBatch]:
    """Like `iter_batches`, but label columns stay as the reader made them (Arrow string or
    dictionary arrays where pyarrow read them): the fast route into a Table.

    Among `labels`, those in `blanks` may be missing (a blank CSV cell, a null): the
    missing cells are nulls (None). Those in `times` are read as stored in a Parquet or
    Arrow file (timestamps with their zone, dates, text), as text in a CSV file; those in
    `stored` too (numbers as numbers, floats allowed: the slice search's columns).
    """
    file = Path(path)
    fmt = file_format(file)
    check_file(file)
    if fmt == "csv":
        yield from csv_batches(
            file, labels, numbers, nonnegative, encoding, batch_rows, blanks=blanks
        )
    else:
        yield from arrow_batches(
            file, fmt, labels, numbers, nonnegative, batch_rows, blanks, times, stored
        )


def iter_batches(
    path: str | Path,
    *,
    labels: Sequence[str] = (),
    numbers: Sequence[str] = (),
    nonnegative: Sequence[str] = (),
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
) -> Iterator[Batch]:
    """Yield the named columns of a CSV, Parquet or Arrow file in batches of rows.

    Parameters
    ----------
    path : str or Path
        A local file; its extension gives the format (`FORMATS`).
    labels : sequence of str
        Columns read as labels (strings).
    numbers : sequence of str
        Columns read as float64; a value that is not finite is an error.
    nonnegative : sequence of str
        Among `numbers`, columns that must also be >= 0 (weights).
    encoding : str
        Text encoding of a CSV file.
    batch_rows : int
        Rows per batch of a Parquet or Arrow file, and of a CSV file read by the standard
        library; pyarrow reads a CSV file in blocks of whole lines.
    """
    for raw in iter_raw(
        path,
        labels=labels,
        numbers=numbers,
        nonnegative=nonnegative,
        encoding=encoding,
        batch_rows=batch_rows,
    ):
        yield Batch(
            labels={c: _as_str_objects(v) for c, v in raw.labels.items()},
            numbers=raw.numbers,
            first_row=raw.first_row,
            rows=raw.rows,
            bytes_read=raw.bytes_read,
        )


def _as_str_objects(column: Any) -> NDArray[Any]:
    """A label column as a numpy array of Python str (Arrow strings or dictionaries)."""
    if isinstance(column, np.ndarray):
        return column
    array = np.empty(len(column), dtype=object)
    array[:] = column.to_pylist()
    return array


def read_columns(
    path: str | Path,
    *,
    labels: Sequence[str] = (),
    numbers: Sequence[str] = (),
    nonnegative: Sequence[str] = (),
    encoding: str = "utf-8",
) -> Columns:
    """All rows of the named columns (see `iter_batches`), concatenated."""
    parts = list(
        iter_batches(
            path, labels=labels, numbers=numbers, nonnegative=nonnegative, encoding=encoding
        )
    )
    return Columns(
        path=str(path),
        labels={c: _concat([b.labels[c] for b in parts], object) for c in labels},
        numbers={c: _concat([b.numbers[c] for b in parts], np.float64) for c in numbers},
        rows=sum(b.rows for b in parts),
    )


def _concat(arrays: list[NDArray[Any]], dtype: Any) -> NDArray[Any]:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=dtype)
