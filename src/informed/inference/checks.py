"""The argument checks the intervals and tests share: level, counts, a Table, a Ranking."""

from __future__ import annotations

from typing import Any

import numpy as np

from informed.errors import InputError, InputTypeError
from informed.labels import Label, keyed
from informed.ranking import Ranking
from informed.table.table import Table

__all__ = ["check_count", "check_level", "check_ranking", "check_table", "label_index"]


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


def label_index(labels: tuple[Label, ...], positive: Label | None) -> int | None:
    """Position of `positive` among `labels` (kind-aware: True is not 1); None for None."""
    if positive is None:
        return None
    keys = [keyed(x) for x in labels]
    return keys.index(keyed(positive))
