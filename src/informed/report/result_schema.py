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

The readers (`SCHEMA_ID`, `SCHEMA_VERSION`, `KINDS`, `document_version`,
`document_kind`) are defined in `informed.io.result_documents`, below the report, so that
``informed merge`` reads a document's exact summary as it reads any summary file; they are
named here too, beside the writer (`stamp`) and the JSON Schema.

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
from typing import Any

from informed.errors import InputError
from informed.io.result_documents import (
    KINDS,
    SCHEMA_ID,
    SCHEMA_VERSION,
    document_kind,
    document_version,
)

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


def schema_file() -> Traversable:
    """The JSON Schema (draft 2020-12) of result documents, as shipped in the package."""
    return files("informed").joinpath("data", f"result-{SCHEMA_VERSION}.schema.json")


def load_schema() -> dict[str, Any]:
    """The JSON Schema of result documents, parsed."""
    loaded: dict[str, Any] = json.loads(schema_file().read_text(encoding="utf-8"))
    return loaded
