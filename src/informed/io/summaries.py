"""From files or frames to their summaries: the Table and the Ranking, with what they cover.

A file is read in batches; each batch's cells are added to a running Table
(`informed.io.running_table`: labels sorted once, at the end) and its Ranking merged
into the running one, so memory holds one batch and the summaries, never every row: a
Table is its non-zero cells whatever the rows, and a Ranking holds one entry per distinct score
(flat for rounded or otherwise repeated scores, growing with the distinct scores
otherwise). Rankings are merged like a binary counter (a batch's Ranking merges with the
last one when that is no more than twice its size), so the merges cost O(n log n) in all.
Several files (a glob pattern or a list) are read one after the other, each into its own
`Summaries`, merged the same way.

Each result is a `Summaries` (`informed.io.coverage`), which records the partitions it
covers (a file's absolute path, or the id a caller gives a partition of a frame) and the
rows read from them; `+` merges two and refuses two that cover one partition, and two
whose Rankings rank different positive classes.

The columns are named as on every call of informed: `actual`, `predicted`, `scores`,
`weights` (``score=`` and ``weight=``, the spellings of earlier releases, are accepted).
"""

from __future__ import annotations

import dataclasses
import os
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from informed._routes import engine_route
from informed.coding.arguments import canonical_arguments
from informed.coding.columns import collected, engine_of, frame_column
from informed.coding.labels import (
    Coded,
    Label,
    as_label,
    code_column,
    keyed,
    refuse_scores,
    sort_labels,
)
from informed.errors import InputError
from informed.io.batches import BATCH_ROWS, iter_raw
from informed.io.coverage import Merger, Summaries, check_complete, check_positive
from informed.io.files import file_format
from informed.io.paths import expand_paths, part_id
from informed.io.running_table import RunningTable, key_of
from informed.ranking import Ranking
from informed.table import Table
from informed.table.counting import check_weights
from informed.table.storage import choose

if TYPE_CHECKING:  # slices load when read by slice (`by=`) only
    from informed.slices import Slices

__all__ = ["Summaries", "column_names", "read_summaries", "summarise_file", "summarise_frame"]


def column_names(
    call: str, scores: str | None, weights: str | None, aliases: dict[str, Any]
) -> tuple[str | None, str | None]:
    """The `scores` and `weights` columns of a call, the old spellings (``score=``,
    ``weight=``) renamed; an unknown argument or a column named twice is an error.

    >>> column_names("read_summaries", None, None, {"score": "s", "weight": "w"})
    ('s', 'w')
    """
    given = {k: v for k, v in (("scores", scores), ("weights", weights)) if v is not None}
    found = canonical_arguments(call, {**given, **aliases}, ("scores", "weights"))
    return found.get("scores"), found.get("weights")


