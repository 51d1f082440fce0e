"""The conventions of the multi-label Tally: Statistics::Contingency 0.09's rules for
undefined values and its stats table, the seed's input forms, and the checks at the edges.

Seed 002 documents the module; where it is silent, the module's source (0.09, read and
run; PITFALLS P14) is the reference. Its five statistics on one table of counts
(a = assigned and correct, b = assigned not correct, c = correct not assigned,
d = neither) are, with ``_invert(x, y)`` = 1 if y = 0, else 0 if x = 0, else
1 / (1 + y / x)::

    precision = 0 if c > 0 and a = b = 0, else _invert(a, b)    a / (a + b)
    recall    = _invert(a, c)                                   a / (a + c)
    F1        = _invert(2a, b + c)                              2a / (2a + b + c)
    accuracy  = (a + d) / (a + b + c + d), 1 for an empty table
    error     = (b + c) / (a + b + c + d), 0 for an empty table

So precision(0, 0, 0, d) = 1, recall(a, b, 0, d) = 1 and F1(a, 0, 0, d) = 1 (a = 0
included), where the default conventions of `informed` say "undefined" (nan). The
arithmetic follows the Perl source operation by operation (1 / (1 + y / x), not x / (x + y)),
so the values agree with the module to the last bit.

`stats_table` prints, in this order, macro recall, macro precision, macro F1, micro recall,
micro precision, micro F1 and micro error, each rounded by ``_sig_figs``: a number x != 0
gets ``figures - int(log(x) / log(10))`` decimals (natural logarithms, as in the Perl
source: log(0.1) / log(10) = -0.9999999999999998, so 0.1 prints as 0.100, not 0.1000).

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module (seed 002).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Literal

import numpy as np
import scipy.sparse
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError
from informed.measures import cells

__all__ = [
    "CONVENTIONS",
    "PERL_NAMES",
    "PERL_STATISTICS",
    "STATISTICS_CONTINGENCY",
    "Conventions",
    "category_names",
    "column_sums",
    "format_stats_table",
    "indicator_sums",
    "perl_accuracy",
    "perl_error",
    "perl_f1",
    "perl_invert",
    "perl_precision",
    "perl_recall",
    "sig_figs",
]

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
Conventions = Literal["default", "statistics-contingency"]

STATISTICS_CONTINGENCY: Final = "statistics-contingency"
CONVENTIONS: Final = ("default", STATISTICS_CONTINGENCY)
INT64_MAX: Final = int(np.iinfo(np.int64).max)
# Column sums of a boolean matrix: rows are folded into blocks of about this many cells,
# so that numpy adds long contiguous vectors instead of one short row at a time.
_BLOCK_CELLS: Final = 4096
_UINT16_ROWS: Final = 65535
# Indicator matrices are read in blocks of rows of about this many cells (bounded memory).
_CHUNK_CELLS: Final = 1 << 22
# A sparse pair with fewer than one stored entry per this many cells is counted entry by
# entry; denser ones are expanded block by block, which is faster then.
_SPARSE_CELLS: Final = 16


def perl_invert(x: Any, y: Any) -> Floats:
    """Statistics::Contingency's ``_invert(x, y)``: x / (x + y) with its edge rules.

    _invert(x, y) = 1 if y = 0; else 0 if x = 0; else 1 / (1 + y / x).
    The order of the tests matters: _invert(0, 0) = 1.

    Parameters
    ----------
    x, y : array_like
        Non-negative numbers, broadcast together.

    Returns
    -------
    ndarray of float64

    References
    ----------
    Statistics::Contingency 0.09 source, ``sub _invert`` (seed 002; PITFALLS P14).

    >>> perl_invert([0, 0, 3, 1], [0, 5, 0, 3]).tolist()
    [1.0, 0.0, 1.0, 0.25]
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    safe_x = np.where(x == 0, 1.0, x)
    value = 1.0 / (1.0 + y / safe_x)
    return np.where(y == 0, 1.0, np.where(x == 0, 0.0, value))


