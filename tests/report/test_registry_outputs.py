"""One source: every ranking measure, headline and per-label column reaches every output
from its registry entry, with the same title and definition; nothing is keyed on a name.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from report_dom import parse, row_by

from informed import MEASURES, Table, evaluate
from informed.inference import PROPORTIONS, RANKING_QUOTA_MEASURES, RANKING_SUMMARIES
from informed.ranking import RANKING_MEASURES, Ranking, summarize_ranking, undefined_reason
from informed.ranking.document import AREAS, QUOTA_MEASURES, SUMMARIES
from informed.ranking.registry import RANKING_RULES
from informed.report import render_evaluation, render_ranking, results_document
from informed.report.contents import HEADLINE, PER_LABEL, PER_LABEL_HEADINGS
from informed.report.html import html_report

SOURCE = Path(__file__).resolve().parents[2] / "src" / "informed"
REPORTED = (*SUMMARIES, *AREAS, *QUOTA_MEASURES)


@pytest.fixture(scope="module")
def ranking() -> Ranking:
    rng = np.random.default_rng(5)
    actual = rng.random(400) < 0.3
    scores = np.round(rng.random(400) + 0.4 * actual, 2)
    return Ranking.from_scores(actual=actual, scores=scores, positive=True)


def _flat(text: str) -> str:
    """The text with its lines joined: a definition wrapped over lines reads as one."""
    return " ".join(line.strip() for line in text.splitlines())


def test_every_ranking_measure_has_one_title_and_definition_in_text_html_and_json(
    ranking: Ranking,
) -> None:
    """The registry-driven check: text, HTML and JSON show each reported ranking measure
    (summaries, PEM's areas, the measures at a quota) with the registry's title and
    definition, and with nothing else in their place."""
    summary = summarize_ranking(ranking, quotas=[20, 100], bins=5)
    text = _flat(render_ranking(summary, True, width=100))
    document = results_document(ranking=summary, positive=True)["ranking"]
    page = parse(html_report(ranking=ranking, summary=summary, ranking_positive=True))
    for name in REPORTED:
        measure = RANKING_MEASURES[name]
        # text: a row headed by the title, and the legend "Title: definition"
        assert f"{measure.title}: {measure.definition}" in text, name
        # JSON: the registry's entry, word for word
        assert document["definitions"][name]["title"] == measure.title, name
        assert document["definitions"][name]["definition"] == measure.definition, name
        assert document["definitions"][name]["source"] == measure.source, name
        # HTML: the summary table's row, or the quota table's heading and definition list
        if name in QUOTA_MEASURES:
            heading = page.by_id("quota-table").find("th", data_measure=name)
            assert heading.text() == measure.title, name
            item = page.by_id("quota-definitions").find("li", data_measure=name).text()
            assert item.startswith(f"{measure.title}: {measure.definition}"), name
        else:
            cells = row_by(page, "ranking-table", "data-measure", name)
            assert cells[0] == measure.title, name
            assert cells[4].startswith(measure.definition), name
            assert measure.source in cells[4], name
    assert set(document["definitions"]) == set(REPORTED)


def test_values_and_reasons_are_the_summary_s_in_every_output(ranking: Ranking) -> None:
    """An undefined value shows the registry's reason in text, HTML and JSON alike."""
    only_negatives = Ranking.from_scores(
        actual=[0, 0, 0, 0], scores=[4, 3, 2, 1], positive=1, negative=0
    )
    summary = summarize_ranking(only_negatives, quotas=[2])
    reason = undefined_reason(only_negatives, "auc")
    assert reason == "no actual positives (n+ = 0)"
    text = render_ranking(summary, 1)
    assert f"undefined: {reason}" in text
    document = results_document(ranking=summary, positive=1)["ranking"]
    assert document["auc"] is None and document["undefined"]["auc"] == reason
    page = parse(html_report(ranking=only_negatives, summary=summary))
    assert row_by(page, "ranking-table", "data-measure", "auc")[-1] == f"undefined: {reason}"


def test_the_ranking_bootstrap_reads_the_registry() -> None:
    """bootstrap_ranking resamples exactly the registry's measures marked for it."""
    marked = {n for n, m in RANKING_MEASURES.items() if m.bootstrap}
    assert set(RANKING_SUMMARIES) | set(RANKING_QUOTA_MEASURES) == marked
    for name, function in {**RANKING_SUMMARIES, **RANKING_QUOTA_MEASURES}.items():
        assert function is RANKING_MEASURES[name].function


def test_every_rule_of_the_registry_exists_and_is_used() -> None:
    used = {rule for m in RANKING_MEASURES.values() for rule in m.undefined}
    assert used == set(RANKING_RULES)


def test_headline_and_per_label_columns_are_one_list() -> None:
    """Text and HTML show the same headline measures and per-label columns, in order."""
    result = evaluate(
        Table.from_labels(actual=list("aabbbcc"), predicted=list("abbbcca")), positive=None
    )
    text = render_evaluation(result, "x.csv")
    header = next(line for line in text.splitlines() if line.split()[:1] == ["label"])
    assert header.split()[1:] == " ".join(PER_LABEL_HEADINGS[n] for n in PER_LABEL).split()
    headline = [line.split("  ")[0].strip() for line in text.splitlines()[2:5]]
    assert headline == [MEASURES[n].title for n in HEADLINE]
    page = parse(html_report(result))
    cards = page.by_id("headline").find_all("div", class_="card")
    assert [c.attrs["data-measure"] for c in cards] == list(HEADLINE)
    html_head = [
        th.text() for th in page.by_id("per-label-table").find("thead").find_all("th")[1:-1]
    ]
    assert html_head == [MEASURES[n].title for n in PER_LABEL]


def test_proportions_are_the_registry_s() -> None:
    """The proportion intervals read their cells from the registry, and those cells give
    the measure's own value (a brute-force count on random tables)."""
    assert {n: m.proportion for n, m in MEASURES.items() if m.proportion is not None} == PROPORTIONS
    assert set(PROPORTIONS) >= {"recall", "precision", "accuracy", "fallout"}
    rng = np.random.default_rng(2)
    for _ in range(20):
        tp, fp, fn, tn = (int(v) for v in rng.integers(1, 50, 4))
        cells = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
        counts = np.array([[tp, fp], [fn, tn]])
        for name, (numerator, denominator) in PROPORTIONS.items():
            expected = sum(cells[c] for c in numerator) / sum(cells[c] for c in denominator)
            assert float(MEASURES[name](counts)) == pytest.approx(expected), name


def test_reasons_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every case one label: kappa's chance agreement is 1, and the reason is its registry
    entry's sentence (a changed entry changes the report); bias is per label only."""
    table = Table.from_counts([[8, 0], [0, 0]], rows="predicted", labels=["a", "b"])
    result = evaluate(table, positive="a")
    assert result.reasons["kappa"] == MEASURES["kappa"].undefined_otherwise
    assert evaluate(table).reasons["bias"] == MEASURES["bias"].undefined_overall
    changed = dataclasses.replace(MEASURES["kappa"], undefined_otherwise="as the registry says")
    monkeypatch.setitem(MEASURES, "kappa", changed)
    assert evaluate(table, positive="a").reasons["kappa"] == "as the registry says"


def _name_tests(path: Path) -> list[str]:
    """Comparisons of `measure`, `measure.name` or `name` against string constants."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            left = ast.unparse(node.left)
            constants = [
                c
                for c in node.comparators
                if isinstance(c, ast.Constant | ast.Tuple | ast.List | ast.Set)
                and re.search(r"['\"]", ast.unparse(c))
            ]
            if left in ("measure", "measure.name", "name") and constants:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize(
    "module",
    ["ranking/registry.py", "ranking/document.py", "table/evaluation.py", "measures/measure.py"],
)
def test_no_reason_is_keyed_on_a_measure_name(module: str) -> None:
    """Why a measure is undefined is registry data, not an `if measure == "..."` chain."""
    assert _name_tests(SOURCE / module) == []
