"""The key columns of a grouped count, checked and coded as informed's own columns are.

A group stands for `rows` rows of the frame, so a bad value is reported by the rows it
stands for and the filter that finds them on the engine (a grouped count cannot name a
row). Labels keep their kind (True is not 1, "1" is not 1): an engine's column has one
type, which becomes the labels' kind. A missing label (null, NaN) is refused naming the
column; a str label may not hold NUL or a lone surrogate; a type that is no label
(a date, a decimal) is refused with the cast to write. Scores become float64, refused
where that would merge two distinct values (integers beyond 2^53, decimals).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.label_text import first_bad_text, text_problem
from informed.coding.labels import Coded, code_column, refuse_scores
from informed.engines.frames import find_rows, lazy_frame, narwhals
from informed.errors import InputError, InputTypeError

__all__ = [
    "check_present",
    "check_text",
    "code_labels",
    "label_from_text",
    "score_values",
    "table_labels",
]

_EXACT_INT = 1 << 53


def _missing(column: Any) -> NDArray[np.bool_]:
    """Null (and NaN, for a floating column) entries of an Arrow column."""
    import pyarrow as pa
    import pyarrow.compute as pc

    missing = np.asarray(pc.is_null(column).to_numpy(zero_copy_only=False), dtype=bool)
    if pa.types.is_floating(column.type):
        nan = pc.is_nan(column).fill_null(False)
        missing |= np.asarray(nan.to_numpy(zero_copy_only=False), dtype=bool)
    return missing


def check_present(frame: Any, column: Any, name: str, option: str, rows: NDArray[np.int64]) -> None:
    """Refuse missing values in the key `column` (the frame's column `name`, given as
    `option`): how many rows hold one, and the filter that finds them."""
    missing = _missing(column)
    if missing.any():
        count = int(rows[missing].sum())
        msg = (
            f"`{option}` (the column {name!r}) has a missing value in {count:,} rows; every "
            f"row needs a label. A grouped count cannot name the rows: find them with "
            f"{find_rows(frame, 'null', name)}."
        )
        raise InputError(msg)


def _check_type(column: Any, name: str, option: str) -> None:
    import pyarrow as pa

    kind = column.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    plain = (
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or getattr(pa.types, "is_string_view", pa.types.is_string)(kind)
        or pa.types.is_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_boolean(kind)
    )
    if not plain:
        msg = (
            f"`{option}` (the column {name!r}) is of type {column.type} on the engine; a label "
            "is a str, int, float or bool: cast the column (e.g. CAST(... AS VARCHAR))."
        )
        raise InputTypeError(msg)


def check_text(frame: Any, column: Any, name: str, option: str, rows: NDArray[np.int64]) -> None:
    """Refuse text that cannot be a label (a NUL) in the key `column` (the frame's column
    `name`, given as `option`): how many rows hold it, and the filter that finds them. A
    group is no row: its position in the grouped count names none of the frame's rows."""
    import pyarrow as pa

    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind):
        return
    values = column.to_pylist()
    present = [v for v in values if v is not None]  # a missing value is checked apart
    bad = first_bad_text(present)
    if bad is None:
        return
    label = present[bad]
    count = int(rows[np.array([v == label for v in values], dtype=bool)].sum())
    msg = (
        f"`{option}` (the column {name!r}) holds {label!r} in {count:,} rows, which cannot be "
        f"a label: {text_problem(label)}. A grouped count cannot name the rows: find them "
        f"with {find_rows(frame, 'nul', name)}."
    )
    raise InputError(msg)


def _where(rows: NDArray[np.int64], name: str) -> Callable[[int], str]:
    return lambda group: f"{int(rows[group]):,} rows of the column {name!r}"


def code_labels(frame: Any, column: Any, name: str, option: str, rows: NDArray[np.int64]) -> Coded:
    """The labels of a key column, coded (one code per group), every check made."""
    check_present(frame, column, name, option, rows)
    _check_type(column, name, option)
    check_text(frame, column, name, option, rows)
    return code_column(column, option, _where(rows, name))


