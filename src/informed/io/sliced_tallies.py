"""Multi-label documents of a JSON-lines file by slice: one Tally per slice.

The file is that of `informed tally` (`informed.io.jsonl`): an optional first line
``{"categories": [...]}``, then one document per line, each holding, besides
"assigned", "correct" and an optional "name", the field(s) it is sliced by
(``{"assigned": [...], "correct": [...], "source": "web"}``). A document without the
field, or with null there, is in the slice "missing": never dropped, never an error. A
key is a string, a number or a boolean, each kind its own (true and 1, 1 and "1" are
three slices, as labels are three labels); anything else is an error naming the line.
Every slice's Tally has the categories of the whole file (declared, or all those the
file names), so the slices' measures compare, and each equals `read_jsonl` of the file
keeping only that slice's documents. ``{"set_entries": ...}`` lines set the pooled table
of the whole file, which no slice has: they are refused.

>>> lines = ['{"categories": ["x", "y"]}',
...          '{"assigned": ["x"], "correct": ["x"], "source": "web"}',
...          '{"assigned": ["y"], "correct": ["x"]}']
>>> found = read_tally_slices(lines, by="source")
>>> [(key, tally.documents) for key, tally in found]
[(('web',), 1), ((None,), 1)]
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from informed.errors import InputError
from informed.io.jsonl import parse_line, read_numbered
from informed.slices.keys import MISSING, Key, key_order, keyed_key
from informed.tally.conventions import Conventions
from informed.tally.names import category_names
from informed.tally.state import Unknown
from informed.tally.tally import Tally

__all__ = ["read_tally_slices"]


def read_tally_slices(
    path_or_lines: str | os.PathLike[str] | Iterable[str],
    *,
    by: str | Sequence[str],
    categories: Iterable[str] | None = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> list[tuple[Key, Tally]]:
    """The Tally of every slice of a JSON-lines file's documents by the field(s) `by`
    (several: crossed): (key, Tally) pairs in the keys' canonical order (see the module's
    notes; pairs, not a dict, where the key (True,) would be the key (1,))."""
    fields = [by] if isinstance(by, str) else list(by)
    if not fields or not all(isinstance(f, str) for f in fields):
        msg = f"`by` must name one or more fields of the documents; got {by!r}."
        raise InputError(msg)
    if isinstance(path_or_lines, str | os.PathLike):
        path = Path(path_or_lines)
        with path.open(encoding="utf-8-sig") as handle:
            return _read(handle, f"{path}, ", fields, categories, unknown, conventions)
    return _read(path_or_lines, "", fields, categories, unknown, conventions)


def _read(
    lines: Iterable[str],
    source: str,
    fields: list[str],
    categories: Iterable[str] | None,
    unknown: Unknown | None,
    conventions: Conventions,
) -> list[tuple[Key, Tally]]:
    header: list[tuple[int, str]] = []
    parts: dict[Any, tuple[Key, list[tuple[int, str]]]] = {}
    named: set[str] = set()
    first = True
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{source}line {number}"
        record = parse_line(line, where)
        if first and "categories" in record:
            header.append((number, line))
            first = False
            continue
        first = False
        if "set_entries" in record:
            msg = (
                f"{where}: a set_entries line sets the pooled table of the whole file, "
                "which no slice has; slice a file of documents only."
            )
            raise InputError(msg)
        key = tuple(_key_value(record.pop(field, MISSING), field, where) for field in fields)
        for side in ("assigned", "correct"):
            if side in record:  # the names every slice's Tally will have, if undeclared
                named.update(category_names(record[side], side, where))
        parts.setdefault(keyed_key(key), (key, []))[1].append((number, json.dumps(record)))
    if not parts:
        msg = f"{source}no documents to slice."
        raise InputError(msg)
    if categories is None and not header:
        categories = sorted(named)
    return [
        (key, read_numbered(header + numbered, source, categories, unknown, conventions))
        for key, numbered in sorted(parts.values(), key=lambda part: key_order(part[0]))
    ]


def _key_value(value: Any, field: str, where: str) -> Any:
    """A document's value of a `by` field: a string, number or boolean; None is missing."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    msg = (
        f"{where}: the field {field!r} holds {json.dumps(value)[:60]}; a slice key is a "
        "string, a number or a boolean (null, or no field: the slice 'missing')."
    )
    raise InputError(msg)
