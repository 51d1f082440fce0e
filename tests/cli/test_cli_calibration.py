"""`informed evaluate --score` with probabilities reports calibration and the decision
curve (text and JSON), held to scikit-learn and to net benefit counted from the file's
rows; scores that are no probabilities get no section and the JSON says why; partial
summaries merged by `informed merge` report the same section as the whole file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from informed.cli import main

DATA = Path(__file__).resolve().parents[2] / "src" / "informed" / "data" / "breast_cancer_cv.csv"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _rows() -> tuple[np.ndarray, np.ndarray]:
    lines = DATA.read_text().splitlines()[1:]
    actual = np.array([line.split(",")[1] == "malignant" for line in lines], dtype=int)
    scores = np.array([float(line.split(",")[3]) for line in lines])
    return actual, scores


def _evaluate(path: Path, *extra: str) -> list[str]:
    return [
        "evaluate",
        str(path),
        "--actual",
        "actual",
        "--score",
        "score",
        "--positive",
        "malignant",
        *extra,
    ]


def test_json_calibration_matches_scikit_learn_and_the_rows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sklearn.calibration import calibration_curve
    from sklearn.metrics import brier_score_loss

    code, out, _ = _run(_evaluate(DATA, "--format", "json"), capsys)
    assert code == 0
    section = json.loads(out)["calibration"]
    actual, scores = _rows()
    assert section["brier"]["score"] == pytest.approx(brier_score_loss(actual, scores), abs=1e-12)
    observed, _ = calibration_curve(actual, scores, n_bins=10)
    assert section["binned"]["uniform"]["observed"] == pytest.approx(observed.tolist(), abs=1e-12)
    curve = section["decision_curve"]
    for p, nb in zip(curve["threshold"], curve["net_benefit"], strict=True):
        acted = scores >= p
        expected = (
            np.sum(acted & (actual == 1)) - np.sum(acted & (actual == 0)) * p / (1 - p)
        ) / scores.size
        assert nb == pytest.approx(expected, abs=1e-15)
    assert 0.1 in curve["threshold"] and pytest.approx(actual.mean()) in curve["threshold"]
    assert section["recalibration"]["slope"] > 1  # the shipped logistic scores are timid


def test_text_reports_calibration_and_where_acting_beats_both_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(_evaluate(DATA), capsys)
    assert code == 0
    assert "Calibration: scores read as probabilities of 'malignant'" in out
    assert "= MCB" in out and "calibration slope" in out
    assert "The model beats treating all and treating none for p_t in" in out
    assert "Dimitriadis, T., Gneiting, T. & Jordan, A. I. (2021)" in " ".join(out.split())


def test_scores_that_are_no_probabilities_get_no_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "margins.csv"
    path.write_text("y,s\n1,2.5\n0,-1.0\n1,0.3\n0,0.2\n")
    args = ["evaluate", str(path), "--actual", "y", "--score", "s", "--positive", "1"]
    code, out, _ = _run([*args, "--format", "json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert "2.5 lies outside [0, 1]" in document["calibration"]["undefined"]
    assert document["ranking"]["auc"] == 1.0
    code, out, _ = _run(args, capsys)
    assert code == 0 and "Calibration" not in out


def test_merged_partial_summaries_report_the_same_calibration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = DATA.read_text().splitlines()
    parts = []
    for i in range(2):
        path = tmp_path / f"part{i}.csv"
        path.write_text("\n".join([lines[0], *lines[1 + i :: 2]]) + "\n")
        summary = tmp_path / f"part{i}.json"
        code, _, err = _run(_evaluate(path, "--partial", str(summary), "--quiet"), capsys)
        assert code == 0, err
        parts.append(str(summary))
    code, merged, _ = _run(["merge", *parts, "--format", "json"], capsys)
    assert code == 0
    code, whole, _ = _run(_evaluate(DATA, "--format", "json"), capsys)
    assert json.loads(merged)["calibration"] == json.loads(whole)["calibration"]


def test_an_infinite_log_score_is_written_as_infinity_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A positive scored 0 makes the log score +inf: the JSON (which holds no inf number)
    says "Infinity" and why, as a Ranking's JSON writes an infinite score; found by the
    fuzzing of every output (tests/report/test_safe_output.py)."""
    path = tmp_path / "zero.csv"
    path.write_text("y,s\n1,0\n0,0.3\n1,0.6\n")
    args = ["evaluate", str(path), "--actual", "y", "--score", "s", "--positive", "1"]
    code, out, err = _run([*args, "--format", "json"], capsys)
    assert code == 0, err
    log = json.loads(out)["calibration"]["log"]
    assert log["score"] == "Infinity" and "-log 0" in log["infinite"]
    assert isinstance(log["discrimination"], float)


