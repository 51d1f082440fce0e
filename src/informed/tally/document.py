"""The JSON document of a Tally: every registry measure, micro, macro and per category."""

from __future__ import annotations

from typing import Any

from informed._common import json_float
from informed.errors import InputTypeError
from informed.measures import MEASURES
from informed.tally.tally import Tally

__all__ = ["tally_report"]


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
    if not isinstance(tally, Tally):
        msg = f"`tally` must be a Tally; got {type(tally).__name__}."
        raise InputTypeError(msg)
    micro = {name: json_float(tally.micro(name)) for name in MEASURES}
    macro = {name: json_float(tally.macro(name, undefined=undefined)) for name in MEASURES}
    per_measure = {name: tally.per_category(name) for name in MEASURES}
    per_category = {
        category: {name: json_float(per_measure[name][category]) for name in MEASURES}
        for category in tally.categories
    }
    undefined_micro = {name: tally.reason(name) for name, value in micro.items() if value is None}
    undefined_per_category = {
        category: {
            name: tally.reason(name, category) for name, value in values.items() if value is None
        }
        for category, values in per_category.items()
    }
    return {
        "documents": tally.documents,
        "categories": list(tally.categories),
        "conventions": tally.conventions,
        "micro": micro,
        "macro": macro,
        "per_category": per_category,
        "stats_table": tally.stats_table(),
        "ignored": tally.ignored,
        "undefined": {
            "micro": undefined_micro,
            "per_category": {k: v for k, v in undefined_per_category.items() if v},
        },
    }
