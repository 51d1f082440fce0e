"""Operating points of a ranking: where to cut the scores, and the 2x2 table there.

A threshold t predicts positive the rows scored t or more. A tie group is predicted
whole or not at all, as on the ROC curve (`informed.ranking.thresholds`), so the
distinct cuts are the U + 1 tie-group boundaries: cut k predicts the top k groups
positive, at the threshold t = the k-th highest score (k = 0, nothing predicted, has
t = +inf). The table at every cut comes from the cumulative counts of the groups, so
the best cut for any measure is one vectorised pass over the U + 1 tables, O(U).

Criteria (`best_threshold`):

* a registry measure of the 2x2 table, maximised: informedness (Youden's J, the
  Bookmaker), markedness, correlation, Matthews correlation, F (with `alpha`),
  accuracy, kappa;
* ``"cost"``, minimised: (fp + cost_ratio x fn) / n, the expected cost per case when a
  false negative costs `cost_ratio` times a false positive;
* any of them under a quota: only cuts predicting at most `quota` cases positive count
  (a budget of j cases to act on, as in Arbel & Rokach 2006).

Among cuts with the same best value (up to rounding, 1e-12 relative), the one predicting
the fewest cases positive wins.
Nothing here knows the Ranking class (the Ranking's methods call these functions with
its scores and tie groups), so there is no import cycle.

References
----------
Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3(1):32-35.
Powers, D. M. W. (2003). Recall and precision versus the Bookmaker. Proc. ICCS 2003.
Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources. Pattern
Recognition Letters 27(14).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_number
from informed._markup import fragment
from informed.coding.labels import Label, keyed
from informed.errors import InputError, InputTypeError
from informed.measures import MEASURES, measure_name, undefined_reason
from informed.ranking.groups import FloatArray, Groups, cut_counts
from informed.table.table import Table

__all__ = [
    "THRESHOLD_CRITERIA",
    "OperatingPoint",
    "OperatingPoints",
    "best_threshold",
    "criterion_values",
    "cut_counts",
    "cut_index",
    "operating_point_at",
]

THRESHOLD_CRITERIA = (
    "informedness",
    "markedness",
    "correlation",
    "matthews_correlation",
    "f_measure",
    "accuracy",
    "kappa",
    "cost",
)
"""What `best_threshold` can optimise: registry measures (maximised) and "cost" (minimised)."""

_TIE = 1e-12
"""Values of two cuts closer than this (relative) are equal: 2/3 - 0 and 1 - 1/3 differ in
the last bit, and the rule "fewest predicted positives first" must not depend on that."""


@dataclass(frozen=True)
class OperatingPoint:
    """A threshold on the scores, the 2x2 table it makes, and the value of a measure there.

    Attributes
    ----------
    threshold : float
        Rows scored `threshold` or more are predicted positive (+inf: none; nan when no
        threshold could be chosen, see `reason`).
    measure : str
        What `value` is: a registry name, or "cost".
    value : float
        The measure of `table` (nan where undefined).
    table : Table
        The 2x2 table at the threshold: rows predicted, columns actual, its two labels
        in canonical order as in every Table (`cells` reads it by name).
    groups : int
        How many tie groups (distinct scores, from the top) are predicted positive.
    false_positive_rate, true_positive_rate : float
        The point on the ROC curve.
    chosen_by : str
        "best" (optimised by `best_threshold`) or "given" (a threshold you chose).
    quota : float or None
        The most cases the threshold was allowed to predict positive.
    cost_ratio : float or None
        For "cost": what a false negative costs, a false positive costing 1.
    alpha : float
        Weight of the F-measure.
    reason : str or None
        Why `value` is nan or no threshold was chosen.
    positive : label
        The label of `table` predicted at or above the threshold (the Ranking's positive
        class, or "+" when it has none).
    """

    threshold: float
    measure: str
    value: float
    table: Table
    groups: int
    false_positive_rate: float
    true_positive_rate: float
    chosen_by: str
    quota: float | None = None
    cost_ratio: float | None = None
    alpha: float = 0.5
    reason: str | None = None
    positive: Label = "+"

    @property
    def negative(self) -> Label:
        """The table's other label, predicted below the threshold."""
        wanted = keyed(self.positive)
        return next(x for x in self.table.predicted if keyed(x) != wanted)

    @property
    def cells(self) -> tuple[Any, Any, Any, Any]:
        """(tp, fp, fn, tn): the table's cells by name, exact (int counts or float weights).

        >>> from informed import Ranking
        >>> ranking = Ranking.from_scores(["b", "m", "m"], [0.2, 0.9, 0.1], positive="m")
        >>> ranking.at_threshold(0.5).table.predicted, ranking.at_threshold(0.5).cells
        (('b', 'm'), (1, 0, 1, 1))
        """
        p, n, table = self.positive, self.negative, self.table
        return table.count(p, p), table.count(p, n), table.count(n, p), table.count(n, n)

    @property
    def selected(self) -> float:
        """How many cases (or how much weight) the threshold predicts positive."""
        tp, fp, _, _ = self.cells
        return float(tp + fp)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (nan as None, the threshold +-inf as a string)."""

        tp, fp, fn, tn = self.cells
        return {
            "threshold": json_number(self.threshold),
            "rule": ">=",
            "measure": self.measure,
            "value": json_number(self.value),
            "chosen_by": self.chosen_by,
            "counts": {"tp": tp, "fp": fp, "fn": fn, "tn": tn},
            "groups": self.groups,
            "false_positive_rate": json_number(self.false_positive_rate),
            "true_positive_rate": json_number(self.true_positive_rate),
            "quota": self.quota,
            "cost_ratio": self.cost_ratio,
            "reason": self.reason,
        }

    def __str__(self) -> str:
        tp, fp, fn, tn = self.cells
        value = "undefined" if math.isnan(self.value) else f"{self.value:.4f}"
        return (
            f"score >= {self.threshold:.6g}: {self.measure} {value} "
            f"(tp {tp:g}, fp {fp:g}, fn {fn:g}, tn {tn:g})"
        )

    def __repr__(self) -> str:
        return f"OperatingPoint({self}{'' if self.reason is None else '; ' + self.reason})"

    def _repr_html_(self) -> str:
        """A notebook's view: the threshold and the value there, then its 2x2 table."""
        note = None if self.reason is None else f"undefined: {self.reason}"
        return fragment(str(self), [self.table._repr_html_()], note=note)


