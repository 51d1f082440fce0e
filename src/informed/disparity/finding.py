"""`find_slices`: where is the model least informed? Every input `Slices` takes.

Arrays (the columns as a mapping of names to arrays), a frame in memory (pandas, polars,
pyarrow, a mapping), files (CSV, Parquet, Arrow IPC: the named columns read in batches,
then searched in memory) and an engine's lazy frame (polars, DuckDB, Spark, ibis, Dask:
each combination of columns counted there as one grouped count by
`Slices.from_frame`, only the cells fetched). The search itself is
`informed.disparity.search`.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> group = rng.choice(["a", "b", "c", "d"], 4000)
>>> actual = rng.integers(0, 2, 4000)
>>> right = rng.random(4000) < np.where(group == "d", 0.6, 0.9)  # "d": more mistakes
>>> predicted = np.where(right, actual, 1 - actual)
>>> found = find_slices(columns={"group": group}, actual=actual, predicted=predicted)
>>> [f.name for f in found.found], found.tested, found.method
(['group=d'], 4, 'bonferroni-price-bonett')
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.columns import arrow, engine_of, frame_column
from informed.coding.labels import Label, as_label, keyed, sort_labels
from informed.coding.labels import code_column as code_labels
from informed.disparity.columns import BINS, SearchColumn, check_bins, code_column
from informed.disparity.counting import (
    Counted,
    Cube,
    Scored,
    compress,
    count_level,
    full_cube,
    key_codes,
    rows_of,
)
from informed.disparity.result import SliceSearch
from informed.disparity.search import Searched, run_search
from informed.errors import InputError
from informed.inference.checks import check_level
from informed.slices.counting import rank_sliced
from informed.slices.keys import keyed_key
from informed.slices.slices import Slices
from informed.table.counting import check_same_kind

__all__ = ["MEASURES_SEARCHED", "find_slices"]

MEASURES_SEARCHED = ("informedness", "markedness")
"""What a search of predicted labels ranks by (with scores: the AUC)."""

MAX_DEPTH = 6

MIN_SIZE = 10
"""The fewest cases in each margin the measure divides by (real positives and
negatives for informedness) a slice can be tested with: in simulated
searches of no slice that differs (10,000 rows, three columns of 450 values, depth 2)
none reported a slice at 10 a class; at 8, 2 of 40; at 5 (five columns of 1,000 values,
SliceLine's benchmark), 9 of 40 (`benchmarks/bench_slice_search.py`)."""


def _check(
    columns: Any, depth: Any, min_size: Any, measure: str, predicted: Any, scores: Any
) -> None:
    if predicted is None and scores is None:
        msg = "pass `predicted` (informedness of the labels) or `scores` (their AUC)."
        raise InputError(msg)
    if predicted is not None and scores is not None:
        msg = "pass `predicted` or `scores`, not both: the search ranks by one measure."
        raise InputError(msg)
    if isinstance(depth, bool) or not isinstance(depth, int | np.integer):
        msg = f"`depth` must be a whole number from 1 to {MAX_DEPTH}; got {depth!r}."
        raise InputError(msg)
    if not 1 <= depth <= MAX_DEPTH:
        msg = f"`depth` must be from 1 to {MAX_DEPTH}; got {depth}."
        raise InputError(msg)
    if isinstance(min_size, bool) or not isinstance(min_size, int | np.integer):
        msg = f"`min_size` must be a whole number of cases >= {MIN_SIZE}; got {min_size!r}."
        raise InputError(msg)
    if min_size < MIN_SIZE:
        msg = (
            f"`min_size` must be a whole number of cases >= {MIN_SIZE}; got {min_size}: below "
            "it the normal interval of a gap does not hold at a simultaneous level (with 5 "
            "real positives and negatives a slice, 9 in 40 simulated searches of no slice "
            "reported one)."
        )
        raise InputError(msg)
    if measure not in MEASURES_SEARCHED:
        msg = f"`measure` must be one of {list(MEASURES_SEARCHED)}; got {measure!r}."
        raise InputError(msg)
    if not columns:
        msg = "`columns` names no column: pass the columns to search, e.g. ['region', 'device']."
        raise InputError(msg)


def find_slices(
    data: Any = None,
    *,
    actual: Any,
    predicted: Any = None,
    scores: Any = None,
    columns: Any,
    positive: Any = None,
    depth: int = 3,
    min_size: int = 30,
    bins: int = BINS,
    level: float = 0.95,
    measure: str = "informedness",
    encoding: str = "utf-8",
    progress: Callable[[int, int, int], None] | None = None,
) -> SliceSearch:
    """The slices (conjunctions of `column = value`, up to `depth` of them) where the
    model is significantly less informed than on the rest of the rows.

    Parameters
    ----------
    data : frame, lazy frame, path(s), or None
        A DataFrame (pandas, polars, pyarrow, a mapping), an engine's lazy frame, a file,
        a glob pattern or a list of files; None when the columns are arrays.
    actual, predicted, scores : column name, or array when `data` is None
        The actual classes and either the predicted labels (ranked by informedness,
        Powers' multiclass informedness for more than two classes) or scores pointing to
        `positive` (ranked by AUC).
    columns : list of column names, or a mapping of names to arrays when `data` is None
        The columns whose values define slices; numbers with more than `bins` values are
        cut into `bins` quantile ranges (`informed.disparity.columns`).
    positive : label, optional
        The positive class: its one-vs-rest view; needed with scores.
    depth : int
        The most conditions in one slice (1 to 6; default 3).
    min_size : int
        A slice with fewer cases than this in a margin its measure divides by is not
        tested, and its children are not counted: for informedness (and AUC) its real
        positives and real negatives (with more classes: the cases of each class), for
        markedness its predicted positives and predicted negatives (with more classes:
        the predictions of each label) (Powers 2011). Default 30, at least 10: below,
        the intervals' normal approximation fails at the simultaneous level.
    level : float
        The simultaneous level of the intervals (default 0.95).
    measure : {"informedness", "markedness"}
        What predicted labels are ranked by.
    progress : callable, optional
        Called as progress(depth, combinations done, combinations at that depth).

    Returns
    -------
    SliceSearch
    """
    _check(columns, depth, min_size, measure, predicted, scores)
    bins = check_bins(bins)
    level = check_level(level)
    if scores is not None and positive is None:
        msg = "`scores` need `positive`: which class do high scores point to?"
        raise InputError(msg)
    options = {"depth": int(depth), "min_size": int(min_size), "level": level, "bins": bins}
    wanted = "auc" if scores is not None else measure
    if data is not None and engine_of(data) is not None:
        return _on_engine(data, _names(columns), actual, predicted, scores, positive, wanted,
                          options, progress)  # fmt: skip
    if data is None:
        if not isinstance(columns, Mapping):
            msg = "without `data`, `columns` must map names to arrays: {'region': [...], ...}."
            raise InputError(msg)
        names = [str(k) for k in columns]
        raw = list(columns.values())
        text = False
    elif isinstance(data, str | os.PathLike) or (
        isinstance(data, list | tuple) and data and isinstance(data[0], str | os.PathLike)
    ):
        names = _names(columns)
        raw, actual, predicted, scores = _read_files(
            data, names, actual, predicted, scores, encoding
        )
        text = True
    else:
        names = _names(columns)
        raw = [frame_column(data, name, "columns") for name in names]
        actual = frame_column(data, actual, "actual")
        predicted = None if predicted is None else frame_column(data, predicted, "predicted")
        scores = None if scores is None else frame_column(data, scores, "scores")
        text = False
    search_columns = [
        code_column(values, name, bins=bins, text_numbers=text)
        for values, name in zip(raw, names, strict=True)
    ]
    return _in_memory(search_columns, actual, predicted, scores, positive, wanted, options,
                      progress)  # fmt: skip


def _names(columns: Any) -> list[str]:
    names = [columns] if isinstance(columns, str) else list(columns)
    if not all(isinstance(n, str) for n in names):
        msg = f"`columns` must name columns (str); got {columns!r}."
        raise InputError(msg)
    if len(set(names)) != len(names):
        msg = f"`columns` names a column twice: {names}."
        raise InputError(msg)
    return names


def _read_files(
    data: Any, names: list[str], actual: str, predicted: str | None, scores: str | None,
    encoding: str,
) -> tuple[list[Any], Any, Any, Any]:  # fmt: skip
    """The named columns of the files, every batch concatenated (labels as read)."""
    from informed.io.batches import iter_raw
    from informed.io.paths import expand_paths

    labels = list(dict.fromkeys([actual, *([predicted] if predicted else []), *names]))
    parts: dict[str, list[Any]] = {c: [] for c in [*labels, *([scores] if scores else [])]}
    source = data if isinstance(data, str | os.PathLike) else list(data)
    for file in expand_paths(source):
        for batch in iter_raw(
            file, labels=labels, numbers=[scores] if scores else [], encoding=encoding,
            blanks=names, stored=[n for n in names if n not in (actual, predicted)],
        ):  # fmt: skip
            for c in labels:
                parts[c].append(batch.labels[c])
            if scores:
                parts[scores].append(batch.numbers[scores])
    if not parts[actual]:
        msg = f"{source}: no data rows: nothing to search."
        raise InputError(msg)
    joined = {c: _concat(v) for c, v in parts.items()}
    return (
        [joined[n] for n in names],
        joined[actual],
        None if predicted is None else joined[predicted],
        None if scores is None else joined[scores],
    )


def _concat(parts: list[Any]) -> Any:
    if all(isinstance(p, np.ndarray) for p in parts):
        return np.concatenate(parts)
    pa = arrow()
    arrays = []
    for p in parts:  # a ChunkedArray given whole to `chunked_array` is read value by value
        if isinstance(p, pa.ChunkedArray):
            arrays.extend(p.chunks)
        else:
            arrays.append(p if not isinstance(p, np.ndarray) else pa.array(p.tolist()))
    try:
        return pa.chunked_array(arrays)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # batches read as different types
        return pa.chunked_array([a.cast(pa.large_string()) for a in arrays])


def _labels_of(
    actual: Any, predicted: Any
) -> tuple[tuple[Label, ...], NDArray[np.integer[Any]], int]:
    """The labels used (canonical order), each row's cell (predicted x actual, of the
    smallest unsigned type that holds it), rows."""
    a = code_labels(actual, "actual")
    p = code_labels(predicted, "predicted")
    if a.codes.shape[0] != p.codes.shape[0]:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {a.codes.shape[0]}, predicted {p.codes.shape[0]}."
        )
        raise InputError(msg)
    used_a = [a.labels[i] for i in np.flatnonzero(np.bincount(a.codes, minlength=len(a.labels)))]
    used_p = [p.labels[i] for i in np.flatnonzero(np.bincount(p.codes, minlength=len(p.labels)))]
    check_same_kind(used_a, used_p, "")
    labels = sort_labels((*used_a, *used_p))
    where = {keyed(x): i for i, x in enumerate(labels)}
    M = len(labels)
    small = np.min_scalar_type(max(M * M - 1, 0))  # a byte a row for up to 16 labels
    map_a = np.array([where.get(keyed(x), 0) for x in a.labels], dtype=small)
    map_p = np.array([where.get(keyed(x), 0) * M for x in p.labels], dtype=small)
    cells = map_p[p.codes]
    cells += map_a[a.codes]
    return labels, cells, int(a.codes.shape[0])


