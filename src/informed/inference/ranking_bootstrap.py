"""Bootstrap intervals of the ranking measures, by resampling a Ranking's tie groups.

Other ranking measures than AUC (PEM, average hit rate, average Qrecall, the curves at a
quota) have no DeLong variance; they get percentile bootstrap intervals. A case bootstrap
of the rows is a multinomial draw over the tie groups, so no row is needed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from informed._common import readonly
from informed.errors import InputError, InputTypeError
from informed.inference.checks import (
    check_cases,
    check_count,
    check_level,
    check_ranking,
    check_seed,
)
from informed.inference.display import intervals_html, intervals_lines
from informed.inference.interval import Interval, nan_interval
from informed.inference.replicates import replicate_interval
from informed.ranking import RANKING_MEASURES, ByAnyMeasure, Ranking
from informed.ranking import undefined_reason as ranking_reason
from informed.ranking.document import quota_key

__all__ = [
    "RANKING_QUOTA_MEASURES",
    "RANKING_SUMMARIES",
    "RankingBootstrap",
    "bootstrap_ranking",
    "draw_counts",
    "no_case_reason",
]

Floats = NDArray[np.float64]

RANKING_SUMMARIES: dict[str, Callable[[Ranking], float]] = {
    m.name: m.function
    for m in RANKING_MEASURES.values()
    if m.bootstrap and m.kind == "summary" and m.function is not None
}
"""Summary measures of a Ranking that `bootstrap_ranking` resamples (from the registry
`informed.ranking.RANKING_MEASURES`: AUC, average hit rate, average Qrecall, PEM)."""

RANKING_QUOTA_MEASURES: dict[str, Callable[[Ranking, float], float]] = {
    m.name: m.function
    for m in RANKING_MEASURES.values()
    if m.bootstrap and m.kind == "at_quota" and m.function is not None
}
"""Measures of a Ranking at a quota (a number of top positions) that `bootstrap_ranking`
resamples (from the registry: hit rate, Qrecall, lift, Pearson)."""


@dataclass(frozen=True, eq=False)
class RankingBootstrap:
    """Percentile bootstrap intervals of ranking measures.

    Attributes
    ----------
    ranking : Ranking
    level : float
    replicates : int
    stratified : bool
        True: positives and negatives were resampled separately (n+ and n- fixed).
    intervals : dict
        Summary name ("auc", "pem", "average_hit_rate", "average_qrecall") -> Interval.
    at_quota : dict
        Quota key (as in `ranking_report`: "10" for 10 positions) -> measure name
        ("hit_rate", "qrecall", "lift", "pearson") -> Interval.
    distribution : dict
        Summary name -> replicate values; and "name@quota" -> replicate values.
    method : str
        How the intervals were read from the replicates: "percentile".
    """

    ranking: Ranking
    level: float
    replicates: int
    stratified: bool
    intervals: dict[str, Interval]
    at_quota: dict[str, dict[str, Interval]]
    distribution: dict[str, Floats] = field(repr=False)
    method: str = "percentile"

    def __post_init__(self) -> None:
        # any name of a measure finds its interval: intervals["AUROC"], at_quota["10"]["lift"]
        object.__setattr__(self, "intervals", ByAnyMeasure(self.intervals))
        found = {quota: ByAnyMeasure(by) for quota, by in self.at_quota.items()}
        object.__setattr__(self, "at_quota", found)

    def _heading(self) -> str:
        how = "stratified" if self.stratified else "unstratified"
        return (
            f"Bootstrap of a Ranking of {self.ranking.n:g} cases: {100 * self.level:g} % "
            f"{self.method} intervals, {self.replicates:,} {how} replicates"
        )

    def __repr__(self) -> str:
        """A heading, then one line per summary measure (at most twelve)."""
        return "\n".join([self._heading(), *intervals_lines(self.intervals)])

    def _repr_html_(self) -> str:
        """A notebook's view: each summary's interval, then each quota's."""
        return intervals_html(
            self._heading(), self.intervals, self.at_quota, group_caption="at quota"
        )


