"""Intervals of a Tally's micro, macro and per-category values, from its 2x2 tables alone.

A Tally keeps one 2x2 table per category and the pooled (micro) table, not the
documents, so a bootstrap of documents is out of reach. What its tables support:

* a proportion of one table (recall, precision, accuracy, ...), micro or of one
  category: Wilson's score interval (Wilson 1927), each (document, category) decision a
  trial;
* the other measures of one table (F, informedness, markedness): a percentile bootstrap
  of its cells, a multinomial of the table's own size (Efron & Tibshirani 1993);
* a macro average: each replicate resamples every category's table on its own (its
  cells a multinomial of its size) and averages the categories' values.

Both treat the decisions as independent. They are not quite: categories share
documents, and a document's errors in several categories are not resampled together
(the tally does not know which documents they were), so an interval may be too narrow
when the errors of a document's categories go together. Under Statistics::Contingency's
conventions a value the module fixes (a 1 where a denominator is 0) is a convention, not
an estimate: its interval is nan, with that reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_cases, check_count, check_level, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.proportions import wilson_interval
from informed.inference.replicates import replicate_interval
from informed.measures import MEASURES, ByMeasure, measure_name, measure_names
from informed.tally.measures import measure_values
from informed.tally.tally import Tally

__all__ = ["PROPORTIONS", "TALLY_MEASURES", "TallyIntervals", "tally_intervals"]

Floats = NDArray[np.float64]

TALLY_MEASURES = ("recall", "precision", "f_measure", "informedness", "markedness", "accuracy")
"""The measures a tally report gives intervals for by default."""

PROPORTIONS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "recall": ((0,), (0, 2)),
    "precision": ((0,), (0, 1)),
    "inverse_recall": ((3,), (1, 3)),
    "inverse_precision": ((3,), (2, 3)),
    "fallout": ((1,), (1, 3)),
    "miss_rate": ((2,), (0, 2)),
    "accuracy": ((0, 3), (0, 1, 2, 3)),
    "error": ((1, 2), (0, 1, 2, 3)),
    "prevalence": ((0, 2), (0, 1, 2, 3)),
    "bias": ((0, 1), (0, 1, 2, 3)),
}
"""The measures that are a proportion x / n of a table's cells (tp, fp, fn, tn = 0..3):
the cells counted in x, and in n. They get Wilson's interval; the others a bootstrap."""

_CONVENTION = (
    "a convention of Statistics::Contingency (its value where the denominator is 0), "
    "not an estimate"
)


@dataclass(frozen=True)
class TallyIntervals:
    """Intervals of a Tally's values: micro, macro and per category, measure by measure.

    Attributes
    ----------
    tally : Tally
        The tally the intervals are of.
    measures : tuple of str
    level : float
    replicates : int
        Bootstrap replicates of each table (for the measures that are no proportion, and
        for every macro average).
    micro, macro : dict
        Measure name -> Interval (its `estimate` is the tally's value).
    per_category : dict
        Category -> measure name -> Interval.
    undefined : {"propagate", "omit"}
        How the macro averages treat an undefined category (`Tally.macro`).
    """

    tally: Tally = field(repr=False)
    measures: tuple[str, ...]
    level: float
    replicates: int
    micro: dict[str, Interval]
    macro: dict[str, Interval]
    per_category: dict[str, dict[str, Interval]] = field(repr=False)
    undefined: str = "propagate"

    def __post_init__(self) -> None:
        # any name of a measure finds its interval: micro["tpr"], per_category[c]["F1"]
        object.__setattr__(self, "micro", ByMeasure(self.micro))
        object.__setattr__(self, "macro", ByMeasure(self.macro))
        found = {category: ByMeasure(by) for category, by in self.per_category.items()}
        object.__setattr__(self, "per_category", found)

    def method(self, name: str) -> str:
        """How the micro and per-category intervals of `name` (any of its names) are
        made: "wilson" or "percentile" (a bootstrap of the table's cells)."""
        return "wilson" if measure_name(name) in PROPORTIONS else "percentile"

    @property
    def note(self) -> str:
        """How the intervals were made, in words, for a report."""
        wilson = [MEASURES[m].title for m in self.measures if m in PROPORTIONS]
        boot = [MEASURES[m].title for m in self.measures if m not in PROPORTIONS]
        parts = []
        if wilson:
            parts.append(
                f"{', '.join(wilson)}: Wilson's score interval of each table (micro and per "
                "category), each (document, category) decision a trial"
            )
        if boot:
            parts.append(
                f"{', '.join(boot)}: a percentile bootstrap of each table's cells "
                f"({self.replicates:,} replicates, a multinomial of the table's size)"
            )
        parts.append(
            "macro averages: every category's table resampled on its own in each of "
            f"{self.replicates:,} replicates and the categories' values averaged"
        )
        return (
            f"{100 * self.level:g} % intervals from the tally's 2x2 tables alone (it keeps "
            "no documents, so no bootstrap of documents): "
            + "; ".join(parts)
            + ". The decisions are treated as independent; a document's errors in "
            "several categories are not resampled together, so where they go together "
            "the intervals are too narrow."
        )


