"""The fair-odds Bookmaker payoff matrix and the money at stake (Powers 2003; the poster).

A punter bets on the label the system predicts, at fair odds set from the class
prevalences. Per unit stake, the payoff of a case predicted `l` whose real class is `c`
is w(c|l) = +1 / pR(l) when c = l and -1 / (1 - pR(l)) otherwise; the payoff matrix holds
pPR(l, c) w(c|l) (the poster's "General Bookmaker"), so that

* a row sums to the informedness of its label, B(l) = tpr(l) - fpr(l) ("won"),
* the bias-weighted row sums pP(l) B(l) ("weighted") add up to the overall informedness,
* pure guessing wins nothing, perfect prediction wins 1 per row.

Figure 1 of Powers (2003) prints this matrix on a scale of $10: `payoff(table).scaled(10)`.
`payoff(table).stakes(total=10)` counts the money itself: a bet on label l risks
pR(l) x total to win (1 - pR(l)) x total (fair odds (1 - pR(l)) : pR(l)), so the poster's
guessing punter "won 12 x $7 + 42 x $3 = $210" and "lost 18 x $7 + 28 x $3 = $210"; each
row of money divided by N pR(l) (1 - pR(l)) is Figure 1's dollar row.

References
----------
Powers, D. M. W. (2003). Recall and precision versus the Bookmaker. Proc. ICCS 2003.
Powers, D. M. W. The Bookmaker tests your Edge (poster).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from informed._common import json_float, json_floats
from informed.coding.labels import Label
from informed.errors import InputError, InputTypeError
from informed.measures import margins, ratio, scatter
from informed.table.display import SHOWN
from informed.table.result_views import payoff_html, payoff_repr, stakes_html
from informed.table.storage import dense_zeros
from informed.table.table import Table

__all__ = ["Payoff", "PayoffCells", "Stakes", "payoff"]


class PayoffCells(NamedTuple):
    """The non-zero cells of a payoff matrix over `Payoff.labels`, in row-major order:
    cell k pays values[k] per unit stake and holds counts[k] cases, predicted
    labels[rows[k]] with class labels[cols[k]]. Every other cell pays 0 (nothing bet)."""

    rows: NDArray[np.intp]
    cols: NDArray[np.intp]
    values: NDArray[np.float64]
    counts: NDArray[np.float64]


@dataclass(frozen=True)
class Payoff:
    """The payoff matrix of a table and its row and column summaries.

    Attributes
    ----------
    labels : tuple
        The labels of both axes (rows predicted, columns actual).
    won : ndarray (L,)
        Row sums: the informedness B(l) of each predicted label.
    weighted : ndarray (L,)
        pP(l) x B(l); their sum is the overall (bias-weighted) informedness.
    column_sums : ndarray (L,)
        Column sums of the matrix.
    odds : ndarray (L,)
        Fair odds against each label, (1 - pR(l)) / pR(l): 7:3 is 7/3 for pR = 30 %.
    cells : PayoffCells
        The non-zero cells of the matrix and their counts: all that is held, so that a
        table of many labels never makes its L x L payoff matrix. `row(i)` gives a row,
        `block(rows, cols)` a few cells, `matrix` the whole (checked against memory).
    storage : {"dense", "sparse"}
        The storage of the table: `to_dict` writes the matrix as rows (dense) or as its
        non-zero cells (sparse).

    Notes
    -----
    A label that is never (or always) the real class has no fair odds; its `won` is nan,
    as its informedness is.
    """

    labels: tuple[Label, ...]
    won: NDArray[np.float64]
    weighted: NDArray[np.float64]
    column_sums: NDArray[np.float64]
    odds: NDArray[np.float64]
    cells: PayoffCells = field(repr=False)
    storage: str = "dense"

    def __repr__(self) -> str:
        return payoff_repr(self.labels, self.weighted)

    def _repr_html_(self) -> str:
        """A notebook's view: the first labels' payoffs, won, weighted and odds."""
        shown = range(min(len(self.labels), SHOWN))
        block = self.block(shown, shown)
        return payoff_html(self.labels, block, self.won, self.weighted, self.odds)

    @property
    def matrix(self) -> NDArray[np.float64]:
        """The (L, L) payoff per unit stake of each cell: n(l, c) / |R = l| on the
        diagonal, -n(l, c) / (N - |R = l|) off it (made on demand, after checking that
        L x L floats fit in memory)."""
        return self._dense(self.cells.values, "the payoff matrix")

    @property
    def counts(self) -> NDArray[np.float64]:
        """The table's counts over `labels` (L, L), from which `stakes` counts the money
        (made on demand, as `matrix`)."""
        return self._dense(self.cells.counts, "the square counts of the payoff")

    def _dense(self, values: NDArray[np.float64], what: str) -> NDArray[np.float64]:
        size = len(self.labels)
        out = dense_zeros((size, size), np.float64, what)
        out[self.cells.rows, self.cells.cols] = values
        return out

    def row(self, index: int) -> NDArray[np.float64]:
        """Row `index` of the matrix (the bets on labels[index]), length L."""
        start, stop = np.searchsorted(self.cells.rows, [index, index + 1])
        out = np.zeros(len(self.labels), dtype=np.float64)
        out[self.cells.cols[start:stop]] = self.cells.values[start:stop]
        return out

    def block(
        self, rows: Sequence[int], cols: Sequence[int], *, counts: bool = False
    ) -> NDArray[np.float64]:
        """The cells of `rows` x `cols` (positions in `labels`) as a small dense matrix:
        their payoffs, or with `counts` their counts."""
        r = np.asarray(rows, dtype=np.intp)
        c = np.asarray(cols, dtype=np.intp)
        out = np.zeros((r.size, c.size), dtype=np.float64)
        where_row = np.full(len(self.labels), -1, dtype=np.intp)
        where_row[r] = np.arange(r.size)
        where_col = np.full(len(self.labels), -1, dtype=np.intp)
        where_col[c] = np.arange(c.size)
        i, j = where_row[self.cells.rows], where_col[self.cells.cols]
        keep = (i >= 0) & (j >= 0)
        values = self.cells.counts if counts else self.cells.values
        out[i[keep], j[keep]] = values[keep]
        return out

    @property
    def informedness(self) -> float:
        """The total bias-weighted win: the Bookmaker informedness of the table."""
        return float(np.sum(self.weighted)) if not np.isnan(self.weighted).any() else float("nan")

    def scaled(self, stake: float) -> Payoff:
        """The same bets at another stake (Powers' spreadsheet uses $10)."""
        return Payoff(
            labels=self.labels,
            won=self.won * stake,
            weighted=self.weighted * stake,
            column_sums=self.column_sums * stake,
            odds=self.odds,
            cells=self.cells._replace(values=self.cells.values * stake),
            storage=self.storage,
        )

    def stakes(self, total: float = 10.0) -> Stakes:
        """The money of every bet when punter and bookmaker ante `total` between them.

        A bet on label l risks pR(l) x total to win (1 - pR(l)) x total: the fair odds
        (1 - pR(l)) : pR(l). The poster's 30 % horse, on a $10 pool, is a $3 bet to win $7.

        >>> s = payoff(Table.binary(tp=12, fp=28, fn=18, tn=42)).stakes(total=10)
        >>> print(s)  # Powers' poster, "The Bookmaker tests your Edge"
        odds: '+' 7:3, '-' 3:7
        won 12 × $7 + 42 × $3 = $210
        lost 18 × $7 + 28 × $3 = $210
        net $0
        """
        if isinstance(total, bool) or not isinstance(total, int | float | np.number):
            msg = f"`total` must be a positive amount such as 10; got {total!r}."
            raise InputTypeError(msg)
        if not (np.isfinite(total) and total > 0):
            msg = f"`total` must be a positive finite amount such as 10; got {total!r}."
            raise InputError(msg)
        return _stakes(self, float(total))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values (nan as None). ``"matrix"`` is a list of rows for a densely
        stored table, and ``{"row": [...], "column": [...], "value": [...]}`` (the
        non-zero cells, positions in ``"labels"``) for a sparse one: a table of many
        labels never writes its L x L floats."""

        clean = json_floats

        if self.storage == "dense":
            width = len(self.labels)
            flat = clean(self.matrix)
            matrix: Any = [flat[i * width : (i + 1) * width] for i in range(width)]
        else:
            matrix = {
                "row": self.cells.rows.tolist(),
                "column": self.cells.cols.tolist(),
                "value": clean(self.cells.values),
            }
        return {
            "labels": list(self.labels),
            "matrix": matrix,
            "won": clean(self.won),
            "weighted": clean(self.weighted),
            "column_sums": clean(self.column_sums),
            "odds": clean(self.odds),
            "informedness": json_float(self.informedness),
        }


def payoff(table: Table) -> Payoff:
    """The fair-odds payoff matrix per unit stake of `table` (over the union of labels).

    Only the non-zero cells are computed (a cell where nothing was bet pays nothing), so
    a sparse table of many labels costs O(cells + labels).

    >>> p = payoff(Table.binary(tp=56, fp=24, fn=14, tn=6)).scaled(10)  # Figure 1, chance
    >>> [[round(float(x), 2) for x in row] for row in p.matrix]
    [[8.0, -8.0], [-2.0, 2.0]]
    >>> [round(float(x), 2) for x in p.won]
    [0.0, 0.0]
    """
    labels, square = table.square_cells()
    size = len(labels)
    m = margins(square)
    actual, predicted, total = m.cols, m.rows, float(m.total)
    keep = square.values != 0
    rows, cols, counts = square.rows[keep], square.cols[keep], square.values[keep]
    # row l is scored against label l's own odds: positive cells over |R = l|, the others
    # over N - |R = l|, whichever column they fall in
    own = actual[rows]
    values = np.where(rows == cols, ratio(counts, own), -ratio(counts, total - own))
    # a label that is never or always the real class has no fair odds: its win is undefined
    fair = (actual > 0) & (actual < total)
    won = np.where(fair, scatter(values, rows, size), np.nan)
    weighted = np.where(predicted > 0, ratio(predicted, total) * won, 0.0)
    return Payoff(
        labels=labels,
        won=won,
        weighted=weighted,
        column_sums=scatter(values, cols, size),
        odds=ratio(total - actual, actual),
        cells=PayoffCells(rows, cols, values, counts),
        storage=table.storage,
    )


@dataclass(frozen=True)
class Stakes:
    """The money of the Bookmaker's bets on a table: what was won, lost, and at what odds.

    Every case is a bet on its predicted label l, at fair odds set by how often l is the
    real class: the punter antes pR(l) x total, the bookmaker (1 - pR(l)) x total, and
    the winner takes both antes.

    Attributes
    ----------
    labels : tuple
        The labels of both axes (rows predicted, columns actual).
    total : float
        What punter and bookmaker ante together on each bet (the poster's $10).
    stake : ndarray (L,)
        pR(l) x total: what a bet on l risks. Figure 1's "Odds" row (7 and 3 for
        pR = 70 % and 30 % on $10).
    prize : ndarray (L,)
        (1 - pR(l)) x total: what a bet on l wins.
    money : ndarray (L, L)
        Cell (l, c): n(l, c) x prize(l) when c = l (won), -n(l, c) x stake(l) otherwise.
    won, lost : float
        The sum of the winnings, and of the losses (as a positive amount).
    rows : Payoff
        Each row of `money` divided by N pR(l) (1 - pR(l)): the payoff matrix on a scale
        of `total`, whose rows win total x B(l) (Figure 1's dollar rows and its "won"
        and "weighted" columns).

    Notes
    -----
    A label that is never the real class has stake 0 (a sure loss costs nothing at fair
    odds); one that is always the real class has prize 0. Their `rows` are nan, as their
    informedness is.
    """

    labels: tuple[Label, ...]
    total: float
    stake: NDArray[np.float64]
    prize: NDArray[np.float64]
    money: NDArray[np.float64]
    won: float
    lost: float
    rows: Payoff = field(repr=False)

    def __repr__(self) -> str:
        return (
            f"Stakes(labels={list(self.labels)!r}, total {self.total:g}: won {self.won:g}, "
            f"lost {self.lost:g}, net {self.net:g})"
        )

    def _repr_html_(self) -> str:
        """A notebook's view: each label's odds, stake and prize, what its bets won."""
        totals = (self.won, self.lost, self.net)
        return stakes_html(self.labels, self.odds, self.stake, self.prize, self.money, totals)

    @property
    def net(self) -> float:
        """won - lost: zero for a guessing punter (the poster's "lucky to break even")."""
        return self.won - self.lost

    @property
    def odds(self) -> dict[Label, str]:
        """Label -> fair odds against it, "prize:stake" (the poster's 7:3)."""
        return {
            label: f"{_amount(p)}:{_amount(s)}"
            for label, p, s in zip(self.labels, self.prize, self.stake, strict=True)
        }

    def __str__(self) -> str:
        counts = self.rows.counts

        def terms(sign: int) -> str:
            parts = []
            for c in range(len(self.labels)):  # by actual class, as the poster lists them
                for r in range(len(self.labels)):
                    value = self.money[r, c]
                    if value * sign <= 0 or (r == c) != (sign > 0):
                        continue
                    count = counts[r, c]
                    each = self.prize[r] if sign > 0 else self.stake[r]
                    parts.append(f"{_amount(count)} × ${_amount(each)}")
            return " + ".join(parts) if parts else "nothing"

        odds = ", ".join(f"{label!r} {text}" for label, text in self.odds.items())
        return (
            f"odds: {odds}\n"
            f"won {terms(1)} = ${_amount(self.won)}\n"
            f"lost {terms(-1)} = ${_amount(self.lost)}\n"
            f"net ${_amount(self.net)}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values."""
        width = len(self.labels)
        flat = [float(v) for v in np.ravel(self.money)]
        return {
            "labels": list(self.labels),
            "total": self.total,
            "stake": [float(v) for v in self.stake],
            "prize": [float(v) for v in self.prize],
            "odds": [self.odds[label] for label in self.labels],
            "money": [flat[i * width : (i + 1) * width] for i in range(width)],
            "won": self.won,
            "lost": self.lost,
            "net": self.net,
            "rows": self.rows.to_dict(),
        }


def _amount(value: float) -> str:
    """Money and counts as printed: no trailing zeros, rounding noise removed."""
    rounded = round(float(value), 9)
    return f"{rounded + 0.0:g}" if abs(rounded) < 1e15 else f"{rounded:.6g}"


def _stakes(pay: Payoff, total: float) -> Stakes:
    s = pay.counts
    n = float(s.sum())
    prevalence = ratio(s.sum(axis=0), n) if n else np.zeros(len(pay.labels))
    stake = np.nan_to_num(prevalence) * total
    prize = total - stake
    diagonal = np.eye(len(pay.labels), dtype=bool)
    money = np.where(diagonal, s * prize[:, None], -s * stake[:, None])
    money = np.where(s == 0, 0.0, money)
    return Stakes(
        labels=pay.labels,
        total=total,
        stake=stake,
        prize=prize,
        money=money,
        won=float(money[money > 0].sum()),
        lost=float(-money[money < 0].sum()),
        rows=pay.scaled(total),
    )