def perl_precision(counts: Any) -> Floats:
    """Precision as Statistics::Contingency 0.09 computes it.

    precision = 0 if c > 0 and a = b = 0, else _invert(a, b) (= a / (a + b) when a + b > 0).
    Hence precision(0, 0, 0, d) = 1 (nothing assigned, nothing missed) but
    precision(0, 0, c > 0, d) = 0 (changed in 0.04; earlier versions gave 1).

    Parameters
    ----------
    counts : array_like of shape (..., 2, 2)
        [[a, b], [c, d]]: rows assigned yes/no, columns correct yes/no.

    Returns
    -------
    ndarray of float64 with the leading shape of `counts`.

    References
    ----------
    Seed 002 ("precision: a/(a+b)"); the 0.09 source, ``sub _precision``; PITFALLS P14.

    >>> perl_precision([[[0, 0], [0, 10]], [[0, 0], [5, 10]], [[3, 1], [0, 0]]]).tolist()
    [1.0, 0.0, 0.75]
    """
    a, b, c, _ = cells(counts)
    return np.where((c != 0) & (a == 0) & (b == 0), 0.0, perl_invert(a, b))


def perl_recall(counts: Any) -> Floats:
    """Recall as Statistics::Contingency 0.09 computes it.

    recall = _invert(a, c) (= a / (a + c) when a + c > 0); recall(a, b, 0, d) = 1, so a
    category that is never correct has recall 1.

    Parameters
    ----------
    counts : array_like of shape (..., 2, 2)
        [[a, b], [c, d]].

    Returns
    -------
    ndarray of float64

    References
    ----------
    Seed 002 ("recall: a/(a+c)"); the 0.09 source, ``sub _recall``; PITFALLS P14.

    >>> perl_recall([[[0, 4], [0, 1]], [[2, 0], [1, 2]]]).tolist()
    [1.0, 0.6666666666666666]
    """
    a, _, c, _ = cells(counts)
    return perl_invert(a, c)


def perl_f1(counts: Any) -> Floats:
    """F1 as Statistics::Contingency 0.09 computes it.

    F1 = _invert(2a, b + c) (= 2a / (2a + b + c) when 2a + b + c > 0); F1(a, 0, 0, d) = 1,
    a = 0 included.

    Parameters
    ----------
    counts : array_like of shape (..., 2, 2)
        [[a, b], [c, d]].

    Returns
    -------
    ndarray of float64

    References
    ----------
    Seed 002 ("F1: 2*p*r/(p+r) ... 2a/(2a+b+c)"); the 0.09 source, ``sub _F1``.

    >>> perl_f1([[[0, 0], [0, 10]], [[0, 4], [0, 1]], [[2, 0], [1, 2]]]).tolist()
    [1.0, 0.0, 0.8]
    """
    a, b, c, _ = cells(counts)
    return perl_invert(2.0 * a, b + c)


def perl_accuracy(counts: Any) -> Floats:
    """Accuracy as Statistics::Contingency 0.09 computes it.

    accuracy = (a + d) / (a + b + c + d); 1 for an empty table.

    Parameters
    ----------
    counts : array_like of shape (..., 2, 2)
        [[a, b], [c, d]].

    Returns
    -------
    ndarray of float64

    References
    ----------
    Seed 002 ("accuracy: (a+d)/(a+b+c+d)"); the 0.09 source, ``sub _accuracy``.

    >>> perl_accuracy([[[0, 0], [0, 0]], [[0, 0], [5, 10]]]).tolist()
    [1.0, 0.6666666666666666]
    """
    a, b, c, d = cells(counts)
    total = a + b + c + d
    return np.where(total == 0, 1.0, (a + d) / np.where(total == 0, 1.0, total))


def perl_error(counts: Any) -> Floats:
    """Error as Statistics::Contingency 0.09 computes it.

    error = (b + c) / (a + b + c + d); 0 for an empty table.

    Parameters
    ----------
    counts : array_like of shape (..., 2, 2)
        [[a, b], [c, d]].

    Returns
    -------
    ndarray of float64

    References
    ----------
    Seed 002 ("error: (b+c)/(a+b+c+d)"); the 0.09 source, ``sub _error``.

    >>> perl_error([[[0, 0], [0, 0]], [[0, 0], [5, 10]]]).tolist()
    [0.0, 0.3333333333333333]
    """
    a, b, c, d = cells(counts)
    total = a + b + c + d
    return np.where(total == 0, 0.0, (b + c) / np.where(total == 0, 1.0, total))


