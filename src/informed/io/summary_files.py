"""Summary files written by separate processes, read back and merged (``informed merge``).

A file holds `Summaries` (`Summaries.to_json`: the summaries with the partitions they
cover), a bare `Table`, `Ranking` or `Tally` (their `to_json`), the result document of
an evaluation written with its exact summaries (``informed evaluate ... --format json
--summary``: `informed.io.result_documents.document_summaries`), or a sliced one (a slices
report written with ``--summary``, a folds report: `informed.io.sliced_documents`); its
``kind`` says which.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from informed._common import loads_strict
from informed.errors import InputError, InputTypeError
from informed.io.coverage import JSON_KIND, Merger, Summaries, summaries_from_dict
from informed.io.files import check_file
from informed.io.output_files import reason
from informed.io.result_documents import (
    KINDS,
    SCHEMA_ID,
    document_kind,
    document_summaries,
    document_version,
)
from informed.io.sliced_documents import SLICED_KINDS, DocumentSlices, document_slices, merge_sliced
from informed.ranking import Ranking
from informed.table import Table

__all__ = ["merge_files", "read_summary_file"]


def read_summary_file(path: str | Path) -> Any:
    """The Summaries, Table, Ranking or Tally a JSON file holds (by its `kind`), or the
    `DocumentSummaries` of a result document (the `DocumentSlices` of a slices or folds
    report; refused, with the reason, when it holds none: written without ``--summary``,
    or of a kind that has none to merge)."""
    file = Path(path)
    check_file(file)
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        msg = f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})."
        raise InputError(msg) from None
    except OSError as exc:
        msg = f"{file}: cannot be read: {reason(exc)}."
        raise InputError(msg) from None
    try:
        data = loads_strict(text, f"{file}")
    except json.JSONDecodeError as exc:
        msg = f"{file}: not a JSON document ({exc})."
        raise InputError(msg) from None
    kind = data.get("kind") if isinstance(data, dict) else None
    if _is_result_document(data):
        try:
            document_version(data)
            if document_kind(data) in SLICED_KINDS:
                return document_slices(data)
            return document_summaries(data)
        except (InputError, InputTypeError) as exc:
            said = str(exc)
            raise type(exc)(f"{file}: {said}{'' if said.endswith('.') else '.'}") from None
    readers: dict[str, Any] = {
        JSON_KIND: summaries_from_dict,
        "informed.Table": Table.from_dict,
        "informed.Ranking": Ranking.from_dict,
    }
    if kind == "informed.Tally":
        from informed.tally import Tally

        readers[kind] = Tally.from_dict
    if kind not in readers:
        msg = (
            f"{file}: not a summary of informed (its kind is {kind!r}; expected one of "
            f"{sorted([*readers, 'informed.Tally'])}, or a result document written with "
            "--summary)."
        )
        raise InputError(msg)
    try:
        return readers[kind](data)
    except (InputError, InputTypeError) as exc:
        raise type(exc)(f"{file}: {exc}") from None


def _is_result_document(data: Any) -> bool:
    """A result document: stamped with the schema or a result's kind, or written before the
    schema (no kind, the keys of one: `document_kind`)."""
    if not isinstance(data, dict):
        return False
    kind = data.get("kind")
    if data.get("schema") == SCHEMA_ID or kind in KINDS:
        return True
    if kind is not None:
        return False
    try:
        document_kind(data)
    except InputError:
        return False
    return True


def merge_files(paths: Sequence[str | Path]) -> Any:
    """The merge of the summaries in JSON files written separately (``informed merge``).

    Every file holds `Summaries` (then no partition may be covered twice), or every file
    holds the same kind of bare summary (Table, Ranking or Tally JSON, which records no
    coverage, so only the sums are checked), or every file is an evaluation's result
    document with its exact summaries (``--format json --summary``; merged as
    `DocumentSummaries`, with no coverage either), or every file is a sliced document
    (slices reports written with ``--summary``, folds reports; merged as `DocumentSlices`
    by `merge_sliced`); a mix is refused, as its coverage could not be checked.
    """
    if not paths:
        msg = "name at least one summary file to merge."
        raise InputError(msg)
    found = [read_summary_file(p) for p in paths]
    sliced = [isinstance(x, DocumentSlices) for x in found]
    if any(sliced) and not all(sliced):
        one, other = paths[sliced.index(True)], paths[sliced.index(False)]
        msg = (
            f"cannot merge {one} with {other}: the first holds slices (informed evaluate --by "
            "or --folds) and the second the rows alone, with no slice of each; merge "
            "sliced documents with sliced ones."
        )
        raise InputError(msg)
    if all(sliced):
        return merge_sliced(paths, found)
    kinds = {type(x).__name__ for x in found}
    if len(kinds) > 1:
        msg = (
            f"cannot merge a mix of {sorted(kinds)}: give files of one kind (summaries "
            "that record their partitions cannot be checked against bare ones)."
        )
        raise InputError(msg)
    if isinstance(found[0], Summaries):
        owner: dict[str, str | Path] = {}
        for path, item in zip(paths, found, strict=True):
            for part in sorted(item.parts):
                if part in owner:
                    msg = (
                        f"{owner[part]} and {path} both cover the partition {part!r}: its "
                        "rows would be counted twice; merge each partial result once."
                    )
                    raise InputError(msg)
                owner[part] = path
        merger = Merger()
        for path, item in zip(paths, found, strict=True):
            try:
                merger.add(item)
            except (InputError, InputTypeError) as exc:
                raise type(exc)(f"{path}: {exc}") from None
        return merger.result()
    total = found[0]
    for path, item in zip(paths[1:], found[1:], strict=True):
        try:
            total = total + item
        except (InputError, InputTypeError) as exc:
            raise type(exc)(f"{path}: {exc}") from None
    return total