def _index(labels: Sequence[Label], positive: Any) -> int | None:
    """The positive label's position; None for Powers' multiclass measure."""
    if positive is not None:
        wanted = keyed(as_label(positive))
        found = [i for i, x in enumerate(labels) if keyed(x) == wanted]
        if not found:
            msg = f"positive={positive!r} is not a label; the labels are {list(labels)[:10]}."
            raise InputError(msg)
        return found[0]
    return 1 if len(labels) == 2 else None


def _in_memory(
    columns: list[SearchColumn], actual: Any, predicted: Any, scores: Any, positive: Any,
    measure: str, options: dict[str, Any], progress: Any,
) -> SliceSearch:  # fmt: skip
    n_rows = {c.codes.shape[0] for c in columns}
    if n_rows == {0} and len(actual) == 0:
        raise InputError("no rows to search: `actual` and the columns are empty.")
    if predicted is not None:
        labels, cells, n = _labels_of(actual, predicted)
        _same_length(n_rows, n)
        M = len(labels)
        overall = np.bincount(cells, minlength=M * M).reshape(M, M).astype(np.int64)
        index = _index(labels, positive)
        searched = Searched(columns, overall, index, None,
                            None if index is None else labels[index], measure, labels)  # fmt: skip
        full = full_cube(columns, cells, M)
        cube = None if full is None else Cube(full, columns)
        units = None if cube is not None else compress(columns, cells, M)
        weights = None
        if units is not None:  # each distinct (values, cell) once, with its count
            columns, cells, weights = units
        size = cells.shape[0]

        def count(combination: tuple[int, ...], parents: dict[Any, Any]) -> Counted:
            if cube is not None:  # every combination a marginal of the one count
                found = cube.marginal(combination, M)
                keep = _kept(columns, combination, found.keys, parents)
                assert found.counts is not None
                return Counted(combination, found.keys[keep], found.counts[keep])
            rows = rows_of(columns, combination, parents, size)
            return count_level(columns, combination, cells, M, None, rows, weights)

    else:
        a = code_labels(actual, "actual")
        n = int(a.codes.shape[0])
        _same_length(n_rows, n)
        index = _index(a.labels, positive)
        assert index is not None
        values = np.asarray(scores)
        if values.shape[0] != n:
            msg = f"Found input variables with inconsistent numbers of samples: actual {n}, "
            msg += f"scores {values.shape[0]}."
            raise InputError(msg)
        is_positive = np.asarray(a.codes == index)
        _, ranking = rank_sliced(np.zeros(n, dtype=np.intp), 1, is_positive, values, None)
        scored = Scored(is_positive, np.asarray(values, dtype=np.float64))
        searched = Searched(columns, None, None, ranking, a.labels[index], measure, ())

        def count(combination: tuple[int, ...], parents: dict[Any, Any]) -> Counted:
            rows = rows_of(columns, combination, parents, n)
            return count_level(columns, combination, None, 0, scored, rows)

    return run_search(searched, count, rows=n, progress=progress, **options)


