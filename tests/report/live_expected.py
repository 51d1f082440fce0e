"""What the live operating point panel must show at a threshold T, computed by the library
(`Ranking.at_threshold`, `payoff`, `Payoff.stakes`), and the panel as a page shows it.

Shared by the tests of the page without script (`test_live_panel.py`) and of the page
in headless Chromium (`test_report_browser.py`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from report_dom import Node

from informed import Ranking, payoff
from informed._markup import count, number
from informed.coding.labels import keyed

IDS = (
    "threshold",
    "tp",
    "fp",
    "fn",
    "tn",
    "informedness",
    "markedness",
    "payoff-tp",
    "payoff-fp",
    "payoff-fn",
    "payoff-tn",
    "won-positive",
    "won-negative",
    "gained",
    "lost",
    "net",
)


TEXTS = ("note", "markedness-reason", "won-terms", "lost-terms")
"""Elements read for their text only."""


def shown(page: Node) -> dict[str, tuple[str, float]]:
    """(text, float of data-value) of every live-* element the panel shows."""
    out = {}
    for key in IDS:
        node = page.by_id(f"live-{key}")
        out[key] = (node.text(), float(node.attrs["data-value"]))
    for key in TEXTS:
        out[key] = (page.by_id(f"live-{key}").text(), math.nan)
    return out


def lowest_score_at_least(ranking: Ranking, threshold: float) -> float:
    """The embedded threshold of the cut `score >= threshold` selects: the lowest score at
    least `threshold`, +inf when none is."""
    above = ranking.scores[ranking.scores >= threshold]
    return float(above.min()) if above.size else math.inf


def _signed(value: float) -> str:
    return "0" if value == 0 else f"{value:+.4f}"


def _term(cases: float, each: float) -> str:
    """ "59 × $6.275": a count, no-break spaces, the amount with at most four decimals."""
    amount = f"{each:,.4f}".rstrip("0").rstrip(".")
    return f"{count(cases)}\u00a0×\u00a0${amount}"


def expected(ranking: Ranking, threshold: float) -> dict[str, tuple[str, float]]:
    """The panel at `threshold`, from the library's own functions; texts as Python writes
    them (`informed._markup`), the threshold shown as the cut's own score."""
    point = ranking.at_threshold(threshold)
    marked = ranking.at_threshold(threshold, "markedness")
    table = point.table
    pos, neg = ranking.positive, ranking.negative  # the cells by name, not by position
    tp, fp = table.count(pos, pos), table.count(pos, neg)
    fn, tn = table.count(neg, pos), table.count(neg, neg)
    pay = payoff(table)
    stakes = pay.stakes(total=10)
    where = {keyed(label): i for i, label in enumerate(pay.labels)}
    p, n = where[keyed(pos)], where[keyed(neg)]
    block = pay.block([p, n], [p, n])
    cut = lowest_score_at_least(ranking, threshold)
    values: dict[str, Any] = {
        "threshold": ("∞" if math.isinf(cut) else None, cut),
        "tp": (count(tp), tp),
        "fp": (count(fp), fp),
        "fn": (count(fn), fn),
        "tn": (count(tn), tn),
        "informedness": (number(point.value), point.value),
        "markedness": (number(marked.value), marked.value),
        "payoff-tp": (_signed(block[0, 0]), block[0, 0]),
        "payoff-fp": (_signed(block[0, 1]), block[0, 1]),
        "payoff-fn": (_signed(block[1, 0]), block[1, 0]),
        "payoff-tn": (_signed(block[1, 1]), block[1, 1]),
        "won-positive": (_signed(pay.won[p]), pay.won[p]),
        "won-negative": (_signed(pay.won[n]), pay.won[n]),
        "gained": (f"${stakes.won:,.2f}", stakes.won),
        "lost": (f"${stakes.lost:,.2f}", stakes.lost),
        "net": (f"${stakes.net:,.2f}", stakes.net),
    }
    reason = "" if marked.reason is None else f"undefined: {marked.reason}"
    values["markedness-reason"] = (reason, math.nan)
    prize, stake = stakes.prize, stakes.stake
    values["won-terms"] = (f"{_term(tp, prize[p])} + {_term(tn, prize[n])}", math.nan)
    values["lost-terms"] = (f"{_term(fn, stake[n])} + {_term(fp, stake[p])}", math.nan)
    return values


def assert_panel_shows(page: Node, ranking: Ranking, threshold: float) -> None:
    """Every number the panel shows is the library's at `threshold`: the value behind it
    (data-value) to the last bit, and its text as Python writes it."""
    assert_shown(shown(page), ranking, threshold)


def assert_shown(found: dict[str, tuple[str, float]], ranking: Ranking, threshold: float) -> None:
    """As `assert_panel_shows`, for what was read from the panel: id -> (text, value)."""
    from informed.report.html.live import js_number

    for key, (text, value) in expected(ranking, threshold).items():
        seen_text, seen_value = found[key]
        if key == "threshold" and text is None:
            text = js_number(value)
        # the DOM's text collapses white space, no-break spaces too
        assert " ".join(seen_text.split()) == " ".join(text.split()), (threshold, key, seen_text)
        if not math.isnan(value):
            assert seen_value == value, (threshold, key, seen_value, value)
        elif key in ("informedness", "markedness"):
            assert math.isnan(seen_value), (threshold, key, seen_value)


def tie_ranking() -> Ranking:
    """32 positives and 32 negatives, the top one alone: at the top score informedness is
    1/32 = 0.03125 exactly, a tie at four decimals that Python writes 0.0312 (half to
    even) and a half-up rounding would write 0.0313."""
    actual = np.array([1] * 32 + [0] * 32)
    scores = np.concatenate([[0.99], np.linspace(0.9, 0.1, 31), np.linspace(0.95, 0.05, 32)])
    return Ranking.from_scores(actual=actual, scores=scores.round(3), positive=1)
