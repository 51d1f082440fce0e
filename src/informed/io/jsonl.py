"""The JSON-lines reader of `informed tally`: one document per line, into a Tally.

The file format of `informed tally`: an optional first line ``{"categories": [...]}``,
then one document per line, ``{"assigned": [...], "correct": [...]}`` with an optional
``"name"``. A malformed line is an error naming its line number, and a document is added
only once its line has been checked whole, so nothing is half-counted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from informed._common import check_choice
from informed.errors import InputError, InputTypeError
from informed.tally.conventions import CONVENTIONS, Conventions
from informed.tally.names import category_names, check_categories, preview
from informed.tally.state import UNKNOWN, Unknown
from informed.tally.tally import Tally

__all__ = ["read_jsonl"]


def read_jsonl(
    path_or_lines: str | os.PathLike[str] | Iterable[str | bytes],
    categories: Iterable[str] | None = None,
    unknown: Unknown = "error",
    conventions: Conventions = "default",
) -> Tally:
    """Read a Tally from JSON lines: one document per line.

    Format (issue 3): an optional first line ``{"categories": [...]}`` declares the
    categories; every other line is ``{"assigned": ..., "correct": ..., "name": ...}``
    ("name" optional), each side a list of category names, a single name, or an object
    whose keys with true values are the names (Statistics::Contingency's add_result).
    Blank lines are skipped. When neither the file nor `categories` declares the
    categories, they are all the categories the file names, in code-point order.

    Parameters
    ----------
    path_or_lines : str, path or iterable of str
        A file path (read as UTF-8, a BOM allowed), or the lines themselves.
    categories : sequence of str, optional
        The categories; if the file declares them too, the two must be the same set.
    unknown, conventions
        As for `Tally`.

    Returns
    -------
    Tally

    Raises
    ------
    InputError, InputTypeError
        For a malformed line, naming its 1-based line number (and the document name).
        Each line is validated completely before it is counted, so nothing is
        half-counted; the reader stops at the first bad line.

    References
    ----------
    Statistics::Contingency 0.09 (Williams), ``add_result``; issue 3 (the file format).

    >>> t = read_jsonl(['{"categories": ["x", "y"]}', '{"assigned": ["x"], "correct": "y"}'])
    >>> t.counts.tolist()
    [[[0, 1], [0, 0]], [[0, 0], [1, 0]]]
    """
    check_choice(unknown, UNKNOWN, "unknown")
    check_choice(conventions, CONVENTIONS, "conventions")
    if isinstance(path_or_lines, str | os.PathLike):
        path = Path(path_or_lines)
        with path.open(encoding="utf-8-sig") as handle:
            return _read_lines(handle, f"{path}, ", categories, unknown, conventions)
    if isinstance(path_or_lines, bytes):
        msg = "`path_or_lines` must be a path or an iterable of lines, not bytes."
        raise InputTypeError(msg)
    return _read_lines(path_or_lines, "", categories, unknown, conventions)


def _read_lines(
    lines: Iterable[str | bytes],
    source: str,
    categories: Iterable[str] | None,
    unknown: Unknown,
    conventions: Conventions,
) -> Tally:
    declared = None if categories is None else check_categories(categories)
    tally: Tally | None = None
    # categories undeclared: count a, b, c per category as first seen; d = documents - a - b - c
    seen: dict[str, list[int]] = {}
    documents = 0
    first = True
    for number, raw in enumerate(lines, start=1):
        where = f"{source}line {number}"
        line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        if not isinstance(line, str):
            msg = f"{where}: lines must be str; got {type(raw).__name__}."
            raise InputTypeError(msg)
        if not line.strip():
            continue
        record = _parse_line(line, where)
        if first and set(record) == {"categories"}:
            first = False
            in_file = check_categories(record["categories"], name=f"{where}: `categories`")
            if declared is not None and set(declared) != set(in_file):
                msg = (
                    f"{where}: the file declares the categories {preview(in_file)} but "
                    f"`categories=` gives {preview(declared)}."
                )
                raise InputError(msg)
            declared = declared or in_file
            continue
        first = False
        keys = set(record)
        if keys - {"assigned", "correct", "name"} or not {"assigned", "correct"} <= keys:
            msg = (
                f'{where}: a document line holds "assigned", "correct" and optionally '
                f'"name"; got the keys {sorted(record)}'
                + (" (a categories line must come first)." if "categories" in record else ".")
            )
            raise InputError(msg)
        name = record.get("name")
        if name is not None and (isinstance(name, bool) or not isinstance(name, str | int)):
            msg = f'{where}: "name" must be a string or an integer; got {name!r}.'
            raise InputTypeError(msg)
        if declared is not None:
            if tally is None:
                tally = Tally(declared, unknown=unknown, conventions=conventions)
            try:  # add_result checks everything before it counts
                tally.add_result(record["assigned"], record["correct"], name=name)
            except (InputError, InputTypeError) as exc:
                raise type(exc)(f"{where}: {exc}") from None
            continue
        document = where if name is None else f"{where}: document {name!r}"
        assigned = set(category_names(record["assigned"], "assigned", document))
        correct = set(category_names(record["correct"], "correct", document))
        for category in assigned | correct:
            cell = (0 if category in correct else 1) if category in assigned else 2
            seen.setdefault(category, [0, 0, 0])[cell] += 1
        documents += 1
    if declared is not None:
        return (
            tally
            if tally is not None
            else Tally(declared, unknown=unknown, conventions=conventions)
        )
    if not seen:
        msg = f"{source}no categories: the input declares none and names none; pass `categories=`."
        raise InputError(msg)
    names = tuple(sorted(seen))
    result = Tally(names, unknown=unknown, conventions=conventions)
    abc = np.array([seen[name] for name in names], dtype=np.int64)
    counts = np.zeros((len(names), 2, 2), dtype=np.int64)
    counts[:, 0, 0], counts[:, 0, 1], counts[:, 1, 0] = abc[:, 0], abc[:, 1], abc[:, 2]
    counts[:, 1, 1] = documents - abc.sum(axis=1)
    result._counts, result._pooled, result._documents = counts, counts.sum(axis=0), documents
    return result


def _parse_line(line: str, where: str) -> dict[str, Any]:
    def refuse(token: str) -> float:
        msg = f"{where}: {token} is not valid JSON."
        raise InputError(msg)

    try:
        record = json.loads(line, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        msg = f"{where}: not valid JSON ({exc.msg} at column {exc.colno})."
        raise InputError(msg) from None
    if not isinstance(record, dict):
        msg = f"{where}: each line must be a JSON object; got {type(record).__name__}."
        raise InputError(msg)
    return record