def _check_options(measure: Any, alpha: Any, cost_ratio: Any, quota: Any) -> str:
    """The options checked; the criterion's registry name ("youden" is informedness)."""
    if measure != "cost":
        measure = measure_name(measure, among=THRESHOLD_CRITERIA[:-1])
    if isinstance(alpha, bool) or not isinstance(alpha, int | float | np.number):
        msg = f"`alpha` must be a number in [0, 1], such as 0.5; got {alpha!r}."
        raise InputTypeError(msg)
    if not 0.0 <= float(alpha) <= 1.0:
        msg = f"`alpha` must lie in [0, 1] (0.5 is F1); got {alpha!r}."
        raise InputError(msg)
    if (measure == "cost") != (cost_ratio is not None):
        msg = (
            "`cost_ratio` goes with measure='cost' (what a false negative costs when a "
            f"false positive costs 1); got measure={measure!r}, cost_ratio={cost_ratio!r}."
        )
        raise InputError(msg)
    for name, value in (("cost_ratio", cost_ratio), ("quota", quota)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float | np.number):
            msg = f"`{name}` must be a non-negative number; got {value!r}."
            raise InputTypeError(msg)
        if not (math.isfinite(float(value)) and float(value) >= 0):
            msg = f"`{name}` must be a finite non-negative number; got {value!r}."
            raise InputError(msg)
    return str(measure)


