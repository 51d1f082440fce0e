"""The result of `informed.compare`: models side by side, their paired
differences from the best one with intervals, and the paired tests.

Its JSON form (`Comparison.to_dict`) is {"models": {...}, "differences": {...},
"tests": {...}, ...}; its notebook view (`_repr_html_`) the leaderboard and the
differences, built from the escaped pieces of `informed._markup`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float
from informed._markup import fragment, header_cell, html_table, text_cell, value_cell
from informed.coding.labels import Label
from informed.comparison.net_benefit import NetBenefitDifference
from informed.inference.interval import Interval
from informed.inference.significance import Significance
from informed.measures import MEASURES
from informed.ranking import ANY_MEASURE_NAMES, RANKING_MEASURES, ByAnyMeasure, Ranking
from informed.ranking.decision import REPORT_THRESHOLDS
from informed.ranking.operating import OperatingPoint
from informed.table.table import Table

__all__ = ["TEST_NAMES", "Comparison", "ModelResult", "measure_title"]

Floats = NDArray[np.float64]

TEST_NAMES = {
    "mcnemar": "McNemar (accuracy)",
    "permutation": "paired permutation (informedness)",
    "delong": "DeLong (AUC)",
}
"""The paired tests of a comparison, by key: what each tests."""


def measure_title(name: str) -> str:
    """The heading of a measure, from the registry of table measures or of ranking ones."""
    name = ANY_MEASURE_NAMES.find(name) or name
    if name in MEASURES:
        return MEASURES[name].title
    return RANKING_MEASURES[name].title if name in RANKING_MEASURES else name


@dataclass(frozen=True, eq=False)
class ModelResult:
    """One model of a comparison.

    Attributes
    ----------
    name : str
    rank : int
        1 for the best model by the comparison's `sort_by` measure.
    measures : dict
        Measure name -> value (nan where undefined): table measures as
        `informed.evaluate` gives them, ranking measures as `informed.ranking` does. Any
        name of a measure finds it (a `informed.ranking.ByAnyMeasure`), as in `intervals`
        and `reasons`.
    intervals : dict
        Measure name -> percentile bootstrap Interval (from the paired replicates).
    reasons : dict
        Measure name -> why its value is nan.
    table : Table or None
        The model's contingency table (predicted labels, or scores cut at `threshold`).
    ranking : Ranking or None
        The Ranking of its scores.
    threshold : OperatingPoint or None
        Where its scores were cut, when they were.
    """

    name: str
    rank: int
    measures: dict[str, float]
    intervals: dict[str, Interval]
    reasons: dict[str, str]
    table: Table | None = None
    ranking: Ranking | None = None
    threshold: OperatingPoint | None = None

    def __post_init__(self) -> None:
        # any name of a measure finds it: measures["tpr"], intervals["AUROC"]
        for name in ("measures", "intervals", "reasons"):
            object.__setattr__(self, name, ByAnyMeasure(getattr(self, name)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (nan as None)."""
        return {
            "rank": self.rank,
            "measures": {k: json_float(v) for k, v in self.measures.items()},
            "intervals": {k: v.as_list() for k, v in self.intervals.items()},
            "undefined": dict(self.reasons),
            "table": None if self.table is None else self.table.to_dict(),
            "threshold": None if self.threshold is None else self.threshold.to_dict(),
        }


