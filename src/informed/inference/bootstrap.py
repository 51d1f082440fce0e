"""Confidence intervals for the measures of a Table, computed from the Table alone.

Resampling n cases (rows) with replacement and counting them into a table gives table
counts with a multinomial distribution: n draws over the K x C cells with the observed
cell proportions as probabilities. So a case bootstrap is one call to
`numpy.random.Generator.multinomial`, and every registered measure of B replicates is one
vectorised evaluation of counts of shape (B, L, L): O(B K^2) work instead of O(B n)
(DESIGN.md, "Inference"). Analytic intervals for the proportions (Wilson; Clopper-Pearson)
are here too. DeLong intervals and tests for AUC live in `informed.inference`;
McNemar, chi-square, G and permutation tests in `informed.inference`.

References
----------
Efron, B. (1979). Bootstrap methods: another look at the jackknife. Ann. Statist. 7(1):1-26.
Efron, B. (1987). Better bootstrap confidence intervals. J. Amer. Statist. Assoc.
82(397):171-185.
Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
inference. J. Amer. Statist. Assoc. 22(158):209-212.
Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
illustrated in the case of the binomial. Biometrika 26(4):404-413.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from scipy import special, stats

from informed.errors import InputError, InputTypeError
from informed.labels import Label, as_label, label_kind
from informed.measures import (
    MEASURES,
    undefined_reason,
)
from informed.table.evaluation import evaluate, measure_values
from informed.table.table import Table

__all__ = [
    "BOOTSTRAP_METHODS",
    "PROPORTIONS",
    "Bootstrap",
    "Interval",
    "bootstrap",
    "clopper_pearson_interval",
    "intervals_report",
    "proportion_interval",
    "wilson_interval",
]

Floats = NDArray[np.float64]

BOOTSTRAP_METHODS = ("percentile", "bca")
PROPORTION_METHODS = ("wilson", "clopper-pearson")

# Numerator and denominator cells of each measure that is a proportion of a 2x2 view.
PROPORTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "recall": (("tp",), ("tp", "fn")),
    "miss_rate": (("fn",), ("tp", "fn")),
    "precision": (("tp",), ("tp", "fp")),
    "inverse_recall": (("tn",), ("fp", "tn")),
    "fallout": (("fp",), ("fp", "tn")),
    "inverse_precision": (("tn",), ("fn", "tn")),
    "accuracy": (("tp", "tn"), ("tp", "fp", "fn", "tn")),
    "error": (("fp", "fn"), ("tp", "fp", "fn", "tn")),
}
"""Registry name -> (numerator cells, denominator cells) of the proportion measures."""

# Bootstrap replicates are evaluated in batches of at most this many cells, so that the
# (B, L, L) counts and their (B, L, 2, 2) one-vs-rest views stay within a few hundred MB.
_BATCH_CELLS = 4_000_000


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class Interval:
    """A confidence interval and the estimate it surrounds.

    Attributes
    ----------
    estimate : float
        The measure of the data (nan where undefined).
    low, high : float
        The interval; nan where it cannot be computed (`reason` says why).
    level : float
        Nominal coverage, e.g. 0.95.
    method : str
        How it was computed: "percentile", "bca", "wilson", "clopper-pearson",
        "delong", "delong-logit".
    standard_error : float
        The standard error where the method has one (the bootstrap standard deviation,
        the DeLong standard error); nan otherwise.
    reason : str or None
        Why the interval is nan, or a caveat; None when there is nothing to say.
    undefined_replicates : int
        Bootstrap replicates in which the measure was undefined (nan); the interval is
        computed from the others, i.e. conditional on the measure being defined.
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    standard_error: float = math.nan
    reason: str | None = None
    undefined_replicates: int = 0

    def as_list(self) -> list[float | None]:
        """[low, high] with None for nan: the JSON form.

        >>> Interval(0.5, 0.25, float("nan"), 0.95, "percentile").as_list()
        [0.25, None]
        """
        return [_json_float(self.low), _json_float(self.high)]


