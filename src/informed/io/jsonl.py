"""The JSON-lines reader of `informed tally`: one document per line, into a Tally.

The file format of `informed tally`: an optional first line ``{"categories": [...]}``,
then one document per line, ``{"assigned": [...], "correct": [...]}`` with an optional
``"name"``, or ``{"set_entries": [a, b, c, d]}`` to set the pooled table. A malformed
line is an error naming its line number, and a document is added only once its line has
been checked whole, so nothing is half-counted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice
from informed.errors import InputError, InputTypeError
from informed.tally.conventions import CONVENTIONS, STATISTICS_CONTINGENCY, Conventions
from informed.tally.counting import entry_values
from informed.tally.names import category_names, check_categories, preview, shown
from informed.tally.state import Unknown, unknown_policy
from informed.tally.tally import Tally

__all__ = ["parse_line", "read_jsonl", "read_numbered"]


def read_jsonl(
    path_or_lines: str | os.PathLike[str] | Iterable[str | bytes],
    categories: Iterable[str] | None = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> Tally:
    """Read a Tally from JSON lines: one document per line.

    Format: an optional first line ``{"categories": [...]}`` declares the categories;
    every other line is a document ``{"assigned": ..., "correct": ..., "name": ...}``
    ("name" optional), each side a list of category names, a single name, or an object
    whose keys with true values are the names (Statistics::Contingency's add_result), or
    ``{"set_entries": [a, b, c, d]}``, which sets the pooled table there as the Perl
    module's ``set_entries`` does (documents after it add to the cells it set).
    Blank lines are skipped. When neither the file nor `categories` declares the
    categories, they are all the categories the file names, in code-point order.

    Parameters
    ----------
    path_or_lines : str, path or iterable of str
        A file path (read as UTF-8, a BOM allowed), or the lines themselves.
    categories : sequence of str, optional
        The categories; if the file declares them too, the two must be the same set.
    unknown, conventions
        As for `Tally` (by default unknown categories are an error under the default
        conventions, ignored and counted under "statistics-contingency").

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
    Statistics::Contingency 0.09 (Williams), ``add_result`` and ``set_entries``.

    >>> t = read_jsonl(['{"categories": ["x", "y"]}', '{"assigned": ["x"], "correct": "y"}'])
    >>> t.counts.tolist()
    [[[0, 1], [0, 0]], [[0, 0], [1, 0]]]
    """
    check_choice(conventions, CONVENTIONS, "conventions")
    unknown = unknown_policy(unknown, conventions)
    if isinstance(path_or_lines, str | os.PathLike):
        path = Path(path_or_lines)
        with path.open(encoding="utf-8-sig") as handle:
            return _read_lines(handle, f"{path}, ", categories, unknown, conventions)
    if isinstance(path_or_lines, bytes):
        msg = "`path_or_lines` must be a path or an iterable of lines, not bytes."
        raise InputTypeError(msg)
    return _read_lines(path_or_lines, "", categories, unknown, conventions)


def read_numbered(
    numbered: Iterable[tuple[int, str]],
    source: str,
    categories: Iterable[str] | None = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> Tally:
    """`read_jsonl` of lines given with their line numbers (some lines of a file, such
    as one slice's: `informed.io.sliced_tallies`), every message naming the file's line;
    `source` is the file's name followed by ", "."""
    check_choice(conventions, CONVENTIONS, "conventions")
    unknown = unknown_policy(unknown, conventions)
    return _read_lines(numbered, source, categories, unknown, conventions, numbered=True)


def parse_line(line: str, where: str) -> dict[str, Any]:
    """One line of JSON lines as an object, or an InputError naming `where` it is."""
    return _parse_line(line, where)


class _Undeclared:
    """The counts of a file whose categories are not declared: cells a, b, c of each
    category as first seen, and the pooled cells since the last ``set_entries`` line; d
    follows once the number of categories is known."""

    def __init__(self) -> None:
        self.seen: dict[str, list[int]] = {}
        self.documents = 0
        self.entries: NDArray[Any] | None = None  # the cells of the last set_entries line
        self.since = [0, 0, 0]  # pooled a, b, c of the documents after it
        self.documents_since = 0

    def add(self, assigned: set[str], correct: set[str]) -> None:
        for category in assigned | correct:
            cell = (0 if category in correct else 1) if category in assigned else 2
            self.seen.setdefault(category, [0, 0, 0])[cell] += 1
            self.since[cell] += 1
        self.documents += 1
        self.documents_since += 1

    def set_entries(self, cells: NDArray[Any]) -> None:
        self.entries, self.since, self.documents_since = cells, [0, 0, 0], 0

    def tally(self, unknown: Unknown, conventions: Conventions) -> Tally:
        names = tuple(sorted(self.seen))
        abc = np.array([self.seen[name] for name in names], dtype=np.int64)
        counts = np.zeros((len(names), 2, 2), dtype=np.int64)
        counts[:, 0, 0], counts[:, 0, 1], counts[:, 1, 0] = abc[:, 0], abc[:, 1], abc[:, 2]
        counts[:, 1, 1] = self.documents - abc.sum(axis=1)
        pooled = None
        if self.entries is not None:
            a, b, c = self.since
            d = self.documents_since * len(names) - a - b - c
            # Python numbers (object array): a sum past int64 is refused, never wrapped
            pooled = self.entries.astype(object) + np.array([[a, b], [c, d]], dtype=object)
        return Tally.from_counts(
            names, counts, pooled=pooled, unknown=unknown, conventions=conventions
        )


def _read_lines(
    lines: Iterable[Any],
    source: str,
    categories: Iterable[str] | None,
    unknown: Unknown,
    conventions: Conventions,
    numbered: bool = False,
) -> Tally:
    merge = conventions == STATISTICS_CONTINGENCY
    declared = None if categories is None else check_categories(categories, merge=merge)
    tally: Tally | None = None
    undeclared = _Undeclared()
    first = True
    for number, raw in lines if numbered else enumerate(lines, start=1):
        where = f"{source}line {number}"
        line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        if not isinstance(line, str):
            msg = f"{where}: lines must be str; got {type(raw).__name__}."
            raise InputTypeError(msg)
        if not line.strip():
            continue
        record = _parse_line(line, where)
        is_first, first = first, False
        if "categories" in record:
            if not is_first:
                msg = (
                    f'{where}: a "categories" line must be the first line of the file '
                    "(blank lines aside); move it before the documents."
                )
                raise InputError(msg)
            if set(record) != {"categories"}:
                msg = (
                    f'{where}: a "categories" line holds only "categories"; this one also '
                    f"holds {sorted(set(record) - {'categories'})}. Remove them."
                )
                raise InputError(msg)
            try:
                in_file = check_categories(record["categories"], merge=merge)
            except (InputError, InputTypeError) as exc:
                raise type(exc)(f"{where}: {exc}") from None
            if declared is not None and set(declared) != set(in_file):
                msg = (
                    f"{where}: the file declares the categories {preview(in_file)} but "
                    f"`categories=` gives {preview(declared)}."
                )
                raise InputError(msg)
            declared = declared or in_file
            continue
        if declared is not None and tally is None:
            tally = Tally(declared, unknown=unknown, conventions=conventions)
        if "set_entries" in record:
            cells = _entries(record, where, conventions)
            if tally is not None:
                tally.set_entries(*cells.ravel().tolist())
            else:
                undeclared.set_entries(cells)
            continue
        name = _document(record, where)
        if tally is not None:
            try:  # add_result checks everything before it counts
                tally.add_result(record["assigned"], record["correct"], name=name)
            except (InputError, InputTypeError) as exc:
                raise type(exc)(f"{where}: {exc}") from None
            continue
        document = where if name is None else f"{where}: document {name!r}"
        assigned = set(category_names(record["assigned"], "assigned", document))
        correct = set(category_names(record["correct"], "correct", document))
        undeclared.add(assigned, correct)
    if declared is not None:
        return tally or Tally(declared, unknown=unknown, conventions=conventions)
    if not undeclared.seen:
        msg = f"{source}no categories: the input declares none and names none; pass `categories=`."
        raise InputError(msg)
    try:
        return undeclared.tally(unknown, conventions)
    except InputError as exc:  # the cells of a set_entries line, grown past int64
        msg = f"{source}the pooled table after the last set_entries line: {exc}"
        raise InputError(msg) from None


def _document(record: dict[str, Any], where: str) -> str | int | None:
    """The name of a document line, after checking its keys."""
    keys = set(record)
    if keys - {"assigned", "correct", "name"} or not {"assigned", "correct"} <= keys:
        msg = (
            f'{where}: a document line holds "assigned", "correct" and optionally "name" '
            f'(other lines: {{"categories": [...]}} first, {{"set_entries": [a, b, c, d]}}); '
            f"got the keys {sorted(record)}."
        )
        raise InputError(msg)
    name = record.get("name")
    if name is not None and (isinstance(name, bool) or not isinstance(name, str | int)):
        msg = f'{where}: "name" must be a string or an integer; got {shown(name)}.'
        raise InputTypeError(msg)
    return name


def _entries(record: dict[str, Any], where: str, conventions: Conventions) -> NDArray[Any]:
    """The four cells of a ``{"set_entries": [a, b, c, d]}`` line, checked."""
    cells = record["set_entries"]
    if set(record) != {"set_entries"} or not isinstance(cells, list) or len(cells) != 4:
        msg = (
            f'{where}: a set_entries line is {{"set_entries": [a, b, c, d]}} and nothing '
            f"else; got {shown(record)}."
        )
        raise InputError(msg)
    try:
        return entry_values(conventions, *cells)
    except (InputError, InputTypeError) as exc:
        raise type(exc)(f"{where}: set_entries: {exc}") from None


def _parse_line(line: str, where: str) -> dict[str, Any]:
    def refuse(token: str) -> float:
        msg = f"{where}: {token} is not valid JSON."
        raise InputError(msg)

    try:
        record = json.loads(line, parse_constant=refuse)
    except json.JSONDecodeError as exc:
        msg = f"{where}: not valid JSON ({exc.msg} at column {exc.colno})."
        raise InputError(msg) from None
    except RecursionError:
        msg = (
            f"{where}: the JSON is nested too deeply to read; a line holds one object "
            "of category lists."
        )
        raise InputError(msg) from None
    if not isinstance(record, dict):
        msg = f"{where}: each line must be a JSON object; got {type(record).__name__}."
        raise InputError(msg)
    return record
