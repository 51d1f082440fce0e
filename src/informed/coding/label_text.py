"""What text can be a label, and what a missing label is: the checks every route shares.

A str label holds no NUL character and no surrogate code point (`text_problem`); a
missing value (None, NaN, pandas' NA and NaT, numpy's NaT, an Arrow or polars null) is
refused with one wording (`missing_message`) on every route, naming the row and column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, at_row

__all__ = [
    "bad_text_message",
    "check_text_rows",
    "check_texts",
    "first_bad_text",
    "is_missing",
    "missing_message",
    "text_problem",
]


def text_problem(text: str) -> str | None:
    """Why the str `text` cannot be a label, or None when it can.

    A label holds no NUL character (U+0000): numpy's fixed-width strings drop a trailing
    NUL, so "a\\0" and "a" would be one label on some routes and two on others. A label
    holds no surrogate code point (U+D800 to U+DFFF): UTF-8, and so JSON, CSV and Arrow,
    cannot hold one, and JSON would read two lone surrogates back as one emoji.

    >>> text_problem("a") is None
    True
    >>> text_problem("a\\0")
    'it holds the NUL character U+0000'
    >>> text_problem("\\ud83d")[:36]
    'it holds the lone surrogate U+D83D, '
    """
    if "\0" in text:
        return "it holds the NUL character U+0000"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (
            f"it holds the lone surrogate U+{ord(text[exc.start]):04X}, which UTF-8 (and so "
            "JSON) cannot hold"
        )
    return None


def first_bad_text(labels: Sequence[Any]) -> int | None:
    """The position of the first str label `text_problem` refuses, or None (one pass over
    all the text when every label is fine). `labels` are of one kind, as a coded column's
    are: when the first is no str, none is."""
    if not labels or not isinstance(labels[0], str):
        return None  # labels of one kind (checked before): numbers or booleans
    try:
        joined = "".join(labels)
    except TypeError:
        joined = "".join(x for x in labels if isinstance(x, str))
    if "\0" not in joined:
        if joined.isascii():
            return None
        try:
            joined.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return None
    return next(i for i, x in enumerate(labels) if isinstance(x, str) and text_problem(x))


def is_missing(value: Any) -> bool:
    """Whether `value` is a missing value: None, NaN, pandas' NA and NaT, numpy's NaT."""
    if value is None or type(value).__name__ in {"NAType", "NaTType"}:
        return True
    if isinstance(value, float | np.floating):
        return bool(np.isnan(value))
    if isinstance(value, np.datetime64 | np.timedelta64):
        return bool(np.isnat(value))
    return False


def missing_message(name: str, value: Any, where: str) -> str:
    """The one wording of a missing label (None, NaN, pd.NA, NaT, a null): `where` is the
    row (`at_row`) or the data row of a file."""
    if isinstance(value, np.floating):
        value = float(value)  # nan, not np.float64(nan)
    return f"`{name}` has a missing value ({value!r}) at {where}; every row needs a label."


def bad_text_message(name: str, label: str, where: str) -> str:
    """The message refusing the str `label` of the column `name` at `where` (a row)."""
    label = str(label)  # 'a', not np.str_('a')
    return f"`{name}` holds {label!r} at {where}, which cannot be a label: {text_problem(label)}."


def check_texts(
    labels: Sequence[Any], codes: NDArray[Any], name: str, at: Callable[[int], str] = at_row
) -> None:
    """Refuse a coded column (row i holds `labels[codes[i]]`) holding a label that
    `text_problem` refuses, naming its first row as `at` (index -> place) says."""
    bad = first_bad_text(labels)
    if bad is not None:
        row = int(np.flatnonzero(codes == bad)[0])
        raise InputError(bad_text_message(name, labels[bad], at(row)))


def check_text_rows(values: Sequence[Any], name: str) -> None:
    """Refuse a column (a list, one label per row) holding a label `text_problem`
    refuses, naming its first row; before numpy's <U strings would drop a trailing NUL."""
    bad = first_bad_text(values)
    if bad is not None:
        raise InputError(bad_text_message(name, values[bad], at_row(bad)))
