"""Nothing lost, nothing counted twice: merging `Summaries`, checking what they cover, and
their JSON form.

A `Summaries` records the partitions its rows came from (`parts`) and how many rows were
read (`rows`). Merging two that share a partition is an error: a task run twice, a file
read twice, or a partial result given twice to ``informed merge`` would otherwise be
counted twice. `check_complete` compares the merged summaries with what was read, partition
by partition, so a partition lost on the way (a result dropped, a file skipped) is named.

Why on `Summaries` and not on Table, Ranking and Tally: those are exact values whose `+`
is a plain sum (equal to the summary of all the rows, whatever the split); which
partitions of which input they came from is a fact about the reading, recorded beside them
by the reader that knows it. The JSON form nests each summary's own document unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from informed._common import check_document, json_value, loads_strict, sums_differ
from informed.coding.labels import Label, as_label, keyed, sort_labels
from informed.errors import InputError
from informed.ranking import Ranking
from informed.ranking.classes import negative_of, same_label
from informed.table import Table

if TYPE_CHECKING:
    from informed.tally import Tally

__all__ = [
    "JSON_KIND",
    "Merger",
    "Summaries",
    "check_complete",
    "check_parts",
    "check_positive",
    "counted_rows",
    "merge_summaries",
    "summaries_from_dict",
    "summaries_to_dict",
]

JSON_KIND: Final = "informed.Summaries"
JSON_VERSION: Final = 1
_KEYS: Final = frozenset(
    {
        "kind",
        "version",
        "rows_read",
        "weighted_rows",
        "partitions",
        "labels",
        "table",
        "ranking",
        "tally",
    }
)


@dataclass(frozen=True)
class Summaries:
    """The summaries of some rows, and which rows: what `read_summaries` found.

    Attributes
    ----------
    rows : int
        Data rows read (every one counted: a bad row is an error, never skipped).
    table : Table or None
        Predicted against actual labels, when `predicted` was named.
    ranking : Ranking or None
        Scores of the `positive` class against all the others, when `scores` was named;
        `ranking.positive` names that class, so summaries of different positive classes
        refuse to merge (`Ranking.__add__` names both), and `ranking.negative` the other
        class when the rows hold one only, as `Ranking.from_scores` names it (else None).
    labels : tuple
        Every label that occurs in the actual column (and the predicted one), in
        canonical order.
    weighted_rows : int
        Rows with a positive weight (all rows without `weight`): the sample size when
        weights are normalised rather than frequencies.
    parts : frozenset of str
        The partitions these rows came from: the absolute path of each file read, or the
        ids given to `summarise_frame`. Two summaries covering one partition do not merge.
    tally : Tally or None
        The multi-label Tally of the rows, when they are documents (`informed.dask.tally`).

    `a + b` merges two (`informed.io.coverage.merge_summaries`); `to_json` and
    `Summaries.from_json` carry every field, so summaries written by separate processes
    merge to the summaries of all their rows (``informed merge``).

    >>> from informed.io import summarise_frame
    >>> monday = summarise_frame({"y": ["a", "b"], "p": ["a", "a"]}, part="monday",
    ...                          actual="y", predicted="p")
    >>> tuesday = summarise_frame({"y": ["b"], "p": ["b"]}, part="tuesday",
    ...                           actual="y", predicted="p")
    >>> week = monday + tuesday
    >>> week.rows, week.table.counts.tolist(), sorted(week.parts)
    (3, [[1, 1], [0, 1]], ['monday', 'tuesday'])
    >>> week + tuesday  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    informed.errors.InputError: both summaries cover the partition 'tuesday': its rows would ...
    >>> Summaries.from_json(week.to_json()) == week
    True
    """

    rows: int
    table: Table | None
    ranking: Ranking | None
    labels: tuple[Label, ...]
    weighted_rows: int
    parts: frozenset[str] = field(default_factory=frozenset)
    tally: Tally | None = None

    def __post_init__(self) -> None:
        """The Ranking names the one actual class other than its positive one, as
        `Ranking.from_scores` of the same rows does; None when the rows hold none or
        several (the positive class against all the others). The actual classes are the
        Table's columns, or without a Table the labels seen; a merge names it again."""
        ranking = self.ranking
        if ranking is None or ranking.positive is None:
            return
        classes = self.table.actual if self.table is not None else self.labels
        negative = negative_of(classes, ranking.positive)
        if not same_label(negative, ranking.negative):
            object.__setattr__(self, "ranking", ranking.with_classes(ranking.positive, negative))

    def __add__(self, other: object) -> Summaries:
        """Merge: summaries added, rows added, partitions joined (never overlapping)."""
        if not isinstance(other, Summaries):
            return NotImplemented
        return merge_summaries(self, other)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (`informed.io.coverage.summaries_to_dict`)."""
        return summaries_to_dict(self)

    def to_json(self) -> str:
        """The summaries as JSON text; `Summaries.from_json` restores them exactly."""
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Summaries:
        """Restore summaries from `to_dict` output, every field checked."""
        return summaries_from_dict(data)

    @classmethod
    def from_json(cls, text: str) -> Summaries:
        """Parse `to_json` output; NaN and Infinity tokens are refused."""
        try:
            data = loads_strict(text, "a Summaries JSON document")
        except json.JSONDecodeError as exc:
            msg = f"not a Summaries JSON document: {exc}."
            raise InputError(msg) from None
        return cls.from_dict(data)


def _preview(parts: Sequence[str], limit: int = 3) -> str:
    shown = ", ".join(repr(p) for p in parts[:limit])
    return shown + (f" and {len(parts) - limit} more" if len(parts) > limit else "")


def merge_summaries(left: Summaries, right: Summaries) -> Summaries:
    """`left + right`: the summaries of both, refused when they share a partition."""
    if not left.parts or not right.parts:
        msg = (
            "summaries that name no partition cannot be merged: whether they cover the same "
            "rows cannot be checked; summarise each partition with its id (`part=`)."
        )
        raise InputError(msg)
    both = sorted(left.parts & right.parts)
    if both:
        msg = (
            f"both summaries cover the partition {_preview(both)}: its rows would be counted "
            "twice (a task run twice, a file read twice, or a partial result given twice)."
        )
        raise InputError(msg)
    merged: list[Any] = []
    for name in ("table", "ranking", "tally"):
        mine, theirs = getattr(left, name), getattr(right, name)
        if (mine is None) != (theirs is None):
            msg = (
                f"one of the summaries has a {name.title()} and the other not: they were "
                "read with different columns; summarise every partition alike."
            )
            raise InputError(msg)
        if name == "ranking" and mine is not None and theirs is not None:
            # each part names the negative class of its own rows: named again once merged
            mine, theirs = mine.with_classes(mine.positive), theirs.with_classes(theirs.positive)
        merged.append(None if mine is None else mine + theirs)
    return Summaries(
        rows=left.rows + right.rows,
        table=merged[0],
        ranking=merged[1],
        labels=sort_labels((*left.labels, *right.labels)),
        weighted_rows=left.weighted_rows + right.weighted_rows,
        parts=left.parts | right.parts,
        tally=merged[2],
    )


class Merger:
    """Summaries merged one by one like a binary counter: a new one merges with the last
    while that holds no more than twice its tie groups, so n partitions cost O(n log n)
    merges of Rankings however they are ordered."""

    def __init__(self) -> None:
        self.stack: list[Summaries] = []
        self.rows = 0

    @staticmethod
    def _size(found: Summaries) -> int:
        return found.ranking.n_groups if found.ranking is not None else 0

    def add(self, found: Summaries) -> None:
        """Take one more partition's summaries."""
        self.stack.append(found)
        self.rows += found.rows
        while len(self.stack) > 1 and self._size(self.stack[-2]) <= 2 * self._size(self.stack[-1]):
            last = self.stack.pop()
            self.stack[-1] = self.stack[-1] + last

    def result(self) -> Summaries:
        """The merged summaries of every partition taken (at least one)."""
        if not self.stack:
            msg = "no summaries to merge."
            raise InputError(msg)
        total = self.stack[-1]
        for found in reversed(self.stack[:-1]):
            total = found + total
        return total


