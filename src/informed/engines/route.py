"""The engine route: a lazy frame counted where it lives, ending in the ordinary summaries.

`Table.from_frame`, `Ranking.from_frame`, `Slices.from_frame`, `evaluate(frame, ...)` and
`informed.io.summarise_frame` hand a lazy frame (a polars LazyFrame, a DuckDB relation,
a Spark DataFrame, an ibis table) to these functions (through `informed._routes`, as
they sit below the engines). Each runs the grouped counts of `informed.engines.query`
on the engine, checks that they counted every row the frame holds (a separate
``COUNT(*)``), and builds the summary with the summaries' own constructors, so that it
equals the summary of the same rows in memory. A Dask DataFrame goes to informed's Dask
adapter instead (`informed.engines.dask`): each partition counted where it lies, the
summaries merged in a tree, every partition checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from informed.coding.columns import engine_of
from informed.coding.labels import Label, sort_labels
from informed.engines.frames import lazy_frame
from informed.engines.keys import code_labels, score_values, table_labels
from informed.engines.query import (
    Grouped,
    check_coverage,
    count_rows,
    grouped_counts,
)
from informed.engines.rankings import classes_of, rank_groups
from informed.engines.tables import table_of
from informed.errors import InputError
from informed.io.coverage import Summaries
from informed.ranking import Ranking
from informed.ranking.grouping import NOT_GIVEN
from informed.table import Table

__all__ = ["documents", "ranking", "slices", "slices_by_sets", "summaries", "table"]

TABLE_WAY_OUT = (
    "the predicted and actual labels have too many distinct pairs to fetch; count fewer "
    "labels on the engine (map the rare ones to one label)"
)
RANKING_WAY_OUT = (
    "round the scores on the engine first, e.g. ROUND(score, 4) (at most 10,001 distinct "
    "values in [0, 1]) or CAST(score AS FLOAT) (float32), or run where more memory is "
    "free; informed never bins scores silently"
)


def _table_query(
    frame: Any,
    lazy: Any,
    by: list[str],
    actual: str,
    predicted: str,
    weights: str | None,
    shown: list[str] | None = None,
) -> Grouped:
    named = ", ".join([*(by if shown is None else shown), "predicted", "actual"])
    return grouped_counts(
        frame,
        lazy,
        [*by, predicted, actual],
        weights,
        what="the counts of {groups:,} distinct (" + named + ")",
        way_out=TABLE_WAY_OUT,
    )


def _ranking_query(
    frame: Any,
    lazy: Any,
    by: list[str],
    actual: str,
    scores: str,
    weights: str | None,
    shown: list[str] | None = None,
) -> Grouped:
    named = ", ".join([*(by if shown is None else shown), "score", "actual"])
    return grouped_counts(
        frame,
        lazy,
        [*by, scores, actual],
        weights,
        what="a Ranking of {groups:,} distinct (" + named + ")",
        way_out=RANKING_WAY_OUT,
    )


def _covered(frame: Any, lazy: Any, *found: Grouped) -> int:
    """The rows the frame holds, each grouped count checked to have counted them all."""
    held = count_rows(frame, lazy)
    for grouped in found:
        check_coverage(frame, int(grouped.rows.sum()), held)
    return held


def table(
    frame: Any,
    *,
    actual: str,
    predicted: str,
    weights: str | None = None,
    labels: Sequence[Any] | None = None,
    clusters: bool = False,
    storage: str = "auto",
) -> Table:
    """The Table of a lazy frame: ``GROUP BY predicted, actual`` on its engine."""
    if engine_of(frame) == "Dask":
        from informed.engines.dask_route import dask_table

        return dask_table(frame, actual, predicted, weights, labels, clusters, storage)
    lazy = lazy_frame(frame, {"actual": actual, "predicted": predicted, "weights": weights})
    grouped = _table_query(frame, lazy, [], actual, predicted, weights)
    _covered(frame, lazy, grouped)
    a, p = table_labels(frame, grouped.keys, actual, predicted, grouped.rows)
    return table_of(grouped, p, a, labels=labels, clusters=clusters, storage=storage)


def ranking(
    frame: Any,
    *,
    actual: str,
    scores: str,
    positive: Any,
    negative: Any = NOT_GIVEN,
    weights: str | None = None,
    allow_infinite: bool = False,
) -> Ranking:
    """The Ranking of `positive` against one other class (`Ranking.from_scores`' rules):
    ``GROUP BY score, actual`` on the engine."""
    if positive is None:
        msg = (
            "Ranking.from_frame() needs `positive`, the class high scores point to (a label "
            'is never None): write Ranking.from_frame(frame, actual="y", scores="s", positive=...).'
        )
        raise InputError(msg)
    if engine_of(frame) == "Dask":
        from informed.engines.dask_route import dask_ranking

        return dask_ranking(frame, actual, scores, positive, negative, weights)
    lazy = lazy_frame(frame, {"actual": actual, "scores": scores, "weights": weights})
    grouped = _ranking_query(frame, lazy, [], actual, scores, weights)
    _covered(frame, lazy, grouped)
    a = code_labels(frame, grouped.keys[actual], actual, "actual", grouped.rows)
    values = score_values(frame, grouped.keys[scores], scores, grouped.rows, allow_infinite)
    is_positive, classes = classes_of(a, positive, negative, grouped.rows, two_class=True)
    return rank_groups(values, is_positive, grouped, classes=classes)[0]


def summaries(
    frame: Any,
    *,
    part: str,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
) -> Summaries:
    """The Table and the Ranking (`positive` against all the other classes) of a lazy
    frame, recorded as the partition `part` (`informed.io.summarise_frame`)."""
    if engine_of(frame) == "Dask":
        from informed.engines.dask.summaries import summarise

        return summarise(
            frame,
            actual=actual,
            predicted=predicted,
            scores=scores,
            weights=weights,
            positive=positive,
            name=part,
            partial=True,
        )
    named = {"actual": actual, "predicted": predicted, "scores": scores, "weights": weights}
    lazy = lazy_frame(frame, named)
    found: list[Grouped] = []
    table_found = ranking_found = None
    seen: list[Label] = []
    if predicted is not None:
        grouped = _table_query(frame, lazy, [], actual, predicted, weights)
        found.append(grouped)
        a, p = table_labels(frame, grouped.keys, actual, predicted, grouped.rows)
        table_found = table_of(grouped, p, a)
        seen += [*table_found.labels]
    if scores is not None:
        grouped = _ranking_query(frame, lazy, [], actual, scores, weights)
        found.append(grouped)
        a = code_labels(frame, grouped.keys[actual], actual, "actual", grouped.rows)
        values = score_values(frame, grouped.keys[scores], scores, grouped.rows, False)
        is_positive, classes = classes_of(a, positive, NOT_GIVEN, grouped.rows, two_class=False)
        ranking_found = rank_groups(values, is_positive, grouped, classes=classes)[0]
        seen += [*a.labels]
    rows = _covered(frame, lazy, *found)
    positive_rows = found[0].positive_rows if found else None
    weighted_rows = rows if positive_rows is None else int(positive_rows.sum())
    return Summaries(
        rows, table_found, ranking_found, sort_labels(seen), weighted_rows, frozenset({part})
    )


def documents(frame: Any, **options: Any) -> Summaries:
    """The Tally of a lazy frame's documents (`informed.io.summarise_documents`):
    per-category counts on the engine (`informed.engines.tally`); a Dask DataFrame by
    the Dask adapter."""
    if engine_of(frame) == "Dask":
        from informed.engines.dask.summaries import summarise_tally

        part = options.pop("part")
        return summarise_tally(frame, name=part, **options)
    from informed.engines.tally import documents as tally_documents

    return tally_documents(frame, **options)


def check_positive_label(labels: Sequence[Label], positive: Any) -> None:
    """Refuse a `positive` that is not among the labels of `actual`."""
    from informed.coding.labels import as_label, keyed

    if keyed(as_label(positive)) not in {keyed(x) for x in labels}:
        msg = f"positive={positive!r} is not a label of `actual`."
        raise InputError(msg)


def slices(
    frame: Any,
    *,
    by: Sequence[str],
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    positive: Any = None,
    weights: str | None = None,
    clusters: bool = False,
    time: str | None = None,
    every: str | None = None,
) -> Any:
    """The Slices of a lazy frame by the columns `by` and the time windows of `time`:
    ``GROUP BY window..., by..., predicted, actual`` (and ``..., score, actual``) on the
    engine (`informed.engines.sliced`, the windows `informed.engines.windows`)."""
    from informed.engines.sliced import sliced

    if engine_of(frame) == "Dask":
        from informed.engines.dask.slices import slices as dask_slices

        return dask_slices(
            frame,
            by=list(by),
            actual=actual,
            predicted=predicted,
            scores=scores,
            weights=weights,
            positive=positive,
            time=time,
            every=every,
        )
    names = list(by)
    columns = {f"by[{i}]": name for i, name in enumerate(names)}
    named = {"actual": actual, "predicted": predicted, "scores": scores, "weights": weights}
    lazy = lazy_frame(frame, {**columns, **named, "time": time})
    keys, shown, timed, counted = names, names, None, lazy
    if time is not None and every is not None:
        from informed.engines.windows import time_keys

        lazy, timed = time_keys(frame, lazy, time, every)  # the rows counted on `counted`
        keys, shown = [*timed.keys, *names], [f"{time} (calendar fields)", *names]
    table_groups = ranking_groups = None
    if predicted is not None:
        table_groups = _table_query(frame, lazy, keys, actual, predicted, weights, shown)
    if scores is not None:
        ranking_groups = _ranking_query(frame, lazy, keys, actual, scores, weights, shown)
    _covered(frame, counted, *(g for g in (table_groups, ranking_groups) if g is not None))
    return sliced(
        frame,
        names,
        actual,
        predicted,
        scores,
        positive,
        table_groups,
        ranking_groups,
        clusters,
        timed,
    )


def slices_by_sets(frame: Any, sets: Sequence[Sequence[str]], **options: Any) -> Any:
    """The Slices of a lazy frame by each set of columns, from one ``GROUP BY GROUPING
    SETS`` query where the engine has them (`informed.engines.grouping_sets`); None where
    it has not (each set is then counted by `slices`)."""
    from informed.engines.grouping_sets import slices_by_sets as by_sets

    return by_sets(frame, sets, **options)


def rows_of(grouped: Grouped, index: np.ndarray[Any, Any], size: int) -> np.ndarray[Any, Any]:
    """Rows of the groups added by `index` into `size` bins (int64, exact)."""
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, index, grouped.rows)
    return out
