"""The argument checks the intervals and tests share: level, counts, a Table, a Ranking."""

from __future__ import annotations

from typing import Any

import numpy as np

from informed._common import check_choice
from informed.coding.labels import Label, keyed
from informed.errors import InputError, InputTypeError
from informed.ranking import Ranking
from informed.table.table import Table

__all__ = [
    "MOST_CASES",
    "WEIGHTS_ARE",
    "case_count",
    "check_cases",
    "check_count",
    "check_level",
    "check_number",
    "check_ranking",
    "check_seed",
    "check_table",
    "frequency_hint",
    "label_index",
]

WEIGHTS_ARE = ("frequency", "normalised")

MOST_CASES = 2**63 - 1
"""The most cases a bootstrap replicate can draw: numpy's multinomial counts in int64."""

RESCALE = "rescale the weights (the estimates do not depend on their scale)"
"""What to do about weights too heavy to draw as cases."""


def check_level(level: Any) -> float:
    """`level` as a float strictly between 0 and 1."""
    if isinstance(level, bool) or not isinstance(level, int | float | np.floating):
        msg = f"`level` must be a number between 0 and 1, such as 0.95; got {level!r}."
        raise InputTypeError(msg)
    if not 0.0 < float(level) < 1.0:
        msg = f"`level` must be strictly between 0 and 1, such as 0.95; got {level!r}."
        raise InputError(msg)
    return float(level)


def check_table(table: Any) -> Table:
    """`table` if it is a Table; an InputTypeError saying how to build one otherwise."""
    if not isinstance(table, Table):
        msg = (
            f"`table` must be an informed.Table; got {type(table).__name__}. Build one with "
            "Table.from_labels(actual=..., predicted=...) or Table.from_counts(...)."
        )
        raise InputTypeError(msg)
    return table


def check_ranking(ranking: Any) -> Ranking:
    """`ranking` if it is a Ranking; an InputTypeError saying how to build one otherwise."""
    if not isinstance(ranking, Ranking):
        msg = (
            f"`ranking` must be an informed.Ranking; got {type(ranking).__name__}. Build one "
            "with Ranking.from_scores(actual=..., scores=..., positive=...)."
        )
        raise InputTypeError(msg)
    return ranking


def check_count(value: Any, name: str, minimum: int) -> int:
    """`value` as an int of at least `minimum` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        msg = f"`{name}` must be an integer >= {minimum}; got {value!r}."
        raise InputTypeError(msg)
    if int(value) < minimum:
        msg = f"`{name}` must be an integer >= {minimum}; got {value!r}."
        raise InputError(msg)
    return int(value)


def check_number(value: Any, name: str, minimum: float) -> float:
    """`value` as a float of at least `minimum` (booleans, strings and NaN refused).

    >>> check_number("x", "min_count", 0)
    Traceback (most recent call last):
    ...
    informed.errors.InputTypeError: `min_count` must be a number >= 0; got 'x'.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        msg = f"`{name}` must be a number >= {minimum:g}; got {value!r}."
        raise InputTypeError(msg)
    if not float(value) >= minimum:
        msg = f"`{name}` must be a number >= {minimum:g}; got {value!r}."
        raise InputError(msg)
    return float(value)


def check_seed(seed: Any) -> np.random.Generator:
    """`seed` as a numpy Generator: None, a non-negative integer (or a sequence of them),
    a SeedSequence, a BitGenerator or a Generator, as `numpy.random.default_rng` takes;
    anything else a one-line error naming `seed` rather than numpy's own.

    >>> check_seed("a")
    Traceback (most recent call last):
    ...
    informed.errors.InputTypeError: `seed` must be None, a non-negative integer or ...
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool | str | bytes | float | np.floating):
        msg = f"`seed` must be None, a non-negative integer or a numpy Generator; got {seed!r}."
        raise InputTypeError(msg)
    try:
        return np.random.default_rng(seed)
    except TypeError:
        msg = f"`seed` must be None, a non-negative integer or a numpy Generator; got {seed!r}."
        raise InputTypeError(msg) from None
    except ValueError:
        msg = f"`seed` must be None, a non-negative integer or a numpy Generator; got {seed!r}."
        raise InputError(msg) from None


def check_cases(total: float, advice: str = RESCALE, does: str = "the bootstrap draws") -> int:
    """The whole cases a case bootstrap draws from weights of `total` (frequency weights:
    round(total)), refused in one line when numpy's multinomial cannot count them (more
    than 2**63 - 1), with `advice`, rather than numpy's raw OverflowError. `does` says
    what takes whole cases ("the permutation test swaps").

    >>> check_cases(1.2e19)
    Traceback (most recent call last):
    ...
    informed.errors.InputError: the bootstrap draws whole cases: a total weight of 1.2e+19 ...
    """
    # Python compares an int with a float exactly (numpy would round 2**63 - 1 to 2**63):
    # an int total of 2**63 - 1 is drawn, a float one of 2**63 refused
    total = int(total) if isinstance(total, int | np.integer) else float(total)
    if not total <= MOST_CASES:
        msg = (
            f"{does} whole cases: a total weight of {total:.3g} exceeds 2**63 - 1 cases; {advice}."
        )
        raise InputError(msg)
    return round(total)


def label_index(labels: tuple[Label, ...], positive: Label | None) -> int | None:
    """Position of `positive` among `labels` (kind-aware: True is not 1); None for None."""
    if positive is None:
        return None
    keys = [keyed(x) for x in labels]
    return keys.index(keyed(positive))


def case_count(table: Table, size: Any, weights_are: str) -> int:
    """The cases a replicate draws: `size` if given, else N for a table of counts or the
    rounded total weight of frequency weights; normalised weights need `size`."""
    check_choice(weights_are, WEIGHTS_ARE, "weights_are")
    if size is not None:
        size = check_count(size, "size", 1)
        if size > MOST_CASES:
            msg = f"`size` must be at most 2**63 - 1 cases (numpy's multinomial); got {size:,}."
            raise InputError(msg)
        return int(size)
    if not table.weighted:
        return int(table.n)
    if weights_are == "normalised":
        msg = (
            'weights_are="normalised" draws as many cases as there were rows: pass '
            "size= the number of rows with a positive weight (the effective sample size)."
        )
        raise InputError(msg)
    return check_cases(
        float(table.n),
        RESCALE + ', or read them as normalised (weights_are="normalised" with size= the '
        "number of rows; --weights-are normalised on the command line)",
    )


def frequency_hint(table: Table, size: Any, weights_are: str) -> str | None:
    """What a bootstrap of fractional weights read as frequencies should tell its user, or
    None: such weights are few cases (0.01 on 500 rows is 5), often too few for any
    interval, and the way out is ``weights_are="normalised"`` with the number of rows."""
    if not table.weighted or weights_are != "frequency" or size is not None:
        return None
    values = table.cells.counts
    if bool(np.all(values == np.round(values))):
        return None  # whole weights: read as repeated rows, as documented
    total = float(table.n)
    cases = round(total)
    return (
        f"the weights sum to {total:.6g}, read as {cases:,} case{'' if cases == 1 else 's'} "
        "(frequency weights); if they only say how much each row counts, pass "
        'weights_are="normalised" and size= the number of rows'
    )
