"""informed: evaluate classifiers by what they got right beyond chance.

>>> from informed import Table, evaluate
>>> evaluate(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+").measures["informedness"]
0.0
"""

from __future__ import annotations

from informed.errors import InputError, InputTypeError, UndefinedMeasureWarning
from informed.inference import Bootstrap, Interval, bootstrap
from informed.measures import MEASURES, Measure
from informed.ranking import Ranking, ranking_report
from informed.table import (
    Abstention,
    Evaluation,
    Matching,
    OneVsRest,
    Payoff,
    Table,
    abstain,
    average,
    evaluate,
    match,
    payoff,
)
from informed.tally import Tally

__all__ = [
    "MEASURES",
    "Abstention",
    "Bootstrap",
    "Evaluation",
    "InputError",
    "InputTypeError",
    "Interval",
    "Matching",
    "Measure",
    "OneVsRest",
    "Payoff",
    "Ranking",
    "Table",
    "Tally",
    "UndefinedMeasureWarning",
    "abstain",
    "average",
    "bootstrap",
    "evaluate",
    "match",
    "payoff",
    "ranking_report",
]
