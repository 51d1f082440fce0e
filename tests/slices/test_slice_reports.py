"""Per-slice ranking summaries in every report (terminal, JSON, CSV, HTML), the HTML table
bounded with the rest pooled, the time series with a line per group and the windows that
differ from the reference marked, and no difference claimed for a slice whose replicates
all agree."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed.inference import bootstrap_slices, disparities
from informed.inference.slice_rankings import slice_rankings
from informed.ranking import Ranking
from informed.ranking.document import ranking_report
from informed.report.html.page import slices_report
from informed.report.slices import shown_slices, slices_document, slices_text
from informed.report.slices_csv import slices_csv
from informed.slices import Slices


def _scored(seed: int = 0, n: int = 900, groups: int = 4) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    actual = (rng.random(n) < 0.4).astype(int)
    scores = rng.random(n) + 0.6 * actual * (group + 1) / groups  # distinct: no ties
    predicted = (scores > 0.8).astype(int)
    return {"group": group, "actual": actual, "predicted": predicted, "scores": scores}


def _reports(data: dict[str, Any], **options: Any) -> tuple[Any, Any, Any, Slices]:
    s = Slices.from_labels(
        by=data["group"],
        actual=data["actual"],
        predicted=data["predicted"],
        scores=data["scores"],
        positive=1,
        **options,
    )
    result = bootstrap_slices(s, ["informedness", "markedness"], positive=1, seed=0)
    found = disparities(s, positive=1, replicates=200, seed=0)
    return result, found, slice_rankings(s), s


def test_json_holds_every_ranking_summary_of_every_slice() -> None:
    """Each slice's ranking summaries equal those of Ranking.from_scores on its rows (the
    registry's), its AUC scikit-learn's, its average hit rate scikit-learn's average
    precision (no ties); every summary has its definition."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    data = _scored()
    result, found, rankings, _s = _reports(data)
    document = slices_document(result, found, "x.csv", rankings=rankings)
    assert set(document["ranking_definitions"]) == {
        "auc",
        "average_hit_rate",
        "average_qrecall",
        "pem",
        "s1",
        "s2",
        "s3",
    }
    for entry in document["slices"]:
        rows = data["group"] == entry["key"][0]
        truth, scores = data["actual"][rows] == 1, data["scores"][rows]
        alone = ranking_report(
            Ranking.from_scores(actual=truth, scores=scores, positive=True, negative=False)
        )
        mine = entry["ranking"]
        for name in ("auc", "average_hit_rate", "average_qrecall", "pem"):
            assert mine[name] == alone[name]
        assert mine["pem_areas"] == alone["pem_areas"]
        assert mine["auc"] == pytest.approx(roc_auc_score(truth, scores), abs=1e-12)
        expected = average_precision_score(truth, scores)
        assert mine["average_hit_rate"] == pytest.approx(expected, abs=1e-12)
        low, high = mine["auc_interval"]
        assert low < mine["auc"] < high and mine["auc_interval_method"] == "delong-logit"
        assert mine["n_positive"] == int(truth.sum())


def test_csv_and_terminal_show_each_slices_auc() -> None:
    """CSV: AUC with its interval and the other summaries per slice, as in the JSON; the
    terminal's AUC column."""
    result, found, rankings, _s = _reports(_scored())
    table = list(csv.DictReader(io.StringIO(slices_csv(result, found, rankings=rankings))))
    document = slices_document(result, found, "x.csv", rankings=rankings)
    for row, entry in zip(table, document["slices"], strict=True):
        assert float(row["auc"]) == entry["ranking"]["auc"]
        assert float(row["auc_low"]) == entry["ranking"]["auc_interval"][0]
        assert float(row["pem"]) == entry["ranking"]["pem"]
        assert float(row["average_qrecall"]) == entry["ranking"]["average_qrecall"]
    text = slices_text(result, found, "x.csv", rankings=rankings)
    header = text.splitlines()[2]
    assert "AUC" in header
    first = next(line for line in text.splitlines()[3:] if line.startswith("3 "))
    assert f"{document['slices'][3]['ranking']['auc']:.3f}" in first


