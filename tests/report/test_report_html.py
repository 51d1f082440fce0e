"""The HTML report's content, read from the parsed page: the right numbers in the right cells.

No snapshot: each test parses the page (html.parser, stdlib) and compares cells with the
values of the objects the page was made from, and a few with the seeds' own numbers.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from report_dom import Node, external_references, parse, row_by, table_rows

from informed import MEASURES, Table, evaluate
from informed.inference import Bootstrap, bootstrap
from informed.ranking import Ranking, auc, lift_table, pem, pem_areas, summarize_ranking
from informed.report.html import FIGURES, html_report, write_html_report
from informed.report.html.markup import LONG_LABEL, label_css
from informed.report.references import REFERENCES, cited
from informed.table import Evaluation, payoff

# Arbel & Rokach (2006), Table 2: ten instances, four positives, no ties.
SEED_ACTUAL = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
SEED_SCORES = [0.45, 0.34, 0.32, 0.26, 0.15, 0.14, 0.09, 0.07, 0.06, 0.03]
EVALUATION_FIGURES = ("heatmap", "labels")
RANKING_FIGURES = ("roc", "quota", "lift")
# the seed's scores lie in [0, 1]: read as probabilities, they have a calibration section
CALIBRATION_FIGURES = ("reliability", "decision")
HOSTILE = "<script>alert(1)</script>"


def fmt(value: float | None) -> str:
    """The page's number format."""
    return "undefined" if value is None or math.isnan(value) else f"{value:.4f}"


@pytest.fixture(scope="module")
def binary() -> Evaluation:
    return evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+")


@pytest.fixture(scope="module")
def seed_ranking() -> Ranking:
    return Ranking.from_scores(actual=SEED_ACTUAL, scores=SEED_SCORES, positive=1)


@pytest.fixture(scope="module")
def intervals(binary: Evaluation) -> Bootstrap:
    return bootstrap(binary.table, positive="+", seed=0, replicates=200, level=0.95)


@pytest.fixture(scope="module")
def both(binary: Evaluation, seed_ranking: Ranking, intervals: Bootstrap) -> str:
    return html_report(
        binary,
        seed_ranking,
        intervals=intervals,
        source="seed.csv",
        ranking_positive=1,
        quotas=[3, 5],
    )


@pytest.fixture(scope="module")
def page(both: str) -> Node:
    return parse(both)


@pytest.fixture(scope="module")
def multiclass() -> Evaluation:
    # a 3-label matrix (rows real), with labels that hold markup
    counts = [[5, 3, 1], [2, 7, 4], [0, 6, 9]]
    labels = [HOSTILE, 'say "cheese" & $x$', "zebra"]
    table = Table.from_counts(counts, rows="actual", labels=labels)
    return evaluate(table)


def test_contingency_cells(page: Node) -> None:
    """Counts sit at (predicted row, actual column), with margins and N."""
    rows = table_rows(page, "contingency-table")
    assert rows[0] == ["predicted \\ actual", "+", "-", "total"]
    assert rows[1:] == [
        ["+", "21", "14", "35"],
        ["-", "9", "56", "65"],
        ["total", "30", "70", "100"],
    ]


def test_headline_values_and_intervals(
    page: Node, binary: Evaluation, intervals: Bootstrap
) -> None:
    """Informedness 0.5 and markedness 0.4615 (21/35 + 56/65 - 1), with their intervals."""
    cards = {
        c.attrs["data-measure"]: c for c in page.by_id("headline").find_all("div", class_="card")
    }
    assert list(cards) == ["informedness", "markedness", "correlation"]
    assert cards["informedness"].find("div", class_="value").text() == "0.5000"
    assert cards["markedness"].find("div", class_="value").text() == "0.4615"
    for name, card in cards.items():
        assert MEASURES[name].title in card.text()
        assert MEASURES[name].formula in card.text()
        low, high = intervals.intervals[name].low, intervals.intervals[name].high
        assert f"95 % interval [{fmt(low)}, {fmt(high)}]" in card.text()


def test_every_measure_from_the_registry(page: Node, binary: Evaluation) -> None:
    """One row per registry measure: title, value, interval, range, chance, formula, source."""
    for name, measure in MEASURES.items():
        cells = row_by(page, "measures-table", "data-measure", name)
        assert cells[0].startswith(measure.title)
        assert cells[1] == fmt(binary.measures[name])
        assert cells[2].startswith("[") or cells[2] == "—"
        assert measure.formula in cells[5] and measure.source in cells[5]
    assert row_by(page, "measures-table", "data-measure", "informedness")[3] == "[-1, 1]"
    assert row_by(page, "measures-table", "data-measure", "informedness")[4] == "0"
    assert row_by(page, "measures-table", "data-measure", "bias_ratio")[3] == "[0, ∞)"