def _wilson(counts: Floats, name: str, level: float) -> Interval:
    flat = counts.reshape(4)
    successes, trials = PROPORTIONS[name]
    return wilson_interval(
        float(flat[list(successes)].sum()), float(flat[list(trials)].sum()), level=level
    )


def _draws(counts: NDArray[Any], replicates: int, rng: np.random.Generator) -> Floats:
    """`replicates` resamples of each table of whole `counts[..., 2, 2]`: each a multinomial
    of its table's size with its cells' proportions; shape (replicates, ..., 2, 2). A table
    of more than 2**63 - 1 documents (the pooled one can be) is refused in one line; the
    sizes are summed exactly, not in int64 or float64."""
    flat = counts.reshape(-1, 4)
    sizes = flat.sum(axis=1, dtype=object).tolist()  # Python numbers: no overflow, exact
    check_cases(max(sizes, default=0), "split the documents into smaller tallies")
    n = np.array([round(size) for size in sizes], dtype=np.int64)
    probabilities = flat / np.maximum(n, 1)[:, None]  # an empty table's cells are all 0
    probabilities[n == 0, 0] = 1.0  # an empty table draws nothing; pvals must sum to 1
    draws = rng.multinomial(n, probabilities, size=(replicates, n.size))
    return draws.reshape(replicates, *counts.shape).astype(np.float64)


def _not_estimated(
    estimate: float, default: float, reason: str | None, level: float, method: str
) -> Interval | None:
    """The nan interval of a value that is undefined (with the tally's `reason`) or set by
    a convention (`default`, the value under the default conventions, is nan); else None."""
    if math.isnan(estimate):
        return nan_interval(estimate, level, method, reason or "undefined")
    if math.isnan(default):
        return nan_interval(estimate, level, method, _CONVENTION)
    return None


