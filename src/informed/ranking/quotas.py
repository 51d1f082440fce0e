"""Curves of a Ranking by quota, exact under ties: hit rate, Qrecall, lift, Pearson.

The quota curves of Arbel & Rokach (2006), vectorised over the tie groups:

* positions k = 1..n are the rows in descending order of score. A tie group of m1 rows
  with m2 positives gives each of its positions t[k] = m2/m1 (eq. 5), so every cumulative
  curve is linear inside a group and no result depends on the input order;
* the cumulative number of positives in the top x positions, C(x) = sum_{k<=x} t[k], is
  evaluated at any real quota 0 <= x <= n (a group cut by the quota contributes the
  fraction of it that lies inside);
* hit_rate(j) = C(j)/j (eq. 4), qrecall(j) = C(j)/n+ (eq. 6), lift(j) = hit_rate(j)/(n+/n).

With weights, a row of weight w occupies w positions (frequency weights): integer weights
give exactly the results of repeated rows, and the curves extend linearly to non-integer
weights.

References
----------
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from informed._common import json_float
from informed.errors import InputError
from informed.measures.counts import ratio
from informed.ranking.groups import (
    FloatArray,
    Quotas,
    as_result,
    cumulative_positives,
    locate,
    positives_between,
    quota_array,
)
from informed.ranking.ranking import Ranking, groups_of

__all__ = [
    "LiftTable",
    "hit_rate",
    "json_quota",
    "lift",
    "lift_table",
    "optimal_qrecall",
    "qrecall",
    "random_qrecall",
    "threshold_at",
]


@overload
def hit_rate(ranking: Ranking, quota: float) -> float: ...
@overload
def hit_rate(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def hit_rate(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """HitRate(j) = sum_{k<=j} t[k] / j: the expected fraction of positives in the top j.

    Eq. 4 with the tie correction of eq. 5 (a tie group of m1 rows with m2 positives gives
    each position m2/m1). `quota` may be any real 0 <= j <= n, or an array of them; NaN
    at j = 0. HitRate(j) equals Precision(p[j]) when position j is not shared.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> hit_rate(r, [1, 2, 3, 4, 5]).round(3).tolist()  # Arbel & Rokach, Table 2
    [1.0, 0.5, 0.667, 0.75, 0.6]
    """
    x, scalar = quota_array(quota, ranking.n)
    return as_result(ratio(cumulative_positives(groups_of(ranking), x), x), scalar)


@overload
def qrecall(ranking: Ranking, quota: float) -> float: ...
@overload
def qrecall(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def qrecall(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """Qrecall(j) = sum_{k<=j} t[k] / n+: the share of all positives caught by quota j (eq. 6).

    NaN when there are no actual positives.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    ...     scores=[.45, .34, .32, .26, .15, .14, .09, .07, .06, .03], positive=1)
    >>> qrecall(r, [1, 2, 3, 4, 7]).tolist()  # Arbel & Rokach, Table 2
    [0.25, 0.25, 0.5, 0.75, 1.0]
    """
    x, scalar = quota_array(quota, ranking.n)
    groups = groups_of(ranking)
    return as_result(ratio(cumulative_positives(groups, x), groups.n_positive), scalar)


@overload
def random_qrecall(ranking: Ranking, quota: float) -> float: ...
@overload
def random_qrecall(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def random_qrecall(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """The expected Qrecall of a random order: j/n (Arbel & Rokach 2.3.4, Table 5 "Random")."""
    x, scalar = quota_array(quota, ranking.n)
    return as_result(ratio(x, float(ranking.n)), scalar)


@overload
def optimal_qrecall(ranking: Ranking, quota: float) -> float: ...
@overload
def optimal_qrecall(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def optimal_qrecall(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """The Qrecall of the optimal order, all positives first: min(j, n+)/n+ (Table 5)."""
    x, scalar = quota_array(quota, ranking.n)
    n_positive = float(ranking.n_positive)
    return as_result(ratio(np.minimum(x, n_positive), n_positive), scalar)


@overload
def lift(ranking: Ranking, quota: float) -> float: ...
@overload
def lift(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def lift(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """Cumulative lift at quota j: HitRate(j) / (n+/n) = Qrecall(j) / (j/n).

    NaN at j = 0 or with no actual positives. For the lift of each decile (or any bin)
    see `lift_table`.
    """
    x, scalar = quota_array(quota, ranking.n)
    groups = groups_of(ranking)
    rate = ratio(cumulative_positives(groups, x), x)
    return as_result(ratio(rate, ratio(groups.n_positive, groups.n)), scalar)


@overload
def threshold_at(ranking: Ranking, quota: float) -> float: ...
@overload
def threshold_at(ranking: Ranking, quota: Quotas) -> FloatArray: ...
def threshold_at(ranking: Ranking, quota: float | Quotas) -> float | FloatArray:
    """The score at position j: the lowest score admitted to a quota of j (p[j]).

    If position j lies inside a tie group, `score >= threshold` selects the whole group,
    more than j rows: the quota curves then count the group's fraction m2/m1 per position.
    NaN at j = 0.
    """
    x, scalar = quota_array(quota, ranking.n)
    if ranking.n_groups == 0:
        return as_result(np.full(x.shape, np.nan), scalar)
    where = locate(groups_of(ranking), x)
    return as_result(np.where(x > 0, ranking.scores[where.group], np.nan), scalar)


@dataclass(frozen=True)
class LiftTable:
    """Lift by bins of equal size (deciles by default), exact under ties.

    Bin b covers positions ((b-1) n/B, b n/B]; a bin edge inside a tie group (or inside a
    weighted row) takes the group's fraction m2/m1 per position, so the table never depends
    on the input order. `quota` holds the bins' upper edges.
    """

    quota: FloatArray
    positives: FloatArray  # expected positives in each bin
    bin_hit_rate: FloatArray  # positives / bin size
    lift: FloatArray  # bin_hit_rate / prevalence: Arbel & Rokach's lift of a decile
    hit_rate: FloatArray  # cumulative: HitRate(quota)
    cumulative_lift: FloatArray  # HitRate(quota) / prevalence
    cumulative_qrecall: FloatArray  # Qrecall(quota): the cumulative gains

    def to_records(self) -> list[dict[str, float | int | None]]:
        """One JSON-ready dict per bin (NaN as None, integral quotas as int)."""
        records = []
        for b in range(self.quota.size):
            record: dict[str, float | int | None] = {
                "bin": b + 1,
                "quota": json_quota(self.quota[b]),
            }
            for name in (
                "positives",
                "bin_hit_rate",
                "lift",
                "hit_rate",
                "cumulative_lift",
                "cumulative_qrecall",
            ):
                record[name] = json_float(getattr(self, name)[b])
            records.append(record)
        return records


def lift_table(ranking: Ranking, bins: int = 10) -> LiftTable:
    """Lift chart: per bin, the rate of positives over the overall rate (Arbel & Rokach 2.2.5).

    lift_b = (positives in bin b / bin size) / (n+ / n). With the tie correction, a
    constant scorer has lift 1 in every bin whatever the input order. Breaking ties by
    input order instead (as kds and scikit-plot do), 2 positives among 10 rows all scored
    0.5 give a first-decile lift of 5 when they come first and 0 when they come last.

    >>> from informed.ranking import Ranking
    >>> r = Ranking.from_scores(actual=[1, 1] + [0] * 8, scores=[0.5] * 10, positive=1)
    >>> table = lift_table(r)
    >>> table.lift[:3].tolist(), table.cumulative_qrecall[:3].round(12).tolist()
    ([1.0, 1.0, 1.0], [0.1, 0.2, 0.3])
    """
    if isinstance(bins, bool) or not isinstance(bins, int | np.integer) or bins < 1:
        msg = f"`bins` must be a positive integer; got {bins!r}."
        raise InputError(msg)
    groups = groups_of(ranking)
    edges = groups.n * np.arange(1, bins + 1) / bins
    edges[-1] = groups.n
    caught = cumulative_positives(groups, edges)
    in_bin = positives_between(groups, np.concatenate(([0.0], edges[:-1])), edges)
    prevalence = ratio(groups.n_positive, groups.n)
    bin_rate = ratio(in_bin, groups.n / bins)
    rate = ratio(caught, edges)
    return LiftTable(
        quota=edges,
        positives=in_bin,
        bin_hit_rate=bin_rate,
        lift=ratio(bin_rate, prevalence),
        hit_rate=rate,
        cumulative_lift=ratio(rate, prevalence),
        cumulative_qrecall=ratio(caught, groups.n_positive),
    )


def json_quota(value: Any) -> int | float:
    """A quota for JSON: an int when it is whole (10.0 -> 10), else the float."""
    value = float(value)
    return int(value) if value.is_integer() else value