def test_payoff_cells(page: Node, binary: Evaluation) -> None:
    """Each payoff row: the cells, won (the label's informedness) and weighted."""
    pay = payoff(binary.table)
    for i, label in enumerate(pay.labels):
        cells = row_by(page, "payoff-table", "data-label", str(label))
        expected = [fmt(float(v)) for v in pay.matrix[i]]
        assert cells[1:] == [*expected, fmt(float(pay.won[i])), fmt(float(pay.weighted[i]))]
    assert page.by_id("payoff-total").text() == fmt(pay.informedness) == "0.5000"


def test_per_label_cells(page: Node, binary: Evaluation) -> None:
    """Per label: every value of the one-vs-rest view, in the registry's title order."""
    header = table_rows(page, "per-label-table")[0]
    for label, values in binary.per_label.items():
        cells = row_by(page, "per-label-table", "data-label", str(label))
        for title, cell in zip(header[1:-1], cells[1:-1], strict=True):
            name = next(n for n, m in MEASURES.items() if m.title == title)
            assert cell == fmt(values[name]), (label, name)
    # 35 predicted +, 30 actually +: over-predicted by 35/30
    assert row_by(page, "per-label-table", "data-label", "+")[-1] == "over-predicted ×1.17"


def test_ranking_numbers(page: Node, seed_ranking: Ranking) -> None:
    """AUC, PEM (Arbel & Rokach's Table 5: 1.75/3), S1-S3 and the lift table, from the Ranking."""
    assert row_by(page, "ranking-table", "data-measure", "auc")[1] == fmt(auc(seed_ranking))
    assert (
        row_by(page, "ranking-table", "data-measure", "pem")[1]
        == fmt(pem(seed_ranking))
        == "0.5833"
    )
    s1, s2, s3 = pem_areas(seed_ranking)
    assert (
        [row_by(page, "ranking-table", "data-measure", k)[1] for k in ("s1", "s2", "s3")]
        == [
            "1.7500",
            "0.0000",
            "3.0000",
        ]
        == [fmt(s1), fmt(s2), fmt(s3)]
    )
    lift = lift_table(seed_ranking)
    rows = table_rows(page, "lift-table")[1:]
    assert len(rows) == 10
    assert [r[4] for r in rows] == [fmt(v) for v in lift.lift]
    assert [r[7] for r in rows] == [fmt(v) for v in lift.cumulative_qrecall]
    quota_rows = table_rows(page, "quota-table")[1:]
    assert [r[0] for r in quota_rows] == ["3", "5"]
    assert quota_rows[0][1] == "0.6667" and quota_rows[1][2] == "0.7500"  # their Table 2


def _figure_ids(root: Node) -> list[str]:
    return [f.attrs.get("id", "") for f in root.find_all("figure")]


@pytest.fixture(scope="module")
def pages(page: Node, binary: Evaluation, seed_ranking: Ranking) -> dict[str, Node]:
    """The page of an evaluation alone, of a ranking alone, and of both."""
    return {
        "evaluation": parse(html_report(binary)),
        "ranking": parse(html_report(ranking=seed_ranking)),
        "both": page,
    }


@pytest.mark.parametrize("which", ["evaluation", "ranking", "both"])
def test_figures_present(which: str, pages: dict[str, Node]) -> None:
    """Each plot its <figure> with an <svg> and a caption naming good, chance and the source."""
    root = pages[which]
    with_evaluation, with_ranking = which != "ranking", which != "evaluation"
    expected = [
        *(EVALUATION_FIGURES if with_evaluation else ()),
        *(RANKING_FIGURES + CALIBRATION_FIGURES if with_ranking else ()),
    ]
    assert sorted(_figure_ids(root)) == sorted(FIGURES[k] for k in expected)
    for key in expected:
        figure = root.by_id(FIGURES[key])
        svg = figure.find("svg")
        drawn = [n for n in svg.iter() if n.tag in ("path", "use", "text")]
        assert len(drawn) > 10, key
        assert not svg.find_all("image"), key  # vector, no embedded bitmap
        caption = figure.find("figcaption").text()
        assert "Good:" in caption and "Chance:" in caption, key
        assert "Source" in caption and cited(caption), key
        assert "seed" not in caption.lower(), key
    assert (root.find_all(id="headline") != []) == with_evaluation
    assert (root.find_all(id="ranking") != []) == with_ranking


