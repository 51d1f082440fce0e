"""The report of multi-label documents by slice (`informed tally FILE --by FIELD`).

The terminal lists each slice's documents, the micro informedness, precision, recall and
F1 of its pooled table and its macro F1 (the largest slices when there are many, the
rest pooled into one row: their Tallies added); the JSON document holds every measure of
every slice (`informed.tally.summarize_tally`). A slice of fewer documents than
`min_count` is flagged, as a slice of a Table is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from informed._common import cut_apart, printable
from informed._terminal import PlainColumn, plain_table, report_lines
from informed.slices.keys import Key, key_names
from informed.tally import Tally, summarize_tally

__all__ = ["tally_slices_document", "tally_slices_text"]

_SHOWN = 30
_COLUMNS = (
    ("micro B", "micro", "informedness"),
    ("micro P", "micro", "precision"),
    ("micro R", "micro", "recall"),
    ("micro F1", "micro", "f_measure"),
    ("macro F1", "macro", "f_measure"),
)


def _value(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.3f}"


def _row(name: str, tally: Tally, flag: str) -> list[str]:
    cells = [_value(getattr(tally, kind)(measure)) for _, kind, measure in _COLUMNS]
    return [name, f"{tally.documents:,}", *cells, flag]


def tally_slices_text(
    found: Sequence[tuple[Key, Tally]],
    by: list[str],
    source: str,
    min_count: int = 30,
    width: int | None = None,
) -> str:
    """The terminal report: a row per slice (the largest `_SHOWN`, the rest pooled). With
    a `width` (a terminal's), its sentences are wrapped to it and the table is split to fit
    (`informed._terminal.plain_table`); without, as wide as it is."""
    tallies = [tally for _, tally in found]
    documents = sum(t.documents for t in tallies)
    categories = len(tallies[0].categories) if tallies else 0
    lines = [
        f"informed tally: {printable(source)} by {', '.join(printable(b) for b in by)}: "
        f"{len(tallies):,} slices, {documents:,} documents, {categories} categories",
        "",
    ]
    # positions, not keys: the slices (True,) and (1,) are equal keys to Python
    largest = set(sorted(range(len(tallies)), key=lambda s: -tallies[s].documents)[:_SHOWN])
    shown = [s for s in range(len(tallies)) if s in largest]
    every = key_names([key for key, _ in found], by)
    names = {s: printable(every[s]) for s in shown}
    key_width = min(30, max([5, *(len(n) for n in names.values())]))
    cut = dict(zip(shown, cut_apart([every[s] for s in shown], key_width), strict=True))
    columns = [
        PlainColumn("slice", key_width, "<", 0, wraps=True),
        PlainColumn("documents", 9),
        *(PlainColumn(title, 8) for title, _, _ in _COLUMNS),
        PlainColumn("flag", 0, "<", wraps=True),
    ]
    rows = []
    for s in shown:
        name = cut[s]
        tally = tallies[s]
        few = tally.documents < min_count
        flag = f"{tally.documents} document{'' if tally.documents == 1 else 's'}" if few else ""
        rows.append(_row(name, tally, flag))
    rest = [tallies[s] for s in range(len(tallies)) if s not in largest]
    if rest:
        pooled = rest[0]
        for tally in rest[1:]:
            pooled = pooled + tally
        label = f"… {len(rest):,} more, pooled"
        rows.append(_row(label[:key_width], pooled, "(every slice: --format json)"))
    return report_lines([*lines, *plain_table(columns, rows, width)], width)


def tally_slices_document(
    found: Sequence[tuple[Key, Tally]], by: list[str], source: str
) -> dict[str, Any]:
    """The JSON document: every measure of every slice's Tally."""
    names = key_names([key for key, _ in found], by)
    return {
        "kind": "informed.tally_slices",
        "version": 1,
        "source": source,
        "by": list(by),
        "slices": [
            {
                "key": list(key),
                "name": name,
                "documents": tally.documents,
                "tally": summarize_tally(tally).to_dict(),
            }
            for (key, tally), name in zip(found, names, strict=True)
        ],
    }
