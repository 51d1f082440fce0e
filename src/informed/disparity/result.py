"""`SliceSearch`, the result of `informed.find_slices`: the slices found and the search's
figures, with its JSON form and CSV rows.

>>> from informed.inference.interval import Interval
>>> found = FoundSlice((("size", "large"),), 100, 40, 60, 0.5, 0.8, 0.3,
...                    Interval(0.3, 0.1, 0.5, 0.95, "bonferroni-price-bonett"))
>>> found.name
'size=large'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from informed._common import json_float
from informed.inference.interval import Interval
from informed.slices.keys import Value

__all__ = [
    "MEASURE_TITLES",
    "METHOD_TEXT",
    "Condition",
    "FoundSlice",
    "LevelFigures",
    "SliceSearch",
]

Condition = tuple[str, Value]

MEASURE_TITLES = {"informedness": "informedness", "markedness": "markedness", "auc": "AUC"}

METHOD_TEXT = {
    "bonferroni-price-bonett": (
        "gap = the rest's value - the slice's; simultaneous intervals: Bonferroni over "
        "every hypothesis tested, each an adjusted Wald interval of the gap (Price & "
        "Bonett 2004: 1/2 added to every cell of the slice's and the rest's tables; the "
        "slice and its rest are disjoint rows, so their variances add)"
    ),
    "bonferroni-delong": (
        "gap = the rest's AUC - the slice's; simultaneous intervals: Bonferroni over every "
        "hypothesis tested, each a normal interval with the DeLong et al. (1988) "
        "variances of the slice and of its rest summed (disjoint rows)"
    ),
}
"""How the gaps' intervals are made, as the reports say it."""


def condition_name(conditions: tuple[Condition, ...]) -> str:
    """How a report names a slice: "column=value, ..." ("missing" for a missing value)."""
    return ", ".join(f"{c}={'missing' if v is None else v}" for c, v in conditions)


@dataclass(frozen=True)
class FoundSlice:
    """A slice the search reports.

    Attributes
    ----------
    slice : tuple of (column, value)
        Its conditions, in the order of the search's columns (None: missing).
    n, positives, negatives : int
        Its rows, real positives and real negatives (None for Powers' multiclass).
    value, rest : float
        The measure in the slice and in the rest of the rows.
    gap : float
        rest - value: how much less informed the slice is.
    interval : Interval
        The gap's simultaneous interval (it excludes 0: the slice is reported).
    within : Interval or None
        For a slice inside a reported slice: the rest of that slice's rows less this
        slice's value, with its simultaneous interval (it excludes 0).
    group : tuple of (column, value), or None
        The condition it shares with other slices found (they overlap), or None.
    """

    slice: tuple[Condition, ...]
    n: int
    positives: int | None
    negatives: int | None
    value: float
    rest: float
    gap: float
    interval: Interval
    within: Interval | None = None
    group: tuple[Condition, ...] | None = None

    @property
    def name(self) -> str:
        """The slice's name as reports print it: its conditions joined ("a=x, b=y")."""
        return condition_name(self.slice)

    def to_dict(self, measure: str) -> dict[str, Any]:
        """The slice as a JSON-ready dict, its values named after `measure`."""
        out: dict[str, Any] = {
            "slice": dict(self.slice),
            "name": self.name,
            "n": self.n,
            "positives": self.positives,
            "negatives": self.negatives,
            measure: json_float(self.value),
            "rest": json_float(self.rest),
            "gap": json_float(self.gap),
            "interval": [json_float(self.interval.low), json_float(self.interval.high)],
        }
        if self.within is not None:
            out["within"] = {
                "gap": json_float(self.within.estimate),
                "interval": [json_float(self.within.low), json_float(self.within.high)],
            }
        out["group"] = None if self.group is None else dict(self.group)
        return out


@dataclass(frozen=True)
class LevelFigures:
    """One depth of the search: slices counted, tested (adequate), pruned (too small to
    test or extend), and found (reported)."""

    depth: int
    counted: int
    tested: int
    pruned: int
    found: int


