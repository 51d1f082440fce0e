"""JSON documents of results: registry names as keys, nan written as null."""

from __future__ import annotations

import math
from typing import Any

from informed.evaluation import Evaluation
from informed.payoff import payoff

__all__ = ["evaluation_document", "json_number"]


def json_number(value: float) -> float | None:
    """A float for JSON: nan becomes None (null); infinities are kept for the caller to refuse."""
    return None if math.isnan(value) else value


def evaluation_document(result: Evaluation) -> dict[str, Any]:
    """The JSON document of an evaluation.

    Keys: ``n``, ``positive``, ``labels`` {``predicted``, ``actual``}, ``table`` (rows
    predicted), ``measures`` {name: value}, ``undefined`` {name: reason}, ``per_label``
    {label: {name: value}}, ``payoff`` (see `informed.payoff.Payoff.to_dict`).
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
