"""CSV files: parsed by pyarrow block by block, checked exactly as the standard library
reader checks them.

Every column is read as text: a label is the string written in the file (`NA`, `null`
and `007` are labels, never missing values or numbers) and a blank label is an error;
numbers are parsed as Python's `float` parses them. The file is cut into blocks of whole
records (4 MiB; `informed.io.csv_blocks`: a cut falls at a line end outside quoted
fields, so quoted commas, quotes and line ends stay whole) and each block is parsed by
`pyarrow.csv` into Arrow columns. Whenever pyarrow or a check finds a problem in a block
(a row with too few fields, bytes that are not UTF-8, a blank label, a number pyarrow
does not parse), that block alone is parsed again by the standard library's `csv`
reader, whose message names the line, the data row, the column and the value; text that
only the standard reader accepts (a number such as "1_000") is taken from that parse.
A block holding a quote that the standard reader would take otherwise than pyarrow (a
quote inside an unquoted field, text after a closing quote, a quoted field never
closed), or a record longer than four blocks, hands the rest of the file to the standard
reader. Without pyarrow, or for an encoding other than UTF-8, the standard reader reads
the whole file.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from informed.columns import arrow, arrow_numbers
from informed.errors import InputError
from informed.io.csv_blocks import cut_records, lines_in
from informed.io.files import RawBatch, check_columns, open_binary

__all__ = ["BLOCK_BYTES", "csv_batches"]

BLOCK_BYTES = 1 << 22
# A record (a line, or a quoted field's lines) longer than this many blocks is read by
# the standard reader, which streams it, rather than held whole in memory.
_LONGEST = 4
_BOM = b"\xef\xbb\xbf"


# pyarrow's reading of a block: label columns, number columns, rows
_Parsed = tuple[dict[str, Any], dict[str, Any], int]


class _BlockError(Exception):
    """A block pyarrow could not read cleanly: parse it again with the standard reader."""


def _is_utf8(encoding: str) -> bool:
    return encoding.lower().replace("_", "-") in ("utf-8", "utf8", "utf-8-sig")


def csv_batches(
    file: Path,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    encoding: str,
    batch_rows: int,
    block_bytes: int | None = None,
) -> Iterator[RawBatch]:
    """Yield the named columns of a CSV file (see the module's docstring), in blocks of
    `block_bytes` (`BLOCK_BYTES` unless given)."""
    block_bytes = BLOCK_BYTES if block_bytes is None else block_bytes
    pa = arrow()
    if pa is None or not _is_utf8(encoding):
        yield from _standard_file(file, labels, numbers, nonnegative, encoding, batch_rows)
        return
    import pyarrow.csv  # noqa: F401 - loads pa.csv

    with open_binary(file) as handle:
        buffer = handle.read(block_bytes)
        offset = len(_BOM) if buffer.startswith(_BOM) else 0
        header = _plain_header(buffer, offset)
        if header is None:  # quoted, undecodable or endless first line: the standard way
            yield from _standard_file(file, labels, numbers, nonnegative, encoding, batch_rows)
            return
        names, end = header
        check_columns(file, names, [*labels, *numbers])
        reader = _Blocks(pa, file, names, labels, numbers, nonnegative)
        buffer = buffer[end:]
        offset = end
        line, row = 1, 0
        eof = False
        # pyarrow parses the next block in a thread while the caller counts this one
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="informed-csv") as pool:
            ahead: list[_Ahead] = []
            while not eof:
                while not eof and len(buffer) < block_bytes:
                    more = handle.read(block_bytes - len(buffer))
                    eof = not more
                    buffer += more
                cut = cut_records(buffer, eof)
                while not cut.end and not eof and len(buffer) < _LONGEST * block_bytes:
                    more = handle.read(block_bytes)  # a record longer than a block
                    eof = not more
                    buffer += more
                    cut = cut_records(buffer, eof)
                block, buffer = buffer[: cut.end], buffer[cut.end :]
                if (not cut.end and not eof) or not cut.regular:
                    # a quote the standard reader takes otherwise than pyarrow, or a record
                    # longer than any block: the standard reader reads on from here
                    for batch in _finished(reader, ahead, row):
                        row += batch.rows
                        yield batch
                    yield from _standard_rest(
                        file, offset, names, labels, numbers, nonnegative, batch_rows, line, row
                    )
                    return
                if block or (eof and row == 0 and not ahead):  # no data rows: one empty batch
                    parsed = pool.submit(reader.parse, block, cut.multiline)
                    for batch in _finished(reader, ahead, row):
                        row += batch.rows
                        yield batch
                    ahead.append(_Ahead(parsed, block, offset, line))
                    line += lines_in(block)
                    offset += len(block)
            for batch in _finished(reader, ahead, row):
                yield batch


class _Ahead(NamedTuple):
    """A block handed to pyarrow: its parse (running), bytes, offset and first line."""

    parsed: Future[Any]
    block: bytes
    offset: int
    line: int


def _finished(reader: _Blocks, ahead: list[_Ahead], row: int) -> Iterator[RawBatch]:
    """The batches of the blocks handed to pyarrow, in order, emptying `ahead`; `row` is
    the number of data rows before the first."""
    while ahead:
        parsed, block, offset, line = ahead.pop(0)
        batch = reader.read(block, offset, line, row, parsed.result())
        row += batch.rows
        yield batch


def _plain_header(data: bytes, start: int) -> tuple[list[str], int] | None:
    """The header's names and the offset just past it, when it is one line (its quotes,
    if any, balanced: no quoted name spans lines); else None, for the standard reader."""
    ends = [i for i in (data.find(b"\n", start), data.find(b"\r", start)) if i >= 0]
    if not ends:
        return None
    end = min(ends)
    text = data[start:end]
    if text.count(b'"') % 2:
        return None
    try:
        names = next(csv.reader([text.decode("utf-8")], strict=True), [])
    except (UnicodeDecodeError, csv.Error):
        return None
    if data[end : end + 2] == b"\r\n":
        end += 1
    return names, end + 1


class _Blocks:
    """Parses blocks of whole lines with pyarrow; a block with a problem is re-read by the
    standard reader, which raises the exact message or returns what it read."""

    def __init__(
        self,
        pa: Any,
        file: Path,
        names: list[str],
        labels: Sequence[str],
        numbers: Sequence[str],
        nonnegative: Sequence[str],
    ) -> None:
        self.pa = pa
        self.file = file
        self.names = names
        self.labels = labels
        self.numbers = numbers
        self.nonnegative = nonnegative
        wanted = list(dict.fromkeys([*labels, *numbers]))
        self.read_options = pa.csv.ReadOptions(column_names=names, use_threads=True)
        self.parse_options = pa.csv.ParseOptions(ignore_empty_lines=False)
        # a block whose quoted fields hold line ends: pyarrow's parallel parse then cuts it
        # by its quotes too (half as slow again, so only for such blocks)
        self.multiline_options = pa.csv.ParseOptions(
            ignore_empty_lines=False, newlines_in_values=True
        )
        self.convert_options = pa.csv.ConvertOptions(
            include_columns=wanted,
            column_types={c: pa.string() for c in wanted},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            null_values=[],
            check_utf8=True,
        )

    def parse(self, block: bytes, multiline: bool) -> _Parsed | None:
        """pyarrow's reading of a block (labels, numbers, rows), every value checked; None
        when pyarrow or a check finds a problem. Needs no line or row: a thread runs it."""
        try:
            return self._arrow(block, multiline)
        except _BlockError:
            return None

    def read(
        self,
        block: bytes,
        offset: int,
        line: int,
        row: int,
        parsed: _Parsed | None,
    ) -> RawBatch:
        """The batch of a block from its parse, or, when that found a problem, from the
        standard reader, which raises the exact message or returns what it read."""
        if parsed is not None:
            labels, numbers, rows = parsed
            return RawBatch(labels, numbers, row, rows, offset + len(block))
        text = _decode(self.file, block, "utf-8", line)
        batches = list(
            _standard_batches(
                self.file,
                csv.reader(io.StringIO(text, newline=""), strict=True),
                self.names,
                self.labels,
                self.numbers,
                self.nonnegative,
                len(block) + 1,
                line,
                row,
                lambda: offset + len(block),
            )
        )
        if not batches:
            return RawBatch(
                {c: np.zeros(0, object) for c in self.labels},
                {c: np.zeros(0) for c in self.numbers},
                row,
                0,
                offset,
            )
        return batches[0]

    def _arrow(self, block: bytes, multiline: bool) -> _Parsed:
        pa = self.pa
        try:
            table = pa.csv.read_csv(
                pa.py_buffer(block),
                read_options=self.read_options,
                parse_options=self.multiline_options if multiline else self.parse_options,
                convert_options=self.convert_options,
            )
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise _BlockError from exc
        labels = {}
        for column in self.labels:
            values = table.column(column)
            if table.num_rows and pa.compute.min(pa.compute.binary_length(values)).as_py() == 0:
                raise _BlockError  # a blank label
            labels[column] = values
        numbers = {}
        for column in self.numbers:
            try:
                parsed = pa.compute.cast(table.column(column), pa.float64())
            except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
                raise _BlockError from exc
            values = np.asarray(arrow_numbers(parsed), dtype=np.float64)
            wrong = ~np.isfinite(values)
            if column in self.nonnegative:
                wrong |= values < 0
            if wrong.any():
                raise _BlockError
            numbers[column] = values
        return labels, numbers, table.num_rows


def _decode(file: Path, block: bytes, encoding: str, line: int) -> str:
    try:
        return block.decode(encoding)
    except UnicodeDecodeError as exc:
        bad_line = line + lines_in(block[: exc.start]) + 1
        msg = (
            f"{file}: bytes that are not valid {encoding} near line {bad_line} ({exc.reason}); "
            "pass --encoding with the file's encoding."
        )
        raise InputError(msg) from None


def _standard_file(
    file: Path,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    encoding: str,
    batch_rows: int,
) -> Iterator[RawBatch]:
    """The whole file through the standard library's reader."""
    # utf-8-sig drops a byte-order mark, so "\ufeffactual" never hides the column
    codec = "utf-8-sig" if _is_utf8(encoding) else encoding
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
            yield from _standard_batches(
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


def _standard_rest(
    file: Path,
    offset: int,
    names: list[str],
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    batch_rows: int,
    line: int,
    row: int,
) -> Iterator[RawBatch]:
    """The rest of the file from byte `offset` (a record boundary) by the standard reader."""
    with open_binary(file) as raw:
        raw.seek(offset)
        handle = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        yield from _standard_batches(
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
        )


def _where(path: Path, line: int, row: int, column: str) -> str:
    return f"{path} line {line} (data row {row + 1}), column {column!r}"


def _standard_batches(
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
) -> Iterator[RawBatch]:
    """Records of a `csv.reader` (past the header) checked one by one, in batches.

    `first_line` is the number of lines before the reader's first; `row` the number of
    data rows before it. Every message names the line, the data row (from 1), the column
    and the value.
    """
    position = {c: header.index(c) for c in [*labels, *numbers]}
    line = first_line + reader.line_num
    label_values: dict[str, list[str]] = {c: [] for c in labels}
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
    label_values: dict[str, list[str]],
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
