"""Files to Slices: each batch of rows sliced in one pass, the batches' Slices merged.

`read_slices` reads the `by` columns with the others (as labels: strings exactly as
written, as `informed.io.batches` reads every label column; a blank cell or a null is
the slice "missing", never dropped and never an error), slices each batch with
`informed.slices.Slices.from_labels` and merges the batches' and the files' Slices
with `+` (like a binary counter, as `informed.io.summaries` merges Rankings: O(n log n)
in all), so memory holds a few batches' summaries; 32 batches at a time have their
Rankings merged by one sort each (counts add up exactly in any order; fractional
weights are added as the merges per pair would add them,
`informed.ranking.rows.merge_tree`). A column of timestamps (`time`) is read as
stored: a Parquet or Arrow file's timestamps (in their time zone) and dates,
or ISO-8601 text; a blank or null one is the window "missing", and a value that is not
a timestamp is an error naming the file, the data row and the column. Every row read is
in exactly one slice: the rows of the merged Slices are checked against the rows read.
Their Rankings name the negative class once every batch is read, from the classes of
all of them (`informed.slices.classes`). A CSV file's labels are text with no type, so
a label that reads as a number with a fraction (a probability) is refused in its
`actual` and `predicted` columns (`informed.coding.labels.refuse_scores`).
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import reduce
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label, keyed, sort_labels
from informed.errors import InputError
from informed.io.batches import BATCH_ROWS, iter_raw
from informed.io.files import file_format
from informed.io.paths import expand_paths
from informed.ranking import Ranking
from informed.ranking.classes import merged_classes
from informed.ranking.keys import canonical_scores
from informed.ranking.rows import Tree, merge_groups, merge_tree, runs_order
from informed.slices.building import slice_fields
from informed.slices.classes import named
from informed.slices.keys import keyed_key
from informed.slices.slices import Slices, with_negative

__all__ = ["read_slices", "read_slices_parts"]

# Batches whose Slices are merged at once, their Rankings by one sort each (a stable
# sort merges the sorted runs): merged a pair at a time, 39 batches of 10^7 continuous
# scores took 3.8 s of merges, a quarter of the sliced pass. Counts add up exactly in
# any order; weights are added as the merges per pair of the binary counter add them
# (`informed.ranking.rows.merge_tree`): those merges are written down, then made by one
# sort (10^7 continuous scores weighted, in 100 slices: 5.9 s of CPU to read, 4.7 s since).
_AT_ONCE = 32

_Node: TypeAlias = Slices | tuple["_Node", "_Node"]
"""Weighted Slices to merge: one, or a pair of them (left + right) written down."""


def read_slices(
    path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    by: str | Sequence[str],
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int, int], None] | None = None,
    positive_option: str = "positive",
    time: str | None = None,
    every: str | None = None,
) -> Slices:
    """Read files' columns into `Slices` by the column(s) `by` (see `read_summaries`);
    with `time` and `every`, by time window first (`informed.slices.windows`: the
    column's timestamps floored to their window), crossed with `by`. Every Ranking names
    the negative class of the files' rows as `Ranking.from_scores` would
    (`informed.slices.classes`).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "p.csv").write_text("g,y,p\\nx,a,a\\ny,b,a\\nx,b,b\\n")
    >>> found = read_slices(folder / "p.csv", by="g", actual="y", predicted="p")
    >>> found.keys, found.rows.tolist(), found.table("x").counts.tolist()
    ((('x',), ('y',)), [2, 1], [[1, 0], [0, 1]])
    """
    found, classes = read_slices_parts(
        path,
        by=by,
        actual=actual,
        predicted=predicted,
        scores=scores,
        weights=weights,
        positive=positive,
        encoding=encoding,
        batch_rows=batch_rows,
        progress=progress,
        positive_option=positive_option,
        time=time,
        every=every,
    )
    return with_negative(found, classes)


def read_slices_parts(
    path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    by: str | Sequence[str],
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int, int], None] | None = None,
    positive_option: str = "positive",
    time: str | None = None,
    every: str | None = None,
) -> tuple[Slices, tuple[Label, ...]]:
    """Read files' columns into `Slices` by the column(s) `by` (see `read_summaries`);
    with `time` and `every`, by time window first (`informed.slices.windows`: the
    column's timestamps floored to their window), crossed with `by` (`read_slices`).
    Returns the Slices, their Rankings naming no negative class, and the actual classes
    of the rows, which name it once every part is read (`with_negative`)."""
    names = [by] if isinstance(by, str) else list(by)
    if (time is None) != (every is None):
        msg = "`time` and `every` go together: the column of timestamps and the window span."
        raise InputError(msg)
    if time is not None and every is not None:
        from informed.slices.windows import parse_every  # time windows: loaded when used

        parse_every(every)  # a bad span before any file is read
    if time is None and (not names or not all(isinstance(name, str) for name in names)):
        msg = f"`by` must name one or more columns; got {by!r}."
        raise InputError(msg)
    if predicted is None and scores is None:
        msg = "name a `predicted` column, a `scores` column, or both."
        raise InputError(msg)
    if scores is not None and positive is None:
        msg = "a `scores` column needs `positive`: which class do high scores point to?"
        raise InputError(msg)
    files = expand_paths(path)
    timed = [time] if time is not None else []
    label_columns = list(
        dict.fromkeys([actual, *([predicted] if predicted else []), *timed, *names])
    )
    key_names = [f"{time} ({every})"] if time is not None else []
    # the parts merged like a binary counter, as `informed.io.summaries` merges a file's
    # Rankings: a part merges with the one before it while that one holds no more than
    # twice its rows, so the merges cost O(n log n) in all where merging each part into
    # the running total re-merged every slice's Ranking once a batch (O(n^2 / batch))
    # weighted parts are merged as written down (a `_Node`), 32 batches at a time (`_settle`)
    stack: list[tuple[_Node, int]] = []
    pending: list[Slices] = []
    written = 0  # weighted batches in the stack not merged yet

    def push(part: Slices, rows: int) -> None:
        nonlocal written
        lazy = part.rankings is not None and part.weighted
        stack.append((part, rows))
        while len(stack) > 1 and stack[-2][1] <= 2 * stack[-1][1]:
            (before, earlier), (last, later) = stack[-2], stack.pop()
            merged = (before, last) if lazy else _settle(before) + _settle(last)
            stack[-1] = (merged, earlier + later)
        written += lazy
        if written == _AT_ONCE:
            stack[:] = [(_settle(node), rows) for node, rows in stack]
            written = 0

    classes: tuple[Label, ...] = ()
    pending_rows = 0
    rows_read = 0
    for file in files:
        text = file_format(file) == "csv"  # labels without a type: numbers read as text
        for batch in iter_raw(
            file,
            labels=label_columns,
            numbers=[c for c in (scores, weights) if c],
            nonnegative=[weights] if weights else [],
            encoding=encoding,
            batch_rows=batch_rows,
            blanks=[*timed, *names],
            times=timed,
        ):
            if not batch.rows:
                continue
            rows_read += batch.rows
            windows: list[Any] = []
            if time is not None and every is not None:
                from informed.slices.windows import window_codes

                windows = [
                    window_codes(batch.labels[time], every, time, _where(file, batch.first_row))
                ]
            fields, seen = slice_fields(
                [*windows, *(batch.labels[name] for name in names)],
                [*key_names, *names],
                batch.labels[actual],
                batch.labels[predicted] if predicted else None,
                batch.numbers[scores] if scores else None,
                str(positive) if scores else None,
                batch.numbers[weights] if weights else None,
                partial=True,
                text=text,
                stand_in=weights is None,  # the overall Ranking: merged at the end
            )
            part = Slices(*fields)
            if part.rankings is None or part.weighted:  # weights: added in the same order
                push(part, batch.rows)
            else:
                pending.append(part)
                pending_rows += batch.rows
            if len(pending) == _AT_ONCE:
                push(_merge_parts(pending), pending_rows)
                pending, pending_rows = [], 0
            classes = sort_labels((*classes, *seen))
            if progress is not None:
                progress(batch.bytes_read, rows_read)
    if pending:
        push(_merge_parts(pending), pending_rows)
    where = os.fspath(path) if isinstance(path, str | os.PathLike) else f"{len(files)} files"
    node = stack.pop()[0] if stack else None
    while stack and node is not None:
        node = (stack.pop()[0], node)
    if node is None:
        msg = f"{where} has a header but no data rows: nothing to evaluate."
        raise InputError(msg)
    total = _settle(node)
    if total.rankings and not total.weighted:
        total = _overall(total)
    if int(total.rows.sum()) != rows_read:  # pragma: no cover - a slice per row, always
        msg = f"the slices hold {int(total.rows.sum())} rows of the {rows_read} read."
        raise InputError(msg)
    if positive is not None:
        labels = [*(total.cells.actual if total.cells is not None else ())]
        found = any(keyed(x) == keyed(str(positive)) for x in labels) or (
            total.overall_ranking is not None and total.overall_ranking.n_positive > 0
        )
        if not found:
            msg = f"{positive_option} {positive!r} is not a label in {where}"
            raise InputError(msg)
    return total, classes


def _merge_parts(parts: list[Slices]) -> Slices:
    """`sum` of the parts (one batch each, Rankings naming no negative class): the
    Rankings of each slice, and the overall ones, merged by one sort."""
    if parts[0].rankings is None or len(parts) == 1:
        return reduce(operator.add, parts)
    bare = reduce(operator.add, [replace(p, rankings=None, overall_ranking=None) for p in parts])
    found: dict[Any, list[Ranking]] = {}
    for part in parts:
        assert part.rankings is not None
        for key, ranking in zip(part.keys, part.rankings, strict=True):
            found.setdefault(keyed_key(key), []).append(ranking)
    overall = [part.overall_ranking for part in parts if part.overall_ranking is not None]
    rankings = tuple(_merged(found[keyed_key(key)]) for key in bare.keys)
    return replace(bare, rankings=rankings, overall_ranking=_stand_in(overall))


def _stand_in(rankings: list[Ranking]) -> Ranking:
    """The classes and class totals of `rankings` merged, in one group: the overall
    Ranking is merged from the slices' once every batch is in (`_overall`)."""
    classes = reduce(merged_classes, [(r.positive, r.negative) for r in rankings])
    positives = np.array([sum(r.n_positive for r in rankings)], dtype=np.int64)
    negatives = np.array([sum(r.n_negative for r in rankings)], dtype=np.int64)
    return Ranking._trusted(np.zeros(1), positives, negatives, classes=classes)


def _overall(found: Slices) -> Slices:
    """`found` (counts, not weights) with its overall Ranking merged from its slices'
    by one sort of their groups (counts add up exactly in any order: the Ranking
    merged from the batches', which it replaces), and the overall group of each of the
    slices' groups (`Slices.overall_groups`), read off the same sort."""
    assert found.rankings is not None
    assert found.overall_ranking is not None
    parts = found.rankings
    scores = np.concatenate([r.scores for r in parts])
    order = runs_order(np.negative(scores), len(parts), in_order=False)  # counts
    ordered = scores[order]
    new = np.empty(ordered.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    groups = np.empty(scores.size, dtype=np.intp)
    distinct = bool(new.all())  # continuous scores: each group one slice's
    groups[order] = np.arange(scores.size) if distinct else np.cumsum(new) - 1
    positives = np.concatenate([r.positives for r in parts])[order]
    negatives = np.concatenate([r.negatives for r in parts])[order]
    if not distinct:  # a score in several slices: its counts added
        starts = np.flatnonzero(new)
        ordered = ordered[starts]
        positives = np.add.reduceat(positives, starts)
        negatives = np.add.reduceat(negatives, starts)
    was = found.overall_ranking
    overall = Ranking._trusted(
        canonical_scores(ordered), positives, negatives, classes=(was.positive, was.negative)
    )
    return replace(found, overall_ranking=overall, overall_groups=groups)


def _merged(rankings: list[Ranking]) -> Ranking:
    """One Ranking of `rankings` (as `sum`: classes merged, counts added) by one sort."""
    if len(rankings) == 1:
        return rankings[0]
    first = rankings[0]
    classes = reduce(merged_classes, [(r.positive, r.negative) for r in rankings])
    kept = [r for r in rankings if r.n_groups] or [first]
    if any(r.weighted != first.weighted for r in rankings):  # pragma: no cover - one read
        msg = "Cannot merge a Ranking of float weights with one of integer counts."
        raise InputError(msg)
    grouped = merge_groups(*((r.scores, r.positives, r.negatives) for r in kept))
    return Ranking._trusted(*grouped, classes=classes)


def _settle(node: _Node) -> Slices:
    """The Slices of `node` as its merges per pair give them, every Ranking merged by one
    sort (`merge_tree`: each weight added as those merges add it)."""
    if isinstance(node, Slices):
        return node
    leaves: list[Slices] = []

    def tree(at: _Node) -> Tree:
        if isinstance(at, Slices):
            leaves.append(at)
            return len(leaves) - 1
        return (tree(at[0]), tree(at[1]))

    shape = tree(node)

    def bare(at: Tree) -> Slices:
        if isinstance(at, int):
            return replace(leaves[at], rankings=None, overall_ranking=None, overall_groups=None)
        return bare(at[0]) + bare(at[1])

    def together(at: Tree) -> Slices:
        return leaves[at] if isinstance(at, int) else together(at[0]) + together(at[1])

    if any(p.rankings is None or p.overall_ranking is None for p in leaves) or any(
        p.overall_ranking is not None and p.overall_ranking.negative is not None for p in leaves
    ):  # pragma: no cover - a file's parts name no negative class until all are read
        return together(shape)
    found: dict[Any, dict[int, Ranking]] = {}
    overall: dict[int, Ranking] = {}
    for i, part in enumerate(leaves):
        assert part.rankings is not None
        assert part.overall_ranking is not None
        for key, ranking in zip(part.keys, part.rankings, strict=True):
            found.setdefault(keyed_key(key), {})[i] = ranking
        overall[i] = part.overall_ranking
    merged = bare(shape)
    each = tuple(_tree_ranking(shape, found[keyed_key(key)]) for key in merged.keys)
    if leaves[0].weighted:
        whole, groups = _union(shape, overall, each)
    else:  # counts: the batches' stand-ins merged, the overall Ranking made by `_overall`
        whole, groups = _tree_ranking(shape, overall), None
    # named as `Slices.__add__` names them: no negative class yet
    rankings, overall_ranking = named(each, whole, merged.positive, None)
    return replace(
        merged, rankings=rankings, overall_ranking=overall_ranking, overall_groups=groups
    )


def _union(
    shape: Tree, overall: dict[int, Ranking], rankings: tuple[Ranking, ...]
) -> tuple[Ranking, NDArray[np.intp]]:
    """The overall Ranking merged as `shape` says, and the overall group of each of the
    slices' groups (`Slices.overall_groups`), from one sort of the slices' scores.

    Every row is in one slice, so the overall scores are the slices'. Where no score is
    in two slices, each overall group of a batch holds the rows of one slice's group,
    added in the same order, and is merged with the same batches' in the same pairs:
    the union of the slices' groups is the overall Ranking, bit for bit, not merged
    again. Otherwise the batches' overall Rankings are merged (`merge_tree`).
    """
    scores = np.concatenate([r.scores for r in rankings])
    order = runs_order(np.negative(scores), len(rankings), in_order=False)
    ordered = scores[order]
    new = np.empty(ordered.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    groups = np.empty(scores.size, dtype=np.intp)
    groups[order] = np.cumsum(new) - 1
    if not new.all():
        return _tree_ranking(shape, overall), groups
    first = next(iter(overall.values()))
    positives = np.concatenate([r.positives for r in rankings])[order]
    negatives = np.concatenate([r.negatives for r in rankings])[order]
    return Ranking._trusted(
        ordered, positives, negatives, classes=(first.positive, first.negative)
    ), groups


def _tree_ranking(shape: Tree, rankings: dict[int, Ranking]) -> Ranking:
    """The Rankings merged a pair at a time as `shape` says (by one sort: `merge_tree`)."""
    grouped = merge_tree(
        shape, {i: (r.scores, r.positives, r.negatives) for i, r in rankings.items()}
    )
    first = next(iter(rankings.values()))
    if grouped is None:  # no groups (weights of 0 alone)
        return first
    return Ranking._trusted(*grouped, classes=(first.positive, first.negative))


def _where(file: Any, first_row: int) -> Callable[[int], str]:
    """Where row i of a batch starting at data row `first_row + 1` of `file` is."""
    return lambda row: f"{file} data row {first_row + row + 1}"
