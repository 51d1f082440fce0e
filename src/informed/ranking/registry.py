"""The ranking registry: every measure of a Ranking once, with what reports need of it.

Arbel & Rokach (2006) define the measures of a ranking under a quota J (the J
highest-scored cases are acted on): the hit rate, Qrecall, lift and Pearson within the
quota, and three summaries over all quotas (average hit rate, average Qrecall, PEM),
beside the ROC curve and its area. Each `RankingMeasure` holds a measure's name, title,
definition, range, value under chance, whether it takes a quota, the rules under which
it is undefined (in the order they are tried) and its source. The text, JSON, CSV and
HTML reports and the ranking bootstrap all read their headings, definitions and reasons
here; `undefined_reason` turns the rules into words.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14):1619-1631.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

import numpy as np

from informed.errors import InputError
from informed.measures import MEASURE_NAMES, ByMeasure, MeasureNames
from informed.ranking.groups import Groups, cumulative_positives, quota_array
from informed.ranking.methods import use_registry
from informed.ranking.pearson import pearson, pearson_defined
from informed.ranking.quotas import (
    hit_rate,
    lift,
    optimal_qrecall,
    qrecall,
    random_qrecall,
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

__all__ = [
    "ANY_MEASURE_NAMES",
    "LIFT_COLUMNS",
    "RANKING_ALIASES",
    "RANKING_MEASURES",
    "RANKING_NAMES",
    "RANKING_RULES",
    "ByAnyMeasure",
    "RankingMeasure",
    "ranking_measure_name",
    "undefined_reason",
]

Value = TypeVar("Value")

_ARBEL_ROKACH = "Arbel & Rokach (2006)"

Kind = Literal["summary", "at_quota", "area", "curve"]


@dataclass(frozen=True)
class RankingMeasure:
    """One measure of a Ranking and what the reports need to know of it.

    Attributes
    ----------
    name : str
        The registry name: JSON key, CSV column, `undefined_reason` argument.
    title : str
        A human heading.
    definition : str
        What it is, as a formula or a sentence (plain ASCII, so a terminal prints it).
    low, high : float
        The range.
    chance : str or None
        Its value for a random order of the cases ("0.5", "prevalence", "J / n"), or None
        when it has no simple one.
    kind : {"summary", "at_quota", "area", "curve"}
        One number of the whole ranking; a value at each quota J; one of PEM's areas;
        a curve drawn in the HTML report.
    quota : {"none", "optional", "required"}
        Whether the function takes a quota J.
    undefined : tuple of str
        Keys of `RANKING_RULES`, tried in this order after "the ranking is empty": the
        first that holds is why the value is NaN.
    source : str
        The short citation of its definition (author, year, section or equation), as
        listed in the References of the documentation.
    function : callable or None
        The function of `informed.ranking` that computes it: f(ranking) for a summary,
        f(ranking, quota) at a quota.
    bootstrap : bool
        Whether `informed.inference.bootstrap_ranking` gives it an interval.
    """

    name: str
    title: str
    definition: str
    low: float
    high: float
    chance: str | None
    kind: Kind
    quota: Literal["none", "optional", "required"]
    undefined: tuple[str, ...]
    source: str
    function: Callable[..., Any] | None = None
    bootstrap: bool = False


@dataclass(frozen=True)
class _Case:
    """What a rule looks at: the ranking, its tie groups, the quota (None for none)."""

    ranking: Ranking
    groups: Groups
    quota: float | None


def _infinite_in_quota(case: _Case) -> bool:
    infinite = np.flatnonzero(~np.isfinite(case.ranking.scores)).tolist()
    return case.quota is not None and any(case.quota > case.groups.total_at(g) for g in infinite)


def _constant_outcome(case: _Case) -> bool:
    if case.quota is None:
        return False
    x = np.array([case.quota])
    return not bool(pearson_defined(case.ranking, case.groups, x)[0])


RANKING_RULES: dict[str, tuple[Callable[[_Case], bool], Callable[[_Case], str]]] = {
    "no_positives": (
        lambda c: c.groups.n_positive == 0,
        lambda c: "no actual positives (n+ = 0)",
    ),
    "no_negatives": (
        lambda c: c.groups.n_negative == 0,
        lambda c: "no actual negatives (n- = 0)",
    ),
    "empty_quota": (lambda c: c.quota == 0, lambda c: "an empty quota (J = 0)"),
    "fractional_counts": (
        lambda c: not integral_counts(c.ranking),
        lambda c: "S1 and S2 need integer counts (positions)",
    ),
    "quota_below_positives": (
        lambda c: c.quota is not None and c.quota < c.groups.n_positive,
        lambda c: (
            f"the quota J = {c.quota:g} is below n+ = {c.groups.n_positive:g}, where the "
            "average over J = n+ ... n starts"
        ),
    ),
    "no_positives_in_quota": (
        lambda c: (
            c.quota is not None
            and float(cumulative_positives(c.groups, np.array([c.quota]))[0]) == 0
        ),
        lambda c: "no positives within the quota (the average is weighted by t[j])",
    ),
    "infinite_in_quota": (_infinite_in_quota, lambda c: "an infinite score within the quota"),
    "tied_quota": (
        lambda c: c.quota is not None and c.quota <= c.groups.size[0],
        lambda c: "all scores within the quota are tied (sigma_p = 0)",
    ),
    "constant_outcome": (
        _constant_outcome,
        lambda c: "all outcomes t[k] within the quota are equal (sigma_t = 0)",
    ),
}
"""Why a ranking measure is undefined: rule key -> (does it hold?, the reason in words)."""

_INF = float("inf")

_REGISTERED = (
    RankingMeasure(
        "auc",
        "AUC",
        "P(a positive scores above a negative), a tied pair counting 1/2: the area under "
        "the ROC curve",
        0.0,
        1.0,
        "0.5",
        "summary",
        "none",
        ("no_positives", "no_negatives"),
        f"{_ARBEL_ROKACH}, sec. 2.3.1",
        auc,
        bootstrap=True,
    ),
    RankingMeasure(
        "average_hit_rate",
        "Average hit rate",
        "sum_j t[j] HitRate(j) / n+: the hit rate averaged at each positive",
        0.0,
        1.0,
        "prevalence",
        "summary",
        "optional",
        ("no_positives", "no_positives_in_quota"),
        f"{_ARBEL_ROKACH}, eq. 12",
        average_hit_rate,
        bootstrap=True,
    ),
    RankingMeasure(
        "average_qrecall",
        "Average Qrecall",
        "the mean of Qrecall(j) over the quotas j = n+ ... n",
        0.0,
        1.0,
        None,
        "summary",
        "optional",
        ("no_positives", "quota_below_positives"),
        f"{_ARBEL_ROKACH}, eq. 13",
        average_qrecall,
        bootstrap=True,
    ),
    RankingMeasure(
        "pem",
        "PEM",
        "(S1 - S2) / S3 = 2 AUC - 1: the area gained over a random order, over the most possible",
        -1.0,
        1.0,
        "0",
        "summary",
        "optional",
        ("no_positives", "no_negatives", "empty_quota"),
        f"{_ARBEL_ROKACH}, eq. 14-15",
        pem,
        bootstrap=True,
    ),
    RankingMeasure(
        "s1",
        "S1",
        "the area of the Qrecall curve above the random order",
        0.0,
        _INF,
        None,
        "area",
        "none",
        ("no_positives", "fractional_counts"),
        f"{_ARBEL_ROKACH}, eq. 14",
    ),
    RankingMeasure(
        "s2",
        "S2",
        "the area of the Qrecall curve below the random order",
        0.0,
        _INF,
        None,
        "area",
        "none",
        ("no_positives", "fractional_counts"),
        f"{_ARBEL_ROKACH}, eq. 14",
    ),
    RankingMeasure(
        "s3",
        "S3",
        "the area of the optimal order above the random one, n- / 2",
        0.0,
        _INF,
        None,
        "area",
        "none",
        ("no_positives", "fractional_counts"),
        f"{_ARBEL_ROKACH}, eq. 15",
    ),
    RankingMeasure(
        "hit_rate",
        "Hit rate",
        "C(J) / J: the share of positives among the top J (precision at J)",
        0.0,
        1.0,
        "prevalence",
        "at_quota",
        "required",
        ("empty_quota",),
        f"{_ARBEL_ROKACH}, eq. 4-5",
        hit_rate,
        bootstrap=True,
    ),
    RankingMeasure(
        "qrecall",
        "Qrecall",
        "C(J) / n+: the share of all positives caught in the top J (the gain)",
        0.0,
        1.0,
        "J / n",
        "at_quota",
        "required",
        ("no_positives",),
        f"{_ARBEL_ROKACH}, eq. 6-7",
        qrecall,
        bootstrap=True,
    ),
    RankingMeasure(
        "lift",
        "Lift",
        "HitRate(J) / (n+ / n): the hit rate over the prevalence (cumulative lift)",
        0.0,
        _INF,
        "1",
        "at_quota",
        "required",
        ("no_positives", "empty_quota"),
        f"{_ARBEL_ROKACH}, sec. 2.2.5",
        lift,
        bootstrap=True,
    ),
    RankingMeasure(
        "pearson",
        "Pearson",
        "the correlation of score p[k] and outcome t[k] over the positions k = 1 ... J",
        -1.0,
        1.0,
        "0",
        "at_quota",
        "required",
        ("empty_quota", "infinite_in_quota", "tied_quota", "constant_outcome"),
        f"{_ARBEL_ROKACH}, eq. 8-11",
        pearson,
        bootstrap=True,
    ),
    RankingMeasure(
        "threshold",
        "Threshold",
        "the score at position J: score >= it selects the top J (a whole tie group)",
        -_INF,
        _INF,
        None,
        "at_quota",
        "required",
        ("empty_quota",),
        f"{_ARBEL_ROKACH}, sec. 2.2",
        threshold_at,
    ),
    RankingMeasure(
        "random_qrecall",
        "Random Qrecall",
        "J / n: the Qrecall of a random order",
        0.0,
        1.0,
        "J / n",
        "curve",
        "required",
        (),
        f"{_ARBEL_ROKACH}, Table 5",
        random_qrecall,
    ),
    RankingMeasure(
        "optimal_qrecall",
        "Optimal Qrecall",
        "min(J, n+) / n+: the Qrecall of the order with every positive first",
        0.0,
        1.0,
        None,
        "curve",
        "required",
        ("no_positives",),
        f"{_ARBEL_ROKACH}, Table 5",
        optimal_qrecall,
    ),
    RankingMeasure(
        "roc_curve",
        "ROC curve",
        "(fallout, recall) after each tie group, from (0, 0) to (1, 1)",
        0.0,
        1.0,
        "the diagonal",
        "curve",
        "none",
        ("no_positives", "no_negatives"),
        f"{_ARBEL_ROKACH}, sec. 2.2.2",
    ),
)

RANKING_MEASURES: dict[str, RankingMeasure] = {m.name: m for m in _REGISTERED}
"""The ranking registry: every measure of a Ranking by name, in report order."""

use_registry(RANKING_MEASURES)  # the methods r.auc(), r.pem(), ... call these functions

RANKING_ALIASES = {"auc": ("roc_auc", "ROC AUC", "AUROC", "area under the ROC curve")}
"""The names scikit-learn and the literature give the ranking measures, besides titles."""

RANKING_NAMES = MeasureNames(
    {name: (m.title, *RANKING_ALIASES.get(name, ())) for name, m in RANKING_MEASURES.items()}
)
"""Every name of a ranking measure (registry name, title, alias; any case)."""

ANY_MEASURE_NAMES = MEASURE_NAMES | RANKING_NAMES
"""Every name of a contingency or a ranking measure."""


class ByAnyMeasure(ByMeasure[Value]):
    """A dict by registry name (contingency or ranking measures) whose lookups take any
    name of a measure (`informed.measures.ByMeasure`): ``result["AUROC"]``; `names` is
    what resolves them (`ANY_MEASURE_NAMES`)."""

    names: ClassVar[MeasureNames] = ANY_MEASURE_NAMES


def ranking_measure_name(name: Any, among: Iterable[str] | None = None) -> str:
    """The registry name of a ranking measure given by any of its names; with `among`,
    one of those.

    >>> ranking_measure_name("AUROC"), ranking_measure_name("average hit rate")
    ('auc', 'average_hit_rate')
    """
    return RANKING_NAMES.resolve(name, among, "ranking measure")


_ALIASES = {"pem_areas": "s1"}
"""Older names `undefined_reason` still answers for: S1, S2 and S3 share their rules."""

LIFT_COLUMNS: dict[str, tuple[str, str]] = {
    "bin": ("bin", "the bin's number, top scores first"),
    "quota": ("up to J", "the bin's upper edge: the quota J that ends it"),
    "positives": ("positives", "the (expected) positives in the bin"),
    "bin_hit_rate": ("hit rate", "positives in the bin / its size"),
    "lift": ("lift", "the bin's hit rate / the prevalence"),
    "hit_rate": ("cum. hit rate", "HitRate(J) of the top J, J the bin's upper edge"),
    "cumulative_lift": ("cum. lift", "HitRate(J) / the prevalence"),
    "cumulative_qrecall": ("cum. Qrecall", "Qrecall(J): the cumulative gain"),
}
"""The lift table's columns (`lift_table(...).to_records()` keys): (heading, meaning)."""


def undefined_reason(ranking: Ranking, measure: str, quota: float | None = None) -> str | None:
    """Why `measure` is NaN on this ranking (at `quota`), or None if it is defined.

    `measure` is a name of `RANKING_MEASURES` (or "pem_areas", S1 to S3 together); those
    whose `quota` is "required" need the `quota`. The reasons are the registry's rules.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[0, 0], scores=[.2, .1], positive=1, negative=0)
    >>> undefined_reason(r, "auc")
    'no actual positives (n+ = 0)'
    """
    name = _ALIASES[measure] if measure in _ALIASES else ranking_measure_name(measure)
    entry = RANKING_MEASURES[name]
    if entry.quota == "required" and quota is None:
        msg = f"`{measure}` is a curve: pass the `quota` at which it is undefined or not."
        raise InputError(msg)
    x = None if quota is None else float(quota_array(quota, ranking.n)[0])
    case = _Case(ranking, groups_of(ranking), x)
    if case.groups.n == 0:
        return "no data: the ranking is empty"
    for key in entry.undefined:
        holds, reason = RANKING_RULES[key]
        if holds(case):
            return reason(case)
    return None