def criterion_values(
    counts: NDArray[np.float64], measure: str, alpha: float = 0.5, cost_ratio: float = 1.0
) -> NDArray[np.float64]:
    """The criterion at each 2x2 table of `counts[..., 2, 2]`; "cost" is negated, so that
    the best cut is always the largest value."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if measure == "cost":
            n = counts.sum(axis=(-2, -1))
            cost = counts[..., 0, 1] + cost_ratio * counts[..., 1, 0]
            return -np.where(n > 0, cost / np.where(n > 0, n, 1.0), np.nan)
        entry = MEASURES[measure_name(measure)]
        kwargs = {"alpha": alpha} if entry.takes_alpha else {}
        return np.asarray(entry(counts, **kwargs), dtype=np.float64)


def _undefined(measure: str, groups: Groups) -> str:
    if groups.n == 0:
        return "the ranking is empty"
    if groups.n_positive == 0:
        return f"no actual positives: {measure} is undefined or constant at every threshold"
    if groups.n_negative == 0:
        return f"no actual negatives: {measure} is undefined or constant at every threshold"
    return f"{measure} is undefined at every threshold"


def _point(
    scores: FloatArray,
    groups: Groups,
    k: int,
    measure: str,
    value: float,
    chosen_by: str,
    labels: tuple[Label, Label],
    weighted: bool,
    **extra: Any,
) -> OperatingPoint:
    counts = cut_counts(groups)[k]
    cells = counts if weighted else np.rint(counts).astype(np.int64)
    tp, fp = cells[0].tolist()
    fn, tn = cells[1].tolist()
    n_pos, n_neg = groups.n_positive, groups.n_negative
    return OperatingPoint(
        threshold=math.inf if k == 0 else float(scores[k - 1]),
        measure=measure,
        value=value,
        table=Table.binary(tp=tp, fp=fp, fn=fn, tn=tn, labels=labels),
        groups=k,
        false_positive_rate=float(counts[0, 1] / n_neg) if n_neg else math.nan,
        true_positive_rate=float(counts[0, 0] / n_pos) if n_pos else math.nan,
        chosen_by=chosen_by,
        positive=labels[0],
        **extra,
    )


def best_threshold(
    scores: FloatArray,
    groups: Groups,
    *,
    measure: str = "informedness",
    alpha: float = 0.5,
    cost_ratio: float | None = None,
    quota: float | None = None,
    labels: tuple[Label, Label] = ("+", "-"),
    weighted: bool = False,
) -> OperatingPoint:
    """The threshold that optimises `measure` over every cut of the tie groups.

    Parameters are those of `Ranking.best_threshold`; `scores` and `groups` are the
    Ranking's distinct scores (descending) and group arrays.
    """
    measure = _check_options(measure, alpha, cost_ratio, quota)
    ratio = 1.0 if cost_ratio is None else float(cost_ratio)
    values = criterion_values(cut_counts(groups), measure, float(alpha), ratio)
    allowed = ~np.isnan(values)
    if quota is not None:
        allowed &= groups.cumulative_total <= float(quota) * (1.0 + 1e-12)
    extra = {
        "quota": None if quota is None else float(quota),
        "cost_ratio": None if cost_ratio is None else float(cost_ratio),
        "alpha": float(alpha),
    }
    if not allowed.any():
        why = _undefined(measure, groups)
        if quota is not None and groups.n_positive and groups.n_negative:
            why = f"no threshold predicts at most {quota:g} cases positive with {measure} defined"
        point = _point(scores, groups, 0, measure, math.nan, "best", labels, weighted, **extra)
        return replace(point, threshold=math.nan, reason=why)
    candidates = np.where(allowed, values, -np.inf)
    top = float(candidates.max())
    # cuts whose values differ only by rounding are equally good: take the first of them
    k = int(np.argmax(candidates >= top - _TIE * max(1.0, abs(top))))
    value = float(-values[k] if measure == "cost" else values[k])
    return _point(scores, groups, k, measure, value, "best", labels, weighted, **extra)


def cut_index(scores: FloatArray, threshold: float) -> int:
    """How many tie groups `score >= threshold` selects."""
    return int(np.searchsorted(-scores, -threshold, side="right"))


def operating_point_at(
    scores: FloatArray,
    groups: Groups,
    threshold: float,
    *,
    measure: str = "informedness",
    alpha: float = 0.5,
    cost_ratio: float | None = None,
    labels: tuple[Label, Label] = ("+", "-"),
    weighted: bool = False,
) -> OperatingPoint:
    """The operating point of a threshold you chose: rows scored `threshold` or more are
    predicted positive."""
    if isinstance(threshold, bool) or not isinstance(threshold, int | float | np.number):
        msg = f"`threshold` must be a number; got {threshold!r}."
        raise InputTypeError(msg)
    if math.isnan(float(threshold)):
        msg = "`threshold` must not be NaN."
        raise InputError(msg)
    measure = _check_options(measure, alpha, cost_ratio, None)
    k = cut_index(scores, float(threshold))
    ratio = 1.0 if cost_ratio is None else float(cost_ratio)
    counts = cut_counts(groups)[k]
    raw = float(criterion_values(counts, measure, float(alpha), ratio))
    value = -raw if measure == "cost" else raw
    point = _point(
        scores,
        groups,
        k,
        measure,
        value,
        "given",
        labels,
        weighted,
        cost_ratio=None if cost_ratio is None else float(cost_ratio),
        alpha=float(alpha),
    )
    reason = None
    if math.isnan(value):
        reason = (
            "no data (N = 0)"
            if measure == "cost"
            else undefined_reason(MEASURES[measure], counts) or "undefined for this table"
        )
    return replace(point, threshold=float(threshold), reason=reason)


class OperatingPoints:
    """The threshold methods of a Ranking (`Ranking` inherits them): `best_threshold` and
    `at_threshold`, each delegating to the functions of this module."""

    def _cuts(self) -> tuple[FloatArray, Groups, bool]:
        """(distinct scores descending, tie-group arrays, weighted): the Ranking gives them."""
        raise NotImplementedError

    def _table_labels(self) -> tuple[Label, Label]:
        """(positive, negative) labels of a table cut from the Ranking: it gives them."""
        raise NotImplementedError

    def best_threshold(
        self,
        measure: str = "informedness",
        *,
        alpha: float = 0.5,
        cost_ratio: float | None = None,
        quota: float | None = None,
        labels: tuple[Label, Label] | None = None,
    ) -> OperatingPoint:
        """The threshold on the scores that optimises `measure`, with the 2x2 table there.

        Parameters
        ----------
        measure : str
            One of `THRESHOLD_CRITERIA`: "informedness" (Youden's J, the default),
            "markedness", "correlation", "matthews_correlation", "f_measure", "accuracy",
            "kappa" (maximised), by any of their names ("youden", "MCC", "F1"), or
            "cost" (minimised; needs `cost_ratio`).
        alpha : float
            Weight of the F-measure (0.5 is F1).
        cost_ratio : float, optional
            With "cost": a false negative costs `cost_ratio`, a false positive 1; the
            value is the mean cost per case, (fp + cost_ratio x fn) / n.
        quota : float, optional
            Consider only thresholds that predict at most `quota` cases positive.
        labels : (positive, negative), optional
            The labels of the returned table; by default the Ranking's own classes
            (`informed.ranking.classes.table_labels`: "+" and "-" where it knows none).

        Returns
        -------
        OperatingPoint
            Rows scored `threshold` or more are predicted positive. A tie group is
            predicted whole, as on the ROC curve; among equally good cuts the one
            predicting the fewest positives wins. Where the measure is undefined at
            every cut (no actual positives, say) `threshold` and `value` are nan with
            a `reason`. A bootstrap interval of the value:
            `informed.inference.threshold_interval`.

        Examples
        --------
        >>> from informed import Ranking
        >>> r = Ranking.from_scores(actual=[1, 1, 0, 1, 0, 0], scores=[6, 5, 4, 3, 2, 1],
        ...                         positive=1)
        >>> point = r.best_threshold()
        >>> point.threshold, round(point.value, 4), point.cells  # (tp, fp, fn, tn)
        (5.0, 0.6667, (2, 0, 1, 3))
        >>> point.table.predicted, point.positive  # the Ranking's classes, canonical order
        ((0, 1), 1)
        """
        scores, groups, weighted = self._cuts()
        return best_threshold(
            scores,
            groups,
            measure=measure,
            alpha=alpha,
            cost_ratio=cost_ratio,
            quota=quota,
            labels=self._table_labels() if labels is None else labels,
            weighted=weighted,
        )

    def cut_tables(self, cuts: Any) -> tuple[FloatArray, FloatArray]:
        """The thresholds and 2x2 counts [[tp, fp], [fn, tn]] of the cuts `cuts` (cut k
        predicts the top k tie groups positive; 0 <= k <= n_groups): exactly those of
        `at_threshold` at each threshold (+inf for cut 0), in one vectorised pass.

        >>> from informed import Ranking
        >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[0.9, 0.4, 0.4, 0.1],
        ...                         positive=1)
        >>> thresholds, counts = r.cut_tables([0, 2])
        >>> thresholds.tolist(), counts[1].tolist()
        ([inf, 0.4], [[2.0, 1.0], [0.0, 1.0]])
        """
        scores, groups, _ = self._cuts()
        index = np.asarray(cuts, dtype=np.intp)
        if index.size and (index.min() < 0 or index.max() > scores.size):
            msg = f"`cuts` must lie in 0..{scores.size} (the number of tie groups)."
            raise InputError(msg)
        thresholds = np.concatenate([[math.inf], scores])[index]
        tp = groups.cumulative_positives[index]  # as `cut_counts`, for these cuts only
        fp = groups.cumulative_negatives[index]
        counts = np.stack([tp, fp, groups.n_positive - tp, groups.n_negative - fp], axis=-1)
        return thresholds, counts.reshape(-1, 2, 2)

    def at_threshold(
        self,
        threshold: float,
        measure: str = "informedness",
        *,
        alpha: float = 0.5,
        cost_ratio: float | None = None,
        labels: tuple[Label, Label] | None = None,
    ) -> OperatingPoint:
        """The operating point of a threshold you chose (rows scored `threshold` or more
        predicted positive): its 2x2 table and the value of `measure` there.

        >>> from informed import Ranking
        >>> r = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[0.9, 0.4, 0.4, 0.1],
        ...                         positive=1)
        >>> r.at_threshold(0.4).cells  # (tp, fp, fn, tn): the tie at 0.4 is predicted whole
        (2, 1, 0, 1)
        """
        scores, groups, weighted = self._cuts()
        return operating_point_at(
            scores,
            groups,
            threshold,
            measure=measure,
            alpha=alpha,
            cost_ratio=cost_ratio,
            labels=self._table_labels() if labels is None else labels,
            weighted=weighted,
        )