def test_an_undefined_or_degenerate_auc_says_why() -> None:
    """A slice with no negatives: AUC undefined with the registry's reason, flagged; a
    perfectly separated small slice: no DeLong point interval, the reason instead."""
    s = Slices.from_labels(
        by=["a"] * 4 + ["b"] * 3 + ["c"] * 60,
        actual=[1, 0, 1, 0] + [1, 1, 1] + [1, 0] * 30,
        predicted=[1, 0, 1, 0] + [1, 1, 0] + [1, 0] * 30,
        scores=[0.9, 0.1, 0.8, 0.2, 0.5, 0.6, 0.7, *list(np.linspace(1, 0, 60))],
        positive=1,
    )
    found = slice_rankings(s)
    assert found[0].values["auc"] == 1.0
    assert math.isnan(found[0].auc_interval.low)
    assert "the estimated variance is 0" in (found[0].auc_interval.reason or "")
    assert "too few to say" in (found[0].auc_interval.reason or "")
    assert math.isnan(found[1].values["auc"])
    assert found[1].reasons["auc"] == "no actual negatives (n- = 0)"
    assert found[1].flag == "AUC undefined: no actual negatives (n- = 0)"
    assert found[2].flag is None  # 30 positives and 30 negatives
    result = bootstrap_slices(s, ["informedness", "markedness"], positive=1, seed=0)
    entry = slices_document(result, disparities(s, positive=1, seed=0), "x")["slices"][1]
    assert entry["ranking"]["auc"] is None
    assert entry["ranking"]["undefined"]["auc"] == "no actual negatives (n- = 0)"


def test_a_slice_whose_replicates_all_agree_is_not_said_to_differ() -> None:
    """A perfect slice of 10 positives gives informedness 1 in every replicate: its
    difference from the rest and the reference has no interval (the reason says why) and
    no p-value, so it is never marked 'differs' however far from the others it is."""
    rng = np.random.default_rng(1)
    n = 400
    actual = rng.integers(0, 2, n)
    noisy = np.where(rng.random(n) < 0.7, actual, 1 - actual)
    by = np.array(["big"] * n + ["perfect"] * 20)
    truth = np.concatenate([actual, [1] * 10 + [0] * 10])
    guess = np.concatenate([noisy, [1] * 10 + [0] * 10])
    s = Slices.from_labels(by=by, actual=truth, predicted=guess)
    found = disparities(s, positive=1, reference="big", seed=0)
    gap = found.vs_reference["informedness"][1]
    assert gap.estimate == pytest.approx(0.6, abs=0.1)
    assert math.isnan(gap.low)
    assert "every replicate of slice 'perfect' gives 1" in (gap.reason or "")
    assert math.isnan(found.p_reference["informedness"][1])
    assert math.isnan(found.vs_rest["informedness"][1].low)
    assert not math.isnan(found.vs_rest["informedness"][0].low)  # the big slice has one


def test_the_html_table_pools_the_slices_not_shown_and_shows_each_auc() -> None:
    """400 slices: 30 rows and one pooled row holding the others' rows; AUC cells."""
    data = _scored(seed=2, n=8000, groups=400)
    result, found, rankings, _s = _reports(data)
    page = slices_report(result, found, overall=0.5, source="x.csv", rankings=rankings)
    shown = shown_slices(result)
    assert 20 <= len(shown) <= 30
    assert page.count('<tr data-slice="') == len(shown) + 1
    assert '<tr data-slice="pooled">' in page and f"{400 - len(shown)} more, pooled" in page
    assert '<th class="num">AUC</th>' in page and "DeLong et al. (1988)" in page


