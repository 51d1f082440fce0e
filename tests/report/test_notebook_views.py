"""What a notebook shows: `_repr_html_` of every result is well-formed HTML that escapes
user text, and `repr` is one readable line.

Each fragment is parsed by the standard library's HTML parser: every element closed in
order, no <script> or <style> element, no event-handler attribute, and a label written
as ``<script>alert(1)</script>`` comes back as text, never as markup.
"""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

from informed import Ranking, Table, Tally, compare, evaluate, payoff

EVIL = '<script>alert("x")</script>'
VOID = {"br", "hr", "img", "meta", "input", "col", "wbr"}


class Strict(HTMLParser):
    """Records elements and text; fails on unbalanced tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.attributes: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [name for name, _ in attrs]
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(html: str) -> Strict:
    parser = Strict()
    parser.feed(html)
    parser.close()
    assert not parser.stack, f"unclosed {parser.stack}"
    assert "script" not in parser.tags and "style" not in parser.tags
    assert not [a for a in parser.attributes if a.startswith("on")]
    return parser


def _objects() -> dict[str, object]:
    actual = [EVIL, "b", "b", EVIL, "b", EVIL] * 5
    predicted = ["b", "b", EVIL, EVIL, "b", EVIL] * 5
    table = Table.from_labels(actual=actual, predicted=predicted)
    tally = Tally([EVIL, "sport"])
    tally.add_result([EVIL], [EVIL, "sport"])
    tally.add_result(["sport"], ["sport"])
    ranking = Ranking.from_scores(
        actual=[1, 0, 1, 0, 1, 0, 0, 1, 1, 0], scores=[9, 8, 7, 7, 7, 6, 5, 4, 3, 2], positive=1
    )
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 200)
    models = {EVIL: np.where(rng.random(200) < 0.8, truth, 1 - truth), "b": truth[::-1]}
    comparison = compare(truth, models, positive=1, replicates=20, permutations=9, seed=0)
    return {
        "table": table,
        "evaluation": evaluate(table),
        "evaluation_positive": evaluate(table, positive=EVIL),
        "ranking": ranking,
        "tally": tally,
        "comparison": comparison,
    }


OBJECTS = _objects()


@pytest.mark.parametrize("name", list(OBJECTS))
def test_repr_html_is_well_formed_and_escaped(name: str) -> None:
    """The fragment parses, holds no script, and shows the <script> label as text."""
    html = OBJECTS[name]._repr_html_()  # type: ignore[attr-defined]
    result = parsed(html)
    text = "".join(result.text)
    if name != "ranking":
        assert EVIL in text, "the label must be shown, as text"
    assert "<script" not in html.lower()


def test_table_view_holds_the_counts() -> None:
    """The table's cells and margins are the counts, row by row."""
    table = Table.from_counts([[5, 3], [2, 7]], rows="predicted", labels=["x", "y"])
    result = parsed(table._repr_html_())
    numbers = [t for t in result.text if t.strip().isdigit()]
    assert numbers == ["5", "3", "8", "2", "7", "9", "7", "10", "17"]


def test_evaluation_view_says_why_a_value_is_undefined() -> None:
    """An undefined measure is shown as "undefined", with its reason."""
    evaluation = evaluate(Table.binary(tp=90, fp=10, fn=0, tn=0), positive="+")
    text = "".join(parsed(evaluation._repr_html_()).text)
    assert "no -P predictions" in text


def test_large_table_view_is_bounded() -> None:
    """A table of 200 labels shows at most 20 a side, and says how many are left out."""
    labels = np.arange(200)
    table = Table.from_labels(actual=labels, predicted=labels)
    html = table._repr_html_()
    parsed(html)
    assert html.count("<tr>") == 1 + 20 + 1
    assert "360 more labels not shown" in html


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+"), "informedness 0.5000"),
        (Ranking.from_scores(actual=[1, 0], scores=[2, 1], positive=1), "n+=1"),
        (Table.binary(tp=1, fp=2, fn=3, tn=4), "counts=[[1, 2], [3, 4]]"),
    ],
)
def test_repr_is_one_readable_line(value: object, expected: str) -> None:
    """repr names the object and its key numbers on one line."""
    text = repr(value)
    assert "\n" not in text and expected in text and len(text) < 200


