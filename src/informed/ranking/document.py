"""Every summary of a Ranking, computed once: `RankingSummary` and its JSON document.

`summarize_ranking` evaluates the registry's summaries, PEM's areas, the measures at the
quotas asked for and the lift table, each undefined value with its reason; the reports
(text, JSON, CSV, HTML) format that one object. `ranking_report` is its JSON document.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from informed._common import json_float
from informed.ranking.groups import quota_array
from informed.ranking.quotas import LiftTable, json_quota, lift_table
from informed.ranking.ranking import Ranking
from informed.ranking.registry import RANKING_MEASURES, ByAnyMeasure, undefined_reason
from informed.ranking.summaries import pem_areas

__all__ = [
    "AREAS",
    "QUOTA_MEASURES",
    "SUMMARIES",
    "RankingSummary",
    "quota_key",
    "ranking_report",
    "summarize_ranking",
]

SUMMARIES = tuple(n for n, m in RANKING_MEASURES.items() if m.kind == "summary")
"""The summaries of a whole ranking, in report order (AUC, average hit rate, ...)."""
AREAS = tuple(n for n, m in RANKING_MEASURES.items() if m.kind == "area")
"""PEM's areas S1, S2, S3."""
QUOTA_MEASURES = tuple(n for n, m in RANKING_MEASURES.items() if m.kind == "at_quota")
"""The measures reported at each quota J (hit rate, Qrecall, lift, Pearson, threshold)."""


def quota_key(value: Any) -> str:
    """A quota as a JSON key: "10" for 10 or 10.0, "2.5" for 2.5."""
    return str(json_quota(value))


