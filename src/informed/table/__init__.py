"""The Table summary and the functions of it: evaluation, payoff, matching, abstention.

`table` builds the frozen counts of predicted label x actual class, `evaluation` gives
every registry measure of it (`evaluate`, `average`), `payoff` the fair-odds matrix of
the Bookmaker, `matching` the assignment of clusters to classes and abstention.
"""

from __future__ import annotations

from informed.table.evaluation import (
    Evaluation,
    average,
    evaluate,
    measure_values,
)
from informed.table.matching import (
    Abstention,
    Matching,
    abstain,
    match,
)
from informed.table.payoff import (
    Payoff,
    Stakes,
    payoff,
)
from informed.table.table import (
    OneVsRest,
    Table,
)

# the summary first: the API reference lists a page's names in this order
__all__ = [  # noqa: RUF022
    "Table",
    "Abstention",
    "Evaluation",
    "Matching",
    "OneVsRest",
    "Payoff",
    "Stakes",
    "abstain",
    "average",
    "evaluate",
    "match",
    "measure_values",
    "payoff",
]
