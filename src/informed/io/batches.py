"""Reading evaluation data from files, strictly and in batches: every row is counted or
rejected with a message naming the file, the line or row, the column and the value.

* CSV is read with the standard library: label columns stay strings exactly as written
  ("NA", "007" and "" are labels, never missing values; a blank cell is an error), and
  numbers are parsed strictly.
* Parquet and Arrow IPC (Feather v2) are read with pyarrow (the ``parquet`` extra) in
  record batches of the named columns only. Label columns must be strings, dictionary
  strings, integers or booleans and are turned into strings, so a file gives the same
  labels whatever its format; number columns must be numeric. Nulls are errors.

The format comes from the file's extension, never from its contents.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError

__all__ = ["FORMATS", "Batch", "Columns", "iter_batches", "read_columns"]

FORMATS = {
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
}
BATCH_ROWS = 1 << 16


@dataclass(frozen=True)
class Batch:
    """Some consecutive rows of a file: label columns as str arrays, numbers as float64.

    `first_row` is the 0-based data row of the batch's first row; `bytes_read` is how far
    into the file reading has got (for progress), when known.
    """

    labels: dict[str, NDArray[np.str_]]
    numbers: dict[str, NDArray[np.float64]]
    first_row: int
    rows: int
    bytes_read: int = 0


@dataclass(frozen=True)
class Columns:
    """All rows of the named columns of a file."""

    path: str
    labels: dict[str, NDArray[np.str_]]
    numbers: dict[str, NDArray[np.float64]]
    rows: int


def _file_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        msg = (
            f"{path}: unknown file type {path.suffix!r}; expected one of "
            f"{sorted(FORMATS)} (the format is taken from the extension)."
        )
        raise InputError(msg)
    return fmt


def _check_columns(path: Path, names: list[str], wanted: Sequence[str]) -> None:
    """The file's columns are distinct and hold every wanted one."""
    duplicates = sorted({c for c in names if names.count(c) > 1})
    if duplicates:
        msg = f"{path}: duplicate column names {duplicates}."
        raise InputError(msg)
    missing = [c for c in wanted if c not in names]
    if missing:
        msg = f"{path}: no column {missing[0]!r}; the columns are {names}."
        raise InputError(msg)


