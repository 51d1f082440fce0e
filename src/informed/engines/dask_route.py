"""A Dask DataFrame given to `Table.from_frame` or `Ranking.from_frame`: counted by the
Dask adapter (`informed.engines.dask`: each partition where it lies, merged in a tree,
every partition's rows checked), then given the options of the in-memory calls.

Why not narwhals' Dask backend like the other engines: the adapter already does the
grouped count per partition with informed's own code (exact, with partition-level
coverage), and narwhals is moving its Dask support out of narwhals (docs/engines.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from informed.coding.labels import as_label, keyed
from informed.engines.dask.summaries import summarise
from informed.errors import InputError
from informed.ranking import Ranking
from informed.ranking.classes import check_classes
from informed.ranking.grouping import NOT_GIVEN, shown
from informed.table import Table
from informed.table.counting import check_label_list, check_same_kind

__all__ = ["dask_ranking", "dask_table"]


def dask_table(
    frame: Any,
    actual: str,
    predicted: str,
    weights: str | None,
    labels: Sequence[Any] | None,
    clusters: bool,
    storage: str,
) -> Table:
    """`Table.from_frame` of a Dask DataFrame."""
    found = summarise(frame, actual=actual, predicted=predicted, weights=weights, partial=True)
    table = found.table
    assert table is not None  # `predicted` was named
    if not clusters:
        check_same_kind(
            table.actual,
            table.predicted,
            "or pass `clusters=True` if the predictions are cluster ids",
        )
    if labels is not None:
        universe = check_label_list(labels, "labels")
        known = {keyed(x) for x in universe}
        for name, axis in (("predicted", table.predicted), ("actual", table.actual)):
            outside = [x for x in axis if keyed(x) not in known]
            if outside:
                msg = f"`{name}` holds {outside[0]!r}, which is not in `labels` {list(universe)}."
                raise InputError(msg)
        counts = [[table.count(p, a) for a in universe] for p in universe]
        return Table.from_counts(
            counts,
            rows="predicted",
            labels=list(universe),
            weighted=table.weighted,
            storage=storage,  # type: ignore[arg-type]
        )
    if storage == "dense" and table.storage != "dense":
        return table.to_dense()
    if storage == "sparse" and table.storage != "sparse":
        return table.to_sparse()
    return table


def dask_ranking(
    frame: Any, actual: str, scores: str, positive: Any, negative: Any, weights: str | None
) -> Ranking:
    """`Ranking.from_frame` of a Dask DataFrame: the rules of `Ranking.from_scores`."""
    found = summarise(
        frame, actual=actual, scores=scores, weights=weights, positive=positive, partial=True
    )
    ranking = found.ranking
    assert ranking is not None  # `scores` was named
    wanted = keyed(as_label(positive))
    others = [x for x in found.labels if keyed(x) != wanted]
    if negative is not NOT_GIVEN:
        outside = [x for x in others if keyed(x) != keyed(as_label(negative))]
        if outside:
            msg = (
                f"`actual` holds {shown(outside[0])}, which is neither positive="
                f"{shown(positive)} nor negative={shown(negative)}."
            )
            raise InputError(msg)
        return ranking.with_classes(*check_classes(positive, negative))
    if found.labels and len(others) == len(found.labels):
        msg = (
            f"positive={shown(positive)} does not occur in `actual`, which holds "
            f"{list(found.labels[:10])}."
        )
        raise InputError(msg)
    if len(others) > 1:
        msg = (
            f"`actual` must hold two classes, positive={shown(positive)} and one other; it "
            f"holds {others[:10]} besides. Use `Ranking.one_vs_rest` for more classes."
        )
        raise InputError(msg)
    return ranking.with_classes(*check_classes(positive, others[0] if others else None))
