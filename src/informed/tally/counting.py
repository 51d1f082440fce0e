"""How documents change a Tally's counts: one document, indicator matrices, the pooled
cells set directly, and two tallies merged.

Each function checks everything before it changes the state, so an error counts nothing.
The methods of `informed.tally.tally.Tally` (`add_result`, `add_results`, `set_entries`,
`merge`, ``==``) delegate here and document the rules.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeVar

import numpy as np
from numpy.typing import NDArray

from informed.coding.arguments import canonical_arguments
from informed.errors import InputError, InputTypeError
from informed.tally.conventions import STATISTICS_CONTINGENCY, Conventions
from informed.tally.indicators import indicator_sums
from informed.tally.names import category_names, check_categories, preview
from informed.tally.state import INT64_MAX, TallyState, Unknown, checked_add, checked_int

__all__ = [
    "Fields",
    "add_column_sums",
    "add_result",
    "add_results",
    "aligned",
    "document_codes",
    "entry_values",
    "equal",
    "fields",
    "from_fields",
    "merged",
    "pooled_over",
    "rebuilt",
    "set_entries",
]

Ints = NDArray[np.int64]
State = TypeVar("State", bound=TallyState)
Fields = tuple[tuple[str, ...], Ints, NDArray[Any], int, dict[str, int]]
"""A Tally's categories, per-category tables, pooled table, documents and ignored."""

_PENDING_LIMIT: Final = 1 << 16


def add_result(tally: TallyState, assigned: Any, correct: Any, name: str | int | None) -> None:
    """Add one document to `tally`: for every category, one cell of its table grows by one."""
    where = f"document {name!r}" if name is not None else f"document {tally._documents}"
    assigned_codes, assigned_unknown = document_codes(tally, assigned, "assigned", where)
    correct_codes, correct_unknown = document_codes(tally, correct, "correct", where)
    if tally._documents >= INT64_MAX:
        msg = f"{where}: the tally already holds {tally._documents} documents, the int64 limit."
        raise InputError(msg)
    if tally._pending_documents < tally._room:
        pending = tally._pending
        for k in assigned_codes:
            pending.append(4 * k if k in correct_codes else 4 * k + 1)
        pending.extend(4 * k + 2 for k in correct_codes - assigned_codes)
        tally._pending_documents += 1
        if len(pending) > _PENDING_LIMIT:  # bounded memory
            tally._flush()
    else:  # near the int64 limit of the pooled table: count now, exactly, or refuse
        both = assigned_codes & correct_codes
        only_assigned = assigned_codes - correct_codes
        only_correct = correct_codes - assigned_codes
        neither = len(tally._categories) - len(both) - len(only_assigned) - len(only_correct)
        cells = [[len(both), len(only_assigned)], [len(only_correct), neither]]
        pooled = checked_add(tally._pooled, np.array(cells, dtype=np.int64))
        counts = tally._counts.copy()
        counts[:, 1, 1] += 1
        for cell, codes in (((0, 0), both), ((0, 1), only_assigned), ((1, 0), only_correct)):
            for k in codes:
                counts[k][cell] += 1
                counts[k, 1, 1] -= 1
        tally._counts = counts
        tally._pooled = pooled
    tally._documents += 1
    for category in sorted(assigned_unknown | correct_unknown):
        tally._ignored[category] = tally._ignored.get(category, 0) + 1


def document_codes(
    tally: TallyState, given: Any, side: str, where: str
) -> tuple[set[int], set[str]]:
    """The codes of the known categories named by `given`, and the unknown names."""
    codes: set[int] = set()
    unknown: set[str] = set()
    for category in category_names(given, side, where):
        code = tally._index.get(category)
        if code is not None:
            codes.add(code)
        elif tally._unknown == "ignore":
            unknown.add(category)
        else:
            msg = (
                f"{where}: `{side}` names the category {category!r}, which is not one "
                f"of the {len(tally._categories)} declared categories "
                f"{preview(tally._categories)}; declare it in `categories=` or pass "
                'unknown="ignore" to skip and count it.'
            )
            raise InputError(msg)
    return codes, unknown


