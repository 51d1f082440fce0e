"""DVC: a result as the metrics file `dvc metrics diff` compares and the plot files DVC's
built-in templates draw.

Written into one folder (``informed evaluate ... --dvc DIR``, or `write`):

- ``metrics.json``: every value nested as ``{measure: {"value", "ci_low", "ci_high",
  "level", "method", "replicates", "n"}}`` (the interval's keys only where an interval
  was made), per label under ``per_label.<label>``; DVC flattens nested keys with ``.``
  (``informedness.value``, ``informedness.ci_low``). JSON has no NaN: an undefined value
  is ``null`` with its reason under ``"undefined"``; nor infinity: an infinite value or
  interval end is the string ``"Infinity"`` (``"-Infinity"``). Keys are registry names, but for
  ``error``, which DVC reads as a failed load: ``error_rate`` (`RENAMED`).
- ``confusion.json``: one ``{"actual", "predicted"}`` row per case, for the ``confusion``
  and ``confusion_normalized`` templates. Those templates count rows (a Vega-Lite
  ``count`` aggregate): they cannot read a count column, so a cell of 40 cases must be
  40 rows. The file is written only for whole counts of at most `MAX_CASES` cases (a
  weighted table's fractional weights have no rows, and millions of rows make a file no
  browser draws); otherwise it is left out, and `DvcFiles.left_out` says why.
- ``confusion_counts.json``: every non-zero cell once, ``{"actual", "predicted",
  "count"}``: the exact counts of any table, for reading or a custom template.
- ``roc.json``: the ROC curve's points ``{"fpr", "tpr", "threshold"}`` (the ``simple`` or
  ``linear`` template, x ``fpr``, y ``tpr``), one per tie group with the points on a
  straight segment dropped (`informed.ranking.thresholds.roc_curve`): the curve drawn is
  the exact one. Beyond `ROC_POINTS` points (many distinct scores), only the points where
  fpr + tpr crosses a multiple of `ROC_RESOLUTION` are kept (both ends of that step):
  every point written is a point of the curve, and the line through them lies within
  `ROC_RESOLUTION` (in fpr + tpr) of it. The first point's threshold is +inf, written
  ``null``.
- ``decision_curve.json`` when the scores are probabilities: net benefit, treat-all and
  treat-none at threshold probabilities 0, 0.01, ..., 0.99 (Vickers & Elkin 2006), each
  exact at its threshold (`informed.ranking.decision.decision_curve`).

Every file goes through `informed.io.output_files.write_output`, as ``--html`` does: a
regular file is replaced whole, a link is followed, a FIFO or device is written through,
anything else is refused; a failed write is an error.

References
----------
Vickers, A. J. & Elkin, E. B. (2006). Decision curve analysis: a novel method for
evaluating prediction models. Medical Decision Making 26(6):565-574.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float, json_floats, json_number, printable
from informed.errors import InputError, InputTypeError
from informed.inference.table_bootstrap import Bootstrap
from informed.io.output_files import check_output, write_output
from informed.measures.cells import whole_counts
from informed.ranking.calibration_summary import is_probability_ranking
from informed.ranking.decision import decision_curve
from informed.ranking.groups import FloatArray
from informed.ranking.ranking import Ranking
from informed.ranking.thresholds import roc_curve
from informed.report.contents import PER_LABEL
from informed.report.records import MeasureRecord, measure_records, result_document
from informed.table.evaluation import Evaluation
from informed.table.table import Table

__all__ = [
    "DECISION_THRESHOLDS",
    "FILES",
    "MAX_CASES",
    "RENAMED",
    "ROC_POINTS",
    "ROC_RESOLUTION",
    "DvcFiles",
    "check_directory",
    "confusion_cells",
    "confusion_rows",
    "decision_points",
    "metrics",
    "roc_points",
    "write",
    "write_files",
]

MAX_CASES = 100_000
"""The most cases ``confusion.json`` is written for, one row each (about 40 bytes a row)."""

ROC_POINTS = 10_000
"""The most points ``roc.json`` holds every point of the curve for (about 50 bytes each)."""

ROC_RESOLUTION = 0.0004
"""Beyond `ROC_POINTS`, how far (in fpr + tpr) the line through the points kept may lie
from the exact curve: at most about 2 / 0.0004 = 5,000 steps, two points each, are kept."""

DECISION_THRESHOLDS = tuple(i / 100 for i in range(100))
"""The threshold probabilities of ``decision_curve.json``: 0, 0.01, ..., 0.99."""

FILES = {
    "metrics.json": "every value, with its interval and n (dvc metrics)",
    "confusion.json": "one {actual, predicted} row per case (the confusion templates)",
    "confusion_counts.json": "each non-zero cell with its exact count",
    "roc.json": "the ROC curve's points {fpr, tpr, threshold}",
    "decision_curve.json": "net benefit, treat all, treat none by threshold probability",
}
"""The files a folder may receive, and what each holds."""

RENAMED = {"error": "error_rate"}
"""Measures keyed by another of their names in ``metrics.json``: DVC takes any key named
``error`` for a file it failed to load (``dvc metrics show`` then warns of the whole
revision), so the error rate (1 - accuracy) is keyed by its other name, ``error_rate``."""

_PARTS = "\x00"
"""Joins a record's key parts (`MeasureRecord.key`): no label holds a NUL (labels with one
are refused where they are coded), so the parts split back exactly."""


@dataclass(frozen=True)
class DvcFiles:
    """What `write` wrote.

    Attributes
    ----------
    written : tuple of Path
        The files written, in the folder.
    left_out : dict
        File name -> why it was not written though its result was given (scores that are
        not probabilities, too many cases for one row each, a class missing). Files of a
        result not given (no Ranking: no ROC) are in neither.
    """

    written: tuple[Path, ...]
    left_out: dict[str, str] = field(default_factory=dict)


def _entry(record: MeasureRecord) -> dict[str, Any]:
    entry: dict[str, Any] = {"value": json_number(record.value)}
    if record.reason is not None or math.isnan(record.value):
        entry["undefined"] = record.reason or "undefined"
    if record.level is not None:
        entry["ci_low"] = json_number(record.low)
        entry["ci_high"] = json_number(record.high)
        entry["level"] = record.level
        entry["method"] = record.method
        entry["replicates"] = record.replicates
    entry["n"] = json_float(record.n)
    return entry


def metrics(document: Mapping[str, Any], *, per_label: Sequence[str] = PER_LABEL) -> dict[str, Any]:
    """The nested metrics of a result document (`informed.report.records`): one entry per
    value, ``{"value", "undefined" (only when the value is null), "ci_low", "ci_high",
    "level", "method", "replicates" (only with an interval), "n"}``, keyed as
    `MeasureRecord.key` keys it (``error`` as ``error_rate``: `RENAMED`); per-label values
    of the measures `per_label` only.

    >>> from informed import Table
    >>> from informed.report.records import result_document
    >>> m = metrics(result_document(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+"))
    >>> m["informedness"]
    {'value': 0.0, 'n': 100.0}
    >>> m["per_label"]["+"]["recall"]["value"]
    0.4
    """
    nested: dict[str, Any] = {}
    for record in measure_records(document):
        if record.label is not None and record.measure not in per_label:
            continue
        *parents, name = record.key(_PARTS).split(_PARTS)
        level = nested
        for part in parents:
            level = level.setdefault(part, {})
        level[RENAMED.get(name, name)] = _entry(record)
    return nested


def confusion_rows(table: Table, max_cases: int = MAX_CASES) -> tuple[str | None, str]:
    """(the JSON text of one ``{"actual", "predicted"}`` row per case, "") when the
    table's counts are whole and at most `max_cases`; else (None, why not)."""
    cells = table.cells
    if table.n > max_cases:
        return None, (
            f"{table.n:,.0f} cases, more than {max_cases:,} rows (one per case, as DVC's "
            "confusion templates count rows); the exact counts are in confusion_counts.json"
        )
    if not whole_counts(cells.counts.reshape(1, -1)):  # the cells as one row of a table
        return None, (
            "the table holds fractional weights, and DVC's confusion templates count rows "
            "(one per case); the exact weights are in confusion_counts.json"
        )
    rows = []
    for p, a, count in zip(
        cells.predicted.tolist(), cells.actual.tolist(), cells.counts.tolist(), strict=True
    ):
        row = json.dumps({"actual": table.actual[a], "predicted": table.predicted[p]})
        rows.extend([row] * int(count))
    return "[\n" + ",\n".join(rows) + "\n]\n", ""


def confusion_cells(table: Table) -> list[dict[str, Any]]:
    """Every non-zero cell once: ``{"actual", "predicted", "count"}`` (the exact count or
    weight)."""
    cells = table.cells
    return [
        {"actual": table.actual[a], "predicted": table.predicted[p], "count": count}
        for p, a, count in zip(
            cells.predicted.tolist(), cells.actual.tolist(), cells.counts.tolist(), strict=True
        )
    ]


def _kept(fpr: FloatArray, tpr: FloatArray) -> NDArray[np.intp]:
    """The points of a long curve kept: the two ends of every step of fpr + tpr that
    crosses a multiple of `ROC_RESOLUTION`, and the first and last. Between two points
    kept, fpr + tpr changes by less than `ROC_RESOLUTION` (or the curve is one straight
    step), so the line through them stays that close to the curve."""
    cell = np.floor((fpr + tpr) / ROC_RESOLUTION)
    crossing = np.flatnonzero(cell[1:] != cell[:-1])
    kept = np.zeros(fpr.size, dtype=bool)
    kept[[0, -1]] = True
    kept[crossing] = True
    kept[crossing + 1] = True
    return np.flatnonzero(kept)


def roc_points(ranking: Ranking) -> list[dict[str, Any]] | str:
    """The ROC curve as ``{"fpr", "tpr", "threshold"}`` rows (threshold +inf as None),
    collinear points dropped; beyond `ROC_POINTS` points, those within
    `ROC_RESOLUTION` of their neighbours too (`_kept`); or why there is none."""
    if ranking.n_positive == 0 or ranking.n_negative == 0:
        missing = "positives" if ranking.n_positive == 0 else "negatives"
        return f"the ROC curve is undefined: no actual {missing}"
    curve = roc_curve(ranking, drop_collinear=True)
    fpr, tpr, thresholds = curve.false_positive_rate, curve.true_positive_rate, curve.thresholds
    if fpr.size > ROC_POINTS:
        kept = _kept(fpr, tpr)
        fpr, tpr, thresholds = fpr[kept], tpr[kept], thresholds[kept]
    return [
        {"fpr": x, "tpr": y, "threshold": None if math.isinf(t) else t}
        for x, y, t in zip(fpr.tolist(), tpr.tolist(), thresholds.tolist(), strict=True)
    ]


def decision_points(ranking: Ranking) -> list[dict[str, Any]] | str:
    """The decision curve at `DECISION_THRESHOLDS` as ``{"threshold", "net_benefit",
    "treat_all", "treat_none"}`` rows; or why there is none."""
    if ranking.n == 0:
        return "the decision curve is undefined: no rows"
    if not is_probability_ranking(ranking):
        return "the decision curve reads the scores as probabilities, and they lie outside [0, 1]"
    curve = decision_curve(ranking, DECISION_THRESHOLDS)
    return [
        {"threshold": t, "net_benefit": nb, "treat_all": all_, "treat_none": 0.0}
        for t, nb, all_ in zip(
            curve.thresholds.tolist(),
            json_floats(curve.net_benefit),
            json_floats(curve.treat_all),
            strict=True,
        )
    ]


def check_directory(directory: str | os.PathLike[str], what: str = "the DVC files") -> Path:
    """The folder to write into, if it is one or can be made (its parent folders made as
    needed); else an InputError naming it. Called before any work, and again to write."""
    path = Path(directory)
    if os.fspath(directory) == "":
        raise InputError(f"cannot write {what} to '': the path is empty; give a folder name.")
    if path.exists() and not path.is_dir():
        raise InputError(
            f"cannot write {what} to {printable(repr(os.fspath(directory)))}: it is not a "
            "folder; give a folder name."
        )
    if path.is_dir():
        check_output(path / "metrics.json", f"{what} (metrics.json)")
    return path


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, allow_nan=False) + "\n"


def _records(rows: list[dict[str, Any]]) -> str:
    """A JSON list with one record a line (json's fast encoder: an indented dump of a
    million records takes seconds)."""
    return "[\n" + ",\n".join(json.dumps(row, allow_nan=False) for row in rows) + "\n]\n"


def write_files(
    directory: str | os.PathLike[str],
    document: Mapping[str, Any],
    table: Table | None,
    ranking: Ranking | None,
    *,
    max_cases: int = MAX_CASES,
) -> DvcFiles:
    """Write a result document's metrics and the plots of its Table and Ranking into
    `directory` (made if missing): the files the module's docstring lists."""
    folder = check_directory(directory)
    texts: dict[str, str] = {"metrics.json": _json(metrics(document))}
    left_out: dict[str, str] = {}
    if table is not None:
        rows, why = confusion_rows(table, max_cases)
        if rows is None:
            left_out["confusion.json"] = why
        else:
            texts["confusion.json"] = rows
        texts["confusion_counts.json"] = _records(confusion_cells(table))
    for name, make in (("roc.json", roc_points), ("decision_curve.json", decision_points)):
        if ranking is None:
            continue
        points = make(ranking)
        if isinstance(points, str):
            left_out[name] = points
        else:
            texts[name] = _records(points)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        from informed.io.output_files import reason

        shown = printable(repr(os.fspath(directory)))
        msg = f"cannot make the folder {shown} for the DVC files: {reason(error)}."
        raise OSError(msg) from None
    for name in texts:  # every file refused before any is written
        check_output(folder / name, f"the DVC file {name}")
    written = [
        write_output(folder / name, text, f"the DVC file {name}") for name, text in texts.items()
    ]
    return DvcFiles(tuple(written), left_out)


def _results(results: Any) -> tuple[Any, ...]:
    if isinstance(results, Sequence) and not isinstance(results, str | bytes):
        return tuple(results)
    return (results,)


def write(
    results: Any,
    directory: str | os.PathLike[str],
    *,
    positive: Any = None,
    max_cases: int = MAX_CASES,
) -> DvcFiles:
    """Write a result's metrics and plots into `directory` for DVC.

    Parameters
    ----------
    results : result or sequence of results
        A Table, Evaluation, Bootstrap (its intervals join the metrics), Ranking or
        RankingSummary, or several of them (at most one of each kind); a Ranking's ROC
        and decision curve are drawn, a RankingSummary's values only kept as metrics.
    directory : path
        The folder (made if missing, with its parents).
    positive : label, optional
        With a Table: the positive class whose one-vs-rest measures are reported.
    max_cases : int
        The most cases ``confusion.json`` is written for (one row each).

    Returns
    -------
    DvcFiles
        The files written and those left out, with the reason.

    >>> import tempfile
    >>> from informed import Table
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     files = write(Table.binary(tp=12, fp=28, fn=18, tn=42), folder, positive="+")
    >>> [p.name for p in files.written]
    ['metrics.json', 'confusion.json', 'confusion_counts.json']
    """
    given = _results(results)
    document = result_document(*given, positive=positive)
    table: Table | None = None
    ranking: Ranking | None = None
    for result in given:
        if isinstance(result, Table):
            table = result
        elif isinstance(result, Evaluation | Bootstrap):
            table = result.table
        elif isinstance(result, Ranking):
            ranking = result
    if isinstance(max_cases, bool) or not isinstance(max_cases, int) or max_cases < 0:
        raise InputTypeError(f"max_cases must be a whole number >= 0; got {max_cases!r}.")
    return write_files(directory, document, table, ranking, max_cases=max_cases)