@dataclass(frozen=True)
class RankingSummary:
    """Every summary of one Ranking, each undefined value with its reason.

    Attributes
    ----------
    n, n_positive, n_negative : float
        The ranking's size and its actual positives and negatives (weights summed).
    values : dict
        Name -> value of each summary (`SUMMARIES`) and area (`AREAS`); NaN if undefined.
    reasons : dict
        Name -> why its value is NaN, for each undefined one.
    at_quota : dict
        Quota key ("10") -> measure name (`QUOTA_MEASURES`) -> value.
    quota_reasons : dict
        Quota key -> measure name -> why it is NaN there.
    lift : LiftTable
        The lift table of `bins` bins.
    bins : int
    """

    n: float
    n_positive: float
    n_negative: float
    values: Mapping[str, float]
    reasons: Mapping[str, str]
    at_quota: Mapping[str, Mapping[str, float]]
    quota_reasons: Mapping[str, Mapping[str, str]]
    lift: LiftTable
    bins: int

    def __post_init__(self) -> None:
        # any name of a measure finds its value: values["AUROC"], at_quota["10"]["Lift"]
        object.__setattr__(self, "values", ByAnyMeasure(self.values))
        object.__setattr__(self, "reasons", ByAnyMeasure(self.reasons))
        for name in ("at_quota", "quota_reasons"):
            found = {quota: ByAnyMeasure(by) for quota, by in getattr(self, name).items()}
            object.__setattr__(self, name, found)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (NaN as None): see `ranking_report`."""
        at_quota: dict[str, dict[str, Any]] = {}
        for key, values in self.at_quota.items():
            entry: dict[str, Any] = {name: json_float(v) for name, v in values.items()}
            if self.quota_reasons.get(key):
                entry["undefined"] = dict(self.quota_reasons[key])
            at_quota[key] = entry
        document: dict[str, Any] = {name: json_float(self.values[name]) for name in SUMMARIES}
        document["pem_areas"] = {name: json_float(self.values[name]) for name in AREAS}
        document["at_quota"] = at_quota
        document["deciles"] = self.lift.to_records()
        undefined = {k: v for k, v in self.reasons.items() if k in SUMMARIES}
        if undefined:
            document["undefined"] = undefined
        shown = SUMMARIES + AREAS + (QUOTA_MEASURES if self.at_quota else ())
        document["definitions"] = {
            name: {
                "title": RANKING_MEASURES[name].title,
                "definition": RANKING_MEASURES[name].definition,
                "range": value_range(RANKING_MEASURES[name].low, RANKING_MEASURES[name].high),
                "chance": RANKING_MEASURES[name].chance,
                "source": RANKING_MEASURES[name].source,
            }
            for name in shown
        }
        return document


def value_range(low: float, high: float) -> str:
    """A range in ASCII, with an open bracket at an infinite end: "[0, 1]", "[0, inf)"."""
    return (
        f"{'(' if low == float('-inf') else '['}{low:g}, {high:g}"
        f"{')' if high == float('inf') else ']'}"
    )


def summarize_ranking(
    ranking: Ranking, quotas: Sequence[float] = (), bins: int = 10
) -> RankingSummary:
    """Every summary of `ranking`, the measures at `quotas` and the lift table, once.

    Quotas are checked to lie in [0, n]. Each NaN value has its reason from the registry's
    rules (`undefined_reason`).

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[.9, .8, .3, .1], positive=1)
    >>> summary = summarize_ranking(r, quotas=[2])
    >>> summary.values["auc"], summary.at_quota["2"]["hit_rate"]
    (0.75, 0.5)
    """
    values: dict[str, float] = {}
    reasons: dict[str, str] = {}
    for name in SUMMARIES:
        function = RANKING_MEASURES[name].function
        assert function is not None
        values[name] = float(function(ranking))
    values.update(zip(AREAS, (float(v) for v in pem_areas(ranking)), strict=True))
    for name, value in values.items():
        if value != value:  # nan
            reasons[name] = undefined_reason(ranking, name) or "undefined"
    at_quota: dict[str, dict[str, float]] = {}
    quota_reasons: dict[str, dict[str, str]] = {}
    if len(quotas):
        x, _ = quota_array(list(quotas), ranking.n)
        curves = {}
        for name in QUOTA_MEASURES:
            function = RANKING_MEASURES[name].function
            assert function is not None
            curves[name] = function(ranking, x)
        for i, value in enumerate(x.tolist()):
            key = quota_key(value)
            at_quota[key] = {name: float(curve[i]) for name, curve in curves.items()}
            why = {
                name: undefined_reason(ranking, name, value) or "undefined"
                for name, v in at_quota[key].items()
                if v != v
            }
            if why:
                quota_reasons[key] = why
    return RankingSummary(
        n=float(ranking.n),
        n_positive=float(ranking.n_positive),
        n_negative=float(ranking.n_negative),
        values=values,
        reasons=reasons,
        at_quota=at_quota,
        quota_reasons=quota_reasons,
        lift=lift_table(ranking, bins),
        bins=bins,
    )


def ranking_report(
    ranking: Ranking, quotas: Sequence[float] = (), bins: int = 10
) -> dict[str, Any]:
    """Every summary of a Ranking as JSON-ready plain Python values (NaN as None).

    Keys: "auc", "average_hit_rate", "average_qrecall", "pem"; "pem_areas" {"s1", "s2",
    "s3"}; "at_quota" mapping each quota J (as a string, "10" for 10 or 10.0) to its
    "hit_rate", "qrecall", "lift" (cumulative), "pearson" and "threshold"; "deciles", one
    dict per bin of `lift_table(ranking, bins)` (bin, quota, positives, bin_hit_rate,
    lift, hit_rate, cumulative_lift, cumulative_qrecall); and "definitions", each
    reported measure's title, definition, range, chance value and source from the
    registry `RANKING_MEASURES`. Where a value is None, an "undefined" mapping beside it
    (in the report, or in the quota's entry) says why.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[.9, .8, .3, .1], positive=1)
    >>> report = ranking_report(r, quotas=[2])
    >>> report["auc"], report["at_quota"]["2"]["hit_rate"], report["at_quota"]["2"]["threshold"]
    (0.75, 0.5, 0.8)
    """
    return summarize_ranking(ranking, quotas, bins).to_dict()
