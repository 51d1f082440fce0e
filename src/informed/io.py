"""Reading evaluation data from files, strictly: every row is counted or rejected.

CSV is read with the standard library: label columns stay strings exactly as written
("NA", "007" and "" are labels, never missing values), numbers are parsed strictly, and
every error names the file, the line, the column and the value.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError

__all__ = ["Columns", "read_csv_columns"]


@dataclass(frozen=True)
class Columns:
    """Columns read from a file: label columns as str arrays, numeric ones as float64."""

    path: str
    labels: dict[str, NDArray[np.str_]]
    numbers: dict[str, NDArray[np.float64]]
    rows: int


def _where(path: str, line: int, row: int, column: str) -> str:
    return f"{path} line {line} (data row {row}), column {column!r}"


def read_csv_columns(
    path: str | Path,
    *,
    labels: Sequence[str] = (),
    numbers: Sequence[str] = (),
    nonnegative: Sequence[str] = (),
    encoding: str = "utf-8",
) -> Columns:
    """Read the named columns of a CSV file with a header line.

    Parameters
    ----------
    path : str or Path
        A local file; ``-`` is not supported here (the CLI handles standard input).
    labels : sequence of str
        Columns read as labels (strings). A blank cell is an error: it is a missing
        label, not a class.
    numbers : sequence of str
        Columns parsed as floats ("1e-3", "nan", "inf" are parsed); a value that is not
        finite is an error.
    nonnegative : sequence of str
        Among `numbers`, columns that must also be >= 0 (weights).
    encoding : str
        The file's text encoding; a byte that does not decode is an error naming the line.
    """
    name = str(path)
    file = Path(path)
    if not file.exists():
        msg = f"{name}: no such file."
        raise InputError(msg)
    if file.is_dir():
        msg = f"{name} is a directory; give a CSV file."
        raise InputError(msg)
    if file.stat().st_size == 0:
        msg = f"{name} is empty (0 bytes): expected a header line."
        raise InputError(msg)
    wanted = [*labels, *numbers]
    label_values: dict[str, list[str]] = {c: [] for c in labels}
    number_values: dict[str, list[float]] = {c: [] for c in numbers}
    # utf-8-sig drops a byte-order mark, so "\ufeffactual" never hides the column
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    line = 1
    try:
        with file.open(newline="", encoding=codec) as handle:
            reader = csv.reader(handle, strict=True)
            try:
                header = next(reader)
            except StopIteration:
                msg = f"{name} has no header line."
                raise InputError(msg) from None
            duplicates = sorted({c for c in header if header.count(c) > 1})
            if duplicates:
                msg = f"{name}: duplicate column names {duplicates} in the header."
                raise InputError(msg)
            missing = [c for c in wanted if c not in header]
            if missing:
                msg = f"{name}: no column {missing[0]!r}; the columns are {header}."
                raise InputError(msg)
            position = {c: header.index(c) for c in wanted}
            row = 0
            for record in reader:
                line = reader.line_num
                if len(record) != len(header):
                    msg = (
                        f"{name} line {line} (data row {row}): {len(record)} fields where the "
                        f"header has {len(header)}; the file may be truncated or malformed."
                    )
                    raise InputError(msg)
                for column in labels:
                    value = record[position[column]]
                    if value == "":
                        msg = f"{_where(name, line, row, column)}: the label is blank."
                        raise InputError(msg)
                    label_values[column].append(value)
                for column in numbers:
                    text = record[position[column]]
                    try:
                        number = float(text)
                    except ValueError:
                        msg = f"{_where(name, line, row, column)}: {text!r} is not a number."
                        raise InputError(msg) from None
                    if not math.isfinite(number):
                        msg = f"{_where(name, line, row, column)}: {text!r} is not finite."
                        raise InputError(msg)
                    if column in nonnegative and number < 0:
                        msg = f"{_where(name, line, row, column)}: {text!r} is negative."
                        raise InputError(msg)
                    number_values[column].append(number)
                row += 1
    except UnicodeDecodeError as exc:
        msg = (
            f"{name}: bytes that are not valid {encoding} near line {line + 1} ({exc.reason}); "
            "pass --encoding with the file's encoding."
        )
        raise InputError(msg) from None
    except csv.Error as exc:
        msg = f"{name} line {line + 1}: malformed CSV ({exc})."
        raise InputError(msg) from None
    return Columns(
        path=name,
        labels={c: np.array(v, dtype=str) for c, v in label_values.items()},
        numbers={c: np.array(v, dtype=np.float64) for c, v in number_values.items()},
        rows=row,
    )
