"""Rows into sliced summaries in one pass: counts[S, K, C] and one Ranking per slice.

The slice code is one more coded column: combined with the cell code (predicted label,
actual class) it gives one integer per row, counted by one `numpy.bincount` when the
S x K x C cells are few (`_CELL_LIMIT`; a block of rows at a time when they are very
few, so that no code array as long as the rows is made) and by one sort of the combined
codes otherwise, so that only the cells holding rows of a sliced table of many slices
and labels are ever held. Scores are grouped by one hash of the scores and one count of
(slice, score, outcome) cells where those cells are fewer than the rows
(`informed.slices.hashed`), else by one sort on (slice, score): each slice's tie groups
are a run of the sorted rows. Without weights (and with whole weights) the overall Table
and Ranking are sums over the slices, exact; with other weights they are counted from
the same coded rows by the unsliced code (`informed.table.counting.count_coded`,
`informed.ranking.Ranking.from_scores`), so that they equal the unsliced summaries bit
for bit (a sum of per-slice float sums may differ in the last bit).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory
from informed.coding.labels import (
    Coded,
    Label,
    as_label,
    code_column,
    keyed,
    positions_in,
    refuse_scores,
    sort_labels,
)
from informed.errors import InputError
from informed.ranking import Ranking
from informed.ranking.grouping import group_rows, scores_and_bounds
from informed.slices.classes import named
from informed.slices.hashed import group_hashed, score_groups
from informed.slices.ranked import (
    descending_codes,
    group_packed,
    group_weighted_slices,
    scores_of,
)
from informed.table.counting import arrange_counts, check_same_kind, count_coded
from informed.table.storage import from_dense
from informed.table.table import Table

__all__ = [
    "SlicedCells",
    "count_parts",
    "count_sliced",
    "merge_cells",
    "rank_parts",
    "rank_sliced",
    "slice_rows",
]

# Cells (S x K x C) up to which a bincount counts them; beyond, a sort of the codes.
_CELL_LIMIT = 1 << 22
# Rows coded at a time (their codes stay in cache); tables of up to this many cells are
# counted block by block.
_BLOCK = 1 << 16
# The classes of a Ranking counted from codes: set by the caller (`Ranking.with_classes`).
_UNKNOWN = (None, None)


class SlicedCells(NamedTuple):
    """The cells of counts[S, K, C] that hold a row, sorted by (slice, row, column): the
    non-zero cells, and with weights the cells whose rows all weigh 0 (holding 0), so that
    each slice's labels are those of its rows, as `Table.from_labels` counts them."""

    slice: NDArray[np.intp]
    row: NDArray[np.intp]
    col: NDArray[np.intp]
    values: NDArray[Any]
    predicted: tuple[Label, ...]
    actual: tuple[Label, ...]


