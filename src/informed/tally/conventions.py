"""The conventions of the multi-label Tally: Statistics::Contingency 0.09's rules for
undefined values and its stats table, and the checks at the edges.

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
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError
from informed.measures.registry import cells

__all__ = [
    "CONVENTIONS",
    "PERL_NAMES",
    "PERL_STATISTICS",
    "STATISTICS_CONTINGENCY",
    "Conventions",
    "format_stats_table",
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


# ---------------------------------------------------------------------- validation helpers
def check_choice(value: Any, choices: tuple[str, ...], name: str) -> Any:
    """`value` if it is one of `choices`; an InputError otherwise (no prefix matching)."""
    if not isinstance(value, str) or value not in choices:
        msg = f"`{name}` must be one of {list(choices)}; got {value!r}."
        raise InputError(msg)
    return value


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
