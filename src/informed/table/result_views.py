"""How the results of a Table's functions show themselves: a readable repr and a notebook's
HTML view of a Payoff (the Bookmaker's fair-odds matrix), its Stakes, a Matching of
clusters to classes and an Abstention.

Functions of plain values built from the escaped pieces of `informed._markup`, so that the
result classes call them without an import cycle; at most `SHOWN` labels a side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._markup import (
    count_cell,
    fragment,
    header_cell,
    html_table,
    number,
    text_cell,
    value_cell,
)
from informed.coding.labels import Label
from informed.table.display import SHOWN, some_labels

__all__ = [
    "abstention_html",
    "abstention_repr",
    "matching_html",
    "matching_repr",
    "payoff_html",
    "payoff_repr",
    "stakes_html",
]


def _hidden(total: int, shown: int, what: str = "labels") -> str | None:
    return f"{total - shown:,} more {what} not shown" if total > shown else None


def payoff_repr(labels: Sequence[Label], weighted: NDArray[np.float64]) -> str:
    """One line: the labels and the overall informedness the weighted rows add up to.

    >>> payoff_repr(["a", "b"], np.array([0.25, 0.125]))
    "Payoff(labels=['a', 'b'], informedness 0.3750 = sum of pP(l) B(l))"
    """
    total = float(np.sum(weighted)) if len(weighted) else math.nan
    return f"Payoff(labels={some_labels(labels)}, informedness {number(total)} = sum of pP(l) B(l))"


def payoff_html(
    labels: Sequence[Label],
    rows: NDArray[np.float64],
    won: NDArray[np.float64],
    weighted: NDArray[np.float64],
    odds: NDArray[np.float64],
) -> str:
    """The payoff per unit stake of the first labels' cells (rows predicted), each row's
    winnings B(l), its weighted share pP(l) B(l), and the fair odds against each label."""
    shown = list(labels[:SHOWN])
    body = [
        [header_cell(label, row=True)]
        + [value_cell(float(rows[i, j])) for j in range(len(shown))]
        + [value_cell(float(won[i])), value_cell(float(weighted[i])), value_cell(float(odds[i]))]
        for i, label in enumerate(shown)
    ]
    grid = html_table(
        ["predicted \\ actual", *(str(c) for c in shown), "won B(l)", "pP(l) B(l)", "odds"],
        body,
        styled=True,
    )
    total = float(np.sum(weighted)) if len(weighted) else math.nan
    title = f"Payoff per unit stake: informedness {number(total)} = sum of pP(l) B(l)"
    return fragment(title, [grid], note=_hidden(len(labels), len(shown)))


def stakes_html(
    labels: Sequence[Label],
    odds: Mapping[Label, str],
    stake: NDArray[np.float64],
    prize: NDArray[np.float64],
    money: NDArray[np.float64],
    totals: tuple[float, float, float],
) -> str:
    """Each label's odds, stake and prize, and the money its bets won and lost."""
    shown = list(labels[:SHOWN])
    body = [
        [
            header_cell(label, row=True),
            text_cell(odds[label]),
            value_cell(float(stake[i])),
            value_cell(float(prize[i])),
            value_cell(float(money[i][money[i] > 0].sum())),
            value_cell(abs(float(money[i][money[i] < 0].sum()))),  # a loss, never -0
        ]
        for i, label in enumerate(shown)
    ]
    grid = html_table(["bets on", "odds", "stake", "prize", "won", "lost"], body, styled=True)
    won, lost, net = totals
    title = f"Stakes: won {won:g}, lost {lost:g}, net {net:g}"
    return fragment(title, [grid], note=_hidden(len(labels), len(shown)))


def matching_repr(
    mapping: Mapping[Label, Label], unmatched: Sequence[Label], objective: str, score: float
) -> str:
    """One line: the objective and its value, the first pairs, how many are unmatched.

    >>> matching_repr({0: "a", 1: "b"}, (2,), "informedness", 0.5)
    "Matching(by informedness, score 0.5000: 0 -> 'a', 1 -> 'b'; 1 unmatched: [2])"
    """
    pairs = [f"{k!r} -> {v!r}" for k, v in list(mapping.items())[:SHOWN]]
    if len(mapping) > SHOWN:
        pairs.append(f"... {len(mapping) - SHOWN:,} more")
    alone = f"; {len(unmatched)} unmatched: {some_labels(unmatched)}" if unmatched else ""
    return f"Matching(by {objective}, score {number(score)}: {', '.join(pairs)}{alone})"


def matching_html(
    mapping: Mapping[Label, Label], unmatched: Sequence[Label], objective: str, score: float
) -> str:
    """Each predicted label and the class it was matched to; the unmatched ones."""
    pairs = list(mapping.items())[:SHOWN]
    body = [[header_cell(k, row=True), text_cell(v)] for k, v in pairs]
    body += [[header_cell(k, row=True), text_cell("unmatched")] for k in unmatched[:SHOWN]]
    grid = html_table(["predicted label", "class"], body, styled=True)
    title = f"Matching by {objective}: score {number(score)}"
    hidden = len(mapping) - len(pairs) + len(unmatched) - len(unmatched[:SHOWN])
    return fragment(title, [grid], note=f"{hidden:,} more labels not shown" if hidden else None)


def abstention_repr(
    ignored: Sequence[Label], n: float, total: float, discounted: Mapping[str, float], zero: float
) -> str:
    """One line: what was set aside, the coverage, the discounted values.

    >>> abstention_repr(["?"], 80, 100, {"recall": 0.5}, 0.3)[:68]
    "Abstention(ignored ['?']: 80 of 100 cases kept (coverage 0.8000); di"
    """
    values = ", ".join(f"{name} {number(value)}" for name, value in discounted.items())
    coverage = n / total if total else math.nan
    return (
        f"Abstention(ignored {some_labels(ignored)}: {n:g} of {total:g} cases kept "
        f"(coverage {number(coverage)}); discounted {values}; "
        f"zero-weight informedness {number(zero)})"
    )


def abstention_html(
    ignored: Sequence[Label],
    n: float,
    total: float,
    discounted: Mapping[str, float],
    zero: float,
    conditional: Any,
) -> str:
    """The coverage, the discounted values, then the evaluation of the cases kept."""
    rows = [
        [header_cell("cases kept", row=True), count_cell(n)],
        [header_cell("all cases", row=True), count_cell(total)],
        [header_cell("coverage n / N", row=True), value_cell(n / total if total else math.nan)],
    ]
    rows += [
        [header_cell(f"discounted {name}", row=True), value_cell(value)]
        for name, value in discounted.items()
    ]
    rows.append([header_cell("zero-weight informedness", row=True), value_cell(zero)])
    grid = html_table(["", "value"], rows, styled=True)
    title = f"Abstention: ignored {some_labels(ignored)}"
    return fragment(title, [grid, conditional._repr_html_()])