def _json_float(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def _nan_interval(estimate: float, level: float, method: str, reason: str) -> Interval:
    return Interval(estimate, math.nan, math.nan, level, method, reason=reason)


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
    intervals: dict[str, Interval]
    per_label: dict[Label, dict[str, Interval]]
    distribution: dict[str, Floats] = field(repr=False)
    per_label_distribution: dict[Label, dict[str, Floats]] = field(repr=False)
    acceleration: dict[tuple[Label | None, str], float] = field(repr=False)

    def confidence_interval(
        self, measure: str, *, level: float | None = None, label: Any = None
    ) -> Interval:
        """The interval of `measure` at another `level`, from the stored replicates.

        Parameters
        ----------
        measure : str
            A registry name among those bootstrapped.
        level : float, optional
            Nominal coverage; default the level the bootstrap was run at.
        label : label, optional
            A label's one-vs-rest value (needs `per_label=True`); default the overall one.
        """
        level = self.level if level is None else _check_level(level)
        if label is None:
            source, values = self.intervals, self.distribution
            key: Label | None = None
        else:
            label = as_label(label)
            found = [x for x in self.per_label if (label_kind(x), x) == (label_kind(label), label)]
            if not found:
                msg = (
                    f"label={label!r} has no per-label intervals; they exist for "
                    f"{list(self.per_label)} (run bootstrap with per_label=True)."
                )
                raise InputError(msg)
            key = found[0]
            source, values = self.per_label[key], self.per_label_distribution[key]
        if measure not in source:
            msg = f"`measure` must be one of {sorted(source)}; got {measure!r}."
            raise InputError(msg)
        stored = source[measure]
        if math.isnan(stored.estimate) or len(values[measure]) == 0:
            return Interval(
                stored.estimate, math.nan, math.nan, level, self.method, reason=stored.reason
            )
        return _interval(
            stored.estimate, values[measure], level, self.method, self.acceleration[(key, measure)]
        )


# ---------------------------------------------------------------------- checks
def _check_level(level: Any) -> float:
    if isinstance(level, bool) or not isinstance(level, int | float | np.floating):
        msg = f"`level` must be a number between 0 and 1, such as 0.95; got {level!r}."
        raise InputTypeError(msg)
    if not 0.0 < float(level) < 1.0:
        msg = f"`level` must be strictly between 0 and 1, such as 0.95; got {level!r}."
        raise InputError(msg)
    return float(level)


def _check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        msg = f"`{name}` must be one of {list(choices)}; got {value!r}."
        raise InputError(msg)
    return value


def _check_table(table: Any) -> Table:
    if not isinstance(table, Table):
        msg = (
            f"`table` must be an informed.Table; got {type(table).__name__}. Build one with "
            "Table.from_labels(actual=..., predicted=...) or Table.from_counts(...)."
        )
        raise InputTypeError(msg)
    return table


def _check_count(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        msg = f"`{name}` must be an integer >= {minimum}; got {value!r}."
        raise InputTypeError(msg)
    if int(value) < minimum:
        msg = f"`{name}` must be an integer >= {minimum}; got {value!r}."
        raise InputError(msg)
    return int(value)


def _check_names(measures: Any) -> list[str]:
    if measures is None:
        return list(MEASURES)
    names = [measures] if isinstance(measures, str) else measures
    if not isinstance(names, Iterable) or isinstance(names, set | frozenset | dict):
        msg = f"`measures` must be a list of registry names; got {type(measures).__name__}."
        raise InputTypeError(msg)
    out = list(names)
    unknown = [name for name in out if name not in MEASURES]
    if unknown:
        msg = f"unknown measure {unknown[0]!r}; `measures` must be names from {list(MEASURES)}."
        raise InputError(msg)
    return list(dict.fromkeys(out))


def _label_index(labels: tuple[Label, ...], positive: Label | None) -> int | None:
    if positive is None:
        return None
    keyed = [(label_kind(x), x) for x in labels]
    return keyed.index((label_kind(positive), positive))


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
    """`measure_values` of `count` tables produced by `tables(slice) -> counts[b, L, L]`,
    in batches of about `_BATCH_CELLS` cells (`size` = L * L cells per table)."""
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


# ---------------------------------------------------------------------- interval rules
def _quantiles(values: Floats, probabilities: Floats) -> Floats:
    # linear interpolation between order statistics (numpy's default); an infinite
    # replicate (bias_ratio with no +R) may meet another one: inf - inf is left as nan
    with np.errstate(invalid="ignore"):
        return np.asarray(np.quantile(values, probabilities), dtype=np.float64)


def _interval(
    estimate: float,
    replicates: Floats,
    level: float,
    method: str,
    acceleration: float,
) -> Interval:
    """Percentile or BCa interval from the replicate values (nan replicates left out)."""
    defined = replicates[~np.isnan(replicates)]
    undefined = int(replicates.size - defined.size)
    if defined.size == 0:
        return Interval(
            estimate,
            math.nan,
            math.nan,
            level,
            method,
            reason="undefined in every bootstrap replicate",
            undefined_replicates=undefined,
        )
    finite = defined[np.isfinite(defined)]
    se = float(np.std(finite, ddof=1)) if finite.size > 1 else math.nan
    tails = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    if method == "bca":
        below = float(np.count_nonzero(defined < estimate))
        tied = float(np.count_nonzero(defined == estimate))
        # ties count one half, so a degenerate distribution (all replicates equal to the
        # estimate) gives z0 = 0 and the interval [estimate, estimate]
        z0 = float(special.ndtri((below + 0.5 * tied) / defined.size))
        z = special.ndtri(tails)
        shrink = 1.0 - acceleration * (z0 + z)
        if not np.isfinite(z0) or not np.isfinite(acceleration) or np.any(shrink <= 0):
            return Interval(
                estimate,
                math.nan,
                math.nan,
                level,
                method,
                standard_error=se,
                reason="BCa undefined: every replicate lies on one side of the estimate "
                "or the acceleration is not finite; use method='percentile'",
                undefined_replicates=undefined,
            )
        tails = special.ndtr(z0 + (z0 + z) / shrink)
    low, high = _quantiles(defined, tails)
    return Interval(
        estimate,
        float(low),
        float(high),
        level,
        method,
        standard_error=se,
        undefined_replicates=undefined,
    )


def _acceleration(values: Floats, multiplicity: Floats) -> Floats:
    """Efron's (1987) acceleration from jackknife values: a = sum d^3 / (6 (sum d^2)^1.5),
    d = mean - value, each distinct leave-one-case-out value weighted by how many cases
    give it. Undefined jackknife values are left out; no spread gives a = 0.

    values: [M, ...] jackknife values; multiplicity: [M] cases per value.
    """
    shape = (-1,) + (1,) * (values.ndim - 1)
    w = np.where(np.isnan(values), 0.0, multiplicity.reshape(shape))
    v = np.where(np.isnan(values), 0.0, values)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = (w * v).sum(axis=0) / w.sum(axis=0)
        d = np.where(w > 0, mean - v, 0.0)
        second = (w * d**2).sum(axis=0)
        third = (w * d**3).sum(axis=0)
        a = np.where(second > 0, third / (6.0 * second**1.5), 0.0)
    return np.asarray(a, dtype=np.float64)


# ---------------------------------------------------------------------- bootstrap
def _case_count(table: Table, size: Any) -> int:
    if size is not None:
        return _check_count(size, "size", 1)
    if table.weighted:
        return round(float(table.n))
    return int(table.n)


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
        Registry names; default every registered measure.
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
        Cases drawn per replicate. Default: N for a table of counts; the total weight
        rounded to an integer for a weighted table (see Notes).
    alpha : float
        Weight of the F family, as in `evaluate`.
    undefined : {"propagate", "omit"}
        How averages treat a label whose value is nan, as in `evaluate`.

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
    is unknown. They are treated as frequency weights: a replicate draws
    round(total weight) cases with probabilities weight / total, and its counts are
    scaled back to the total weight (the measures are scale-free). For sampling weights,
    pass the effective sample size, e.g. Kish's n_eff = (sum w)^2 / sum w^2 from the rows.

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
    jackknife table is evaluated whole, so BCa adds O(K C L^2) work: negligible for tens
    of labels, slow for hundreds (use "percentile" there).

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
    table = _check_table(table)
    names = _check_names(measures)
    replicates = _check_count(replicates, "replicates", 2)
    level = _check_level(level)
    method = _check_choice(method, "method", BOOTSTRAP_METHODS)  # type: ignore[assignment]
    _check_choice(undefined, "undefined", ("propagate", "omit"))
    evaluation = evaluate(table, positive=positive, alpha=alpha, undefined=undefined)
    labels, square = table.square()
    index = _label_index(labels, evaluation.positive)
    total = float(square.sum())
    draws = _case_count(table, size)

    estimates, label_estimates = measure_values(
        square[None].astype(np.float64), names, index, alpha, undefined
    )
    empty = np.empty(0)
    reason: str | None = None
    if not labels or total == 0:
        reason = "no data (N = 0)"
    elif draws == 0:
        reason = "the total weight rounds to 0 cases; pass `size=`"
    if reason is not None:
        nan_intervals = {name: _nan_interval(math.nan, level, method, reason) for name in names}
        return Bootstrap(
            table=table,
            positive=evaluation.positive,
            level=level,
            method=method,
            replicates=replicates,
            size=draws,
            intervals=nan_intervals,
            per_label={label: dict(nan_intervals) for label in labels} if per_label else {},
            distribution=dict.fromkeys(names, empty),
            per_label_distribution={label: dict.fromkeys(names, empty) for label in labels}
            if per_label
            else {},
            acceleration={},
        )

    rng = np.random.default_rng(seed)
    L = len(labels)
    probabilities = (square.astype(np.float64) / total).ravel()
    scale = total / draws

    def replicate_tables(part: slice) -> Floats:
        count = part.stop - part.start
        drawn = rng.multinomial(draws, probabilities, size=count).astype(np.float64)
        return (drawn * scale).reshape(count, L, L)

    overall, per = _evaluate_batches(
        replicate_tables, replicates, L * L, names, index, alpha, undefined, per_label
    )

    jack_overall: dict[str, Floats] = {}
    jack_per: dict[str, Floats] = {}
    if method == "bca":
        scaled = square.astype(np.float64) / scale
        rows, cols = np.nonzero(scaled)
        multiplicity = scaled[rows, cols]

        def jackknife_tables(part: slice) -> Floats:
            block = np.repeat(scaled[None], part.stop - part.start, axis=0)
            positions = np.arange(part.stop - part.start)
            block[positions, rows[part], cols[part]] -= 1.0
            return np.maximum(block, 0.0) * scale

        values, label_values = _evaluate_batches(
            jackknife_tables, rows.size, L * L, names, index, alpha, undefined, per_label
        )
        jack_overall = {name: _acceleration(values[name], multiplicity) for name in names}
        if per_label:
            jack_per = {name: _acceleration(label_values[name], multiplicity) for name in names}

    intervals: dict[str, Interval] = {}
    accelerations: dict[tuple[Label | None, str], float] = {}
    distribution: dict[str, Floats] = {}
    for name in names:
        estimate = float(estimates[name][0])
        a = float(jack_overall[name]) if method == "bca" else math.nan
        accelerations[(None, name)] = a
        distribution[name] = _readonly(overall[name])
        if math.isnan(estimate):
            why = evaluation.reasons.get(name, "undefined for this table")
            intervals[name] = _nan_interval(estimate, level, method, why)
        else:
            intervals[name] = _interval(estimate, overall[name], level, method, a)

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
                values_k = _readonly(np.ascontiguousarray(per[name][:, k]))
                label_distribution[label][name] = values_k
                if math.isnan(estimate):
                    why = evaluation.per_label_reasons[label].get(name, "undefined")
                    label_intervals[label][name] = _nan_interval(estimate, level, method, why)
                else:
                    label_intervals[label][name] = _interval(estimate, values_k, level, method, a)

    return Bootstrap(
        table=table,
        positive=evaluation.positive,
        level=level,
        method=method,
        replicates=replicates,
        size=draws,
        intervals=intervals,
        per_label=label_intervals,
        distribution=distribution,
        per_label_distribution=label_distribution,
        acceleration=accelerations,
    )


def _readonly(array: Floats) -> Floats:
    array = np.ascontiguousarray(array, dtype=np.float64)
    array.setflags(write=False)
    return array


def intervals_report(
    table: Table,
    level: float,
    positive: Any = None,
    seed: int | None = 0,
    *,
    replicates: int = 1000,
    method: Literal["percentile", "bca"] = "percentile",
) -> dict[str, list[float | None]]:
    """{measure name: [low, high]} for every registry measure: the JSON "intervals" entry.

    A bootstrap of `replicates` replicates (percentile by default) with a fixed `seed`, so
    that the same table gives the same report. nan (undefined) is None.

    >>> report = intervals_report(Table.binary(tp=12, fp=28, fn=18, tn=42), 0.95, "+")
    >>> len(report["informedness"])
    2
    """
    result = bootstrap(
        table, positive=positive, replicates=replicates, level=level, method=method, seed=seed
    )
    return {name: interval.as_list() for name, interval in result.intervals.items()}


# ---------------------------------------------------------------------- analytic intervals
def _check_proportion(successes: Any, trials: Any) -> tuple[float, float]:
    values = []
    for name, value in (("successes", successes), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
            msg = f"`{name}` must be a number; got {value!r}."
            raise InputTypeError(msg)
        if not math.isfinite(float(value)) or float(value) < 0:
            msg = f"`{name}` must be finite and non-negative; got {value!r}."
            raise InputError(msg)
        values.append(float(value))
    if values[0] > values[1]:
        msg = f"`successes` ({successes!r}) cannot exceed `trials` ({trials!r})."
        raise InputError(msg)
    return values[0], values[1]


def wilson_interval(successes: float, trials: float, *, level: float = 0.95) -> Interval:
    r"""Wilson's score interval for a binomial proportion x / n.

    With z = Phi^-1((1 + level) / 2)::

        center = (x + z^2 / 2) / (n + z^2)
        half   = z sqrt(x (n - x) / n + z^2 / 4) / (n + z^2)

    the interval is [center - half, center + half], clamped to [0, 1] against rounding.
    It inverts the score test, so it never leaves [0, 1] and stays sensible at x = 0 or
    x = n, where the Wald interval collapses. nan with a reason when n = 0.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical
    inference. J. Amer. Statist. Assoc. 22(158):209-212.

    >>> interval = wilson_interval(0, 10)
    >>> interval.low, round(interval.high, 4)  # x = 0: high = z^2 / (n + z^2)
    (0.0, 0.2775)
    """
    x, n = _check_proportion(successes, trials)
    level = _check_level(level)
    if n == 0:
        return _nan_interval(math.nan, level, "wilson", "no trials (the denominator is 0)")
    z = float(special.ndtri((1.0 + level) / 2.0))
    center = (x + z * z / 2.0) / (n + z * z)
    half = z * math.sqrt(x * (n - x) / n + z * z / 4.0) / (n + z * z)
    low, high = max(center - half, 0.0), min(center + half, 1.0)
    return Interval(x / n, low, high, level, "wilson")


def clopper_pearson_interval(successes: float, trials: float, *, level: float = 0.95) -> Interval:
    r"""The Clopper-Pearson ("exact") interval for a binomial proportion x / n.

    With a = 1 - level, the bounds are the beta quantiles::

        low  = B^-1(a / 2; x, n - x + 1)      (0 when x = 0)
        high = B^-1(1 - a / 2; x + 1, n - x)  (1 when x = n)

    the values of p at which the binomial tail probabilities of x equal a / 2. Its
    coverage is at least `level` for every p, at the cost of width. nan when n = 0.

    References
    ----------
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial limits
    illustrated in the case of the binomial. Biometrika 26(4):404-413.

    >>> interval = clopper_pearson_interval(0, 10)
    >>> interval.low, round(interval.high, 4)  # x = 0: high = 1 - 0.025^(1/10)
    (0.0, 0.3085)
    """
    x, n = _check_proportion(successes, trials)
    level = _check_level(level)
    if n == 0:
        return _nan_interval(math.nan, level, "clopper-pearson", "no trials (the denominator is 0)")
    tail = (1.0 - level) / 2.0
    low = 0.0 if x == 0 else float(stats.beta.ppf(tail, x, n - x + 1))
    high = 1.0 if x == n else float(stats.beta.isf(tail, x + 1, n - x))
    return Interval(x / n, low, high, level, "clopper-pearson")


def proportion_interval(
    table: Table,
    measure: str,
    *,
    positive: Any = None,
    level: float = 0.95,
    method: Literal["wilson", "clopper-pearson"] = "wilson",
) -> Interval:
    """Wilson or Clopper-Pearson interval of a measure that is a proportion of counts.

    The proportions (`PROPORTIONS`) and their numerator / denominator cells of the
    one-vs-rest view of `positive`: recall tp/(tp+fn), miss_rate fn/(tp+fn), precision
    tp/(tp+fp), inverse_recall tn/(fp+tn), fallout fp/(fp+tn), inverse_precision
    tn/(fn+tn), accuracy (tp+tn)/N, error (fp+fn)/N. Without `positive`, accuracy and
    error are trace / N and 1 - trace / N of the whole table (as `evaluate` gives them);
    the others are then macro averages over labels, not proportions, and need
    `positive=` (or `bootstrap`).

    Weighted tables are treated as frequency counts (the weights as numbers of cases).
    A denominator of 0 gives a nan interval with the reason.

    >>> table = Table.binary(tp=12, fp=28, fn=18, tn=42)
    >>> interval = proportion_interval(table, "recall", positive="+")
    >>> interval.estimate, round(interval.low, 4), round(interval.high, 4)  # = statsmodels
    (0.4, 0.2459, 0.5768)
    """
    table = _check_table(table)
    _check_choice(measure, "measure", tuple(PROPORTIONS))
    _check_choice(method, "method", PROPORTION_METHODS)
    level = _check_level(level)
    function = wilson_interval if method == "wilson" else clopper_pearson_interval
    if positive is None:
        if measure not in ("accuracy", "error"):
            msg = (
                f"{measure} of a table without `positive=` is the macro average over labels, "
                f"not a proportion; pass positive= (one of {list(table.labels)}) or use "
                "bootstrap()."
            )
            raise InputError(msg)
        _, square = table.square()
        total = float(square.sum())
        right = float(np.trace(square))
        if total == 0:
            return _nan_interval(math.nan, level, method, "no data (N = 0)")
        return function(right if measure == "accuracy" else total - right, total, level=level)
    if not table.labels or table.n == 0:
        return _nan_interval(math.nan, level, method, "no data (N = 0)")
    view = table.one_vs_rest(positive)
    named = {"tp": view.tp, "fp": view.fp, "fn": view.fn, "tn": view.tn}
    top, bottom = PROPORTIONS[measure]
    successes = sum(named[cell] for cell in top)
    trials = sum(named[cell] for cell in bottom)
    if trials == 0:
        why = undefined_reason(MEASURES[measure], view.counts) or "the denominator is 0"
        return _nan_interval(math.nan, level, method, why)
    return function(successes, trials, level=level)
