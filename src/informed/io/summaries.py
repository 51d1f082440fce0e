"""From a file to its summaries: the Table and the Ranking of a CSV, Parquet or Arrow file.

The file is read in batches; each batch becomes a Table and a Ranking that are merged
into the running ones, so memory holds one batch and the summaries, never every row: a
Table is a few counts whatever the rows, and a Ranking holds one entry per distinct score
(flat for rounded or otherwise repeated scores, growing with the distinct scores
otherwise). Rankings are merged like a binary counter (a batch's Ranking merges with the
last one when that is no more than twice its size), so the merges cost O(n log n) in all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from informed.errors import InputError
from informed.io.batches import BATCH_ROWS, iter_raw
from informed.labels import Label, code_column, keyed, sort_labels
from informed.ranking import Ranking
from informed.table import Table
from informed.table.counting import check_weights, count_coded

__all__ = ["Summaries", "read_summaries"]


@dataclass(frozen=True)
class Summaries:
    """What `read_summaries` found in a file.

    Attributes
    ----------
    path : str
    rows : int
        Data rows read (every one counted: a bad row is an error, never skipped).
    table : Table or None
        Predicted against actual labels, when `predicted` was named.
    ranking : Ranking or None
        Scores of the `positive` class against all the others, when `score` was named.
    labels : tuple
        Every label of the actual column (and of the predicted one), in canonical order.
    weighted_rows : int
        Rows with a positive weight (all rows without `weight`): the sample size when
        weights are normalised rather than frequencies.
    """

    path: str
    rows: int
    table: Table | None
    ranking: Ranking | None
    labels: tuple[Label, ...]
    weighted_rows: int


def read_summaries(
    path: str | Path,
    *,
    actual: str,
    predicted: str | None = None,
    score: str | None = None,
    weight: str | None = None,
    positive: Any = None,
    encoding: str = "utf-8",
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int, int], None] | None = None,
    positive_option: str = "positive",
) -> Summaries:
    """Read a file's columns into a Table and/or a Ranking, batch by batch.

    Parameters
    ----------
    path : str or Path
        A CSV (with a header line), Parquet or Arrow IPC file; the extension says which.
    actual : str
        Column of actual classes.
    predicted : str, optional
        Column of predicted labels: gives the Table.
    score : str, optional
        Column of scores, higher meaning more likely `positive`: gives the Ranking of the
        positive class against all the others (needs `positive`).
    weight : str, optional
        Column of non-negative case weights, applied to both summaries.
    positive : str, optional
        The positive class, as written in the file; it must be one of its labels.
    encoding : str
        Text encoding of a CSV file.
    batch_rows : int
        Rows per batch where the reader counts rows (Parquet, Arrow).
    progress : callable, optional
        Called after each batch with (bytes read so far, rows read so far).
    positive_option : str
        How the message names `positive` when it is not a label of the file (the command
        line says ``--positive``).

    Raises
    ------
    InputError
        A missing column, a bad value (named by line or data row, column and value), no
        data rows, or a `positive` that is not a label of the file.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "p.csv").write_text("y,p,s\\na,a,0.9\\nb,a,0.8\\nb,b,0.1\\n")
    >>> found = read_summaries(folder / "p.csv", actual="y", predicted="p", score="s",
    ...                        positive="a")
    >>> found.rows, found.table.count("a", "b"), found.ranking.n_positive
    (3, 1, 1)
    """
    if predicted is None and score is None:
        msg = "name a `predicted` column, a `score` column, or both."
        raise InputError(msg)
    if score is not None and positive is None:
        msg = "a `score` column needs `positive`: which class do high scores point to?"
        raise InputError(msg)
    label_columns = [actual] + ([predicted] if predicted and predicted != actual else [])
    numbers = [c for c in (score, weight) if c]
    table: Table | None = None
    stack: list[Ranking] = []
    seen: dict[tuple[str, Label], Label] = {}
    rows = weighted_rows = 0
    for batch in iter_raw(
        path,
        labels=label_columns,
        numbers=numbers,
        nonnegative=[weight] if weight else [],
        encoding=encoding,
        batch_rows=batch_rows,
    ):
        rows += batch.rows
        weights = check_weights(batch.numbers[weight], batch.rows) if weight else None
        weighted_rows += batch.rows if weights is None else int(np.count_nonzero(weights))
        coded = code_column(batch.labels[actual], actual)
        for label in coded.labels:
            seen.setdefault(keyed(label), label)
        if predicted is not None:
            other = (
                coded if predicted == actual else code_column(batch.labels[predicted], predicted)
            )
            counted = count_coded(coded, other, weights)
            part = Table(counts=counted.counts, predicted=counted.predicted, actual=counted.actual)
            table = part if table is None else table + part
        if score is not None:
            index = next((i for i, x in enumerate(coded.labels) if keyed(x) == keyed(positive)), -1)
            stack.append(
                Ranking.from_scores(
                    actual=coded.codes == index,
                    scores=batch.numbers[score],
                    positive=True,
                    negative=False,
                    weights=weights,
                )
            )
            while len(stack) > 1 and stack[-2].n_groups <= 2 * stack[-1].n_groups:
                last = stack.pop()
                stack[-1] = stack[-1] + last
        if progress is not None:
            progress(batch.bytes_read, rows)
    if rows == 0:
        msg = f"{path} has a header but no data rows: nothing to evaluate."
        raise InputError(msg)
    labels = sort_labels([*seen.values(), *(table.labels if table is not None else ())])
    if positive is not None and keyed(positive) not in {keyed(x) for x in labels}:
        msg = (
            f"{positive_option} {positive!r} is not a label in {path}; "
            f"labels are {list(labels[:20])}."
        )
        raise InputError(msg)
    ranking = None
    if score is not None:
        ranking = stack.pop() if stack else Ranking.empty(weighted=weight is not None)
        while stack:
            ranking = stack.pop() + ranking
    return Summaries(str(path), rows, table, ranking, labels, weighted_rows)
