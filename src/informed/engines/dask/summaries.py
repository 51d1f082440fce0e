"""Exact evaluation on a Dask cluster: each partition summarised where it lies, the
summaries merged in a tree, and the ordinary Table, Ranking or Tally handed back.

The input is a `dask.dataframe.DataFrame`, or files: a path, a glob pattern or a list of
them (CSV, Parquet, Arrow IPC; JSON lines for `tally`), one task per file, read in batches
by the worker with informed's own readers (the same checks and messages as on one
machine; every worker must see the files at the same paths). Each partition becomes a
`Summaries` (`informed.io.summarise_frame`, `informed.io.summarise_file`); the summaries
merge ``split_every`` at a time up a tree, so no task holds more than a few summaries; the
counts are the in-memory ones bit for bit and Rankings merge their exact float scores,
never binned.

Nothing lost, nothing counted twice: every partition has an id (a file's absolute path,
or ``name/i`` for partition i of a DataFrame), a merge refuses two summaries that cover
one partition, and the rows of each partition are also counted by a separate task; the
merged result must cover every partition once and count exactly the rows read
(`informed.io.check_complete`), or an InputError names the partition lost.

The tasks run on the scheduler dask would use anyway: the `distributed.Client` created
last (``Client("tcp://host:8786")`` or ``Client(LocalCluster())``), or the one passed as
`scheduler` ("threads", "processes", "synchronous", or a Client). dask is imported only
when one of these functions is called: ``pip install 'informed[dask]'``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from informed.errors import InputError, InputTypeError
from informed.io.coverage import Merger, Summaries, check_complete, check_positive
from informed.io.paths import expand_paths, part_id
from informed.io.summaries import column_names, summarise_file, summarise_frame
from informed.io.tallies import summarise_documents, summarise_jsonl

if TYPE_CHECKING:
    from informed.ranking import Ranking
    from informed.table import Evaluation, Table
    from informed.tally import Tally

__all__ = ["check_split", "evaluate", "rank", "summarise", "summarise_tally", "table", "tally"]

SPLIT_EVERY = 8
"""How many summaries one task of the tree merges."""


def _dask() -> Any:
    try:
        import dask
    except ImportError:
        msg = "informed.dask needs dask: pip install 'informed[dask]'."
        raise InputError(msg) from None
    return dask


# -- tasks (module-level functions: a worker imports them by name) ----------------------


def _merge_group(*found: Summaries) -> Summaries:
    """One node of the tree: a few summaries merged."""
    merger = Merger()
    for item in found:
        merger.add(item)
    return merger.result()


def _frame_leaf(frame: Any, part: str, kind: str, options: dict[str, Any]) -> Summaries:
    """A DataFrame partition's summaries; errors name the partition."""
    try:
        if kind == "tally":
            return summarise_documents(frame, part=part, **options)
        return summarise_frame(frame, part=part, **options)
    except (InputError, InputTypeError) as exc:
        raise type(exc)(f"partition {part!r}: {exc}") from None


def _file_leaf(path: str, part: str, kind: str, options: dict[str, Any]) -> Summaries:
    """A file's summaries, recorded under the id the client gave it (a worker may see
    the file under another absolute path)."""
    if kind == "tally":
        return summarise_jsonl(path, part=part, **options)
    return replace(summarise_file(path, **options), parts=frozenset({part}))


def _rows(found: Summaries) -> int:
    return found.rows


def _frame_rows(frame: Any) -> int:
    return len(frame)


# -- the graph ---------------------------------------------------------------------------


def _is_dask_frame(data: Any) -> bool:
    return hasattr(data, "to_delayed") and hasattr(data, "npartitions")


def _leaves(
    dask: Any, data: Any, kind: str, options: dict[str, Any], columns: list[str], name: str | None
) -> tuple[list[Any], list[Any], list[str]]:
    """(summary task, rows-read task, partition id) of every partition of `data`."""
    delayed = dask.delayed
    if _is_dask_frame(data):
        missing = [c for c in columns if c not in list(data.columns)]
        if missing:
            msg = (
                f"the DataFrame has no column {missing[0]!r}; its columns are {list(data.columns)}."
            )
            raise InputError(msg)
        prefix = name if name is not None else f"dask-{dask.base.tokenize(data)}"
        parts = data[columns].to_delayed()
        ids = [f"{prefix}/{i}" for i in range(len(parts))]
        leaves = [
            delayed(_frame_leaf, pure=True)(p, i, kind, options)
            for p, i in zip(parts, ids, strict=True)
        ]
        rows = [delayed(_frame_rows, pure=True)(p) for p in parts]
        return leaves, rows, ids
    if isinstance(data, str | os.PathLike) or (
        isinstance(data, Iterable) and not isinstance(data, bytes | dict)
    ):
        files = expand_paths(data)
        ids = [part_id(f) for f in files]
        leaves = [
            delayed(_file_leaf, pure=True)(os.fspath(f), i, kind, options)
            for f, i in zip(files, ids, strict=True)
        ]
        return leaves, [delayed(_rows, pure=True)(leaf) for leaf in leaves], ids
    msg = (
        "expected a dask DataFrame, a path, a glob pattern or a list of files; "
        f"got {type(data).__name__}."
    )
    raise InputTypeError(msg)


