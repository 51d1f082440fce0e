"""Grouped counts with slice columns in front become `Slices`.

The slice columns are coded as `Slices.from_frame` codes them (`informed.slices.keys`:
a missing value is the slice "missing", never an error); each group then adds its rows
(or exact weight sums) to one cell of counts[S, K, C], and each tie group of a slice's
Ranking, exactly. The overall Table and Ranking add every slice's groups before rounding,
so they equal the unsliced summaries of the same frame bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Coded, Label, as_label, keyed, positions_in
from informed.engines.keys import check_text, code_labels, score_values, table_labels
from informed.engines.query import Grouped, exact_sums, weight_sums
from informed.engines.rankings import classes_of, rank_groups
from informed.engines.tables import table_of
from informed.engines.windows import TimeKeys, window_of
from informed.errors import InputError
from informed.ranking.classes import negative_of
from informed.ranking.grouping import NOT_GIVEN
from informed.slices.counting import SlicedCells
from informed.slices.keys import code_keys
from informed.slices.slices import Slices

__all__ = ["sliced"]


def _keys(
    frame: Any, names: list[str], found: list[Grouped], time: TimeKeys | None
) -> tuple[Any, list[NDArray[np.intp]]]:
    """The slice keys of every group of the grouped counts `found` (coded together), the
    time window first (`informed.engines.windows`)."""
    import pyarrow as pa

    columns: list[Any] = [] if time is None else [window_of(frame, time, found)]
    for name in names:
        parts = [g.keys[name] for g in found]
        if len({str(p.type) for p in parts}) > 1:  # pragma: no cover - one frame, one type
            parts = [p.cast(parts[0].type) for p in parts]
        check_text(frame, parts[0], name, "by", found[0].rows)  # its groups hold every value
        columns.append(pa.chunked_array([c for p in parts for c in p.chunks], type=parts[0].type))
    coded = code_keys(columns, names if time is None else [time.name, *names])
    sizes = np.cumsum([0, *(g.rows.size for g in found)])
    return coded, [coded.codes[sizes[i] : sizes[i + 1]] for i in range(len(found))]


def _cells(
    grouped: Grouped,
    slice_codes: NDArray[np.intp],
    p: Coded,
    a: Coded,
    predicted: tuple[Label, ...],
    actual: tuple[Label, ...],
) -> SlicedCells:
    """The cells of counts[S, K, C] that hold rows, sorted by (slice, row, column): with
    weights, a cell whose rows all weigh 0 too (as `informed.slices.counting` keeps it)."""
    K, C = len(predicted), len(actual)
    row = positions_in(p.labels, predicted)[p.codes]
    col = positions_in(a.labels, actual)[a.codes]
    flat = (slice_codes.astype(np.int64) * max(K, 1) + row) * max(C, 1) + col
    distinct, inverse = np.unique(flat, return_inverse=True)
    inverse = inverse.reshape(-1)
    if grouped.limbs is None:
        values: NDArray[Any] = np.zeros(distinct.size, dtype=np.int64)
        np.add.at(values, inverse, grouped.rows)
    else:
        values = weight_sums(exact_sums(grouped.limbs, inverse, distinct.size))
    rest, c = np.divmod(distinct, max(C, 1))
    s, r = np.divmod(rest, max(K, 1))
    return SlicedCells(
        s.astype(np.intp), r.astype(np.intp), c.astype(np.intp), values, predicted, actual
    )


def sliced(
    frame: Any,
    names: list[str],
    actual: str,
    predicted: str | None,
    scores: str | None,
    positive: Any,
    table_groups: Grouped | None,
    ranking_groups: Grouped | None,
    clusters: bool,
    time: TimeKeys | None = None,
) -> Slices:
    """Slices from the grouped counts of (by..., predicted, actual) and (by..., score,
    actual), with `time` the calendar fields of the time window in front; either count
    may be None."""
    if table_groups is None and ranking_groups is None:
        msg = "pass `predicted` (a Table per slice), `scores` (a Ranking per slice), or both."
        raise InputError(msg)
    if scores is not None and positive is None:
        msg = "`scores` need `positive`: which class do high scores point to?"
        raise InputError(msg)
    found = [g for g in (table_groups, ranking_groups) if g is not None]
    coded, codes = _keys(frame, names, found, time)
    S = len(coded.keys)
    rows = np.zeros(S, dtype=np.int64)
    np.add.at(rows, codes[0], found[0].rows)
    cells = overall = None
    if table_groups is not None:
        assert predicted is not None
        a, p = table_labels(frame, table_groups.keys, actual, predicted, table_groups.rows)
        overall = table_of(table_groups, p, a, clusters=clusters)
        cells = _cells(table_groups, codes[0], p, a, overall.predicted, overall.actual)
    rankings = overall_ranking = None
    label: Label | None = None
    if ranking_groups is not None and scores is not None:
        a = code_labels(frame, ranking_groups.keys[actual], actual, "actual", ranking_groups.rows)
        wanted = keyed(as_label(positive))
        matches = [x for x in a.labels if keyed(x) == wanted]
        if not matches:
            msg = f"positive={positive!r} is not a label of `actual`."
            raise InputError(msg)
        label = matches[0]
        values = score_values(
            frame, ranking_groups.keys[scores], scores, ranking_groups.rows, False
        )
        is_positive, _ = classes_of(a, label, NOT_GIVEN, ranking_groups.rows, two_class=False)
        # every group holds rows: the one other class of `actual` is named, as in memory
        classes = (label, negative_of(a.labels, label))
        found_rankings = rank_groups(
            values, is_positive, ranking_groups, codes[-1], S, classes=classes
        )
        rankings, overall_ranking = tuple(found_rankings[:-1]), found_rankings[-1]
    by = tuple(names) if time is None else (time.name, *names)
    return Slices(by, coded.keys, rows, cells, overall, label, rankings, overall_ranking)
