"""Every name a measure goes by, resolved to its registry name in one place.

A measure is asked for by its registry name ("recall"), its title ("Recall") or any of
its registry aliases ("sensitivity", "TPR", "Youden's J", "F1"), in any case and with
any punctuation ("youdens j", "f-1" are the same as "Youden's J" and "F1"). `MeasureNames`
holds those spellings of a registry; `measure_name` resolves a contingency measure's.
Every call that takes a measure's name resolves it here, and every result keyed by
measure names is a `ByMeasure`: a dict by registry name whose lookups (``[...]``, ``in``,
``get``) take any of those names, so ``evaluate(y, p).measures["tpr"]`` is its recall.
An unknown name is an `informed.errors.UnknownMeasureError`, both an `InputError` (a
one-line message, with the close names) and a `KeyError` (what a mapping raises for a
missing key).

>>> measure_name("Youden's J"), measure_name("tpr"), measure_name("F1")
('informedness', 'recall', 'f_measure')
>>> values = ByMeasure({"recall": 0.75})
>>> values["sensitivity"], "TPR" in values, values.get("precision")
(0.75, True, None)
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from informed.errors import InputTypeError, UnknownMeasureError
from informed.measures.registry import MEASURES

__all__ = [
    "MEASURE_NAMES",
    "ByMeasure",
    "MeasureNames",
    "measure_name",
    "measure_names",
    "spelled",
]

Value = TypeVar("Value")


def spelled(name: str) -> str:
    """A name as it is looked up: case and everything but letters and digits ignored.

    >>> spelled("Youden's J"), spelled("F-1")
    ('youdensj', 'f1')
    """
    return "".join(ch for ch in name.casefold() if ch.isalnum())


class MeasureNames:
    """The names of the measures of a registry: each registry name, and the other names
    it goes by (title, aliases), looked up as `spelled` spells them."""

    def __init__(self, names: Mapping[str, Iterable[str]]) -> None:
        self.names = tuple(names)
        self.spellings: dict[str, tuple[str, str]] = {}  # spelled -> (registry name, as written)
        for name, others in names.items():
            for written in (name, *others):
                found = self.spellings.setdefault(spelled(written), (name, written))
                if found[0] != name:  # pragma: no cover - the registries' test holds them apart
                    msg = f"{written!r} names both {found[0]!r} and {name!r}."
                    raise ValueError(msg)

    def __or__(self, other: MeasureNames) -> MeasureNames:
        """The names of both registries (no spelling may name two measures)."""
        merged: dict[str, list[str]] = {}
        for names in (self, other):
            for name, written in names.spellings.values():
                merged.setdefault(name, []).append(written)
        return MeasureNames(merged)

    def find(self, name: Any) -> str | None:
        """The registry name that `name` names, or None."""
        if not isinstance(name, str):
            return None
        if name in self.spellings and self.spellings[name][0] == name:
            return name  # a registry name as it is: the common case, no spelling made
        found = self.spellings.get(spelled(name))
        return None if found is None else found[0]

    def resolve(self, name: Any, among: Iterable[str] | None = None, what: str = "measure") -> str:
        """The registry name that `name` names; with `among`, one of those measures.

        An `UnknownMeasureError` otherwise, naming the close names and the measures."""
        found = self.find(name)
        allowed = self.names if among is None else tuple(among)
        if found is not None and found in allowed:
            return found
        if not isinstance(name, str):
            msg = f"a {what} is named by a str, such as {allowed[0]!r}; got {name!r}."
            raise UnknownMeasureError(msg)
        if found is not None:
            asked = "" if found == name else f" ({found})"
            msg = f"{what} {name!r}{asked} must be one of {list(allowed)} here."
            raise UnknownMeasureError(msg)
        close = self._close(name, allowed)
        hint = f" Did you mean {close}?" if close else ""
        msg = (
            f"unknown {what} {name!r}.{hint} The {what}s are {', '.join(allowed)}, "
            "or any of their titles and aliases, in any case."
        )
        raise UnknownMeasureError(msg)

    def _close(self, name: str, allowed: tuple[str, ...]) -> str:
        """The names close to `name`, as written, each with its registry name."""
        keys = [k for k, (registry, _) in self.spellings.items() if registry in allowed]
        shown = []
        for key in difflib.get_close_matches(spelled(name), keys, n=3, cutoff=0.6):
            registry, written = self.spellings[key]
            shown.append(repr(written) if written == registry else f"{written!r} ({registry})")
        return " or ".join(dict.fromkeys(shown))


MEASURE_NAMES = MeasureNames({name: (m.title, *m.aliases) for name, m in MEASURES.items()})
"""The names of the contingency measures of `MEASURES`."""


def measure_name(name: Any, among: Iterable[str] | None = None) -> str:
    """The registry name of a contingency measure given by any of its names (see the
    module's docstring); with `among`, one of those measures.

    >>> measure_name("specificity"), measure_name("BM")
    ('inverse_recall', 'informedness')
    """
    return MEASURE_NAMES.resolve(name, among)


def measure_names(
    given: Any, names: MeasureNames = MEASURE_NAMES, among: Iterable[str] | None = None
) -> list[str]:
    """The registry names of a list of measures' names (a name alone is a list of one),
    each once, in the order given; with `among`, each one of those.

    >>> measure_names(["tpr", "recall", "Youden's J"])
    ['recall', 'informedness']
    """
    listed = [given] if isinstance(given, str) else given
    if not isinstance(listed, Iterable) or isinstance(listed, set | frozenset | dict | bytes):
        msg = f"`measures` must be a list of measures' names; got {type(given).__name__}."
        raise InputTypeError(msg)
    return list(dict.fromkeys(names.resolve(name, among) for name in listed))


class ByMeasure(dict[str, Value]):
    """A dict by registry name whose lookups take any name of a measure.

    Keys, iteration, equality and JSON are the registry names'; ``[name]``, ``name in``
    and ``get(name)`` resolve `name` through `names` first (a title, an alias, another
    case). A name that is no measure's, or of a measure not held, raises an
    `UnknownMeasureError` (a `KeyError`) from ``[...]``; ``in`` and ``get`` say it is
    not there.
    """

    names: ClassVar[MeasureNames] = MEASURE_NAMES

    def __getitem__(self, name: str) -> Value:
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        return dict.__getitem__(self, self.names.resolve(name, among=self))

    def __contains__(self, name: object) -> bool:
        if dict.__contains__(self, name):
            return True
        found = self.names.find(name)
        return found is not None and dict.__contains__(self, found)

    def get(self, name: str, default: Any = None) -> Any:
        """The value of the measure `name` (any of its names), or `default`."""
        found = name if dict.__contains__(self, name) else self.names.find(name)
        return default if found is None else dict.get(self, found, default)