def test_scores_against_the_outcomes_report_no_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model worse than both defaults everywhere: the report says so (it crashed on an
    empty search; found by the fuzzing of every output)."""
    path = tmp_path / "wrong.csv"
    path.write_text("y,s\n1,0.2\n0,0.8\n")
    args = ["evaluate", str(path), "--actual", "y", "--score", "s", "--positive", "1"]
    code, out, err = _run(args, capsys)
    assert code == 0, err
    assert "beats treating all and treating none at no threshold probability" in out
    code, out, err = _run([*args, "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["calibration"]["decision_curve"]["beats_defaults"] == []


def test_a_narrow_terminal_gets_every_value_of_the_decision_curve_whole() -> None:
    """At 60 columns the decision curve's five columns were cut to "…": its table is now
    shared out into parts that fit, each repeating p_t, every value printed whole."""
    import numpy as np

    from informed import Ranking
    from informed.report.calibration import calibration_report, render_calibration

    rng = np.random.default_rng(0)
    actual = rng.random(2000) < 0.4
    scores = np.clip(0.4 + 0.3 * (actual - 0.4) + rng.normal(0, 0.2, 2000), 0, 1)
    report = calibration_report(Ranking.from_scores(actual, scores, positive=True))
    assert report is not None
    narrow = render_calibration(report, True, width=60)
    assert "…" not in narrow
    curve = report.decision
    for i in range(curve.thresholds.size):
        assert f"{curve.treat_all[i]:.4f}" in narrow
        assert f"{curve.interventions_avoided[i]:.1f}" in narrow


def test_ci_gives_every_calibration_number_an_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--ci: each calibration number's percentile interval from the tie groups resampled
    (calibration_bands at the same level and seed), in the JSON, the terminal and the
    page; each brackets its estimate here, and the seed makes them repeat."""
    from informed.inference import calibration_bands
    from informed.io import read_summaries

    page = tmp_path / "report.html"
    args = _evaluate(DATA, "--ci", "0.9", "--seed", "3", "--quiet")
    code, out, _ = _run([*args, "--format", "json", "--html", str(page)], capsys)
    assert code == 0
    section = json.loads(out)["calibration"]
    assert section["ci_level"] == 0.9 and section["replicates"] == 1000
    ranking = read_summaries(str(DATA), actual="actual", scores="score", positive="malignant")
    bands = calibration_bands(ranking.ranking, replicates=1000, level=0.9, seed=3)
    for name, found in bands.intervals.items():
        assert section["intervals"][name] == found.as_list(), name
        low, high = found.as_list()
        assert low is not None and high is not None and low < found.estimate < high, name
    assert section["intervals"]["miscalibration"][0] > 0  # the scores are not calibrated
    assert section["calibration_p_value"] == bands.p_value
    code, again, _ = _run([*args, "--format", "json"], capsys)
    assert json.loads(again)["calibration"] == section
    assert 'id="calibration-intervals"' in page.read_text()
    code, text, _ = _run(args, capsys)
    assert "Intervals (90 %, percentile, 1,000 replicates" in text
    line = next(row for row in text.splitlines() if row.strip().startswith("Brier MCB"))
    low, high = section["intervals"]["miscalibration"]
    assert f"[{low:.4f}, {high:.4f}]" in line
    code, plain, _ = _run(_evaluate(DATA, "--format", "json", "--quiet"), capsys)
    assert "intervals" not in json.loads(plain)["calibration"]


def test_ci_says_how_many_replicates_were_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Four tied rows, two of each class: a resample of one class has no
    calibration-in-the-large, and its replicate is left out of the interval. The terminal,
    the page and the JSON say how many, the count calibration_bands keeps."""
    from informed.inference import calibration_bands
    from informed.io import read_summaries

    rows = tmp_path / "tied.csv"
    rows.write_text("actual,score\na,0.5\nb,0.5\na,0.5\nb,0.5\n")
    page = tmp_path / "report.html"
    args = ["evaluate", str(rows), "--actual", "actual", "--score", "score", "--positive", "a"]
    args += ["--ci", "0.95", "--seed", "0", "--quiet"]
    ranking = read_summaries(str(rows), actual="actual", scores="score", positive="a")
    bands = calibration_bands(ranking.ranking, replicates=1000, level=0.95, seed=0)
    dropped = bands.intervals["in_the_large"].undefined_replicates
    # each replicate draws 4 rows: all of one class with probability 2 / 2^4 = 1/8
    assert 1000 / 8 - 4 * 10.5 < dropped < 1000 / 8 + 4 * 10.5
    note = f"calibration-in-the-large: {dropped:,} replicates undefined"
    code, text, _ = _run([*args, "--html", str(page)], capsys)
    assert code == 0
    assert note in " ".join(text.split())
    assert f"{note}." in page.read_text()
    code, out, _ = _run([*args, "--format", "json"], capsys)
    assert json.loads(out)["calibration"]["intervals_undefined_replicates"] == {
        "in_the_large": dropped
    }
