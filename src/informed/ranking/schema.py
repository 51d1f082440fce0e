"""The JSON form of a Ranking: its kind and schema version, scores out, every field checked in.

A Ranking document (schema version 2) is an object with exactly the keys kind,
schema_version, weighted, positive, negative, scores, positives and negatives. `positive`
and `negative` are the Ranking's classes (a JSON string, number or boolean, or null when
not known: see `informed.ranking.classes`). Scores are JSON numbers, with +-inf as the
strings "Infinity" and "-Infinity" (JSON has no infinities); counts are integers, or
numbers when `weighted` is true. Decoding checks every field and names the first bad
entry; the Ranking's constructor then checks the arrays themselves (order, signs).

Version 1 documents (written before a Ranking knew its classes) have no `positive` and
`negative` keys; they are read with both unknown (None), so they merge with a Ranking of
any class: the reader vouches that they count the same one.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from informed._common import json_number, json_value
from informed.errors import InputError, InputTypeError
from informed.ranking.groups import CountArray, FloatArray

__all__ = ["JSON_KIND", "JSON_VERSION", "decode_classes", "decode_ranking", "encode_scores"]

JSON_KIND = "informed.Ranking"
JSON_VERSION = 2
_READS = (1, 2)
_KEYS = {"kind", "schema_version", "weighted", "scores", "positives", "negatives"}


def encode_scores(scores: FloatArray) -> list[float | str]:
    """Scores as JSON values: finite ones as numbers, +-inf as "Infinity"/"-Infinity"."""
    return [
        value if math.isfinite(value) else json_number(value)  # type: ignore[misc]
        for value in scores.tolist()
    ]


def decode_classes(data: Mapping[str, Any]) -> tuple[Any, Any]:
    """The (positive, negative) of a checked Ranking document: None in a version 1 one."""
    if data["schema_version"] == 1:
        return None, None
    for key in ("positive", "negative"):
        value = data[key]
        if value is not None and (
            not isinstance(value, str | int | float)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            msg = f"`{key}` must be a label (a string, number or boolean) or null; got {value!r}."
            raise InputError(msg)
    return data["positive"], data["negative"]


def decode_ranking(data: Mapping[str, Any]) -> tuple[FloatArray, CountArray, CountArray]:
    """The scores, positives and negatives of a Ranking document, each field checked.

    Counts come back as float64 when the document is weighted, int64 otherwise; the
    classes are read by `decode_classes`.
    """
    if not isinstance(data, Mapping):
        msg = f"A Ranking document must be a JSON object; got {type(data).__name__}."
        raise InputTypeError(msg)
    if data.get("kind") != JSON_KIND:
        msg = f"Not a Ranking document: `kind` is {data.get('kind')!r}, expected {JSON_KIND!r}."
        raise InputError(msg)
    found = data.get("schema_version")
    if isinstance(found, bool) or found not in _READS:  # True == 1 in Python
        msg = (
            f"Unsupported Ranking schema_version {data.get('schema_version')!r}; "
            f"this version of informed reads {' and '.join(map(str, _READS))}."
        )
        raise InputError(msg)
    expected = _KEYS if found == 1 else _KEYS | {"positive", "negative"}
    if set(data) != expected:
        msg = f"A Ranking document has exactly the keys {sorted(expected)}; got {sorted(data)}."
        raise InputError(msg)
    weighted = data["weighted"]
    if not isinstance(weighted, bool):
        msg = f"`weighted` must be true or false; got {weighted!r}."
        raise InputTypeError(msg)
    for key in ("scores", "positives", "negatives"):
        if not isinstance(data[key], list):
            msg = f"`{key}` must be a JSON array; got {type(data[key]).__name__}."
            raise InputTypeError(msg)
    scores = _numbers(data["scores"], np.float64)
    if scores is None:  # a string ("Infinity"), or a bad entry: read one by one
        scores = np.array(
            [_decode_score(i, value) for i, value in enumerate(data["scores"])], dtype=np.float64
        )
    dtype = np.float64 if weighted else np.int64
    counts = []
    for key in ("positives", "negatives"):
        found = _numbers(data[key], dtype)
        if found is None:  # a bad entry: read one by one, to name it
            values = [_decode_count(key, i, v, weighted) for i, v in enumerate(data[key])]
            found = np.array(values, dtype=dtype)
        counts.append(found)
    return scores, counts[0], counts[1]


def _numbers(values: list[Any], dtype: Any) -> Any:
    """`values` as an array of `dtype` at numpy's speed when every one is a number that
    the one-by-one reader takes as it is (finite floats; ints, and no float, for int64),
    else None: the reader then reads them one by one and names the first bad one."""
    kinds = set(map(type, values))  # bool is its own type: True is never taken for 1
    if not kinds <= ({int} if dtype is np.int64 else {int, float}):
        return None
    try:
        array = np.array(values, dtype=dtype)
    except OverflowError:  # an int beyond int64, or beyond a float (10**400)
        return None
    if array.dtype.kind == "f" and not bool(np.isfinite(array).all()):
        return None  # nan, or a JSON number beyond a float (1e400 reads as inf)
    return array


def _decode_score(index: int, value: Any) -> float:
    if value == "Infinity":
        return math.inf
    if value == "-Infinity":
        return -math.inf
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not -_FLOAT_MAX <= value <= _FLOAT_MAX  # nan, inf (1e400) and 10**400 fail
    ):
        msg = (
            f"`scores` entry {index} must be a number, 'Infinity' or '-Infinity'; got "
            f"{json_value(value)}."
        )
        raise InputError(msg)
    return float(value)


_FLOAT_MAX = sys.float_info.max
_INT64_MAX = 2**63 - 1


def _decode_count(name: str, index: int, value: Any, weighted: bool) -> int | float:
    allowed = (int, float) if weighted else (int,)
    if isinstance(value, bool) or not isinstance(value, allowed):
        expected = "a number" if weighted else "an integer"
        msg = f"`{name}` entry {index} must be {expected}; got {json_value(value)}."
        raise InputError(msg)
    largest = _FLOAT_MAX if weighted else _INT64_MAX
    if not -largest <= value <= largest:  # the constructor refuses negative counts
        held = "a float" if weighted else "int64"
        shown = json_value(value)  # 1e400 reads as inf: "a number beyond the range of a float"
        beyond = "" if "beyond" in shown else f", beyond the range of {held}"
        msg = f"`{name}` entry {index} is {shown}{beyond}."
        raise InputError(msg)
    return value
