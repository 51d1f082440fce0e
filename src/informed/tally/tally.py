"""Tally: multi-label evaluation with the semantics of Statistics::Contingency 0.09.

A document may be assigned several categories and may truly belong to several. For each
declared category the Tally keeps one 2x2 table (seed 002)::

                 Correct=Y   Correct=N
    Assigned=Y |     a     |     b     |        a = tp, b = fp
    Assigned=N |     c     |     d     |        c = fn, d = tn

stored as ``counts[k] = [[a, b], [c, d]]`` (rows predicted, columns actual, the layout of
`informed.measures`), plus the pooled (micro) table, kept separately because
`Tally.set_entries` sets it alone, as in the Perl module. Micro statistics are measures of
the pooled table; macro statistics are the mean over the declared categories of the
per-category values. Every measure of the registry is available, not only the seed's five.

Undefined values are nan under the default conventions; ``conventions=
"statistics-contingency"`` reproduces the Perl module's fixed values (see
`informed.tally.conventions` and docs/tally.md). Tallies hold counts only, so they merge
exactly with ``+`` and survive a JSON round trip without loss.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module (seed 002).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.measures.registry import MEASURES, Measure, undefined_reason
from informed.table.table import Table
from informed.tally.conventions import (
    CONVENTIONS,
    INT64_MAX,
    PERL_NAMES,
    PERL_STATISTICS,
    STATISTICS_CONTINGENCY,
    Conventions,
    check_choice,
    checked_add,
    checked_int,
    format_stats_table,
    json_count,
    json_counts,
)
from informed.tally.indicators import indicator_sums
from informed.tally.names import category_names, check_categories, preview

__all__ = ["Tally"]

Unknown = Literal["error", "ignore"]
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

_UNKNOWN: Final = ("error", "ignore")
_UNDEFINED: Final = ("propagate", "omit")
_PENDING_LIMIT: Final = 1 << 16
_JSON_KIND: Final = "informed.Tally"
_JSON_VERSION: Final = 1
_JSON_KEYS: Final = frozenset(
    {
        "kind",
        "version",
        "conventions",
        "unknown",
        "categories",
        "documents",
        "counts",
        "pooled",
        "ignored",
    }
)


# ---------------------------------------------------------------------- the Tally
class Tally:
    """One 2x2 contingency table per category, plus the pooled table (seed 002).

    Parameters
    ----------
    categories : sequence of str
        Every category that may be assigned or correct (Perl's ``categories``). The order
        is kept: it is the order of `per_category`, of the columns of the indicator
        matrices given to `add_results`, and of the JSON. A set is sorted (it has no
        order). Distinct, non-empty list; each category a str.
    unknown : {"error", "ignore"}
        A category outside `categories` in `add_result` / `add_results`: "error" (the
        default) raises an InputError naming the document and the category; "ignore"
        skips it, as Statistics::Contingency does silently, and counts the documents that
        mentioned it in `ignored`, so nothing is lost unseen.
    conventions : {"default", "statistics-contingency"}
        How undefined values are reported. "default": nan (see `reason`). The other
        reproduces Statistics::Contingency 0.09 (PITFALLS P14): precision(0,0,0,d) = 1,
        precision(0,0,c>0,d) = 0, recall(a,b,0,d) = 1, F1(a,0,0,d) = 1, accuracy of an
        empty table 1 and error 0. The conventions change only accuracy, error,
        precision, recall and F1 (`f_measure`); the other registry measures have no Perl
        twin and stay nan where undefined.

    Notes
    -----
    Both conventions share these rules of the Perl module:

    - macro = mean over all declared categories, used or not (P16); adding an unused
      category changes micro accuracy and the macro averages (P14);
    - `set_entries` sets the pooled table only; the per-category tables are untouched;
    - a list given to `add_result` is a set: a repeated category counts once;
    - micro and macro keep their standard meaning (P15): micro pools the counts,
      macro averages per-category values.

    Differences from the Perl module, by design: an unknown category is an error unless
    ``unknown="ignore"``; repeated names in `categories` are an error (Perl merges them);
    ``stats_table(0)`` is an error (Perl turns 0 into 3).

    Examples
    --------
    The five results of PITFALLS' reference vector (Statistics::Contingency 0.09 output):

    >>> t = Tally(["sports", "politics", "finance"], unknown="ignore",
    ...           conventions="statistics-contingency")
    >>> t.add_result(["sports", "finance"], ["sports"])
    >>> t.add_result(["politics"], ["politics", "finance"])
    >>> t.add_result([], ["finance"])
    >>> t.add_result("sports", "sports")
    >>> t.add_result(["unknowncat"], ["sports"])
    >>> t.micro_precision(), t.micro_recall(), round(t.micro_F1(), 12)
    (0.75, 0.5, 0.6)
    >>> t.ignored
    {'unknowncat': 1}
    >>> print(t.stats_table(), end="")
    +---------------------------------------------+
    |   maR   maP  maF1    miR   miP  miF1    Err |
    | 0.556 0.667 0.600  0.500 0.750 0.600  0.267 |
    +---------------------------------------------+
    """

    __hash__ = None  # type: ignore[assignment]  # mutable: add_result changes the counts

    def __init__(
        self,
        categories: Iterable[str],
        *,
        unknown: Unknown = "error",
        conventions: Conventions = "default",
    ) -> None:
        self._categories = check_categories(categories)
        self._index = {name: i for i, name in enumerate(self._categories)}
        self._unknown: Unknown = check_choice(unknown, _UNKNOWN, "unknown")
        self._conventions: Conventions = check_choice(conventions, CONVENTIONS, "conventions")
        self._counts_store: Ints = np.zeros((len(self._categories), 2, 2), dtype=np.int64)
        self._pooled_store: Ints = np.zeros((2, 2), dtype=np.int64)
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
    def _pooled(self) -> Ints:
        if self._pending_documents:
            self._flush()
        return self._pooled_store

    @_pooled.setter
    def _pooled(self, value: Ints) -> None:
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

    # ------------------------------------------------------------------ state
    @property
    def categories(self) -> tuple[str, ...]:
        """The declared categories, in their order."""
        return self._categories

    @property
    def unknown(self) -> Unknown:
        """The policy for categories outside `categories`: "error" or "ignore"."""
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
    def pooled(self) -> Ints:
        """A copy of the pooled (micro) table [[a, b], [c, d]], int64.

        It is the sum of `counts` over the categories, unless `set_entries` replaced it.
        """
        return self._pooled.copy()

    @property
    def ignored(self) -> dict[str, int]:
        """Unknown categories skipped under ``unknown="ignore"``: category -> the number
        of documents that named it (as assigned, correct or both)."""
        return dict(sorted(self._ignored.items()))

    def copy(self) -> Tally:
        """An independent copy: adding to one leaves the other unchanged."""
        return self._replace(
            self._categories,
            self._counts.copy(),
            self._pooled.copy(),
            self._documents,
            dict(self._ignored),
        )

    def _replace(
        self,
        categories: tuple[str, ...],
        counts: Ints,
        pooled: Ints,
        documents: int,
        ignored: dict[str, int],
    ) -> Tally:
        new = Tally(categories, unknown=self._unknown, conventions=self._conventions)
        new._counts = counts
        new._pooled = pooled
        new._documents = documents
        new._ignored = ignored
        return new

    # ------------------------------------------------------------------ adding
    def add_result(self, assigned: Any, correct: Any, name: str | int | None = None) -> None:
        """Add one document: the categories it was assigned and those that are correct.

        For every declared category k, exactly one cell of its table grows by one:
        a (assigned and correct), b (assigned, not correct), c (correct, not assigned) or
        d (neither); the pooled table grows by the same four totals.

        Parameters
        ----------
        assigned, correct : list, tuple, set, dict or str
            As the seed says: a list (or tuple, set) of category names; a dict whose keys
            are category names and whose values are true (Python truthiness; keys with
            false values are not mentions); or a single string for one category.
            Repeats count once.
        name : str or int, optional
            Used in error messages only (seed 002); otherwise the document is named by its
            0-based position among the documents added to this tally.

        Raises
        ------
        InputTypeError
            For another container type or a category that is not a str.
        InputError
            For a category outside `categories` when ``unknown="error"``. Nothing is
            counted when an error is raised.

        References
        ----------
        Seed 002, ``$e->add_result($assigned_categories, $correct_categories, $name)``.

        >>> t = Tally(["sports", "politics"])
        >>> t.add_result({"sports": True, "politics": False}, "sports", name="doc-1")
        >>> t.table("sports").counts.tolist()
        [[1, 0], [0, 0]]
        >>> t.add_result(["sport"], [], name="doc-2")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        informed.errors.InputError: document 'doc-2': `assigned` names the category 'sport', ...
        """
        where = f"document {name!r}" if name is not None else f"document {self._documents}"
        assigned_codes, assigned_unknown = self._codes(assigned, "assigned", where)
        correct_codes, correct_unknown = self._codes(correct, "correct", where)
        if self._documents >= INT64_MAX:
            msg = f"{where}: the tally already holds {self._documents} documents, the int64 limit."
            raise InputError(msg)
        if self._pending_documents < self._room:
            pending = self._pending
            for k in assigned_codes:
                pending.append(4 * k if k in correct_codes else 4 * k + 1)
            pending.extend(4 * k + 2 for k in correct_codes - assigned_codes)
            self._pending_documents += 1
            if len(pending) > _PENDING_LIMIT:  # bounded memory
                self._flush()
        else:  # near the int64 limit of the pooled table: count now, exactly, or refuse
            both = assigned_codes & correct_codes
            only_assigned = assigned_codes - correct_codes
            only_correct = correct_codes - assigned_codes
            neither = len(self._categories) - len(both) - len(only_assigned) - len(only_correct)
            cells = [[len(both), len(only_assigned)], [len(only_correct), neither]]
            pooled = checked_add(self._pooled, np.array(cells, dtype=np.int64))
            counts = self._counts.copy()
            counts[:, 1, 1] += 1
            for cell, codes in (((0, 0), both), ((0, 1), only_assigned), ((1, 0), only_correct)):
                for k in codes:
                    counts[k][cell] += 1
                    counts[k, 1, 1] -= 1
            self._counts = counts
            self._pooled = pooled
        self._documents += 1
        for category in sorted(assigned_unknown | correct_unknown):
            self._ignored[category] = self._ignored.get(category, 0) + 1

    def _codes(self, given: Any, side: str, where: str) -> tuple[set[int], set[str]]:
        """The codes of the known categories named by `given`, and the unknown names."""
        codes: set[int] = set()
        unknown: set[str] = set()
        for category in category_names(given, side, where):
            code = self._index.get(category)
            if code is not None:
                codes.add(code)
            elif self._unknown == "ignore":
                unknown.add(category)
            else:
                msg = (
                    f"{where}: `{side}` names the category {category!r}, which is not one "
                    f"of the {len(self._categories)} declared categories "
                    f"{preview(self._categories)}; declare it in `categories=` or pass "
                    'unknown="ignore" to skip and count it.'
                )
                raise InputError(msg)
        return codes, unknown

    def add_results(
        self, assigned: Any, correct: Any, *, columns: Iterable[str] | None = None
    ) -> None:
        """Add many documents at once from two indicator matrices, vectorised.

        Row i is a document, column j a category; entry 1 (or True) means assigned (in
        `assigned`) or correct (in `correct`). Per column, with A and C the two matrices
        and n the number of rows::

            a = sum_i A[i, j] C[i, j]      b = sum_i A[i, j] - a
            c = sum_i C[i, j] - a          d = n - a - b - c

        The result equals `add_result` called on each row (the seed's per-document rule).

        Parameters
        ----------
        assigned, correct : array_like or scipy.sparse matrix/array, shape (n, m)
            Entries 0/1 (bool, integer or float dtype); dense and sparse may be mixed.
        columns : sequence of str, optional
            The category of each column; by default `categories` in their order. Declared
            categories missing from `columns` count the n documents as d. An unknown
            column raises under ``unknown="error"``; under "ignore" its documents with a
            1 in either matrix are counted in `ignored`.

        Raises
        ------
        InputError
            Shapes that differ or do not match `columns`, entries other than 0 and 1
            (named by row and column), or unknown columns. Nothing is counted then.
        InputTypeError
            A ragged list, strings or objects instead of indicators.

        References
        ----------
        Seed 002 (``add_result``, the per-document rule this sums).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 0], [1, 1], [0, 0]], [[1, 0], [0, 1], [0, 1]])
        >>> t.counts.tolist()
        [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
        """
        if columns is None:
            names = self._categories
        else:
            names = check_categories(columns, name="columns", allow_empty=True)
        n, both_sum, assigned_sum, correct_sum = indicator_sums(assigned, correct)
        m = len(both_sum)
        if m != len(names):
            msg = (
                f"the indicator matrices have {m} columns but there are {len(names)} "
                f"{'columns named' if columns is not None else 'declared categories'}; "
                "pass `columns=` to name the category of each column."
            )
            raise InputError(msg)
        unknown_columns = [j for j, cat in enumerate(names) if cat not in self._index]
        if unknown_columns and self._unknown == "error":
            cat = names[unknown_columns[0]]
            msg = (
                f"column {unknown_columns[0]} of the indicator matrices is the category "
                f"{cat!r}, which is not one of the {len(self._categories)} declared "
                f'categories {preview(self._categories)}; declare it or pass unknown="ignore".'
            )
            raise InputError(msg)
        skipped = set(unknown_columns)
        known = np.array([j for j in range(m) if j not in skipped], dtype=np.intp)
        codes = np.array([self._index[names[j]] for j in known], dtype=np.intp)
        a = both_sum[known]
        b = assigned_sum[known] - a
        c = correct_sum[known] - a
        d = n - a - b - c
        increment = np.zeros_like(self._counts)
        increment[:, 1, 1] = n
        increment[codes] = np.stack([np.stack([a, b], -1), np.stack([c, d], -1)], -2)
        pooled_increment = increment.sum(axis=0)
        counts = checked_add(self._counts, increment)
        pooled = checked_add(self._pooled, pooled_increment)
        documents = checked_int(self._documents + n, "documents")
        # all checked: now change the state
        self._counts, self._pooled, self._documents = counts, pooled, documents
        for j in unknown_columns:
            mentions = int(assigned_sum[j] + correct_sum[j] - both_sum[j])
            if mentions:
                self._ignored[names[j]] = self._ignored.get(names[j], 0) + mentions

    def set_entries(self, a: int, b: int, c: int, d: int) -> None:
        """Set the four cells of the pooled (micro) table directly.

        As in Statistics::Contingency 0.09, only the pooled table is replaced: the
        per-category tables and `documents` are untouched, so afterwards micro statistics
        describe the given table while macro statistics still average the per-category
        tables (under the Perl conventions an empty category table gives 1 for
        precision, recall, F1 and accuracy; under the default conventions nan). Results
        added later are added to the given cells.

        Parameters
        ----------
        a, b, c, d : int
            Non-negative counts: assigned and correct, assigned not correct, correct not
            assigned, neither.

        References
        ----------
        Seed 002, ``$e->set_entries($a, $b, $c, $d)``; the 0.09 source (PITFALLS P14).

        >>> t = Tally(["x"], conventions="statistics-contingency")
        >>> t.set_entries(0, 0, 5, 10)
        >>> t.micro_precision(), t.micro_recall(), t.micro_accuracy()
        (0.0, 0.0, 0.6666666666666666)
        """
        values = []
        for label, value in zip("abcd", (a, b, c, d), strict=True):
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                msg = f"`{label}` must be a whole count; got {value!r} ({type(value).__name__})."
                raise InputTypeError(msg)
            if not 0 <= int(value) <= INT64_MAX:
                msg = f"`{label}` must lie in [0, 2**63 - 1]; got {value!r}."
                raise InputError(msg)
            values.append(int(value))
        self._pooled = np.array([values[:2], values[2:]], dtype=np.int64)

    # ------------------------------------------------------------------ merging
    def merge(self, other: Tally, *, union: bool = False) -> Tally:
        """A new Tally holding the documents of both; the inputs are untouched.

        Counts, pooled tables, document counts and `ignored` are added. Both tallies must
        have the same `conventions` and `unknown` policy.

        Parameters
        ----------
        other : Tally
        union : bool
            False (the default, also ``+``): the two must declare the same categories (the
            order may differ; the result keeps the left one's). True: the result declares
            the union, in code-point order; a category unknown to one side counts that
            side's documents as d (neither assigned nor correct), which is refused if
            that side ignored the category under ``unknown="ignore"`` (its documents
            could not be placed).

        Returns
        -------
        Tally

        References
        ----------
        DESIGN.md, "The three summaries" (merge by adding tables); RELIABILITY 4.1.

        >>> left, right = Tally(["x", "y"]), Tally(["y", "z"])
        >>> left.add_result("x", "x")
        >>> right.add_result("z", "y")
        >>> both = left.merge(right, union=True)
        >>> both.categories, both.documents, both.table("y").counts.tolist()
        (('x', 'y', 'z'), 2, [[0, 0], [1, 1]])
        """
        if not isinstance(other, Tally):
            msg = f"a Tally merges with a Tally; got {type(other).__name__}."
            raise InputTypeError(msg)
        for attribute in ("conventions", "unknown"):
            if getattr(self, attribute) != getattr(other, attribute):
                msg = (
                    f"cannot merge tallies with different `{attribute}`: "
                    f"{getattr(self, attribute)!r} and {getattr(other, attribute)!r}."
                )
                raise InputError(msg)
        mine, theirs = set(self._categories), set(other._categories)
        if mine == theirs:
            categories = self._categories
        elif not union:
            msg = (
                "cannot add tallies with different categories: only the left has "
                f"{preview(sorted(mine - theirs))}, only the right has "
                f"{preview(sorted(theirs - mine))}; "
                "use left.merge(right, union=True) to merge over the union."
            )
            raise InputError(msg)
        else:
            categories = tuple(sorted(mine | theirs))
            for side, names in ((self, theirs - mine), (other, mine - theirs)):
                lost = sorted(set(side._ignored) & names)
                if lost:
                    msg = (
                        f"cannot merge over the union: one tally ignored {side._ignored[lost[0]]} "
                        f"document(s) naming {lost[0]!r}, which the union declares; their cells "
                        "for it are unknown. Rebuild that tally with the category declared."
                    )
                    raise InputError(msg)
        counts = checked_add(self._aligned(categories), other._aligned(categories))
        pooled = checked_add(self._pooled_over(categories), other._pooled_over(categories))
        documents = checked_int(self._documents + other._documents, "documents")
        ignored = dict(self._ignored)
        for category, count in other._ignored.items():
            ignored[category] = checked_int(ignored.get(category, 0) + count, "ignored")
        return self._replace(categories, counts, pooled, documents, ignored)

    def _aligned(self, categories: tuple[str, ...]) -> Ints:
        """The per-category tables over `categories` (a superset of ours): absent ones are
        all d."""
        out = np.zeros((len(categories), 2, 2), dtype=np.int64)
        out[:, 1, 1] = self._documents
        for i, category in enumerate(categories):
            k = self._index.get(category)
            if k is not None:
                out[i] = self._counts[k]
        return out

    def _pooled_over(self, categories: tuple[str, ...]) -> Ints:
        extra = sum(1 for category in categories if category not in self._index)
        pooled = self._pooled.copy()
        pooled[1, 1] = checked_int(int(pooled[1, 1]) + extra * self._documents, "pooled d")
        return pooled

    def __add__(self, other: object) -> Tally:
        """``left + right`` = ``left.merge(right)``: same categories required."""
        if not isinstance(other, Tally):
            return NotImplemented
        return self.merge(other)

    def __eq__(self, other: object) -> bool:
        """Same conventions, policy, category set, and equal counts category by category."""
        if not isinstance(other, Tally):
            return NotImplemented
        return (
            self._conventions == other._conventions
            and self._unknown == other._unknown
            and set(self._categories) == set(other._categories)
            and bool(np.array_equal(self._counts, other._aligned(self._categories)))
            and bool(np.array_equal(self._pooled, other._pooled))
            and self._documents == other._documents
            and self._ignored == other._ignored
        )

    def __repr__(self) -> str:
        return (
            f"Tally(categories={list(self._categories)!r}, documents={self._documents}, "
            f"unknown={self._unknown!r}, conventions={self._conventions!r})"
        )

    # ------------------------------------------------------------------ measures
    def _measure(self, name: str, params: dict[str, float]) -> tuple[Measure, dict[str, float]]:
        measure = MEASURES.get(name) if isinstance(name, str) else None
        if measure is None:
            msg = f"unknown measure {name!r}; the registry has {sorted(MEASURES)}."
            raise InputError(msg)
        if set(params) - {"alpha"} or (params and not measure.takes_alpha):
            msg = (
                f"measure {name!r} takes "
                f"{'only `alpha`' if measure.takes_alpha else 'no parameters'}; "
                f"got {sorted(params)}."
            )
            raise InputError(msg)
        if (
            self._conventions == STATISTICS_CONTINGENCY
            and name == "f_measure"
            and params.get("alpha", 0.5) != 0.5
        ):
            msg = (
                "Statistics::Contingency defines only F1 (alpha = 0.5); use "
                'conventions="default" for another alpha.'
            )
            raise InputError(msg)
        return measure, params

    def _values(self, name: str, counts: Any, params: dict[str, float]) -> Floats:
        measure, params = self._measure(name, params)
        if self._conventions == STATISTICS_CONTINGENCY and name in PERL_STATISTICS:
            return PERL_STATISTICS[name](counts)
        return np.asarray(measure(counts, **params), dtype=np.float64)

    def micro(self, name: str, **params: float) -> float:
        """A registry measure of the pooled table: counts summed over categories, then measured.

        micro(m) = m(sum_k [[a_k, b_k], [c_k, d_k]]), or m of the table given to
        `set_entries`. E.g. micro precision = sum a / (sum a + sum b); micro error is the
        Hamming loss.

        Parameters
        ----------
        name : str
            A name of `informed.measures.MEASURES` ("precision", "f_measure",
            "informedness", ...).
        **params : float
            ``alpha`` for the F-measures.

        Returns
        -------
        float
            nan where undefined under the default conventions (see `reason`).

        References
        ----------
        Seed 002: "calculated over all decisions" (micro-averaging).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 1], [0, 1]], [[1, 0], [0, 1]])
        >>> t.micro("precision"), t.micro("informedness")
        (0.6666666666666666, 0.5)
        """
        return float(self._values(name, self._pooled, params))

    def per_category(self, name: str, **params: float) -> dict[str, float]:
        """A registry measure of each category's table: {category: value}.

        Parameters
        ----------
        name : str
            A registry name.
        **params : float
            ``alpha`` for the F-measures.

        Returns
        -------
        dict
            Category -> float, in the declared order; nan where undefined (default
            conventions).

        References
        ----------
        Seed 002, ``category_stats`` (here for any registry measure).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 1], [0, 1]], [[1, 0], [0, 1]])
        >>> t.per_category("recall")
        {'x': 1.0, 'y': 1.0}
        """
        values = self._values(name, self._counts, params)
        return dict(zip(self._categories, values.tolist(), strict=True))

    def macro(self, name: str, *, undefined: str = "propagate", **params: float) -> float:
        """The mean of a registry measure over all declared categories.

        macro(m) = (1 / K) sum_k m([[a_k, b_k], [c_k, d_k]]), K = number of declared
        categories, whether used or not (PITFALLS P16). The sum is exact before its one
        rounding (`math.fsum`), so the order of the categories cannot change the last bit.

        Parameters
        ----------
        name : str
            A registry name.
        undefined : {"propagate", "omit"}
            "propagate" (default): nan if any category's value is nan. "omit": the mean
            over the categories where it is defined (scikit-learn's
            ``zero_division=np.nan``); nan if none is. Under the Perl conventions the five
            Perl statistics are never nan.
        **params : float
            ``alpha`` for the F-measures.

        Returns
        -------
        float

        References
        ----------
        Seed 002: "calculated for each category and then averaged" (macro-averaging).

        >>> t = Tally(["x", "y"])
        >>> t.add_results([[1, 0], [0, 0]], [[1, 0], [0, 1]])
        >>> t.macro("recall"), t.macro("precision"), t.macro("precision", undefined="omit")
        (0.5, nan, 1.0)
        """
        check_choice(undefined, _UNDEFINED, "undefined")
        values = self._values(name, self._counts, params).tolist()
        defined = [value for value in values if value == value]
        if not defined or (undefined == "propagate" and len(defined) < len(values)):
            return math.nan
        # fsum rounds the exact sum once, so the mean does not depend on category order
        return math.fsum(defined) / len(defined)

    def reason(self, name: str, category: str | None = None) -> str | None:
        """Why a measure is nan for one category (or, with no category, for the pooled
        table); None when it is defined. The registry names the margin that vanished.

        Parameters
        ----------
        name : str
            A registry name.
        category : str, optional
            A declared category; None for the pooled (micro) table.

        Returns
        -------
        str or None

        References
        ----------
        DESIGN.md, "Measures": undefined is nan, and the registry knows why.

        >>> t = Tally(["x", "y"])
        >>> t.add_result("x", "x")
        >>> t.reason("precision", "y"), t.reason("precision")
        ('no +P predictions', None)
        """
        measure, _ = self._measure(name, {})
        counts = self._pooled if category is None else self._counts[self._code(category)]
        value = float(self._values(name, counts, {}))
        if value == value:
            return None
        return undefined_reason(measure, counts)

    def _code(self, category: str) -> int:
        code = self._index.get(category) if isinstance(category, str) else None
        if code is None:
            msg = f"{category!r} is not one of the declared categories {preview(self._categories)}."
            raise InputError(msg)
        return code

    # ------------------------------------------------------------------ the seed's methods
    def micro_accuracy(self) -> float:
        """Micro-averaged accuracy: (a + d) / (a + b + c + d) of the pooled table (seed 002)."""
        return self.micro("accuracy")

    def micro_error(self) -> float:
        """Micro-averaged error: (b + c) / (a + b + c + d) of the pooled table (seed 002).

        With no `set_entries`, this is scikit-learn's ``hamming_loss``."""
        return self.micro("error")

    def micro_precision(self) -> float:
        """Micro-averaged precision: a / (a + b) of the pooled table (seed 002)."""
        return self.micro("precision")

    def micro_recall(self) -> float:
        """Micro-averaged recall: a / (a + c) of the pooled table (seed 002)."""
        return self.micro("recall")

    def micro_F1(self) -> float:  # noqa: N802  # the seed's name
        """Micro-averaged F1: 2a / (2a + b + c) of the pooled table (seed 002)."""
        return self.micro("f_measure")

    def macro_accuracy(self) -> float:
        """Macro-averaged accuracy: mean over categories of (a + d) / (a + b + c + d).

        Equal to micro accuracy unless `set_entries` was used (seed 002: "will always give
        the same number")."""
        return self.macro("accuracy")

    def macro_error(self) -> float:
        """Macro-averaged error: mean over categories of (b + c) / (a + b + c + d) (seed 002)."""
        return self.macro("error")

    def macro_precision(self) -> float:
        """Macro-averaged precision: mean over categories of a / (a + b) (seed 002)."""
        return self.macro("precision")

    def macro_recall(self) -> float:
        """Macro-averaged recall: mean over categories of a / (a + c) (seed 002)."""
        return self.macro("recall")

    def macro_F1(self) -> float:  # noqa: N802  # the seed's name
        """Macro-averaged F1: mean over categories of 2a / (2a + b + c) (seed 002)."""
        return self.macro("f_measure")

    def stats_table(self, figures: int = 3) -> str:
        """The seed's one-glance table of macro and micro recall, precision, F1 and error.

        Columns maR maP maF1 miR miP miF1 Err, each value with `figures` significant
        figures by the Perl module's ``_sig_figs`` rule (decimals = figures -
        int(log10 x)); see `informed.tally_conventions.format_stats_table`. Under the
        default conventions an undefined value prints as "nan".

        Parameters
        ----------
        figures : int
            Significant figures, at least 1; 3 by default, as in the seed.

        Returns
        -------
        str
            Four lines, each ending in a newline, as the Perl module returns it.

        References
        ----------
        Seed 002, ``$e->stats_table``; PITFALLS, "Reference vectors".
        """
        values = [
            self.macro_recall(),
            self.macro_precision(),
            self.macro_F1(),
            self.micro_recall(),
            self.micro_precision(),
            self.micro_F1(),
            self.micro_error(),
        ]
        return format_stats_table(values, figures)

    def category_stats(self) -> dict[str, dict[str, float | int]]:
        """Per category, its cells and the seed's five statistics, under the seed's names.

        {category: {"a", "b", "c", "d", "accuracy", "error", "precision", "recall", "F1"}},
        as the Perl module's ``category_stats`` hash (which also holds a, b, c, d).

        Returns
        -------
        dict
            Plain Python ints and floats, categories in the declared order.

        References
        ----------
        Seed 002, ``$e->category_stats``.

        >>> t = Tally(["sports"])
        >>> t.add_result("sports", "sports")
        >>> t.category_stats()["sports"]["recall"]
        1.0
        """
        statistics = {PERL_NAMES[name]: self.per_category(name) for name in PERL_NAMES}
        out: dict[str, dict[str, float | int]] = {}
        for k, category in enumerate(self._categories):
            (a, b), (c, d) = self._counts[k].tolist()
            entry: dict[str, float | int] = {"a": a, "b": b, "c": c, "d": d}
            for perl_name in ("accuracy", "error", "precision", "recall", "F1"):
                entry[perl_name] = statistics[perl_name][category]
            out[category] = entry
        return out

    def table(self, category: str) -> Table:
        """The 2x2 `Table` of one category: Table.binary(tp=a, fp=b, fn=c, tn=d).

        Rows are predicted (+, -), columns actual (+, -), as everywhere in `informed`.

        >>> t = Tally(["x"])
        >>> t.add_result("x", [])
        >>> t.table("x").one_vs_rest("+")
        OneVsRest(label='+', tp=0.0, fp=1.0, fn=0.0, tn=0.0)
        """
        (a, b), (c, d) = self._counts[self._code(category)].tolist()
        return Table.binary(tp=a, fp=b, fn=c, tn=d)

    def pooled_table(self) -> Table:
        """The pooled (micro) table as a 2x2 `Table` (rows predicted, columns actual)."""
        (a, b), (c, d) = self._pooled.tolist()
        return Table.binary(tp=a, fp=b, fn=c, tn=d)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict that `Tally.from_dict` restores exactly.

        Keys: kind, version, conventions, unknown, categories (list, declared order),
        documents, counts (per category [[a, b], [c, d]]), pooled, ignored ([category,
        documents] pairs, sorted). Categories are never object keys (RELIABILITY 4.2).
        """
        return {
            "kind": _JSON_KIND,
            "version": _JSON_VERSION,
            "conventions": self._conventions,
            "unknown": self._unknown,
            "categories": list(self._categories),
            "documents": self._documents,
            "counts": self._counts.tolist(),
            "pooled": self._pooled.tolist(),
            "ignored": [[category, count] for category, count in sorted(self._ignored.items())],
        }

    def to_json(self) -> str:
        """Serialise to JSON; `Tally.from_json` restores an equal Tally (same category order).

        >>> t = Tally(["x", "y"])
        >>> t.add_result("x", ["x", "y"])
        >>> Tally.from_json(t.to_json()) == t
        True
        """
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> Tally:
        """Restore a Tally from `to_dict` output, validating every field.

        Unknown or missing keys, another kind or version, non-integer or negative counts,
        counts beyond int64, and per-category tables that do not sum to `documents` are
        all InputErrors, so an edited or truncated state is refused rather than merged.
        """
        if not isinstance(data, dict):
            msg = f"a Tally JSON document must be an object; got {type(data).__name__}."
            raise InputTypeError(msg)
        if set(data) != _JSON_KEYS:
            msg = (
                f"a Tally JSON document has the keys {sorted(_JSON_KEYS)}; missing "
                f"{sorted(_JSON_KEYS - set(data))}, unknown {sorted(set(data) - _JSON_KEYS)}."
            )
            raise InputError(msg)
        if (
            data["kind"] != _JSON_KIND
            or data["version"] != _JSON_VERSION
            or isinstance(data["version"], bool)
        ):
            msg = (
                f"expected kind {_JSON_KIND!r} version {_JSON_VERSION}; got "
                f"{data['kind']!r} version {data['version']!r}."
            )
            raise InputError(msg)
        if not isinstance(data["categories"], list):
            msg = f"`categories` must be a list; got {type(data['categories']).__name__}."
            raise InputError(msg)
        tally = cls(data["categories"], unknown=data["unknown"], conventions=data["conventions"])
        documents = json_count(data["documents"], "documents")
        counts = json_counts(data["counts"], (len(tally._categories), 2, 2), "counts")
        pooled = json_counts(data["pooled"], (2, 2), "pooled")
        totals = counts.sum(axis=(1, 2), dtype=object) if counts.size else np.zeros(0, dtype=object)
        bad = [i for i, total in enumerate(totals.tolist()) if total != documents]
        if bad:
            msg = (
                f"the table of category {tally._categories[bad[0]]!r} sums to {totals[bad[0]]}, "
                f"but `documents` is {documents}; every document falls in one cell of every table."
            )
            raise InputError(msg)
        raw_ignored = data["ignored"]
        if not isinstance(raw_ignored, list) or any(
            not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str)
            for item in raw_ignored
        ):
            msg = "`ignored` must be a list of [category, documents] pairs."
            raise InputError(msg)
        ignored = {str(item[0]): json_count(item[1], "ignored") for item in raw_ignored}
        if len(ignored) != len(raw_ignored) or set(ignored) & set(tally._categories):
            msg = "`ignored` must name distinct categories that are not declared."
            raise InputError(msg)
        if any(count == 0 for count in ignored.values()):
            msg = "`ignored` counts must be positive."
            raise InputError(msg)
        tally._counts, tally._pooled, tally._documents, tally._ignored = (
            counts,
            pooled,
            documents,
            ignored,
        )
        return tally

    @classmethod
    def from_json(cls, text: str) -> Tally:
        """Parse `to_json` output; NaN and Infinity tokens are refused."""

        def refuse(token: str) -> float:
            msg = f"a Tally JSON document must not hold {token}."
            raise InputError(msg)

        try:
            data = json.loads(text, parse_constant=refuse)
        except json.JSONDecodeError as exc:
            msg = f"not a Tally JSON document: {exc}."
            raise InputError(msg) from None
        return cls.from_dict(data)