def count_sliced(
    slices: NDArray[np.intp],
    n_slices: int,
    a: Coded,
    p: Coded,
    weights: NDArray[np.float64] | None,
    clusters: bool = False,
) -> tuple[SlicedCells, Table]:
    """The cells of every slice (`SlicedCells`) and the overall Table, from coded columns.

    The rows are counted once, by their codes as coded (slice, predicted code, actual
    code); only the cells holding rows are then moved to the overall Table's labels
    (canonical order, each used). Without weights the overall Table is the sum of the
    slices' counts (integers: exact), arranged as the unsliced Table arranges its counts
    (`informed.table.counting.arrange_counts`); with weights, whose float sums depend on
    their order, it is counted from the rows as the unsliced Table is.
    """
    if not clusters:
        check_same_kind(
            a.labels, p.labels, "or pass `clusters=True` if the predictions are cluster ids"
        )
    n = slices.shape[0]
    K0, C0 = len(p.labels), len(a.labels)
    dtype = np.dtype(np.int64 if weights is None else np.float64)
    cells = n_slices * K0 * C0
    dense = n > 0 and cells <= _CELL_LIMIT
    if n == 0 or K0 == 0 or C0 == 0:
        counted = count_coded(a, p, weights, clusters)
        overall = Table(counted.counts, counted.predicted, counted.actual)
        empty = np.zeros(0, dtype=np.intp)
        return SlicedCells(empty, empty, empty, np.zeros(0, dtype), (), ()), overall
    if dense and weights is None and cells <= _BLOCK:
        flat = _count_blocks(slices, p.codes, a.codes, K0, C0, cells)
        keys = np.flatnonzero(flat)
        values: NDArray[Any] = flat[keys]
    elif dense:
        what = f"{n_slices:,} slices of {K0} x {C0} cells"
        check_memory(8 * (n + cells), what, "slice by fewer keys")
        combined = _combine(slices, p.codes, a.codes, K0, C0)
        flat = np.bincount(combined, weights=weights, minlength=cells)
        # with weights, a cell whose rows all weigh 0 is kept (with 0): its labels are
        # labels of the slice's Table, as `Table.from_labels` of the slice's rows keeps them
        held = flat if weights is None else np.bincount(combined, minlength=cells)
        del combined
        keys = np.flatnonzero(held)
        values = flat[keys].astype(dtype, copy=False)
    elif weights is None:
        check_memory(8 * n, f"the slice codes of {n:,} rows", "read the rows in batches")
        keys, counts = np.unique(_combine(slices, p.codes, a.codes, K0, C0), return_counts=True)
        values = counts.astype(np.int64)
    else:
        check_memory(8 * n, f"the slice codes of {n:,} rows", "read the rows in batches")
        combined = _combine(slices, p.codes, a.codes, K0, C0)
        keys, inverse = np.unique(combined, return_inverse=True)  # every cell with a row
        values = np.bincount(inverse.reshape(-1), weights=weights, minlength=keys.size)
    if dense and weights is None:
        summed = flat.reshape(n_slices, K0, C0).sum(axis=0).astype(np.int64, copy=False)
        counted = arrange_counts(from_dense(summed), a, p)
    else:
        counted = count_coded(a, p, weights, clusters)
    overall = Table(counted.counts, counted.predicted, counted.actual)
    # the overall table's labels (canonical, each used) are the slices' labels too
    rest, col = np.divmod(keys, C0)
    s, row = np.divmod(rest, K0)
    row = _positions(p.labels, overall.predicted)[row]
    col = _positions(a.labels, overall.actual)[col]
    K, C = len(overall.predicted), len(overall.actual)
    moved = (s * K + row) * C + col
    if moved.size > 1 and not bool((moved[1:] > moved[:-1]).all()):
        order = np.argsort(moved, kind="stable")
        s, row, col, values = s[order], row[order], col[order], values[order]
    return (
        SlicedCells(
            s.astype(np.intp),
            row.astype(np.intp),
            col.astype(np.intp),
            values,
            overall.predicted,
            overall.actual,
        ),
        overall,
    )


def _combine(
    slices: NDArray[np.intp],
    row: NDArray[np.integer[Any]],
    col: NDArray[np.integer[Any]],
    K0: int,
    C0: int,
) -> NDArray[np.int64]:
    """(slice * K0 + row) * C0 + col of every row, a block of rows at a time (in cache)."""
    n = slices.shape[0]
    combined = np.empty(n, dtype=np.int64)
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        _combine_block(slices[lo:hi], row[lo:hi], col[lo:hi], K0, C0, combined[lo:hi])
    return combined


def _count_blocks(
    slices: NDArray[np.intp],
    row: NDArray[np.integer[Any]],
    col: NDArray[np.integer[Any]],
    K0: int,
    C0: int,
    cells: int,
) -> NDArray[np.int64]:
    """The counts of the S x K0 x C0 `cells` (at most `_BLOCK`), counted a block of rows
    at a time: no code array as long as the rows, every temporary in cache."""
    n = slices.shape[0]
    flat = np.zeros(cells, dtype=np.int64)
    # codes below `_BLOCK` cells: 32-bit codes are a quarter quicker to form and count
    part = np.empty(min(n, _BLOCK), dtype=np.int32)
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        codes = part[: hi - lo]
        _combine_block(slices[lo:hi], row[lo:hi], col[lo:hi], K0, C0, codes)
        flat += np.bincount(codes, minlength=cells)
    return flat