class _Builder:
    """Batches of coded columns in, a Table and a Ranking out (the Rankings by the
    binary-counter merge).

    A batch's Ranking (a sort of its scores, then the merges) is built in a thread, the
    batches one after the other in the order they came, while the caller reads and counts
    the next batch: numpy's sort leaves the other core free, as pyarrow's grouped count
    does not. At most two batches wait for it, so memory stays flat.
    """

    def __init__(
        self, predicted: bool, score: bool, weighted: bool, positive: Any, storage: str = "auto"
    ) -> None:
        self.predicted, self.score, self.weighted = predicted, score, weighted
        self.storage = storage
        self.positive = None if positive is None else as_label(positive)
        self.table = RunningTable(weighted) if predicted else None
        self.stack: list[Ranking] = []  # the Rankings merged so far (the thread's alone)
        self.pending: deque[Future[None]] = deque()
        self.pool: ThreadPoolExecutor | None = None
        self.seen: dict[Any, Label] = {}
        self.rows = self.weighted_rows = 0

    def add(self, actual: Coded, predicted: Coded | None, scores: Any, weights: Any) -> None:
        rows = len(actual.codes)
        self.rows += rows
        checked = check_weights(weights, rows) if self.weighted else None
        self.weighted_rows += rows if checked is None else int(np.count_nonzero(checked))
        if self.table is not None:
            other = predicted if predicted is not None else actual
            occurs = self.table.add(actual, other, checked)
        else:
            occurs = np.flatnonzero(np.bincount(actual.codes, minlength=len(actual.labels)))
        seen = self.seen
        for index in occurs.tolist():
            label = actual.labels[index]
            seen.setdefault(key_of(label), label)
        if self.score and self.positive is not None:
            wanted = keyed(self.positive)
            index = next((i for i, x in enumerate(actual.labels) if keyed(x) == wanted), -1)
            if self.pool is None:
                self.pool = ThreadPoolExecutor(1, thread_name_prefix="informed-ranking")
            while len(self.pending) > 1:
                self.pending.popleft().result()
            is_positive = actual.codes == index
            self.pending.append(self.pool.submit(self._rank, is_positive, scores, checked))

    def _rank(self, is_positive: Any, scores: Any, weights: Any) -> None:
        """One batch's Ranking, merged into those before it (in the thread)."""
        coded = Ranking.from_scores(
            is_positive, scores, positive=True, negative=False, weights=weights
        )
        # the positive class against all the others: the negative is not one class
        self.stack.append(coded.with_classes(self.positive))
        while len(self.stack) > 1 and self.stack[-2].n_groups <= 2 * self.stack[-1].n_groups:
            last = self.stack.pop()
            self.stack[-1] = self.stack[-1] + last

    def result(self, part: str) -> Summaries:
        try:
            while self.pending:
                self.pending.popleft().result()  # a batch's error is raised here, in order
        finally:
            if self.pool is not None:
                self.pool.shutdown(cancel_futures=True)
        ranking = None
        if self.score:
            ranking = (
                self.stack.pop()
                if self.stack
                else Ranking.empty(weighted=self.weighted, positive=self.positive)
            )
            while self.stack:
                ranking = self.stack.pop() + ranking
        table = None
        if self.table is not None:
            table = self.table.table(self.storage)
        labels = sort_labels([*self.seen.values(), *(table.labels if table is not None else ())])
        return Summaries(self.rows, table, ranking, labels, self.weighted_rows, frozenset({part}))


class _Progress:
    """A file's progress as the whole input's: bytes of the CSV files before it, rows
    of the files before it."""

    def __init__(
        self, report: Callable[[int, int], None], before: int, text: bool, rows: int
    ) -> None:
        self.report, self.before, self.text, self.rows = report, before, text, rows

    def update(self, done: int, rows: int) -> None:
        self.report(self.before + done if self.text else self.before, self.rows + rows)


def stored_as(table: Table, storage: str) -> Table:
    """`table` (a sum of batches) stored as `storage` says of the whole table."""
    kind = choose(table.shape, len(table.cells.counts), storage)
    if kind == table.storage:
        return table
    return table.to_dense() if kind == "dense" else table.to_sparse()


def _check_spec(predicted: str | None, score: str | None, positive: Any) -> None:
    if predicted is None and score is None:
        msg = "name a `predicted` column, a `scores` column, or both."
        raise InputError(msg)
    if score is not None and positive is None:
        msg = "a `scores` column needs `positive`: which class do high scores point to?"
        raise InputError(msg)


