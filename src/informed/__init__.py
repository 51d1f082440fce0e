"""informed: evaluate classifiers by what they got right beyond chance.

>>> from informed import Table, evaluate
>>> evaluate(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+").measures["informedness"]
0.0
"""

from __future__ import annotations

from informed.errors import InputError, InputTypeError, UndefinedMeasureWarning
from informed.inference import Bootstrap, Comparison, Interval, bootstrap, compare
from informed.measures import MEASURES, Measure
from informed.ranking import OperatingPoint, Ranking, ranking_report
from informed.table import (
    Abstention,
    Evaluation,
    Matching,
    OneVsRest,
    Payoff,
    Stakes,
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
    "Comparison",
    "Evaluation",
    "InputError",
    "InputTypeError",
    "Interval",
    "Matching",
    "Measure",
    "OneVsRest",
    "OperatingPoint",
    "Payoff",
    "Ranking",
    "Stakes",
    "Table",
    "Tally",
    "UndefinedMeasureWarning",
    "abstain",
    "average",
    "bootstrap",
    "compare",
    "evaluate",
    "match",
    "payoff",
    "ranking_report",
]
