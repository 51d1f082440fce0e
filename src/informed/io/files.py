"""What every file reader shares: formats, the checks of a file and its columns, and the
batch of raw columns the readers yield.

Rows count from 1 in every message (data row 1 is the first row below a CSV's header, or
the first row of a Parquet or Arrow file), as in the messages about arrays.
"""

from __future__ import annotations

import math
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


def check_file(path: Path) -> None:
    """The path is an existing, non-empty file."""
    if not path.exists():
        msg = f"{path}: no such file."
        raise InputError(msg)
    if path.is_dir():
        msg = f"{path} is a directory; give a data file."
        raise InputError(msg)
    if path.stat().st_size == 0:
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
    first two bytes, whatever its name), so that ``x.csv.gz`` reads as ``x.csv`` does."""
    with path.open("rb") as handle:
        compressed = handle.read(2) == _GZIP_MAGIC
    if compressed:
        import gzip

        return gzip.open(path, "rb")
    return path.open("rb")
