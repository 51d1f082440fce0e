"""The ranking, tally and interval sections of the command line, checked against oracles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed.cli import main

metrics = pytest.importorskip("sklearn.metrics")


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(args)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _scored_csv(tmp_path: Path, seed: int = 0, n: int = 400) -> tuple[str, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, 2, n)
    score = np.round(rng.random(n) * 0.6 + actual * 0.3, 2)  # rounded: many ties
    lines = ["y,yhat,s"] + [
        f"{'pos' if a else 'neg'},{'pos' if s > 0.5 else 'neg'},{float(s)!r}"
        for a, s in zip(actual, score, strict=True)
    ]
    path = tmp_path / "scored.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path), actual, score


def test_ranking_section_keys_and_auc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--score adds a ranking section whose AUC is scikit-learn's (ties count one half)."""
    path, actual, score = _scored_csv(tmp_path)
    data = _json(
        [
            "evaluate",
            path,
            "--actual",
            "y",
            "--score",
            "s",
            "--positive",
            "pos",
            "--quota",
            "10",
            "50",
            "--format",
            "json",
        ],
        capsys,
    )
    ranking = data["ranking"]
    assert {"auc", "average_hit_rate", "average_qrecall", "pem", "at_quota", "deciles"} <= set(
        ranking
    )
    assert set(ranking["at_quota"]) == {"10", "50"}
    assert {"hit_rate", "qrecall", "lift", "pearson", "threshold"} <= set(ranking["at_quota"]["10"])
    assert ranking["auc"] == pytest.approx(metrics.roc_auc_score(actual, score))
    assert ranking["pem"] == pytest.approx(2 * ranking["auc"] - 1)
    assert len(ranking["deciles"]) == 10
    assert "measures" not in data  # no --predicted: no contingency section


def test_both_sections(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, actual, score = _scored_csv(tmp_path, seed=1)
    data = _json(
        [
            "evaluate",
            path,
            "--actual",
            "y",
            "--predicted",
            "yhat",
            "--score",
            "s",
            "--positive",
            "pos",
            "--format",
            "json",
        ],
        capsys,
    )
    assert "measures" in data and "ranking" in data
    predicted = score > 0.5
    assert data["measures"]["recall"] == pytest.approx(metrics.recall_score(actual, predicted))


def test_score_needs_positive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _, _ = _scored_csv(tmp_path)
    assert main(["evaluate", path, "--actual", "y", "--score", "s"]) == 2
    assert "--positive" in capsys.readouterr().err


def test_bad_score_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("y,s\npos,0.5\nneg,abc\n")
    assert main(["evaluate", str(path), "--actual", "y", "--score", "s", "--positive", "pos"]) == 2
    assert "line 3 (data row 2), column 's'" in capsys.readouterr().err


def test_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--ci adds an interval per measure that holds the estimate, reproducibly."""
    path, _, _ = _scored_csv(tmp_path, seed=2)
    args = [
        "evaluate",
        path,
        "--actual",
        "y",
        "--predicted",
        "yhat",
        "--positive",
        "pos",
        "--ci",
        "0.9",
        "--format",
        "json",
    ]
    data = _json(args, capsys)
    again = _json(args, capsys)
    assert data["intervals"] == again["intervals"]
    for name in ("informedness", "recall", "precision", "markedness"):
        low, high = data["intervals"][name]
        assert low <= data["measures"][name] <= high, name


def test_demo_has_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(["demo", "--format", "json", "--html", ""], capsys)
    assert data["n"] == 569
    assert "measures" in data and "ranking" in data


TALLY = [
    {"categories": ["sports", "politics", "finance"]},
    {"assigned": ["sports", "finance"], "correct": ["sports"]},
    {"assigned": ["politics"], "correct": ["politics", "finance"]},
    {"assigned": [], "correct": ["finance"], "name": "doc3"},
    {"assigned": "sports", "correct": "sports"},
]


def test_tally_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PITFALLS' Statistics::Contingency vector (without the unknown category) via the CLI."""
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in TALLY) + "\n")
    data = _json(["tally", str(path), "--format", "json"], capsys)
    assert data["documents"] == 4
    assert data["categories"] == ["sports", "politics", "finance"]
    assert data["micro"]["precision"] == pytest.approx(0.75)
    # without the fifth document (an unknown category) recall is 3/5, not 0.5, and three of
    # the 12 document-category cells are wrong
    assert data["micro"]["recall"] == pytest.approx(3 / 5)
    assert data["micro"]["error"] == pytest.approx(3 / 12)
    assert data["macro"]["precision"] == pytest.approx((1 + 1 + 0) / 3)
    assert "maR" in data["stats_table"]


def test_tally_unknown_category_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(
        json.dumps(TALLY[0]) + "\n" + json.dumps({"assigned": ["weather"], "correct": []}) + "\n"
    )
    assert main(["tally", str(path)]) == 2
    err = capsys.readouterr().err
    assert "weather" in err and "line 2" in err


def test_undefined_ranking_values_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A null at a quota comes with its reason; a ranking with one class says why AUC is null."""
    path = tmp_path / "r.csv"
    path.write_text("y,s\npos,0.9\npos,0.8\nneg,0.1\nneg,0.2\n")
    data = _json(
        [
            "evaluate",
            str(path),
            "--actual",
            "y",
            "--score",
            "s",
            "--positive",
            "pos",
            "--quota",
            "2",
            "--format",
            "json",
        ],
        capsys,
    )
    entry = data["ranking"]["at_quota"]["2"]
    assert entry["pearson"] is None
    assert "equal" in entry["undefined"]["pearson"]  # both top outcomes are positive
    assert "undefined" not in data["ranking"]  # AUC and the summaries are defined
    one = tmp_path / "one.csv"
    one.write_text("y,s\npos,0.9\npos,0.8\n")
    data = _json(
        [
            "evaluate",
            str(one),
            "--actual",
            "y",
            "--score",
            "s",
            "--positive",
            "pos",
            "--format",
            "json",
        ],
        capsys,
    )
    assert data["ranking"]["auc"] is None
    assert "negative" in data["ranking"]["undefined"]["auc"]
