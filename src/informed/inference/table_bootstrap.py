"""Bootstrap intervals for the measures of a Table, computed from the Table alone.

Resampling n cases (rows) with replacement and counting them into a table gives table
counts with a multinomial distribution: n draws over the K x C cells with the observed
cell proportions as probabilities. A cell with no case has probability 0 and stays 0,
so only the non-zero cells are drawn from, and a sparse table of many labels is
resampled as cheaply as a dense one of the same cells (with the same seed, to the same
replicates). So a case bootstrap is one call to `numpy.random.Generator.multinomial`,
and every registered measure of B replicates is one vectorised evaluation of their
cells (`informed.measures.Cells`, shape (B, cells)): O(B (cells + L)) work instead of
O(B n).
The percentile and BCa rules are in `informed.inference.replicates`; analytic intervals
of the proportions (Wilson; Clopper-Pearson) in `informed.inference.proportions`.

References
----------
Efron, B. (1979). Bootstrap methods: another look at the jackknife. Ann. Statist. 7(1):1-26.
Efron, B. (1987). Better bootstrap confidence intervals. J. Amer. Statist. Assoc.
82(397):171-185.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice, readonly
from informed.coding.labels import Label, as_label, keyed
from informed.errors import InputError
from informed.inference.checks import (
    WEIGHTS_ARE,
    case_count,
    check_count,
    check_level,
    check_seed,
    check_table,
    frequency_hint,
    label_index,
)
from informed.inference.display import bootstrap_heading, intervals_html, intervals_lines
from informed.inference.interval import Interval, nan_interval
from informed.inference.replicates import jackknife_acceleration, replicate_interval
from informed.measures import MEASURES, ByMeasure, Cells, measure_name, measure_names
from informed.table.evaluation import evaluate, measure_values
from informed.table.table import Table

__all__ = [
    "BOOTSTRAP_METHODS",
    "WEIGHTS_ARE",
    "Bootstrap",
    "bootstrap",
    "case_count",
    "intervals_report",
]

Floats = NDArray[np.float64]

BOOTSTRAP_METHODS = ("percentile", "bca")
# Bootstrap replicates are evaluated in batches of at most this many cells, so that the
# (B, cells) counts and their (B, L, 2, 2) one-vs-rest views stay within a few hundred MB.
_BATCH_CELLS = 4_000_000


@dataclass(frozen=True, eq=False)
class Bootstrap:
    """Bootstrap intervals of measures of one Table, with the replicate distributions.

    Attributes
    ----------
    table : Table
        What was resampled.
    positive : label or None
        With a positive label, the measures are those of its one-vs-rest 2x2 view (as in
        `informed.evaluate`).
    level : float
        Nominal coverage of `intervals`.
    method : {"percentile", "bca"}
    replicates : int
        Number of bootstrap replicates B.
    size : int
        Cases drawn per replicate (N for a table of counts).
    weights_are : {"frequency", "normalised"} or None
        How a weighted table's weights were read (None: the table holds counts).
    intervals : dict
        Registry name -> Interval of the overall (or positive-label) value.
    per_label : dict
        Label -> registry name -> Interval of that label's one-vs-rest value (empty unless
        `per_label=True` was asked).
    distribution : dict
        Registry name -> the B replicate values (nan where undefined), read-only.
    per_label_distribution : dict
        Label -> registry name -> the B replicate values.
    acceleration : dict
        (label or None, registry name) -> the BCa acceleration (nan for "percentile").
    """

    table: Table
    positive: Label | None
    level: float
    method: str
    replicates: int
    size: int
    weights_are: str | None
    intervals: dict[str, Interval]
    per_label: dict[Label, dict[str, Interval]]
    distribution: dict[str, Floats] = field(repr=False)
    per_label_distribution: dict[Label, dict[str, Floats]] = field(repr=False)
    acceleration: dict[tuple[Label | None, str], float] = field(repr=False)

    def __post_init__(self) -> None:
        # any name of a measure finds its interval or its replicates: intervals["tpr"]
        for name in ("intervals", "distribution"):
            object.__setattr__(self, name, ByMeasure(getattr(self, name)))
        for name in ("per_label", "per_label_distribution"):
            by_label = {label: ByMeasure(found) for label, found in getattr(self, name).items()}
            object.__setattr__(self, name, by_label)

    def __repr__(self) -> str:
        """A heading, then one line per measure (at most twelve)."""
        return "\n".join([bootstrap_heading(self), *intervals_lines(self.intervals)])

    def _repr_html_(self) -> str:
        """A notebook's view: every measure's interval (and each label's), or why not."""
        heading = bootstrap_heading(self)
        return intervals_html(heading, self.intervals, self.per_label, group_caption="label")

    def confidence_interval(
        self, measure: str, *, level: float | None = None, label: Any = None
    ) -> Interval:
        """The interval of `measure` at another `level`, from the stored replicates.

        Parameters
        ----------
        measure : str
            A measure among those bootstrapped, by any of its names ("tpr", "F1").
        level : float, optional
            Nominal coverage; default the level the bootstrap was run at.
        label : label, optional
            A label's one-vs-rest value (needs `per_label=True`); default the overall one.
        """
        level = self.level if level is None else check_level(level)
        if label is None:
            source, values = self.intervals, self.distribution
            key: Label | None = None
        else:
            label = as_label(label)
            found = [x for x in self.per_label if keyed(x) == keyed(label)]
            if not found:
                msg = (
                    f"label={label!r} has no per-label intervals; they exist for "
                    f"{list(self.per_label)} (run bootstrap with per_label=True)."
                )
                raise InputError(msg)
            key = found[0]
            source, values = self.per_label[key], self.per_label_distribution[key]
        measure = measure_name(measure, among=source)
        stored = source[measure]
        if math.isnan(stored.estimate) or len(values[measure]) == 0:
            return Interval(
                stored.estimate, math.nan, math.nan, level, self.method, reason=stored.reason
            )
        return replicate_interval(
            stored.estimate, values[measure], level, self.method, self.acceleration[(key, measure)]
        )


def _check_names(measures: Any) -> list[str]:
    return list(MEASURES) if measures is None else measure_names(measures)  # "tpr": recall


# ---------------------------------------------------------------------- batch evaluation
def _batches(total: int, cells_each: int) -> list[slice]:
    step = max(1, _BATCH_CELLS // max(cells_each, 1))
    return [slice(start, min(start + step, total)) for start in range(0, total, step)]


def _evaluate_batches(
    tables: Any,
    count: int,
    size: int,
    names: list[str],
    index: int | None,
    alpha: float,
    undefined: str,
    per_label: bool,
) -> tuple[dict[str, Floats], dict[str, Floats]]:
    """`measure_values` of `count` tables produced by `tables(slice)` (the `Cells` of a
    batch of tables), in batches of about `_BATCH_CELLS` values (`size` per table)."""
    overall: dict[str, list[Floats]] = {name: [] for name in names}
    labels: dict[str, list[Floats]] = {name: [] for name in names}
    for part in _batches(count, size):
        block = tables(part)
        values, per = measure_values(block, names, index, alpha, undefined)
        for name in names:
            overall[name].append(values[name])
            if per_label:
                labels[name].append(per[name])
    joined = {name: np.concatenate(overall[name]) for name in names}
    joined_labels = {name: np.concatenate(labels[name]) for name in names} if per_label else {}
    return joined, joined_labels


# ---------------------------------------------------------------------- bootstrap
def bootstrap(
    table: Table,
    measures: Any = None,
    *,
    positive: Any = None,
    per_label: bool = False,
    replicates: int = 1000,
    level: float = 0.95,
    method: Literal["percentile", "bca"] = "percentile",
    seed: int | np.random.Generator | None = None,
    size: int | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    weights_are: Literal["frequency", "normalised"] = "frequency",
) -> Bootstrap:
    r"""Bootstrap confidence intervals of registry measures of a Table.

    Each replicate draws `size` cases with replacement from the table's cells:
    counts* ~ Multinomial(size, counts / N), the distribution of the table of a case
    (row) bootstrap. The measures of all replicates are evaluated in one vectorised pass,
    exactly as `informed.evaluate` evaluates the table itself.

    Parameters
    ----------
    table : Table
    measures : list of str, optional
        Measures by any of their names (registry names, titles, aliases such as "tpr"
        or "F1"); default every registered measure. The results are keyed by registry
        name, and any name of a measure finds it there.
    positive : label, optional
        Bootstrap the measures of this label's one-vs-rest view (as `evaluate` does).
    per_label : bool
        Also give each label's one-vs-rest intervals.
    replicates : int
        Number of bootstrap replicates B (>= 2).
    level : float
        Nominal coverage, strictly between 0 and 1.
    method : {"percentile", "bca"}
        Percentile interval (the level's tail quantiles of the replicates) or BCa, the
        bias-corrected and accelerated interval of Efron (1987).
    seed : int or numpy.random.Generator, optional
        The same seed gives the same intervals.
    size : int, optional
        Cases drawn per replicate. Default: N for a table of counts; for a weighted
        table the total weight rounded to an integer under ``weights_are="frequency"``,
        and it must be given (the number of rows) under "normalised" (see Notes).
    alpha : float
        Weight of the F family, as in `evaluate`.
    undefined : {"propagate", "omit"}
        How averages treat a label whose value is nan, as in `evaluate`.
    weights_are : {"frequency", "normalised"}
        What the weights of a weighted table mean: "frequency" (the default), a weight
        w is w cases, so N = the total weight; "normalised", the weights only say how
        much each row counts and the number of rows is the sample size (`size`). No
        effect on a table of counts.

    Returns
    -------
    Bootstrap
        Intervals by measure (and by label), the replicate values, the method and level.

    Notes
    -----
    **Why the cells.** Resampling n rows with replacement and counting them gives a table
    whose cells are Multinomial(n, p) with p the observed cell proportions; the measures
    depend on the rows only through that table, so both bootstraps have the same
    distribution (tested against a row bootstrap), at O(B K C) cost instead of O(B n).
    Replicates keep the table's labels: a label that a replicate happens not to contain
    has a row or column of zeros, as in `Table.from_labels(..., labels=table.labels)`.

    **Weighted tables** hold sums of weights, not the rows, so the spread of the weights
    is unknown. A replicate draws `size` cases with probabilities weight / total, and its
    counts are scaled back to the total weight (the measures are scale-free). With
    frequency weights (the default) `size` is round(total weight): weights of 0.01 on 500
    rows are 5 cases, and the intervals are those of 5 cases. With
    ``weights_are="normalised"`` `size` is the number of rows, which the Table does not
    hold (the command line counts the rows with a positive weight); for sampling weights
    Kish's n_eff = (sum w)^2 / sum w^2 is a smaller, more cautious `size`.

    **Undefined replicates.** A replicate in which a measure is undefined (a margin that
    happened to be empty) is left out of that measure's interval and counted in
    `Interval.undefined_replicates`; the interval is then conditional on definedness.
    A measure undefined on the table itself gives a nan interval with the reason.

    **BCa.** With theta* the replicates and theta the estimate,
    z0 = Phi^-1((#{theta* < theta} + #{theta* = theta} / 2) / B) and the interval is the
    replicate quantiles at Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q))) for the tail
    quantiles z_q. The acceleration a = sum d^3 / (6 (sum d^2)^(3/2)), d the deviations of
    the leave-one-case-out (jackknife) values from their mean. Removing one case from
    cell (i, j) gives the same table for each of its n_ij cases, so there are at most K C
    distinct jackknife tables, weighted by n_ij: exact, with no loop over cases. (For a
    weighted table one case is one unit of the scaled counts, clamped at zero.) Each
    jackknife table is evaluated whole, so BCa adds O(cells x (cells + L)) work:
    negligible for tens of labels, slow for thousands of cells (use "percentile" there).

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. J. Amer. Statist. Assoc.
    82(397):171-185.
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.

    Examples
    --------
    >>> table = Table.binary(tp=21, fp=14, fn=9, tn=56)
    >>> result = bootstrap(table, ["informedness"], positive="+", seed=1)
    >>> round(result.intervals["informedness"].estimate, 12)
    0.5
    >>> low, high = result.intervals["informedness"].as_list()
    >>> bool(low < 0.5 < high)
    True
    """
    table = check_table(table)
    names = _check_names(measures)
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    rng = check_seed(seed)
    method = check_choice(method, BOOTSTRAP_METHODS, "method")
    check_choice(undefined, ("propagate", "omit"), "undefined")
    draws = case_count(table, size, weights_are)
    evaluation = evaluate(table, positive=positive, alpha=alpha, undefined=undefined)
    labels, cells = table.square_cells()
    index = label_index(labels, evaluation.positive)
    total = float(table.n)
    shape = cells.shape

    def batch(values: Floats) -> Cells:
        return Cells(values, cells.rows, cells.cols, shape)

    estimates, label_estimates = measure_values(
        batch(cells.values[None]), names, index, alpha, undefined
    )
    empty = np.empty(0)
    reason: str | None = None
    hint = frequency_hint(table, size, weights_are)
    if not labels or total == 0:
        reason = "no data (N = 0)"
    elif draws == 0:
        reason = hint or "the total weight rounds to 0 cases; pass `size=`"
    if reason is not None:
        # the estimates are the table's own values: only their intervals are undefined
        known = labels and total > 0

        def none(estimate: Any) -> Interval:
            return nan_interval(float(estimate) if known else math.nan, level, method, reason)

        nan_intervals = {name: none(estimates[name][0]) for name in names}
        return Bootstrap(
            table=table,
            positive=evaluation.positive,
            level=level,
            method=method,
            replicates=replicates,
            size=draws,
            weights_are=weights_are if table.weighted else None,
            intervals=nan_intervals,
            per_label={
                label: {name: none(label_estimates[name][0, k]) for name in names}
                for k, label in enumerate(labels)
            }
            if per_label
            else {},
            distribution=dict.fromkeys(names, empty),
            per_label_distribution={label: dict.fromkeys(names, empty) for label in labels}
            if per_label
            else {},
            acceleration={},
        )

    # only the non-zero cells are drawn from: a zero cell stays zero in every replicate
    probabilities = cells.values / total
    scale = total / draws
    each = cells.values.size + 4 * len(labels)  # cells and one-vs-rest views per replicate

    def replicate_tables(part: slice) -> Cells:
        count = part.stop - part.start
        drawn = rng.multinomial(draws, probabilities, size=count).astype(np.float64)
        return batch(drawn * scale)

    overall, per = _evaluate_batches(
        replicate_tables, replicates, each, names, index, alpha, undefined, per_label
    )

    jack_overall: dict[str, Floats] = {}
    jack_per: dict[str, Floats] = {}
    if method == "bca":
        multiplicity = cells.values / scale

        def jackknife_tables(part: slice) -> Cells:
            block = np.repeat(multiplicity[None], part.stop - part.start, axis=0)
            positions = np.arange(part.stop - part.start)
            block[positions, np.arange(part.start, part.stop)] -= 1.0
            return batch(np.maximum(block, 0.0) * scale)

        values, label_values = _evaluate_batches(
            jackknife_tables, multiplicity.size, each, names, index, alpha, undefined, per_label
        )
        jack_overall = {name: jackknife_acceleration(values[name], multiplicity) for name in names}
        if per_label:
            jack_per = {
                name: jackknife_acceleration(label_values[name], multiplicity) for name in names
            }

    intervals: dict[str, Interval] = {}
    accelerations: dict[tuple[Label | None, str], float] = {}
    distribution: dict[str, Floats] = {}
    for name in names:
        estimate = float(estimates[name][0])
        a = float(jack_overall[name]) if method == "bca" else math.nan
        accelerations[(None, name)] = a
        distribution[name] = readonly(np.ascontiguousarray(overall[name], dtype=np.float64))
        if math.isnan(estimate):
            why = evaluation.reasons.get(name, "undefined for this table")
            intervals[name] = nan_interval(estimate, level, method, why)
        else:
            found = replicate_interval(estimate, overall[name], level, method, a)
            if hint and math.isnan(found.low):  # fractional weights read as too few cases
                found = replace(found, reason=f"{found.reason}: {hint}")
            intervals[name] = found

    label_intervals: dict[Label, dict[str, Interval]] = {}
    label_distribution: dict[Label, dict[str, Floats]] = {}
    if per_label:
        for k, label in enumerate(labels):
            label_intervals[label] = {}
            label_distribution[label] = {}
            for name in names:
                estimate = float(label_estimates[name][0, k])
                a = float(jack_per[name][k]) if method == "bca" else math.nan
                accelerations[(label, name)] = a
                values_k = readonly(np.ascontiguousarray(per[name][:, k], dtype=np.float64))
                label_distribution[label][name] = values_k
                if math.isnan(estimate):
                    why = evaluation.per_label_reasons[label].get(name, "undefined")
                    label_intervals[label][name] = nan_interval(estimate, level, method, why)
                else:
                    label_intervals[label][name] = replicate_interval(
                        estimate, values_k, level, method, a
                    )

    return Bootstrap(
        table=table,
        positive=evaluation.positive,
        level=level,
        method=method,
        replicates=replicates,
        size=draws,
        weights_are=weights_are if table.weighted else None,
        intervals=intervals,
        per_label=label_intervals,
        distribution=distribution,
        per_label_distribution=label_distribution,
        acceleration=accelerations,
    )


def intervals_report(
    table: Table,
    level: float,
    positive: Any = None,
    seed: int | None = 0,
    *,
    replicates: int = 1000,
    method: Literal["percentile", "bca"] = "percentile",
    weights_are: Literal["frequency", "normalised"] = "frequency",
    size: int | None = None,
) -> dict[str, list[float | str | None]]:
    """{measure name: [low, high]} for every registry measure: the JSON "intervals" entry.

    A bootstrap of `replicates` replicates (percentile by default) with a fixed `seed`, so
    that the same table gives the same report. nan (undefined) is None, +-inf
    "Infinity" or "-Infinity". `weights_are`
    and `size` as in `bootstrap`; `informed.inference.bootstrap_design` describes them.

    >>> report = intervals_report(Table.binary(tp=12, fp=28, fn=18, tn=42), 0.95, "+")
    >>> len(report["informedness"])
    2
    """
    result = bootstrap(
        table,
        positive=positive,
        replicates=replicates,
        level=level,
        method=method,
        seed=seed,
        weights_are=weights_are,
        size=size,
    )
    return {name: interval.as_list() for name, interval in result.intervals.items()}