def _check_file(path: Path) -> None:
    if not path.exists():
        msg = f"{path}: no such file."
        raise InputError(msg)
    if path.is_dir():
        msg = f"{path} is a directory; give a data file."
        raise InputError(msg)
    if path.stat().st_size == 0:
        msg = f"{path} is empty (0 bytes)."
        raise InputError(msg)


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
        Rows per batch (the last may be shorter).
    """
    file = Path(path)
    fmt = _file_format(file)
    _check_file(file)
    if fmt == "csv":
        yield from _csv_batches(file, labels, numbers, nonnegative, encoding, batch_rows)
    else:
        yield from _arrow_batches(file, fmt, labels, numbers, nonnegative, batch_rows)


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
        labels={c: _concat([b.labels[c] for b in parts], str) for c in labels},
        numbers={c: _concat([b.numbers[c] for b in parts], np.float64) for c in numbers},
        rows=sum(b.rows for b in parts),
    )


def _concat(arrays: list[NDArray[Any]], dtype: Any) -> NDArray[Any]:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=dtype)


# ---------------------------------------------------------------------- CSV
def _where(path: Path, line: int, row: int, column: str) -> str:
    return f"{path} line {line} (data row {row}), column {column!r}"


def _csv_batches(
    file: Path,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    encoding: str,
    batch_rows: int,
) -> Iterator[Batch]:
    wanted = [*labels, *numbers]
    # utf-8-sig drops a byte-order mark, so "\ufeffactual" never hides the column
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    line = 1
    row = 0
    try:
        with file.open(newline="", encoding=codec) as handle:
            reader = csv.reader(handle, strict=True)
            try:
                header = next(reader)
            except StopIteration:
                msg = f"{file} has no header line."
                raise InputError(msg) from None
            _check_columns(file, header, wanted)
            position = {c: header.index(c) for c in wanted}
            label_values: dict[str, list[str]] = {c: [] for c in labels}
            number_values: dict[str, list[float]] = {c: [] for c in numbers}
            first = 0
            for record in reader:
                line = reader.line_num
                if len(record) != len(header):
                    msg = (
                        f"{file} line {line} (data row {row}): {len(record)} fields where the "
                        f"header has {len(header)}; the file may be truncated or malformed."
                    )
                    raise InputError(msg)
                for column in labels:
                    value = record[position[column]]
                    if value == "":
                        msg = f"{_where(file, line, row, column)}: the label is blank."
                        raise InputError(msg)
                    label_values[column].append(value)
                for column in numbers:
                    text = record[position[column]]
                    try:
                        number = float(text)
                    except ValueError:
                        msg = f"{_where(file, line, row, column)}: {text!r} is not a number."
                        raise InputError(msg) from None
                    if not math.isfinite(number) or (number < 0 and column in nonnegative):
                        what = "not finite" if not math.isfinite(number) else "negative"
                        msg = f"{_where(file, line, row, column)}: {text!r} is {what}."
                        raise InputError(msg)
                    number_values[column].append(number)
                row += 1
                if row - first == batch_rows:
                    yield _csv_batch(label_values, number_values, first, row - first, _tell(handle))
                    label_values = {c: [] for c in labels}
                    number_values = {c: [] for c in numbers}
                    first = row
            if row > first or row == 0:
                yield _csv_batch(label_values, number_values, first, row - first, _tell(handle))
    except UnicodeDecodeError as exc:
        msg = (
            f"{file}: bytes that are not valid {encoding} near line {line + 1} ({exc.reason}); "
            "pass --encoding with the file's encoding."
        )
        raise InputError(msg) from None
    except csv.Error as exc:
        msg = f"{file} line {line + 1}: malformed CSV ({exc})."
        raise InputError(msg) from None


def _tell(handle: Any) -> int:
    """Bytes of the file consumed so far (the text layer's buffer is ahead of the parser)."""
    return int(handle.buffer.tell())


def _csv_batch(
    label_values: dict[str, list[str]],
    number_values: dict[str, list[float]],
    first: int,
    rows: int,
    position: int,
) -> Batch:
    return Batch(
        labels={c: np.array(v, dtype=str) for c, v in label_values.items()},
        numbers={c: np.array(v, dtype=np.float64) for c, v in number_values.items()},
        first_row=first,
        rows=rows,
        bytes_read=position,
    )


# ---------------------------------------------------------------------- Parquet, Arrow
def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.compute
        import pyarrow.ipc
        import pyarrow.parquet
    except ImportError:  # pragma: no cover - exercised only without the extra
        msg = "reading Parquet or Arrow files needs pyarrow: pip install 'informed[parquet]'."
        raise InputError(msg) from None
    return pyarrow


def _arrow_batches(
    file: Path,
    fmt: str,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    batch_rows: int,
) -> Iterator[Batch]:
    pa = _pyarrow()
    wanted = list(dict.fromkeys([*labels, *numbers]))
    try:
        if fmt == "parquet":
            source = pa.parquet.ParquetFile(str(file))
            schema = source.schema_arrow
            expected_rows = source.metadata.num_rows
        else:
            source = pa.ipc.open_file(str(file))
            schema = source.schema
            expected_rows = None
    except (pa.ArrowInvalid, pa.ArrowIOError, OSError) as exc:
        msg = f"{file}: not a readable {fmt} file ({exc})."
        raise InputError(msg) from None
    _check_columns(file, list(schema.names), wanted)
    for column in labels:
        kind = schema.field(column).type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if not (
            pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
            or pa.types.is_integer(kind)
            or pa.types.is_boolean(kind)
        ):
            msg = (
                f"{file}: label column {column!r} has type {kind}; "
                "expected strings, integers or booleans."
            )
            raise InputError(msg)
    for column in numbers:
        kind = schema.field(column).type
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
            msg = f"{file}: number column {column!r} has type {kind}; expected a numeric type."
            raise InputError(msg)
    row = 0
    try:
        if fmt == "parquet":
            batches: Iterator[Any] = source.iter_batches(batch_size=batch_rows, columns=wanted)
        else:
            batches = (source.get_batch(i).select(wanted) for i in range(source.num_record_batches))
        for index, batch in enumerate(batches):
            yield _arrow_batch(pa, file, batch, labels, numbers, nonnegative, row, index)
            row += batch.num_rows
    except (pa.ArrowInvalid, pa.ArrowIOError, OSError) as exc:
        msg = f"{file}: failed while reading near data row {row} ({exc})."
        raise InputError(msg) from None
    if expected_rows is not None and row != expected_rows:
        msg = f"{file}: read {row} rows but the file's metadata says {expected_rows}."
        raise InputError(msg)
    if row == 0:
        yield Batch(
            labels={c: np.zeros(0, dtype=str) for c in labels},
            numbers={c: np.zeros(0) for c in numbers},
            first_row=0,
            rows=0,
        )


def _arrow_batch(
    pa: Any,
    file: Path,
    batch: Any,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    first: int,
    index: int,
) -> Batch:
    out_labels: dict[str, NDArray[np.str_]] = {}
    out_numbers: dict[str, NDArray[np.float64]] = {}
    for column in labels:
        array = batch.column(column)
        if array.null_count:
            bad = int(np.flatnonzero(np.asarray(array.is_null()))[0])
            msg = f"{file} data row {first + bad}, column {column!r}: the label is missing (null)."
            raise InputError(msg)
        if pa.types.is_dictionary(array.type):
            # decode the (small) dictionary once, then index it: no per-row Python strings
            chunk = array.combine_chunks() if hasattr(array, "combine_chunks") else array
            words = pa.compute.cast(chunk.dictionary, pa.string()).to_numpy(zero_copy_only=False)
            codes = chunk.indices.to_numpy(zero_copy_only=False)
            out_labels[column] = np.asarray(words, dtype=str)[codes]
            continue
        text = pa.compute.cast(array, pa.string())
        out_labels[column] = np.asarray(text.to_numpy(zero_copy_only=False), dtype=str)
    for column in numbers:
        array = batch.column(column)
        if array.null_count:
            bad = int(np.flatnonzero(np.asarray(array.is_null()))[0])
            msg = f"{file} data row {first + bad}, column {column!r}: the value is missing (null)."
            raise InputError(msg)
        values = np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.float64)
        wrong = ~np.isfinite(values)
        if column in nonnegative:
            wrong |= values < 0
        if wrong.any():
            bad = int(np.flatnonzero(wrong)[0])
            what = "not finite" if not math.isfinite(values[bad]) else "negative"
            msg = f"{file} data row {first + bad}, column {column!r}: {values[bad]!r} is {what}."
            raise InputError(msg)
        out_numbers[column] = values
    return Batch(
        labels=out_labels,
        numbers=out_numbers,
        first_row=first,
        rows=batch.num_rows,
        bytes_read=index,
    )