def _combine_block(
    slices: NDArray[np.intp],
    row: NDArray[np.integer[Any]],
    col: NDArray[np.integer[Any]],
    K0: int,
    C0: int,
    out: NDArray[np.int64] | NDArray[np.int32],
) -> None:
    np.multiply(slices, K0, out=out)
    out += row
    out *= C0
    out += col


def _positions(labels: tuple[Label, ...], among: tuple[Label, ...]) -> NDArray[np.intp]:
    """Where each coded label is among the table's labels (0 for one no row holds)."""
    where = {keyed(x): i for i, x in enumerate(among)}
    return np.fromiter((where.get(keyed(x), 0) for x in labels), dtype=np.intp, count=len(labels))


def rank_sliced(
    slices: NDArray[np.intp],
    n_slices: int,
    is_positive: NDArray[np.bool_],
    scores: Any,
    weights: NDArray[np.float64] | None,
    stand_in: bool = False,
) -> tuple[tuple[Ranking, ...], Ranking]:
    """One Ranking per slice and the overall Ranking; with `stand_in` (a file's batch,
    whose overall Ranking is merged from the slices' once every batch is read:
    `informed.io.sliced`), an overall Ranking of one group that holds only the class
    totals, where counting it from the rows would sort them all again.

    From 2^16 rows on, where the slices x distinct scores x 2 cells are fewer than the
    rows, every slice's tie groups come from one hash of the scores and one count of the
    cells (`informed.slices.hashed.group_hashed`; without weights or with whole ones, so
    that every sum is exact), and the overall groups are their sum. Otherwise, without
    weights, they come from one sort of (slice, score, outcome) packed in one integer
    (`informed.slices.ranked.group_packed`), as the unsliced Ranking comes from one sort
    of (score, outcome). With other weights, every slice's groups and the overall ones
    come from one quicksort of the scores and one stable sort of the slice codes, which
    add each group's weights in the order `Ranking.from_scores` adds them
    (`informed.slices.ranked.group_weighted_slices`; 10^7 weighted continuous scores
    in 100 slices: 0.9 s of CPU, 2.5 s slice by slice); up to 2^16 distinct scores are
    numbered by one hash (`informed.slices.hashed.score_groups`) and the rows put in
    (score, weight) order by a quicksort of the weights and a radix sort of those
    numbers, not by a sort of (score, weight) pairs. Where the packed key does not
    fit, the rows are put in slice order by one stable sort of the slice codes (a radix
    sort for up to 2^15 slices) and each slice's run of rows is grouped by the unsliced
    code (`informed.ranking.grouping.group_rows`): the same function on the same rows in
    the same order gives each slice exactly the Ranking `Ranking.from_scores` gives its
    rows.
    """
    values, limits = scores_and_bounds(np.asarray(scores), allow_infinite=False)
    hashed = group_hashed(slices, n_slices, values, is_positive, weights)
    if hashed is not None:
        # canonical by construction (distinct scores descending, -0.0 as 0.0, no empty
        # group; tests/slices/test_slice_hashed.py holds them to `Ranking.from_scores`),
        # so wrapped as `Ranking.from_scores` wraps its own groups: checking 1.6 million
        # groups again took 5% of the unsliced pass on 10^7 rows
        overall = Ranking._trusted(
            hashed.overall_scores,
            hashed.overall_positives,
            hashed.overall_negatives,
            classes=_UNKNOWN,
        )
        return tuple(
            Ranking._trusted(s.copy(), p.copy(), n.copy(), classes=_UNKNOWN)
            for s, p, n in hashed.slices()
        ), overall
    weighted = None
    if weights is not None:  # fractional weights: every slice and all rows by one sort
        groups = score_groups(values)  # up to 2^16 distinct scores: no sort of pairs
        weighted = group_weighted_slices(slices, n_slices, values, is_positive, weights, groups)
    if weighted is not None:
        counts, (scores_, positives, negatives), overall_groups = weighted
        cuts = np.cumsum(counts)[:-1]
        parts = zip(*(np.split(a, cuts) for a in (scores_, positives, negatives)), strict=True)
        # canonical by construction, as the unsliced Ranking of each slice's rows would be
        return tuple(
            Ranking._trusted(s.copy(), p.copy(), n.copy(), classes=_UNKNOWN) for s, p, n in parts
        ), Ranking._trusted(*overall_groups, classes=_UNKNOWN)
    packed = None
    if weights is None:
        packed = group_packed(slices, n_slices, values, is_positive, limits)
    if packed is not None:
        # canonical by construction, as the hashed groups (distinct codes ascending:
        # distinct scores descending, -0.0 coded as 0.0; counts of rows, none empty;
        # tests/slices/test_slice_hashed.py holds them to the hashed route's); views of
        # arrays that hold the groups alone (new, no row's data), so no copy is made
        rankings = [Ranking._trusted(s, p, n, classes=_UNKNOWN) for s, p, n in packed.slices()]
        if stand_in:
            return tuple(rankings), _totals(is_positive)
        return tuple(rankings), _overall(rankings, values, is_positive, weights, limits)
    small = slices.astype(np.int16 if n_slices < (1 << 15) else np.int64)
    order = np.argsort(small, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(slices, minlength=n_slices))))
    v, positive = values[order], is_positive[order]
    w = None if weights is None else weights[order]
    rankings = []
    for k in range(n_slices):
        part = slice(int(bounds[k]), int(bounds[k + 1]))
        found = group_rows(v[part], positive[part], None if w is None else w[part])
        rankings.append(Ranking(*found))
    if stand_in and weights is None:
        return tuple(rankings), _totals(is_positive)
    return tuple(rankings), _overall(rankings, values, is_positive, weights, limits)