def _same_length(lengths: set[int], n: int) -> None:
    if lengths != {n}:
        msg = (
            "Found input variables with inconsistent numbers of samples: "
            f"actual {n}, columns {sorted(lengths)}."
        )
        raise InputError(msg)


# ---------------------------------------------------------------------- engines
def _on_engine(
    frame: Any, names: list[str], actual: str, predicted: str | None, scores: str | None,
    positive: Any, measure: str, options: dict[str, Any], progress: Any,
) -> SliceSearch:  # fmt: skip
    """Each level's combinations counted on the engine: one `GROUP BY GROUPING SETS`
    query and one count of the rows where the engine has grouping sets (DuckDB, Spark),
    else one `GROUP BY columns..., predicted, actual` (or `..., score, actual`) per
    combination; children of slices too small to test dropped from the fetched cells, as
    in memory they are never counted."""
    from informed._routes import engine_route

    cell = {"actual": actual, "predicted": predicted, "scores": scores, "positive": positive}
    counted: dict[tuple[str, ...], Slices] = {}

    def level(sets: list[tuple[str, ...]]) -> None:
        wanted = [s for s in sets if s not in counted]
        found = engine_route().slices_by_sets(frame, wanted, **cell) if wanted else None
        if found is not None:
            counted.update(zip(wanted, found, strict=True))

    def sliced(by: tuple[str, ...]) -> Slices:
        if by not in counted:  # no grouping sets on this engine: one query per set
            counted[by] = Slices.from_frame(frame, by=list(by), **cell)
        return counted[by]

    level([(name,) for name in names])
    first = {name: sliced((name,)) for name in names}
    columns = []
    for name in names:
        values = tuple(k[0] for k in first[name].keys)
        present = [v for v in values if v is not None]
        numeric = present and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in present
        )
        if numeric and len(present) > options["bins"]:
            msg = (
                f"column {name!r} holds {len(present):,} numbers, which a search in memory "
                f"cuts into {options['bins']} quantile ranges; on an engine, cut it in the "
                "query (CASE WHEN ... END) or search it in memory."
            )
            raise InputError(msg)
        columns.append(SearchColumn(name, values, np.zeros(0, dtype=np.intp)))
    some = first[names[0]]
    where = [{keyed_key((v,)): i for i, v in enumerate(c.values)} for c in columns]
    if predicted is not None:
        assert some.overall is not None
        assert some.cells is not None
        labels = sort_labels((*some.cells.predicted, *some.cells.actual))
        overall = _dense(some, labels).sum(axis=0)  # every row is in one slice of a column
        index = _index(labels, positive)
        searched = Searched(columns, overall, index, None,
                            None if index is None else labels[index], measure, labels)  # fmt: skip
    else:
        assert some.overall_ranking is not None
        searched = Searched(columns, None, None, some.overall_ranking, some.positive, measure)
        labels = ()

    def prepare(combinations: list[tuple[int, ...]]) -> None:
        level([tuple(names[j] for j in c) for c in combinations])

    def count(combination: tuple[int, ...], parents: dict[Any, Any]) -> Counted:
        found = sliced(tuple(names[j] for j in combination))
        counted.pop(tuple(names[j] for j in combination), None)  # counted once: let it go
        keys = np.array(
            [[where[j][keyed_key((v,))] for j, v in zip(combination, key, strict=True)]
             for key in found.keys],
            dtype=np.intp,
        ).reshape(-1, len(combination))  # fmt: skip
        keep = _kept(columns, combination, keys, parents)
        order = np.lexsort(keys[keep].T[::-1]) if keep.size else keep
        chosen = keep[order]
        counts = None if predicted is None else _dense(found, labels)[chosen]
        rankings = None
        if found.rankings is not None:
            rankings = tuple(found.rankings[i] for i in chosen.tolist())
        return Counted(combination, keys[chosen], counts, rankings)

    rows = int(some.rows.sum())
    return run_search(searched, count, rows=rows, progress=progress, prepare=prepare,
                      **options)  # fmt: skip


