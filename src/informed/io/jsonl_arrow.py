"""A JSON-lines file of `informed tally` read region by region, by pyarrow's JSON parser
where it gives the exact reader's result, by the exact reader everywhere else.

The exact reader (`informed.io.jsonl_reader.Reader`) parses and checks one line at a time in
Python. Here the file is read in regions of about 8 MB, each cut after a newline. A
region is parsed by pyarrow's JSON reader (C++, on every core) into list columns, each
distinct category name is looked at once, and the region's documents are counted in
bulk (`Reader.documents`). That route is taken only where it must give what the exact
reader gives: every line one object holding lists of str under "assigned" and "correct"
and, optionally, a str or int "name"; no blank line, no line break but "\\n" and "\\r\\n",
no byte-order mark, valid UTF-8, every name a possible category name, and no name the
reader would refuse. Any other region (a bad line, a single name or an object of true
values for a side, a set_entries line, a blank line) is read again line by line by the
exact reader, so a bad line gets its one-line message with its line number, and every
form the exact reader takes is counted as it counts it. Without pyarrow, every region
is read that way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.label_text import first_bad_text
from informed.errors import InputError
from informed.io.jsonl_reader import Reader
from informed.tally.indicators import column_sums

__all__ = ["read_file"]

REGION = 1 << 23
"""Bytes per region (the region then runs on to the end of its last line)."""
_BOM = b"\xef\xbb\xbf"
_BITMAP = 1 << 24  # up to this many (document, name) cells, duplicates go by a bitmap
Ints = NDArray[np.int64]


def read_file(path: Path, reader: Reader, *, fast: bool = True) -> None:
    """Feed every line of the file at `path` to `reader`, in order (`fast=False`: the
    exact reader reads every region, as it does when pyarrow is not installed)."""
    parse = _parser() if fast else None
    number = 0  # lines read so far
    with path.open("rb") as handle:
        head = handle.read(len(_BOM))  # skipped at the start of the file, as "utf-8-sig" is
        region = (b"" if head == _BOM else head) + handle.read(REGION)
        while region:
            region += handle.readline()
            number = _region(region, number, reader, parse)
            region = handle.read(REGION)


def _parser() -> Any:
    """pyarrow's JSON reader, or None when pyarrow is not installed."""
    try:
        import pyarrow.json
    except ImportError:
        return None
    return pyarrow.json


def _region(region: bytes, number: int, reader: Reader, parse: Any) -> int:
    """Read `region`, whose first line is line `number` + 1; the number of its last line."""
    start = 0
    while reader.first and start < len(region):  # up to the first line that is not blank
        end = _line_end(region, start)
        number += 1
        reader.line(number, _text(region[start:end], number, reader))
        start = end
    rest = region[start:]
    if not rest:
        return number
    counted = None if parse is None else _bulk(rest, reader, parse)
    if counted is not None:
        return number + counted
    for line in rest.splitlines(keepends=True):
        number += 1
        reader.line(number, _text(line, number, reader))
    return number


def _line_end(region: bytes, start: int) -> int:
    """Where the line starting at `start` ends, after its line break ("\n", "\r\n" or a
    lone "\r", as text-mode reading breaks lines)."""
    newline = region.find(b"\n", start)
    newline = len(region) if newline < 0 else newline
    carriage = region.find(b"\r", start, newline)
    if carriage < 0:
        return min(newline + 1, len(region))
    return carriage + 2 if carriage + 1 == newline else carriage + 1


