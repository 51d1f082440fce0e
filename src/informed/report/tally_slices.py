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

from informed._common import printable
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


def _row(name: str, tally: Tally, width: int, flag: str) -> str:
    cells = "".join(
        f"  {_value(getattr(tally, kind)(measure)):>8}" for _, kind, measure in _COLUMNS
    )
    return f"{name:<{width}}  {tally.documents:>9,}{cells}  {flag}".rstrip()


def tally_slices_text(
    found: Sequence[tuple[Key, Tally]], by: list[str], source: str, min_count: int = 30
) -> str:
    """The terminal report: a row per slice (the largest `_SHOWN`, the rest pooled)."""
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
    width = min(30, max([5, *(len(n) for n in names.values())]))
    head = "".join(f"  {title:>8}" for title, _, _ in _COLUMNS)
    lines.append(f"{'slice':<{width}}  {'documents':>9}{head}  flag")
    for s in shown:
        name = names[s] if len(names[s]) <= width else names[s][: width - 1] + "…"
        tally = tallies[s]
        few = tally.documents < min_count
        flag = f"{tally.documents} document{'' if tally.documents == 1 else 's'}" if few else ""
        lines.append(_row(name, tally, width, flag))
    rest = [tallies[s] for s in range(len(tallies)) if s not in largest]
    if rest:
        pooled = rest[0]
        for tally in rest[1:]:
            pooled = pooled + tally
        label = f"… {len(rest):,} more, pooled"
        lines.append(_row(label[:width], pooled, width, "(every slice: --format json)"))
    return "\n".join(lines) + "\n"


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
