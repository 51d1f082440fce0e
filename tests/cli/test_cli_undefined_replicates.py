"""Reports of bootstrap intervals say how many replicates were undefined and left out
(`informed.inference.interval.undefined_note`), as the calibration report does: the
terminal, the page and the JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from schema_check import check_result_document, result_validator

from informed.cli import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_positive(path: Path) -> Path:
    """12 rows, one of class 1 (predicted 1, as is one negative)."""
    rows = path / "one.csv"
    lines = ["actual,pred"] + [f"{int(i == 0)},{int(i in (0, 3))}" for i in range(12)]
    rows.write_text("\n".join(lines) + "\n")
    return rows


def test_evaluate_ci_says_how_many_replicates_were_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One positive in 12 rows: a resample without it has no recall nor informedness,
    and is left out of their intervals. The terminal (headline and every measure), the
    page and the JSON say how many, the count the bootstrap keeps."""
    from informed.inference import bootstrap
    from informed.io import read_summaries

    rows = _one_positive(tmp_path)
    table = read_summaries(str(rows), actual="actual", predicted="pred").table
    found = bootstrap(table, ["recall", "informedness"], positive="1", replicates=1000, seed=0)
    dropped = found.intervals["recall"].undefined_replicates
    assert found.intervals["informedness"].undefined_replicates == dropped
    # no positive among 12 draws: (11/12)^12 = 0.352, sd sqrt(1000 p q) = 15.1
    assert 1000 * (11 / 12) ** 12 - 4 * 15.1 < dropped < 1000 * (11 / 12) ** 12 + 4 * 15.1
    args = ["evaluate", str(rows), "--actual", "actual", "--predicted", "pred"]
    args += ["--positive", "1", "--ci", "0.95", "--seed", "0", "--quiet"]
    page = tmp_path / "report.html"
    code, text, _ = _run([*args, "--html", str(page)], capsys)
    assert code == 0
    words = " ".join(text.split())
    headline = f"Informedness, Correlation: {dropped:,} replicates undefined"
    assert headline in words
    assert "Recall, Miss rate, G-measure, Informedness," in words
    assert words.count(f"{dropped:,} replicates undefined") == 2
    html = page.read_text()
    assert f"{headline}." in html
    assert html.count(f"{dropped:,} replicates undefined.") == 2
    code, out, _ = _run([*args, "--format", "json"], capsys)
    document = json.loads(out)
    counts = document["intervals_undefined_replicates"]
    assert counts["recall"] == counts["informedness"] == dropped
    assert "accuracy" not in counts  # defined in every replicate
    check_result_document(document)