def _text(line: bytes, number: int, reader: Reader) -> str:
    """A line as text-mode reading gives it: UTF-8, its line break read as "\\n"."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        msg = (
            f"{reader.source}line {number}: not valid UTF-8 (byte 0x{line[exc.start]:02x} at "
            f"column {exc.start + 1}); save the file as UTF-8."
        )
        raise InputError(msg) from None
    if text.endswith("\r\n"):
        return text[:-2] + "\n"
    if text.endswith("\r"):
        return text[:-1] + "\n"
    return text


def _bulk(region: bytes, reader: Reader, parse: Any) -> int | None:
    """Count the documents of `region` at once and return its number of lines, or None
    (nothing counted) where the exact reader must read it."""
    lines = region.count(b"\n") + (not region.endswith(b"\n"))
    if b"\r" in region and region.count(b"\r") != region.count(b"\r\n"):
        return None  # a lone "\r" ends a line in text mode
    if _BOM in region:
        return None  # a byte-order mark inside the file is no JSON
    if not region.isascii():
        try:
            region.decode("utf-8")
        except UnicodeDecodeError:
            return None
    import pyarrow as pa

    schema = pa.schema([("assigned", pa.list_(pa.string())), ("correct", pa.list_(pa.string()))])
    options = parse.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer")
    try:
        table = parse.read_json(pa.py_buffer(region), parse_options=options)
    except (pa.ArrowException, ValueError):
        return None
    if table.num_rows != lines or not set(table.column_names) <= {"assigned", "correct", "name"}:
        return None  # a blank line, two objects on a line, another key
    if "name" in table.column_names:
        kind = table.column("name").type
        if not (pa.types.is_string(kind) or pa.types.is_int64(kind) or pa.types.is_null(kind)):
            return None
    found = _sums(table)
    if found is None:
        return None
    names, both, assigned, correct = found
    if first_bad_text(names) is not None or not all(reader.knows(name) for name in names):
        return None
    reader.documents(names, table.num_rows, both, assigned, correct)
    return lines


def _dictionary_encode(values: Any) -> Any:
    """pyarrow's dictionary_encode, called through the compiled module: the method (and
    pyarrow.compute) would first build Python wrappers of every compute function, most
    of the start-up of a small file."""
    try:
        from pyarrow._compute import call_function
    except ImportError:  # pragma: no cover - a pyarrow without that module
        return values.dictionary_encode()
    return call_function("dictionary_encode", [values])


def _int32s(array: Any, count: int) -> NDArray[np.int32]:
    """The `count` int32 values of an Arrow array's data buffer (list offsets, or the
    indices of a dictionary array), from its own offset on."""
    return np.frombuffer(array.buffers()[1], dtype=np.int32, count=count, offset=4 * array.offset)


def _distinct(keys: Ints) -> Ints:
    """The distinct values of `keys`, sorted."""
    ordered = np.sort(keys)
    if ordered.size == 0:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def _sums(table: Any) -> tuple[list[str], Ints, Ints, Ints] | None:
    """The category names of a table's documents, and per name the documents that name
    it on both sides, as assigned and as correct (a name repeated in a list counts once);
    None if a list holds a null."""
    index: dict[str, int] = {}
    sides = []
    for side in ("assigned", "correct"):
        column = table.column(side)
        if column.null_count:
            return None
        documents, codes, row = [], [], 0
        for chunk in column.chunks:
            # numbers read off the Arrow buffers: np.asarray of an Arrow array would load
            # pandas (when installed) through pyarrow's conversions
            offsets = _int32s(chunk, len(chunk) + 1)
            first, last = int(offsets[0]), int(offsets[-1])
            values = chunk.values.slice(first, last - first)
            if values.null_count:
                return None
            encoded = _dictionary_encode(values)
            local = np.array(
                [index.setdefault(name, len(index)) for name in encoded.dictionary.to_pylist()],
                dtype=np.int64,
            )
            codes.append(local[_int32s(encoded.indices, len(encoded.indices))])
            sizes = offsets[1:] - offsets[:-1]
            documents.append(np.repeat(np.arange(row, row + len(chunk), dtype=np.int64), sizes))
            row += len(chunk)
        sides.append((np.concatenate(documents), np.concatenate(codes)))
    m, n = len(index), table.num_rows
    keys = [document * m + code for document, code in sides]
    if n * m <= _BITMAP:
        marks = []
        for side_keys in keys:
            mark = np.zeros(n * m, dtype=bool)
            mark[side_keys] = True
            marks.append(mark.reshape(n, m))
        assigned_marks, correct_marks = marks
        both = column_sums(assigned_marks & correct_marks)
        assigned = column_sums(assigned_marks)
        correct = column_sums(correct_marks)
    else:  # by sorting (np.unique hashes, and is slow on such keys)
        distinct = [_distinct(side_keys) for side_keys in keys]
        pooled = np.sort(np.concatenate(distinct))
        common = pooled[1:][pooled[1:] == pooled[:-1]]  # in both: twice in the pool
        both, assigned, correct = (np.bincount(k % m, minlength=m) for k in (common, *distinct))

    def ints(values: Any) -> Ints:
        return np.asarray(values, dtype=np.int64)

    return list(index), ints(both), ints(assigned), ints(correct)
