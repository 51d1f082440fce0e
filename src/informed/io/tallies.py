"""Multi-label documents to a Tally, one partition at a time: the rows of a frame or the
lines of a JSON-lines file become `Summaries` holding a Tally, which merge as every
`Summaries` does (`informed.io.coverage`): exactly, and never covering one partition twice.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from informed._routes import engine_route
from informed.coding.columns import collected, engine_of, frame_column
from informed.errors import InputError
from informed.io.coverage import Summaries
from informed.io.jsonl import read_jsonl
from informed.io.paths import part_id
from informed.tally.conventions import Conventions
from informed.tally.state import Unknown
from informed.tally.tally import Tally

__all__ = ["summarise_documents", "summarise_jsonl"]


def _python_values(column: Any) -> list[Any]:
    """A column (pandas, polars, Arrow, numpy, list) as a list of Python values; list-like
    cells (numpy arrays of an Arrow list column) become lists."""
    if hasattr(column, "to_pylist"):
        values = column.to_pylist()
    elif hasattr(column, "to_list"):
        values = column.to_list()
    elif hasattr(column, "tolist"):
        values = column.tolist()
    else:
        values = list(column)
    return [v.tolist() if isinstance(v, np.ndarray) else v for v in values]


def summarise_documents(
    frame: Any,
    *,
    part: str,
    categories: Any,
    assigned: str = "assigned",
    correct: str = "correct",
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> Summaries:
    """A Tally of a frame's rows, one document per row, recorded as the partition `part`.

    Each cell of the `assigned` and `correct` columns holds what `Tally.add_result` takes
    for one document: a list of category names, a single name, or a dict. Messages name
    the partition and the row (from 1).

    >>> found = summarise_documents({"assigned": [["x"], []], "correct": [["x"], ["y"]]},
    ...                             part="p0", categories=["x", "y"])
    >>> found.rows, found.tally.micro("recall")
    (2, 0.5)
    """
    if engine_of(frame) is not None:  # counted on its engine (informed.engines.tally)
        found: Summaries = engine_route().documents(
            frame,
            part=part,
            categories=categories,
            assigned=assigned,
            correct=correct,
            unknown=unknown,
            conventions=conventions,
        )
        return found
    tally = Tally(categories, unknown=unknown, conventions=conventions)
    frame = collected(frame, assigned=assigned, correct=correct)
    given = _python_values(frame_column(frame, assigned, "assigned"))
    right = _python_values(frame_column(frame, correct, "correct"))
    if len(given) != len(right):  # pragma: no cover - a frame's columns agree
        msg = f"`{assigned}` and `{correct}` differ in length."
        raise InputError(msg)
    for row, (a, c) in enumerate(zip(given, right, strict=True)):
        tally.add_result(a, c, name=f"{part} row {row + 1}")
    rows = len(given)
    return Summaries(rows, None, None, (), rows, frozenset({part}), tally)


def summarise_jsonl(
    path: str | os.PathLike[str],
    *,
    categories: Any = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
    part: str | None = None,
) -> Summaries:
    """The Tally of a JSON-lines file (`informed.io.read_jsonl`), its absolute path (or
    `part`) as the partition id."""
    from informed.io.files import check_file

    file = Path(path)
    check_file(file, empty=True)
    tally = read_jsonl(file, categories=categories, unknown=unknown, conventions=conventions)
    rows = tally.documents
    found = Summaries(rows, None, None, (), rows, frozenset({part_id(file)}), tally)
    return found if part is None else replace(found, parts=frozenset({part}))