def tally_intervals(
    tally: Tally,
    measures: Sequence[str] = TALLY_MEASURES,
    *,
    level: float = 0.95,
    replicates: int = 2000,
    seed: int | np.random.Generator | None = None,
    undefined: str = "propagate",
) -> TallyIntervals:
    """Intervals of a Tally's micro, macro and per-category values (see the module).

    Parameters
    ----------
    tally : Tally
    measures : sequence of str
        Measures of `informed.measures.MEASURES` by any of their names ("recall", "tpr",
        "F1"); the results are keyed by registry name, and any name finds them.
    level : float
        Nominal coverage, such as 0.95.
    replicates : int
        Bootstrap replicates of each table.
    seed : int or numpy Generator, optional
        For reproducible replicates.
    undefined : {"propagate", "omit"}
        How a macro average treats a category where the measure is undefined: nan for
        the average (the default), or left out (`Tally.macro`). Each replicate averages
        the same way.

    Returns
    -------
    TallyIntervals

    Examples
    --------
    >>> from informed import Tally
    >>> t = Tally(["sports", "politics"])
    >>> for _ in range(20):
    ...     t.add_result(["sports"], ["sports", "politics"])
    ...     t.add_result(["politics"], ["politics"])
    >>> result = tally_intervals(t, ["recall", "informedness"], replicates=200, seed=0)
    >>> result.micro["recall"].method, round(result.micro["recall"].estimate, 4)
    ('wilson', 0.6667)
    >>> result.per_category["politics"]["informedness"].reason  # politics is always true
    'no real negatives (-R is empty)'
    """
    if not isinstance(tally, Tally):
        msg = f"`tally` must be a Tally; got {type(tally).__name__}."
        raise InputTypeError(msg)
    names = tuple(measure_names(measures))  # any name of a measure: "tpr", "F1"
    if not names:
        msg = "`measures` must name at least one measure (see MEASURES); none given."
        raise InputError(msg)
    level = check_level(level)
    replicates = check_count(replicates, "replicates", 2)
    rng = check_seed(seed)
    if undefined not in ("propagate", "omit"):
        msg = f"`undefined` must be 'propagate' or 'omit'; got {undefined!r}."
        raise InputError(msg)
    conventions = tally.conventions
    counts = tally.counts.astype(np.float64)
    pooled = np.asarray(tally.pooled, dtype=np.float64)
    categories = tally.categories
    check_memory(
        8 * replicates * (len(categories) + 1) * 4 * (len(names) + 1),
        f"the bootstrap of {len(categories):,} categories' tables",
        "ask for fewer `replicates`",
    )
    category_draws = _draws(tally.counts, replicates, rng)  # (B, C, 2, 2)
    whole = bool(np.all(pooled == np.round(pooled)))
    pooled_draws = _draws(np.asarray(tally.pooled), replicates, rng) if whole else None
    micro: dict[str, Interval] = {}
    macro: dict[str, Interval] = {}
    per_category: dict[str, dict[str, Interval]] = {c: {} for c in categories}
    for name in names:
        defaults = measure_values("default", name, counts, {})
        values = measure_values(conventions, name, counts, {})
        wilson = name in PROPORTIONS
        method = "wilson" if wilson else "percentile"
        replicated = measure_values(conventions, name, category_draws, {})  # (B, C)
        for k, category in enumerate(categories):
            value = float(values[k])
            found = _not_estimated(
                value, float(defaults[k]), tally.reason(name, category), level, method
            )
            if found is None:
                found = (
                    _wilson(counts[k], name, level)
                    if wilson
                    else replicate_interval(value, replicated[:, k], level, "percentile", 0.0)
                )
            per_category[category][name] = replace(found, estimate=value)
        estimate = tally.micro(name)
        default = float(measure_values("default", name, pooled, {}))
        found = _not_estimated(estimate, default, tally.reason(name), level, method)
        if found is None:
            found = _micro(pooled, pooled_draws, name, conventions, estimate, level, wilson)
        micro[name] = replace(found, estimate=estimate)  # the tally's value, as reported
        average = tally.macro(name, undefined=undefined)
        with np.errstate(invalid="ignore"):
            means = replicated.mean(axis=1) if undefined == "propagate" else _nanmean(replicated)
        macro[name] = (
            nan_interval(average, level, "percentile", _macro_reason(tally, name, undefined))
            if math.isnan(average)
            else replicate_interval(average, means, level, "percentile", 0.0)
        )
    return TallyIntervals(tally, names, level, replicates, micro, macro, per_category, undefined)


def _micro(
    pooled: Floats,
    draws: Floats | None,
    name: str,
    conventions: Any,
    estimate: float,
    level: float,
    wilson: bool,
) -> Interval:
    if wilson:
        return _wilson(pooled, name, level)
    if draws is None:
        return nan_interval(
            estimate, level, "percentile", "the pooled table holds fractional cells (set_entries)"
        )
    values = measure_values(conventions, name, draws, {})
    return replicate_interval(estimate, values, level, "percentile", 0.0)


def _nanmean(values: Floats) -> Floats:
    """The mean of each row's defined values; nan where none is."""
    defined = ~np.isnan(values)
    total = np.where(defined, values, 0.0).sum(axis=1)
    count = defined.sum(axis=1)
    return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def _macro_reason(tally: Tally, name: str, undefined: str) -> str:
    undefined_in = [c for c in tally.categories if tally.reason(name, c) is not None]
    if not tally.categories:
        return "no categories"
    if undefined == "propagate" and undefined_in:
        shown = ", ".join(repr(c) for c in undefined_in[:3])
        more = f" and {len(undefined_in) - 3} more" if len(undefined_in) > 3 else ""
        return f"undefined in {shown}{more} (undefined='omit' averages the others)"
    return "undefined in every category"