def _tree(dask: Any, leaves: Sequence[Any], split_every: int, merge: Any = _merge_group) -> Any:
    level = list(leaves)
    while len(level) > 1:
        level = [
            dask.delayed(merge, pure=True)(*level[i : i + split_every])
            for i in range(0, len(level), split_every)
        ]
    return level[0]


def check_split(split_every: Any) -> None:
    """Refuse a `split_every` that is not a whole number of at least 2."""
    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        msg = f"`split_every` must be a whole number >= 2; got {split_every!r}."
        raise InputError(msg)


def _run(
    data: Any,
    kind: str,
    options: dict[str, Any],
    columns: list[str],
    split_every: int,
    name: str | None,
    scheduler: Any,
) -> Summaries:
    check_split(split_every)
    dask = _dask()
    leaves, rows, ids = _leaves(dask, data, kind, options, columns, name)
    if not leaves:
        msg = "the input has no partitions: nothing to evaluate."
        raise InputError(msg)
    root = _tree(dask, leaves, split_every)
    found, counts = dask.compute(root, rows, scheduler=scheduler)
    check_complete(found, dict(zip(ids, counts, strict=True)))
    return cast("Summaries", found)


# -- the public functions ----------------------------------------------------------------


def summarise(
    data: Any,
    *,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    split_every: int = SPLIT_EVERY,
    name: str | None = None,
    scheduler: Any = None,
    partial: bool = False,
    **aliases: Any,
) -> Summaries:
    """The Table and/or Ranking of every row of `data`, with the partitions they cover.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path, glob pattern or list of paths
        The rows; files are read one task per file (CSV, Parquet, Arrow IPC).
    actual, predicted, scores, weights, positive
        As in `informed.io.read_summaries`: `predicted` gives the Table, `scores` (with
        `positive`) the Ranking of the positive class against all others (``score=`` and
        ``weight=`` are accepted).
    split_every : int
        How many summaries a task of the merge tree takes (at least 2).
    name : str, optional
        The prefix of a DataFrame's partition ids (default: dask's token of the
        DataFrame). Summaries of different data merge only under different names.
    scheduler : optional
        Passed to `dask.compute`: a `distributed.Client`, "threads", "synchronous", ...
    partial : bool
        `data` is a part of a data set, to be merged with others: it need not hold
        `positive`.

    Returns
    -------
    Summaries
        `table`, `ranking`, `rows` (= the rows read), `parts` (every partition once).
    """
    score, weight = column_names("informed.dask.summarise", scores, weights, aliases)
    if predicted is None and score is None:
        msg = "name a `predicted` column, a `scores` column, or both."
        raise InputError(msg)
    if score is not None and positive is None:
        msg = "a `scores` column needs `positive`: which class do high scores point to?"
        raise InputError(msg)
    options = {
        "actual": actual,
        "predicted": predicted,
        "scores": score,
        "weights": weight,
        "positive": positive,
    }
    columns = list(dict.fromkeys(c for c in (actual, predicted, score, weight) if c))
    found = _run(data, "summaries", options, columns, split_every, name, scheduler)
    if not partial:
        check_positive(found, positive, f"`positive` {positive!r} is not a label of the data")
    return found


def table(
    data: Any,
    *,
    actual: str,
    predicted: str,
    weights: str | None = None,
    split_every: int = SPLIT_EVERY,
    name: str | None = None,
    scheduler: Any = None,
    **aliases: Any,
) -> Table:
    """The Table of predicted against actual labels of every row of `data`: equal to
    `Table.from_frame` on all the rows at once (see `summarise` for the parameters)."""
    _, weight = column_names("informed.dask.table", None, weights, aliases)
    found = summarise(
        data,
        actual=actual,
        predicted=predicted,
        weights=weight,
        split_every=split_every,
        name=name,
        scheduler=scheduler,
    )
    return cast("Table", found.table)  # `predicted` was named


