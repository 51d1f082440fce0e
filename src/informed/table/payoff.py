"""The fair-odds Bookmaker payoff matrix (Powers 2003; Powers, the Bookmaker poster).

A punter bets on the label the system predicts, at fair odds set from the class
prevalences. Per unit stake, the payoff of a case predicted `l` whose real class is `c`
is w(c|l) = +1 / pR(l) when c = l and -1 / (1 - pR(l)) otherwise; the payoff matrix holds
pPR(l, c) w(c|l) (the poster's "General Bookmaker"), so that

* a row sums to the informedness of its label, B(l) = tpr(l) - fpr(l) ("won"),
* the bias-weighted row sums pP(l) B(l) ("weighted") add up to the overall informedness,
* pure guessing wins nothing, perfect prediction wins 1 per row.

Figure 1 of Powers (2003) prints this matrix on a scale of $10: `payoff(table).scaled(10)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float
from informed.labels import Label
from informed.measures import ratio
from informed.table.table import Table

__all__ = ["Payoff", "payoff"]


@dataclass(frozen=True)
class Payoff:
    """The payoff matrix of a table and its row and column summaries.

    Attributes
    ----------
    labels : tuple
        The labels of both axes (rows predicted, columns actual).
    matrix : ndarray (L, L)
        Payoff per unit stake of each cell: n(l, c) / |R = l| on the diagonal,
        -n(l, c) / (N - |R = l|) off it.
    won : ndarray (L,)
        Row sums: the informedness B(l) of each predicted label.
    weighted : ndarray (L,)
        pP(l) x B(l); their sum is the overall (bias-weighted) informedness.
    column_sums : ndarray (L,)
        Column sums of `matrix`.
    odds : ndarray (L,)
        Fair odds against each label, (1 - pR(l)) / pR(l): 7:3 is 7/3 for pR = 30 %.

    Notes
    -----
    A label that is never (or always) the real class has no fair odds; its `won` is nan,
    as its informedness is.
    """

    labels: tuple[Label, ...]
    matrix: NDArray[np.float64]
    won: NDArray[np.float64]
    weighted: NDArray[np.float64]
    column_sums: NDArray[np.float64]
    odds: NDArray[np.float64]

    @property
    def informedness(self) -> float:
        """The total bias-weighted win: the Bookmaker informedness of the table."""
        return float(np.sum(self.weighted)) if not np.isnan(self.weighted).any() else float("nan")

    def scaled(self, stake: float) -> Payoff:
        """The same bets at another stake (Powers' spreadsheet uses $10)."""
        return Payoff(
            labels=self.labels,
            matrix=self.matrix * stake,
            won=self.won * stake,
            weighted=self.weighted * stake,
            column_sums=self.column_sums * stake,
            odds=self.odds,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (nan as None)."""

        def clean(values: NDArray[np.float64]) -> Any:
            return [json_float(v) for v in np.ravel(values)]

        width = len(self.labels)
        flat = clean(self.matrix)
        return {
            "labels": list(self.labels),
            "matrix": [flat[i * width : (i + 1) * width] for i in range(width)],
            "won": clean(self.won),
            "weighted": clean(self.weighted),
            "column_sums": clean(self.column_sums),
            "odds": clean(self.odds),
            "informedness": json_float(self.informedness),
        }


def payoff(table: Table) -> Payoff:
    """The fair-odds payoff matrix per unit stake of `table` (over the union of labels).

    >>> p = payoff(Table.binary(tp=56, fp=24, fn=14, tn=6)).scaled(10)  # Figure 1, chance
    >>> [[round(float(x), 2) for x in row] for row in p.matrix]
    [[8.0, -8.0], [-2.0, 2.0]]
    >>> [round(float(x), 2) for x in p.won]
    [0.0, 0.0]
    """
    labels, square = table.square()
    s = square.astype(np.float64)
    total = s.sum()
    actual = s.sum(axis=0)
    predicted = s.sum(axis=1)
    diagonal = np.eye(len(labels), dtype=bool)
    # row l is scored against label l's own odds: positive cells over |R = l|, the others
    # over N - |R = l|, whichever column they fall in
    win = ratio(s, np.broadcast_to(actual[:, None], s.shape))
    loss = ratio(s, np.broadcast_to(total - actual[:, None], s.shape))
    # a cell where nothing was bet pays nothing, whatever its odds
    matrix = np.where(s == 0, 0.0, np.where(diagonal, win, -loss))
    # a label that is never or always the real class has no fair odds: its win is undefined
    fair = (actual > 0) & (actual < total)
    won = np.where(fair, matrix.sum(axis=1), np.nan)
    weighted = np.where(predicted > 0, ratio(predicted, total) * won, 0.0)
    return Payoff(
        labels=labels,
        matrix=matrix,
        won=won,
        weighted=weighted,
        column_sums=matrix.sum(axis=0),
        odds=ratio(total - actual, actual),
    )