def summarise_file(
    path: str | Path,
    *,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int, int], None] | None = None,
    storage: str = "auto",
    **aliases: Any,
) -> Summaries:
    """One file's summaries, its absolute path as the partition id (no check that it has
    rows or that `positive` occurs in it: a part of a data set may lack either)."""
    score, weight = column_names("summarise_file", scores, weights, aliases)
    _check_spec(predicted, score, positive)
    choose((0, 0), 0, storage)  # a bad `storage` before any work
    builder = _Builder(
        predicted is not None, score is not None, weight is not None, positive, storage
    )
    label_columns = [actual] + ([predicted] if predicted and predicted != actual else [])
    text = file_format(Path(path)) == "csv"
    for batch in iter_raw(
        path,
        labels=label_columns,
        numbers=[c for c in (score, weight) if c],
        nonnegative=[weight] if weight else [],
        encoding=encoding,
        batch_rows=batch_rows,
    ):

        def at(index: int, first: int = batch.first_row) -> str:
            return f"{path} data row {first + index + 1}"

        coded = code_column(batch.labels[actual], actual, at)
        other = None
        if predicted is not None and predicted != actual:
            other = code_column(batch.labels[predicted], predicted, at)
        if predicted is not None:  # a CSV file's labels are text: "0.9" reads as a score
            refuse_scores(coded, actual, at, text=text)
            refuse_scores(other or coded, predicted, at, text=text)
        builder.add(
            coded,
            other,
            batch.numbers[score] if score else None,
            batch.numbers[weight] if weight else None,
        )
        if progress is not None:
            progress(batch.bytes_read, builder.rows)
    return builder.result(part_id(path))


def summarise_frame(
    frame: Any,
    *,
    part: str,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    **aliases: Any,
) -> Summaries:
    """The summaries of a frame's rows (pandas, polars, pyarrow; see `Table.from_frame`),
    recorded as the partition `part`; a lazy frame (polars, DuckDB, Spark, ibis, Dask) is
    counted where it lives (`informed.engines`). A frame with no rows gives empty summaries. The
    Ranking (with `scores`) ranks `positive` against all the other classes (naming the
    other class when there is one only: `Summaries`).

    >>> found = summarise_frame({"y": ["a", "b"], "p": ["a", "a"], "s": [0.9, 0.1]},
    ...                         part="day 1", actual="y", predicted="p", scores="s",
    ...                         positive="a")
    >>> found.rows, found.table.count("a", "b"), found.ranking.n_positive, sorted(found.parts)
    (2, 1, 1, ['day 1'])
    >>> found.ranking.positive, found.ranking.negative  # as Ranking.from_scores names them
    ('a', 'b')
    """
    score, weight = column_names("summarise_frame", scores, weights, aliases)
    _check_spec(predicted, score, positive)
    if not isinstance(part, str):
        msg = f"`part` must be a str naming the partition; got {type(part).__name__}."
        raise InputError(msg)
    if engine_of(frame) is not None:  # counted on its engine (informed.engines)
        found: Summaries = engine_route().summaries(
            frame,
            part=part,
            actual=actual,
            predicted=predicted,
            scores=score,
            weights=weight,
            positive=positive,
        )
        return found
    builder = _Builder(predicted is not None, score is not None, weight is not None, positive)
    frame = collected(frame, actual=actual, predicted=predicted, scores=score, weights=weight)
    coded = code_column(frame_column(frame, actual, "actual"), "actual")
    other = None
    if predicted is not None and predicted != actual:
        other = code_column(frame_column(frame, predicted, "predicted"), "predicted")
        if len(other.codes) != len(coded.codes):  # pragma: no cover - a frame's columns agree
            msg = f"`{predicted}` and `{actual}` differ in length."
            raise InputError(msg)
    if predicted is not None:
        refuse_scores(coded, "actual")
        refuse_scores(other or coded, "predicted")
    builder.add(
        coded,
        other,
        frame_column(frame, score, "scores") if score else None,
        frame_column(frame, weight, "weights") if weight else None,
    )
    return builder.result(part)


@overload
def read_summaries(
    path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    by: None = None,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int, int], None] | None = None,
    positive_option: str = "positive",
    partial: bool = False,
    storage: str = "auto",
    **aliases: Any,
) -> Summaries: ...


@overload
def read_summaries(
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
    partial: bool = False,
    storage: str = "auto",
    **aliases: Any,
) -> Slices: ...


