"""Output that is always safe: no byte of a label or a file name drives the terminal, and
every CSV row parses back with the same number of fields and the same label.

The fuzz test feeds random text (control characters, escape sequences, quotes, commas,
formula starters, line separators) as labels, column names and file names through every
output of the command line: text, JSON, CSV (guarded and raw), the HTML page, the tally,
and the error messages.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from informed import Table, evaluate
from informed.cli import main
from informed.report import measures_csv, render_evaluation

CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What must never reach the terminal (a line feed ends a line and is allowed)."""

HOSTILE = ["\x1b[2J", "\x1b]0;title\x07", "\rcarriage", "\ttab", "-1", "+x", "=1+2", "@sum"]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _write(path: Path, rows: list[tuple[str, str, float]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(["y", "p", "s"])
        writer.writerows(rows)
    return path


def _guarded(cell: str) -> str:
    """The label a guarded CSV cell stands for (the rule docs/report.md gives)."""
    return cell[1:] if cell.startswith("'") else cell


# -- the cases the issue names ------------------------------------------------------------


def test_escape_sequences_in_labels_and_file_names_are_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ESC [2J (clear screen) and ESC ] 0;title BEL (retitle) print as text."""
    name = tmp_path / "\x1b]0;owned\x07data.csv"
    rows = [(HOSTILE[0], HOSTILE[0], 0.9), ("b", HOSTILE[1], 0.2), (HOSTILE[1], "b", 0.4)]
    rows += [("b", "b", 0.1)]
    path = _write(name, rows)
    code, out, err = _run(["evaluate", str(path), "--actual", "y", "--predicted", "p"], capsys)
    assert code == 0 and err == ""
    assert not CONTROL.search(out)
    assert "\\x1b[2J" in out and "\\x1b]0;owned\\x07data.csv" in out


def test_error_messages_escape_file_names_and_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one-line error, and argparse's own errors, never carry a control byte."""
    missing = tmp_path / "\x1b[2Jgone.csv"
    code, out, err = _run(["evaluate", str(missing), "--actual", "y", "--predicted", "p"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and not CONTROL.search(err) and "\\x1b[2Jgone.csv" in err
    path = _write(tmp_path / "d.csv", [("a", "b", 0.5)])
    code, _, err = _run(
        ["evaluate", str(path), "--actual", "\x1b[31mred", "--predicted", "p"], capsys
    )
    assert code == 2 and not CONTROL.search(err) and "\\x1b[31mred" in err
    with pytest.raises(SystemExit):
        main(["evaluate", str(path), "--actual", "y", "--predicted", "p", "\x1b[2J"])
    err = capsys.readouterr().err
    assert "unrecognized arguments" in err and not CONTROL.search(err)


def test_rich_markup_in_a_label_is_text() -> None:
    """A label "[/bold]" used to crash the text report (rich read it as markup)."""
    result = evaluate(
        Table.from_labels(actual=["[/bold]", "a", "a"], predicted=["a", "a", "[red]"])
    )
    text = render_evaluation(result, "[bold]file[/]")
    assert "[/bold]" in text and "[bold]file[/]" in text


def test_csv_quotes_carriage_returns_and_guards_tab_and_cr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A label starting with CR used to break the rows; a leading tab had no guard; the
    numeric label -1 was rewritten as '-1."""
    # "+25", a number led by "+" (a CSV label with a fraction, "+2.5", reads as a score)
    labels = ["\rcr", "\ttab", "-1", "=1+2", "'quoted", "a,b", 'say "x"', "line\nfeed", "+25"]
    rows = [(x, labels[(i + 1) % len(labels)], 0.5) for i, x in enumerate(labels)]
    path = _write(tmp_path / "d.csv", rows)
    args = ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--format", "csv"]
    code, out, _ = _run(args, capsys)
    assert code == 0
    parsed = list(csv.reader(io.StringIO(out, newline="")))
    assert len({len(row) for row in parsed}) == 1
    cells = {row[1] for row in parsed[2:]}
    assert {"'\rcr", "'\ttab", "-1", "'=1+2", "''quoted", "a,b", 'say "x"', "line\nfeed"} <= cells
    assert "+25" in cells  # a number, never rewritten
    assert {_guarded(c) for c in cells} == set(labels)
    code, raw, _ = _run([*args, "--csv-raw"], capsys)
    raw_cells = [row[1] for row in csv.reader(io.StringIO(raw, newline=""))][2:]
    assert set(raw_cells) == set(labels)


def test_numeric_labels_are_never_rewritten() -> None:
    result = evaluate(Table.from_labels(actual=["-1", "1", "-1"], predicted=["-1", "-1", "1"]))
    rows = list(csv.reader(io.StringIO(measures_csv(result))))
    assert [row[1] for row in rows[2:]] == ["-1", "1"]


# -- the fuzz test ------------------------------------------------------------------------

_ALPHABET = st.one_of(
    st.sampled_from(list("\x00\x01\x07\x08\t\n\x0b\x0c\r\x1b\x7f\x85\x9b\u2028\u202e")),
    st.sampled_from(list("=+-@',\"[]/\\ ;:$<>&")),
    st.characters(blacklist_categories=("Cs",)),
)
_TEXT = st.text(_ALPHABET, min_size=1, max_size=8)
_BYTES = st.binary(min_size=1, max_size=8)


def _file_name(text: str) -> str:
    """A name the file system takes: no slash, no NUL, not empty, not too long."""
    cleaned = text.replace("/", "_").replace("\x00", "_")[:40]
    return f"f{cleaned}.csv"


def _check_text(stream: str) -> None:
    assert not CONTROL.search(stream), repr(CONTROL.search(stream))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    labels=st.lists(_TEXT, min_size=2, max_size=4, unique=True),
    raw_label=_BYTES,
    name=_TEXT,
    column=_TEXT.filter(lambda text: text not in {"y", "p", "s"}),  # a column the file lacks
)
def test_fuzz_every_output_is_safe(
    labels: list[str],
    raw_label: bytes,
    name: str,
    column: str,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Random text and bytes as labels, file and column names, through every format."""
    folder = tmp_path_factory.mktemp("fuzz")
    labels = [*labels, raw_label.decode("latin-1")]
    rows = [
        (labels[i % len(labels)], labels[(i * 3 + 1) % len(labels)], (i % 7) / 7.0)
        for i in range(3 * len(labels))
    ]
    path = folder / _file_name(name)
    with path.open("w", newline="", encoding="latin-1", errors="replace") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(["y", "p", "s"])
        writer.writerows(rows)
    base = ["evaluate", str(path), "--actual", "y", "--encoding", "latin-1", "--quiet"]
    scored = [*base, "--predicted", "p", "--score", "s", f"--positive={labels[0]}", "--quota", "2"]
    known: set[str] = set()
    for fmt in ("json", "text", "csv"):
        extra = ["--csv-raw"] if fmt == "csv" and len(name) % 2 else []
        code, out, err = _run([*scored, "--format", fmt, *extra], capsys)
        _check_text(err)
        if code != 0:  # a label the reader refuses: the refusal is one safe line
            assert out == "" and err.count("\n") == 1
            event("the reader refused a label")
            return
        if fmt == "text":
            _check_text(out)
        elif fmt == "json":
            _check_text(out)
            known = set(json.loads(out)["per_label"])  # the labels as the reader gave them
        else:
            parsed = list(csv.reader(io.StringIO(out, newline="")))
            assert len({len(row) for row in parsed}) == 1, out
            shown = {row[1] for row in parsed[2:]}
            back = shown if extra else {_guarded(cell) for cell in shown}
            assert back == known, (back, known)
    event("every format written")
    # the HTML page: no control character in the document, and a safe stderr
    page = folder / "page.html"
    code, _, err = _run([*scored, "--format", "json", "--html", str(page)], capsys)
    assert code == 0
    _check_text(err)
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", page.read_text("utf-8"))
    # an error naming a fuzzed column ("--predicted=-x": a column "-x", not an option)
    code, out, err = _run([*base, f"--predicted={column}"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    _check_text(err)
    # the tally: categories are labels too
    jsonl = folder / "t.jsonl"
    lines = [json.dumps({"categories": labels})]
    lines += [json.dumps({"assigned": [x], "correct": [labels[0]]}) for x in labels]
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for fmt in ("text", "json"):
        code, out, err = _run(["tally", str(jsonl), "--format", fmt], capsys)
        _check_text(out)
        _check_text(err)
