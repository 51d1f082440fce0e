"""CSV through the standard library's `csv` reader: the whole file when pyarrow is
missing or the encoding is not UTF-8, the rest of a file from a quote pyarrow would read
otherwise, and any block in which pyarrow or a check found a problem, read again for the
exact message (line, data row, column and value). Used by `informed.io.csv_reader`.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from informed.errors import InputError
from informed.io.csv_blocks import lines_in
from informed.io.files import RawBatch, check_columns, open_binary

__all__ = ["decode", "is_utf8", "standard_batches", "standard_file", "standard_rest"]


def is_utf8(encoding: str) -> bool:
    return encoding.lower().replace("_", "-") in ("utf-8", "utf8", "utf-8-sig")


def decode(file: Path, block: bytes, encoding: str, line: int) -> str:
    try:
        return block.decode(encoding)
    except UnicodeDecodeError as exc:
        bad_line = line + lines_in(block[: exc.start]) + 1
        msg = (
            f"{file}: bytes that are not valid {encoding} near line {bad_line} ({exc.reason}); "
            "pass --encoding with the file's encoding."
        )
        raise InputError(msg) from None


def standard_file(
    file: Path,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    encoding: str,
    batch_rows: int,
    blanks: Sequence[str] = (),
) -> Iterator[RawBatch]:
    """The whole file through the standard library's reader."""
    # utf-8-sig drops a byte-order mark, so "\ufeffactual" never hides the column
    codec = "utf-8-sig" if is_utf8(encoding) else encoding
    try:
        codecs.lookup(codec)
    except LookupError:
        msg = (
            f"{file}: unknown text encoding {encoding!r}; pass --encoding with a name "
            "Python knows, such as utf-8, latin-1 or cp1252."
        )
        raise InputError(msg) from None
    try:
        with io.TextIOWrapper(open_binary(file), encoding=codec, newline="") as handle:
            reader = csv.reader(handle, strict=True)
            try:
                header = next(reader)
            except StopIteration:
                msg = f"{file} has no header line."
                raise InputError(msg) from None
            check_columns(file, header, [*labels, *numbers])
            yield from standard_batches(
                file,
                reader,
                header,
                labels,
                numbers,
                nonnegative,
                batch_rows,
                0,
                0,
                lambda: _tell(handle),
                encoding,
                codec,
                blanks,
            )
    except UnicodeDecodeError as exc:
        raise _undecodable(file, codec, encoding, exc) from None
    except UnicodeError as exc:  # not a bad byte: UTF-16 without its byte-order mark
        msg = f"{file}: cannot be read as {encoding} ({exc}); pass --encoding with its encoding."
        raise InputError(msg) from None
    except csv.Error as exc:
        msg = f"{file} line 1: malformed CSV ({exc})."
        raise InputError(msg) from None


def _undecodable(file: Path, codec: str, encoding: str, exc: UnicodeDecodeError) -> InputError:
    """The error for bytes of `file` that `encoding` cannot decode, naming their line."""
    msg = (
        f"{file}: bytes that are not valid {encoding} near line "
        f"{_undecodable_line(file, codec)} ({exc.reason}); "
        "pass --encoding with the file's encoding."
    )
    return InputError(msg)


def _undecodable_line(file: Path, codec: str) -> int:
    """The first line holding bytes that `codec` cannot decode (the text layer decodes
    ahead of the parser, so the parser's line is not where the bytes are)."""
    import codecs

    decoder = codecs.getincrementaldecoder(codec)()
    number = 0
    with open_binary(file) as handle:
        for chunk in handle:  # split at \n; splitlines also ends a line at a lone \r
            for line in chunk.splitlines(keepends=True):
                number += 1
                try:
                    decoder.decode(line)
                except UnicodeDecodeError:
                    return number
    return number


def standard_rest(
    file: Path,
    offset: int,
    names: list[str],
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    batch_rows: int,
    line: int,
    row: int,
    blanks: Sequence[str] = (),
) -> Iterator[RawBatch]:
    """The rest of the file from byte `offset` (a record boundary) by the standard reader."""
    with open_binary(file) as raw:
        raw.seek(offset)
        handle = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        yield from standard_batches(
            file,
            csv.reader(handle, strict=True),
            names,
            labels,
            numbers,
            nonnegative,
            batch_rows,
            line,
            row,
            lambda: int(raw.tell()),
            "utf-8",
            blanks=blanks,
        )


def _where(path: Path, line: int, row: int, column: str) -> str:
    return f"{path} line {line} (data row {row + 1}), column {column!r}"


def standard_batches(
    file: Path,
    reader: Any,
    header: list[str],
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    batch_rows: int,
    first_line: int,
    row: int,
    tell: Callable[[], int],
    encoding: str = "utf-8",
    codec: str = "utf-8",
    blanks: Sequence[str] = (),
) -> Iterator[RawBatch]:
    """Records of a `csv.reader` (past the header) checked one by one, in batches.

    `first_line` is the number of lines before the reader's first; `row` the number of
    data rows before it. Every message names the line, the data row (from 1), the column
    and the value.
    """
    position = {c: header.index(c) for c in [*labels, *numbers]}
    line = first_line + reader.line_num
    label_values: dict[str, list[str | None]] = {c: [] for c in labels}
    number_values: dict[str, list[float]] = {c: [] for c in numbers}
    first = row
    try:
        for record in reader:
            line = first_line + reader.line_num
            if len(record) != len(header):
                msg = (
                    f"{file} line {line} (data row {row + 1}): {len(record)} fields where the "
                    f"header has {len(header)}; the file may be truncated or malformed."
                )
                raise InputError(msg)
            for column in labels:
                value = record[position[column]]
                if value == "":
                    if column in blanks:
                        label_values[column].append(None)  # missing
                        continue
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
                yield _batch(label_values, number_values, first, row - first, tell())
                label_values = {c: [] for c in labels}
                number_values = {c: [] for c in numbers}
                first = row
        if row > first or row == 0:
            yield _batch(label_values, number_values, first, row - first, tell())
    except UnicodeDecodeError as exc:
        raise _undecodable(file, codec, encoding, exc) from None
    except csv.Error as exc:
        msg = f"{file} line {line + 1}: malformed CSV ({exc})."
        raise InputError(msg) from None


def _batch(
    label_values: dict[str, list[str | None]],
    number_values: dict[str, list[float]],
    first: int,
    rows: int,
    position: int,
) -> RawBatch:
    labels: dict[str, Any] = {}
    for column, values in label_values.items():
        array = np.empty(len(values), dtype=object)  # str objects: exact, NUL included
        array[:] = values
        labels[column] = array
    return RawBatch(
        labels=labels,
        numbers={c: np.array(v, dtype=np.float64) for c, v in number_values.items()},
        first_row=first,
        rows=rows,
        bytes_read=position,
    )


def _tell(handle: Any) -> int:
    """Bytes of the file consumed so far (the text layer's buffer is ahead of the parser)."""
    return int(handle.buffer.tell())
