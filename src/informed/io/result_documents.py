"""Result documents read back: their schema, version and kind, and the exact summaries an
evaluation's document holds (``informed evaluate --format json --summary``).

A result document (what every ``--format json`` writes; `informed.report.result_schema`
stamps it and ships its JSON Schema) begins with ``"schema": "informed.result"``, its
``"version"`` and its ``"kind"``. `document_version` and `document_kind` read those, for
`informed.report.records` and for ``informed merge``, which reads the summaries of a
document written with ``--summary`` (`document_summaries`) as it reads a Table's or a
Ranking's JSON. They live here, below the report that writes the documents, so that the
readers of files can read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from informed.errors import InputError, InputTypeError

if TYPE_CHECKING:  # loaded when a document's summaries are read: the rest stays light
    from informed.coding.labels import Label
    from informed.ranking import Ranking
    from informed.table import Table

__all__ = [
    "KINDS",
    "NO_SUMMARY",
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "DocumentSummaries",
    "check_summary_keys",
    "document_kind",
    "document_summaries",
    "document_version",
]

SCHEMA_ID: Final = "informed.result"
"""The ``"schema"`` of every result document."""

SCHEMA_VERSION: Final = 1
"""The result schema's version this release writes, and the newest it reads."""

KINDS: Final = {
    "informed.evaluation": "informed evaluate, merge and demo; result_document",
    "informed.slices_report": "informed evaluate --by / --by-time",
    "informed.slice_search": "informed evaluate --find-slices",
    "informed.folds_report": "informed evaluate --folds",
    "informed.comparison": "informed compare",
    "informed.fold_comparison": "informed compare --folds",
    "informed.tally_summary": "informed tally",
    "informed.tally_slices": "informed tally --by",
}
"""Each kind of result document and what writes it."""

NO_SUMMARY: Final = (
    "this document has no exact summary: write it with --summary (informed evaluate ... "
    "--format json --summary), or merge the files of --partial"
)
"""Why an evaluation's document without ``"summary"`` cannot be merged."""

_VERSIONED_BEFORE: Final = frozenset({"informed.slices_report", "informed.tally_slices"})

# the keys that tell the kind of a document written before the schema (version 0)
_SHAPES: Final = (
    ("informed.slice_search", {"found", "hypotheses", "measure"}),
    ("informed.fold_comparison", {"summaries", "differences", "folds"}),
    ("informed.folds_report", {"folds", "measures", "summary"}),
    ("informed.comparison", {"models", "differences", "sort_by"}),
    ("informed.tally_summary", {"micro", "macro", "per_category"}),
    ("informed.evaluation", {"n", "positive"}),
)


def document_kind(document: Mapping[str, Any]) -> str:
    """The kind of a result document: its ``kind``, or for a document written before the
    schema, the kind its keys show; an InputError when none fits."""
    kind = document.get("kind")
    if kind in KINDS:
        return str(kind)
    if kind is not None:
        raise InputError(
            f"not a result document: its kind is {kind!r}; a result document's kind is one "
            f"of {', '.join(KINDS)} (a Table, Ranking or other summary is read by its "
            "from_dict)"
        )
    keys = set(document)
    for found, needed in _SHAPES:
        if needed <= keys:
            return found
    raise InputError(
        "not a result document: it has no kind, and its keys "
        f"{sorted(keys)[:8]} are those of none (informed evaluate --format json writes one)"
    )


def document_version(document: Any) -> int:
    """The result schema version of `document`: 1, or 0 for a document written before the
    schema; an InputError with the reason for one this release cannot read (another schema,
    a newer version, a version that is not a whole number).

    >>> document_version({"n": 3, "positive": "a"})
    0
    >>> document_version({"schema": "informed.result", "version": 2,
    ...                   "informed_version": "9.0"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    informed.errors.InputError: written by informed 9.0 with schema version 2; this informed ...
    """
    if not isinstance(document, Mapping):
        raise InputTypeError(
            f"a result document is a JSON object (a dict), got {type(document).__name__}"
        )
    schema = document.get("schema")
    version = document.get("version")
    if schema is None:
        if version is None:
            return 0
        whole = isinstance(version, int) and not isinstance(version, bool)
        if document.get("kind") in _VERSIONED_BEFORE and whole and version == 1:
            return 1
        raise InputError(
            f"not a result document: it has a version ({version!r}) but no schema; a result "
            f'document has "schema": "{SCHEMA_ID}"'
        )
    if schema != SCHEMA_ID:
        raise InputError(f'not a result document: its schema is {schema!r}, not "{SCHEMA_ID}"')
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(f"a result document's version is a whole number from 1; got {version!r}")
    if version > SCHEMA_VERSION:
        writer = document.get("informed_version", "a newer release")
        raise InputError(
            f"written by informed {writer} with schema version {version}; this informed "
            f"reads version {SCHEMA_VERSION} (upgrade informed to read it)."
        )
    return version


