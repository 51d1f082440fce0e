"""The exact reader of the JSON lines of `informed tally`: one line at a time, in Python.

`Reader` reads a line (`Reader.line`): an optional first line ``{"categories": [...]}``,
then documents ``{"assigned": [...], "correct": [...]}`` with an optional ``"name"``, or
``{"set_entries": [a, b, c, d]}`` to set the pooled table. A malformed line is an error
naming its line number, and a document is added only once its line has been checked
whole, so nothing is half-counted. `Reader.documents` counts documents in bulk for the
fast route (`informed.io.jsonl_arrow`), which vouches that they are what `line` would
have counted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.tally.conventions import STATISTICS_CONTINGENCY, Conventions
from informed.tally.counting import add_column_sums, entry_values
from informed.tally.names import category_names, check_categories, preview, shown
from informed.tally.state import Unknown
from informed.tally.tally import Tally

__all__ = ["Reader", "parse_line", "read_lines"]

Ints = NDArray[np.int64]


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

    def add_sums(self, names: list[str], n: int, both: Ints, assigned: Ints, correct: Ints) -> None:
        """`add` for `n` documents at once, from their sums per category name."""
        for j, category in enumerate(names):
            a = int(both[j])
            cells = (a, int(assigned[j]) - a, int(correct[j]) - a)
            if any(cells):
                seen = self.seen.setdefault(category, [0, 0, 0])
                for i, value in enumerate(cells):
                    seen[i] += value
                    self.since[i] += value
        self.documents += n
        self.documents_since += n

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


class Reader:
    """The exact reader: JSON lines fed one at a time (`line`), or documents counted in bulk
    (`documents`, from the fast route of `informed.io.jsonl_arrow`), in file order; the
    Tally at the end (`tally`). Every line is checked whole before it counts."""

    def __init__(
        self,
        source: str,
        categories: Iterable[str] | None,
        unknown: Unknown,
        conventions: Conventions,
    ) -> None:
        self.source, self.unknown, self.conventions = source, unknown, conventions
        self.merge = conventions == STATISTICS_CONTINGENCY
        self.declared = (
            None if categories is None else check_categories(categories, merge=self.merge)
        )
        self.counted: Tally | None = None
        self.undeclared = _Undeclared()
        self.first = True  # no line but blank ones read yet

    def line(self, number: int, raw: str | bytes) -> None:
        """Read line `number` (1-based): a categories, set_entries or document line."""
        where = f"{self.source}line {number}"
        line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        if not isinstance(line, str):
            msg = f"{where}: lines must be str; got {type(raw).__name__}."
            raise InputTypeError(msg)
        if not line.strip():
            return
        record = parse_line(line, where)
        is_first, self.first = self.first, False
        if "categories" in record:
            self._categories_line(record, where, is_first)
            return
        tally = self._tally()
        if "set_entries" in record:
            cells = _entries(record, where, self.conventions)
            if tally is not None:
                tally.set_entries(*cells.ravel().tolist())
            else:
                self.undeclared.set_entries(cells)
            return
        name = _document(record, where)
        if tally is not None:
            try:  # add_result checks everything before it counts
                tally.add_result(record["assigned"], record["correct"], name=name)
            except (InputError, InputTypeError) as exc:
                raise type(exc)(f"{where}: {exc}") from None
            return
        document = where if name is None else f"{where}: document {name!r}"
        assigned = set(category_names(record["assigned"], "assigned", document))
        correct = set(category_names(record["correct"], "correct", document))
        self.undeclared.add(assigned, correct)

    def knows(self, name: str) -> bool:
        """Whether a document may name the category `name` without an error."""
        return self.declared is None or self.unknown == "ignore" or name in self.declared

    def documents(
        self, names: list[str], n: int, both: Ints, assigned: Ints, correct: Ints
    ) -> None:
        """Count `n` document lines at once, given per category name (every name one that
        `knows`) the documents naming it on both sides, as assigned and as correct."""
        tally = self._tally()
        if tally is not None:
            add_column_sums(tally, names, n, both, assigned, correct)
        else:
            self.undeclared.add_sums(names, n, both, assigned, correct)
        self.first = False

    def tally(self) -> Tally:
        """The Tally of every line read."""
        if self.declared is not None:
            return self._tally() or Tally(
                self.declared, unknown=self.unknown, conventions=self.conventions
            )
        if not self.undeclared.seen:
            msg = (
                f"{self.source}no categories: the input declares none and names none; "
                "pass `categories=`."
            )
            raise InputError(msg)
        try:
            return self.undeclared.tally(self.unknown, self.conventions)
        except InputError as exc:  # the cells of a set_entries line, grown past int64
            msg = f"{self.source}the pooled table after the last set_entries line: {exc}"
            raise InputError(msg) from None

    def _tally(self) -> Tally | None:
        if self.declared is not None and self.counted is None:
            self.counted = Tally(self.declared, unknown=self.unknown, conventions=self.conventions)
        return self.counted

    def _categories_line(self, record: dict[str, Any], where: str, is_first: bool) -> None:
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
            in_file = check_categories(record["categories"], merge=self.merge)
        except (InputError, InputTypeError) as exc:
            raise type(exc)(f"{where}: {exc}") from None
        if self.declared is not None and set(self.declared) != set(in_file):
            msg = (
                f"{where}: the file declares the categories {preview(in_file)} but "
                f"`categories=` gives {preview(self.declared)}."
            )
            raise InputError(msg)
        self.declared = self.declared or in_file


def read_lines(
    lines: Iterable[str | bytes],
    source: str,
    categories: Iterable[str] | None,
    unknown: Unknown,
    conventions: Conventions,
) -> Tally:
    reader = Reader(source, categories, unknown, conventions)
    for number, raw in enumerate(lines, start=1):
        reader.line(number, raw)
    return reader.tally()


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


def parse_line(line: str, where: str) -> dict[str, Any]:
    """One line of JSON lines as an object, or an InputError naming `where` it is."""

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
