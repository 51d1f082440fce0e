"""`informed evaluate FILE --score S --by COL` with probabilities: calibration within
slices in the terminal, the JSON and the HTML page, each slice's MCB equal to the brute
force over its rows; scores that are not probabilities get the reason and the rest of
the report is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

from informed.cli import main

DATA = Path(__file__).resolve().parents[2] / "src" / "informed" / "data"
SLICES = DATA / "breast_cancer_slices.csv"


def _args(path: Path, *extra: str) -> list[str]:
    return [
        "evaluate",
        str(path),
        "--actual",
        "actual",
        "--predicted",
        "predicted",
        "--score",
        "score",
        "--positive",
        "malignant",
        "--by",
        "texture",
        "--quiet",
        *extra,
    ]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def _rows(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lines = [line.split(",") for line in path.read_text().splitlines()[1:]]
    texture = np.array([line[5] for line in lines])
    actual = np.array([line[1] == "malignant" for line in lines], dtype=int)
    scores = np.array([float(line[3]) for line in lines])
    return texture, actual, scores


def test_json_gives_each_slice_the_mcb_of_its_rows(capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(_run(_args(SLICES, "--format", "json", "--ci", "0.95"), capsys))
    section = document["calibration"]
    texture, actual, scores = _rows(SLICES)
    values = {}
    for entry in section["slices"]:
        keep = texture == entry["name"]
        y, s = actual[keep], scores[keep]
        fitted = IsotonicRegression(out_of_bounds="clip").fit(s, y).predict(s)
        expected = np.mean((s - y) ** 2) - np.mean((fitted - y) ** 2)
        assert entry["miscalibration"] == pytest.approx(expected, abs=1e-12)
        low, high = entry["miscalibration_interval"]
        assert low < entry["miscalibration"] < high
        values[entry["name"]] = entry["miscalibration"]
    assert section["spread"]["estimate"] == pytest.approx(
        max(values.values()) - min(values.values()), abs=1e-15
    )
    assert section["level"] == 0.95 and section["replicates"] == 1000
    assert document["slices"][0]["ranking"]["auc"] is not None  # the rest is still there


def test_without_ci_the_estimates_are_the_same_and_have_no_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bootstrap of every slice's isotonic fit is O(replicates x distinct scores):
    the command line runs it only with --ci, as it does for all the rows' calibration."""
    with_ci = json.loads(_run(_args(SLICES, "--format", "json", "--ci", "0.95"), capsys))
    plain = json.loads(_run(_args(SLICES, "--format", "json"), capsys))
    section = plain["calibration"]
    assert section["replicates"] == 0
    for entry, resampled in zip(section["slices"], with_ci["calibration"]["slices"], strict=True):
        assert entry["miscalibration"] == resampled["miscalibration"]
        assert entry["score"] == resampled["score"]
        assert entry["miscalibration_interval"] == [None, None]
        assert entry["interval_reason"] == "not resampled (replicates=0)"
    assert section["spread_all"]["estimate"] == with_ci["calibration"]["spread_all"]["estimate"]
    assert section["spread_all"]["interval"] == [None, None]
    page = tmp_path / "slices.html"
    out = _run(_args(SLICES, "--html", str(page)), capsys)
    assert "no intervals; --ci LEVEL gives them, from 1,000 replicates of each slice" in out
    assert "[—]" not in out.split("Calibration within slices")[1]
    assert "no intervals; --ci LEVEL gives them" in page.read_text()


def test_text_and_html_show_the_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "slices.html"
    out = _run(_args(SLICES, "--html", str(page), "--ci", "0.95"), capsys)
    assert "Calibration within slices: scores read as probabilities of 'malignant'" in out
    assert "spread of MCB (max - min): 0.0032" in out
    assert "spread of informedness" in out  # the disparities are unchanged
    html = page.read_text()
    assert 'id="slice-calibration-table"' in html and 'data-slice="high"' in html
    assert "Stable reliability diagrams" in html  # the reference, in full


def test_scores_that_are_not_probabilities_give_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = SLICES.read_text().splitlines()
    scaled = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        cells[3] = repr(10 * float(cells[3]))
        scaled.append(",".join(cells))
    path = tmp_path / "margins.csv"
    path.write_text("\n".join(scaled) + "\n")
    out = _run(_args(path), capsys)
    assert "Calibration within slices: none (slice " in out and "outside [0, 1]" in out
    assert "spread of informedness" in out
    document = json.loads(_run(_args(path, "--format", "json"), capsys))
    assert "outside [0, 1]" in document["calibration"]["undefined"]
    assert document["slices"][0]["ranking"]["auc"] is not None
    page = tmp_path / "margins.html"
    _run(_args(path, "--html", str(page)), capsys)
    html = page.read_text()
    reason = html.split('id="slice-calibration-none">', 1)[1].split("</p>", 1)[0]
    assert "outside [0, 1]" in reason
    assert reason.endswith("do not.") and not reason.endswith("..")  # one full stop


def test_without_scores_there_is_no_section(capsys: pytest.CaptureFixture[str]) -> None:
    args = [a for a in _args(SLICES, "--format", "json") if a not in ("--score", "score")]
    assert json.loads(_run(args, capsys))["calibration"] is None