def counted_rows(found: Summaries) -> int:
    """The rows the summaries themselves count, checked against `rows`: an unweighted
    Table's and Ranking's N and a Tally's documents must all equal the rows read (weighted
    summaries hold sums of weights, so `rows` stands for them)."""
    counts: list[tuple[str, int | float]] = []
    if found.table is not None and not found.table.weighted:
        counts.append(("the Table", found.table.n))
    if found.ranking is not None and not found.ranking.weighted:
        counts.append(("the Ranking", found.ranking.n))
    if found.tally is not None:
        counts.append(("the Tally", found.tally.documents))
    for name, count in counts:
        if count != found.rows:
            msg = f"{name} counts {count:,} rows but {found.rows:,} were read: rows were lost."
            raise InputError(msg)
    return found.rows


def check_complete(found: Summaries, rows_read: Mapping[str, int]) -> None:
    """The merged summaries count exactly the rows read, partition by partition.

    `rows_read` maps each partition that was read to its rows, as the readers reported
    them. A partition read but missing from the summaries (a result lost), one counted but
    never read, or a total that differs is an InputError naming the partitions.
    """
    read = sum(rows_read.values())
    missing = sorted(set(rows_read) - found.parts)
    extra = sorted(found.parts - set(rows_read))
    if found.rows != read or missing or extra:
        problems = []
        if missing:
            lost = sum(rows_read[p] for p in missing)
            problems.append(f"the partition {_preview(missing)} ({lost:,} rows) was not counted")
        if extra:
            problems.append(f"the partition {_preview(extra)} was counted but never read")
        detail = "; ".join(problems) or "a partition's rows changed between reading and counting"
        msg = f"counted {found.rows:,} rows but {read:,} were read: {detail}."
        raise InputError(msg)
    counted_rows(found)


