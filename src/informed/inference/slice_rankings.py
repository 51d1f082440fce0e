"""Each slice's ranking summaries: the registry's summaries of its Ranking, with reasons.

For the Ranking of every slice (`Slices.rankings`, built with scores), `slice_rankings`
gives the summaries of the ranking registry (`informed.ranking.registry`: AUC, average
hit rate, average Qrecall, PEM and PEM's areas S1, S2, S3), each undefined one with the
registry's reason, DeLong's interval of the AUC, and a flag when the AUC rests on fewer
real positives or real negatives than `min_count` (as `informed.slices.evaluation`
flags a slice's informedness): the honest small slice of a ranking. Slices are
summarised when a report asks for them, and each once, so a terminal showing 30 of
10,000 slices summarises 30, and the JSON document every one.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 6 + ["b"] * 2, actual=[1, 0, 1, 0, 1, 0, 1, 1],
...                        scores=[.9, .8, .7, .3, .6, .1, .5, .4], positive=1)
>>> found = slice_rankings(s)
>>> found[0].values["auc"], found[0].flag  # 7 of the 9 pairs in order
(0.7777777777777778, 'AUC: 3 real positives')
>>> found[1].reasons["auc"]
'no actual negatives (n- = 0)'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.inference.checks import check_level
from informed.inference.delong import _interval_of
from informed.inference.interval import Interval, nan_interval
from informed.ranking import Ranking
from informed.ranking.document import AREAS, SUMMARIES
from informed.ranking.registry import RANKING_MEASURES, ByAnyMeasure, undefined_reason
from informed.ranking.summaries import pem_areas
from informed.slices.slices import Slices

__all__ = ["RankingOfSlice", "SliceRankings", "slice_rankings"]

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class RankingOfSlice:
    """The ranking summaries of one slice.

    Attributes
    ----------
    n_positive, n_negative : float
        The slice's real positives and real negatives (weights summed).
    values : dict
        Name -> value of each registry summary (`SUMMARIES`: auc, average_hit_rate,
        average_qrecall, pem) and of PEM's areas (`AREAS`: s1, s2, s3); nan if undefined.
    reasons : dict
        Name -> why its value is nan, for each undefined one.
    auc_interval : Interval
        DeLong's interval of the AUC, on the logit scale; nan with its reason where it
        cannot be estimated, or where the estimated variance is 0 (perfect separation:
        a point, which says nothing of a small slice's uncertainty).
    flag : str or None
        Why the AUC says little: undefined, or resting on fewer than `min_count` real
        positives or real negatives.
    """

    n_positive: float
    n_negative: float
    values: dict[str, float]
    reasons: dict[str, str]
    auc_interval: Interval
    flag: str | None

    def __post_init__(self) -> None:
        # any name of a measure finds its value: values["AUROC"] is the AUC
        object.__setattr__(self, "values", ByAnyMeasure(self.values))
        object.__setattr__(self, "reasons", ByAnyMeasure(self.reasons))


@dataclass(frozen=True, eq=False)
class SliceRankings:
    """The ranking summaries of every slice, each computed when first asked for
    (`rankings[s]`, s a slice's position)."""

    slices: Slices
    level: float = 0.95
    min_count: float = 30.0
    components: Floats | None = field(default=None, repr=False)
    _found: dict[int, RankingOfSlice] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.slices.keys)

    def __getitem__(self, s: int) -> RankingOfSlice:
        found = self._found.get(s)
        if found is None:
            assert self.slices.rankings is not None
            own = None if self.components is None else self.components[s]
            found = _summarize(self.slices.rankings[s], self.level, self.min_count, own)
            self._found[s] = found
        return found


def slice_rankings(
    slices: Slices,
    *,
    level: float = 0.95,
    min_count: float = 30.0,
    components: Floats | None = None,
) -> SliceRankings:
    """The ranking summaries of every slice (built with scores), computed on demand;
    DeLong's interval of each AUC from `components` when given (a row of S10, S01, n+
    and n- per slice: `AucDifferences.components`, every slice's read at once), not
    from each Ranking again."""
    if slices.rankings is None:
        msg = "slice_rankings needs a Ranking per slice: build the slices with `scores`."
        raise InputError(msg)
    level = check_level(level)
    if components is not None and components.shape != (len(slices.rankings), 4):
        msg = f"`components` must hold 4 values per slice; got shape {components.shape}."
        raise InputError(msg)
    return SliceRankings(slices, level, min_count, components)


def _summarize(
    ranking: Ranking, level: float, min_count: float, own: Floats | None
) -> RankingOfSlice:
    values: dict[str, float] = {}
    for name in SUMMARIES:
        function = RANKING_MEASURES[name].function
        assert function is not None
        values[name] = float(function(ranking))
    values.update(zip(AREAS, (float(v) for v in pem_areas(ranking)), strict=True))
    reasons = {
        name: undefined_reason(ranking, name) or "undefined"
        for name, value in values.items()
        if math.isnan(value)
    }
    positives, negatives = float(ranking.n_positive), float(ranking.n_negative)
    flag = None
    if "auc" in reasons:
        flag = f"AUC undefined: {reasons['auc']}"
    elif min(positives, negatives) < min_count:
        fewer = positives <= negatives
        count, what = (positives, "real positives") if fewer else (negatives, "real negatives")
        shown = str(int(count)) if count.is_integer() else f"{count:.3g}"
        flag = f"AUC: {shown} {what}"
    components = (
        None if own is None else (float(own[0]), float(own[1]), float(own[2]), float(own[3]))
    )
    interval = _interval_of(ranking, level, "logit", components)
    if interval.low == interval.high:  # a point: no variation estimated, never shown as one
        reason = (interval.reason or "a point").replace(": the interval is degenerate", "")
        why = f"{reason}: too few to say"
        interval = nan_interval(interval.estimate, level, interval.method, why)
    return RankingOfSlice(
        n_positive=positives,
        n_negative=negatives,
        values=values,
        reasons=reasons,
        auc_interval=interval,
        flag=flag,
    )