PERL_STATISTICS: Final[dict[str, Callable[[Any], Floats]]] = {
    "accuracy": perl_accuracy,
    "error": perl_error,
    "precision": perl_precision,
    "recall": perl_recall,
    "f_measure": perl_f1,
}
"""Registry name -> the Perl 0.09 function; the other registry measures have no Perl twin."""

PERL_NAMES: Final[dict[str, str]] = {
    "accuracy": "accuracy",
    "error": "error",
    "precision": "precision",
    "recall": "recall",
    "f_measure": "F1",
}
"""Registry name -> the name Statistics::Contingency gives the statistic."""


def sig_figs(number: float, figures: int) -> str:
    """Format `number` as Statistics::Contingency's ``_sig_figs`` does.

    decimals = figures - int(log(number) / log(10)) for number != 0, else figures; then
    ``sprintf("%.{decimals}f", number)``. `int` truncates toward zero and the logarithms
    are natural, as in Perl, so 0.1 -> "0.100" and 0.01 -> "0.0100" with 3 figures.
    nan (an undefined value under the default conventions) prints as "nan".

    Parameters
    ----------
    number : float
        A statistic in [0, 1], or nan.
    figures : int
        The number of significant figures, at least 1.

    Returns
    -------
    str

    References
    ----------
    Seed 002 (stats_table: "the default is 3 significant digits"); the 0.09 source,
    ``sub _sig_figs``.

    >>> [sig_figs(x, 3) for x in (0.5555555555555555, 0.1, 0.01, 1.0, 0.0)]
    ['0.556', '0.100', '0.0100', '1.000', '0.000']
    """
    if math.isnan(number):
        return "nan"
    after_point = figures - (int(math.log(number) / math.log(10)) if number != 0 else 0)
    return f"{number:.{after_point}f}"


def format_stats_table(values: Sequence[float], figures: int = 3) -> str:
    """The one-glance table of Statistics::Contingency's ``stats_table``, byte for byte.

    Columns, in this order: maR maP maF1 (macro recall, precision, F1), miR miP miF1
    (micro recall, precision, F1) and Err (micro error; accuracy = 1 - error is left out).
    Every value is formatted by `sig_figs`; the column width m is the longest formatted
    value, the header pads with m - 4 spaces (none when m < 4, as Perl's ``x`` does),
    and the rule is 10 + 7 m dashes wide.

    Parameters
    ----------
    values : sequence of 7 floats
        maR, maP, maF1, miR, miP, miF1, Err.
    figures : int
        Significant figures, at least 1 (Perl turns 0 into 3; here 0 is an error).

    Returns
    -------
    str
        Four lines, each ending in a newline.

    References
    ----------
    Seed 002, ``$e->stats_table``; the 0.09 source, ``sub stats_table``; PITFALLS,
    "Reference vectors".

    >>> print(format_stats_table([5 / 9, 2 / 3, 0.6, 0.5, 0.75, 0.6, 4 / 15]), end="")
    +---------------------------------------------+
    |   maR   maP  maF1    miR   miP  miF1    Err |
    | 0.556 0.667 0.600  0.500 0.750 0.600  0.267 |
    +---------------------------------------------+
    """
    if isinstance(figures, bool) or not isinstance(figures, int | np.integer) or figures < 1:
        msg = (
            f"`figures` must be a whole number of significant figures, at least 1; got {figures!r}."
        )
        raise InputError(msg)
    if len(values) != 7:
        msg = (
            f"`values` must hold the 7 statistics maR maP maF1 miR miP miF1 Err; got {len(values)}."
        )
        raise InputError(msg)
    data = [sig_figs(float(v), int(figures)) for v in values]
    m = max(len(d) for d in data)
    s = " " * (m - 4)
    rule = "+" + "-" * (10 + 7 * m) + "+\n"
    head = f"| {s} maR {s} maP{s} maF1  {s} miR {s} miP{s} miF1  {s} Err |\n"
    r = [d.rjust(m) for d in data]
    body = f"| {r[0]} {r[1]} {r[2]}  {r[3]} {r[4]} {r[5]}  {r[6]} |\n"
    return rule + head + body + rule