def check_positive(found: Summaries, positive: Any, message: str) -> None:
    """`positive` (when given) is among the labels the summaries saw; else `message`."""
    if positive is None:
        return
    if keyed(as_label(positive)) not in {keyed(x) for x in found.labels}:
        msg = f"{message}; labels are {list(found.labels[:20])}."
        raise InputError(msg)


# -- JSON ------------------------------------------------------------------------------


def summaries_to_dict(found: Summaries) -> dict[str, Any]:
    """The JSON form: the coverage (rows read, partitions), the labels seen, and each
    summary's own document (or null)."""
    return {
        "kind": JSON_KIND,
        "version": JSON_VERSION,
        "rows_read": found.rows,
        "weighted_rows": found.weighted_rows,
        "partitions": sorted(found.parts),
        "labels": list(found.labels),
        "table": None if found.table is None else found.table.to_dict(),
        "ranking": None if found.ranking is None else found.ranking.to_dict(),
        "tally": None if found.tally is None else found.tally.to_dict(),
    }


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**63 - 1:
        msg = f"`{name}` must be a whole number of rows in [0, 2**63 - 1]; got {json_value(value)}."
        raise InputError(msg)
    return value


def summaries_from_dict(data: Any) -> Summaries:
    """Summaries from `summaries_to_dict` output, every field checked (an edited or
    truncated document is refused, never merged)."""
    check_document(data, "Summaries", _KEYS, JSON_KIND, JSON_VERSION)
    rows = _count(data["rows_read"], "rows_read")
    weighted_rows = _count(data["weighted_rows"], "weighted_rows")
    if weighted_rows > rows:
        msg = f"`weighted_rows` ({weighted_rows}) cannot pass `rows_read` ({rows})."
        raise InputError(msg)
    parts = data["partitions"]
    if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
        msg = "`partitions` must be a list of partition ids (strings)."
        raise InputError(msg)
    if not parts:
        msg = (
            "`partitions` is empty: summaries name the partitions they cover, so that none "
            "is counted twice when they are merged."
        )
        raise InputError(msg)
    if len(set(parts)) != len(parts) or parts != sorted(parts):
        msg = "`partitions` must name each partition once, in sorted order."
        raise InputError(msg)
    raw_labels = data["labels"]
    if not isinstance(raw_labels, list):
        msg = f"`labels` must be a list; got {type(raw_labels).__name__}."
        raise InputError(msg)
    given = tuple(as_label(x) for x in raw_labels)
    labels = sort_labels(given)
    if len(labels) != len(raw_labels):
        msg = "`labels` must hold distinct labels."
        raise InputError(msg)
    if [keyed(x) for x in labels] != [keyed(x) for x in given]:
        msg = "`labels` must be in canonical order (as the summaries write them)."
        raise InputError(msg)
    table = None if data["table"] is None else Table.from_dict(data["table"])
    ranking = None if data["ranking"] is None else Ranking.from_dict(data["ranking"])
    tally: Tally | None = None
    if data["tally"] is not None:
        from informed.tally import Tally

        tally = Tally.from_dict(data["tally"])
    found = Summaries(rows, table, ranking, labels, weighted_rows, frozenset(parts), tally)
    counted_rows(found)
    check_parts(found)
    if ranking is not None and found.ranking is not None:  # as the writer names it
        named, written = found.ranking.negative, ranking.negative
        if not same_label(named, written):
            msg = (
                f"the Ranking names the negative class {written!r}, but the rows' other "
                f"class is {named!r} (None: none, or several: all the other classes)."
            )
            raise InputError(msg)
    return found