def evaluate(
    data: Any,
    *,
    actual: str,
    predicted: str,
    weights: str | None = None,
    positive: Any = None,
    alpha: float = 0.5,
    split_every: int = SPLIT_EVERY,
    name: str | None = None,
    scheduler: Any = None,
    **aliases: Any,
) -> Evaluation:
    """Every measure of the Table of `data` (`informed.evaluate` of `table(data, ...)`)."""
    from informed.table import evaluate as evaluate_table

    _, weight = column_names("informed.dask.evaluate", None, weights, aliases)
    counted = table(
        data,
        actual=actual,
        predicted=predicted,
        weights=weight,
        split_every=split_every,
        name=name,
        scheduler=scheduler,
    )
    return evaluate_table(counted, positive=positive, alpha=alpha)


def rank(
    data: Any,
    *,
    actual: str,
    scores: str | None = None,
    positive: Any = None,
    weights: str | None = None,
    split_every: int = SPLIT_EVERY,
    name: str | None = None,
    scheduler: Any = None,
    **aliases: Any,
) -> Ranking:
    """The Ranking of the `positive` class against all others by the `scores` column,
    over every row of `data`: `Ranking.from_scores` on all the rows at once, its counts
    and its classes (`negative` the other class of the rows; None, all the others, when
    they hold several, which `Ranking.from_scores` refuses)."""
    score, weight = column_names("informed.dask.rank", scores, weights, aliases)
    if score is None:
        msg = "informed.dask.rank() needs the `scores` column: rank(data, actual=..., scores=...)."
        raise InputError(msg)
    found = summarise(
        data,
        actual=actual,
        scores=score,
        positive=positive,
        weights=weight,
        split_every=split_every,
        name=name,
        scheduler=scheduler,
    )
    return cast("Ranking", found.ranking)  # `score` was named


def _check_documents_column(data: Any, column: str) -> None:
    """A column of documents' categories must hold lists: dask turns an object column of
    Python lists into the lists' text ("['x', 'y']") unless told not to, and a text would
    then be read as one category name."""
    if column not in list(data.columns):
        msg = f"the DataFrame has no column {column!r}; its columns are {list(data.columns)}."
        raise InputError(msg)
    dtype = data.dtypes[column]
    if str(dtype) in {"str", "string"} or str(dtype).startswith(("string[", "large_string[")):
        msg = (
            f"the column {column!r} holds text (dtype {dtype}), not lists of categories: "
            "dask turns an object column of lists into their text unless "
            'dask.config.set({"dataframe.convert-string": False}) is set before the '
            "DataFrame is made; or store the lists as an Arrow list column "
            "(pd.ArrowDtype(pa.list_(pa.string())))."
        )
        raise InputTypeError(msg)


def summarise_tally(
    data: Any,
    *,
    categories: Any = None,
    assigned: str = "assigned",
    correct: str = "correct",
    unknown: str | None = None,
    conventions: str = "default",
    split_every: int = SPLIT_EVERY,
    name: str | None = None,
    scheduler: Any = None,
) -> Summaries:
    """The Tally of every document of `data`, with the partitions it covers.

    A DataFrame holds one document per row, its `assigned` and `correct` columns holding
    lists of categories (an Arrow list column, or an object column made with dask's
    ``dataframe.convert-string`` off, as dask otherwise turns lists into text: refused);
    `categories` is then required.
    Files are JSON lines as `informed tally` reads them (`informed.io.read_jsonl`).
    """
    if _is_dask_frame(data):
        if categories is None:
            msg = "a DataFrame of documents needs `categories=`: the categories to tally."
            raise InputError(msg)
        options: dict[str, Any] = {"assigned": assigned, "correct": correct}
        columns = list(dict.fromkeys((assigned, correct)))
        for column in columns:
            _check_documents_column(data, column)
    else:
        options, columns = {}, []
    options |= {"categories": categories, "unknown": unknown, "conventions": conventions}
    return _run(data, "tally", options, columns, split_every, name, scheduler)


def tally(
    data: Any,
    *,
    categories: Any = None,
    assigned: str = "assigned",
    correct: str = "correct",
    unknown: str | None = None,
    conventions: str = "default",
    split_every: int = SPLIT_EVERY,
    name: str | None = None,
    scheduler: Any = None,
) -> Tally:
    """The Tally of every document of `data` (see `summarise_tally`): equal to one Tally
    given every document."""
    found = summarise_tally(
        data,
        categories=categories,
        assigned=assigned,
        correct=correct,
        unknown=unknown,
        conventions=conventions,
        split_every=split_every,
        name=name,
        scheduler=scheduler,
    )
    return cast("Tally", found.tally)  # every partition holds a Tally
