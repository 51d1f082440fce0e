"""Bootstrap intervals for every slice at once, each slice resampled from its own cells.

A case bootstrap within each slice (the slices' sizes fixed, as in a stratified design)
gives each slice's table a multinomial distribution over its own cells: n_s draws with
the slice's observed cell proportions. All slices and all replicates are drawn by one
call of `numpy.random.Generator.multinomial` (counts[B, S, M] over the M square cells
non-zero in some slice), and every measure of every replicate of every slice is one
vectorised evaluation (`informed.slices.evaluation.slice_values`), as
`informed.inference.bootstrap` evaluates the replicates of one Table.

The intervals are BCa by default (Efron 1987), each slice's acceleration computed from
its own jackknife tables (`slice_accelerations`), or percentile.

Small slices are never given a silent interval: a slice whose measure rests on fewer
cases than `min_count` carries the reason with its interval, and one whose replicates
all agree (a two-row slice gives [0, 0]) has no interval, only the reason.

References
----------
Efron, B. (1987). Better bootstrap confidence intervals. J. Amer. Statist. Assoc.
82(397):171-185.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 40 + ["b"] * 2, actual=[1, 0] * 21,
...                        predicted=[1, 0] * 15 + [0, 1] * 6)
>>> result = bootstrap_slices(s, ["recall"], positive=1, seed=0, replicates=200)
>>> a, b = result.intervals["recall"]
>>> bool(a.low < a.estimate < a.high), b.as_list(), b.reason
(True, [None, None], "every replicate gives 0; slice 'b' has 1 real positives: too few to say")
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice, check_memory
from informed.errors import InputError
from informed.inference.checks import check_cases, check_count, check_level, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.replicates import replicate_intervals
from informed.measures import MEASURES, ByMeasure, Cells, measure_names
from informed.slices.evaluation import (
    SliceEvaluation,
    evaluate_slices,
    label_position,
    present_labels,
    slice_values,
)
from informed.slices.slices import Slices

__all__ = [
    "SliceBootstrap",
    "bootstrap_slices",
    "case_draws",
    "no_cases_reason",
    "replicate_values",
    "slice_replicates",
]

Floats = NDArray[np.float64]

# Values (replicates x slices x cells) drawn at once.
_BATCH_VALUES = 1 << 22


@dataclass(frozen=True, eq=False)
class SliceBootstrap:
    """Bootstrap intervals (BCa or percentile) of measures of every slice.

    Attributes
    ----------
    evaluation : SliceEvaluation
        The estimates, denominators and flags.
    level : float
    replicates : int
    method : {"bca", "percentile"}
    intervals : dict
        Registry name -> one Interval per slice.
    distribution : dict
        Registry name -> replicate values [B, S] (nan where undefined).
    """

    evaluation: SliceEvaluation
    level: float
    replicates: int
    intervals: dict[str, list[Interval]]
    distribution: dict[str, Floats] = field(repr=False)
    method: str = "percentile"

    def __post_init__(self) -> None:
        # any name of a measure finds its intervals: intervals["tpr"] is the recall's
        object.__setattr__(self, "intervals", ByMeasure(self.intervals))
        object.__setattr__(self, "distribution", ByMeasure(self.distribution))


def case_draws(slices: Slices) -> NDArray[np.int64]:
    """The cases each slice draws in a replicate: its count, or its total weight rounded
    (frequency weights: 0.4 is no case, 2.6 three), as `informed.inference.bootstrap`
    draws a weighted Table's."""
    return np.round(slices.n).astype(np.int64)


def no_cases_reason(slices: Slices, s: int, n: Floats | None = None) -> str | None:
    """Why slice `s` has no interval when its weights round to no case (and are not 0:
    a slice of weight 0 is undefined, and says so), or None; `n` is `slices.n` when the
    caller has it already."""
    if not slices.weighted:
        return None
    total = float((slices.n if n is None else n)[s])
    if total <= 0 or round(total) > 0:
        return None
    from informed.inference.ranking_bootstrap import no_case_reason  # rare: loaded when used

    return no_case_reason(total, f" of slice {slices.name(slices.keys[s])!r}")