def test_captions_cite_the_papers(page: Node) -> None:
    """Ranking plots cite Arbel & Rokach (2006); table plots Powers (2003) and the poster;
    each work cited is listed in full in the page's references."""
    for key in RANKING_FIGURES:
        assert "Arbel & Rokach (2006)" in page.by_id(FIGURES[key]).find("figcaption").text()
    assert "Powers (2003)" in page.by_id(FIGURES["heatmap"]).find("figcaption").text()
    labels = page.by_id(FIGURES["labels"]).find("figcaption").text()
    assert MEASURES["informedness"].source in labels and MEASURES["markedness"].source in labels
    listed = [item.text() for item in page.by_id("references").find_all("li")]
    text = " ".join(n.text() for n in page.find_all("figcaption"))
    for key in cited(text):
        assert REFERENCES[key] in listed, key
    assert "Arbel, R. & Rokach, L. (2006). Classifier evaluation under limited resources." in (
        " ".join(listed)
    )


def test_labels_are_escaped(multiclass: Evaluation) -> None:
    """A label or file name holding markup stays text, in tables and in plots."""
    text = html_report(multiclass, source=HOSTILE, title=f"report {HOSTILE}")
    root = parse(text)
    assert "<script" not in text
    assert not root.find_all("script")
    assert HOSTILE in root.find("title").text() and HOSTILE in root.find("h1").text()
    assert HOSTILE in row_by(root, "per-label-table", "data-label", HOSTILE)[0]
    assert row_by(root, "per-label-table", "data-label", 'say "cheese" & $x$')
    # tick labels of the heat map: text, cut to 18 characters, not mathtext
    ticks = [t.text() for t in root.by_id(FIGURES["heatmap"]).find_all("text")]
    assert HOSTILE[:17] + "…" in ticks
    assert 'say "cheese" & $x$' in ticks


def test_nothing_is_fetched(both: str, page: Node) -> None:
    """No element loads anything: no link, image or frame, no script from elsewhere; no URL
    in src or href. The page's scripts are the live operating point's data and its one
    script, both inline."""
    assert external_references(page) == []
    for tag in ("link", "img", "iframe", "object", "embed", "audio", "video", "base"):
        assert page.find_all(tag) == [], tag
    scripts = page.find_all("script")
    assert [s.attrs.get("type") for s in scripts] == ["application/json", None]
    assert all("src" not in s.attrs for s in scripts)
    assert "http://" not in both and "https://" not in both
    for style in page.find_all("style"):
        assert "@import" not in style.text() and "url(" not in style.text()


def test_ids_are_unique_and_references_resolve(page: Node) -> None:
    """Several SVGs share the page: every id is unique and every #reference exists."""
    ids = [n.attrs["id"] for n in page.iter() if "id" in n.attrs]
    assert len(ids) == len(set(ids))
    references = [
        value[1:]
        for n in page.iter()
        for name, value in n.attrs.items()
        if name in ("href", "xlink:href") and value.startswith("#")
    ]
    references += [
        value[5:-1] for n in page.iter() for value in n.attrs.values() if value.startswith("url(#")
    ]
    assert references and set(references) <= set(ids)


def test_the_same_input_gives_the_same_bytes(
    both: str, binary: Evaluation, seed_ranking: Ranking, intervals: Bootstrap
) -> None:
    """No date, no random id: two renderings are identical."""
    again = html_report(
        binary,
        seed_ranking,
        intervals=intervals,
        source="seed.csv",
        ranking_positive=1,
        quotas=[3, 5],
    )
    assert again == both


def test_many_labels_are_capped() -> None:
    """45 labels: tables list the 30 most frequent and say how many are left out."""
    labels = [f"class-{k:02d}" for k in range(45)]
    sizes = np.arange(45, 0, -1) * 4  # class-00 is the most frequent, class-44 the least
    actual = np.repeat(labels, sizes)
    predicted = actual.copy()
    predicted[::10] = "class-00"  # one error in ten, all to the most frequent class
    evaluation = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    root = parse(html_report(evaluation))
    per_label = table_rows(root, "per-label-table")[1:]
    assert len(per_label) == 30
    assert [r[0] for r in per_label] == labels[:30]
    assert "Showing 30 of 45 labels" in root.by_id("per-label").text()
    assert "15 are left out" in root.by_id("per-label").text()
    contingency = table_rows(root, "contingency-table")
    assert len(contingency) == 1 + 30 + 1 and len(contingency[0]) == 1 + 30 + 1
    assert contingency[-1][-1] == f"{evaluation.table.n:,}"  # N counts every label
    heat = root.by_id(FIGURES["heatmap"])
    ticks = {t.text() for t in heat.find_all("text")}
    assert "class-19" in ticks and "class-20" not in ticks
    assert "20 most frequent of 45 labels" in heat.find("figcaption").text()


