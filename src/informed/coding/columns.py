"""Columns from whatever a user hands over: DataFrames, Series, Arrow arrays, numpy, lists.

No DataFrame library is a dependency. A frame is read by duck typing (pandas and polars
DataFrames, pyarrow Tables and RecordBatches, a mapping of names to columns) or, for any
other library, through the Arrow PyCapsule interface (`__arrow_c_stream__`,
`__arrow_c_array__`) when pyarrow is installed. A column keeps its form here (a pandas
Categorical, a pyarrow DictionaryArray, a polars Series): `informed.coding.labels` codes each form
by the fastest exact route it has, reusing categorical codes instead of decoding strings.
A lazy frame (a polars LazyFrame, a DuckDB relation, a Spark DataFrame, an ibis table, a
Dask DataFrame: `engine_of`) is not read here: the calls that take frames count it on its
engine (`informed.engines`, reached through `informed._routes`).

pyarrow is optional: `arrow()` returns the module, or None when it is not installed (tests
set `ARROW_DISABLED` to exercise the numpy-only routes). Numbers cross between Arrow and
numpy through their buffers (`arrow_numbers`, `numpy_arrow`): pyarrow's own `to_numpy`,
`np.asarray` of an Arrow array and `pa.array` import pandas whenever it is installed
(0.2-0.5 s), a cost that reading a file or coding labels has no reason to pay.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError

__all__ = [
    "ARROW_DISABLED",
    "Categorical",
    "arrow",
    "arrow_column",
    "arrow_label_text",
    "arrow_numbers",
    "as_numpy",
    "categorical",
    "collected",
    "column_names",
    "engine_of",
    "float_label_text",
    "frame_column",
    "numpy_arrow",
]

# Set to True (tests do) to take the numpy-only routes even where pyarrow is installed.
ARROW_DISABLED = False


class Categorical(NamedTuple):
    """A dictionary-encoded column: row i holds `categories[codes[i]]`; code -1 is missing."""

    codes: NDArray[np.integer[Any]]
    categories: NDArray[Any]


@cache
def _import_arrow() -> Any:
    try:
        import pyarrow
        import pyarrow.compute
    except ImportError:
        return None
    return pyarrow


def arrow() -> Any:
    """The pyarrow module with `pyarrow.compute` loaded, or None without pyarrow."""
    return None if ARROW_DISABLED else _import_arrow()


def _numpy_dtype(pa: Any, kind: Any) -> np.dtype[Any] | None:
    """The numpy dtype of an Arrow integer or floating type (None for any other)."""
    if pa.types.is_integer(kind):
        return np.dtype(f"{'i' if pa.types.is_signed_integer(kind) else 'u'}{kind.bit_width // 8}")
    if pa.types.is_floating(kind):
        return np.dtype(f"f{kind.bit_width // 8}")
    return None


def arrow_numbers(column: Any) -> NDArray[Any]:
    """An Arrow Array or ChunkedArray of integers, floats or booleans, with no nulls, as a
    numpy array read from its buffers (a read-only view of a single chunk of numbers).

    `to_numpy` gives the same values but imports pandas when it is installed; any other
    type, or nulls, take that route.
    """
    pa = _import_arrow()
    if isinstance(column, pa.ChunkedArray):
        if column.num_chunks == 1:
            return arrow_numbers(column.chunk(0))
        parts = [arrow_numbers(chunk) for chunk in column.chunks]
        if parts:
            return np.concatenate(parts)
        kind = _numpy_dtype(pa, column.type)
        return np.empty(0, dtype=bool if kind is None else kind)
    kind = column.type
    if column.null_count:
        return np.asarray(column.to_numpy(zero_copy_only=False))
    n, offset = len(column), column.offset
    if pa.types.is_boolean(kind):
        if n == 0:
            return np.empty(0, dtype=bool)
        bits = np.frombuffer(column.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, count=offset + n, bitorder="little")[offset:].view(bool)
    dtype = _numpy_dtype(pa, kind)
    if dtype is None:
        return np.asarray(column.to_numpy(zero_copy_only=False))
    if n == 0:
        return np.empty(0, dtype=dtype)
    return np.frombuffer(column.buffers()[1], dtype=dtype, count=n, offset=offset * dtype.itemsize)


def float_label_text(value: float, bits: int = 64) -> str:
    """A float read as a label, written as Python writes it (`repr`: 1.0 is "1.0", 1e-07
    "1e-07", 0.0 for -0.0), as pandas' `to_csv` writes it; a 32- or 16-bit float as numpy
    writes its type (0.1, not the 0.10000000149011612 it widens to)."""
    value = float(value) + 0.0  # -0.0 + 0.0 is 0.0: one value, one name
    return repr(value) if bits == 64 else str(np.dtype(f"f{bits // 8}").type(value))


def _strings(texts: list[str]) -> Any:
    """Text as an Arrow string array, built from its buffers (`pa.array` imports pandas)."""
    pa = _import_arrow()
    data = "".join(texts).encode()
    offsets = np.zeros(len(texts) + 1, dtype=np.int32)
    np.cumsum([len(t.encode()) for t in texts], out=offsets[1:])
    return pa.Array.from_buffers(
        pa.string(), len(texts), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )


def _dictionary_text(dictionary: Any) -> Any:
    """The distinct values of a label column as text: floats by `float_label_text`, the
    others by Arrow's cast (integers as Python writes them, booleans "true"/"false")."""
    pa = _import_arrow()
    if pa.types.is_floating(dictionary.type):
        bits = dictionary.type.bit_width
        return _strings([float_label_text(x, bits) for x in arrow_numbers(dictionary)])
    return pa.compute.cast(dictionary, pa.string())


