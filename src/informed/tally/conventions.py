"""The conventions of a Tally for undefined values: Statistics::Contingency 0.09's rules.

Under ``conventions="statistics-contingency"`` a Tally reports accuracy, error, precision,
recall and F1 as the Perl module does. Its documentation is silent on empty tables; its
source (0.09, read and run) is the reference there. Its five statistics on one table of
counts (a = assigned and correct, b = assigned not correct, c = correct not assigned,
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

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from informed.measures import cells

__all__ = [
    "CONVENTIONS",
    "PERL_NAMES",
    "PERL_STATISTICS",
    "STATISTICS_CONTINGENCY",
    "Conventions",
    "perl_accuracy",
    "perl_error",
    "perl_f1",
    "perl_invert",
    "perl_precision",
    "perl_recall",
]

Floats = NDArray[np.float64]
Conventions = Literal["default", "statistics-contingency"]

STATISTICS_CONTINGENCY: Final = "statistics-contingency"
CONVENTIONS: Final = ("default", STATISTICS_CONTINGENCY)


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
    The Statistics::Contingency 0.09 source (Williams), ``sub _invert``.

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
    Statistics::Contingency 0.09 (Williams): its documentation ("precision: a/(a+b)") and
    its source, ``sub _precision``.

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
    Statistics::Contingency 0.09 (Williams): its documentation ("recall: a/(a+c)") and its
    source, ``sub _recall``.

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
    Statistics::Contingency 0.09 (Williams): its documentation ("F1: 2*p*r/(p+r) ...
    2a/(2a+b+c)") and its source, ``sub _F1``.

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
    Statistics::Contingency 0.09 (Williams): its documentation ("accuracy: (a+d)/(a+b+c+d)")
    and its source, ``sub _accuracy``.

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
    Statistics::Contingency 0.09 (Williams): its documentation ("error: (b+c)/(a+b+c+d)")
    and its source, ``sub _error``.

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
