"""The Interval every method of `informed.inference` returns: an estimate and its bounds."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_number
from informed._markup import fragment, header_cell, html_table, note_cell, number, text_cell
from informed._markup import value_cell as _value_cell

__all__ = [
    "Interval",
    "interval_bounds",
    "interval_row",
    "logistic",
    "nan_interval",
    "normal_cdf",
    "normal_quantile",
    "undefined_counts",
    "undefined_note",
    "undefined_notes",
    "undefined_where",
]


@dataclass(frozen=True)
class Interval:
    """A confidence interval and the estimate it surrounds.

    Attributes
    ----------
    estimate : float
        The measure of the data (nan where undefined).
    low, high : float
        The interval; nan where it cannot be computed (`reason` says why); +-inf where it
        falls among bootstrap replicates that are infinite (`reason` says how many).
    level : float
        Nominal coverage, e.g. 0.95.
    method : str
        How it was computed: "percentile", "bca", "wilson", "clopper-pearson",
        "delong", "delong-logit".
    standard_error : float
        The standard error where the method has one (the bootstrap standard deviation,
        the DeLong standard error); nan otherwise, and nan where some bootstrap replicate
        is infinite (their spread is then infinite: that of the finite ones alone would
        understate it).
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

    def as_list(self) -> list[float | str | None]:
        """[low, high] with None for nan and "Infinity" or "-Infinity" for an infinite end
        (`informed._common.json_number`): the JSON form.

        >>> Interval(0.5, 0.25, float("nan"), 0.95, "percentile").as_list()
        [0.25, None]
        >>> Interval(math.inf, 0.25, math.inf, 0.95, "percentile").as_list()
        [0.25, 'Infinity']
        """
        return [json_number(self.low), json_number(self.high)]

    def __repr__(self) -> str:
        """One line: the estimate, the level and method, the bounds or why there are none.

        >>> Interval(0.5, 0.25, 0.75, 0.95, "percentile")
        Interval(estimate 0.5000, 95 % percentile [0.2500, 0.7500])
        >>> Interval(0.5, math.nan, math.nan, 0.95, "bca", reason="no data")
        Interval(estimate 0.5000, 95 % bca undefined: no data)
        >>> Interval(math.inf, 0.25, math.inf, 0.95, "percentile", reason="unbounded")
        Interval(estimate ∞, 95 % percentile [0.2500, ∞]; unbounded)
        """
        return f"Interval(estimate {number(self.estimate)}, {interval_bounds(self)})"

    def _repr_html_(self) -> str:
        """A notebook's view: the estimate and its bounds, with the reason or caveat."""
        grid = html_table(
            ["", "estimate", "low", "high", "note"], [interval_row("value", self)], styled=True
        )
        return fragment(f"Interval: {100 * self.level:g} % {self.method}", [grid])


def interval_bounds(interval: Interval) -> str:
    """The level, method and bounds of an interval as text, or why it has none."""
    level = f"{100 * interval.level:g} % {interval.method}"
    if math.isnan(interval.low) or math.isnan(interval.high):
        return f"{level} undefined: {interval.reason or 'undefined'}"
    text = f"{level} [{number(interval.low)}, {number(interval.high)}]"
    if interval.undefined_replicates:
        text += f", {undefined_note(interval)}"
    if interval.reason:
        text += f"; {interval.reason}"
    return text


def undefined_note(interval: Interval) -> str:
    """How many replicates were undefined and left out of the interval ("12 replicates
    undefined"), or "" where none was.

    >>> undefined_note(Interval(1.0, 1.0, 1.0, 0.95, "percentile", undefined_replicates=1))
    '1 replicate undefined'
    """
    count = interval.undefined_replicates
    if not count:
        return ""
    return f"{count:,} replicate{'' if count == 1 else 's'} undefined"


def undefined_counts(intervals: Mapping[str, Interval]) -> dict[str, int]:
    """How many replicates each interval left out as undefined, for the intervals that
    left any out (a document's ``"intervals_undefined_replicates"``).

    >>> kept = Interval(1.0, 1.0, 1.0, 0.95, "percentile")
    >>> dropped = Interval(1.0, 1.0, 1.0, 0.95, "percentile", undefined_replicates=3)
    >>> undefined_counts({"recall": dropped, "accuracy": kept})
    {'recall': 3}
    """
    return {
        name: found.undefined_replicates
        for name, found in intervals.items()
        if found.undefined_replicates
    }