def _timed(tmp_path: Path) -> Path:
    """Four weeks, two groups; in the third week group a's predictions are coin flips."""
    rng = np.random.default_rng(4)
    lines = ["when,group,actual,predicted"]
    for week in range(4):
        for group in ("a", "b"):
            for k in range(150):
                truth = int(rng.integers(0, 2))
                flip = rng.random() < (0.5 if (week == 2 and group == "a") else 0.05)
                guess = 1 - truth if flip else truth
                day = 1 + 7 * week + k % 7
                lines.append(f"2024-01-{day:02d}T{k % 24:02d}:00,{group},{truth},{guess}")
    path = tmp_path / "weeks.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_time_series_draws_a_line_per_group_and_marks_the_windows_that_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--by-time with --by: a line and band per group, the reference squared, the window
    whose informedness fell (week 3, group a) circled and marked 'differs'."""
    from informed.cli.main import main

    path = _timed(tmp_path)
    page_path = tmp_path / "weeks.html"
    status = main(
        [
            "evaluate",
            str(path),
            "--actual",
            "actual",
            "--predicted",
            "predicted",
            "--positive",
            "1",
            "--by-time",
            "when",
            "--every",
            "1w",
            "--by",
            "group",
            "--html",
            str(page_path),
            "--format",
            "json",
        ]
    )
    assert status == 0
    page = page_path.read_text()
    assert 'id="plot-slices-time-line-0"' in page and 'id="plot-slices-time-line-1"' in page
    assert 'id="plot-slices-time-band-1"' in page and 'id="plot-slices-time-reference"' in page
    document = json.loads(capsys.readouterr().out)
    keys = [entry["key"] for entry in document["slices"]]
    fell = keys.index(["2024-01-15", "a"])
    assert f'id="plot-slices-time-differs-{fell}"' in page
    assert document["slices"][fell]["vs_reference"]["informedness"]["interval"][1] < 0
    row = page.split('<tr data-slice="when (1w)=2024-01-15, group=a">')[1].split("</tr>")[0]
    assert "differs" in row


def test_merged_windows_are_not_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--cumulative or --rolling: the windows overlap, so the reports hold no difference
    (text: the note; JSON: null with the note; CSV: empty cells; HTML: the note), the
    header counts the rows read; --reference with them is refused."""
    from informed.cli.main import main

    path = _timed(tmp_path)
    base = [
        "evaluate",
        str(path),
        "--actual",
        "actual",
        "--predicted",
        "predicted",
        "--positive",
        "1",
        "--by-time",
        "when",
        "--every",
        "1w",
    ]
    page_path = tmp_path / "merged.html"
    assert main([*base, "--rolling", "2", "--html", str(page_path)]) == 0
    text = capsys.readouterr().out
    assert "4 windows (rolling, 2 of 1w each) of 1,200 rows" in text
    assert "The windows overlap (rolling, 2 of 1w each)" in text
    assert "minus the rest" not in text and "equalized-odds" not in text
    page = page_path.read_text()
    assert "The windows overlap (rolling, 2 of 1w each)" in page and "minus the rest" not in page
    assert main([*base, "--cumulative", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["disparities"] is None and document["windows"]["merged"] == "cumulative"
    assert all(e["vs_rest"] is None and e["vs_reference"] is None for e in document["slices"])
    assert [e["rows"] for e in document["slices"]] == [300, 600, 900, 1200]
    assert main([*base, "--cumulative", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["d_informedness_vs_rest"] for row in rows] == [""] * 4
    assert main([*base, "--cumulative", "--reference", "2024-01-01"]) == 2
    assert "--reference compares windows" in capsys.readouterr().err


def test_terminal_names_are_as_wide_as_the_longest_shown() -> None:
    """A shown slice whose name is longer than the first slices' names is printed whole
    (it was cut to their width: "size=la…"); names past 30 characters end in an ellipsis."""
    rng = np.random.default_rng(3)
    keys = np.array(["a", "b", "c", "size=large", "x" * 40])[rng.integers(0, 5, 3000)]
    actual = rng.integers(0, 2, 3000)
    predicted = np.where(rng.random(3000) < 0.8, actual, 1 - actual)
    slices = Slices.from_labels(by=keys, names=["size"], actual=actual, predicted=predicted)
    result = bootstrap_slices(slices, ["informedness"], positive=1, replicates=20, seed=0)
    rows = slices_text(result, None, "x.csv").splitlines()
    assert any(row.startswith("size=large ") for row in rows)
    assert any(row.startswith("x" * 29 + "…") for row in rows)
    assert not any(row.startswith("size=la…") for row in rows)


def test_terminal_sentences_wrap_and_tables_split_to_the_width() -> None:
    """At a terminal of 60 columns every line of the report fits: sentences wrap, their
    words all kept, and a table too wide is split into blocks of its columns, each
    repeating the slice's name, every cell kept whole (a column left empty is left
    out); without a width (a pipe or a
    file) each sentence stays one line and each table row too."""
    rng = np.random.default_rng(5)
    keys = np.array(["north", "south", "east"])[rng.integers(0, 3, 3000)]
    actual = rng.integers(0, 2, 3000)
    predicted = np.where(rng.random(3000) < 0.8, actual, 1 - actual)
    slices = Slices.from_labels(by=keys, names=["region"], actual=actual, predicted=predicted)
    result = bootstrap_slices(slices, ["informedness"], positive=1, replicates=20, seed=0)
    found = disparities(slices, positive=1, replicates=20, seed=0)
    whole = slices_text(result, found, "x.csv")
    narrow = slices_text(result, found, "x.csv", width=60)
    assert all(len(line) <= 60 for line in narrow.splitlines())
    sentences = [line for line in whole.splitlines() if line and "  " not in line.strip()]
    words = " ".join(narrow.split())
    assert all(" ".join(line.split()) in words for line in sentences)  # every word, in order
    cells = Counter(x for line in whole.splitlines() if "  " in line for x in line.split())
    # every cell (a name: in every block), but the column of flags, which no slice has
    assert cells - Counter(narrow.split()) == Counter({"flag": 1})
    assert narrow.count("\nsouth ") > whole.count("\nsouth ")
    assert max(len(line) for line in whole.splitlines()) > 60