def _totals(is_positive: NDArray[np.bool_]) -> Ranking:
    """A stand-in overall Ranking of counts: the class totals in one group."""
    positives = int(np.count_nonzero(is_positive))
    counts = np.array([positives]), np.array([is_positive.size - positives])
    return Ranking._trusted(np.zeros(1), *(c.astype(np.int64) for c in counts), classes=_UNKNOWN)


def _overall(
    rankings: list[Ranking],
    values: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    weights: NDArray[np.float64] | None,
    limits: tuple[float, float] | None,
) -> Ranking:
    """The Ranking of all rows: integer counts summed over the slices' tie groups when
    they are fewer than the rows (exact); otherwise, and for float weights (whose sums
    depend on their order), counted from the rows as `Ranking.from_scores` does (the
    rows, checked once, grouped by the same function; `limits`: the lowest and highest
    score)."""
    groups = sum(r.n_groups for r in rankings)
    if weights is None and 2 * groups > values.shape[0]:
        return Ranking._trusted(*group_rows(values, is_positive, None, limits), classes=_UNKNOWN)
    if weights is not None or not rankings:
        return Ranking.from_scores(
            actual=is_positive, scores=values, positive=True, negative=False, weights=weights
        )
    codes = descending_codes(np.concatenate([r.scores for r in rankings]))
    # each slice's codes are a sorted run: a stable sort (a merge of runs) orders them
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    positives = np.concatenate([r.positives for r in rankings])[order]
    negatives = np.concatenate([r.negatives for r in rankings])[order]
    return Ranking(
        scores_of(codes[starts]),
        np.add.reduceat(positives, starts),
        np.add.reduceat(negatives, starts),
    )


