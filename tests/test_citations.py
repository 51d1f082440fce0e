"""Text a user reads cites papers by author, year and title, never by a file of ours.

The registries cite short author-year forms; each resolves to a full reference in
docs/references.md (the one list, linked from the README) and, for the works a report
cites, in `informed.report.references.REFERENCES`. Reports, docs and the README never
say "seed 00N".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from informed import MEASURES, Ranking, Table, evaluate
from informed.inference import bootstrap
from informed.ranking import RANKING_MEASURES, summarize_ranking
from informed.report import render_evaluation, render_ranking, results_document
from informed.report.references import REFERENCES, cited

ROOT = Path(__file__).resolve().parents[1]
REFERENCES_MD = ROOT / "docs" / "references.md"
SEED = re.compile(r"\bseeds?\s+\d{3}\b|\bthe seeds?\b|\bseeds?'s?(?=\W)|\(seeds?[,)]", re.I)
"""A seed cited as a source ("seed 004", "the seeds", "the seed's", "(seed, eq. 5)"), not
the random seed of the bootstrap."""


def _listed() -> dict[str, str]:
    """`cited as` -> full reference, from the tables of docs/references.md."""
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$", REFERENCES_MD.read_text(), re.M)
    return {short: full for short, full in rows if short not in ("cited as", "---")}


def test_every_registry_source_resolves_in_the_references() -> None:
    listed = _listed()
    sources = [m.source for m in MEASURES.values()] + [m.source for m in RANKING_MEASURES.values()]
    for source in sources:
        keys = cited(source)
        assert keys, f"{source!r} cites no author and year"
        for key in keys:
            assert key in listed, f"{key} (from {source!r}) is not in docs/references.md"


def test_the_reports_references_are_the_docs() -> None:
    """Every full reference a report prints is the docs' own, word for word."""
    listed = _listed()
    for short, full in REFERENCES.items():
        assert listed.get(short) == full, short


def test_the_readme_links_the_references() -> None:
    assert "(docs/references.md)" in (ROOT / "README.md").read_text()


def test_docs_measures_table_cites_the_registry() -> None:
    text = (ROOT / "docs" / "measures.md").read_text()
    for name, measure in MEASURES.items():
        row = re.search(rf"^\| `{name}` \|.*\| ([^|]+) \|$", text, re.M)
        assert row is not None and row.group(1) == measure.source, name


@pytest.mark.parametrize(
    "document",
    [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))],
    ids=lambda p: p.name,
)
def test_docs_never_cite_a_seed(document: Path) -> None:
    """A reader has no seeds: the docs cite author, year and title."""
    hits = [line for line in document.read_text().splitlines() if SEED.search(line)]
    assert hits == []


def test_the_seed_pattern_finds_citations() -> None:
    """The pattern catches each way the docs used to cite a seed, and not `--seed 0`."""
    for old in ("(seed 004)", "as the seeds say", "the seed's definition", "(seed, eq. 5)"):
        assert SEED.search(old), old
    for fine in ("[--seed 0]", "`seed` (an int)", "seed=0", "random seed of the bootstrap"):
        assert not SEED.search(fine), fine


def test_reports_never_cite_a_seed() -> None:
    """Text, JSON and HTML of an evaluation and a ranking cite papers, not seeds."""
    pytest.importorskip("matplotlib")
    from informed.report.html import html_report

    table = Table.binary(tp=21, fp=14, fn=9, tn=56)
    result = evaluate(table, positive="+")
    ranking = Ranking.from_scores(actual=[1, 0, 1, 1, 0, 0], scores=[6, 5, 4, 3, 2, 1], positive=1)
    summary = summarize_ranking(ranking, quotas=[2])
    intervals = bootstrap(table, positive="+", replicates=50, seed=0)
    outputs = [
        render_evaluation(result, "x.csv", intervals),
        render_ranking(summary, 1),
        json.dumps(results_document(result, ranking=summary, intervals=intervals)),
        html_report(result, ranking, intervals=intervals, summary=summary),
    ]
    for output in outputs:
        assert not re.search(r"\bseeds?\b", output, re.I)
    assert "Arbel & Rokach (2006)" in outputs[1]
    # the text ends with the full reference (author, year, title), however it wraps
    assert REFERENCES["Arbel & Rokach (2006)"] in " ".join(outputs[1].split())
    assert REFERENCES["Arbel & Rokach (2006)"] in outputs[3].replace("&amp;", "&")