def undefined_notes(intervals: Mapping[str, Interval], titles: Mapping[str, str]) -> list[str]:
    """Each `undefined_note` once, with the titles of the intervals it holds for ("Recall,
    Informedness: 358 replicates undefined"); only intervals with bounds (one undefined
    in every replicate says so in its reason), in the order of `titles`.

    >>> found = Interval(1.0, 1.0, 1.0, 0.95, "percentile", undefined_replicates=358)
    >>> undefined_notes({"recall": found, "accuracy": found}, {"recall": "Recall"})
    ['Recall: 358 replicates undefined']
    """
    notes: dict[str, list[str]] = {}
    for name, title in titles.items():
        found = intervals.get(name)
        if found is None or math.isnan(found.low) or math.isnan(found.high):
            continue
        if found.undefined_replicates:
            notes.setdefault(undefined_note(found), []).append(title)
    return [f"{', '.join(which)}: {note}" for note, which in notes.items()]


def undefined_where(named: Iterable[tuple[str, Interval]], title: str, unit: str) -> str:
    """Where replicates were undefined and left out of an interval with bounds, how many
    (`undefined_note`) in the first of the `named` intervals (each a slice's or a fold's,
    the `unit`) and in how many more; "" where none was. `title` names the measure.

    >>> some = Interval(0.9, 0.5, 1.0, 0.95, "bca", undefined_replicates=323)
    >>> none = Interval(0.9, 0.5, 1.0, 0.95, "bca")
    >>> undefined_where([("a", none), ("b", some), ("c", some)], "informedness", "slice")
    "informedness: 323 replicates undefined in slice 'b' (and 1 slice more)"
    """
    counted = [
        (name, found)
        for name, found in named
        if found.undefined_replicates and not (math.isnan(found.low) or math.isnan(found.high))
    ]
    if not counted:
        return ""
    name, first = counted[0]
    more = len(counted) - 1
    other = f" (and {more} {unit}{'s' if more > 1 else ''} more)" if more else ""
    return f"{title}: {undefined_note(first)} in {unit} {name!r}{other}"


def interval_row(head: str, interval: Interval) -> list[str]:
    """The escaped cells of an interval's row: `head`, estimate, low, high, and the reason
    it is undefined or its caveat."""
    why = interval.reason if math.isnan(interval.low) or math.isnan(interval.high) else None
    caveat = interval.reason
    if interval.undefined_replicates and why is None:
        extra = undefined_note(interval)
        caveat = f"{caveat}; {extra}" if caveat else extra
    return [
        header_cell(head, row=True),
        _value_cell(interval.estimate, interval.reason),
        _value_cell(interval.low, why),
        _value_cell(interval.high, why),
        note_cell(why) if why else text_cell(caveat or ""),
    ]


def nan_interval(estimate: float, level: float, method: str, reason: str) -> Interval:
    """An interval whose bounds cannot be computed, with the `reason`."""
    return Interval(estimate, math.nan, math.nan, level, method, reason=reason)


_HALF_ROOT = math.sqrt(0.5)
_NORMAL = NormalDist()


def _cdf(x: float) -> float:
    # as Cephes' ndtr (scipy.special.ndtr) computes it: erf near 0, erfc in the tails
    z = x * _HALF_ROOT
    if abs(z) < _HALF_ROOT:
        return 0.5 + 0.5 * math.erf(z)
    tail = 0.5 * math.erfc(abs(z))
    return 1.0 - tail if z > 0 else tail


def _quantile(p: float) -> float:
    if math.isnan(p) or not 0.0 <= p <= 1.0:
        return math.nan
    if p in (0.0, 1.0):
        return math.copysign(math.inf, p - 0.5)
    return _NORMAL.inv_cdf(p)


def normal_cdf(x: Any) -> NDArray[np.float64]:
    """The standard normal distribution function Phi(x), elementwise (`scipy.special.ndtr`
    to within a few units in the last place, without importing scipy: the intervals of a
    slices report are a few numbers, and scipy.special takes 0.2 s of CPU to import)."""
    values = np.asarray(x, dtype=np.float64)
    return np.array([_cdf(v) for v in values.ravel().tolist()]).reshape(values.shape)


def normal_quantile(p: Any) -> NDArray[np.float64]:
    """The standard normal quantile Phi^-1(p), elementwise: -inf at 0, inf at 1, NaN
    outside [0, 1] (`scipy.special.ndtri`; Wichura 1988, "Algorithm AS 241: the
    percentage points of the normal distribution", as `statistics.NormalDist` computes
    it)."""
    values = np.asarray(p, dtype=np.float64)
    return np.array([_quantile(v) for v in values.ravel().tolist()]).reshape(values.shape)


def logistic(x: float) -> float:
    """1 / (1 + exp(-x)) (`scipy.special.expit`), without overflow for large |x|."""
    if x < 0:
        e = math.exp(x)
        return e / (1.0 + e)
    return 1.0 / (1.0 + math.exp(-x))
