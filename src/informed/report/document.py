"""JSON documents of results: registry names as keys, nan written as null."""

from __future__ import annotations

import io
import math
from typing import Any

from informed.table.evaluation import Evaluation
from informed.table.payoff import payoff

__all__ = ["evaluation_document", "json_number", "measures_csv"]


def json_number(value: float) -> float | None:
    """A float for JSON: nan becomes None (null); infinities are kept for the caller to refuse."""
    return None if math.isnan(value) else value


def evaluation_document(result: Evaluation) -> dict[str, Any]:
    """The JSON document of an evaluation.

    Keys: ``n``, ``positive``, ``labels`` {``predicted``, ``actual``}, ``table`` (rows
    predicted), ``measures`` {name: value}, ``undefined`` {name: reason}, ``per_label``
    {label: {name: value}}, ``payoff`` (see `informed.table.Payoff.to_dict`).
    """
    table = result.table
    return {
        "n": table.n,
        "positive": result.positive,
        "labels": {"predicted": list(table.predicted), "actual": list(table.actual)},
        "table": table.counts.tolist(),
        "measures": {name: json_number(v) for name, v in result.measures.items()},
        "undefined": dict(result.reasons),
        "per_label": {
            str(label): {name: json_number(v) for name, v in values.items()}
            for label, values in result.per_label.items()
        },
        "payoff": payoff(table).to_dict(),
    }


_RANKING_SUMMARIES = ("auc", "average_hit_rate", "average_qrecall", "pem")


def _csv_cell(value: Any) -> str:
    """A CSV cell: numbers as repr, nan/None empty, and text that a spreadsheet would run as
    a formula (leading = + - @) neutralised with a leading quote."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return repr(value)
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def measures_csv(result: Evaluation | None, ranking: dict[str, Any] | None = None) -> str:
    """The measures as CSV: one row for the whole table (``scope`` = overall) and one per
    label, a column per registry measure; ranking summaries as extra columns of the
    overall row."""
    import csv

    from informed.measures import MEASURES

    names = list(MEASURES) if result is not None else []
    extra = list(_RANKING_SUMMARIES) if ranking is not None else []
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["scope", "label", *names, *extra])
    overall = [result.measures[n] for n in names] if result is not None else []
    summaries = [ranking.get(k) for k in extra] if ranking is not None else []
    positive = result.positive if result is not None else None
    writer.writerow(
        ["overall", _csv_cell(positive), *map(_csv_cell, overall), *map(_csv_cell, summaries)]
    )
    if result is not None:
        for label, values in result.per_label.items():
            row = ["label", _csv_cell(label), *(_csv_cell(values[n]) for n in names)]
            writer.writerow(row + [""] * len(extra))
    return buffer.getvalue()