def add_results(
    tally: TallyState,
    assigned: Any,
    correct: Any,
    columns: Iterable[str] | None,
    aliases: Mapping[str, Any] | None = None,
) -> None:
    """Add the documents of two indicator matrices (rows documents, columns categories);
    `aliases` may name them by informed's words, predicted= and actual=."""
    assigned, correct = _indicators(assigned, correct, aliases or {})
    if columns is None:
        names = tally._categories
    else:
        names = check_categories(columns, name="columns", allow_empty=True)
    n, both_sum, assigned_sum, correct_sum = indicator_sums(assigned, correct)
    if len(both_sum) != len(names):
        msg = (
            f"the indicator matrices have {len(both_sum)} columns but there are {len(names)} "
            f"{'columns named' if columns is not None else 'declared categories'}; "
            "pass `columns=` to name the category of each column."
        )
        raise InputError(msg)
    add_column_sums(tally, names, n, both_sum, assigned_sum, correct_sum)


def add_column_sums(
    tally: TallyState,
    names: tuple[str, ...] | list[str],
    n: int,
    both_sum: Ints,
    assigned_sum: Ints,
    correct_sum: Ints,
) -> None:
    """Add `n` documents given by their sums per named column: how many documents name the
    category on both sides, as assigned, and as correct (each document once per side).
    Unknown names follow the tally's policy, as in `add_results`; everything is checked
    before anything changes."""
    m = len(names)
    unknown_columns = [j for j, cat in enumerate(names) if cat not in tally._index]
    if unknown_columns and tally._unknown == "error":
        cat = names[unknown_columns[0]]
        msg = (
            f"column {unknown_columns[0]} of the indicator matrices is the category "
            f"{cat!r}, which is not one of the {len(tally._categories)} declared "
            f'categories {preview(tally._categories)}; declare it or pass unknown="ignore".'
        )
        raise InputError(msg)
    skipped = set(unknown_columns)
    known = np.array([j for j in range(m) if j not in skipped], dtype=np.intp)
    codes = np.array([tally._index[names[j]] for j in known], dtype=np.intp)
    a = both_sum[known]
    b = assigned_sum[known] - a
    c = correct_sum[known] - a
    d = n - a - b - c
    increment = np.zeros_like(tally._counts)
    increment[:, 1, 1] = n
    increment[codes] = np.stack([np.stack([a, b], -1), np.stack([c, d], -1)], -2)
    pooled_increment = increment.sum(axis=0)
    counts = checked_add(tally._counts, increment)
    pooled = checked_add(tally._pooled, pooled_increment)
    documents = checked_int(tally._documents + n, "documents")
    # all checked: now change the state
    tally._counts, tally._pooled, tally._documents = counts, pooled, documents
    for j in unknown_columns:
        mentions = int(assigned_sum[j] + correct_sum[j] - both_sum[j])
        if mentions:
            tally._ignored[names[j]] = tally._ignored.get(names[j], 0) + mentions


def entry_values(conventions: str, a: Any, b: Any, c: Any, d: Any) -> NDArray[Any]:
    """The pooled table [[a, b], [c, d]] that `set_entries` sets, checked.

    Whole counts in [0, 2**63 - 1] (int64); under ``conventions="statistics-contingency"``
    also fractional numbers in that range, as the Perl module takes any number (float64
    then, unless every cell is whole).
    """
    fractional = conventions == STATISTICS_CONTINGENCY
    values: list[int | float] = []
    for label, value in zip("abcd", (a, b, c, d), strict=True):
        whole = isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)
        real = fractional and isinstance(value, float | np.floating)
        if not (whole or real):
            kind = "a number" if fractional else "a whole count"
            hint = (
                ""
                if fractional or not isinstance(value, float | np.floating)
                else '; conventions="statistics-contingency" takes fractional cells, as '
                "the Perl module does"
            )
            msg = f"`{label}` must be {kind}; got {value!r} ({type(value).__name__}){hint}."
            raise InputTypeError(msg)
        number = int(value) if whole else float(value)
        if not 0 <= number <= INT64_MAX:  # nan fails too
            msg = f"`{label}` must lie in [0, 2**63 - 1]; got {_shown(number)}."
            raise InputError(msg)
        # a whole float is the count it names: int64 stays the storage where it can
        values.append(number if whole or not float(number).is_integer() else int(number))
    if all(isinstance(v, int) for v in values):
        return np.array([values[:2], values[2:]], dtype=np.int64)
    return np.array([values[:2], values[2:]], dtype=np.float64)


