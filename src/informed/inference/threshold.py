"""A bootstrap interval for the value of a ranking's best threshold (or of a fixed one),
and scores cut into predictions at each model's threshold (`cut_scores`, for `compare`).

`Ranking.best_threshold` picks the cut of the scores that optimises a measure; the value
there is a maximum over cuts, so it is optimistic and its sampling spread includes the
choice of the cut. A case bootstrap of the rows is a multinomial draw over the Ranking's
tie groups (the cases drawn from a group keep its score), so each replicate is the
table at every cut from cumulative sums: O(B U) for B replicates and U distinct scores,
no row needed.

References
----------
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
Fluss, R., Faraggi, D. & Reiser, B. (2005). Estimation of the Youden index and its
associated cutoff point. Biometrical Journal 47(4):458-472.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label, code_labels, keyed
from informed.errors import InputError, InputTypeError
from informed.inference.checks import (
    check_cases,
    check_count,
    check_level,
    check_ranking,
    check_seed,
)
from informed.inference.interval import Interval, nan_interval
from informed.inference.replicates import replicate_interval
from informed.ranking import Ranking
from informed.ranking.operating import OperatingPoint, criterion_values, cut_index

__all__ = ["cut_scores", "threshold_interval"]

Floats = NDArray[np.float64]

# replicates are evaluated in blocks of about this many 2x2 tables
_BLOCK_TABLES = 500_000


def threshold_interval(
    ranking: Ranking,
    measure: str = "informedness",
    *,
    alpha: float = 0.5,
    cost_ratio: float | None = None,
    quota: float | None = None,
    threshold: float | None = None,
    level: float = 0.95,
    replicates: int = 1000,
    seed: int | np.random.Generator | None = None,
    stratified: bool = False,
) -> Interval:
    r"""Percentile bootstrap interval of the value at the best threshold of a Ranking.

    Parameters
    ----------
    ranking : Ranking
    measure, alpha, cost_ratio, quota
        As in `Ranking.best_threshold`.
    threshold : float, optional
        None (default): each replicate finds its own best cut, so the interval holds
        the variability of choosing the threshold on the data as well as that of the
        value (the "re-optimised" bootstrap of the Youden index, Fluss et al. 2005).
        A number: the threshold is fixed and each replicate is measured there; this is
        the interval of that operating point's table, as `informed.inference.bootstrap`
        of `ranking.at_threshold(threshold).table` would give.
    level : float
    replicates : int
    seed : int or numpy.random.Generator, optional
    stratified : bool
        False (default): one multinomial over the 2 x U cells (n cases), as the table
        bootstrap draws, so the prevalence varies. True: positives and negatives drawn
        separately (n+ and n- fixed).

    Returns
    -------
    Interval
        `estimate` is the value at the best (or given) threshold of the data; method
        "percentile". nan with a reason where the value is undefined.

    Notes
    -----
    The in-sample best value is biased upwards as an estimate of the value the chosen
    threshold will have on new data; neither interval removes that bias. Cost: O(B U)
    time, in blocks of bounded memory.

    >>> r = Ranking.from_scores(actual=[1, 1, 0, 1, 0, 0, 1, 0], scores=range(8, 0, -1),
    ...                         positive=1)
    >>> interval = threshold_interval(r, replicates=200, seed=0)
    >>> interval.estimate, bool(interval.low <= interval.estimate <= interval.high)
    (0.5, True)
    """
    ranking = check_ranking(ranking)
    level = check_level(level)
    replicates = check_count(replicates, "replicates", 2)
    rng = check_seed(seed)
    if not isinstance(stratified, bool):
        msg = f"`stratified` must be True or False; got {stratified!r}."
        raise InputTypeError(msg)
    if threshold is None:
        point = ranking.best_threshold(measure, alpha=alpha, cost_ratio=cost_ratio, quota=quota)
    else:
        point = ranking.at_threshold(threshold, measure, alpha=alpha, cost_ratio=cost_ratio)
    if math.isnan(point.value):
        return nan_interval(math.nan, level, "percentile", point.reason or "undefined")
    measure = point.measure  # the registry's name of the criterion ("youden": informedness)
    positives = np.asarray(ranking.positives, dtype=np.float64)
    negatives = np.asarray(ranking.negatives, dtype=np.float64)
    groups = positives.size
    fixed = None if threshold is None else cut_index(ranking.scores, float(threshold))
    ratio = 1.0 if cost_ratio is None else float(cost_ratio)
    sign = -1.0 if measure == "cost" else 1.0
    values = np.empty(replicates)
    step = max(1, _BLOCK_TABLES // (groups + 1))
    for start in range(0, replicates, step):
        count = min(step, replicates - start)
        pos, neg = _draw(rng, positives, negatives, count, stratified)
        counts = _cut_tables(pos, neg)
        if fixed is not None:
            counts = counts[:, fixed : fixed + 1]
        criterion = criterion_values(counts, measure, float(alpha), ratio)
        if quota is not None and fixed is None:
            selected = counts[..., 0, 0] + counts[..., 0, 1]
            criterion = np.where(selected <= float(quota) * (1 + 1e-12), criterion, np.nan)
        with np.errstate(invalid="ignore"):
            defined = ~np.isnan(criterion).all(axis=1)
            best = np.full(count, np.nan)
            best[defined] = np.nanmax(criterion[defined], axis=1)
        values[start : start + count] = sign * best
    return replicate_interval(point.value, values, level, "percentile", math.nan)


def _draw(
    rng: np.random.Generator,
    positives: Floats,
    negatives: Floats,
    count: int,
    stratified: bool,
) -> tuple[Floats, Floats]:
    """Resampled positives and negatives per group, shape (count, U), scaled to the
    weights (frequency weights are drawn as round(total) cases)."""
    if stratified:
        return _multinomial(rng, positives, count), _multinomial(rng, negatives, count)
    both = _multinomial(rng, np.concatenate([positives, negatives]), count)
    return both[:, : positives.size], both[:, positives.size :]


def _multinomial(rng: np.random.Generator, counts: Floats, count: int) -> Floats:
    total = float(counts.sum())
    draws = check_cases(total)
    if draws == 0:
        return np.zeros((count, counts.size))
    drawn = rng.multinomial(draws, counts / total, size=count).astype(np.float64)
    return drawn * (total / draws)


def _cut_tables(positives: Floats, negatives: Floats) -> Floats:
    """2x2 tables at every cut of each replicate: shape (count, U + 1, 2, 2)."""
    count, groups = positives.shape
    tp = np.zeros((count, groups + 1))
    fp = np.zeros((count, groups + 1))
    np.cumsum(positives, axis=1, out=tp[:, 1:])
    np.cumsum(negatives, axis=1, out=fp[:, 1:])
    out = np.empty((count, groups + 1, 2, 2))
    out[..., 0, 0] = tp
    out[..., 0, 1] = fp
    out[..., 1, 0] = tp[:, -1:] - tp
    out[..., 1, 1] = fp[:, -1:] - fp
    return out


def cut_scores(
    actual: NDArray[Any],
    positive: Label,
    scores: Mapping[str, Any],
    rankings: Mapping[str, Ranking],
    threshold: Any,
    measure: str,
    alpha: float,
) -> tuple[dict[str, NDArray[Any]], dict[str, OperatingPoint]]:
    """Each model's scores cut into predictions (`positive` for a score >= its threshold,
    the other class below), and the operating points: `threshold` is a number, "best"
    (each model's `Ranking.best_threshold(measure)`) or a dict per model. `actual` must
    hold exactly two classes."""
    labels, _ = code_labels(actual, "actual")
    if len(labels) != 2:
        msg = (
            "`threshold` cuts scores into two predicted classes, so `actual` must hold "
            f"exactly two classes; it holds {len(labels)}: {list(labels)[:10]}."
        )
        raise InputError(msg)
    key = keyed(positive)
    negative = next(x for x in labels if keyed(x) != key)
    predicted: dict[str, NDArray[Any]] = {}
    points: dict[str, OperatingPoint] = {}
    for name, ranking in rankings.items():
        if isinstance(threshold, Mapping):
            if name not in threshold:
                msg = f"`threshold` has no value for model {name!r}; it names {list(threshold)}."
                raise InputError(msg)
            value: Any = threshold[name]
        else:
            value = threshold
        if isinstance(value, str):
            if value != "best":
                msg = f"`threshold` must be a number or 'best'; got {value!r}."
                raise InputError(msg)
            point = ranking.best_threshold(measure, alpha=alpha, labels=(positive, negative))
        else:
            point = ranking.at_threshold(value, measure, alpha=alpha, labels=(positive, negative))
        if math.isnan(point.threshold):
            msg = f"no threshold can be chosen for model {name!r}: {point.reason}."
            raise InputError(msg)
        column = np.asarray(scores[name], dtype=np.float64)
        predicted[name] = np.where(column >= point.threshold, positive, negative)
        points[name] = point
    return predicted, points