def check_parts(found: Summaries) -> None:
    """Refuse summaries whose parts disagree, as no reading of rows gives them: a label
    of the Table that `labels` does not list; without weights, `weighted_rows` other
    than the rows; with weights, more non-zero cells or tie groups than rows of positive
    weight; a Ranking whose positives are not the Table's column of its positive class
    (its negatives the rest), or that counts positives of a class never seen; a Tally
    beside a Table, a Ranking or labels (documents are summarised alone)."""
    table, ranking = found.table, found.ranking
    seen = {keyed(x) for x in found.labels}
    if found.tally is not None and (table is not None or ranking is not None or seen):
        msg = "summaries of documents (a Tally) hold no Table, Ranking or `labels`."
        raise InputError(msg)
    if table is not None:
        unlisted = [x for x in table.labels if keyed(x) not in seen]
        if unlisted:
            msg = (
                f"the Table's label {unlisted[0]!r} is not among `labels`, which list every "
                "label read."
            )
            raise InputError(msg)
    weighted = [s.weighted for s in (table, ranking) if s is not None]
    if not any(weighted) and found.weighted_rows != found.rows:
        msg = (
            f"`weighted_rows` ({found.weighted_rows}) must equal `rows_read` ({found.rows}) "
            "without weights: every row counts."
        )
        raise InputError(msg)
    if len(set(weighted)) > 1:
        msg = "the Table and the Ranking must both hold weights or both counts."
        raise InputError(msg)
    held = [("non-zero cells", "the Table", table.cells.counts.size)] if table else []
    held += [("tie groups", "the Ranking", ranking.n_groups)] if ranking else []
    for what, which, count in held:
        if any(weighted) and count > found.weighted_rows:
            msg = (
                f"{which} has {count} {what} but `weighted_rows` is {found.weighted_rows}: "
                "each holds a row of positive weight."
            )
            raise InputError(msg)
    if ranking is not None and ranking.positive is not None:
        _check_classes(found, ranking, ranking.positive, seen)


def _check_classes(found: Summaries, ranking: Ranking, positive: Label, seen: set[Any]) -> None:
    """The Ranking counts the rows of `positive` against all the others (its negative
    class, where it names one, is the rows' one other class: checked on reading)."""
    positives, negatives = ranking.positives.sum(), ranking.negatives.sum()
    if keyed(positive) not in seen and positives:
        msg = (
            f"the Ranking counts {positives.item()!r} positives of the class {positive!r}, "
            "which is not among `labels`, which list every label read."
        )
        raise InputError(msg)
    table = found.table
    if table is None:
        return
    wanted = keyed(positive)
    column = next((j for j, x in enumerate(table.actual) if keyed(x) == wanted), -1)
    cells = table.cells
    inside = cells.actual == column
    for name, count, expected in (
        ("positives", positives, cells.counts[inside].sum()),
        ("negatives", negatives, cells.counts[~inside].sum()),
    ):
        if sums_differ(np.array([count]), np.array([expected]), found.rows)[0]:
            where = "in the column" if name == "positives" else "outside the column"
            msg = (
                f"the Ranking counts {count.item()!r} {name} but the Table {expected.item()!r} "
                f"{where} of its positive class {positive!r}: they count other rows."
            )
            raise InputError(msg)