@dataclass(frozen=True, eq=False)
class Comparison:
    """Several classifiers on the same cases, side by side, with paired inference.

    Attributes
    ----------
    models : dict
        Name -> ModelResult, best first (by `sort_by`; undefined values last).
    reference : str
        The best model: every difference is (model - reference).
    sort_by : str
        The measure that ranks the models: informedness, or AUC for scores alone.
    measures : tuple of str
        The measures compared.
    differences : dict
        Model -> measure -> Interval of measure(model) - measure(reference), from the
        paired bootstrap (percentile).
    tests : dict
        Model -> test key ("mcnemar", "permutation", "delong") -> Significance of model
        against the reference.
    adjusted : dict
        Model -> test key -> the p-value adjusted for the comparisons of that test
        (Holm; the raw p-value with two models or `correction="none"`).
    correction : str
        "holm" or "none".
    level, replicates, permutations : float, int, int
    positive : label or None
    n : float
        Cases (total weight).
    weighted : bool
    distribution : dict
        Model -> measure -> the bootstrap replicates (paired across models).
    net_benefit : dict
        Model -> `NetBenefitDifference` of its net benefit minus the reference's at every
        threshold probability, with its paired bootstrap band and the exact ranges where
        it beats the reference (Vickers & Elkin 2006); empty unless every model's scores
        are probabilities.
    net_benefit_reason : str or None
        Why `net_benefit` is empty.
    """

    models: dict[str, ModelResult]
    reference: str
    sort_by: str
    measures: tuple[str, ...]
    differences: dict[str, dict[str, Interval]]
    tests: dict[str, dict[str, Significance]]
    adjusted: dict[str, dict[str, float]]
    correction: str
    level: float
    replicates: int
    permutations: int
    positive: Label | None
    n: float
    weighted: bool
    distribution: dict[str, dict[str, Floats]] = field(repr=False, default_factory=dict)
    net_benefit: dict[str, NetBenefitDifference] = field(repr=False, default_factory=dict)
    net_benefit_reason: str | None = None

    def __post_init__(self) -> None:
        # any name of a measure finds it: differences["b"]["youden"]
        for name in ("differences", "distribution"):
            found = {model: ByAnyMeasure(by) for model, by in getattr(self, name).items()}
            object.__setattr__(self, name, found)

    @property
    def best(self) -> str:
        """The name of the best model (the reference of the differences)."""
        return self.reference

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: {"models": ..., "differences": ..., "tests": ...,
        "net_benefit": ..., ...}; the net benefit at the report's thresholds
        (`informed.ranking.decision.REPORT_THRESHOLDS`), with its exact ranges."""
        differences = {
            model: {
                name: {
                    "estimate": json_float(i.estimate),
                    "interval": i.as_list(),
                    "standard_error": json_float(i.standard_error),
                    "reason": i.reason,
                }
                for name, i in by_measure.items()
            }
            for model, by_measure in self.differences.items()
        }
        tests = {
            model: {
                key: {
                    "method": test.method,
                    "statistic": json_float(test.statistic),
                    "estimate": json_float(test.estimate),
                    "pvalue": json_float(test.pvalue),
                    "adjusted_pvalue": json_float(self.adjusted[model][key]),
                    "null": test.null,
                    "reason": test.reason,
                }
                for key, test in by_test.items()
            }
            for model, by_test in self.tests.items()
        }
        return {
            "n": self.n,
            "weighted": self.weighted,
            "positive": self.positive,
            "sort_by": self.sort_by,
            "reference": self.reference,
            "difference": "model - reference",
            "level": self.level,
            "replicates": self.replicates,
            "permutations": self.permutations,
            "correction": self.correction,
            "measures": list(self.measures),
            "models": {name: model.to_dict() for name, model in self.models.items()},
            "differences": differences,
            "tests": tests,
            "net_benefit": {
                name: found.to_dict(REPORT_THRESHOLDS) for name, found in self.net_benefit.items()
            },
            "net_benefit_undefined": self.net_benefit_reason,
        }

    def __repr__(self) -> str:
        head = (
            f"Comparison of {len(self.models)} models on n = {self.n:g} by {self.sort_by} "
            f"(best {self.reference!r}; differences model - {self.reference!r}, "
            f"{100 * self.level:g} % paired bootstrap, {self.replicates} replicates)"
        )
        names = list(self.measures)
        width = max(len(n) for n in self.models) if self.models else 5
        lines = [head, "  ".join(["model".ljust(width), *(f"{n[:12]:>12}" for n in names)])]
        for name, model in self.models.items():
            cells = [_short(model.measures.get(n, math.nan)) for n in names]
            lines.append("  ".join([name.ljust(width), *(f"{c:>12}" for c in cells)]))
        for name, by_measure in self.differences.items():
            difference = by_measure.get(self.sort_by)
            if difference is None:
                continue
            tests = ", ".join(
                f"{key} p = {_short(self.adjusted[name][key], 4)}" for key in self.tests[name]
            )
            lines.append(
                f"{name} - {self.reference}: {self.sort_by} {_short(difference.estimate)} "
                f"[{_short(difference.low)}, {_short(difference.high)}]"
                + (f"; {tests}" if tests else "")
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The leaderboard and the differences as a small escaped HTML fragment."""
        names = list(self.measures)
        board = html_table(
            ["rank", "model", *(measure_title(n) for n in names)],
            [
                [
                    f'<td class="num">{model.rank}</td>',
                    header_cell(name, row=True),
                    *(value_cell(model.measures.get(n), model.reasons.get(n)) for n in names),
                ]
                for name, model in self.models.items()
            ],
            caption="Models, best first",
            styled=True,
        )
        rows = []
        for model, by_measure in self.differences.items():
            for name, interval in by_measure.items():
                rows.append(
                    [
                        header_cell(f"{model} − {self.reference}", row=True),
                        text_cell(measure_title(name)),
                        value_cell(interval.estimate, interval.reason),
                        value_cell(interval.low, interval.reason),
                        value_cell(interval.high, interval.reason),
                    ]
                )
        differences = html_table(
            ["difference", "measure", "estimate", "low", "high"],
            rows,
            caption=f"Paired differences, {100 * self.level:g} % bootstrap intervals",
            styled=True,
        )
        tests = html_table(
            ["model", "test", "p-value", f"adjusted ({self.correction})"],
            [
                [
                    header_cell(model, row=True),
                    text_cell(TEST_NAMES.get(key, key)),
                    value_cell(test.pvalue, test.reason),
                    value_cell(self.adjusted[model][key], test.reason),
                ]
                for model, by_test in self.tests.items()
                for key, test in by_test.items()
            ],
            caption=f"Paired tests against {self.reference}",
            styled=True,
        )
        title = (
            f"Comparison of {len(self.models)} models on n = {self.n:g}, by {self.sort_by}; "
            f"best: {self.reference}"
        )
        return fragment(title, [board, differences, tests])


def _short(value: float, digits: int = 4) -> str:
    return "undefined" if value is None or math.isnan(value) else f"{value:.{digits}f}"