def arrow_label_text(array: Any) -> Any:
    """An Arrow label column as strings, as a file's labels are read: integers, booleans
    and floats by their text (the distinct values cast, dictionary-encoded; floats as
    Python writes them, `float_label_text`, NaN missing), strings and dictionaries of
    strings as they are (only a dictionary of other values is cast)."""
    pa = _import_arrow()  # an Arrow array in hand: pyarrow is there, even with ARROW_DISABLED
    kind = array.type
    if pa.types.is_dictionary(kind):
        if pa.types.is_string(kind.value_type) or pa.types.is_large_string(kind.value_type):
            return array
        if pa.types.is_floating(kind.value_type):
            return arrow_label_text(array.cast(kind.value_type))
        return pa.DictionaryArray.from_arrays(array.indices, _dictionary_text(array.dictionary))
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind) or pa.types.is_floating(kind):
        if pa.types.is_floating(kind):  # NaN is missing, -0.0 is 0.0, as in memory
            nan = pa.compute.is_nan(array)
            array = pa.compute.if_else(nan, pa.scalar(None, kind), array)
            array = pa.compute.add(array, pa.scalar(0.0, kind))
        encoded = array.dictionary_encode()  # cast the distinct values only
        if isinstance(encoded, pa.ChunkedArray):
            return pa.chunked_array(
                [arrow_label_text(chunk) for chunk in encoded.chunks],
                pa.dictionary(encoded.type.index_type, pa.string()),
            )
        return pa.DictionaryArray.from_arrays(encoded.indices, _dictionary_text(encoded.dictionary))
    return array


def numpy_arrow(values: NDArray[Any]) -> Any:
    """A 1-D numpy array of integers or floats as an Arrow Array sharing its memory
    (`pa.array` would import pandas when it is installed)."""
    pa = _import_arrow()
    values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("="))
    kind = pa.from_numpy_dtype(values.dtype)
    return pa.Array.from_buffers(kind, values.size, [None, pa.py_buffer(values)])


def _module_of(values: Any) -> str:
    return type(values).__module__.split(".")[0]


def arrow_column(values: Any) -> Any:
    """`values` as a pyarrow Array or ChunkedArray when it is Arrow data, else None.

    pyarrow arrays are returned as they are; any object with the Arrow PyCapsule interface
    (polars Series, and others) is imported through it, zero-copy, when pyarrow is
    installed. numpy arrays, lists and pandas objects are not Arrow data here.
    """
    if isinstance(values, np.ndarray | list | tuple) or _module_of(values) == "pandas":
        return None
    pa = arrow()
    if pa is None:
        return None
    if isinstance(values, pa.Array | pa.ChunkedArray):
        return values
    if hasattr(values, "__arrow_c_stream__"):
        return pa.chunked_array(values)
    if hasattr(values, "__arrow_c_array__"):
        return pa.array(values)
    return None


def as_numpy(values: Any) -> Any:
    """`values` for `np.asarray`, keeping every character: polars' `__array__` gives a
    fixed-width <U array, which drops a trailing NUL, where `to_numpy` keeps Python str."""
    if _module_of(values) == "polars" and hasattr(values, "to_numpy"):
        return values.to_numpy()
    return values


