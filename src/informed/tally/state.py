"""What a Tally holds: its declared categories, its two policies and its int64 tables.

For each declared category a Tally keeps one 2x2 table, as Statistics::Contingency does::

                 Correct=Y   Correct=N
    Assigned=Y |     a     |     b     |        a = tp, b = fp
    Assigned=N |     c     |     d     |        c = fn, d = tn

stored as ``counts[k] = [[a, b], [c, d]]`` (rows predicted, columns actual, the layout of
`informed.measures`), plus the pooled (micro) table, kept separately because
`Tally.set_entries` sets it alone, as in the Perl module. `TallyState` is that state and
its storage: `add_result` holds a document's cells back and they are folded into the
arrays on the next read. `informed.tally.tally.Tally` adds the methods; the modules of
its counting, measures, printed table and JSON take a `TallyState`.

Counts are int64 and never wrap around: `checked_int` and `checked_add` refuse to pass
the limit.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice
from informed.errors import InputError
from informed.tally.conventions import CONVENTIONS, STATISTICS_CONTINGENCY, Conventions
from informed.tally.names import check_categories, preview

__all__ = [
    "INT64_MAX",
    "UNKNOWN",
    "TallyState",
    "Unknown",
    "checked_add",
    "checked_int",
    "unknown_policy",
]

Unknown = Literal["error", "ignore"]
Ints = NDArray[np.int64]

UNKNOWN: Final = ("error", "ignore")
INT64_MAX: Final = int(np.iinfo(np.int64).max)


def unknown_policy(unknown: Unknown | None, conventions: Conventions) -> Unknown:
    """The policy for unknown categories: `unknown` checked, or by default the one that
    goes with `conventions` ("ignore" under "statistics-contingency", as the Perl module
    skips them; "error" under "default")."""
    if unknown is None:
        return "ignore" if conventions == STATISTICS_CONTINGENCY else "error"
    checked: Unknown = check_choice(unknown, UNKNOWN, "unknown")
    return checked


def checked_int(value: int, name: str) -> int:
    """`value` if it fits in int64; an InputError otherwise."""
    if value > INT64_MAX:
        msg = f"`{name}` would reach {value}, beyond the int64 limit of the counts."
        raise InputError(msg)
    return value


def checked_add(left: NDArray[Any], right: NDArray[Any]) -> NDArray[Any]:
    """left + right for non-negative int64 arrays (or a float64 pooled table), refusing to
    pass the int64 limit."""
    if (right > INT64_MAX - left).any():
        msg = (
            "a count would pass the int64 limit (2**63 - 1); split the data into separate tallies."
        )
        raise InputError(msg)
    return np.asarray(left + right)


class TallyState:
    """The state of a Tally: declared categories, policies, tables, documents, ignored.

    The parameters are those of `informed.tally.tally.Tally`, checked here. The tables are
    read and written through `_counts` and `_pooled`, which first fold in the cells that
    `add_result` held back.
    """

    def __init__(
        self,
        categories: Iterable[str],
        *,
        unknown: Unknown | None = None,
        conventions: Conventions = "default",
    ) -> None:
        self._conventions: Conventions = check_choice(conventions, CONVENTIONS, "conventions")
        self._unknown: Unknown = unknown_policy(unknown, self._conventions)
        merge = self._conventions == STATISTICS_CONTINGENCY
        self._categories = check_categories(categories, merge=merge)
        self._index = {name: i for i, name in enumerate(self._categories)}
        self._counts_store: Ints = np.zeros((len(self._categories), 2, 2), dtype=np.int64)
        # int64, or float64 once `set_entries` gave fractional cells (Perl conventions)
        self._pooled_store: NDArray[np.int64 | np.float64] = np.zeros((2, 2), dtype=np.int64)
        # add_result appends the cells it fills (4 k + 0, 1, 2 for a, b, c of category k;
        # d is the rest) and folds them into the arrays on the next read: one bincount
        # instead of numpy scalar updates per document.
        self._pending: list[int] = []
        self._pending_documents = 0
        self._room = 0  # documents that can be held back without any pooled cell passing int64
        self._set_room()
        self._documents = 0
        self._ignored: dict[str, int] = {}

    # ------------------------------------------------------------------ storage
    @property
    def _counts(self) -> Ints:
        if self._pending_documents:
            self._flush()
        return self._counts_store

    @_counts.setter
    def _counts(self, value: Ints) -> None:
        if self._pending_documents:
            self._flush()
        self._counts_store = value

    @property
    def _pooled(self) -> NDArray[np.int64 | np.float64]:
        if self._pending_documents:
            self._flush()
        return self._pooled_store

    @_pooled.setter
    def _pooled(self, value: NDArray[np.int64 | np.float64]) -> None:
        if self._pending_documents:
            self._flush()
        self._pooled_store = value
        self._set_room()

    def _set_room(self) -> None:
        # a document adds at most k to a pooled cell; per-category cells never pass
        # `documents`, which is checked on its own
        largest = int(self._pooled_store.max())
        self._room = (INT64_MAX - largest) // max(1, len(self._categories))

    def _flush(self) -> None:
        k = len(self._categories)
        filled = np.bincount(np.asarray(self._pending, dtype=np.intp), minlength=4 * k)
        filled = filled.reshape(k, 4).astype(np.int64)
        increment = np.zeros((k, 2, 2), dtype=np.int64)
        increment[:, 0, 0], increment[:, 0, 1], increment[:, 1, 0] = filled[:, :3].T
        increment[:, 1, 1] = self._pending_documents - filled[:, :3].sum(axis=1)
        self._counts_store = self._counts_store + increment
        self._pooled_store = self._pooled_store + increment.sum(axis=0)
        self._pending.clear()
        self._pending_documents = 0
        self._set_room()

    def _code(self, category: str) -> int:
        code = self._index.get(category) if isinstance(category, str) else None
        if code is None:
            msg = f"{category!r} is not one of the declared categories {preview(self._categories)}."
            raise InputError(msg)
        return code

    # ------------------------------------------------------------------ properties
    @property
    def categories(self) -> tuple[str, ...]:
        """The declared categories, in their order."""
        return self._categories

    @property
    def unknown(self) -> Unknown:
        """The policy for categories outside `categories`: "error" or "ignore" (the
        default under ``conventions="statistics-contingency"``)."""
        return self._unknown

    @property
    def conventions(self) -> Conventions:
        """The conventions for undefined values: "default" (nan) or "statistics-contingency"."""
        return self._conventions

    @property
    def documents(self) -> int:
        """The number of documents added (Perl's ``hypotheses``); `set_entries` adds none."""
        return self._documents

    @property
    def counts(self) -> Ints:
        """A copy of the per-category tables, shape (n_categories, 2, 2), int64.

        counts[k] = [[a, b], [c, d]] = [[tp, fp], [fn, tn]] for category k; rows
        assigned yes/no, columns correct yes/no. For every k, a + b + c + d = documents.
        """
        return self._counts.copy()

    @property
    def pooled(self) -> NDArray[np.int64 | np.float64]:
        """A copy of the pooled (micro) table [[a, b], [c, d]]: int64, or float64 after
        `set_entries` gave fractional cells (``conventions="statistics-contingency"``).

        It is the sum of `counts` over the categories, unless `set_entries` replaced it.
        """
        return self._pooled.copy()

    @property
    def ignored(self) -> dict[str, int]:
        """Unknown categories skipped under ``unknown="ignore"``: category -> the number
        of documents that named it (as assigned, correct or both)."""
        return dict(sorted(self._ignored.items()))
