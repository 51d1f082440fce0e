"""The JSON form of Slices: the keys, the cells of every slice, the rankings.

``"cells"`` lists the cells of counts[S, K, C] that hold rows as four parallel lists
(``slice``, ``row``, ``column``, ``count``: positions in ``"keys"``, ``"predicted"`` and
``"actual"``); ``"overall"`` is the unsliced Table's own JSON form (kept, so that a
weighted overall table is restored to the last bit), ``"rankings"`` one Ranking form per
slice. A missing key value is ``null``. With weights, a cell whose rows all weigh 0 is
listed with 0: its labels are labels of its slice's Table. Accumulated slices (cumulative
or rolling windows, `informed.slices.rolling`) say so in ``"accumulated"``, a key only
they have: their slices overlap. Reading checks every field, and that the parts agree as
a writer makes them (`informed.slices.consistency`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from informed._common import check_document
from informed.coding.labels import Label, as_label
from informed.errors import InputError, InputTypeError
from informed.ranking import Ranking
from informed.slices.consistency import check_parts
from informed.slices.counting import SlicedCells
from informed.slices.keys import Key, key_order, keyed_key
from informed.table.counting import check_counts, check_label_list
from informed.table.table import Table

__all__ = ["JSON_KIND", "JSON_VERSION", "slices_dict", "slices_parts"]

JSON_KIND = "informed.Slices"
JSON_VERSION = 1
_KEYS = frozenset(
    {"kind", "version", "by", "keys", "rows", "table", "positive", "rankings", "weighted"}
)
_TABLE_KEYS = frozenset({"predicted", "actual", "cells", "overall"})


def slices_dict(slices: Any) -> dict[str, Any]:
    """The JSON document of `Slices` (`Slices.to_dict`)."""
    table = None
    if slices.cells is not None:
        c: SlicedCells = slices.cells
        table = {
            "predicted": list(c.predicted),
            "actual": list(c.actual),
            "cells": {
                "slice": c.slice.tolist(),
                "row": c.row.tolist(),
                "column": c.col.tolist(),
                "count": c.values.tolist(),
            },
            "overall": slices.overall.to_dict(),
        }
    rankings = None
    if slices.rankings is not None:
        rankings = {
            "slices": [r.to_dict() for r in slices.rankings],
            "overall": slices.overall_ranking.to_dict(),
        }
    document: dict[str, Any] = {
        "kind": JSON_KIND,
        "version": JSON_VERSION,
        "by": list(slices.by),
        "keys": [list(k) for k in slices.keys],
        "rows": slices.rows.tolist(),
        "weighted": slices.weighted,
        "table": table,
        "positive": slices.positive,
        "rankings": rankings,
    }
    if slices.accumulated is not None:  # overlapping slices: overall is not their sum
        document["accumulated"] = slices.accumulated
    return document


def _key(value: Any, width: int) -> Key:
    if not isinstance(value, list) or len(value) != width:
        msg = f"a slice key must be a list of {width} values; got {value!r}."
        raise InputError(msg)
    return tuple(None if v is None else as_label(v) for v in value)


def slices_parts(data: Any) -> tuple[Any, ...]:
    """The fields of `Slices` from its JSON document, every field checked."""
    keys_of = _KEYS | {"accumulated"} if isinstance(data, dict) and "accumulated" in data else _KEYS
    check_document(data, "Slices", keys_of, JSON_KIND, JSON_VERSION)
    accumulated = data.get("accumulated")
    if "accumulated" in data and (not isinstance(accumulated, str) or not accumulated):
        msg = f'"accumulated" says how the slices were accumulated; got {accumulated!r}.'
        raise InputError(msg)
    by = data["by"]
    if not isinstance(by, list) or not by or not all(isinstance(x, str) for x in by):
        msg = f'"by" must be a non-empty list of column names; got {by!r}.'
        raise InputError(msg)
    raw_keys = data["keys"]
    if not isinstance(raw_keys, list):
        msg = f'"keys" must be a list; got {type(raw_keys).__name__}.'
        raise InputTypeError(msg)
    keys = tuple(_key(k, len(by)) for k in raw_keys)
    if len({keyed_key(k) for k in keys}) != len(keys) or list(keys) != sorted(keys, key=key_order):
        msg = '"keys" must be distinct and in canonical order.'
        raise InputError(msg)
    S = len(keys)
    rows = check_counts(np.array([data["rows"]], dtype=object), False)[0]
    if rows.shape != (S,):
        msg = f'"rows" must hold one count per slice ({S}); got {rows.shape[0]}.'
        raise InputError(msg)
    weighted = data["weighted"]
    if not isinstance(weighted, bool):
        msg = f'"weighted" must be true or false; got {weighted!r}.'
        raise InputTypeError(msg)
    cells = overall = None
    table = data["table"]
    if table is not None:
        cells, overall = _table_parts(table, S, weighted)
    positive: Label | None = None
    rankings = overall_ranking = None
    if data["rankings"] is not None:
        found = data["rankings"]
        if not isinstance(found, dict) or set(found) != {"slices", "overall"}:
            msg = '"rankings" must be an object with "slices" and "overall".'
            raise InputError(msg)
        if not isinstance(found["slices"], list) or len(found["slices"]) != S:
            msg = f'"rankings" must hold one Ranking per slice ({S}).'
            raise InputError(msg)
        rankings = tuple(Ranking.from_dict(r) for r in found["slices"])
        overall_ranking = Ranking.from_dict(found["overall"])
        if data["positive"] is None:
            msg = '"positive" is null, but the rankings count a positive class: name it.'
            raise InputError(msg)
        positive = as_label(data["positive"])
    elif data["positive"] is not None:
        msg = f'"positive" is {data["positive"]!r}, but there are no rankings to count it.'
        raise InputError(msg)
    if cells is None and rankings is None:
        msg = "a Slices document needs a table, rankings, or both."
        raise InputError(msg)
    check_parts(
        tuple(by),
        keys,
        rows,
        None if cells is None or overall is None else (cells, overall),
        None
        if rankings is None or overall_ranking is None or positive is None
        else (rankings, overall_ranking, positive),
        weighted,
        accumulated is not None,
    )
    return tuple(by), keys, rows, cells, overall, positive, rankings, overall_ranking, accumulated


def _table_parts(table: Any, S: int, weighted: bool) -> tuple[SlicedCells, Table]:
    if not isinstance(table, dict) or set(table) != _TABLE_KEYS:
        msg = f'"table" must be an object with the keys {sorted(_TABLE_KEYS)}.'
        raise InputError(msg)
    predicted = check_label_list(table["predicted"], "predicted")
    actual = check_label_list(table["actual"], "actual")
    found = table["cells"]
    if not isinstance(found, dict) or set(found) != {"slice", "row", "column", "count"}:
        msg = '"cells" must be an object of the lists "slice", "row", "column", "count".'
        raise InputError(msg)
    lengths = {len(v) if isinstance(v, list) else -1 for v in found.values()}
    if len(lengths) != 1 or -1 in lengths:
        msg = '"cells" must be four lists of one length.'
        raise InputError(msg)
    positions = []
    for name, bound in (("slice", S), ("row", len(predicted)), ("column", len(actual))):
        values = found[name]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in values) or any(
            x < 0 or x >= bound for x in values
        ):
            msg = f'"cells" "{name}" must hold positions from 0 to {bound - 1}.'
            raise InputError(msg)
        positions.append(np.asarray(values, dtype=np.intp).reshape(-1))
    counts = check_counts(np.array([found["count"]], dtype=object), weighted)[0]
    if not weighted and counts.size and (counts == 0).any():  # a row counts 1 at least
        msg = '"cells" must list only cells that hold rows: no count of 0 without weights.'
        raise InputError(msg)
    s, r, c = positions
    flat = (s.astype(np.int64) * len(predicted) + r) * len(actual) + c
    if flat.size > 1 and not bool(np.all(flat[1:] > flat[:-1])):
        msg = '"cells" must be in (slice, row, column) order, each cell once.'
        raise InputError(msg)
    overall = Table.from_dict(table["overall"])
    if overall.weighted != weighted:
        msg = 'the "overall" table and "weighted" disagree.'
        raise InputError(msg)
    return SlicedCells(s, r, c, counts, predicted, actual), overall