def categorical(values: Any) -> Categorical | None:
    """The codes and categories of a pandas Categorical (or Series of one), else None."""
    if _module_of(values) != "pandas":
        return None
    cat = values
    if getattr(getattr(values, "dtype", None), "name", None) == "category" and hasattr(
        values, "cat"
    ):
        cat = values.cat
    codes = getattr(cat, "codes", None)
    categories = getattr(cat, "categories", None)
    if codes is None or categories is None:
        return None
    return Categorical(np.asarray(codes), np.asarray(categories))


# Lazy frames: (module, class) -> the engine that counts them (informed.engines)
_ENGINES = {
    ("polars", "LazyFrame"): "polars",
    ("duckdb", "DuckDBPyRelation"): "DuckDB",
    ("pyspark", "DataFrame"): "Spark",
    ("ibis", "Table"): "ibis",
    ("narwhals", "LazyFrame"): "narwhals",
    ("dask", "DataFrame"): "Dask",
    ("dask_expr", "DataFrame"): "Dask",
}


def engine_of(frame: Any) -> str | None:
    """The engine a lazy frame lives in ("polars" for a LazyFrame, "DuckDB", "Spark",
    "ibis", "Dask", "narwhals"), recognised by its class without importing any of them;
    None for anything else (a frame in memory, a column).

    >>> engine_of({"y": [1]}) is None
    True
    """
    return _ENGINES.get((_module_of(frame).lstrip("_"), type(frame).__name__))


def collected(frame: Any, **columns: str | None) -> Any:
    """`frame` ready for `frame_column`: a frame in memory as it is. An engine's lazy
    frame is counted where it lives by the calls that take frames (`Table.from_frame`,
    `Ranking.from_frame`, `Slices.from_frame`, `evaluate(frame, ...)`,
    `informed.io.summarise_frame`), never read here row by row: refused, naming them."""
    engine = engine_of(frame)
    if engine is not None:
        wanted = ", ".join(f"{k}={v!r}" for k, v in columns.items() if v is not None)
        msg = (
            f"this call reads a frame's rows in memory, and this is a lazy {engine} frame "
            f"({wanted}); pass it to Table.from_frame, Ranking.from_frame, Slices.from_frame "
            "or evaluate(frame, ...), which count it on its engine."
        )
        raise InputTypeError(msg)
    return frame


def _check_name(names: list[str], name: Any, option: str) -> None:
    """Refuse a column `name` (the value of the argument `option`) that is not a str, or
    is not exactly once among the frame's `names`."""
    if not isinstance(name, str):
        msg = f"`{option}` must be a column name (str); got {type(name).__name__} {name!r}."
        raise InputTypeError(msg)
    if names.count(name) > 1:
        msg = f"`{option}`: the frame has {names.count(name)} columns named {name!r}."
        raise InputError(msg)
    if name not in names:
        msg = f"`{option}`: the frame has no column {name!r}; its columns are {names}."
        raise InputError(msg)


def column_names(frame: Any) -> list[str]:
    """The column names of a frame (pandas, polars, pyarrow, a mapping), in order."""
    if isinstance(frame, Mapping):
        return [str(name) for name in frame]
    names = getattr(frame, "column_names", None)  # pyarrow Table and RecordBatch
    if names is None:
        names = getattr(frame, "columns", None)  # pandas and polars
    if names is None:
        msg = (
            "expected a DataFrame (pandas, polars, pyarrow Table, or a mapping of column "
            f"names to columns); got {type(frame).__name__}."
        )
        raise InputTypeError(msg)
    return [str(name) for name in names]


def frame_column(frame: Any, name: str, option: str) -> Any:
    """The column `name` of a frame, in the frame's own form (Series, Arrow array, ...).

    `option` is the argument that named the column, for the message when it is missing.
    Objects that only speak the Arrow PyCapsule interface are read through pyarrow.
    """
    if not isinstance(name, str):
        msg = f"`{option}` must be a column name (str); got {type(name).__name__} {name!r}."
        raise InputTypeError(msg)
    frame = collected(frame, **{option: name})
    if (
        not isinstance(frame, Mapping)
        and not hasattr(frame, "column_names")
        and not hasattr(frame, "columns")
        and hasattr(frame, "__arrow_c_stream__")
    ):
        pa = arrow()
        if pa is None:
            msg = (
                f"reading a {type(frame).__name__} through the Arrow interface needs "
                "pyarrow: pip install pyarrow, or pass a pandas or polars DataFrame."
            )
            raise InputTypeError(msg)
        frame = pa.table(frame)
    _check_name(column_names(frame), name, option)
    if hasattr(frame, "column_names"):
        return frame.column(name)
    return frame[name]
