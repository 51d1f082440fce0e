"""Evaluate a Table: every registered measure, overall and per label, with reasons for nan.

>>> from informed.table import Table
>>> result = evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+")
>>> round(result.measures["informedness"], 12)
0.5
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from informed.labels import Label, as_label, label_kind
from informed.measures import (
    MEASURES,
    Measure,
    label_weights,
    one_vs_rest_counts,
    undefined_reason,
    weighted_mean,
)
from informed.table import Table

__all__ = ["Evaluation", "evaluate"]


@dataclass(frozen=True)
class Evaluation:
    """The measures of one Table.

    Attributes
    ----------
    table : Table
        What was evaluated.
    positive : label or None
        With a positive label, `measures` are those of its one-vs-rest 2x2 view; without
        one, each measure is combined over labels as its registry entry says.
    measures : dict
        Registry name -> float (nan where undefined).
    per_label : dict
        Label -> registry name -> float, from each label's one-vs-rest view.
    reasons : dict
        Registry name -> why the overall value is nan.
    per_label_reasons : dict
        Label -> registry name -> why that value is nan.
    """

    table: Table
    positive: Label | None
    alpha: float
    measures: dict[str, float]
    per_label: dict[Label, dict[str, float]]
    reasons: dict[str, str] = field(default_factory=dict)
    per_label_reasons: dict[Label, dict[str, str]] = field(default_factory=dict)

    @property
    def n(self) -> float:
        """Total count or weight."""
        return self.table.n


def _kwargs(measure: Measure, alpha: float) -> dict[str, float]:
    return {"alpha": alpha} if measure.takes_alpha else {}


def evaluate(
    table: Table,
    *,
    positive: Any = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
) -> Evaluation:
    """Compute every registered measure of `table`, overall and per label.

    Parameters
    ----------
    table : Table
    positive : label, optional
        Evaluate the one-vs-rest view of this label as a binary problem.
    alpha : float
        Weight of the F family: alpha = 1 / (1 + beta^2); 0.5 is F1.
    undefined : {"propagate", "omit"}
        For averaged measures: a label whose value is nan makes the average nan
        ("propagate", the default), or is left out ("omit").
    """
    labels, square = table.square()
    ovr = one_vs_rest_counts(square)
    index: int | None = None
    if positive is not None:
        positive = as_label(positive)
        keyed = [(label_kind(x), x) for x in labels]
        if (label_kind(positive), positive) not in keyed:
            msg = (
                f"positive={positive!r} is not a label of the table; "
                f"it should be one of {list(labels)}."
            )
            raise ValueError(msg)
        index = keyed.index((label_kind(positive), positive))

    measures: dict[str, float] = {}
    reasons: dict[str, str] = {}
    per_label: dict[Label, dict[str, float]] = {label: {} for label in labels}
    per_label_reasons: dict[Label, dict[str, str]] = {label: {} for label in labels}
    total = float(square.sum())
    for name, measure in MEASURES.items():
        kwargs = _kwargs(measure, alpha)
        values = measure(ovr, **kwargs) if labels else np.zeros(0)
        for k, label in enumerate(labels):
            value = float(values[k])
            per_label[label][name] = value
            if np.isnan(value):
                per_label_reasons[label][name] = undefined_reason(measure, ovr[k]) or "undefined"
        if index is not None:
            overall = float(values[index])
            if np.isnan(overall):
                reasons[name] = undefined_reason(measure, ovr[index]) or "undefined"
        else:
            if isinstance(measure.overall, str):
                weights = label_weights(square, measure.overall)
                overall = (
                    float(weighted_mean(values, weights, undefined)) if labels else float("nan")
                )
            else:
                overall = float(measure.overall(square, **kwargs)) if labels else float("nan")
                weights = label_weights(square, "bias")
            if np.isnan(overall):
                reasons[name] = _overall_reason(
                    measure, labels, values, weights, total, per_label_reasons
                )
        measures[name] = overall
    return Evaluation(
        table=table,
        positive=positive,
        alpha=alpha,
        measures=measures,
        per_label=per_label,
        reasons=reasons,
        per_label_reasons=per_label_reasons,
    )


def _overall_reason(
    measure: Measure,
    labels: tuple[Label, ...],
    values: Any,
    weights: Any,
    total: float,
    per_label_reasons: dict[Label, dict[str, str]],
) -> str:
    if total == 0:
        return "no data (N = 0)"
    if measure.overall in ("bias", "prevalence", "macro") or not isinstance(measure.overall, str):
        if measure.name in ("bias", "prevalence", "bias_ratio"):
            return "a per-label quantity: see per_label, or pass a positive label"
        bad = [
            label
            for k, label in enumerate(labels)
            if np.isnan(values[k]) and not (np.isnan(weights[k]) or weights[k] == 0)
        ]
        if bad:
            first = bad[0]
            more = f" and {len(bad) - 1} more" if len(bad) > 1 else ""
            why = per_label_reasons[first].get(measure.name, "undefined")
            return f"undefined for label {first!r}{more}: {why}"
    if measure.name in ("matthews_correlation", "kappa"):
        return "all predictions or all cases fall in one label"
    if measure.name == "correlation":
        return "informedness and markedness are undefined or differ in sign"
    return "undefined for this table"