def slice_replicates(
    slices: Slices, replicates: int, seed: Any
) -> tuple[Cells, Iterator[tuple[slice, Cells]]]:
    """The square cells of every slice (values[S, M]) and, batch by batch, their case
    bootstrap replicates (values[b, S, M]; weighted slices scaled back to their weight).

    A slice whose weights round to no case (`no_cases_reason`) draws none: it keeps its own
    cells in every replicate, so that the rest of the rows keeps its weight, and its
    intervals say why they are none."""
    rng = check_seed(seed)
    S = len(slices.keys)
    _, cells = slices.square_cells(0, S)
    totals = cells.values.sum(axis=-1, dtype=np.float64)
    weighted = cells.values.dtype.kind == "f"
    if totals.size:
        check_cases(float(totals.max()))
    draws = np.round(totals).astype(np.int64) if weighted else cells.values.sum(axis=-1)
    empty = draws == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        probabilities = np.where(~empty[:, None], cells.values / totals[:, None], 0.0)
        scale = np.where(~empty, totals / np.maximum(draws, 1), 0.0)
    M = cells.values.shape[-1]
    if M:
        probabilities[empty, 0] = 1.0  # an empty slice draws nothing; pvals must sum to 1
    held = empty & (totals > 0)
    step = max(1, _BATCH_VALUES // max(1, S * M))
    check_memory(8 * min(step, replicates) * S * max(M, 1), "a batch of replicates", "use fewer")

    def batches() -> Iterator[tuple[slice, Cells]]:
        for start in range(0, replicates, step):
            part = slice(start, min(start + step, replicates))
            count = part.stop - part.start
            if not M:  # no cell holds a case (every weight 0, or no slice): nothing to draw
                drawn = np.zeros((count, S, 0), dtype=np.float64)
            else:
                drawn = rng.multinomial(draws, probabilities, size=(count, S)).astype(np.float64)
            if weighted:
                drawn *= scale[:, None]
                drawn[:, held] = cells.values[held]
            yield part, Cells(drawn, cells.rows, cells.cols, cells.shape)

    return Cells(cells.values.astype(np.float64), cells.rows, cells.cols, cells.shape), batches()


def bootstrap_slices(
    slices: Slices,
    measures: Any = None,
    *,
    positive: Any = None,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    min_count: float = 30.0,
    method: str = "bca",
    values: Mapping[str, Floats] | None = None,
) -> SliceBootstrap:
    """Bootstrap intervals of registry measures of every slice, in one pass.

    Parameters
    ----------
    slices : Slices
        With a Table per slice.
    measures : list of str, optional
        Measures by any of their names (registry names, titles, aliases such as "tpr");
        default every registered measure. The results are keyed by registry name, and
        any name finds them.
    positive : label, optional
        The measures of each slice's one-vs-rest view of this label.
    replicates, level, seed, alpha, undefined
        As in `informed.inference.bootstrap`.
    min_count : float
        A value resting on fewer cases is flagged (`evaluate_slices`).
    method : {"bca", "percentile"}
        BCa (Efron 1987; the default: slices are often small, and there the percentile
        interval covers too little, as docs/slices.md measures) or percentile. BCa's
        acceleration comes from each slice's jackknife tables, at most one per non-zero
        cell, evaluated for all slices at once.
    values : mapping, optional
        Measure -> replicates [replicates, S] of every slice already drawn: the
        `Disparities.own_replicates` of `disparities(keep=measures)` with the same
        `seed` and `replicates`, which draws the same cases (a slices report draws them
        once). Without it they are drawn here.

    Notes
    -----
    Each slice keeps its size in every replicate (a stratified case bootstrap), so the
    slices' replicates are independent. A replicate where a measure is undefined is left
    out of its interval and counted (`Interval.undefined_replicates`). Weights are
    frequency weights: a slice draws its total weight, rounded, in cases, and one whose
    weights sum to less than half a case has its estimate and no interval, with the
    reason. Slices of no rows give no intervals.
    """
    names = _names(measures)
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    seed = check_seed(seed)
    method = check_choice(method, ("bca", "percentile"), "method")
    evaluation = evaluate_slices(
        slices, positive=positive, alpha=alpha, undefined=undefined, min_count=min_count
    )
    if values is None:
        drawn = replicate_values(slices, names, evaluation, replicates, seed, alpha, undefined)
    else:
        wanted = (replicates, len(slices.keys))
        for name in names:
            if name not in values or np.shape(values[name]) != wanted:
                msg = f"`values` needs {name!r} replicates of shape {wanted}."
                raise InputError(msg)
        drawn = {name: np.asarray(values[name], dtype=np.float64) for name in names}
    accelerations = (
        slice_accelerations(slices, names, evaluation, alpha, undefined)
        if method == "bca"
        else dict.fromkeys(names)
    )
    intervals = {
        name: _intervals(evaluation, name, drawn[name], level, accelerations[name])
        for name in names
    }
    return SliceBootstrap(evaluation, level, replicates, intervals, drawn, method)


def slice_accelerations(
    slices: Slices, names: list[str], evaluation: SliceEvaluation, alpha: float, undefined: str
) -> dict[str, Floats]:
    """Efron's (1987) acceleration of each slice's measures, from its jackknife tables:
    removing one case from cell j gives the same table for each of its cases, so a slice
    has at most one jackknife table per cell, weighted by the cell's count (as
    `informed.inference.bootstrap` computes it for one Table); all slices at once."""
    S = len(slices.keys)
    _, cells = slices.square_cells(0, S)
    values = cells.values.astype(np.float64)
    totals = values.sum(axis=-1)
    draws = np.round(totals) if cells.values.dtype.kind == "f" else totals
    unit = np.where(draws > 0, totals / np.maximum(draws, 1.0), 1.0)  # one case
    multiplicity = values / unit[:, None]
    present = present_labels(cells)
    index = (
        None
        if evaluation.positive is None
        else label_position(evaluation.labels, evaluation.positive)
    )
    M = values.shape[-1]
    out = {name: np.zeros(S) for name in names}
    step = max(1, _BATCH_VALUES // max(1, M * M))
    cell = np.arange(M)
    for start in range(0, S, step):
        stop = min(S, start + step)
        jack = np.repeat(values[None, start:stop], M, axis=0)  # [M, s, M]
        jack[cell, :, cell] -= unit[None, start:stop]
        np.maximum(jack, 0.0, out=jack)
        found, _ = slice_values(
            Cells(jack, cells.rows, cells.cols, cells.shape),
            names,
            index,
            alpha,
            undefined,
            present[start:stop],
            labelled=False,
        )
        weights = multiplicity[start:stop].T  # [M, s]
        for name in names:
            jacked = np.asarray(found[name], dtype=np.float64)
            w = np.where(np.isnan(jacked), 0.0, weights)
            v = np.where(np.isnan(jacked), 0.0, jacked)
            with np.errstate(divide="ignore", invalid="ignore"):
                mean = (w * v).sum(axis=0) / w.sum(axis=0)
                d = np.where(w > 0, mean - v, 0.0)
                second = (w * d**2).sum(axis=0)
                third = (w * d**3).sum(axis=0)
                out[name][start:stop] = np.where(second > 0, third / (6.0 * second**1.5), 0.0)
    return out


def replicate_values(
    slices: Slices,
    names: list[str],
    evaluation: SliceEvaluation,
    replicates: int,
    seed: Any,
    alpha: float,
    undefined: str,
    extra: Callable[[Cells, Cells], None] | None = None,
) -> dict[str, Floats]:
    """Registry measures [B, S] of every replicate of every slice; `extra` sees each
    batch (the replicates, and the original cells) for statistics of its own."""
    original, batches = slice_replicates(slices, replicates, seed)
    present = present_labels(original)
    index = (
        None
        if evaluation.positive is None
        else label_position(evaluation.labels, evaluation.positive)
    )
    S = len(slices.keys)
    check_memory(
        8 * replicates * S * len(names),
        f"{replicates:,} replicates of {len(names)} measures of {S:,} slices",
        "slice by fewer keys, or draw fewer replicates",
    )
    out = {name: np.empty((replicates, S), dtype=np.float64) for name in names}
    for part, cells in batches:
        found, _ = slice_values(cells, names, index, alpha, undefined, present, labelled=False)
        for name in names:
            out[name][part] = found[name]
        if extra is not None:
            extra(cells, original)
    return out


def _names(measures: Any) -> list[str]:
    return list(MEASURES) if measures is None else measure_names(measures)  # "tpr": recall


def _intervals(
    evaluation: SliceEvaluation,
    name: str,
    values: Floats,
    level: float,
    accelerations: Floats | None = None,
) -> list[Interval]:
    """Every slice's interval (BCa with `accelerations`, else percentile), the slices
    read together (`replicate_intervals`), each never silently degenerate."""
    method = "percentile" if accelerations is None else "bca"
    found = replicate_intervals(evaluation.values[name], values, level, method, accelerations)
    return [
        _finish(evaluation, name, s, interval, level, method) for s, interval in enumerate(found)
    ]


def _no_cases(
    evaluation: SliceEvaluation, name: str, s: int, level: float, method: str
) -> Interval | None:
    """The interval of a slice whose weights round to no case: its estimate, no bounds,
    the reason (held at its own cells in every replicate: `slice_replicates`)."""
    why = no_cases_reason(evaluation.slices, s)
    if why is None:
        return None
    return nan_interval(float(evaluation.values[name][s]), level, method, why)


def _finish(
    evaluation: SliceEvaluation,
    name: str,
    s: int,
    found: Interval,
    level: float,
    method: str,
) -> Interval:
    """One slice's interval as reported: nan with the reason where the measure is
    undefined, or where every replicate agrees (too few to say); a small slice's flag."""
    estimate = float(evaluation.values[name][s])
    if math.isnan(estimate):
        return nan_interval(estimate, level, method, evaluation.flag(name, s) or "undefined")
    held = _no_cases(evaluation, name, s, level, method)
    if held is not None:
        return held
    if math.isnan(found.low) and found.reason is not None:
        return found
    small = evaluation.flag(name, s)
    if found.low == found.high:
        where = evaluation.slices.name(evaluation.slices.keys[s])
        count = evaluation.denominators[name][s]
        what = evaluation.denominator_name(name, s)
        shown = int(count) if float(count).is_integer() else f"{count:.3g}"
        why = f"every replicate gives {found.low:.4g}; slice {where!r} has {shown} {what}"
        return nan_interval(estimate, level, method, f"{why}: too few to say")
    if small is not None:
        return Interval(
            found.estimate,
            found.low,
            found.high,
            level,
            method,
            found.standard_error,
            f"{small}: few cases, a wide and rough interval",
            found.undefined_replicates,
        )
    return found
