"""Parquet and Arrow IPC (Feather v2) files, read with pyarrow in record batches.

Only the named columns are read. String label columns of a Parquet file are read as
dictionaries (`read_dictionary`), so a batch hands its codes to the Table without
building a Python string per row. Label columns must be strings, dictionary strings,
integers or booleans; integers and booleans become their strings ("1", "true"), so a file
gives the same labels whatever its format. Number columns must be numeric. Nulls are
errors naming the data row (from 1) and the column, but in the columns that may be blank
(the keys of slices: a null is the slice "missing"). Columns of times (`times`) are
handed over as stored: timestamps (with their time zone), dates, or text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.columns import arrow_label_text, arrow_numbers
from informed.errors import InputError
from informed.io.files import RawBatch, check_columns, check_numbers

__all__ = ["arrow_batches", "pyarrow_module"]


def pyarrow_module() -> Any:
    """pyarrow with its compute, IPC and Parquet modules, or an error saying how to get it."""
    try:
        import pyarrow
        import pyarrow.compute
        import pyarrow.ipc
        import pyarrow.parquet
    except ImportError:  # pragma: no cover - exercised only without the extra
        msg = "reading Parquet or Arrow files needs pyarrow: pip install 'informed[parquet]'."
        raise InputError(msg) from None
    return pyarrow


def _open(pa: Any, file: Path, fmt: str, labels: Sequence[str]) -> tuple[Any, Any, int | None]:
    """(source, schema, rows the metadata promises) of a Parquet or Arrow IPC file."""
    try:
        if fmt == "parquet":
            metadata = pa.parquet.read_metadata(str(file))  # its footer, read once
            names = set(metadata.schema.names)
            # read_dictionary applies to columns of strings (the others ignore it)
            strings = [c for c in labels if c in names]
            source = pa.parquet.ParquetFile(str(file), metadata=metadata, read_dictionary=strings)
            return source, source.schema_arrow, source.metadata.num_rows
        source = pa.ipc.open_file(str(file))
        return source, source.schema, None
    except (pa.ArrowInvalid, pa.ArrowIOError, OSError) as exc:
        msg = f"{file}: not a readable {fmt} file ({exc})."
        raise InputError(msg) from None


def _check_types(
    pa: Any,
    file: Path,
    schema: Any,
    labels: Sequence[str],
    numbers: Sequence[str],
    times: Sequence[str] = (),
    stored: Sequence[str] = (),
) -> None:
    for column in labels:
        kind = schema.field(column).type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if column in times:
            if not (
                pa.types.is_timestamp(kind)
                or pa.types.is_date(kind)
                or pa.types.is_string(kind)
                or pa.types.is_large_string(kind)
            ):
                msg = (
                    f"{file}: column {column!r} has type {kind}; expected timestamps, "
                    "dates or ISO-8601 text."
                )
                raise InputError(msg)
            continue
        if not (
            pa.types.is_string(kind)
            or pa.types.is_large_string(kind)
            # an empty pandas object column is written as type null: no value to refuse,
            # and a null in it is refused row by row as any missing label is
            or pa.types.is_null(kind)
            or getattr(pa.types, "is_string_view", pa.types.is_string)(kind)
            or pa.types.is_integer(kind)
            or pa.types.is_boolean(kind)
            or (column in stored and pa.types.is_floating(kind))
        ):
            hint = ""
            if pa.types.is_floating(kind):  # most often scores given as predicted labels
                hint = " (a column of scores or probabilities goes to --score, or scores=)"
            msg = (
                f"{file}: label column {column!r} has type {kind}; "
                f"expected strings, integers or booleans{hint}."
            )
            raise InputError(msg)
    for column in numbers:
        kind = schema.field(column).type
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
            msg = f"{file}: number column {column!r} has type {kind}; expected a numeric type."
            raise InputError(msg)


def arrow_batches(
    file: Path,
    fmt: str,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    batch_rows: int,
    blanks: Sequence[str] = (),
    times: Sequence[str] = (),
    stored: Sequence[str] = (),
) -> Iterator[RawBatch]:
    """Yield the named columns of a Parquet or Arrow IPC file, batch by batch: nulls
    allowed in the label columns `blanks`; the label columns `times` as stored, and those
    in `stored` too (numbers kept numbers: the slice search's columns, cut into ranges
    as a CSV file's numbers are)."""
    pa = pyarrow_module()
    wanted = list(dict.fromkeys([*labels, *numbers]))
    source, schema, expected_rows = _open(pa, file, fmt, labels)
    check_columns(file, list(schema.names), wanted)
    _check_types(pa, file, schema, labels, numbers, times, stored)
    row = 0
    try:
        if fmt == "parquet":
            batches: Iterator[Any] = source.iter_batches(batch_size=batch_rows, columns=wanted)
        else:
            batches = (source.get_batch(i).select(wanted) for i in range(source.num_record_batches))
        for index, batch in enumerate(batches):
            yield _raw_batch(
                pa, file, batch, labels, numbers, nonnegative, row, index, blanks, times, stored
            )
            row += batch.num_rows
    except (pa.ArrowInvalid, pa.ArrowIOError, OSError) as exc:
        msg = f"{file}: failed while reading near data row {row + 1} ({exc})."
        raise InputError(msg) from None
    if expected_rows is not None and row != expected_rows:
        msg = f"{file}: read {row} rows but the file's metadata says {expected_rows}."
        raise InputError(msg)
    if row == 0:
        yield RawBatch(
            labels={c: pa.nulls(0, pa.string()) for c in labels},
            numbers={c: np.zeros(0) for c in numbers},
            first_row=0,
            rows=0,
        )


def _raw_batch(
    pa: Any,
    file: Path,
    batch: Any,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    first: int,
    index: int,
    blanks: Sequence[str] = (),
    times: Sequence[str] = (),
    stored: Sequence[str] = (),
) -> RawBatch:
    out_labels: dict[str, Any] = {}
    out_numbers: dict[str, NDArray[np.float64]] = {}
    for column in labels:
        array = batch.column(column)
        if column in times:
            out_labels[column] = array
            continue
        if array.null_count and column not in blanks:
            bad = int(np.flatnonzero(np.asarray(array.is_null()))[0])
            msg = (
                f"{file} data row {first + bad + 1}, column {column!r}: "
                "the label is missing (null)."
            )
            raise InputError(msg)
        out_labels[column] = array if column in stored else arrow_label_text(array)
    for column in numbers:
        array = batch.column(column)
        if array.null_count:
            bad = int(np.flatnonzero(np.asarray(array.is_null()))[0])
            msg = (
                f"{file} data row {first + bad + 1}, column {column!r}: "
                "the value is missing (null)."
            )
            raise InputError(msg)
        values = np.asarray(arrow_numbers(array), dtype=np.float64)
        check_numbers(values, column in nonnegative, str(file), first, column)
        out_numbers[column] = values
    return RawBatch(
        labels=out_labels,
        numbers=out_numbers,
        first_row=first,
        rows=batch.num_rows,
        bytes_read=index,
    )
