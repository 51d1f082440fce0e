"""The exact slices a sliced result document holds, read back and merged (``informed merge``).

A slices report written with ``--summary`` (``informed evaluate FILE --by COL --format json
--summary``, and ``--by-time COL --every SPAN``) holds ``"summary": {"slices":
Slices.to_dict(), "every": SPAN or null}``; a folds report (``informed evaluate --folds``)
always holds its Folds (``"summary": Folds.to_dict()``). `document_slices` reads either as
`DocumentSlices`, and `merge_sliced` merges those of several files exactly: the Slices
(or Folds) added, which refuse two of different slicing columns, of different classes
ranked, weighted with unweighted. Two documents that differ in what their reports show
(the kind, the time windows' span, the positive class named) are refused, naming both
files and what differs: their merged report would be a report of neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from informed.errors import InputError, InputTypeError
from informed.io.result_documents import check_summary_keys

if TYPE_CHECKING:  # loaded when a document's slices are read: the rest stays light
    from informed.coding.labels import Label
    from informed.slices import Folds, Slices

__all__ = ["SLICED_KINDS", "SLICES_NO_SUMMARY", "DocumentSlices", "document_slices", "merge_sliced"]

SLICED_KINDS: Final = frozenset({"informed.slices_report", "informed.folds_report"})
"""The kinds of result document whose summary is a Slices (or Folds)."""

SLICES_NO_SUMMARY: Final = (
    "this slices report has no exact summary: write it with --summary (informed evaluate "
    "FILE --by COL --format json --summary)"
)
"""Why a slices report without ``"summary"`` cannot be merged."""


@dataclass(frozen=True)
class DocumentSlices:
    """The exact slices of a sliced result document.

    Attributes
    ----------
    kind : str
        ``"informed.slices_report"`` or ``"informed.folds_report"``.
    summary : Slices or Folds
        The slices (a slices report's) or the folds (a folds report's), exact.
    positive : label or None
        The positive class the document reported (its ``"positive"``).
    every : str or None
        The span of the time windows (``--by-time COL --every SPAN``), else None.
    """

    kind: str
    summary: Slices | Folds
    positive: Label | None = None
    every: str | None = None

    @property
    def slices(self) -> Slices:
        """The Slices: a slices report's, or the folds' own."""
        from informed.slices import Folds

        return self.summary.slices if isinstance(self.summary, Folds) else self.summary


def _what(found: DocumentSlices) -> str:
    return "a folds report" if found.kind == "informed.folds_report" else "a slices report"


def _class(positive: Label | None) -> str:
    return "no positive class" if positive is None else f"the positive class {positive!r}"


def document_slices(document: Mapping[str, Any]) -> DocumentSlices:
    """The exact slices of a slices report written with ``--summary``, or of a folds
    report (its Folds); refused with the reason (an InputError) when it has none."""
    from informed.coding.labels import as_label
    from informed.slices import Folds, Slices

    kind = str(document.get("kind"))
    exact = document.get("summary")
    positive = document.get("positive")
    if kind == "informed.folds_report":
        if exact is None:
            msg = 'this folds report has no "summary" (its Folds): write it again with informed'
            raise InputError(msg + " evaluate --folds COL --format json")
        folds = Folds.from_dict(exact)
        if positive is None and folds.slices.positive is not None:
            positive = folds.slices.positive
        return DocumentSlices(kind, folds, None if positive is None else as_label(positive))
    if exact is None:
        raise InputError(SLICES_NO_SUMMARY)
    check_summary_keys(exact, ("slices", "every"), "a slices report's")
    every = exact["every"]
    if every is not None and not isinstance(every, str):
        msg = f'"every" is the span of the time windows, or null; got {every!r}'
        raise InputTypeError(msg)
    slices = Slices.from_dict(exact["slices"])
    if slices.accumulated is not None:
        msg = "the summary holds accumulated windows, which overlap: they cannot be merged"
        raise InputError(msg)
    return DocumentSlices(kind, slices, None if positive is None else as_label(positive), every)


def merge_sliced(paths: Sequence[str | Path], found: Sequence[DocumentSlices]) -> DocumentSlices:
    """The merge of the sliced documents `found`, read from `paths`: every one checked
    against the first (the same kind, time windows and positive class), then their
    Slices (or Folds) added; a refusal names both files and what differs."""
    from informed.ranking.classes import same_label

    first, total = paths[0], found[0]
    for path, item in zip(paths[1:], found[1:], strict=True):
        both = f"{first} and {path}"
        differs = None
        if item.kind != total.kind:
            differs = f"{first} is {_what(total)} and {path} {_what(item)}"
        elif item.slices.by != total.slices.by:
            differs = (
                f"{first} is sliced by {list(total.slices.by)} and {path} by {list(item.slices.by)}"
            )
        elif item.every != total.every:
            differs = f"{first} has time windows of {total.every} and {path} of {item.every}"
        elif not same_label(item.positive, total.positive):
            differs = f"{first} reports {_class(total.positive)} and {path} {_class(item.positive)}"
        if differs is not None:
            raise InputError(f"cannot merge {both}: {differs}; merge documents of one report.")
        try:
            summary: Any = total.summary + item.summary
        except (InputError, InputTypeError) as exc:
            raise type(exc)(f"cannot merge {both}: {exc}") from None
        total = DocumentSlices(total.kind, summary, total.positive, total.every)
    return total
