"""`informed compare`: the shipped three-model example, JSON, thresholds, and every bad
option as one line with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import Table, compare, evaluate
from informed.cli import main
from informed.io import read_columns
from informed.report.records import result_document

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "three_models.csv"
MODELS = ["logistic", "bayes", "tree"]
SCORES = [f"{m}_score" for m in MODELS]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _example(*extra: str) -> list[str]:
    return [
        "compare",
        str(EXAMPLE),
        "--actual",
        "actual",
        "--predicted",
        *MODELS,
        "--score",
        *SCORES,
        "--positive",
        "malignant",
        "--replicates",
        "200",
        "--permutations",
        "999",
        *extra,
    ]


def test_example_leaderboard(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped example: a leaderboard of the three models, differences and tests."""
    code, out, err = _run(_example(), capsys)
    assert code == 0 and err == ""
    assert "Models, best first" in out and "Paired differences from" in out
    assert "McNemar (accuracy)" in out and "DeLong (AUC)" in out
    assert all(name in out for name in MODELS)
    assert max(len(line) for line in out.splitlines()) <= 100


def test_example_json_equals_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    """--format json is Comparison.to_dict() of the same call (stamped with the result
    schema, as result_document writes it); each model's measures are evaluate() of its
    own column."""
    code, out, _ = _run(_example("--format", "json", "--seed", "3"), capsys)
    assert code == 0
    document: dict[str, Any] = json.loads(out)
    columns = read_columns(EXAMPLE, labels=["actual", *MODELS], numbers=SCORES)
    expected = result_document(
        compare(
            columns.labels["actual"],
            {m: columns.labels[m] for m in MODELS},
            scores={m: columns.numbers[s] for m, s in zip(MODELS, SCORES, strict=True)},
            positive="malignant",
            replicates=200,
            permutations=999,
            seed=3,
        )
    )
    assert document == json.loads(json.dumps(expected))
    for model in MODELS:
        table = Table.from_labels(actual=columns.labels["actual"], predicted=columns.labels[model])
        informedness = evaluate(table, positive="malignant").measures["informedness"]
        assert document["models"][model]["measures"]["informedness"] == pytest.approx(informedness)
    assert next(iter(document["models"])) == document["reference"]


def test_threshold_best_shows_the_operating_points(capsys: pytest.CaptureFixture[str]) -> None:
    """--threshold best cuts each model's scores at its best informedness."""
    args = ["compare", str(EXAMPLE), "--actual", "actual", "--score", *SCORES]
    args += ["--positive", "malignant", "--threshold", "best", "--replicates", "50"]
    args += ["--permutations", "99", "--format", "json"]
    code, out, _ = _run(args, capsys)
    assert code == 0
    document = json.loads(out)
    for model in SCORES:
        threshold = document["models"][model]["threshold"]
        assert threshold["chosen_by"] == "best" and threshold["measure"] == "informedness"
        counts = threshold["counts"]
        scores = read_columns(EXAMPLE, labels=["actual"], numbers=[model])
        predicted = scores.numbers[model] >= threshold["threshold"]
        positive = scores.labels["actual"] == "malignant"
        assert counts["tp"] == int(np.sum(predicted & positive))
        assert counts["fp"] == int(np.sum(predicted & ~positive))
    code, out, _ = _run([*args[:-2], "--threshold", "0.5"], capsys)
    assert code == 0 and "score >= threshold" in out and "given" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--predicted", "logistic"], "at least two models"),
        (["--predicted", "logistic", "bayes", "--score", "logistic_score"], "one score column"),
        (["--predicted", "logistic", "logistic"], "named twice"),
        (["--score", "logistic_score", "bayes_score"], "--positive"),
        (["--predicted", "logistic", "nope"], "no column 'nope'"),
        (["--predicted", "logistic", "bayes", "--threshold", "best"], "--threshold"),
        (
            ["--score", *SCORES, "--positive", "malignant", "--threshold", "high"],
            "a number or 'best'",
        ),
        (["--predicted", "logistic", "bayes", "--ci", "2"], "--ci"),
        (["--predicted", "logistic", "bayes", "--replicates", "1"], "--replicates"),
        (["--score", *SCORES, "--positive", "cancer"], "not a class"),
        (["--predicted", "logistic", "bayes", "--positive", "cancer"], "not a label"),
        ([], "give --predicted"),
    ],
)
def test_bad_options_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each mistake exits with status 2 and one line saying what is wrong."""
    code, out, err = _run(["compare", str(EXAMPLE), "--actual", "actual", *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("informed: error:")
    assert message in err


def test_header_only_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file with no data rows is an error, not an empty report."""
    path = tmp_path / "empty.csv"
    path.write_text("y,a,b\n")
    code, _, err = _run(["compare", str(path), "--actual", "y", "--predicted", "a", "b"], capsys)
    assert code == 2 and "no data rows" in err


