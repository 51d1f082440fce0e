"""The JSON document of a Ranking, and why a measure of it is undefined.

`ranking_report` gathers every summary, the curves at chosen quotas and the lift table
into plain JSON values (NaN as None); `undefined_reason` explains each None in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from informed._common import json_float
from informed.errors import InputError
from informed.ranking.groups import Groups, cumulative_positives, quota_array
from informed.ranking.quotas import (
    hit_rate,
    json_quota,
    lift,
    lift_table,
    pearson,
    pearson_defined,
    qrecall,
    threshold_at,
)
from informed.ranking.ranking import Ranking, groups_of
from informed.ranking.summaries import (
    auc,
    average_hit_rate,
    average_qrecall,
    integral_counts,
    pem,
)

__all__ = ["ranking_report", "undefined_reason"]

_QUOTA_MEASURES = (
    "hit_rate",
    "qrecall",
    "random_qrecall",
    "optimal_qrecall",
    "lift",
    "pearson",
    "threshold",
)
_SUMMARIES = ("auc", "roc_curve", "average_hit_rate", "average_qrecall", "pem", "pem_areas")


def undefined_reason(ranking: Ranking, measure: str, quota: float | None = None) -> str | None:
    """Why `measure` is NaN on this ranking (at `quota`), or None if it is defined.

    Measures: auc, roc_curve, average_hit_rate, average_qrecall, pem, pem_areas (each with
    an optional quota where it takes one), and hit_rate, qrecall, random_qrecall,
    optimal_qrecall, lift, pearson, threshold (quota required).

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[0, 0], scores=[.2, .1], positive=1, negative=0)
    >>> undefined_reason(r, "auc")
    'no actual positives (n+ = 0)'
    """
    if measure not in _QUOTA_MEASURES + _SUMMARIES:
        msg = f"`measure` must be one of {sorted(_QUOTA_MEASURES + _SUMMARIES)}; got {measure!r}."
        raise InputError(msg)
    if measure in _QUOTA_MEASURES and quota is None:
        msg = f"`{measure}` is a curve: pass the `quota` at which it is undefined or not."
        raise InputError(msg)
    x = None if quota is None else float(quota_array(quota, ranking.n)[0])
    groups = groups_of(ranking)
    no_positives = "no actual positives (n+ = 0)"
    no_negatives = "no actual negatives (n- = 0)"
    if groups.n == 0:
        return "no data: the ranking is empty"
    if measure in ("auc", "roc_curve"):
        return (
            no_positives
            if groups.n_positive == 0
            else (no_negatives if groups.n_negative == 0 else None)
        )
    needs_positives = ("qrecall", "optimal_qrecall", "pem_areas", "average_qrecall")
    if measure in (*needs_positives, "average_hit_rate") and groups.n_positive == 0:
        return no_positives
    if measure == "pem_areas":
        return None if integral_counts(ranking) else "S1 and S2 need integer counts (positions)"
    if measure == "pem":
        if groups.n_positive == 0:
            return no_positives
        if groups.n_negative == 0:
            return no_negatives
        return "an empty quota (J = 0)" if x == 0 else None
    if measure == "average_qrecall":
        if x is not None and x < groups.n_positive:
            return f"the quota {x:g} is below n+ = {groups.n_positive:g}, where eq. 13 starts"
        return None
    if measure == "average_hit_rate":
        if x is not None and float(cumulative_positives(groups, np.array([x]))[0]) == 0:
            return "no positives within the quota (the average is weighted by t[j])"
        return None
    if measure in ("qrecall", "optimal_qrecall", "random_qrecall"):
        return None
    if measure == "lift" and groups.n_positive == 0:
        return no_positives
    if x == 0:
        return "an empty quota (j = 0)"
    if measure == "pearson":
        assert x is not None
        return _pearson_reason(ranking, groups, x)
    return None


def _pearson_reason(ranking: Ranking, groups: Groups, x: float) -> str | None:
    infinite = np.flatnonzero(~np.isfinite(ranking.scores))
    if any(x > groups.start[g] for g in infinite.tolist()):
        return "an infinite score within the quota"
    if x <= groups.size[0]:
        return "all scores within the quota are tied (sigma_p = 0)"
    if not pearson_defined(ranking, groups, np.array([x]))[0]:
        return "all outcomes t[k] within the quota are equal (sigma_t = 0)"
    return None


def _quota_key(value: Any) -> str:
    return str(json_quota(value))


def ranking_report(
    ranking: Ranking, quotas: Sequence[float] = (), bins: int = 10
) -> dict[str, Any]:
    """Every summary of a Ranking as JSON-ready plain Python values (NaN as None).

    Keys: "auc", "average_hit_rate", "average_qrecall", "pem"; "at_quota" mapping each
    quota J (as a string, "10" for 10 or 10.0) to its "hit_rate", "qrecall", "lift"
    (cumulative), "pearson" and "threshold"; and "deciles", one dict per bin of
    `lift_table(ranking, bins)` (bin, quota, positives, bin_hit_rate, lift, hit_rate,
    cumulative_lift, cumulative_qrecall). Where a value is None, an "undefined" mapping
    beside it (in the report, or in the quota's entry) says why.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[.9, .8, .3, .1], positive=1)
    >>> report = ranking_report(r, quotas=[2])
    >>> report["auc"], report["at_quota"]["2"]["hit_rate"], report["at_quota"]["2"]["threshold"]
    (0.75, 0.5, 0.8)
    """
    at_quota: dict[str, dict[str, Any]] = {}
    if len(quotas):
        values, _ = quota_array(list(quotas), ranking.n)
        measures = {
            "hit_rate": hit_rate(ranking, values),
            "qrecall": qrecall(ranking, values),
            "lift": lift(ranking, values),
            "pearson": pearson(ranking, values),
            "threshold": threshold_at(ranking, values),
        }
        for i, value in enumerate(values.tolist()):
            entry: dict[str, Any] = {name: json_float(v[i]) for name, v in measures.items()}
            reasons = {
                name: undefined_reason(ranking, name, value) or "undefined"
                for name in measures
                if entry[name] is None
            }
            if reasons:
                entry["undefined"] = reasons
            at_quota[_quota_key(value)] = entry
    report: dict[str, Any] = {
        "auc": json_float(auc(ranking)),
        "average_hit_rate": json_float(average_hit_rate(ranking)),
        "average_qrecall": json_float(average_qrecall(ranking)),
        "pem": json_float(pem(ranking)),
        "at_quota": at_quota,
        "deciles": lift_table(ranking, bins).to_records(),
    }
    undefined = {
        name: undefined_reason(ranking, name) or "undefined"
        for name in ("auc", "average_hit_rate", "average_qrecall", "pem")
        if report[name] is None
    }
    if undefined:
        report["undefined"] = undefined
    return report