def set_entries(tally: TallyState, a: Any, b: Any, c: Any, d: Any) -> None:
    """Replace the pooled table of `tally` by [[a, b], [c, d]] (see `entry_values`)."""
    tally._pooled = entry_values(tally._conventions, a, b, c, d)


def from_fields(
    cls: type[State],
    categories: Iterable[str],
    counts: Any,
    pooled: Any = None,
    ignored: Mapping[str, int] | None = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> State:
    """A new `cls` (a Tally) holding the given tables, every field checked.

    `counts` [k] = [[a, b], [c, d]] of category k: whole counts in int64, every table
    summing to the same number of documents. `pooled`: the pooled table, by default the
    sum of `counts` (a table that `set_entries` set: see `entry_values`). `ignored`:
    undeclared category -> documents that named it (positive).
    """
    tally = cls(categories, unknown=unknown, conventions=conventions)
    k = len(tally._categories)
    table = _whole_counts(counts, "counts")
    if table.shape != (k, 2, 2):
        msg = (
            f"`counts` must have the shape ({k}, 2, 2), one 2x2 table per category; "
            f"got {table.shape}."
        )
        raise InputError(msg)
    totals = table.sum(axis=(1, 2), dtype=object).tolist()
    if any(total != totals[0] for total in totals):
        j = next(i for i, total in enumerate(totals) if total != totals[0])
        msg = (
            f"the table of category {tally._categories[j]!r} sums to {totals[j]}, that of "
            f"{tally._categories[0]!r} to {totals[0]}; every document falls in one cell of "
            "every table, so all tables sum to the number of documents."
        )
        raise InputError(msg)
    documents = checked_int(int(totals[0]), "documents")
    if pooled is None:
        total = checked_add(np.zeros((2, 2), dtype=np.int64), table.sum(axis=0, dtype=object))
        pooled_table: NDArray[Any] = np.asarray(total, dtype=np.int64)
    else:
        shape = np.shape(pooled)
        if shape != (2, 2):
            msg = f"`pooled` must be a 2x2 table [[a, b], [c, d]]; got the shape {shape}."
            raise InputError(msg)
        cells = [pooled[0][0], pooled[0][1], pooled[1][0], pooled[1][1]]
        pooled_table = entry_values(tally._conventions, *cells)
    found: dict[str, int] = {}
    for category, count in (ignored or {}).items():
        if not isinstance(category, str) or category in tally._index or category in found:
            msg = (
                f"`ignored` must name distinct undeclared categories; got {category!r}, "
                "which is declared, repeated or not a str."
            )
            raise InputError(msg)
        if isinstance(count, bool) or not isinstance(count, int | np.integer) or count <= 0:
            msg = f"`ignored` counts documents, a positive int; got {count!r} for {category!r}."
            raise InputError(msg)
        if count > documents:
            msg = (
                f"`ignored` counts {count} documents naming {category!r}, but there are "
                f"{documents}: a document names a category once."
            )
            raise InputError(msg)
        found[category] = checked_int(int(count), "ignored")
    tally._counts, tally._pooled, tally._documents = table, pooled_table, documents
    tally._ignored = found
    return tally


def _whole_counts(value: Any, name: str) -> Ints:
    """`value` as an int64 array of whole counts in [0, 2**63 - 1]; an InputError otherwise."""
    try:
        array = np.asarray(value)
    except ValueError:
        msg = f"`{name}` must be a regular array of counts."
        raise InputError(msg) from None
    if array.dtype.kind == "O" or array.dtype.kind in "iu":
        flat = array.ravel().tolist()
        wrong = [x for x in flat if isinstance(x, bool) or not isinstance(x, int)]
        if wrong:
            msg = f"`{name}` must hold whole counts (int); found {wrong[0]!r}."
            raise InputError(msg)
        if any(not 0 <= x <= INT64_MAX for x in flat):
            bad = next(x for x in flat if not 0 <= x <= INT64_MAX)
            msg = f"`{name}` must hold counts in [0, 2**63 - 1]; got {_shown(bad)}."
            raise InputError(msg)
        return np.array(flat, dtype=np.int64).reshape(array.shape)
    msg = f"`{name}` must hold whole counts (int); got the dtype {array.dtype}."
    raise InputError(msg)


def fields(tally: TallyState) -> Fields:
    """Copies of the fields of `tally`: adding to a Tally built from them leaves it alone."""
    return (
        tally._categories,
        tally._counts.copy(),
        tally._pooled.copy(),
        tally._documents,
        dict(tally._ignored),
    )


def rebuilt(cls: type[State], like: TallyState, given: Fields) -> State:
    """A new `cls` (a Tally) with the policies of `like` and the `given` fields."""
    categories, counts, pooled, _, ignored = given
    return from_fields(cls, categories, counts, pooled, ignored, like._unknown, like._conventions)


def merged(left: TallyState, right: TallyState, union: bool) -> Fields:
    """The categories, counts, pooled table, documents and ignored of two tallies merged."""
    for attribute in ("conventions", "unknown"):
        if getattr(left, attribute) != getattr(right, attribute):
            msg = (
                f"cannot merge tallies with different `{attribute}`: "
                f"{getattr(left, attribute)!r} and {getattr(right, attribute)!r}."
            )
            raise InputError(msg)
    mine, theirs = set(left._categories), set(right._categories)
    if mine == theirs:
        categories = left._categories
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
        for side, names in ((left, theirs - mine), (right, mine - theirs)):
            lost = sorted(set(side._ignored) & names)
            if lost:
                msg = (
                    f"cannot merge over the union: one tally ignored {side._ignored[lost[0]]} "
                    f"document(s) naming {lost[0]!r}, which the union declares; their cells "
                    "for it are unknown. Rebuild that tally with the category declared."
                )
                raise InputError(msg)
    counts = checked_add(aligned(left, categories), aligned(right, categories))
    pooled = checked_add(pooled_over(left, categories), pooled_over(right, categories))
    documents = checked_int(left._documents + right._documents, "documents")
    ignored = dict(left._ignored)
    for category, count in right._ignored.items():
        ignored[category] = checked_int(ignored.get(category, 0) + count, "ignored")
    return categories, counts, pooled, documents, ignored


def aligned(tally: TallyState, categories: tuple[str, ...]) -> Ints:
    """The per-category tables over `categories` (a superset of the tally's): absent ones
    are all d."""
    out = np.zeros((len(categories), 2, 2), dtype=np.int64)
    out[:, 1, 1] = tally._documents
    for i, category in enumerate(categories):
        k = tally._index.get(category)
        if k is not None:
            out[i] = tally._counts[k]
    return out


def pooled_over(tally: TallyState, categories: tuple[str, ...]) -> NDArray[Any]:
    """The pooled table over `categories`: each category the tally lacks adds its
    documents to d."""
    extra = sum(1 for category in categories if category not in tally._index)
    pooled = tally._pooled.copy()
    pooled[1, 1] = checked_int(int(pooled[1, 1]) + extra * tally._documents, "pooled d")
    return pooled


def equal(left: TallyState, right: TallyState) -> bool:
    """Same conventions, policy, category set, and equal counts category by category."""
    return (
        left._conventions == right._conventions
        and left._unknown == right._unknown
        and set(left._categories) == set(right._categories)
        and bool(np.array_equal(left._counts, aligned(right, left._categories)))
        and bool(np.array_equal(left._pooled, right._pooled))
        and left._documents == right._documents
        and left._ignored == right._ignored
    )


def _indicators(assigned: Any, correct: Any, aliases: Mapping[str, Any]) -> tuple[Any, Any]:
    """(assigned, correct), given as such or as predicted= and actual= (y_pred=, y_true=);
    one name for each, both needed."""
    call = "Tally.add_results"
    named = canonical_arguments(call, aliases, ("actual", "predicted"), ("columns",))
    found = {"assigned": assigned, "correct": correct}
    for ours, perl in (("predicted", "assigned"), ("actual", "correct")):
        if ours in named:
            if found[perl] is not None:
                msg = f"{call}() got {perl}= and {ours}=, one matrix twice; give it once."
                raise InputTypeError(msg)
            found[perl] = named[ours]
    if found["assigned"] is None or found["correct"] is None:
        msg = (
            f"{call}() needs two indicator matrices: add_results(assigned, correct) in the "
            "Perl order (predicted first), or add_results(actual=..., predicted=...)."
        )
        raise InputTypeError(msg)
    return found["assigned"], found["correct"]


def _shown(number: float) -> str:
    """A count as a message shows it: 10**400 as "a number of 401 digits", not all of them."""
    digits = len(str(abs(number))) if isinstance(number, int) else 0
    return f"a number of {digits} digits" if digits > 20 else repr(number)
