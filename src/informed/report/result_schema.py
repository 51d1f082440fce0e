"""The versioned result document: what every ``--format json`` of the command line writes.

Every document carries ``"schema": "informed.result"``, ``"version"`` (the version of the
result schema, `SCHEMA_VERSION`), ``"kind"`` (one of `KINDS`: which command or call made
it) and ``"informed_version"`` (the release of informed that wrote it). The JSON Schema
(draft 2020-12) of every kind ships with the package (`schema_file`, `load_schema`).

Versioning: a key added to a document leaves the version as it is (readers ignore keys
they do not know); a key removed or renamed, or a value whose meaning changes, makes a new
version. `document_version` reads a document's version and refuses one of an unknown
schema or of a newer version than this release reads, with the reason. Documents written
before the schema existed carry none of those keys: they are version 0, read as version 1
where their shape is the same (every kind but the two below). The slices report
(``informed.slices_report``) and the slices of a tally (``informed.tally_slices``) already
had a ``kind`` and ``"version": 1``: that version was theirs and is now the schema's, whose
version 1 they are.

The nested summaries keep their own format versions: a Table, Tally, Summaries, Slices or
Folds summary (``{"kind": "informed.Table", "version": 1, ...}``) and a Ranking
(``"schema_version"``) are read by their ``from_dict``, whatever the result's version.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, Final

from informed.errors import InputError, InputTypeError

__all__ = [
    "KINDS",
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "document_kind",
    "document_version",
    "informed_version",
    "load_schema",
    "schema_file",
    "stamp",
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


@cache
def informed_version() -> str:
    """The installed release of informed (from the package metadata), read once."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("informed")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown (not installed)"


def stamp(document: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """`document` with ``schema``, ``version``, ``kind`` and ``informed_version`` first
    (the keys it has already keep their values and places).

    >>> stamp({"n": 3}, "informed.evaluation")["version"]
    1
    """
    if kind not in KINDS:
        raise InputError(f"no result document of kind {kind!r}; the kinds are {sorted(KINDS)}")
    head = {
        "schema": SCHEMA_ID,
        "version": SCHEMA_VERSION,
        "kind": kind,
        "informed_version": informed_version(),
    }
    return {**head, **document}


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


def schema_file() -> Traversable:
    """The JSON Schema (draft 2020-12) of result documents, as shipped in the package."""
    return files("informed").joinpath("data", f"result-{SCHEMA_VERSION}.schema.json")


def load_schema() -> dict[str, Any]:
    """The JSON Schema of result documents, parsed."""
    loaded: dict[str, Any] = json.loads(schema_file().read_text(encoding="utf-8"))
    return loaded
