"""`informed evaluate --score ... --threshold best | T`: the operating point in text and JSON."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from informed.cli import main
from informed.io import read_columns

DEMO = str(resources.files("informed") / "data" / "breast_cancer_cv.csv")
BASE = ["evaluate", DEMO, "--actual", "actual", "--score", "score", "--positive", "malignant"]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([*args, "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_best_threshold_in_json_is_the_brute_force_best(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The JSON operating point is the best informedness over every cut of the scores."""
    code, out, _ = _run([*BASE, "--threshold", "best", "--format", "json", "--ci", "0.9"], capsys)
    assert code == 0
    entry = json.loads(out)["threshold"]
    columns = read_columns(DEMO, labels=["actual"], numbers=["score"])
    scores, positive = columns.numbers["score"], columns.labels["actual"] == "malignant"
    best = max(
        np.mean(scores[positive] >= t) - np.mean(scores[~positive] >= t) for t in np.unique(scores)
    )
    assert entry["value"] == pytest.approx(best, abs=1e-12)
    predicted = scores >= entry["threshold"]
    assert entry["counts"]["tp"] == int(np.sum(predicted & positive))
    assert entry["counts"]["fn"] == int(np.sum(~predicted & positive))
    low, high = entry["interval"]
    assert low <= entry["value"] <= high


def test_fixed_threshold_text(capsys: pytest.CaptureFixture[str]) -> None:
    """A given threshold: the text names it, its table and its value."""
    code, out, _ = _run([*BASE, "--threshold", "0.5", "--optimise", "f_measure"], capsys)
    assert code == 0
    assert "Operating point: score >= 0.5 (the threshold given)" in out
    assert "F-measure" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [
                "evaluate",
                DEMO,
                "--actual",
                "actual",
                "--predicted",
                "predicted",
                "--threshold",
                "best",
            ],
            "--score",
        ),
        ([*BASE, "--threshold", "high"], "a number or 'best'"),
    ],
)
def test_bad_threshold(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A threshold without scores, or not a number: one line, exit status 2."""
    code, _, err = _run(args, capsys)
    assert code == 2 and message in err and err.count("\n") == 1
