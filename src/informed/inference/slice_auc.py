"""The spread of AUC across slices: is the model's ranking as good within each group?

Each slice's AUC is the probability that a real positive of the slice is scored above a
real negative of the same slice (ties one half), read from the slice's own Ranking. A
model can rank well on all the rows and badly within a group (its scores then separate
the group's cases less well, whatever threshold is put on them). The disparity is the
spread max - min of the slices' AUCs, as `informed.inference.disparities` takes the
spread of informedness and `informed.inference.slice_calibration` that of MCB: over the
slices of at least `min_count` real positives and `min_count` real negatives (the AUC of
a small slice is mostly noise), the slices left out named with their counts, and the
range over every slice beside it. Each slice against the rest and against a reference,
with DeLong intervals, is `informed.inference.auc_differences`.

Interval: a case bootstrap within each slice (its size fixed, as
`informed.inference.bootstrap_slices` resamples a slice), drawn as a multinomial over
the slice's 2 x groups cells (positives and negatives of each distinct score); each
replicate's AUC is recomputed from its counts, and the spread's replicate is the range
of the slices' replicates. Percentile interval. A range is biased upward in a resample
(each slice's noise widens it), so when the slices' AUCs are equal the interval may lie
above the estimate.

References
----------
Hanley, J. A. & McNeil, B. J. (1982). The meaning and use of the area under a receiver
operating characteristic (ROC) curve. Radiology 143(1):29-36.
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 4 + ["b"] * 4, actual=[0, 1, 0, 1] * 2,
...                        scores=[.2, .4, .6, .8, .1, .8, .2, .9], positive=1)
>>> found = auc_spread(s, replicates=50, seed=0, min_count=1)
>>> found.auc.tolist()  # a: 3 of 4 pairs in order; b: all 4
[0.75, 1.0]
>>> found.spread.estimate
0.25
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from informed._common import readonly
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_count, check_level, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.ranking_bootstrap import draw_counts
from informed.inference.replicates import replicate_interval
from informed.inference.slice_calibration import adequate_slices
from informed.inference.slice_ranges import value_range
from informed.ranking import RANKING_MEASURES, Ranking
from informed.slices.slices import Slices

__all__ = ["AucSpread", "auc_spread"]

Floats = NDArray[np.float64]

# Values (replicates x cells) drawn at once for one slice.
_BATCH_VALUES = 1 << 21


@dataclass(frozen=True, eq=False)
class AucSpread:
    """Each slice's AUC and the spread of AUC across slices, with its interval.

    Attributes
    ----------
    slices : Slices
    auc : ndarray of shape (S,)
        Each slice's AUC (nan without a real positive or a real negative).
    spread : Interval
        max - min of AUC over the slices of adequate size (`rule_text`), with its
        percentile interval; nan with the reason where fewer than two have an AUC, or
        where the slices are overlapping windows (`Slices.accumulated`).
    spread_all : Interval
        The same range over every slice whose AUC is defined.
    highest, lowest : int or None
        The slice of highest (lowest) AUC among those `spread` is over.
    left_out : list of (int, str)
        The slices left out of `spread` as too small, with their counts.
    rule_text : str
        Which slices `spread` is over ("of at least 30 real positives and 30 real
        negatives").
    level, replicates, min_count
    distribution : ndarray
        The replicates' AUC, [B, S] (nan where a replicate lacks a class).
    """

    slices: Slices
    auc: Floats
    spread: Interval
    spread_all: Interval
    highest: int | None
    lowest: int | None
    left_out: list[tuple[int, str]]
    rule_text: str
    level: float
    replicates: int
    min_count: float
    distribution: Floats = field(repr=False)


def auc_spread(
    slices: Slices,
    *,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    min_count: float = 30.0,
) -> AucSpread:
    """Each slice's AUC and the spread max - min of AUC across the slices of adequate
    size, with a percentile interval from a case bootstrap within each slice.

    Parameters
    ----------
    slices : Slices
        Built with scores (a Ranking per slice).
    replicates : int
        Bootstrap replicates of every slice.
    level : float
        Of the percentile interval.
    seed : int or numpy.random.Generator, optional
    min_count : float
        The spread is over the slices of at least this many real positives and this many
        real negatives.

    Returns
    -------
    AucSpread

    Notes
    -----
    AUC_s = (pairs of slice s in order + ties / 2) / (n+_s n-_s) (Hanley & McNeil 1982);
    spread = max_s AUC_s - min_s AUC_s. O(replicates x groups) in all.
    """
    if not isinstance(slices, Slices):
        msg = f"auc_spread needs Slices; got {type(slices).__name__}."
        raise InputTypeError(msg)
    if slices.rankings is None:
        msg = "auc_spread needs a Ranking per slice: build the slices with `scores`."
        raise InputError(msg)
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    rng = check_seed(seed)
    min_count = float(min_count)
    if not min_count >= 0:
        msg = f"`min_count` must be a number >= 0; got {min_count!r}."
        raise InputError(msg)
    area = RANKING_MEASURES["auc"].function
    assert area is not None
    S = len(slices.keys)
    estimates = np.array([float(area(r)) for r in slices.rankings], dtype=np.float64)
    drawn = np.full((replicates, S), math.nan)
    for s, ranking in enumerate(slices.rankings):
        if not math.isnan(estimates[s]):
            drawn[:, s] = _replicates(rng, ranking, replicates)
    adequate, rule_text, left_out = adequate_slices(slices, min_count)
    kept = np.where(adequate, estimates, math.nan)
    spread = _spread(kept, np.where(adequate, drawn, math.nan), level, f"the slices {rule_text}")
    spread_all = _spread(estimates, drawn, level, "the slices")
    if slices.accumulated is not None:  # overlapping windows: no range between them
        why = (
            f"the windows overlap ({slices.accumulated}): a range between them would count "
            "rows twice and resample overlapping windows as independent"
        )
        spread = nan_interval(math.nan, level, "percentile", why)
        spread_all = nan_interval(math.nan, level, "percentile", why)
        kept = np.full(S, math.nan)
    highest = lowest = None
    if np.count_nonzero(~np.isnan(kept)) >= 2:
        highest, lowest = int(np.nanargmax(kept)), int(np.nanargmin(kept))
    return AucSpread(
        slices=slices,
        auc=readonly(estimates),
        spread=spread,
        spread_all=spread_all,
        highest=highest,
        lowest=lowest,
        left_out=left_out,
        rule_text=rule_text,
        level=level,
        replicates=replicates,
        min_count=min_count,
        distribution=readonly(drawn),
    )


def _spread(estimates: Floats, drawn: Floats, level: float, over: str) -> Interval:
    """max - min of the estimates with the percentile interval of the replicates' ranges,
    or nan with the reason where fewer than two slices have a value."""
    estimate = float(value_range(estimates))
    if math.isnan(estimate):
        return nan_interval(
            estimate, level, "percentile", f"AUC defined in fewer than two of {over}"
        )
    with np.errstate(invalid="ignore"):
        ranges = value_range(drawn, axis=1)
    return replicate_interval(estimate, ranges, level, "percentile", math.nan)


def _replicates(rng: np.random.Generator, ranking: Ranking, replicates: int) -> Floats:
    """The AUC of `replicates` case resamples of one slice's Ranking: each a multinomial
    draw over its 2 x groups cells (scores descending), its pairs in order counted as
    positives times the negatives below plus half those tied."""
    positives = np.asarray(ranking.positives, dtype=np.float64)
    cells = np.concatenate([positives, np.asarray(ranking.negatives, dtype=np.float64)])
    groups = positives.size
    out = np.full(replicates, math.nan)
    chunk = max(1, min(replicates, _BATCH_VALUES // max(cells.size, 1)))
    done = 0
    while done < replicates:
        size = min(chunk, replicates - done)
        counts, scale = draw_counts(rng, cells, size)
        counts *= scale
        pos, neg = counts[:, :groups], counts[:, groups:]
        n_pos, n_neg = pos.sum(axis=1), neg.sum(axis=1)
        below = n_neg[:, None] - np.cumsum(neg, axis=1)  # negatives scored lower
        pairs = np.einsum("bg,bg->b", pos, below + neg / 2.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[done : done + size] = np.where(
                (n_pos > 0) & (n_neg > 0), pairs / (n_pos * n_neg), math.nan
            )
        done += size
    return out