def bootstrap_ranking(
    ranking: Ranking,
    *,
    quotas: Sequence[float] = (),
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    stratified: bool = True,
) -> RankingBootstrap:
    r"""Percentile bootstrap intervals of AUC, PEM, average hit rate, average Qrecall and
    the quota curves (hit rate, Qrecall, lift, Pearson) of a Ranking.

    A case bootstrap of the rows is a multinomial draw over the tie groups: the cases
    resampled from group g keep its score, so a replicate is a Ranking over the same
    scores with resampled counts, and no row is needed.

    Parameters
    ----------
    ranking : Ranking
    quotas : sequence of float
        Positions (numbers of top cases) at which to bootstrap the quota curves.
    replicates : int
    level : float
    seed : int or numpy.random.Generator, optional
    stratified : bool
        True (default): resample the positives and the negatives separately,
        pos* ~ Multinomial(n+, positives / n+) and neg* ~ Multinomial(n-, negatives / n-),
        so every replicate has the observed n+ and n-. AUC and PEM are defined
        conditionally on the two classes (DeLong's variance treats n+ and n- as fixed),
        the replicates are never undefined for want of a class, and it is pROC's default.
        False: one multinomial over all 2 x groups cells with n draws, the analogue of
        `informed.inference.bootstrap` of a Table; it adds the sampling variation of the
        prevalence, which the quota curves (hit rate, lift) depend on.

    Returns
    -------
    RankingBootstrap

    Notes
    -----
    Weighted rankings are read as frequency weights, as in `bootstrap`: round(total)
    cases per class are drawn and the counts scaled back to the weights. The cost is
    O(B groups): each replicate is evaluated by the Ranking functions of
    `informed.ranking`. Percentile intervals only; BCa would need a jackknife over
    2 x groups deletions, each O(groups).

    >>> r = Ranking.from_scores(actual=[1, 1, 0, 1, 0, 0, 1, 0], scores=range(8, 0, -1),
    ...                         positive=1)
    >>> result = bootstrap_ranking(r, quotas=[4], replicates=200, seed=0)
    >>> result.intervals["auc"].estimate, sorted(result.at_quota["4"])
    (0.75, ['hit_rate', 'lift', 'pearson', 'qrecall'])
    """
    ranking = check_ranking(ranking)
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    rng = check_seed(seed)
    if not isinstance(stratified, bool):
        msg = f"`stratified` must be True or False; got {stratified!r}."
        raise InputTypeError(msg)
    quota_values = [float(q) for q in quotas]
    for q in quota_values:
        if not 0.0 <= q <= float(ranking.n) or math.isnan(q):
            msg = f"`quota` must lie between 0 and n = {float(ranking.n):g}; got {q:g}."
            raise InputError(msg)
    positives = np.asarray(ranking.positives, dtype=np.float64)
    negatives = np.asarray(ranking.negatives, dtype=np.float64)
    groups = positives.size
    if stratified:
        pos, pos_scale = draw_counts(rng, positives, replicates)
        neg, neg_scale = draw_counts(rng, negatives, replicates)
        pos, neg = pos * pos_scale, neg * neg_scale
    else:
        both, scale = draw_counts(rng, np.concatenate([positives, negatives]), replicates)
        both = both * scale
        pos, neg = both[:, :groups], both[:, groups:]
    weighted = ranking.weighted
    names = [
        *RANKING_SUMMARIES,
        *(f"{m}@{quota_key(q)}" for q in quota_values for m in RANKING_QUOTA_MEASURES),
    ]
    values = {name: np.full(replicates, np.nan) for name in names}
    for row in range(replicates):
        keep = (pos[row] + neg[row]) > 0
        if not keep.any():
            continue
        counts_p = pos[row][keep] if weighted else np.rint(pos[row][keep]).astype(np.int64)
        counts_n = neg[row][keep] if weighted else np.rint(neg[row][keep]).astype(np.int64)
        replicate = Ranking(scores=ranking.scores[keep], positives=counts_p, negatives=counts_n)
        with np.errstate(divide="ignore", invalid="ignore"):
            for name, function in RANKING_SUMMARIES.items():
                values[name][row] = function(replicate)
            for q in quota_values:
                for name, quota_function in RANKING_QUOTA_MEASURES.items():
                    values[f"{name}@{quota_key(q)}"][row] = quota_function(replicate, q)

    intervals: dict[str, Interval] = {}
    for name, function in RANKING_SUMMARIES.items():
        estimate = float(function(ranking))
        intervals[name] = _ranking_interval(
            estimate, values[name], level, ranking_reason(ranking, name)
        )
    at_quota: dict[str, dict[str, Interval]] = {}
    for q in quota_values:
        key = quota_key(q)
        at_quota[key] = {}
        for name, quota_function in RANKING_QUOTA_MEASURES.items():
            with np.errstate(divide="ignore", invalid="ignore"):
                estimate = float(quota_function(ranking, q))
            at_quota[key][name] = _ranking_interval(
                estimate, values[f"{name}@{key}"], level, ranking_reason(ranking, name, q)
            )
    for array in values.values():
        readonly(array)
    return RankingBootstrap(
        ranking=ranking,
        level=level,
        replicates=replicates,
        stratified=stratified,
        intervals=intervals,
        at_quota=at_quota,
        distribution=values,
    )


def draw_counts(rng: np.random.Generator, counts: Floats, replicates: int) -> tuple[Floats, float]:
    """Multinomial(round(total), counts / total) draws (one row per replicate), and the
    factor back to the total: a case bootstrap of the rows behind `counts`; more than
    2**63 - 1 cases are refused (`check_cases`)."""
    total = float(counts.sum())
    draws = check_cases(total)
    if draws == 0:
        return np.zeros((replicates, counts.size)), 1.0
    drawn = rng.multinomial(draws, counts / total, size=replicates).astype(np.float64)
    return drawn, total / draws


def no_case_reason(total: float, whose: str = "") -> str:
    """Why frequency weights that round to no case (0.4 is no case) have no interval:
    `draw_counts` draws none from them. `whose` follows "the weights" (" of slice 'a'")."""
    return (
        f"the weights{whose} sum to {total:.6g}, read as 0 cases (frequency weights): there "
        "is no case to resample"
    )


def _ranking_interval(
    estimate: float, replicates: Floats, level: float, reason: str | None
) -> Interval:
    if math.isnan(estimate):
        return nan_interval(estimate, level, "percentile", reason or "undefined")
    return replicate_interval(estimate, replicates, level, "percentile", math.nan)
