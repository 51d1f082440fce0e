"""`informed.engines.dask.slices` (`informed.dask.slices`): the Slices of a Dask DataFrame
or of files, each partition sliced where it lies and the Slices merged in a tree (see
`informed.engines.dask.summaries` for the coverage rules: every partition once, every row
read in one slice). Each partition's Rankings name no negative class; the merged ones name
the one other class of every partition's rows, as `Ranking.from_scores` of all the rows
would (`informed.slices.classes`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from informed.engines.dask.summaries import (
    SPLIT_EVERY,
    _dask,
    _frame_rows,
    _is_dask_frame,
    _tree,
    check_split,
)
from informed.errors import InputError, InputTypeError
from informed.io.paths import expand_paths
from informed.io.summaries import column_names

if TYPE_CHECKING:
    from informed.coding.labels import Label
    from informed.slices import Slices

__all__ = ["slices"]


Part = tuple["Slices", tuple["Label", ...]]


def _slices_leaf(frame: Any, part: str, options: dict[str, Any]) -> Part:
    """A DataFrame partition's Slices (it need not hold the positive class; its Rankings
    name no negative class yet) and the actual classes of its rows."""
    from informed.coding.columns import frame_column
    from informed.slices.building import timed
    from informed.slices.slices import build_parts

    def column(name: str | None) -> Any:
        return None if name is None else frame_column(frame, name, name)

    time = options["time"]
    try:  # the windows of the partition's timestamps, floored as in one process
        windows, named = timed(column(time), options["every"], time or "time")
        return build_parts(
            [*windows, *(column(name) for name in options["by"])],
            [*named, *options["by"]],
            column(options["actual"]),
            column(options["predicted"]),
            column(options["scores"]),
            options["positive"],
            column(options["weights"]),
            partial=True,
        )
    except (InputError, InputTypeError) as exc:
        raise type(exc)(f"partition {part!r}: {exc}") from None


def _slices_file(path: str, options: dict[str, Any]) -> Part:
    from informed.io.sliced import read_slices_parts

    return read_slices_parts(path, **options)  # the rows read are checked there


def _add(*found: Part) -> Part:
    """A node of the tree: the parts' Slices merged, and the classes of their rows."""
    from informed.coding.labels import sort_labels

    total, classes = found[0]
    for item, seen in found[1:]:
        total, classes = total + item, sort_labels((*classes, *seen))
    return total, classes


def slices(
    data: Any,
    *,
    by: str | Sequence[str] = (),
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    split_every: int = SPLIT_EVERY,
    scheduler: Any = None,
    time: str | None = None,
    every: str | None = None,
    **aliases: Any,
) -> Slices:
    """The `informed.slices.Slices` of every row of `data` by the column(s) `by` and by
    time window of the column `time` (with `every`: `informed.slices.windows`, each
    partition's timestamps floored where they lie, as one process floors them): each
    partition (or file) sliced where it lies, the Slices merged in a tree; equal to
    `Slices.from_frame` on all the rows at once, and every row read is in one slice
    (checked against the rows of each partition). Parameters as in `summarise`.
    """
    from informed.slices.building import check_time
    from informed.slices.slices import with_negative

    score, weight = column_names("informed.dask.slices", scores, weights, aliases)
    names = [by] if isinstance(by, str) else list(by)
    check_time(time, every, bool(names))
    if predicted is None and score is None:
        msg = "name a `predicted` column, a `scores` column, or both."
        raise InputError(msg)
    if score is not None and positive is None:
        msg = "a `scores` column needs `positive`: which class do high scores point to?"
        raise InputError(msg)
    check_split(split_every)
    dask = _dask()
    delayed = dask.delayed
    options = {
        "by": names,
        "actual": actual,
        "predicted": predicted,
        "scores": score,
        "weights": weight,
        "positive": positive,
        "time": time,
        "every": every,
    }
    if _is_dask_frame(data):
        columns = list(
            dict.fromkeys(c for c in (time, *names, actual, predicted, score, weight) if c)
        )
        missing = [c for c in columns if c not in list(data.columns)]
        if missing:
            msg = (
                f"the DataFrame has no column {missing[0]!r}; its columns are {list(data.columns)}."
            )
            raise InputError(msg)
        parts = list(data[columns].to_delayed())
        leaves = [
            delayed(_slices_leaf, pure=True)(p, f"partition/{i}", options)
            for i, p in enumerate(parts)
        ]
        rows = [delayed(_frame_rows, pure=True)(p) for p in parts]
    else:
        files = expand_paths(data)
        leaves = [delayed(_slices_file, pure=True)(os.fspath(f), options) for f in files]
        rows = []
    if not leaves:
        msg = "the input has no partitions: nothing to evaluate."
        raise InputError(msg)
    merged, counts = dask.compute(_tree(dask, leaves, split_every, _add), rows, scheduler=scheduler)
    found = with_negative(*merged)  # the classes of every partition name the negative
    if counts and int(found.rows.sum()) != sum(counts):
        msg = f"the slices hold {int(found.rows.sum())} rows of the {sum(counts)} read."
        raise InputError(msg)
    return found