# ---------------------------------------------------------------------- the seed's input forms
def category_names(given: Any, side: str, where: str) -> list[str]:
    """The category names of one side of a document, in any form seed 002 allows.

    A list, tuple or set of names; a dict (Perl's hash) whose keys with true values are the
    names (Python truthiness: keys with false values are not mentions); a single str for
    one category; or a one-dimensional numpy array of str. Repeats are kept here; the
    caller treats the result as a set, as the Perl module's hash does.

    Parameters
    ----------
    given : list, tuple, set, dict, str or ndarray
    side : str
        "assigned" or "correct", for messages.
    where : str
        The document ("document 'doc-7'", "line 3"), for messages.

    Returns
    -------
    list of str

    References
    ----------
    Seed 002, ``add_result``: "an array of category names (strings), ... a hash whose
    keys are the category names and whose values are anything logically true, or ... a
    single string if there is only one category".

    >>> category_names({"a": True, "b": 0}, "assigned", "document 0")
    ['a']
    """
    names: list[Any]
    if isinstance(given, str):
        names = [given]
    elif isinstance(given, Mapping):
        names = [key for key, value in given.items() if value]
    elif isinstance(given, list | tuple | set | frozenset):
        names = list(given)
    elif isinstance(given, np.ndarray) and given.ndim == 1 and given.dtype.kind in "UO":
        names = given.tolist()
    else:
        msg = (
            f"{where}: `{side}` must be a list, tuple, set, dict or single str of "
            f"category names; got {type(given).__name__}."
        )
        raise InputTypeError(msg)
    for category in names:
        if not isinstance(category, str):
            msg = (
                f"{where}: `{side}` holds {category!r} of type {type(category).__name__}; "
                "category names are str."
            )
            raise InputTypeError(msg)
    return [str(category) for category in names]