def test_folds_ci_says_how_many_replicates_were_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fold 'f0' holds one positive in 10 rows: a resample of the fold without it has no
    informedness, and is left out of the fold's interval. The terminal, the page and the
    JSON (`FoldIntervals.to_dict`) say how many, the count fold_intervals keeps."""
    from informed.inference.fold_intervals import fold_intervals
    from informed.slices import Folds

    fold = ["f0"] * 10 + ["f1"] * 10
    actual = [1] + [0] * 9 + [1, 1, 1, 1] + [0] * 6
    predicted = [1, 0, 0, 1] + [0] * 6 + [1, 1, 1, 0, 1] + [0] * 5
    rows = tmp_path / "folds.csv"
    lines = [f"{f},{a},{p}" for f, a, p in zip(fold, actual, predicted, strict=True)]
    rows.write_text("\n".join(["fold,actual,pred", *lines]) + "\n")
    folds = Folds.from_labels(folds=fold, actual=actual, predicted=predicted)
    found = fold_intervals(folds, ["informedness"], positive=1, seed=0)["informedness"]
    dropped = found.folds[0].undefined_replicates
    # no positive among 10 draws: 0.9^10 = 0.349, sd sqrt(1000 p q) = 15.1
    assert 1000 * 0.9**10 - 4 * 15.1 < dropped < 1000 * 0.9**10 + 4 * 15.1
    more = found.folds[1].undefined_replicates  # 4 positives in 10: none in 0.6^10 = 0.6 %
    assert 0 < more < 1000 * 0.6**10 + 4 * 2.5
    args = ["evaluate", str(rows), "--actual", "actual", "--predicted", "pred", "--folds"]
    args += ["fold", "--positive", "1", "--ci", "0.95", "--seed", "0", "--quiet"]
    page = tmp_path / "folds.html"
    code, text, _ = _run([*args, "--html", str(page)], capsys)
    assert code == 0
    note = f"{dropped:,} replicates undefined in fold 'f0' (and 1 fold more)"
    assert f"informedness: {note}." in " ".join(text.split())
    assert f"Informedness: {note}.".replace("'", "&#x27;") in page.read_text()
    code, out, _ = _run([*args, "--format", "json"], capsys)
    document = json.loads(out)["intervals"]["informedness"]
    assert document["undefined_replicates"] == {"f0": dropped, "f1": more}
    assert document["pooled_undefined_replicates"] == found.pooled.undefined_replicates


def _one_positive_slice(path: Path) -> tuple[Path, list[str], list[int], list[int]]:
    """Slices 'a' (5 positives in 10 rows) and 'b' (one positive in 10 rows): the file,
    then its columns."""
    group = ["a"] * 10 + ["b"] * 10
    actual = [1, 1, 1, 1, 1] + [0] * 5 + [1] + [0] * 9
    predicted = [1, 1, 1, 0, 1, 0, 0, 1, 0, 0] + [1, 0, 0, 1] + [0] * 6
    rows = path / "slices.csv"
    lines = [f"{g},{a},{p}" for g, a, p in zip(group, actual, predicted, strict=True)]
    rows.write_text("\n".join(["g,actual,pred", *lines]) + "\n")
    return rows, group, actual, predicted


def test_slices_ci_say_how_many_replicates_of_a_range_were_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Slice 'b' holds one positive in 10 rows: a resample of the slice without it has no
    informedness, so the spread of informedness over every slice is undefined in that
    replicate and left out of its interval. The terminal, the page and the JSON say how
    many, the count disparities keeps."""
    from informed.inference.disparities import disparities
    from informed.slices import Slices

    rows, group, actual, predicted = _one_positive_slice(tmp_path)
    sliced = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    found = disparities(sliced, positive=1, replicates=1000, seed=0)
    every = found.summary_all["informedness_spread"]
    dropped = every.undefined_replicates
    # no positive among slice b's 10 draws: 0.9^10 = 0.349, sd 15.1 (a's 5 of 10: 0.2 %)
    assert 1000 * 0.9**10 - 4 * 15.1 < dropped < 1000 * 0.9**10 + 4 * 15.1 + 10
    args = ["evaluate", str(rows), "--actual", "actual", "--predicted", "pred", "--by", "g"]
    args += ["--positive", "1", "--ci", "0.95", "--seed", "0", "--quiet"]
    page = tmp_path / "slices.html"
    code, text, _ = _run([*args, "--html", str(page)], capsys)
    assert code == 0
    shown = f"[{every.low:.3f}, {every.high:.3f}], {dropped:,} replicates undefined"
    assert shown in " ".join(text.split())
    assert f"over every slice: {every.estimate:.4f} {shown}" in page.read_text()
    code, out, _ = _run([*args, "--format", "json"], capsys)
    document = json.loads(out)
    spread = document["disparities"]["informedness_spread"]
    assert spread["every_slice"]["undefined_replicates"] == dropped
    check_result_document(document)


