"""CSV files: parsed by pyarrow block by block, checked exactly as the standard library
reader checks them.

Every column is read as text: a label is the string written in the file (`NA`, `null`
and `007` are labels, never missing values or numbers) and a blank label is an error
(a null in the columns that may be blank: the keys of slices);
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

import csv
import io
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from informed.coding.columns import arrow, arrow_numbers
from informed.io.csv_blocks import cut_records, lines_in
from informed.io.csv_standard import (
    decode,
    is_utf8,
    standard_batches,
    standard_file,
    standard_rest,
)
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


def csv_batches(
    file: Path,
    labels: Sequence[str],
    numbers: Sequence[str],
    nonnegative: Sequence[str],
    encoding: str,
    batch_rows: int,
    block_bytes: int | None = None,
    blanks: Sequence[str] = (),
) -> Iterator[RawBatch]:
    """Yield the named columns of a CSV file (see the module's docstring), in blocks of
    `block_bytes` (`BLOCK_BYTES` unless given); a blank cell of a label column in
    `blanks` is a null (a missing value), not an error."""
    block_bytes = BLOCK_BYTES if block_bytes is None else block_bytes
    pa = arrow()
    if pa is None or not is_utf8(encoding):
        yield from standard_file(file, labels, numbers, nonnegative, encoding, batch_rows, blanks)
        return
    import pyarrow.csv  # noqa: F401 - loads pa.csv

    with open_binary(file) as handle:
        buffer = handle.read(block_bytes)
        offset = len(_BOM) if buffer.startswith(_BOM) else 0
        header = _plain_header(buffer, offset)
        if header is None:  # quoted, undecodable or endless first line: the standard way
            yield from standard_file(
                file, labels, numbers, nonnegative, encoding, batch_rows, blanks
            )
            return
        names, end = header
        check_columns(file, names, [*labels, *numbers])
        reader = _Blocks(pa, file, names, labels, numbers, nonnegative, blanks)
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
                    yield from standard_rest(
                        file,
                        offset,
                        names,
                        labels,
                        numbers,
                        nonnegative,
                        batch_rows,
                        line,
                        row,
                        blanks,
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
        blanks: Sequence[str] = (),
    ) -> None:
        self.pa = pa
        self.blanks = blanks
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
        text = decode(self.file, block, "utf-8", line)
        batches = list(
            standard_batches(
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
                blanks=self.blanks,
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
            lengths = pa.compute.binary_length(values)
            shortest = pa.compute.min(lengths)
            if table.num_rows and shortest.as_py() == 0:
                if column not in self.blanks:
                    raise _BlockError  # a blank label
                # Arrow scalars only: pyarrow's conversion of a Python 0 or None to one
                # imports pandas (0.5 s)
                blank = pa.compute.equal(lengths, shortest)
                values = pa.compute.if_else(blank, pa.nulls(1, pa.string())[0], values)
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
