"""A CSV file's header and the number of its records, read as the file route reads them,
without parsing its fields: for engines that read the file themselves (`informed evaluate
FILE --engine duckdb`), which must find the same columns and count the same rows.

The header is the first record of the standard library's reader (strict, UTF-8, a
byte-order mark dropped), its names checked as the file route checks them (distinct, the
wanted ones present). The records are counted on the bytes, block by block (4 MiB), by
`informed.io.csv_blocks`: a block is cut after its last line end outside quoted fields,
and its records are its line ends outside quoted fields (\\n, \\r\\n and a lone \\r each end
one; a blank line is a record, which the file route refuses), and a last line without a
line end. From a block holding a quote that the standard reader takes otherwise (a quote
inside an unquoted field, text after a closing quote), or a record longer than four
blocks, the standard reader counts the rest of the file itself.

>>> import tempfile, pathlib
>>> file = pathlib.Path(tempfile.mkdtemp()) / "x.csv"
>>> _ = file.write_bytes(b'y,p\\n"a\\nb",1\\r\\n5" tv,0\\n\\nc,1')
>>> csv_header(file, ["y"]), data_records(file)
(['y', 'p'], 4)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from informed.errors import InputError
from informed.io.csv_blocks import cut_and_count
from informed.io.files import check_columns, open_binary

__all__ = ["csv_header", "data_records"]

_BLOCK = 1 << 22
_LONGEST = 4


def csv_header(file: Path, wanted: Sequence[str]) -> list[str]:
    """The names of the file's header, distinct, holding every `wanted` column."""
    try:
        with io.TextIOWrapper(open_binary(file), encoding="utf-8-sig", newline="") as handle:
            header = next(csv.reader(handle, strict=True), None)
    except (UnicodeError, csv.Error) as error:
        msg = f"{file}: the header line cannot be read as UTF-8 CSV ({error})."
        raise InputError(msg) from None
    if header is None:
        msg = f"{file} has no header line."
        raise InputError(msg)
    check_columns(file, header, wanted)
    return header


def data_records(file: Path, block_bytes: int = _BLOCK) -> int:
    """The records of the file below its header (the data rows, blank lines included)."""
    records = 0
    offset = 0
    with open_binary(file) as handle:
        buffer = b""
        eof = False
        while True:
            while not eof and len(buffer) < block_bytes:
                more = handle.read(block_bytes - len(buffer))
                eof = not more
                buffer += more
            cut, found = cut_and_count(buffer, eof)
            while not cut.end and not eof and len(buffer) < _LONGEST * block_bytes:
                more = handle.read(block_bytes)  # a record longer than a block
                eof = not more
                buffer += more
                cut, found = cut_and_count(buffer, eof)
            if (not cut.end and not eof) or not cut.regular:
                return max(records + _standard_records(file, offset) - 1, 0)
            records += found
            offset += cut.end
            buffer = buffer[cut.end :]
            if eof:
                return max(records - 1, 0)


def _standard_records(file: Path, offset: int) -> int:
    """The records from byte `offset` (a record boundary) to the end, by the standard
    reader; a file it cannot read is an InputError."""
    with open_binary(file) as raw:
        raw.seek(offset)
        handle = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        try:
            return sum(1 for _ in csv.reader(handle, strict=True))
        except (UnicodeError, csv.Error) as error:
            msg = f"{file}: malformed UTF-8 CSV after byte {offset:,} ({error})."
            raise InputError(msg) from None
