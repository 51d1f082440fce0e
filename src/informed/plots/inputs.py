"""What a plot function accepts: a summary, or the rows that make it.

``plot_roc(ranking)`` or ``plot_roc(actual, scores, positive=1)``;
``plot_contingency(table)``, ``plot_contingency(evaluation)`` or
``plot_contingency(actual, predicted)``: the rows are summarised exactly as
`Ranking.from_scores` and `Table.from_labels` summarise them, with their checks and
messages.
"""

from __future__ import annotations

from typing import Any

from informed.errors import InputTypeError
from informed.ranking import Ranking
from informed.table.evaluation import Evaluation, evaluate
from informed.table.table import Table

__all__ = ["evaluation_of", "ranking_of", "table_of"]


def ranking_of(function: str, data: Any, scores: Any, positive: Any, weights: Any) -> Ranking:
    """`data` if it is a Ranking (and nothing else is given), else the Ranking of the rows
    (`data` the actual classes, `scores` their scores) for the class `positive`."""
    if isinstance(data, Ranking):
        extra = [
            name
            for name, value in (("scores", scores), ("positive", positive), ("weights", weights))
            if value is not None
        ]
        if extra:
            msg = (
                f"{function}(ranking) draws the Ranking given; {', '.join(extra)} would be "
                f"ignored: pass a Ranking alone, or {function}(actual, scores, positive=...)."
            )
            raise InputTypeError(msg)
        return data
    if scores is None:
        msg = (
            f"{function}() needs a Ranking, or the actual classes and their scores: "
            f"{function}(ranking) or {function}(actual, scores, positive=...); got "
            f"{type(data).__name__} alone."
        )
        raise InputTypeError(msg)
    if positive is None:
        msg = (
            f"{function}(actual, scores) needs `positive`, the class high scores point to: "
            f"write {function}(actual, scores, positive=...)."
        )
        raise InputTypeError(msg)
    return Ranking.from_scores(data, scores, positive=positive, weights=weights)


def table_of(function: str, data: Any, predicted: Any, weights: Any = None) -> Table:
    """`data` as a Table: a Table, an Evaluation's table, or the Table of the rows
    (`data` the actual classes, `predicted` the predictions)."""
    if isinstance(data, Table | Evaluation):
        if predicted is not None or weights is not None:
            msg = (
                f"{function}({type(data).__name__.lower()}) draws the summary given; pass it "
                f"alone, or {function}(actual, predicted)."
            )
            raise InputTypeError(msg)
        return data if isinstance(data, Table) else data.table
    if predicted is None:
        msg = (
            f"{function}() needs a Table, an Evaluation, or the actual classes and the "
            f"predictions: {function}(table) or {function}(actual, predicted); got "
            f"{type(data).__name__} alone."
        )
        raise InputTypeError(msg)
    return Table.from_labels(actual=data, predicted=predicted, weights=weights)


def evaluation_of(
    function: str, data: Any, predicted: Any, positive: Any, weights: Any = None
) -> Evaluation:
    """`data` as an Evaluation: itself, or `evaluate` of the Table `table_of` gives."""
    if isinstance(data, Evaluation):
        if positive is not None:
            msg = (
                f"{function}(evaluation) draws the evaluation given (positive="
                f"{data.positive!r}); pass `positive` to `evaluate`, not here."
            )
            raise InputTypeError(msg)
        table_of(function, data, predicted, weights)  # nothing else may be given
        return data
    return evaluate(table_of(function, data, predicted, weights), positive=positive)
