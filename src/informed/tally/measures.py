"""The measures of a Tally: any registry measure, micro, macro and per category.

micro(m) = m(pooled table); per_category(m)[k] = m(table_k); macro(m) = the mean over
all declared categories of m(table_k). Under ``conventions="statistics-contingency"``
accuracy, error, precision, recall and F1 (`f_measure`) follow the Perl module
(`informed.tally.conventions`); every other measure, and every measure under the default
conventions, is the registry's, nan where undefined, and `reason` says why.
The methods of `informed.tally.tally.Tally` delegate here and document the rules.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

import math
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice
from informed.errors import InputError
from informed.measures import MEASURES, Measure, measure_name, undefined_reason
from informed.tally.conventions import PERL_STATISTICS, STATISTICS_CONTINGENCY, Conventions
from informed.tally.state import TallyState

__all__ = ["check_measure", "macro", "measure_values", "micro", "per_category", "reason"]

Floats = NDArray[np.float64]

UNDEFINED: Final = ("propagate", "omit")


def check_measure(
    conventions: Conventions, name: str, params: dict[str, float]
) -> tuple[Measure, dict[str, float]]:
    """The registry measure `name` (any of its names: "F1", "tpr") with its parameters,
    checked; an InputError otherwise."""
    measure = MEASURES[measure_name(name)]
    if set(params) - {"alpha"} or (params and not measure.takes_alpha):
        msg = (
            f"measure {name!r} takes "
            f"{'only `alpha`' if measure.takes_alpha else 'no parameters'}; "
            f"got {sorted(params)}."
        )
        raise InputError(msg)
    if (
        conventions == STATISTICS_CONTINGENCY
        and measure.name == "f_measure"
        and params.get("alpha", 0.5) != 0.5
    ):
        msg = (
            "Statistics::Contingency defines only F1 (alpha = 0.5); use "
            'conventions="default" for another alpha.'
        )
        raise InputError(msg)
    return measure, params


def measure_values(
    conventions: Conventions, name: str, counts: Any, params: dict[str, float]
) -> Floats:
    """The measure `name` of tables `counts` (..., 2, 2) under `conventions`."""
    measure, params = check_measure(conventions, name, params)
    if conventions == STATISTICS_CONTINGENCY and measure.name in PERL_STATISTICS:
        return PERL_STATISTICS[measure.name](counts)
    return np.asarray(measure(counts, **params), dtype=np.float64)


def micro(tally: TallyState, name: str, **params: float) -> float:
    """The measure `name` of the pooled table."""
    return float(measure_values(tally._conventions, name, tally._pooled, params))


def per_category(tally: TallyState, name: str, **params: float) -> dict[str, float]:
    """The measure `name` of each category's table: {category: value}, declared order."""
    values = measure_values(tally._conventions, name, tally._counts, params)
    return dict(zip(tally._categories, values.tolist(), strict=True))


def macro(tally: TallyState, name: str, *, undefined: str = "propagate", **params: float) -> float:
    """The mean of the measure `name` over all declared categories.

    "propagate": nan if any category's value is nan; "omit": the mean over the categories
    where it is defined, nan if none is. The sum is exact before its one rounding.
    """
    check_choice(undefined, UNDEFINED, "undefined")
    values = measure_values(tally._conventions, name, tally._counts, params).tolist()
    defined = [value for value in values if value == value]
    if not defined or (undefined == "propagate" and len(defined) < len(values)):
        return math.nan
    # fsum rounds the exact sum once, so the mean does not depend on category order
    return math.fsum(defined) / len(defined)


def reason(tally: TallyState, name: str, category: str | None = None) -> str | None:
    """Why the measure `name` is nan for a category (None: the pooled table); None when
    it is defined."""
    measure, _ = check_measure(tally._conventions, name, {})
    counts = tally._pooled if category is None else tally._counts[tally._code(category)]
    value = float(measure_values(tally._conventions, name, counts, {}))
    if value == value:
        return None
    return undefined_reason(measure, counts)
