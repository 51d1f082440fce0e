"""Multi-label documents in a lazy frame become a Tally: per-category counts on the engine.

One row is one document; its `assigned` and `correct` columns hold lists of category
names (a list column) or one name (a string column). A list is a set, as in
`Tally.add_result`. One aggregation over the frame counts, for every declared category
k, the documents assigned k (A), those whose correct categories hold k (C), and those
with both (A and C); with the number of documents n, category k's table is
[[both, A - both], [C - both, n - A - C + both]]. Documents naming an undeclared
category are counted too: refused (``unknown="error"``), or, with ``unknown="ignore"``,
counted per undeclared category as `Tally.ignored` says, from the exploded lists.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from informed.engines.frames import find_rows, lazy_frame, narwhals
from informed.engines.query import check_coverage, count_rows, fetch
from informed.errors import InputError, InputTypeError
from informed.io.coverage import Summaries
from informed.tally import Tally

__all__ = ["documents"]


def _member(nw: Any, column: str, is_list: bool, category: str) -> Any:
    """Whether a document's `column` names `category` (False for a null cell)."""
    expression = nw.col(column).list.contains(category) if is_list else nw.col(column) == category
    return expression.fill_null(False)


def _distinct(nw: Any, column: str, is_list: bool) -> Any:
    """How many distinct names a document's `column` holds."""
    if is_list:
        return nw.col(column).list.unique().list.len().fill_null(0)
    return (~nw.col(column).is_null()).cast(nw.Int64)


def documents(
    frame: Any,
    *,
    part: str,
    categories: Any,
    assigned: str = "assigned",
    correct: str = "correct",
    unknown: Any = None,
    conventions: Any = "default",
) -> Summaries:
    """The Tally of a lazy frame's documents, recorded as the partition `part`."""
    if categories is None:
        msg = "a frame of documents needs `categories=`: the categories to tally."
        raise InputError(msg)
    tally = Tally(categories, unknown=unknown, conventions=conventions)
    nw = narwhals()
    lazy = lazy_frame(frame, {"assigned": assigned, "correct": correct})
    schema = lazy.collect_schema()
    kinds = {}
    for column in dict.fromkeys((assigned, correct)):
        dtype = schema[column]
        is_list = isinstance(dtype, nw.List)
        if not is_list and dtype != nw.String:
            msg = (
                f"the column {column!r} holds {dtype}; a document's categories are a list of "
                "names (a list column) or one name (a string column)."
            )
            raise InputTypeError(msg)
        kinds[column] = is_list
    names = tally.categories
    sums = [
        nw.len().alias("documents"),
        nw.col(assigned).is_null().cast(nw.Int64).sum().alias("null_assigned"),
        nw.col(correct).is_null().cast(nw.Int64).sum().alias("null_correct"),
    ]
    known_a = known_c = nw.lit(0)
    for k, category in enumerate(names):
        in_a = _member(nw, assigned, kinds[assigned], category)
        in_c = _member(nw, correct, kinds[correct], category)
        known_a = known_a + in_a.cast(nw.Int64)
        known_c = known_c + in_c.cast(nw.Int64)
        sums += [  # Spark sums numbers only: each flag as 0 or 1
            in_a.cast(nw.Int64).sum().alias(f"a{k}"),
            in_c.cast(nw.Int64).sum().alias(f"c{k}"),
            (in_a & in_c).cast(nw.Int64).sum().alias(f"b{k}"),
        ]
    undeclared = (_distinct(nw, assigned, kinds[assigned]) > known_a) | (
        _distinct(nw, correct, kinds[correct]) > known_c
    )
    sums.append(undeclared.cast(nw.Int64).sum().alias("undeclared"))
    found = fetch(frame, lazy.select(*sums)).to_pylist()[0]
    n = count_rows(frame, lazy)
    check_coverage(frame, int(found["documents"]), n)
    for column, key in ((assigned, "null_assigned"), (correct, "null_correct")):
        if found[key]:
            msg = (
                f"the column {column!r} is missing (null) for {found[key]:,} documents; a "
                "document with no categories holds an empty list. A grouped count cannot "
                f"name the rows: find them with {find_rows(frame, 'null', column)}."
            )
            raise InputError(msg)
    ignored: dict[str, int] = {}
    if found["undeclared"]:
        if tally.unknown == "error":
            msg = (
                f"{found['undeclared']:,} documents name a category that is not one of the "
                f"{len(names)} declared categories; declare it in `categories=` or pass "
                'unknown="ignore" to skip and count it.'
            )
            raise InputError(msg)
        ignored = _ignored(nw, frame, lazy, assigned, correct, kinds, set(names))
    counts = np.zeros((len(names), 2, 2), dtype=np.int64)
    for k in range(len(names)):
        both, a, c = int(found[f"b{k}"]), int(found[f"a{k}"]), int(found[f"c{k}"])
        counts[k] = [[both, a - both], [c - both, n - a - c + both]]
    result = Tally.from_counts(
        names, counts, ignored=ignored, unknown=tally.unknown, conventions=conventions
    )
    return Summaries(n, None, None, (), n, frozenset({part}), result)


def _ignored(
    nw: Any,
    frame: Any,
    lazy: Any,
    assigned: str,
    correct: str,
    kinds: dict[str, bool],
    declared: set[str],
) -> dict[str, int]:
    """Undeclared category -> the documents that name it (on either side, once)."""
    mentions: dict[str, int] = {}
    for column in dict.fromkeys((assigned, correct)):
        values = nw.col(column).list.unique() if kinds[column] else nw.col(column)
        exploded = lazy.select(values.alias("__informed_name"))
        if kinds[column]:
            exploded = exploded.explode("__informed_name")
        query = (
            exploded.filter(~nw.col("__informed_name").is_in(sorted(declared)))
            .group_by("__informed_name", drop_null_keys=True)
            .agg(nw.len().alias("__informed_rows"))
        )
        counted = fetch(frame, query).to_pylist()
        for row in counted:
            name = row["__informed_name"]
            mentions[name] = mentions.get(name, 0) + int(row["__informed_rows"])
    if assigned != correct:  # a document naming it on both sides was counted twice
        for name in list(mentions):
            both = (
                (
                    _member(nw, assigned, kinds[assigned], name)
                    & _member(nw, correct, kinds[correct], name)
                )
                .cast(nw.Int64)
                .sum()
            )
            twice = fetch(frame, lazy.select(both.alias("n")))
            mentions[name] -= int(twice.column("n")[0].as_py())
    return {k: v for k, v in mentions.items() if v}