def test_comparison_repr_names_the_best_and_the_differences() -> None:
    """The comparison's repr: a leaderboard line per model and each difference."""
    text = repr(OBJECTS["comparison"])
    first = text.splitlines()[0]
    assert first.startswith("Comparison of 2 models") and "best" in first
    assert "[" in text.splitlines()[-1]


def test_stakes_read_as_the_poster() -> None:
    """str of the stakes is the poster's sentence."""
    text = str(payoff(Table.binary(tp=12, fp=28, fn=18, tn=42)).stakes(10))
    assert "won 12 × $7 + 42 × $3 = $210" in text


def _results() -> dict[str, tuple[object, bool]]:
    """Every other result a notebook shows, and whether its view names the <script> label."""
    from informed import abstain, bootstrap, match
    from informed.inference import (
        bootstrap_ranking,
        chi_square_test,
        paired_correctness,
        permutation_test,
        proportion_interval,
    )

    table = OBJECTS["table"]
    assert isinstance(table, Table)
    ranking = OBJECTS["ranking"]
    clusters = Table.from_labels([EVIL, EVIL, "b", "b", "c"], [0, 0, 1, 1, 2], clusters=True)
    matching = match(clusters)
    weighted = Table.from_labels([1, 0, 1, 0], [1, 1, 0, 0], weights=[0.01, 0.02, 0.01, 0.03])
    return {
        "bootstrap": (bootstrap(table, per_label=True, replicates=30, seed=0), True),
        "bootstrap_nan": (bootstrap(weighted, ["informedness"], replicates=30, seed=0), False),
        "interval": (proportion_interval(table, "recall", positive=EVIL), False),
        "ranking_bootstrap": (bootstrap_ranking(ranking, quotas=[3], replicates=30, seed=0), False),
        "chi_square": (chi_square_test(table), False),
        "permutation": (permutation_test(table, permutations=19, seed=0), False),
        "payoff": (payoff(table), True),
        "stakes": (payoff(table).stakes(10), True),
        "matching": (matching, True),
        "abstention": (abstain(table, ignore=["b"]), True),
        "matching_abstention": (matching.abstention, False),
        "operating_point": (ranking.best_threshold(), False),  # type: ignore[attr-defined]
        "paired_correctness": (
            paired_correctness(actual=[1, 1, 0, 0], first=[1, 0, 0, 1], second=[1, 1, 1, 1]),
            False,
        ),
    }


RESULTS = _results()


@pytest.mark.parametrize("name", list(RESULTS))
def test_every_result_has_a_view_and_a_readable_repr(name: str) -> None:
    """Bootstrap, intervals, tests, payoff, stakes, matching and abstention (issue 20,
    item 12): a well-formed escaped HTML view, and a repr of a few short lines that holds
    no array dump."""
    value, names_label = RESULTS[name]
    html = value._repr_html_()  # type: ignore[attr-defined]
    text = "".join(parsed(html).text)
    if names_label:
        assert EVIL in text
    assert "<script" not in html.lower()
    shown = repr(value)
    assert "array(" not in shown and "Table(" not in shown
    assert len(shown.splitlines()) <= 14
    assert max(len(line) for line in shown.splitlines()) < 220


def test_result_views_say_why_an_interval_is_undefined() -> None:
    """An undefined interval's view and repr carry its reason."""
    value, _ = RESULTS["bootstrap_nan"]
    reason = value.intervals["informedness"].reason  # type: ignore[attr-defined]
    assert reason
    assert reason in "".join(parsed(value._repr_html_()).text)  # type: ignore[attr-defined]
    assert reason in repr(value)


def test_interval_repr_reads_as_an_interval() -> None:
    """An Interval's repr: its estimate, level, method and bounds."""
    from informed import Interval

    assert repr(Interval(0.5, 0.25, 0.75, 0.95, "wilson")) == (
        "Interval(estimate 0.5000, 95 % wilson [0.2500, 0.7500])"
    )
