"""Per-label values and reasons of an Evaluation, held as one array per measure.

A table of 200,000 labels has 200,000 one-vs-rest views: a dict of dicts of their 26
measures would take gigabytes, arrays take 40 MB. `LabelValues` and `LabelReasons`
keep the arrays and read as the mappings label -> measure -> value (or -> why it is
undefined) that `Evaluation.per_label` and `Evaluation.per_label_reasons` have always
been: each label's dict is made when it is asked for (a `ByMeasure`: any name of a measure
finds it). `column` gives a measure's values over every label at once, for reports that
rank or write many labels.

>>> values = LabelValues(("a", "b"), {"recall": np.array([0.5, 1.0])})
>>> values["b"], list(values), values.column("recall").tolist()
({'recall': 1.0}, ['a', 'b'], [0.5, 1.0])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import readonly
from informed.coding.labels import Label
from informed.measures import ByMeasure

__all__ = ["LabelReasons", "LabelValues"]

Floats = NDArray[np.float64]


class _ByLabel:
    """Labels and where each is (a dict made on first lookup, as a dict of labels is)."""

    def __init__(self, labels: tuple[Label, ...]) -> None:
        self.labels = labels
        self._where: dict[Label, int] | None = None

    def _positions(self) -> dict[Label, int]:
        if self._where is None:
            self._where = {x: i for i, x in enumerate(self.labels)}
        return self._where

    def position(self, label: Any) -> int:
        return self._positions()[label]

    def __iter__(self) -> Iterator[Label]:
        return iter(self._positions())

    def __len__(self) -> int:
        return len(self._positions())


class LabelValues(_ByLabel, Mapping[Label, dict[str, float]]):
    """label -> registry name -> value, from one array of values per measure."""

    def __init__(self, labels: tuple[Label, ...], columns: Mapping[str, Floats]) -> None:
        super().__init__(labels)
        self._columns = ByMeasure(
            {name: readonly(np.asarray(v, dtype=np.float64)) for name, v in columns.items()}
        )

    def __getitem__(self, label: Any) -> dict[str, float]:
        k = self.position(label)
        return ByMeasure({name: float(values[k]) for name, values in self._columns.items()})

    def column(self, name: str) -> Floats:
        """The values of measure `name` (any of its names) of every label, in the order
        of the labels."""
        return self._columns[name]

    @property
    def names(self) -> tuple[str, ...]:
        """The measures held."""
        return tuple(self._columns)

    def __repr__(self) -> str:
        return f"LabelValues({len(self.labels)} labels x {len(self._columns)} measures)"


class LabelReasons(_ByLabel, Mapping[Label, dict[str, str]]):
    """label -> registry name -> why the label's value is undefined (only nan values).

    Each measure's reasons are an array of codes, -1 where the value is defined, else the
    position of the reason in that measure's texts.
    """

    def __init__(
        self,
        labels: tuple[Label, ...],
        codes: Mapping[str, tuple[NDArray[np.intp], tuple[str, ...]]],
    ) -> None:
        super().__init__(labels)
        self._codes = ByMeasure(codes)

    def __getitem__(self, label: Any) -> dict[str, str]:
        k = self.position(label)
        return ByMeasure(
            {
                name: texts[int(found[k])]
                for name, (found, texts) in self._codes.items()
                if found[k] >= 0
            }
        )

    def codes(self, name: str) -> tuple[NDArray[np.intp], tuple[str, ...]]:
        """Measure `name`'s (any of its names) reason codes over every label (-1:
        defined) and its texts."""
        return self._codes[name]

    def __repr__(self) -> str:
        return f"LabelReasons({len(self.labels)} labels)"