def merge_cells(
    a: SlicedCells, b: SlicedCells, mine: NDArray[np.intp], theirs: NDArray[np.intp]
) -> SlicedCells:
    """Two slices' cells over the union of slices and labels, equal cells added."""
    predicted = sort_labels((*a.predicted, *b.predicted))
    actual = sort_labels((*a.actual, *b.actual))
    K, C = len(predicted), len(actual)
    parts = []
    for cells, where in ((a, mine), (b, theirs)):
        s = where[cells.slice].astype(np.int64)
        r = positions_in(cells.predicted, predicted)[cells.row]
        c = positions_in(cells.actual, actual)[cells.col]
        parts.append(((s * K + r) * C + c, cells.values))
    keys = np.concatenate([k for k, _ in parts])
    values = np.concatenate([v for _, v in parts])
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if keys.size else keys
    if keys.size:
        values = np.add.reduceat(values, first)
        keys = keys[first]
    rest, col = np.divmod(keys, C) if C else (keys, keys)
    s, row = np.divmod(rest, K) if K else (rest, rest)
    return SlicedCells(
        s.astype(np.intp), row.astype(np.intp), col.astype(np.intp), values, predicted, actual
    )


def slice_rows(
    codes: NDArray[np.intp],
    n_slices: int,
    weights: NDArray[np.float64] | None,
    cells: SlicedCells | None,
    rankings: tuple[Ranking, ...] | None,
) -> NDArray[np.int64]:
    """The rows of each slice: without weights, the sum of its counts (exact integers),
    else counted from the codes."""
    if weights is None and cells is not None:
        rows = np.zeros(n_slices, dtype=np.int64)
        np.add.at(rows, cells.slice, cells.values)
        return rows
    if weights is None and rankings is not None:
        return np.array(
            [int(r.positives.sum()) + int(r.negatives.sum()) for r in rankings], dtype=np.int64
        ).reshape(n_slices)
    return np.bincount(codes, minlength=n_slices).astype(np.int64)


def count_parts(
    codes: NDArray[np.intp],
    n_slices: int,
    a: Coded,
    predicted: Any,
    weights: NDArray[np.float64] | None,
    clusters: bool,
    text: bool,
) -> tuple[SlicedCells, Table]:
    """The predicted labels coded and checked (`informed.coding.labels.refuse_scores`; `text`: a
    CSV file's), then every slice's cells and the overall Table (`count_sliced`)."""
    p = code_column(predicted, "predicted")
    if p.codes.shape[0] != a.codes.shape[0]:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {a.codes.shape[0]}, predicted {p.codes.shape[0]}."
        )
        raise InputError(msg)
    refuse_scores(a, "actual", text=text)
    refuse_scores(p, "predicted", text=text)
    return count_sliced(codes, n_slices, a, p, weights, clusters)


def rank_parts(
    codes: NDArray[np.intp],
    n_slices: int,
    a: Coded,
    scores: Any,
    positive: Any,
    weights: NDArray[np.float64] | None,
    partial: bool,
    stand_in: bool = False,
) -> tuple[Label, tuple[Ranking, ...], Ranking]:
    """The positive class as `actual` spells it, and the Rankings of every slice and of
    all the rows (`rank_sliced`), naming no negative class yet (`informed.slices.classes`);
    a `partial` part of the rows need not hold the positive class; `stand_in`, see
    `rank_sliced`."""
    wanted = keyed(as_label(positive))
    index = next((i for i, x in enumerate(a.labels) if keyed(x) == wanted), -1)
    if index < 0 and not partial:
        msg = f"positive={positive!r} is not a label of `actual`."
        raise InputError(msg)
    label = a.labels[index] if index >= 0 else as_label(positive)
    score_array = np.asarray(scores)
    if score_array.shape[0] != a.codes.shape[0]:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {a.codes.shape[0]}, scores {score_array.shape[0]}."
        )
        raise InputError(msg)
    found = rank_sliced(codes, n_slices, a.codes == index, score_array, weights, stand_in)
    rankings, overall = named(*found, label, None)
    return label, rankings, overall
