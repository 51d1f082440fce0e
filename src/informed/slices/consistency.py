"""What a Slices document's writer guarantees, checked as the document is read.

`Slices` are counted from rows, so their parts agree, and `Slices.to_dict` writes them
as they are: every slice holds at least one row; without weights a slice's rows are the
sum of its cells and of its Ranking's counts (with weights, at least as many rows as
non-zero cells or tie groups); the labels are in canonical order and the overall Table
has the slices' labels and is the sum of their cells; the overall Ranking is the merge
of the slices' Rankings; each Ranking counts the document's `positive` class against
all the others, so its positives are the slice's cells in the column of that class and
its negatives the others. A document edited by hand or put together from parts breaks
one of these, and reading it would give numbers no rows could give (an overall that is
not the sum of its slices, sizes that are not the slices' own): each is refused in one
line that names what disagrees. Sums of weights agree to within their rounding
(`informed._common.sums_differ`); counts exactly. Accumulated slices (cumulative or
rolling windows: `informed.slices.rolling`) overlap, so each of their cells is at most
the overall Table's instead. Every check is a few vectorised passes over the cells and
tie groups, as reading them is.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import sums_differ
from informed.coding.labels import Label, keyed, sort_labels
from informed.errors import InputError
from informed.ranking import Ranking
from informed.ranking.classes import same_label
from informed.slices.counting import SlicedCells
from informed.slices.keys import Key, key_name
from informed.table.table import Table

__all__ = ["check_parts"]


def check_parts(
    by: tuple[str, ...],
    keys: tuple[Key, ...],
    rows: NDArray[np.int64],
    sliced: tuple[SlicedCells, Table] | None,
    ranked: tuple[tuple[Ranking, ...], Ranking, Label] | None,
    weighted: bool,
    accumulated: bool = False,
) -> None:
    """Refuse a Slices document whose parts disagree (see the module's docstring):
    `sliced` is the cells and the overall Table, `ranked` the slices' Rankings, the
    overall one and the positive class. `accumulated` slices overlap: each is within
    the overall Table and Ranking rather than a part of their sum."""

    def named(s: int) -> str:
        return f"slice {key_name(keys[s], by)!r}"

    empty = np.flatnonzero(rows < 1)
    if empty.size:
        msg = f'{named(int(empty[0]))} has {int(rows[empty[0]])} "rows"; every slice holds a row.'
        raise InputError(msg)
    if sliced is not None:
        _check_cells(*sliced, rows, weighted, named, accumulated)
    if ranked is not None:
        _check_rankings(*ranked, rows, weighted, named, accumulated)
    if sliced is not None and ranked is not None:
        _check_classes(sliced[0], ranked[0], ranked[2], rows, named)


def _slice_sums(slices: NDArray[np.intp], values: NDArray[Any], count: int) -> NDArray[Any]:
    """The sum of `values` of each of `count` slices, `slices` sorted (exact for int64)."""
    starts = np.searchsorted(slices, np.arange(count + 1))
    out = np.zeros(count, dtype=values.dtype)
    used = np.flatnonzero(starts[1:] > starts[:-1])
    if used.size:
        out[used] = np.add.reduceat(values, starts[used])
    return out


def _check_cells(
    cells: SlicedCells,
    overall: Table,
    rows: NDArray[np.int64],
    weighted: bool,
    named: Any,
    accumulated: bool,
) -> None:
    for axis, labels, overall_labels in (
        ("predicted", cells.predicted, overall.predicted),
        ("actual", cells.actual, overall.actual),
    ):
        if [keyed(x) for x in sort_labels(labels)] != [keyed(x) for x in labels]:
            msg = f'the "{axis}" labels {_few(labels)} are not in canonical order.'
            raise InputError(msg)
        if [keyed(x) for x in overall_labels] != [keyed(x) for x in labels]:
            msg = (
                f"the \"overall\" table's {axis} labels {_few(overall_labels)} are not the slices' "
                f"{_few(labels)}."
            )
            raise InputError(msg)
    S = rows.size
    if not weighted:
        counted = _slice_sums(cells.slice, cells.values, S)
        bad = np.flatnonzero(counted != rows)
        if bad.size:
            s = int(bad[0])
            msg = (
                f'{named(s)} has {int(rows[s])} "rows" but its cells count {int(counted[s])}; '
                "without weights every row is in one cell."
            )
            raise InputError(msg)
    else:
        held = _slice_sums(cells.slice, np.ones(cells.slice.size, dtype=np.int64), S)
        bad = np.flatnonzero(held > rows)
        if bad.size:
            s = int(bad[0])
            msg = (
                f'{named(s)} has {int(rows[s])} "rows" but {int(held[s])} non-zero cells; '
                "every non-zero cell holds a row."
            )
            raise InputError(msg)
    C = max(len(cells.actual), 1)
    if accumulated:
        _check_within(cells, overall, int(rows.sum()), named)
        return
    flat = cells.row.astype(np.int64) * C + cells.col
    order = np.argsort(flat, kind="stable")
    flat, values = flat[order], cells.values[order]
    starts = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]]) if flat.size else flat
    summed = np.add.reduceat(values, starts) if flat.size else values
    flat = flat[starts] if flat.size else flat
    # a weighted slice lists a cell whose rows all weigh 0 (its labels are its Table's);
    # the overall Table lists its non-zero cells
    listed = summed != 0
    flat, summed = flat[listed], summed[listed]
    found = overall.cells
    theirs = found.predicted.astype(np.int64) * C + found.actual
    if not np.array_equal(flat, theirs):
        mine = set(flat.tolist())
        cell = next((k for k in theirs.tolist() if k not in mine), None)
        if cell is None:
            cell = next(k for k in flat.tolist() if k not in set(theirs.tolist()))
        msg = (
            f'the "overall" table is not the sum of the slices: {_cell(cells, cell, C)} is '
            f"{_value(found.counts, theirs, cell)} overall and {_value(summed, flat, cell)} "
            "in the slices."
        )
        raise InputError(msg)
    bad = np.flatnonzero(sums_differ(found.counts, summed, int(rows.sum())))
    if bad.size:
        k = int(bad[0])
        msg = (
            f'the "overall" table is not the sum of the slices: {_cell(cells, int(flat[k]), C)} '
            f"is {found.counts[k].item()!r} overall and {summed[k].item()!r} in the slices."
        )
        raise InputError(msg)


def _check_within(cells: SlicedCells, overall: Table, terms: int, named: Any) -> None:
    """Each cell of an accumulated slice (the rows of several windows) is at most the
    overall Table's cell."""
    C = max(len(cells.actual), 1)
    found = overall.cells
    theirs = found.predicted.astype(np.int64) * C + found.actual
    mine = cells.row.astype(np.int64) * C + cells.col
    bound = np.zeros(mine.size, dtype=cells.values.dtype)
    if theirs.size:
        at = np.minimum(np.searchsorted(theirs, mine), theirs.size - 1)
        bound = np.where(theirs[at] == mine, found.counts[at], bound)
    over = (cells.values > bound) & sums_differ(cells.values, bound, terms)
    if over.any():
        k = int(np.flatnonzero(over)[0])
        msg = (
            f"{named(int(cells.slice[k]))} holds {cells.values[k].item()!r} in "
            f'{_cell(cells, int(mine[k]), C)}, more than the "overall" table\'s '
            f"{bound[k].item()!r}."
        )
        raise InputError(msg)


def _cell(cells: SlicedCells, flat: int, C: int) -> str:
    row, col = divmod(flat, C)
    return f"the cell of predicted {cells.predicted[row]!r}, actual {cells.actual[col]!r}"


def _value(values: NDArray[Any], flat: NDArray[np.int64], cell: int) -> Any:
    at = np.flatnonzero(flat == cell)
    return values[at[0]].item() if at.size else 0


def _check_rankings(
    rankings: tuple[Ranking, ...],
    overall: Ranking,
    positive: Label,
    rows: NDArray[np.int64],
    weighted: bool,
    named: Any,
    accumulated: bool,
) -> None:
    wanted = keyed(positive)
    for s, ranking in enumerate((*rankings, overall)):
        which = "the overall Ranking" if s == len(rankings) else f"the Ranking of {named(s)}"
        if ranking.weighted != weighted:
            held = "weights" if ranking.weighted else "counts"
            msg = f'{which} holds {held} but "weighted" is {str(weighted).lower()}.'
            raise InputError(msg)
        if ranking.positive is not None and keyed(ranking.positive) != wanted:
            msg = (
                f'{which} counts the positive class {ranking.positive!r}, but "positive" '
                f"is {positive!r}."
            )
            raise InputError(msg)
        if not same_label(ranking.negative, overall.negative):
            msg = (
                f"{which} counts the negative class {ranking.negative!r} but the overall "
                f"Ranking {overall.negative!r}: every Ranking of the slices names the rows' "
                "one other class, or none (all the other classes)."
            )
            raise InputError(msg)
        if ranking.negative is not None and keyed(ranking.negative) == wanted:
            msg = f"{which} counts {positive!r} as both its positive and its negative class."
            raise InputError(msg)
    groups = np.array([r.n_groups for r in rankings], dtype=np.int64)
    if weighted:
        bad = np.flatnonzero(groups > rows)
        if bad.size:
            s = int(bad[0])
            msg = (
                f'{named(s)} has {int(rows[s])} "rows" but its Ranking {int(groups[s])} tie '
                "groups; every tie group holds a row."
            )
            raise InputError(msg)
    elif rankings:
        counted = np.array([int(r.positives.sum()) + int(r.negatives.sum()) for r in rankings])
        bad = np.flatnonzero(counted != rows)
        if bad.size:
            s = int(bad[0])
            msg = (
                f'{named(s)} has {int(rows[s])} "rows" but its Ranking counts '
                f"{int(counted[s])}; without weights every row is in one tie group."
            )
            raise InputError(msg)
    if not accumulated:  # accumulated slices overlap: their merge counts rows again
        _check_merge(rankings, overall, int(rows.sum()))


def _check_merge(rankings: tuple[Ranking, ...], overall: Ranking, terms: int) -> None:
    """The overall Ranking is the merge of the slices' Rankings: the union of their
    scores, their counts added."""
    what = "the overall Ranking is not the merge of the slices' Rankings"
    dtype = overall.positives.dtype
    scores = np.concatenate([np.empty(0), *(r.scores for r in rankings)])
    positives = np.concatenate([np.empty(0, dtype), *(r.positives for r in rankings)])
    negatives = np.concatenate([np.empty(0, dtype), *(r.negatives for r in rankings)])
    order = np.argsort(-scores, kind="stable")
    scores = scores[order]
    starts = np.flatnonzero(np.r_[True, scores[1:] != scores[:-1]]) if scores.size else order
    merged = scores[starts]
    if not np.array_equal(merged, overall.scores):
        mine = set(merged.tolist())
        missing = [x for x in overall.scores.tolist() if x not in mine]
        if missing:
            msg = f"{what}: it holds the score {missing[0]!r}, which no slice holds."
        else:
            theirs = set(overall.scores.tolist())
            extra = next(x for x in merged.tolist() if x not in theirs)
            msg = f"{what}: a slice holds the score {extra!r}, which it does not hold."
        raise InputError(msg)
    if not scores.size:
        return
    for name, counts, found in (
        ("positives", positives, overall.positives),
        ("negatives", negatives, overall.negatives),
    ):
        summed = np.add.reduceat(counts[order], starts)
        bad = np.flatnonzero(sums_differ(found, summed, terms))
        if bad.size:
            k = int(bad[0])
            msg = (
                f"{what}: at the score {merged[k].item()!r} it counts "
                f"{found[k].item()!r} {name}, the slices {summed[k].item()!r}."
            )
            raise InputError(msg)


def _check_classes(
    cells: SlicedCells,
    rankings: tuple[Ranking, ...],
    positive: Label,
    rows: NDArray[np.int64],
    named: Any,
) -> None:
    """Each slice's Ranking counts its rows of `positive` as positives, the others as
    negatives: the slice's cells in the column of `positive`, and outside it."""
    wanted = keyed(positive)
    column = next((j for j, x in enumerate(cells.actual) if keyed(x) == wanted), -1)
    inside = cells.col == column
    S = rows.size
    for name, mask, found in (
        ("positives", inside, [r.positives.sum() for r in rankings]),
        ("negatives", ~inside, [r.negatives.sum() for r in rankings]),
    ):
        values = np.where(mask, cells.values, np.zeros(1, dtype=cells.values.dtype))
        summed = _slice_sums(cells.slice, values, S)
        counted = np.array(found, dtype=cells.values.dtype).reshape(S)
        bad = np.flatnonzero(sums_differ(counted, summed, rows))
        if bad.size:
            s = int(bad[0])
            where = "in the column of" if name == "positives" else "outside the column of"
            msg = (
                f"{named(s)}: its Ranking counts {counted[s].item()!r} {name} but its cells "
                f"{summed[s].item()!r} {where} the positive class {positive!r}."
            )
            raise InputError(msg)


def _few(labels: tuple[Label, ...], shown: int = 6) -> str:
    """At most `shown` labels for a message."""
    more = f" and {len(labels) - shown} more" if len(labels) > shown else ""
    return f"{list(labels[:shown])}{more}"
