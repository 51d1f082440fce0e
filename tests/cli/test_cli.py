"""The command line: JSON shape, text output, the demo, and every error as one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from informed import MEASURES
from informed.cli import main

ISSUE_KEYS = {"n", "labels", "table", "measures", "per_label", "payoff"}


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _csv(tmp_path: Path, text: str, name: str = "data.csv") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_json_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path, "y,yhat\na,a\na,b\nb,b\nc,a\n")
    code, out, err = _run(
        ["evaluate", path, "--actual", "y", "--predicted", "yhat", "--format", "json"], capsys
    )
    assert code == 0 and err == ""
    data: dict[str, Any] = json.loads(out)
    assert set(data) >= ISSUE_KEYS
    assert data["n"] == 4
    assert data["labels"] == {"predicted": ["a", "b"], "actual": ["a", "b", "c"]}
    assert data["table"] == [[1, 0, 1], [1, 1, 0]]
    assert set(data["measures"]) == set(MEASURES)
    # label c is never predicted: its precision is undefined and written as null
    assert data["per_label"]["c"]["precision"] is None
    assert data["measures"]["precision"] is None
    assert "label 'c'" in data["undefined"]["precision"]


def test_text_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _csv(tmp_path, "y,yhat\n1,1\n1,0\n0,0\n0,0\n")
    code, out, _ = _run(
        ["evaluate", path, "--actual", "y", "--predicted", "yhat", "--positive", "1"], capsys
    )
    assert code == 0
    assert "Informedness" in out and "0.5000" in out
    assert "Fair-odds payoff" in out


def test_demo_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo prints the report and writes the HTML report where it says."""
    html = tmp_path / "demo.html"
    code, out, err = _run(["demo", "--html", str(html)], capsys)
    assert code == 0
    assert "malignant" in out and "Informedness" in out
    assert html.is_file() and str(html) in err
    code, out, _ = _run(["demo", "--format", "json", "--html", ""], capsys)
    assert code == 0 and json.loads(out)["n"] == 569


def test_demo_matches_the_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's table is the count of the shipped CSV, checked with the csv module."""
    import csv
    from importlib import resources

    with resources.as_file(resources.files("informed") / "data" / "breast_cancer_cv.csv") as path:
        rows = list(csv.DictReader(path.open()))
    tp = sum(r["actual"] == "malignant" and r["predicted"] == "malignant" for r in rows)
    fn = sum(r["actual"] == "malignant" and r["predicted"] == "benign" for r in rows)
    _, out, _ = _run(["demo", "--format", "json", "--html", ""], capsys)
    data = json.loads(out)
    assert data["measures"]["recall"] == pytest.approx(tp / (tp + fn))


@pytest.mark.parametrize(
    ("content", "args", "needle"),
    [
        (None, ["--actual", "y", "--predicted", "yhat"], "no such file"),
        ("", ["--actual", "y", "--predicted", "yhat"], "empty"),
        ("y,yhat\n", ["--actual", "y", "--predicted", "yhat"], "no data rows"),
        ("y,yhat\na,b\n", ["--actual", "truth", "--predicted", "yhat"], "no column 'truth'"),
        (
            "y,yhat,w\na,b,-1\n",
            ["--actual", "y", "--predicted", "yhat", "--weight", "w"],
            "line 2 (data row 1), column 'w'",
        ),
        (
            "y,yhat,w\na,b,abc\n",
            ["--actual", "y", "--predicted", "yhat", "--weight", "w"],
            "'abc' is not a number",
        ),
        (
            "y,yhat,w\na,b,nan\n",
            ["--actual", "y", "--predicted", "yhat", "--weight", "w"],
            "not finite",
        ),
        (
            "y,yhat\na,b\n,b\n",
            ["--actual", "y", "--predicted", "yhat"],
            "line 3 (data row 2), column 'y'",
        ),
        ("y,yhat\na,b\na\n", ["--actual", "y", "--predicted", "yhat"], "line 3"),
        ("y,y\na,b\n", ["--actual", "y", "--predicted", "y"], "duplicate column"),
        (
            "y,yhat\na,b\n",
            ["--actual", "y", "--predicted", "yhat", "--positive", "z"],
            "--positive 'z'",
        ),
        ("y,yhat\na,b\n", ["--actual", "y", "--predicted", "yhat", "--alpha", "2"], "--alpha"),
    ],
)
def test_errors_are_one_line(
    content: str | None,
    args: list[str],
    needle: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bad files exit with status 2 and one line naming the row and column; no traceback."""
    path = str(tmp_path / "missing.csv") if content is None else _csv(tmp_path, content)
    code, out, err = _run(["evaluate", path, *args], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("informed: error:")
    assert needle in err


def test_non_utf8_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("y,yhat\ncaf\xe9,a\n".encode("latin-1"))
    code, _, err = _run(["evaluate", str(path), "--actual", "y", "--predicted", "yhat"], capsys)
    assert code == 2 and "--encoding" in err
    code, out, _ = _run(
        [
            "evaluate",
            str(path),
            "--actual",
            "y",
            "--predicted",
            "yhat",
            "--encoding",
            "latin-1",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0 and "café" in json.loads(out)["labels"]["actual"]


def test_labels_are_strings_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'NA', 'null', '007' and '7' are labels, kept distinct; a BOM does not hide a column."""
    path = tmp_path / "bom.csv"
    path.write_bytes('\ufeffy,yhat\r\nNA,null\r\n007,7\r\n"a,b","a,b"\r\n'.encode())
    code, out, _ = _run(
        ["evaluate", str(path), "--actual", "y", "--predicted", "yhat", "--format", "json"], capsys
    )
    assert code == 0
    data = json.loads(out)
    assert data["labels"]["actual"] == ["007", "NA", "a,b"]
    assert data["labels"]["predicted"] == ["7", "a,b", "null"]


def test_console_script_has_no_traceback(tmp_path: Path) -> None:
    """The installed entry point exits 2 with a single line on a missing file."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "informed.cli",
            "evaluate",
            str(tmp_path / "nope.csv"),
            "--actual",
            "a",
            "--predicted",
            "b",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_a_closed_pipe_is_not_an_error() -> None:
    """`informed demo | head -1`: the reader leaves early; no error, no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "informed", "demo", "--html", ""],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait() == 0
    assert stderr == ""