@dataclass(frozen=True)
class DocumentSummaries:
    """The exact summaries an evaluation's result document holds under ``"summary"``.

    Attributes
    ----------
    table : Table or None
        The Table of the predicted labels, when the document has one.
    ranking : Ranking or None
        The Ranking of the scores, when the document has one.
    positive : label or None
        The positive class the document reported (its ``"positive"``); after a merge, the
        one every document reported, else None.

    `a + b` merges two: Tables added, Rankings merged (`Ranking.__add__` refuses two of
    different classes), both exact. Two of which one has a Table (or a Ranking) and the
    other not are refused: they were written with different columns.

    >>> from informed import Table
    >>> table = Table.binary(tp=3, fp=1, fn=2, tn=4)
    >>> a = document_summaries({"schema": "informed.result", "version": 1,
    ...                         "kind": "informed.evaluation", "n": 10, "positive": "+",
    ...                         "summary": {"table": table.to_dict(), "ranking": None}})
    >>> (a + a).table.n, (a + a).positive
    (20, '+')
    """

    table: Table | None
    ranking: Ranking | None
    positive: Label | None = None

    def __add__(self, other: object) -> DocumentSummaries:
        """Merge: the summaries of the rows of both documents."""
        from informed.ranking.classes import same_label

        if not isinstance(other, DocumentSummaries):
            return NotImplemented
        merged: list[Any] = []
        for name in ("table", "ranking"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if (mine is None) != (theirs is None):
                msg = (
                    f"one document has a {name.title()} and the other not: they were "
                    "written with different columns (--predicted, --score); merge "
                    "documents of the same columns."
                )
                raise InputError(msg)
            merged.append(None if mine is None else mine + theirs)
        positive = self.positive if same_label(self.positive, other.positive) else None
        return DocumentSummaries(merged[0], merged[1], positive)


def check_summary_keys(exact: Any, keys: tuple[str, ...], whose: str) -> None:
    """Refuse a document's "summary" that is not a mapping of exactly `keys`, saying what
    it holds (`whose`: "a result document's", "a slices report's")."""
    if not isinstance(exact, Mapping) or set(exact) != set(keys):
        shape = ", ".join(f'"{key}": ...' for key in keys)
        found = sorted(exact) if isinstance(exact, Mapping) else type(exact).__name__
        msg = f'{whose} "summary" is {{{shape}}}; got {found}'
        raise InputError(msg)


def document_summaries(document: Any) -> DocumentSummaries:
    """The exact summaries of an evaluation's result document (``informed evaluate ...
    --format json --summary``, `result_document(..., summary=True)`), restored by
    `Table.from_dict` and `Ranking.from_dict`.

    Refused with the reason (an InputError): a document of a newer version or another
    schema, a result document of another kind (a comparison, a search: they hold no
    summary to merge; a slices or folds report's is read by
    `informed.io.sliced_documents.document_slices`), and an evaluation's document without
    ``"summary"`` (`NO_SUMMARY`).
    """
    from informed.ranking import Ranking
    from informed.table import Table

    document_version(document)
    kind = document_kind(document)
    if kind != "informed.evaluation":
        msg = (
            f"a result document of kind {kind!r} ({KINDS[kind]}) holds no summary to merge; "
            "merge reads the documents of informed evaluate --format json --summary (with "
            "--by too) and of informed evaluate --folds"
        )
        raise InputError(msg)
    exact = document.get("summary")
    if exact is None:
        raise InputError(NO_SUMMARY)
    check_summary_keys(exact, ("table", "ranking"), "a result document's")
    if exact["table"] is None and exact["ranking"] is None:
        msg = 'the document\'s "summary" holds neither a Table nor a Ranking'
        raise InputError(msg)
    table = None if exact["table"] is None else Table.from_dict(exact["table"])
    ranking = None if exact["ranking"] is None else Ranking.from_dict(exact["ranking"])
    positive = document.get("positive")
    if ranking is not None and ranking.positive is not None:
        positive = ranking.positive
    return DocumentSummaries(table, ranking, positive)
