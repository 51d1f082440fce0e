"""One flat record per reported value: what experiment trackers, DVC and model cards keep.

A result document (the JSON that ``informed evaluate --format json`` writes, and that
`result_document` makes from Python results) nests its values by section: the measures,
their intervals and how the intervals were made, the measures per label, the ranking's
summaries. Trackers keep flat keys. `measure_records` reads a document into one
`MeasureRecord` per value, each with everything needed to read it honestly: the registry
name, the value or the reason it is undefined, the interval with its level, method and
replicates, and the number of cases (or the total weight) it was computed on.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from informed.errors import InputTypeError
from informed.inference.ranking_bootstrap import RankingBootstrap
from informed.inference.table_bootstrap import Bootstrap
from informed.ranking.document import SUMMARIES, RankingSummary, summarize_ranking
from informed.ranking.ranking import Ranking
from informed.report.document import results_document
from informed.table.evaluation import Evaluation, evaluate
from informed.table.table import Table

__all__ = ["MeasureRecord", "measure_records", "result_document"]


@dataclass(frozen=True)
class MeasureRecord:
    """One reported value, flat.

    Attributes
    ----------
    measure : str
        The registry name (``informedness``, ``auc``).
    value : float
        NaN when undefined (`reason` says why).
    reason : str or None
        Why `value` is undefined; None when it is defined.
    low, high : float
        The confidence interval; NaN when none was asked for or it cannot be computed.
    level : float or None
        The interval's nominal coverage (0.95); None without an interval.
    method : str or None
        How the interval was made (``percentile``, ``bca``); None without one.
    replicates : int or None
        Bootstrap replicates behind the interval; None without one.
    n : float
        The cases (or, for a weighted table, the total weight) the value was computed on.
    label : str or None
        The label of a per-label value; None for a value over all labels.
    group : str or None
        The slice or time window of the value; None for all rows.
    """

    measure: str
    value: float
    reason: str | None
    low: float
    high: float
    level: float | None
    method: str | None
    replicates: int | None
    n: float
    label: str | None = None
    group: str | None = None

    def key(self, separator: str = ".") -> str:
        """A flat key: ``informedness``, ``per_label.benign.recall``,
        ``slice.sex=F.informedness`` (parts joined by `separator`)."""
        parts = [] if self.group is None else ["slice", self.group]
        if self.label is not None:
            parts += ["per_label", self.label]
        return separator.join([*parts, self.measure])


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


def _records(
    document: Mapping[str, Any], group: str | None
) -> Iterator[MeasureRecord]:
    n = _float(document.get("n"))
    design = document.get("bootstrap") or {}
    intervals = document.get("intervals") or {}
    level = design.get("level") if intervals else None
    method = design.get("method") if intervals else None
    replicates = design.get("replicates") if intervals else None
    reasons = document.get("undefined") or {}
    for name, value in (document.get("measures") or {}).items():
        low, high = intervals.get(name, (None, None))
        yield MeasureRecord(
            name, _float(value), reasons.get(name), _float(low), _float(high),
            level if name in intervals else None,
            method if name in intervals else None,
            replicates if name in intervals else None,
            n, None, group,
        )  # fmt: skip
    for label, values in (document.get("per_label") or {}).items():
        for name, value in values.items():
            reason = None if value is not None else "undefined for this label"
            yield MeasureRecord(
                name, _float(value), reason, math.nan, math.nan, None, None, None, n,
                str(label), group,
            )  # fmt: skip
    ranking = document.get("ranking")
    if ranking:
        ranking_reasons = ranking.get("undefined") or {}
        for name in SUMMARIES:
            if name in ranking:
                yield MeasureRecord(
                    name, _float(ranking[name]), ranking_reasons.get(name),
                    math.nan, math.nan, None, None, None, n, None, group,
                )  # fmt: skip


def measure_records(document: Mapping[str, Any]) -> list[MeasureRecord]:
    """Every value of a result document, one `MeasureRecord` each.

    Reads the overall measures (with their intervals and the bootstrap's level, method and
    replicates), the measures per label and the ranking's summaries (AUC, average hit
    rate, average Qrecall, PEM).

    >>> from informed import Table
    >>> doc = result_document(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+")
    >>> record = next(r for r in measure_records(doc) if r.key() == "informedness")
    >>> record.value, record.n, record.level
    (0.0, 100.0, None)
    """
    if not isinstance(document, Mapping):
        raise InputTypeError(
            f"measure_records reads a result document (a dict), got {type(document).__name__}"
        )
    return list(_records(document, None))


def result_document(*results: Any, positive: Any = None) -> dict[str, Any]:
    """The result document of Python results, as ``informed evaluate --format json``
    writes it.

    Each of `results` is a Table (evaluated here), an Evaluation, a Bootstrap (its
    intervals; its table is evaluated when no Evaluation is given), a Ranking (summarised
    here), a RankingSummary, or a result document (a dict, returned as it is). At most one
    of each kind.
    """
    if len(results) == 1 and isinstance(results[0], Mapping):
        return dict(results[0])
    evaluation: Evaluation | None = None
    intervals: Bootstrap | None = None
    summary: RankingSummary | None = None
    for result in results:
        if isinstance(result, Table):
            evaluation = evaluate(result, positive=positive)
        elif isinstance(result, Evaluation):
            evaluation = result
        elif isinstance(result, Bootstrap):
            intervals = result
        elif isinstance(result, Ranking):
            summary = summarize_ranking(result)
        elif isinstance(result, RankingSummary):
            summary = result
        elif isinstance(result, RankingBootstrap):
            raise InputTypeError(
                "a RankingBootstrap's intervals are not part of the result document yet; "
                "pass the Ranking"
            )
        else:
            raise InputTypeError(
                "result_document reads Table, Evaluation, Bootstrap, Ranking or "
                f"RankingSummary results, got {type(result).__name__}"
            )
    if evaluation is None and intervals is not None:
        evaluation = evaluate(intervals.table, positive=intervals.positive)
    if evaluation is None and summary is None:
        raise InputTypeError("result_document needs at least one result")
    if positive is None and evaluation is not None:
        positive = evaluation.positive
    return results_document(evaluation, None, summary, intervals, positive)