def read_summaries(
    path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    by: str | Sequence[str] | None = None,
    actual: str,
    predicted: str | None = None,
    scores: str | None = None,
    weights: str | None = None,
    positive: Any = None,
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int, int], None] | None = None,
    positive_option: str = "positive",
    partial: bool = False,
    storage: str = "auto",
    **aliases: Any,
) -> Summaries | Slices:
    """Read files' columns into a Table and/or a Ranking, batch by batch, file by file.

    Parameters
    ----------
    path : str, Path, glob pattern, or a list of them
        CSV (with a header line; gzip-compressed as ``x.csv.gz``), Parquet or Arrow IPC
        files; each extension says which.
        A pattern such as ``"data/*.parquet"`` reads every file it matches, in sorted
        order, one batch at a time: memory holds one batch and the summaries.
    actual : str
        Column of actual classes.
    predicted : str, optional
        Column of predicted labels: gives the Table.
    scores : str, optional
        Column of scores, higher meaning more likely `positive`: gives the Ranking of the
        positive class against all the others (needs `positive`; ``score=`` is accepted).
    weights : str, optional
        Column of non-negative case weights, applied to both summaries (``weight=`` is
        accepted).
    positive : str, optional
        The positive class, as written in the files; it must be one of their labels.
    encoding : str
        Text encoding of a CSV file.
    batch_rows : int
        Rows per batch where the reader counts rows (Parquet, Arrow).
    progress : callable, optional
        Called after each batch with (bytes read so far, rows read so far); the bytes of
        all CSV files together.
    positive_option : str
        How the message names `positive` when it is not a label of the files (the
        command line says ``--positive``).
    partial : bool
        The files are a part of a data set, to be merged with the others: they may hold
        no rows and need not hold `positive`.
    storage : {"auto", "dense", "sparse"}
        How the Table holds its counts (`informed.Table.from_labels`): "auto" keeps only
        the non-zero cells of a table of many labels, few of whose cells are filled.

    Raises
    ------
    InputError
        A missing column, a bad value (named by file, line or data row, column and
        value), no data rows in any file, a file named twice, a pattern matching nothing,
        or a `positive` that is not a label of the files.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "p.csv").write_text("y,p,s\\na,a,0.9\\nb,a,0.8\\nb,b,0.1\\n")
    >>> found = read_summaries(folder / "p.csv", actual="y", predicted="p", scores="s",
    ...                        positive="a")
    >>> found.rows, found.table.count("a", "b"), found.ranking.n_positive
    (3, 1, 1)
    """
    score, weight = column_names("read_summaries", scores, weights, aliases)
    if by is not None:
        if partial:
            msg = "`partial` summaries are not written by slice yet: read without `by`."
            raise InputError(msg)
        from informed.io.sliced import read_slices

        return read_slices(
            path,
            by=by,
            actual=actual,
            predicted=predicted,
            scores=score,
            weights=weight,
            positive=positive,
            encoding=encoding,
            batch_rows=batch_rows,
            progress=progress,
            positive_option=positive_option,
        )
    _check_spec(predicted, score, positive)
    files = expand_paths(path)
    where = os.fspath(path) if isinstance(path, str | os.PathLike) else f"{len(files)} files"
    merger = Merger()
    rows_read: dict[str, int] = {}
    done_bytes = 0
    for file in files:
        text = file.suffix.lower() == ".csv" and file.is_file()
        report = None
        if progress is not None:
            report = _Progress(progress, done_bytes, text, merger.rows).update
        found = summarise_file(
            file,
            actual=actual,
            predicted=predicted,
            scores=score,
            weights=weight,
            positive=positive,
            encoding=encoding,
            batch_rows=batch_rows,
            progress=report,
            storage=storage,
        )
        done_bytes += file.stat().st_size if text else 0
        rows_read[part_id(file)] = found.rows
        merger.add(found)
    total = merger.result()
    if total.table is not None and len(files) > 1:
        total = dataclasses.replace(total, table=stored_as(total.table, storage))
    check_complete(total, rows_read)
    if partial:
        return total
    if total.rows == 0:
        files_named = f"{where} has" if len(files) == 1 else f"the {len(files)} files have"
        msg = f"{files_named} a header but no data rows: nothing to evaluate."
        raise InputError(msg)
    check_positive(total, positive, f"{positive_option} {positive!r} is not a label in {where}")
    return total