def indicator_sums(assigned: Any, correct: Any) -> tuple[int, Ints, Ints, Ints]:
    """Column sums of two 0/1 indicator matrices: (n, sum A*C, sum A, sum C) per column.

    With A = `assigned`, C = `correct`, both (n, m): a_j = sum_i A_ij C_ij,
    |+P|_j = sum_i A_ij, |+R|_j = sum_i C_ij, from which b = |+P| - a, c = |+R| - a and
    d = n - a - b - c. No loop over documents: dense input is read in blocks of rows and
    summed by `column_sums`; sparse input is expanded block by block the same way when it
    holds at least one stored entry per `_SPARSE_CELLS` cells, otherwise its stored
    entries are counted per column (the cost then grows with the entries, not n x m).

    Parameters
    ----------
    assigned, correct : array_like or scipy.sparse, shape (n, m)
        Entries 0 and 1 only (bool, integer or float dtype); dense and sparse may be mixed.
        Sparse duplicates are summed first, as scipy does (two 1s make a 2: refused).

    Returns
    -------
    (int, ndarray, ndarray, ndarray)
        n and three int64 vectors of length m.

    Raises
    ------
    InputError
        Different shapes, or an entry other than 0 and 1 (named by row and column).
    InputTypeError
        Not a two-dimensional numeric or boolean matrix.

    References
    ----------
    Seed 002 (the per-document rule of ``add_result``, summed).

    >>> n, both, pp, pr = indicator_sums([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    >>> n, both.tolist(), pp.tolist(), pr.tolist()
    (2, [1, 1], [2, 1], [1, 2])
    """
    left = as_indicator(assigned, "assigned")
    right = as_indicator(correct, "correct")
    if left.shape != right.shape:
        msg = (
            f"`assigned` has shape {left.shape} but `correct` has shape {right.shape}; "
            "both are (documents, categories)."
        )
        raise InputError(msg)
    n, m = (int(x) for x in left.shape)
    if scipy.sparse.issparse(left) and scipy.sparse.issparse(right):
        stored = int(left.nnz) + int(right.nnz)
        if n * m > _SPARSE_CELLS * stored:
            left = canonical_indicator(left, "assigned")
            right = canonical_indicator(right, "correct")
            return (
                n,
                stored_per_column(left.multiply(right), m),
                stored_per_column(left, m),
                stored_per_column(right, m),
            )
    both, predicted, actual = (np.zeros(m, dtype=np.int64) for _ in range(3))
    step = max(1, _CHUNK_CELLS // max(m, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        block_a = dense_rows(left, start, stop, "assigned")
        block_c = dense_rows(right, start, stop, "correct")
        both += column_sums(block_a & block_c)
        predicted += column_sums(block_a)
        actual += column_sums(block_c)
    return n, both, predicted, actual


# ---------------------------------------------------------------------- validation helpers
def preview(names: Iterable[str], limit: int = 8) -> str:
    """The first `limit` names as a list literal, for error messages."""
    names = list(names)
    shown = repr(names[:limit])
    return shown if len(names) <= limit else shown[:-1] + f", ... ({len(names)} in all)]"


def check_choice(value: Any, choices: tuple[str, ...], name: str) -> Any:
    """`value` if it is one of `choices`; an InputError otherwise (no prefix matching)."""
    if not isinstance(value, str) or value not in choices:
        msg = f"`{name}` must be one of {list(choices)}; got {value!r}."
        raise InputError(msg)
    return value


def check_categories(
    given: Any, *, name: str = "categories", allow_empty: bool = False
) -> tuple[str, ...]:
    """Validate a list of category names: each a str, distinct; a set is sorted."""
    if isinstance(given, str | bytes):
        msg = f"`{name}` must be a list of category names, not a bare {type(given).__name__}."
        raise InputTypeError(msg)
    if isinstance(given, set | frozenset):
        given = sorted(given, key=lambda x: (not isinstance(x, str), str(x)))
    try:
        out = tuple(given)
    except TypeError:
        msg = f"`{name}` must be a list of category names; got {type(given).__name__}."
        raise InputTypeError(msg) from None
    for category in out:
        if not isinstance(category, str):
            msg = f"`{name}` holds {category!r} ({type(category).__name__}); names are str."
            raise InputTypeError(msg)
    out = tuple(str(category) for category in out)  # np.str_ -> str
    if len(set(out)) != len(out):
        seen: set[str] = set()
        repeated = next(c for c in out if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        msg = f"`{name}` must hold distinct names; {repeated!r} appears twice."
        raise InputError(msg)
    if not out and not allow_empty:
        msg = f"`{name}` is empty; a Tally needs at least one category."
        raise InputError(msg)
    return out


def checked_int(value: int, name: str) -> int:
    """`value` if it fits in int64; an InputError otherwise."""
    if value > INT64_MAX:
        msg = f"`{name}` would reach {value}, beyond the int64 limit of the counts."
        raise InputError(msg)
    return value


def checked_add(left: Ints, right: Ints) -> Ints:
    """left + right for non-negative int64 arrays, refusing to wrap around."""
    if (right > INT64_MAX - left).any():
        msg = (
            "a count would pass the int64 limit (2**63 - 1); split the data into separate tallies."
        )
        raise InputError(msg)
    return left + right


def json_count(value: Any, name: str) -> int:
    """A JSON count: an int (not a bool) in [0, 2**63 - 1]."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT64_MAX:
        msg = f"`{name}` must be a whole count in [0, 2**63 - 1]; got {value!r}."
        raise InputError(msg)
    return value


def json_counts(value: Any, shape: tuple[int, ...], name: str) -> Ints:
    """Nested JSON lists of counts of exactly `shape`, as an int64 array."""

    def check(item: Any, depth: int) -> Any:
        if depth == len(shape):
            return json_count(item, name)
        if not isinstance(item, list) or len(item) != shape[depth]:
            msg = f"`{name}` must be nested lists of shape {shape}."
            raise InputError(msg)
        return [check(x, depth + 1) for x in item]

    return np.array(check(value, 0), dtype=np.int64).reshape(shape)


def as_indicator(given: Any, name: str) -> Any:
    """A two-dimensional numeric or boolean ndarray, or a CSR array; values unchecked."""
    if scipy.sparse.issparse(given):
        if len(given.shape) != 2:
            msg = f"`{name}` must be two-dimensional; got shape {given.shape}."
            raise InputError(msg)
        if given.dtype.kind not in "biuf":
            msg = f"`{name}` has dtype {given.dtype}; indicator matrices are boolean or numeric."
            raise InputTypeError(msg)
        return scipy.sparse.csr_array(given)  # shares the caller's arrays; never written to
    if isinstance(given, str | bytes | Mapping | set | frozenset):
        msg = (
            f"`{name}` must be an indicator matrix (documents x categories); "
            f"got {type(given).__name__}."
        )
        raise InputTypeError(msg)
    try:
        array = np.asarray(given)
    except ValueError:
        msg = (
            f"`{name}` is ragged; add_results takes 0/1 indicator matrices. For lists of "
            "category names, call add_result once per document."
        )
        raise InputTypeError(msg) from None
    if array.dtype.kind not in "biuf":
        msg = (
            f"`{name}` has dtype {array.dtype}; add_results takes 0/1 indicator matrices. "
            "For lists of category names, call add_result once per document."
        )
        raise InputTypeError(msg)
    if array.ndim != 2:
        msg = f"`{name}` must be two-dimensional (documents x categories); got shape {array.shape}."
        raise InputError(msg)
    return array


def dense_rows(matrix: Any, start: int, stop: int, name: str) -> NDArray[np.bool_]:
    """Rows start:stop of an indicator matrix as a C-contiguous bool array, values checked."""
    sparse = scipy.sparse.issparse(matrix)
    if sparse:
        # rows of a CSR matrix as views (scipy's row slicing copies through a slow path)
        lo, hi = int(matrix.indptr[start]), int(matrix.indptr[stop])
        rows = scipy.sparse.csr_array(
            (matrix.data[lo:hi], matrix.indices[lo:hi], matrix.indptr[start : stop + 1] - lo),
            shape=(stop - start, matrix.shape[1]),
        )
        block = rows.toarray()
    else:
        block = matrix[start:stop]
    kind = block.dtype.kind
    if kind == "b":
        return np.ascontiguousarray(block)
    if kind == "f":
        bad = ~((block == 0) | (block == 1))
    elif block.size and (block.min() < 0 or block.max() > 1):
        bad = (block < 0) | (block > 1)
    else:
        bad = None
    if bad is not None and bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        value = block[row, col].item()
        note = " (sparse duplicates are summed)" if sparse else ""
        msg = (
            f"`{name}`[{start + row}, {col}] is {value!r}{note}; indicator matrices hold only "
            "0 and 1 (or False and True)."
        )
        raise InputError(msg)
    return np.ascontiguousarray(block != 0)


def canonical_indicator(matrix: Any, name: str) -> Any:
    """A CSR indicator with sorted, distinct entries, all stored values 1 (int8); checked.

    Duplicates are summed first (on a copy: the caller's arrays are never written to).
    """
    if not matrix.has_canonical_format:
        matrix = matrix.copy()
        matrix.sum_duplicates()
    data = matrix.data
    bad = ~((data == 0) | (data == 1))
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        row = int(np.searchsorted(matrix.indptr, position, side="right") - 1)
        msg = (
            f"`{name}`[{row}, {int(matrix.indices[position])}] is {data[position].item()!r} "
            "(sparse duplicates are summed); indicator matrices hold only 0 and 1."
        )
        raise InputError(msg)
    keep = data != 0
    if keep.all():
        indices, indptr = matrix.indices, matrix.indptr
    else:  # drop stored zeros; a row's new start is the number of entries kept before it
        indices = matrix.indices[keep]
        indptr = np.concatenate([[0], np.cumsum(keep)])[matrix.indptr]
    return scipy.sparse.csr_array(
        (np.ones(indices.size, dtype=np.int8), indices, indptr), shape=matrix.shape
    )


def stored_per_column(matrix: Any, m: int) -> Ints:
    """The number of non-zero stored entries in each column of a CSR matrix."""
    csr = scipy.sparse.csr_array(matrix)
    return np.bincount(csr.indices[csr.data != 0], minlength=m).astype(np.int64)


def column_sums(matrix: NDArray[np.bool_]) -> Ints:
    """Column sums of a C-contiguous boolean matrix, exactly, as int64.

    Rows are folded into blocks of about `_BLOCK_CELLS` cells and summed with uint16
    accumulators (exact: at most 65535 rows per chunk), so each numpy step adds long
    contiguous vectors; summing a narrow (n, 20) matrix row by row is about 8x slower.
    """
    n, m = matrix.shape
    total = np.zeros(m, dtype=np.int64)
    if n == 0 or m == 0:
        return total
    cells = matrix.view(np.uint8)
    block = max(1, _BLOCK_CELLS // m)
    full = (n // block) * block
    chunk = block * _UINT16_ROWS
    for start in range(0, full, chunk):
        stop = min(start + chunk, full)
        folded = cells[start:stop].reshape(-1, block * m).sum(axis=0, dtype=np.uint16)
        total += folded.reshape(block, m).sum(axis=0, dtype=np.int64)
    total += cells[full:].sum(axis=0, dtype=np.int64)
    return total
