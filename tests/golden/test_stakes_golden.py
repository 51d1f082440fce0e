"""The Bookmaker's money: the poster's "won $210 / lost $210" and Figure 1's dollar rows.

Golden values: Powers' poster "The Bookmaker tests your Edge" (the punter's winnings and
losses at 7:3, written in the note of shared/golden/powers_examples.json) and Figure 1
of Powers (2003) "Recall and Precision versus the Bookmaker" (shared/golden/
powers_figure1.json: the payoff matrix, "won", "weighted" and the odds, on $10).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from golden_files import load_golden

from informed import Table, payoff
from informed.errors import InputError, InputTypeError

FIGURE1 = load_golden("powers_figure1.json")
EXAMPLES = {case["name"]: case for case in load_golden("powers_examples.json")["cases"]}


def _table(counts: list[list[float]]) -> Table:
    return Table.from_counts(counts, rows="predicted", labels=["+", "-"])


def test_poster_punter_won_and_lost() -> None:
    """The guessing punter at fair odds: the poster's won and lost dollars, and the odds."""
    case = EXAMPLES["poster_guessing"]
    won, lost, against, stake = (
        float(x)
        for x in re.search(
            r"wins \$(\d+) and loses \$(\d+) at fair odds (\d+):(\d+)", case["note"]
        ).groups()
    )
    stakes = payoff(_table(case["counts"])).stakes(total=against + stake)
    assert stakes.won == pytest.approx(won)
    assert stakes.lost == pytest.approx(lost)
    assert stakes.net == pytest.approx(0.0, abs=1e-9)
    assert stakes.odds["+"] == f"{against:g}:{stake:g}"
    # "He won 12 x $7 + 42 x $3 = $210. He lost 18 x $7 + 28 x $3 = $210."
    text = str(stakes)
    assert "won 12 × $7 + 42 × $3 = $210" in text
    assert "lost 18 × $7 + 28 × $3 = $210" in text


@pytest.mark.parametrize("model", list(FIGURE1["models"]))
def test_figure1_dollar_rows_from_stakes(model: str) -> None:
    """Figure 1's payoff, "won", "weighted" and column sums are the stakes' rows on $10."""
    spec = FIGURE1["models"][model]
    dollars = spec["printed_dollars"]
    stakes = payoff(_table(spec["counts"])).stakes(total=10)
    np.testing.assert_allclose(stakes.rows.matrix, dollars["payoff"], atol=0.005)
    np.testing.assert_allclose(stakes.rows.won, dollars["won"], atol=0.005)
    np.testing.assert_allclose(stakes.rows.weighted, dollars["weighted"], atol=0.005)
    np.testing.assert_allclose(stakes.rows.column_sums, dollars["column_sums"], atol=0.005)


@pytest.mark.parametrize("model", list(FIGURE1["models"]))
def test_figure1_odds(model: str) -> None:
    """Figure 1 prints the odds 7 and 3 (pR(+) = 70 %): what a bet on each label risks."""
    odds = re.search(r"fair odds shown as (\d+):(\d+)", FIGURE1["definitions"]["payoff"])
    stakes = payoff(_table(FIGURE1["models"][model]["counts"])).stakes(total=10)
    np.testing.assert_allclose(stakes.stake, [float(x) for x in odds.groups()])
    np.testing.assert_allclose(stakes.stake + stakes.prize, [10.0, 10.0])


def test_rows_are_money_normalised() -> None:
    """Each row of money divided by N pR(l) (1 - pR(l)) is the payoff on the same scale
    (the poster: 'dividing the payoffs by N pR(l) (1 - pR(l)) = 21')."""
    counts = np.array([[5.0, 3.0, 1.0], [2.0, 7.0, 4.0], [0.0, 6.0, 9.0]])
    table = Table.from_counts(counts, rows="predicted", labels=["a", "b", "c"])
    stakes = payoff(table).stakes(total=100)
    n = counts.sum()
    prevalence = counts.sum(axis=0) / n
    expected = stakes.money / (n * prevalence * (1 - prevalence))[:, None]
    np.testing.assert_allclose(stakes.rows.matrix, expected)
    # by hand: a bet on l risks pR(l) x 100 and wins (1 - pR(l)) x 100
    won = sum(counts[i, i] * (1 - prevalence[i]) * 100 for i in range(3))
    lost = sum(counts[i, j] * prevalence[i] * 100 for i in range(3) for j in range(3) if i != j)
    assert stakes.won == pytest.approx(won)
    assert stakes.lost == pytest.approx(lost)


def test_half_informed_punter_is_ahead() -> None:
    """The poster's half-informed matrix wins money; the guessing one breaks even."""
    half = payoff(_table(EXAMPLES["poster_half_informed"]["counts"])).stakes(10)
    assert half.net > 0
    assert half.rows.informedness == pytest.approx(10 * 0.5)


@pytest.mark.parametrize("total", [0, -1, float("nan"), float("inf")])
def test_stakes_refuse_bad_totals(total: float) -> None:
    """The pool must be a positive finite amount."""
    with pytest.raises(InputError, match="positive"):
        payoff(_table([[1, 2], [3, 4]])).stakes(total)


def test_stakes_refuse_non_numbers() -> None:
    """A string or a bool is not an amount."""
    with pytest.raises(InputTypeError):
        payoff(_table([[1, 2], [3, 4]])).stakes("10")  # type: ignore[arg-type]
    with pytest.raises(InputTypeError):
        payoff(_table([[1, 2], [3, 4]])).stakes(True)
