"""Every measure of a Tally computed once (`TallySummary`), and its JSON document.

`summarize_tally` evaluates every registry measure micro, macro and per category, each
undefined value with its reason; the reports format that one object, and `tally_report`
is its JSON document.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from informed._common import json_float
from informed.errors import InputTypeError
from informed.measures import MEASURES
from informed.tally.tally import Tally

__all__ = ["TallySummary", "summarize_tally", "tally_report"]


@dataclass(frozen=True)
class TallySummary:
    """Every registry measure of one Tally, micro, macro and per category.

    Attributes
    ----------
    documents : int
    categories : tuple of str
    conventions : str
    micro, macro : dict
        Measure name -> value (NaN where undefined).
    per_category : dict
        Category -> measure name -> value.
    stats_table : str
        The Perl module's one-glance table.
    ignored : dict
        Category -> documents whose assignment of it was ignored.
    micro_reasons : dict
        Measure name -> why the micro value is NaN.
    category_reasons : dict
        Category -> measure name -> why its value is NaN (categories with none left out).
    """

    documents: int
    categories: tuple[str, ...]
    conventions: str
    micro: Mapping[str, float]
    macro: Mapping[str, float]
    per_category: Mapping[str, Mapping[str, float]]
    stats_table: str
    ignored: Mapping[str, int]
    micro_reasons: Mapping[str, str]
    category_reasons: Mapping[str, Mapping[str, str]]

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (NaN as None): see `tally_report`."""
        return {
            "documents": self.documents,
            "categories": list(self.categories),
            "conventions": self.conventions,
            "micro": {name: json_float(v) for name, v in self.micro.items()},
            "macro": {name: json_float(v) for name, v in self.macro.items()},
            "per_category": {
                category: {name: json_float(v) for name, v in values.items()}
                for category, values in self.per_category.items()
            },
            "stats_table": self.stats_table,
            "ignored": dict(self.ignored),
            "undefined": {
                "micro": dict(self.micro_reasons),
                "per_category": {k: dict(v) for k, v in self.category_reasons.items()},
            },
        }


def summarize_tally(tally: Tally, *, undefined: str = "propagate") -> TallySummary:
    """Every registry measure of a Tally, micro, macro and per category, computed once.

    micro[m] = m(pooled table); macro[m] = mean over categories of m(table_k) (policy
    `undefined`, passed to `Tally.macro`); per_category[k][m] = m(table_k). Each NaN
    value has its reason (`Tally.reason`).
    """
    if not isinstance(tally, Tally):
        msg = f"`tally` must be a Tally; got {type(tally).__name__}."
        raise InputTypeError(msg)
    micro = {name: float(tally.micro(name)) for name in MEASURES}
    macro = {name: float(tally.macro(name, undefined=undefined)) for name in MEASURES}
    per_measure = {name: tally.per_category(name) for name in MEASURES}
    per_category = {
        category: {name: float(per_measure[name][category]) for name in MEASURES}
        for category in tally.categories
    }
    micro_reasons = {
        name: tally.reason(name) or "undefined" for name, v in micro.items() if math.isnan(v)
    }
    category_reasons = {
        category: why
        for category, values in per_category.items()
        if (
            why := {
                n: tally.reason(n, category) or "undefined"
                for n, v in values.items()
                if math.isnan(v)
            }
        )
    }
    return TallySummary(
        documents=tally.documents,
        categories=tuple(tally.categories),
        conventions=tally.conventions,
        micro=micro,
        macro=macro,
        per_category=per_category,
        stats_table=tally.stats_table(),
        ignored=dict(tally.ignored),
        micro_reasons=micro_reasons,
        category_reasons=category_reasons,
    )


def tally_report(tally: Tally, *, undefined: str = "propagate") -> dict[str, Any]:
    """Every registry measure of a Tally, micro, macro and per category, as plain JSON values.

    micro[m] = m(pooled table); macro[m] = mean over categories of m(table_k) (policy
    `undefined`); per_category[k][m] = m(table_k). Under ``conventions=
    "statistics-contingency"`` accuracy, error, precision, recall and f_measure follow the
    Perl rules (Statistics::Contingency 0.09, as its source computes them). NaN is written
    as None, with the reason in "undefined".

    Parameters
    ----------
    tally : Tally
    undefined : {"propagate", "omit"}
        Passed to `Tally.macro`.

    Returns
    -------
    dict
        {"documents": n, "categories": [...], "conventions": str, "micro": {name: value},
        "macro": {name: value}, "per_category": {category: {name: value}},
        "stats_table": str, "ignored": {category: documents},
        "undefined": {"micro": {name: reason}, "per_category": {category: {name: reason}}}}.

    References
    ----------
    Statistics::Contingency 0.09 (Williams): micro/macro statistics, ``stats_table``;
    issue 3 (the JSON layout).

    >>> t = Tally(["x", "y"])
    >>> t.add_results([[1, 0]], [[1, 0]])
    >>> report = tally_report(t)
    >>> report["micro"]["f_measure"], report["per_category"]["y"]["precision"]
    (1.0, None)
    >>> report["undefined"]["per_category"]["y"]["precision"]
    'no +P predictions'
    """
    return summarize_tally(tally, undefined=undefined).to_dict()