def test_scored_slices_say_how_many_replicates_of_the_auc_spread_were_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scores alone: slice 'b' holds one positive in 10 rows, so a resample of it without
    the positive has no AUC, and the spread of AUC over every slice is left out of that
    replicate. The terminal, the page and the JSON say how many."""
    rows = tmp_path / "scored.csv"
    lines = [f"a,{int(i < 5)},{(i * 7 % 10) / 10 + (0.3 if i < 5 else 0):.2f}" for i in range(10)]
    lines += [f"b,{int(i == 0)},{0.8 if i == 0 else i / 12:.2f}" for i in range(10)]
    rows.write_text("\n".join(["g,actual,score", *lines]) + "\n")
    args = ["evaluate", str(rows), "--actual", "actual", "--score", "score", "--by", "g"]
    args += ["--positive", "1", "--ci", "0.95", "--seed", "0", "--quiet"]
    code, out, _ = _run([*args, "--format", "json"], capsys)
    assert code == 0
    every = json.loads(out)["disparities"]["auc_spread"]["every_slice"]
    dropped = every["undefined_replicates"]
    # no positive among slice b's 10 draws: 0.9^10 = 0.349, sd 15.1 (a's 5 of 10: 0.2 %)
    assert 1000 * 0.9**10 - 4 * 15.1 < dropped < 1000 * 0.9**10 + 4 * 15.1 + 10
    page = tmp_path / "scored.html"
    code, text, _ = _run([*args, "--html", str(page)], capsys)
    low, high = every["interval"]
    shown = f"[{low:.3f}, {high:.3f}], {dropped:,} replicates undefined"
    assert shown in " ".join(text.split())
    assert shown in page.read_text()


def test_slices_ci_say_how_many_replicates_of_each_slice_were_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Slice 'b' holds one positive in 10 rows: a resample of it without the positive has
    no informedness, so its interval and both slices' differences from the rest (each
    the other) leave that replicate out. A note under each terminal table names the
    slice and the measure; the JSON gives each slice's counts beside its intervals."""
    rows, *_ = _one_positive_slice(tmp_path)
    args = ["evaluate", str(rows), "--actual", "actual", "--predicted", "pred", "--by", "g"]
    args += ["--positive", "1", "--ci", "0.95", "--seed", "0", "--quiet"]
    code, out, _ = _run([*args, "--format", "json"], capsys)
    assert code == 0
    document = json.loads(out)
    check_result_document(document)
    a, b = sorted(document["slices"], key=lambda entry: entry["name"])
    dropped = b["intervals_undefined_replicates"]["informedness"]
    # no positive among slice b's 10 draws: 0.9^10 = 0.349, sd sqrt(1000 p q) = 15.1
    assert 1000 * 0.9**10 - 4 * 15.1 < dropped < 1000 * 0.9**10 + 4 * 15.1
    assert "informedness" not in a.get("intervals_undefined_replicates", {})
    # minus the rest: b's no positive, or a's none or no negative (2 x 0.5^10 = 0.2 %)
    versus = b["vs_rest"]["informedness"]["undefined_replicates"]
    assert dropped <= versus < dropped + 1000 * 2 * 0.5**10 + 4 * 1.4
    assert a["vs_rest"]["informedness"]["undefined_replicates"] == versus
    assert b["vs_reference"]["informedness"]["undefined_replicates"] == versus
    code, text, _ = _run(args, capsys)
    words = " ".join(text.split())
    assert f"informedness: {dropped:,} replicates undefined in slice 'b'." in words
    note = f"d informedness: {versus:,} replicates undefined in slice 'b' (and 1 slice more)."
    assert note in words
    page = tmp_path / "cells.html"
    code, _, _ = _run([*args, "--html", str(page)], capsys)
    html = page.read_text().replace("&#x27;", "'")
    assert f"Informedness: {dropped:,} replicates undefined in slice 'b'." in html
    assert f"Informedness minus the rest: {versus:,} replicates undefined in slice 'b'" in html


def test_a_ranking_bootstrap_in_the_document_says_how_many_replicates_were_undefined() -> None:
    """One positive in 12 rows, resampled without strata: a replicate without it has no
    AUC, left out of its interval; the document of a RankingBootstrap says how many, as
    it does for the table's bootstrap."""
    from informed.inference.ranking_bootstrap import bootstrap_ranking
    from informed.ranking import Ranking
    from informed.ranking.document import summarize_ranking
    from informed.report.document import results_document

    actual = [int(i == 0) for i in range(12)]
    ranking = Ranking.from_scores(actual, [0.9 - i / 20 for i in range(12)], positive=1)
    found = bootstrap_ranking(ranking, replicates=1000, seed=0, stratified=False)
    dropped = found.intervals["auc"].undefined_replicates
    # no positive among 12 draws: (11/12)^12 = 0.352, sd sqrt(1000 p q) = 15.1
    assert 1000 * (11 / 12) ** 12 - 4 * 15.1 < dropped < 1000 * (11 / 12) ** 12 + 4 * 15.1
    document = results_document(
        ranking=summarize_ranking(ranking), positive=1, ranking_intervals=found
    )
    assert document["ranking"]["intervals_undefined_replicates"]["auc"] == dropped
    schema = {"$defs": result_validator().schema["$defs"], "$ref": "#/$defs/ranking"}
    found_errors = list(type(result_validator())(schema).iter_errors(document["ranking"]))
    assert not found_errors, found_errors[0].message