def test_undefined_values_say_why() -> None:
    """No -P predictions: markedness is undefined, and the page says so."""
    evaluation = evaluate(Table.binary(tp=10, fp=5, fn=0, tn=0), positive="+")
    root = parse(html_report(evaluation))
    cells = row_by(root, "measures-table", "data-measure", "markedness")
    assert cells[1] == "undefined" and cells[-1] == "undefined: no -P predictions"
    card = root.by_id("headline").find("div", class_="card", data_measure="markedness")
    assert "undefined" in card.text() and "no -P predictions" in card.text()
    per_label = root.by_id("per-label").find("details").text()
    assert "Markedness: no -P predictions" in per_label  # label +
    assert "Precision: no +P predictions" in per_label  # label -, never predicted


def test_an_undefined_ranking_still_has_its_figures() -> None:
    """No actual positives: ROC, Qrecall and lift are undefined, and their figures say why."""
    ranking = Ranking.from_scores(actual=[0, 0, 0], scores=[0.3, 0.2, 0.1], positive=1, negative=0)
    root = parse(html_report(ranking=ranking))
    for key in RANKING_FIGURES:
        svg_text = " ".join(t.text() for t in root.by_id(FIGURES[key]).find_all("text"))
        assert "undefined: no actual positives (n+ = 0)" in svg_text, key
    assert (
        row_by(root, "ranking-table", "data-measure", "auc")[-1]
        == "undefined: no actual positives (n+ = 0)"
    )


def test_large_rankings_are_thinned() -> None:
    """100 000 distinct scores: the page stays small (curves drawn through ~2000 points)."""
    rng = np.random.default_rng(3)
    actual = rng.random(100_000) < 0.2
    scores = rng.normal(size=100_000) + actual
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    text = html_report(ranking=ranking)
    assert len(text) < 1_000_000


def test_operating_point_when_the_classes_match(binary: Evaluation, page: Node) -> None:
    """The evaluated predictions are marked on the ROC plane only for the ranked class."""
    ranking = Ranking.from_scores(actual=["+", "-", "+", "-"], scores=[4, 3, 2, 1], positive="+")
    marked = parse(html_report(binary, ranking, ranking_positive="+"))
    assert marked.find_all(id="plot-roc-operating-point")
    assert "The diamond is the evaluated predictions" in marked.by_id(FIGURES["roc"]).text()
    # `page` ranks class 1 while the evaluation's positive label is "+": no point
    assert not page.find_all(id="plot-roc-operating-point")


def test_write_is_atomic(tmp_path: Path, binary: Evaluation) -> None:
    """The file appears whole; a failed write leaves the earlier report and no temporary."""
    target = tmp_path / "report.html"
    assert write_html_report(target, binary) == target
    first = target.read_text(encoding="utf-8")
    assert first == html_report(binary)
    with pytest.raises(ValueError, match="`max_labels` must be a positive integer"):
        write_html_report(target, binary, max_labels=0)
    assert target.read_text(encoding="utf-8") == first
    assert os.listdir(tmp_path) == ["report.html"]


