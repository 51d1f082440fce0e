"""The terminal report and the CSV output: the right numbers on the right rows."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from informed import MEASURES, Table, evaluate
from informed.cli import main
from informed.report.text import WIDTH, render_evaluation


def _file(tmp_path: Path, rows: list[tuple[str, str]]) -> str:
    path = tmp_path / "d.csv"
    path.write_text("y,yhat\n" + "".join(f"{a},{p}\n" for a, p in rows))
    return str(path)


def _row(text: str, first: str) -> list[str]:
    """The cells of the report line whose first cell is `first`."""
    for line in text.splitlines():
        cells = line.split()
        if cells[: len(first.split())] == first.split():
            return cells[len(first.split()) :]
    raise AssertionError(f"no line starts with {first!r}")


def test_text_report_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Contingency counts with margins, the measures and the payoff are on their rows."""
    rows = [("a", "a")] * 21 + [("b", "a")] * 14 + [("a", "b")] * 9 + [("b", "b")] * 56
    assert (
        main(
            [
                "evaluate",
                _file(tmp_path, rows),
                "--actual",
                "y",
                "--predicted",
                "yhat",
                "--positive",
                "a",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert _row(out, "a")[:3] == ["21", "14", "35"]  # predicted a: actual a, actual b, total
    assert _row(out, "b")[:3] == ["9", "56", "65"]
    assert _row(out, "total")[:3] == ["30", "70", "100"]
    assert _row(out, "Informedness")[0] == "0.5000"  # the poster's half-informed table
    assert _row(out, "Recall")[0] == "0.7000"
    assert max(len(line) for line in out.splitlines()) <= WIDTH


def test_undefined_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [("noun", "noun")] * 90 + [("verb", "noun")] * 10  # the seed's "always noun" tagger
    assert (
        main(
            [
                "evaluate",
                _file(tmp_path, rows),
                "--actual",
                "y",
                "--predicted",
                "yhat",
                "--positive",
                "noun",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("Inverse precision"))
    assert "undefined" in line and "no -P predictions" in line


def test_many_labels_are_pooled() -> None:
    """Forty labels: the contingency table shows a few and pools the rest; widths hold."""
    labels = [f"class{i:02d}" for i in range(40)]
    actual = [labels[i % 40] for i in range(4000)]
    predicted = [labels[(i * 7) % 40] if i % 3 else labels[i % 40] for i in range(4000)]
    result = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    text = render_evaluation(result, "many")
    assert "pooled as 'other'" in text
    assert "not shown" in text
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    full = render_evaluation(result, "many", all_labels=True)
    assert all(label in full for label in labels)


def test_csv_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [("a", "a")] * 3 + [("b", "a")] + [("=cmd", "b")] * 2 + [("b", "b")] * 4
    assert (
        main(
            [
                "evaluate",
                _file(tmp_path, rows),
                "--actual",
                "y",
                "--predicted",
                "yhat",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    header, overall, *per_label = table
    assert header[:2] == ["scope", "label"] and header[2:] == list(MEASURES)
    assert overall[0] == "overall"
    labels = [row[1] for row in per_label]
    assert "'=cmd" in labels  # a formula-like label is neutralised
    accuracy = float(overall[header.index("accuracy")])
    assert accuracy == pytest.approx(7 / 10)
    assert all(re.fullmatch(r"[-0-9.e]*|inf", cell) for row in per_label for cell in row[2:])
