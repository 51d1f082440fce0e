"""Calibration within slices as a fairness criterion: each slice's miscalibration (MCB)
with a bootstrap interval, and the spread of MCB across slices (largest minus smallest).

A model can be calibrated on all the rows and not within a group: its scores then mean
another risk for one group than for another, and a threshold on them treats the groups
unequally. Each slice's scores are decomposed on the slice's own rows, as
`informed.ranking.score_decomposition` decomposes one Ranking's (the CORP decomposition
of Dimitriadis, Gneiting & Jordan 2021): score = MCB - DSC + UNC, where MCB, what
recalibrating the slice's scores by the slice's own CORP curve would save, is 0 when the
slice is calibrated. The disparity is the spread max - min of MCB over the slices, as
`informed.inference.disparities` takes the spread of informedness: over the slices of at
least `min_count` real positives and `min_count` real negatives (the MCB of a small slice
is mostly noise: PAV fits its few rows closely), those left out named, and the range
over every slice beside it. No ratio: a calibrated slice's MCB can be exactly 0, and a
ratio to it is unbounded.

Intervals (`replicates` > 0; 0 gives the estimates alone): a case bootstrap within
each slice (its size fixed, as `informed.inference.bootstrap_slices` resamples a slice),
drawn as a multinomial over
the slice's 2 x groups cells (positives and negatives of each distinct score, as
`informed.inference.calibration_bands` draws one Ranking's); each replicate is refitted
by PAV and its MCB recomputed; the spread's replicate is the range of the slices'
replicates. Percentile intervals. The bootstrap costs O(replicates x distinct scores) of
every slice, against O(distinct scores) for the estimates: at 10^5 continuous scores a
slice, a thousand replicates are a thousand PAV fits of 10^5 groups, which is why the
command line resamples only with --ci, as it does for the calibration numbers of all
the rows. MCB is biased upward in a resample (PAV fits the
resample's noise too), so the interval of a slice whose MCB is near 0 may lie above its
estimate; it brackets a clearly miscalibrated slice's.

Each slice's estimate is a function of its Ranking alone, so slices counted in parts and
merged give the same MCB as the Ranking of the slice's rows, bit for bit. A time window
is a slice (`Slices.from_labels(time=..., every=...)`), and so is a merged window
(`informed.slices.rolling.accumulate`): calibration per window is this same call.

References
----------
Dimitriadis, T., Gneiting, T. & Jordan, A. I. (2021). Stable reliability diagrams for
probabilistic classifiers. PNAS 118(8):e2016191118.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 4 + ["b"] * 4, actual=[0, 1, 0, 1] * 2,
...                        scores=[.2, .4, .6, .8, .1, .2, .8, .9], positive=1)
>>> found = slice_calibration(s, replicates=50, seed=0, min_count=1)
>>> [round(d.miscalibration, 6) for d in found.decompositions]  # b: 0.325 - 0.125
[0.075, 0.2]
>>> round(found.spread.estimate, 6)
0.125
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice, json_number, readonly
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_count, check_level, check_number, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.ranking_bootstrap import draw_counts
from informed.inference.replicates import replicate_interval
from informed.inference.slice_bootstrap import no_cases_reason
from informed.inference.slice_ranges import value_range
from informed.ranking.calibration import (
    SCORING_RULES,
    Decomposition,
    ascending,
    check_probabilities,
    decompose_groups,
    pav,
    score_decomposition,
)
from informed.slices.slices import Slices

__all__ = ["NOT_RESAMPLED", "SliceCalibration", "adequate_slices", "slice_calibration"]

NOT_RESAMPLED = "not resampled (replicates=0)"
"""The reason of every interval of a calibration computed without replicates."""

Floats = NDArray[np.float64]

# Values (replicates x cells) drawn at once for one slice.
_BATCH_VALUES = 1 << 21

_SMALL_GROUPS = 64
"""Slices of at most this many tie groups refit a batch of replicates at once
(`_batched_mcb`: a few numpy passes, where a replicate at a time costs some 70 us of
calls, 70 s for 1,000 slices of 1,000 replicates); larger ones one replicate at a time."""


@dataclass(frozen=True, eq=False)
class SliceCalibration:
    """Each slice's calibration (its scores' decomposition and the interval of its MCB)
    and the spread of MCB across slices.

    Attributes
    ----------
    slices : Slices
    rule : {"brier", "log"}
        The scoring rule decomposed.
    decompositions : tuple of Decomposition
        Each slice's mean score = MCB - DSC + UNC (NaN with the reason without rows).
    miscalibration : list of Interval
        Each slice's MCB with its percentile interval.
    spread : Interval
        max - min of MCB over the slices of adequate size (`rule_text`), with its
        interval; NaN with the reason where fewer than two have a value, where two are
        infinite (the log score's MCB), or where the slices are overlapping windows
        (`Slices.accumulated`).
    spread_all : Interval
        The same range over every slice whose MCB is defined.
    highest, lowest : int or None
        The position of the slice of highest (lowest) MCB among those `spread` is over.
    left_out : list of (int, str)
        The slices left out of `spread` as too small, with their counts.
    rule_text : str
        Which slices `spread` is over ("of at least 30 real positives and 30 real
        negatives").
    level, replicates, min_count
    distribution : ndarray
        The replicates' MCB, [B, S] (NaN where a replicate has no row).
    """

    slices: Slices
    rule: str
    decompositions: tuple[Decomposition, ...]
    miscalibration: list[Interval]
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

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: each slice's decomposition with its MCB interval, the spread
        (adequate slices, and every slice) and the slices left out."""
        name = self.slices.name

        def spread(found: Interval) -> dict[str, Any]:
            document: dict[str, Any] = {
                "estimate": json_number(found.estimate),
                "interval": found.as_list(),
            }
            if found.reason:
                document["reason"] = found.reason
            return document

        return {
            "rule": self.rule,
            "level": self.level,
            "replicates": self.replicates,
            "method": "percentile",
            "min_count": self.min_count,
            "slices": [
                {
                    "key": list(key),
                    "name": name(key),
                    **self.decompositions[s].to_dict(),
                    "miscalibration_interval": self.miscalibration[s].as_list(),
                    **(
                        {"interval_reason": self.miscalibration[s].reason}
                        if self.miscalibration[s].reason
                        else {}
                    ),
                }
                for s, key in enumerate(self.slices.keys)
            ],
            "spread": {
                **spread(self.spread),
                "over": f"the slices {self.rule_text}",
                "highest": None if self.highest is None else name(self.slices.keys[self.highest]),
                "lowest": None if self.lowest is None else name(self.slices.keys[self.lowest]),
            },
            "spread_all": spread(self.spread_all),
            "left_out": [
                {"name": name(self.slices.keys[s]), "why": why} for s, why in self.left_out
            ],
            "definition": (
                "MCB (miscalibration): the slice's mean score minus that of its scores "
                "recalibrated by its own CORP curve (isotonic regression, PAV); 0 when the "
                "slice is calibrated. spread: max - min of MCB across slices."
            ),
            "source": "Dimitriadis et al. (2021)",
        }


def _count(value: float, what: str) -> str:
    shown = f"{int(value):,}" if float(value).is_integer() else f"{value:,.3g}"
    return f"{shown} {what}"


def adequate_slices(
    slices: Slices, min_count: float
) -> tuple[NDArray[np.bool_], str, list[tuple[int, str]]]:
    """Which slices' Rankings have at least `min_count` real positives and real negatives
    (the spread of a measure is taken over those), the rule in words, and each slice left
    out with what it lacks."""
    assert slices.rankings is not None
    positives = np.array([float(r.n_positive) for r in slices.rankings])
    negatives = np.array([float(r.n_negative) for r in slices.rankings])
    adequate = np.minimum(positives, negatives) >= min_count
    m = f"{min_count:g}"
    rule_text = f"of at least {m} real positives and {m} real negatives"
    left_out = []
    for s in np.flatnonzero(~adequate).tolist():
        short = [
            _count(count, what)
            for count, what in ((positives[s], "real positives"), (negatives[s], "real negatives"))
            if count < min_count
        ]
        left_out.append((s, ", ".join(short)))
    return adequate, rule_text, left_out


def slice_calibration(
    slices: Slices,
    *,
    rule: str = "brier",
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    min_count: float = 30.0,
) -> SliceCalibration:
    """Each slice's miscalibration (CORP MCB) with its interval, and the spread across
    slices: calibration within groups as a fairness criterion.

    Parameters
    ----------
    slices : Slices
        Built with scores in [0, 1], read as probabilities of `slices.positive` (a score
        outside is refused, naming the slice).
    rule : {"brier", "log"}
        The scoring rule decomposed (`informed.ranking.SCORING_RULES`).
    replicates : int
        Bootstrap replicates of every slice (>= 2); 0 for the estimates alone, every
        interval NaN with the reason `NOT_RESAMPLED`.
    level : float
        Of the percentile intervals.
    seed : int or numpy.random.Generator, optional
    min_count : float
        The spread is over the slices of at least this many real positives and this many
        real negatives.

    Returns
    -------
    SliceCalibration

    Notes
    -----
    MCB_s = S(scores) - S(recalibrated) on slice s's rows, S the mean Brier (or log)
    score and the recalibration the slice's own isotonic fit (Dimitriadis, Gneiting &
    Jordan 2021). spread = max_s MCB_s - min_s MCB_s. O(replicates x groups) in all.
    """
    if not isinstance(slices, Slices):
        msg = f"slice_calibration needs Slices; got {type(slices).__name__}."
        raise InputTypeError(msg)
    if slices.rankings is None:
        msg = "slice_calibration needs a Ranking per slice: build the slices with `scores`."
        raise InputError(msg)
    check_choice(rule, tuple(SCORING_RULES), "rule")
    replicates = check_count(replicates, "replicates", 0)
    if replicates == 1:
        msg = "`replicates` must be 0 (the estimates alone) or an integer >= 2; got 1."
        raise InputError(msg)
    level = check_level(level)
    rng = check_seed(seed)
    min_count = check_number(min_count, "min_count", 0)
    for key, ranking in zip(slices.keys, slices.rankings, strict=True):
        try:
            check_probabilities(ranking, "slice_calibration")
        except InputError as error:
            raise InputError(f"slice {slices.name(key)!r}: {error}") from None
    S = len(slices.keys)
    found = tuple(score_decomposition(r, rule) for r in slices.rankings)  # type: ignore[arg-type]
    estimates = np.array([d.miscalibration for d in found], dtype=np.float64)
    drawn = np.full((replicates, S), math.nan)
    # a slice whose weights round to no case draws none: held at its estimate in every
    # replicate, as `bootstrap_slices` holds its cells, and its interval says why
    held = [no_cases_reason(slices, s) for s in range(S)]
    with np.errstate(divide="ignore", invalid="ignore"):
        for s, ranking in enumerate(slices.rankings):
            if held[s] is not None:
                drawn[:, s] = estimates[s]
            elif ranking.n_groups and replicates:
                drawn[:, s] = _replicates(rng, ranking, rule, replicates)
    intervals = []
    for s, decomposition in enumerate(found):
        if math.isnan(estimates[s]) or held[s] is not None or replicates == 0:
            why = held[s] or decomposition.reason or "undefined"
            why = NOT_RESAMPLED if replicates == 0 and not math.isnan(estimates[s]) else why
            intervals.append(nan_interval(estimates[s], level, "percentile", why))
        else:
            intervals.append(
                replicate_interval(estimates[s], drawn[:, s], level, "percentile", math.nan)
            )
    adequate, rule_text, left_out = adequate_slices(slices, min_count)
    kept = np.where(adequate, estimates, math.nan)
    resampled = np.array([why is None for why in held])
    over = f"the slices {rule_text}"
    spread = _spread(kept, np.where(adequate, drawn, math.nan), level, over, resampled)
    spread_all = _spread(estimates, drawn, level, "the slices", resampled)
    if slices.accumulated is not None:  # overlapping windows: no range between them
        why = (
            f"the windows overlap ({slices.accumulated}): a range between them would count "
            "rows twice and resample overlapping windows as independent"
        )
        spread = nan_interval(math.nan, level, "percentile", why)
        spread_all = nan_interval(math.nan, level, "percentile", why)
        kept = np.full(S, math.nan)
    defined = ~np.isnan(kept)
    highest = lowest = None
    if np.count_nonzero(defined) >= 2:
        highest = int(np.nanargmax(kept))
        lowest = int(np.nanargmin(kept))
    return SliceCalibration(
        slices=slices,
        rule=rule,
        decompositions=found,
        miscalibration=intervals,
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


def _spread(
    estimates: Floats, drawn: Floats, level: float, over: str, resampled: NDArray[np.bool_]
) -> Interval:
    """max - min of the estimates with the percentile interval of the replicates' ranges,
    or NaN with the reason where fewer than two slices have a value, or where none of
    them has a case to resample."""
    estimate = float(value_range(estimates))
    if math.isnan(estimate):
        infinite = int(np.count_nonzero(np.isposinf(estimates)))
        why = (
            f"MCB is infinite in {infinite} of {over} (a case given probability 0 of its "
            "outcome): the difference of two infinities is undefined"
            if infinite >= 2
            else f"MCB defined in fewer than two of {over}"
        )
        return nan_interval(estimate, level, "percentile", why)
    if drawn.shape[0] == 0:
        return nan_interval(estimate, level, "percentile", NOT_RESAMPLED)
    if not np.any(resampled & ~np.isnan(estimates)):
        why = f"the weights of each of {over} round to no case (frequency weights)"
        return nan_interval(estimate, level, "percentile", why)
    with np.errstate(invalid="ignore"):
        ranges = value_range(drawn, axis=1)
    return replicate_interval(estimate, ranges, level, "percentile", math.nan)


def _replicates(rng: np.random.Generator, ranking: Any, rule: str, replicates: int) -> Floats:
    """The MCB of `replicates` case resamples of one slice's Ranking: each a multinomial
    draw over its 2 x groups cells, refitted by PAV over the groups drawn."""
    scores, positives, rows = ascending(ranking)
    groups = scores.size
    cells = np.concatenate([positives, rows - positives])
    out = np.full(replicates, math.nan)
    chunk = max(1, min(replicates, _BATCH_VALUES // max(cells.size, 1)))
    done = 0
    while done < replicates:
        size = min(chunk, replicates - done)
        counts, scale = draw_counts(rng, cells, size)
        counts *= scale
        if groups <= _SMALL_GROUPS:  # all the batch's replicates refitted at once
            out[done : done + size] = _batched_mcb(
                rule, scores, counts[:, :groups], counts[:, groups:]
            )
            done += size
            continue
        for b in range(size):
            pos, neg = counts[b, :groups], counts[b, groups:]
            total = pos + neg
            keep = total > 0
            if not keep.any():
                continue
            group_pos, group_rows = pos[keep], total[keep]
            values, starts, _ = pav(group_pos, group_rows)
            out[done + b] = decompose_groups(
                rule, scores[keep], group_pos, group_rows, starts, values
            )[1]
        done += size
    return out


def _batched_mcb(rule: str, scores: Floats, positives: Floats, negatives: Floats) -> Floats:
    """The MCB of each row of positives[B, G] and negatives[B, G] (B replicates of the
    groups at `scores`, ascending): `pav` and `decompose_groups` of every replicate at
    once. The replicates' groups with rows lie side by side and PAV pools by rounds (every
    run of blocks whose values do not increase, within one replicate, never across two),
    each block's value its own sums, as `pav` forms them; NaN for a replicate of no row."""
    size, groups = positives.shape
    rows = positives + negatives
    keep = (rows > 0).ravel()
    segment = np.repeat(np.arange(size), groups)[keep]
    at = np.tile(scores, size)[keep]
    hits, weight = positives.ravel()[keep], rows.ravel()[keep]
    out = np.full(size, math.nan)
    if not weight.size:
        return out
    starts = np.arange(weight.size)
    block_hits, block_rows, block_segment = hits, weight, segment
    while True:
        while True:
            values = block_hits / block_rows
            pooled = (values[1:] <= values[:-1]) & (block_segment[1:] == block_segment[:-1])
            if not pooled.any():
                break
            first = np.flatnonzero(np.concatenate(([True], ~pooled)))
            block_hits = np.add.reduceat(block_hits, first)
            block_rows = np.add.reduceat(block_rows, first)
            block_segment, starts = block_segment[first], starts[first]
        block_hits, block_rows = np.add.reduceat(hits, starts), np.add.reduceat(weight, starts)
        values = block_hits / block_rows
        if not np.any((values[1:] <= values[:-1]) & (block_segment[1:] == block_segment[:-1])):
            break
    n = np.bincount(segment, weights=weight, minlength=size)
    score = np.bincount(segment, _row_losses(rule, at, hits, weight - hits), minlength=size)
    fitted = _row_losses(rule, values, block_hits, block_rows - block_hits)
    recalibrated = np.bincount(block_segment, fitted, minlength=size)
    drawn = n > 0
    out[drawn] = (score[drawn] - recalibrated[drawn]) / n[drawn]
    return out


def _row_losses(rule: str, probability: Floats, positives: Floats, negatives: Floats) -> Floats:
    """Each group's summed Brier or log loss of forecasting `probability` (0 log 0 = 0)."""
    if rule == "brier":
        return positives * np.square(1.0 - probability) + negatives * np.square(probability)
    with np.errstate(divide="ignore", invalid="ignore"):
        hit = np.where(positives > 0, positives * np.log(probability), 0.0)
        miss = np.where(negatives > 0, negatives * np.log(1.0 - probability), 0.0)
    return -(hit + miss)
