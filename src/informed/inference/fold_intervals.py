"""Intervals of each fold's measure and of the pooled measure of cross-validation folds.

A fold's measure is that of one fitted model on its own test cases, so a bootstrap of
those cases (BCa, Efron 1987; `informed.inference.slice_bootstrap`, each fold resampled
from its own cells) or DeLong's interval of its AUC (DeLong, DeLong & Clarke-Pearson
1988) says how much it varies with the test cases, given that model. The pooled value's
interval is the same bootstrap of the pooled Table (DeLong's of the pooled Ranking), as
if its rows were one test set, which they are only when each case is counted once: with
repeats a case is in the pooled Table once per repeat and its rows are not independent,
so the pooled interval is undefined, with that reason.

Neither interval includes the variance that retraining adds (the folds' models differ
and their training sets overlap), so neither is an interval for the error of the learning
procedure; for that, nested cross-validation (Bates, Hastie & Tibshirani 2023,
"Cross-validation: what does it estimate and how well does it do it?";
`informed.sklearn.nested_cv`).

References
----------
Efron, B. (1987). Better bootstrap confidence intervals. J. Amer. Statist. Assoc.
82(397):171-185.
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the areas under
two or more correlated receiver operating characteristic curves: a nonparametric
approach. Biometrics 44(3):837-845.
Bates, S., Hastie, T. & Tibshirani, R. (2023). Cross-validation: what does it estimate
and how well does it do it? J. Amer. Statist. Assoc.

>>> from informed.slices import Folds
>>> folds = Folds.from_labels(folds=[1, 2] * 40, actual=[1, 1, 0, 0] * 20,
...                           predicted=[1, 0, 0, 0] * 20)
>>> found = fold_intervals(folds, ["informedness"], positive=1, seed=0, replicates=200)
>>> [round(i.estimate, 2) for i in found["informedness"].folds], found["informedness"].pooled.method
([1.0, 0.0], 'bca')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from informed.inference.checks import check_level
from informed.inference.delong import delong_interval
from informed.inference.interval import Interval, nan_interval, undefined_note, undefined_where
from informed.inference.slice_bootstrap import bootstrap_slices
from informed.inference.table_bootstrap import bootstrap
from informed.measures import MEASURES
from informed.slices.folds import Folds, fold_measure

__all__ = ["FOLD_INTERVALS_NOTE", "FoldIntervals", "fold_intervals"]

FOLD_INTERVALS_NOTE = (
    "each fold's interval is that of its own test cases given its fitted model, the "
    "pooled one that of the pooled rows as one test set; neither includes the variance "
    "that retraining adds (the folds share training cases), so neither is an interval for "
    "the learning procedure's error (Bates, Hastie & Tibshirani 2023, 'Cross-validation: "
    "what does it estimate and how well does it do it?'; informed.sklearn.nested_cv)"
)
"""What the intervals are and what they are not, for every report that shows them."""

_REPEATED = (
    "each case is counted once per repeat in the pooled rows, which are not independent: "
    "no interval"
)


@dataclass(frozen=True)
class FoldIntervals:
    """One measure's intervals across folds.

    Attributes
    ----------
    measure : str
    folds : tuple of Interval
        Each fold's, in the folds' order (`Folds.keys`).
    pooled : Interval
        The pooled value's (nan with the reason where the pooled rows repeat cases).
    """

    measure: str
    folds: tuple[Interval, ...]
    pooled: Interval

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """JSON-ready: each fold's [low, high] by name, the pooled one, the reasons, and
        how many replicates were undefined and left out of each interval (by fold name,
        where any was; 0 for the pooled one where none was)."""
        pairs = list(zip(names, self.folds, strict=True))
        reasons = {n: i.reason for n, i in pairs if i.reason}
        return {
            "level": self.pooled.level,
            "method": self.pooled.method,
            "folds": {n: i.as_list() for n, i in pairs},
            "pooled": self.pooled.as_list(),
            "reasons": reasons,
            "pooled_reason": self.pooled.reason,
            "undefined_replicates": {
                n: i.undefined_replicates for n, i in pairs if i.undefined_replicates
            },
            "pooled_undefined_replicates": self.pooled.undefined_replicates,
        }

    def undefined_notes(self, names: Sequence[str], title: str) -> list[str]:
        """Where replicates were undefined and left out of an interval with bounds, how
        many (`undefined_note`): the first fold's count, how many folds more, and the
        pooled count; `title` names the measure, `names` the folds.

        >>> from informed.inference.interval import Interval
        >>> some = Interval(0.9, 0.5, 1.0, 0.95, "bca", undefined_replicates=336)
        >>> found = FoldIntervals("informedness", (some, some), some)
        >>> for note in found.undefined_notes(["a", "b"], "B"):
        ...     print(note)
        B: 336 replicates undefined in fold 'a' (and 1 fold more)
        B pooled: 336 replicates undefined
        """
        first = undefined_where(zip(names, self.folds, strict=True), title, "fold")
        notes = [first] if first else []
        whole = self.pooled
        if whole.undefined_replicates and not (math.isnan(whole.low) or math.isnan(whole.high)):
            notes.append(f"{title} pooled: {undefined_note(whole)}")
        return notes


def fold_intervals(
    folds: Folds,
    measures: Sequence[str],
    *,
    positive: Any = None,
    level: float = 0.95,
    seed: int | np.random.Generator | None = 0,
    replicates: int = 1000,
) -> dict[str, FoldIntervals]:
    """Each fold's and the pooled interval of each measure.

    Parameters
    ----------
    folds : Folds
    measures : sequence of str
        Registry measures (BCa bootstrap intervals) and ranking measures ("auc": DeLong's
        interval on the logit scale; the other ranking summaries have none, nan with the
        reason).
    positive : label, optional
        Table measures of this label's one-vs-rest view.
    level, seed, replicates
        As in `informed.inference.bootstrap`.

    Returns
    -------
    dict
        Measure -> FoldIntervals. With a repeat column holding more than one repeat the
        pooled intervals are nan: each case is counted once per repeat.
    """
    level = check_level(level)
    chosen = [fold_measure(m) for m in measures]
    repeated = len(folds.slices.by) == 2 and len(set(folds.repeats)) > 1
    order = folds.order.tolist()
    found: dict[str, FoldIntervals] = {}
    table = [m for m in chosen if m in MEASURES]
    if table:
        per_fold = bootstrap_slices(
            folds.slices,
            table,
            positive=positive,
            replicates=replicates,
            level=level,
            seed=seed,
        )
        pooled = None
        if not repeated:
            pooled = bootstrap(
                folds.pooled,
                table,
                positive=positive,
                replicates=replicates,
                level=level,
                method="bca",
                seed=seed,
            )
        for m in table:
            slices_order = per_fold.intervals[m]
            if pooled is None:
                value = folds.pooled_value(m, positive=positive)
                whole = nan_interval(value, level, "bca", _REPEATED)
            else:
                whole = pooled.intervals[m]
            found[m] = FoldIntervals(m, tuple(slices_order[i] for i in order), whole)
    for m in chosen:
        if m in MEASURES:
            continue
        if m == "auc":
            each = tuple(delong_interval(folds.ranking(k), level=level) for k in folds.keys)
            if repeated:
                value = folds.pooled_value(m)
                whole = nan_interval(value, level, "delong-logit", _REPEATED)
            else:
                whole = delong_interval(folds.pooled_ranking, level=level)
        else:
            reason = f"no interval is computed for {m}"
            values = folds.values(m)
            each = tuple(nan_interval(float(v), level, "none", reason) for v in values)
            whole = nan_interval(folds.pooled_value(m), level, "none", reason)
        found[m] = FoldIntervals(m, each, whole)
    return {m: found[m] for m in chosen}