def _kept(
    columns: list[SearchColumn],
    combination: tuple[int, ...],
    keys: NDArray[np.intp],
    parents: dict[tuple[int, ...], NDArray[np.int64]],
) -> NDArray[np.intp]:
    """The slices whose every parent is adequate (all of them at the first level)."""
    keep = np.ones(keys.shape[0], dtype=bool)
    if len(combination) > 1:
        for drop in range(len(combination)):
            parent = combination[:drop] + combination[drop + 1 :]
            adequate = parents.get(parent, np.zeros(0, np.int64))
            if not adequate.size:
                return np.zeros(0, dtype=np.intp)
            kept = [i for i in range(len(combination)) if i != drop]
            codes = key_codes(columns, parent, keys[:, kept])
            at = np.minimum(np.searchsorted(adequate, codes), adequate.size - 1)
            keep &= adequate[at] == codes
    return np.flatnonzero(keep).astype(np.intp)


def _dense(found: Slices, labels: tuple[Label, ...]) -> NDArray[np.int64]:
    """counts[S, M, M] of Slices over `labels` (rows predicted, columns actual)."""
    assert found.cells is not None
    c = found.cells
    where = {keyed(x): i for i, x in enumerate(labels)}
    rows = np.array([where[keyed(x)] for x in c.predicted], dtype=np.intp)
    cols = np.array([where[keyed(x)] for x in c.actual], dtype=np.intp)
    M = len(labels)
    out = np.zeros((len(found.keys), M, M), dtype=np.int64)
    if c.values.size:
        np.add.at(out, (c.slice, rows[c.row], cols[c.col]), c.values.astype(np.int64))
    return out