def test_control_characters_never_reach_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Model names (column names) and labels holding ESC are printed escaped."""
    path = tmp_path / "evil.csv"
    bad = "m\x1b[2J"
    rows = ["y,good," + bad] + [
        f"{a},{a},{b}" for a, b in [("x\x1b", "x\x1b"), ("z", "x\x1b")] * 20
    ]
    path.write_text("\n".join(rows) + "\n")
    for fmt in ("text", "json"):
        code, out, err = _run(
            [
                "compare",
                str(path),
                "--actual",
                "y",
                "--predicted",
                "good",
                bad,
                "--replicates",
                "20",
                "--permutations",
                "9",
                "--format",
                fmt,
            ],
            capsys,
        )
        assert code == 0 and err == ""
        assert "\x1b" not in out
    assert (
        "m\\x1b[2J"
        in _run(
            [
                "compare",
                str(path),
                "--actual",
                "y",
                "--predicted",
                "good",
                bad,
                "--replicates",
                "20",
                "--permutations",
                "9",
            ],
            capsys,
        )[1]
    )


def test_example_net_benefit_section(capsys: pytest.CaptureFixture[str]) -> None:
    """The scores are probabilities: a net benefit section per model against the best,
    its difference at p_t = 0.3 as the API gives it; scores outside [0, 1] give none."""
    code, out, _ = _run(_example("--seed", "3", "--format", "json"), capsys)
    document: dict[str, Any] = json.loads(out)
    assert code == 0 and document["net_benefit_undefined"] is None
    reference = document["reference"]
    assert sorted(document["net_benefit"]) == sorted(set(MODELS) - {reference})
    code, out, _ = _run(_example("--seed", "3"), capsys)
    for model, found in document["net_benefit"].items():
        assert f"Net benefit, {model} - {reference}" in out
        at = found["threshold"].index(0.3)
        difference = found["net_benefit_difference"][at]
        low, high = (band[at] for band in found["bands"]["difference"])
        assert any(
            line.split()[:1] == ["0.3"] and f"{difference:.4f}" in line
            and f"[{low:.4f}, {high:.4f}]" in line
            for line in out.splitlines()
        )  # fmt: skip


def test_scores_with_every_weight_zero_report_no_net_benefit_and_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Weights that are all 0: no case, so no net benefit (the reason in the JSON), where
    the paired net benefit's sums raised an IndexError."""
    path = tmp_path / "zero.csv"
    path.write_text("y,s,t,w\n1,0.9,0.8,0\n0,0.2,0.3,0\n1,0.6,0.4,0\n0,0.4,0.1,0\n")
    args = ["compare", str(path), "--actual", "y", "--score", "s", "t", "--positive", "1"]
    code, out, _ = _run([*args, "--weight", "w", "--format", "json"], capsys)
    document = json.loads(out)
    assert code == 0
    assert (document["net_benefit"], document["net_benefit_undefined"]) == (
        {},
        "no cases: every weight is 0",
    )


@pytest.mark.parametrize("width", [60, 40])
def test_example_in_a_narrow_terminal_cuts_no_number(
    width: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a terminal 60 or 40 columns wide the leaderboard and the paired differences
    share their columns out over tables that fit, each repeating its key columns: no line
    is wider, no cell is cut to "…", and every difference and bound the JSON gives is
    shown whole beside its model and measure."""
    from informed.cli import output
    from informed.comparison.result import measure_title

    monkeypatch.setattr(output, "terminal_width", lambda: width)
    code, out, _ = _run(_example("--seed", "3"), capsys)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= width
    assert "…" not in out
    _, text, _ = _run(_example("--seed", "3", "--format", "json"), capsys)
    document: dict[str, Any] = json.loads(text)
    lines = out.split("Paired differences from")[1].split("Paired tests")[0].splitlines()
    for model, by_measure in document["differences"].items():
        for measure, found in by_measure.items():
            low, high = found["interval"]
            # the difference and its interval each on a row of its model and measure (in
            # one table when they fit beside the keys, in two otherwise); at 40 columns
            # the measure's name wraps beside the interval
            title = f" {measure_title(measure)} " if width == 60 else " "
            rows = [line for line in lines if line.split()[:1] == [model] and title in line]
            assert any(f"{found['estimate']:.4f}" in row for row in rows)
            assert any(f"[{low:.4f}, {high:.4f}]" in row for row in rows)
