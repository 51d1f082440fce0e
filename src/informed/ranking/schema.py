"""The JSON form of a Ranking: its kind and schema version, scores out, every field checked in.

A Ranking document is an object with exactly the keys kind, schema_version, weighted,
scores, positives and negatives. Scores are JSON numbers, with +-inf as the strings
"Infinity" and "-Infinity" (JSON has no infinities); counts are integers, or numbers when
`weighted` is true. Decoding checks every field and names the first bad entry; the
Ranking's constructor then checks the arrays themselves (order, signs).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from informed._common import json_value
from informed.errors import InputError, InputTypeError
from informed.ranking.groups import CountArray, FloatArray

__all__ = ["JSON_KIND", "JSON_VERSION", "decode_ranking", "encode_scores"]

JSON_KIND = "informed.Ranking"
JSON_VERSION = 1


def encode_scores(scores: FloatArray) -> list[float | str]:
    """Scores as JSON values: finite ones as numbers, +-inf as "Infinity"/"-Infinity"."""
    return [
        value if math.isfinite(value) else ("Infinity" if value > 0 else "-Infinity")
        for value in scores.tolist()
    ]


def decode_ranking(data: Mapping[str, Any]) -> tuple[FloatArray, CountArray, CountArray]:
    """The scores, positives and negatives of a Ranking document, each field checked.

    Counts come back as float64 when the document is weighted, int64 otherwise.
    """
    if not isinstance(data, Mapping):
        msg = f"A Ranking document must be a JSON object; got {type(data).__name__}."
        raise InputTypeError(msg)
    if data.get("kind") != JSON_KIND:
        msg = f"Not a Ranking document: `kind` is {data.get('kind')!r}, expected {JSON_KIND!r}."
        raise InputError(msg)
    found = data.get("schema_version")
    if isinstance(found, bool) or found != JSON_VERSION:  # True == 1 in Python
        msg = (
            f"Unsupported Ranking schema_version {data.get('schema_version')!r}; "
            f"this version of informed reads {JSON_VERSION}."
        )
        raise InputError(msg)
    expected = {"kind", "schema_version", "weighted", "scores", "positives", "negatives"}
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
    scores = [_decode_score(i, value) for i, value in enumerate(data["scores"])]
    positives = [
        _decode_count("positives", i, v, weighted) for i, v in enumerate(data["positives"])
    ]
    negatives = [
        _decode_count("negatives", i, v, weighted) for i, v in enumerate(data["negatives"])
    ]
    if weighted:
        return (
            np.array(scores, dtype=np.float64),
            np.array(positives, dtype=np.float64),
            np.array(negatives, dtype=np.float64),
        )
    return (
        np.array(scores, dtype=np.float64),
        np.array(positives, dtype=np.int64),
        np.array(negatives, dtype=np.int64),
    )


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