def table_labels(
    frame: Any, keys: Any, actual: str, predicted: str, rows: NDArray[np.int64]
) -> tuple[Coded, Coded]:
    """The actual and predicted labels of a grouped count of a Table, coded, with the
    checks of `Table.from_labels`: no number with a fraction (`refuse_scores`)."""
    a = code_labels(frame, keys[actual], actual, "actual", rows)
    p = code_labels(frame, keys[predicted], predicted, "predicted", rows)
    refuse_scores(a, "actual", _where(rows, actual))
    refuse_scores(p, "predicted", _where(rows, predicted))
    return a, p


def score_values(
    frame: Any, column: Any, name: str, rows: NDArray[np.int64], allow_infinite: bool
) -> NDArray[np.float64]:
    """The scores of a key column as float64, checked: no missing or NaN score, no
    infinite one unless `allow_infinite`, and distinct on the engine means distinct here."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    numeric = pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)
    if not (numeric or pa.types.is_boolean(kind)):
        msg = f"`scores` must be numeric; the column {name!r} is of type {kind} on the engine."
        raise InputTypeError(msg)
    missing = np.asarray(pc.is_null(column).to_numpy(zero_copy_only=False), dtype=bool)
    if missing.any():
        count = int(rows[missing].sum())
        msg = (
            f"`scores` (the column {name!r}) has a missing value in {count:,} rows. A grouped "
            f"count cannot name the rows: find them with {find_rows(frame, 'null', name)}."
        )
        raise InputError(msg)
    if pa.types.is_integer(kind):
        exact = np.asarray(column.to_numpy(zero_copy_only=False), dtype=np.int64)
        beyond = np.abs(exact) > _EXACT_INT
        if beyond.any():
            count = int(rows[beyond].sum())
            msg = (
                f"`scores` (the column {name!r}): {count:,} rows hold integers beyond 2**53, "
                "which float64 cannot hold exactly (distinct scores could merge); rescale them."
            )
            raise InputError(msg)
    values = np.asarray(
        pc.cast(column, pa.float64(), safe=False).to_numpy(zero_copy_only=False), dtype=np.float64
    )
    if pa.types.is_decimal(kind):
        distinct = len(pc.unique(column))
        if np.unique(values).size != distinct:
            msg = (
                f"`scores` (the column {name!r}) holds decimals that are distinct on the "
                "engine but equal as float64; cast the column to DOUBLE on the engine."
            )
            raise InputError(msg)
    nan = np.isnan(values)
    if nan.any():
        count = int(rows[nan].sum())
        msg = (
            f"`scores` must be finite; the column {name!r} holds NaN in {count:,} rows: find "
            f"them with {find_rows(frame, 'nan', name)}."
        )
        raise InputError(msg)
    infinite = np.isinf(values)
    if infinite.any() and not allow_infinite:
        count = int(rows[infinite].sum())
        msg = (
            f"`scores` must be finite; the column {name!r} holds +-inf in {count:,} rows "
            f"(find them with {find_rows(frame, 'infinite', name)}). Pass "
            "`allow_infinite=True` to rank infinite scores."
        )
        raise InputError(msg)
    return values


def label_from_text(frame: Any, column: str, text: Any) -> Any:
    """The label of the frame's `column` that `text` names (`--positive` on the command
    line), read as the file route reads it: there every label is its text, integers and
    booleans by the text Arrow writes ("1", "-3", "true", "false"). So "1" names the
    integer 1 of an integer column (not "01" or "1.0", as a file's 1 is "1"), "true" the
    boolean True, a number the float of a floating column; any other text, or a column of
    text, stays the text (and is refused later if it is no label)."""
    if not isinstance(text, str):
        return text
    nw = narwhals()
    dtype = lazy_frame(frame, {"actual": column}).collect_schema()[column]
    if dtype.is_integer():
        try:
            number = int(text)
        except ValueError:
            return text
        return number if str(number) == text else text
    if dtype == nw.Boolean:
        return {"true": True, "false": False}.get(text, text)
    if dtype.is_float():
        try:
            value = float(text)
        except ValueError:
            return text
        return value if np.isfinite(value) else text
    return text
