"""What every file reader shares: formats, the checks of a file and its columns, and the
batch of raw columns the readers yield.

Rows count from 1 in every message (data row 1 is the first row below a CSV's header, or
the first row of a Parquet or Arrow file), as in the messages about arrays.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError

__all__ = [
    "FORMATS",
    "RawBatch",
    "check_columns",
    "check_file",
    "check_numbers",
    "file_format",
    "open_binary",
]

_GZIP_MAGIC = b"\x1f\x8b"

FORMATS = {
    ".csv": "csv",
    ".csv.gz": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
}


@dataclass(frozen=True)
class RawBatch:
    """Consecutive rows of a file as the readers produce them.

    Label columns are Arrow string or dictionary arrays (pyarrow routes) or numpy str
    arrays (the standard-library CSV route); numbers are float64, checked. `first_row`
    is the 0-based index of the batch's first data row; `bytes_read` is how far into the
    file reading has got, when known (for progress).
    """

    labels: dict[str, Any]
    numbers: dict[str, NDArray[np.float64]]
    first_row: int
    rows: int
    bytes_read: int = 0


def file_format(path: Path) -> str:
    """The format named by a file's extension, or an error listing the known ones."""
    suffix = path.suffix.lower()
    if suffix == ".gz":  # a compressed CSV: x.csv.gz
        suffix = "".join(path.suffixes[-2:]).lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        msg = (
            f"{path}: unknown file type {path.suffix!r}; expected one of "
            f"{sorted(FORMATS)} (the format is taken from the extension)."
        )
        raise InputError(msg)
    return fmt


def check_columns(path: Path, names: list[str], wanted: Sequence[str]) -> None:
    """The file's columns are distinct and hold every wanted one."""
    duplicates = sorted({c for c in names if names.count(c) > 1})
    if duplicates:
        msg = f"{path}: duplicate column names {duplicates}."
        raise InputError(msg)
    missing = [c for c in wanted if c not in names]
    if missing:
        msg = f"{path}: no column {missing[0]!r}; the columns are {names}."
        raise InputError(msg)


def check_file(path: Path, *, empty: bool = False) -> None:
    """The path is an existing file (non-empty unless `empty`), or an InputError that
    gives the true reason: no such file, a link to a missing file, a loop of links, a
    folder, no permission.

    >>> check_file(Path("no-such-file.csv"))
    Traceback (most recent call last):
    ...
    informed.errors.InputError: no-such-file.csv: no such file.
    """
    try:
        found = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            msg = f"{path}: a symbolic link to {os.readlink(path)!r}, which does not exist."
        else:
            msg = f"{path}: no such file."
        raise InputError(msg) from None
    except OSError as error:
        from informed.io.output_files import reason

        msg = f"{path}: cannot be read: {reason(error)}."
        raise InputError(msg) from None
    if stat.S_ISDIR(found.st_mode):
        msg = f"{path} is a directory; give a data file."
        raise InputError(msg)
    if found.st_size == 0 and not empty and stat.S_ISREG(found.st_mode):
        msg = f"{path} is empty (0 bytes)."
        raise InputError(msg)


def check_numbers(
    values: NDArray[np.float64], nonnegative: bool, where: str, first: int, column: str
) -> None:
    """Every value is finite (and >= 0 for weights); else name the data row (from 1)."""
    wrong = ~np.isfinite(values)
    if nonnegative:
        wrong |= values < 0
    if wrong.any():
        bad = int(np.flatnonzero(wrong)[0])
        what = "not finite" if not math.isfinite(values[bad]) else "negative"
        value = values[bad].item()  # a Python float: nan, not np.float64(nan)
        msg = f"{where} data row {first + bad + 1}, column {column!r}: {value!r} is {what}."
        raise InputError(msg)


def open_binary(path: Path) -> Any:
    """The bytes of a file, decompressed when it is gzip-compressed (recognised by its
    first two bytes, whatever its name), so that ``x.csv.gz`` reads as ``x.csv`` does.

    Compressed data that is cut short (a partial download) or corrupt is an InputError
    naming the file, raised by the read that reaches the damage: every reader of the
    file (pyarrow's blocks, the standard library's reader) stops there, with no result.
    """
    with path.open("rb") as handle:
        compressed = handle.read(2) == _GZIP_MAGIC
    if compressed:
        return _gzip_file(path)
    return path.open("rb")


def _gzip_file(path: Path) -> Any:
    """A gzip reader of `path` whose decompression errors are InputErrors naming it."""
    import gzip
    import zlib

    def damaged(error: Exception) -> InputError:
        if isinstance(error, EOFError):
            why = "the compressed data ends before its end-of-stream marker: the file is cut short"
        else:
            why = f"the compressed data is corrupt ({error})"
        return InputError(f"{path}: {why}.")

    class Checked(gzip.GzipFile):
        def read(self, size: int | None = -1) -> bytes:
            try:
                return super().read(-1 if size is None else size)
            except (EOFError, gzip.BadGzipFile, zlib.error) as error:
                raise damaged(error) from None

        def read1(self, size: int = -1) -> bytes:
            try:
                return super().read1(size)
            except (EOFError, gzip.BadGzipFile, zlib.error) as error:
                raise damaged(error) from None

        def peek(self, n: int) -> bytes:
            try:
                return super().peek(n)
            except (EOFError, gzip.BadGzipFile, zlib.error) as error:
                raise damaged(error) from None

        def readline(self, size: int | None = -1) -> bytes:
            try:
                return super().readline(-1 if size is None else size)
            except (EOFError, gzip.BadGzipFile, zlib.error) as error:
                raise damaged(error) from None

    return Checked(path, "rb")