@dataclass(frozen=True, eq=False)
class SliceSearch:
    """The slices where the model is significantly less informed than on the rest.

    Attributes
    ----------
    found : tuple of FoundSlice
        Ranked by the lower bound of their gap's simultaneous interval, largest first.
    columns : tuple of str
    cuts : dict
        Column -> the edges of its quantile ranges, for the numeric columns cut.
    depth, min_size, bins : int
    measure : str
        "informedness", "markedness" or "auc".
    level : float
        The simultaneous level of the intervals.
    method : str
        `METHOD_TEXT`'s key.
    tested : int
        Slices tested against their rest.
    pruned : int
        Slices counted but with fewer than `min_size` cases in a margin the measure
        divides by (`margins`: real classes, or predicted labels for markedness): not
        tested, their children not counted.
    hypotheses : int
        The Bonferroni family: the slices tested and the (nested, enclosing) pairs of
        tested slices.
    levels : tuple of LevelFigures
    overall : float
        The measure over every row.
    rows : int
    positive : label or None
    untestable : int
        Slices tested whose gap has no interval: a variance that cannot be estimated, or
        a measure undefined in the slice or its rest (never reported as found).
    classes : tuple
        The classes of the actual column, in canonical order.
    """

    found: tuple[FoundSlice, ...]
    columns: tuple[str, ...]
    cuts: dict[str, tuple[float, ...]]
    depth: int
    min_size: int
    bins: int
    measure: str
    level: float
    method: str
    tested: int
    pruned: int
    hypotheses: int
    levels: tuple[LevelFigures, ...]
    overall: float
    rows: int
    positive: Any = None
    untestable: int = 0
    classes: tuple[Any, ...] = field(default=())

    @property
    def margins(self) -> str:
        """Which cases `min_size` counts: "predicted" for markedness (the predicted
        positives and negatives, the margins it divides by), else "real"."""
        return "predicted" if self.measure == "markedness" else "real"

    @property
    def method_text(self) -> str:
        """The method in words, as the reports say it."""
        return METHOD_TEXT[self.method]

    def to_dict(self) -> dict[str, Any]:
        """The search as a JSON-ready dict: `found` (each slice's conditions, counts,
        values, gap and interval) and the search's figures."""
        return {
            "found": [f.to_dict(self.measure) for f in self.found],
            "measure": self.measure,
            "overall": json_float(self.overall),
            "rows": self.rows,
            "positive": self.positive,
            "columns": list(self.columns),
            "cuts": {k: list(v) for k, v in self.cuts.items()},
            "depth": self.depth,
            "min_size": self.min_size,
            "bins": self.bins,
            "level": self.level,
            "tested": self.tested,
            "pruned": self.pruned,
            "untestable": self.untestable,
            "hypotheses": self.hypotheses,
            "levels": [vars(x) for x in self.levels],
            "method": self.method,
            "method_text": self.method_text,
        }

    def csv_rows(self) -> list[list[Any]]:
        """A header and one row per slice found."""
        rows: list[list[Any]] = [
            [
                "rank", "slice", *self.columns, "n", "positives", "negatives", self.measure,
                "rest", "gap", "low", "high", "group",
            ]
        ]  # fmt: skip
        for rank, f in enumerate(self.found, start=1):
            values = dict(f.slice)
            shown = ["" if c not in values else "missing" if values[c] is None else values[c]
                     for c in self.columns]  # fmt: skip
            rows.append(
                [
                    rank, f.name, *shown, f.n, _blank(f.positives), _blank(f.negatives),
                    json_float(f.value), json_float(f.rest), json_float(f.gap),
                    json_float(f.interval.low), json_float(f.interval.high),
                    "" if f.group is None else condition_name(f.group),
                ]
            )  # fmt: skip
        return rows

    def __repr__(self) -> str:
        return (
            f"SliceSearch(found={len(self.found)}, tested={self.tested}, "
            f"pruned={self.pruned}, measure={self.measure!r}, level={self.level})"
        )


def _blank(x: int | None) -> Any:
    return "" if x is None else x