def test_unusual_tables_and_rankings() -> None:
    """N = 0, clusters against classes (K != C), weights, one class only: a page each."""
    empty = evaluate(Table.binary(tp=0, fp=0, fn=0, tn=0))
    root = parse(html_report(empty, max_labels=1))
    assert root.by_id("headline").find("div", class_="value undefined")
    assert table_rows(root, "contingency-table")[-1] == ["total", "0", "0"]
    assert "Showing 1 of 2 labels" in root.by_id("per-label").text()
    clusters = Table.from_counts(
        [[5, 1], [2, 7], [3, 3]], rows="predicted", predicted=[0, 1, 2], actual=[0, 1]
    )
    rows = table_rows(parse(html_report(evaluate(clusters))), "contingency-table")
    assert rows[0] == ["predicted \\ actual", "0", "1", "total"]
    assert rows[3] == ["2", "3", "3", "6"]
    weighted = Ranking.from_scores(
        actual=[1, 0, 1, 0], scores=[0.5] * 4, positive=1, weights=[0.5, 1.5, 2.0, 1.0]
    )
    only_positives = Ranking.from_scores(actual=[1, 1, 1], scores=[0.3, 0.2, 0.1], positive=1)
    for ranking in (weighted, only_positives):
        root = parse(html_report(ranking=ranking))
        expected = RANKING_FIGURES + CALIBRATION_FIGURES  # their scores are probabilities
        assert sorted(_figure_ids(root)) == sorted(FIGURES[k] for k in expected)
    roc = " ".join(t.text() for t in root.by_id(FIGURES["roc"]).find_all("text"))
    assert "undefined: no actual negatives (n- = 0)" in roc


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "needs an `evaluation`, a `ranking` or a `comparison`"),
        ({"ranking": "r", "intervals": "b"}, "pass the `evaluation`"),
        ({"evaluation": "e", "intervals": "b-"}, "bootstrap the same view"),
        ({"ranking": "r", "summary": "s", "quotas": [3]}, "not both"),
        ({"evaluation": "e", "quotas": [3]}, "need a `ranking`"),
        ({"evaluation": "e", "max_labels": 0}, "positive integer"),
    ],
)
def test_argument_errors(
    kwargs: dict[str, object],
    message: str,
    binary: Evaluation,
    seed_ranking: Ranking,
    intervals: Bootstrap,
) -> None:
    """Missing or contradictory arguments are errors that say what to pass."""
    given = {
        "e": binary,
        "r": seed_ranking,
        "b": intervals,
        "b-": bootstrap(binary.table, positive="-", replicates=20, seed=0),
        "s": summarize_ranking(seed_ranking),
    }
    resolved = {k: given.get(v, v) if isinstance(v, str) else v for k, v in kwargs.items()}
    with pytest.raises(ValueError, match=message):
        html_report(**resolved)  # type: ignore[arg-type]


def test_argument_types(binary: Evaluation) -> None:
    """A Table where an Evaluation is expected is a TypeError that names both."""
    with pytest.raises(TypeError, match=r"must be an Evaluation .* got Table"):
        html_report(binary.table)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"must be a Ranking .* got list"):
        html_report(ranking=[0.5, 0.2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"`intervals` must be a Bootstrap .* got dict"):
        html_report(binary, intervals={"informedness": [0.1, 0.2]})  # type: ignore[arg-type]


def test_label_cells_never_break_inside_a_word(both: str) -> None:
    """The page's style lets a label wrap at a space only: `overflow-wrap: anywhere` (or
    `word-break: break-all`) on label cells split "malignant" as "maligna / nt" in a
    narrow column. Only a label longer than LONG_LABEL characters (class "long") may
    wrap inside a word, in a column at least 12 em wide. (The browser test measures the
    lines in Chromium.)"""
    style = both.split("<style>", 1)[1].split("</style>", 1)[0]
    rules = [r.strip() for r in style.split("}") if r.strip().startswith("th.label")]
    assert rules, "no rule for th.label"
    for rule in rules:
        assert "anywhere" not in rule and "break-all" not in rule, rule
        assert "overflow-wrap: normal" in rule and "word-break: normal" in rule, rule
    (long,) = [r.strip() for r in style.split("}") if r.strip().startswith("th.long {")]
    assert "min-width: 12em" in long
    assert label_css("m" * LONG_LABEL) == "label"
    assert label_css("m" * (LONG_LABEL + 1)) == "label long"


def test_many_long_column_labels_are_written_upwards() -> None:
    """Eight labels of 12 characters or more: the column labels of the contingency and
    payoff tables are written upwards, a column as narrow as its numbers; two short
    labels stay across."""
    labels = [f"category_{k:03d}" for k in range(8)]
    actual = np.repeat(labels, 10)
    many = parse(html_report(evaluate(Table.from_labels(actual=actual, predicted=actual))))
    few = parse(html_report(evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+")))
    for table_id in ("contingency-table", "payoff-table"):
        heads = many.by_id(table_id).find("thead").find_all("th")
        upwards = [c.text() for c in heads if "vertical" in c.attrs.get("class", "").split()]
        assert upwards == labels, table_id
        heads = few.by_id(table_id).find("thead").find_all("th")
        assert not [c for c in heads if "vertical" in c.attrs.get("class", "")], table_id
