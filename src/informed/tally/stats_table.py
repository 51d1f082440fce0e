"""The printed table of a Tally and its per-category statistics, as Statistics::Contingency
0.09 gives them: ``stats_table`` and ``category_stats``.

`stats_table` prints, in this order, macro recall, macro precision, macro F1, micro recall,
micro precision, micro F1 and micro error, each rounded by ``_sig_figs``: a number x != 0
gets ``figures - int(log(x) / log(10))`` decimals (natural logarithms, as in the Perl
source: log(0.1) / log(10) = -0.9999999999999998, so 0.1 prints as 0.100, not 0.1000).
`category_stats` is the module's per-category hash: the four cells and the five
statistics under the Perl names.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from informed.errors import InputError
from informed.tally.conventions import PERL_NAMES
from informed.tally.measures import macro, micro, per_category
from informed.tally.state import TallyState

__all__ = ["category_stats", "format_stats_table", "sig_figs", "stats_table"]


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
    Statistics::Contingency 0.09 (Williams): its documentation (stats_table: "the default
    is 3 significant digits") and its source, ``sub _sig_figs``.

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
    Statistics::Contingency 0.09 (Williams), ``$e->stats_table`` and its source,
    ``sub stats_table``. The example is the Perl module's output, byte for byte, for the
    five documents of the `Tally` example.

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


def stats_table(tally: TallyState, figures: int = 3) -> str:
    """The printed table of a Tally: its macro and micro recall, precision and F1, and its
    micro error, by `format_stats_table`."""
    values = [
        macro(tally, "recall"),
        macro(tally, "precision"),
        macro(tally, "f_measure"),
        micro(tally, "recall"),
        micro(tally, "precision"),
        micro(tally, "f_measure"),
        micro(tally, "error"),
    ]
    return format_stats_table(values, figures)


def category_stats(tally: TallyState) -> dict[str, dict[str, float | int]]:
    """{category: {"a", "b", "c", "d", "accuracy", "error", "precision", "recall", "F1"}}."""
    statistics = {PERL_NAMES[name]: per_category(tally, name) for name in PERL_NAMES}
    out: dict[str, dict[str, float | int]] = {}
    for k, category in enumerate(tally._categories):
        (a, b), (c, d) = tally._counts[k].tolist()
        entry: dict[str, float | int] = {"a": a, "b": b, "c": c, "d": d}
        for perl_name in ("accuracy", "error", "precision", "recall", "F1"):
            entry[perl_name] = statistics[perl_name][category]
        out[category] = entry
    return out
