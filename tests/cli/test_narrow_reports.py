"""Every report of the command line fits a terminal of 100, 60 or 40 columns: no line
runs past it, and every number of the report drawn 200 columns wide is shown whole in
the narrow one, at least as often (a split table repeats its key column: the label,
slice, window or fold). The reports written as plain lines (slices, windows, scores by
slice, calibration within slices, `tally --by`, `merge` of sliced documents) printed
rows of 127 characters at 100 columns before they split their tables
(`informed._terminal.plain_table`), and the operating point was drawn 100 columns wide
whatever the terminal.

The command runs in the process, its stdout a terminal of COLUMNS columns (rich reads
COLUMNS; the slices reports ask `isatty`), as `script -qc "stty cols W; informed ..."`
shows it.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from informed.cli import main

# a value (decimals), or a count with thousands; the whole numbers inside a formula are
# not values: a long formula is cut with an ellipsis on a narrow terminal (docs/report.md)
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|\d{1,3}(?:,\d{3})+")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

DATA = ["data.csv", "--actual", "y", "--positive", "1"]
COMMANDS = {
    "demo": ["demo", "--html", ""],
    "evaluate": ["evaluate", *DATA, "--predicted", "p"],
    "evaluate --score": ["evaluate", *DATA, "--predicted", "p", "--score", "s"],
    "evaluate --ci": ["evaluate", *DATA, "--predicted", "p", "--score", "s", "--ci", "0.95"],
    "evaluate --threshold": [
        "evaluate",
        *DATA,
        "--score",
        "s",
        "--threshold",
        "best",
        "--ci",
        "0.9",
    ],
    "evaluate --by labels": ["evaluate", *DATA, "--predicted", "p", "--by", "f"],
    "evaluate --by scores": ["evaluate", *DATA, "--score", "s", "--by", "f"],
    "evaluate --by both": ["evaluate", *DATA, "--predicted", "p", "--score", "s", "--by", "f"],
    "evaluate --by two --ci": [
        *("evaluate", *DATA, "--predicted", "p", "--score", "s", "--by", "f", "g", "--ci", "0.9"),
    ],
    "evaluate --by-time": [
        *("evaluate", *DATA, "--predicted", "p", "--score", "s", "--by-time", "date"),
        *("--every", "1mo"),
    ],
    "evaluate --by-time --rolling": [
        *("evaluate", *DATA, "--predicted", "p", "--by-time", "date", "--every", "1mo"),
        *("--rolling", "3"),
    ],
    "evaluate --folds --ci": [
        *("evaluate", *DATA, "--predicted", "p", "--score", "s", "--folds", "fold", "--ci", "0.9"),
    ],
    "evaluate --find-slices": [
        *("evaluate", *DATA, "--predicted", "p", "--find-slices", "f,g", "--min-size", "10"),
    ],
    "compare": ["compare", *DATA, "--predicted", "p", "p2", "--score", "s", "s2"],
    "compare --folds": [
        *("compare", *DATA, "--predicted", "p", "p2", "--score", "s", "s2", "--folds", "fold"),
    ],
    "tally": ["tally", "plain.jsonl"],
    "tally --by": ["tally", "sources.jsonl", "--by", "source"],
    "merge": ["merge", "part1.json", "part2.json"],
    "merge --by": ["merge", "sliced1.json", "sliced2.json"],
}


def _run(argv: list[str], width: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """The command's stdout on a terminal `width` columns wide (its colours taken off)."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out, err = Terminal(), io.StringIO()
    with monkeypatch.context() as patch:
        patch.setenv("COLUMNS", str(width))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert main(argv) == 0, err.getvalue()
    return ANSI.sub("", out.getvalue())


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """600 rows: labels and scores of two models, a slice column of three values crossed
    with one of two (one cell much less informed), a date over a year, five folds; the
    documents of a tally with a source; the partial summaries and sliced documents of
    two halves."""
    folder = tmp_path_factory.mktemp("narrow")
    rng = np.random.default_rng(3)
    rows = []
    for i in range(600):
        y = int(rng.random() < 0.4)
        f, g = ("alpha", "beta", "gamma")[i % 3], ("north", "south")[(i // 3) % 2]
        noisy = f == "gamma" and g == "south"
        s = float(rng.random()) if noisy else float(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1))
        s2 = float(np.clip(rng.normal(0.4 + 0.2 * y, 0.25), 0.001, 0.999))
        day = f"2024-{1 + i * 12 // 600:02d}-{1 + i % 28:02d}"
        rows.append([y, int(s > 0.5), round(s, 4), int(s2 > 0.5), round(s2, 4), f, g, day, i % 5])
    with (folder / "data.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["y", "p", "s", "p2", "s2", "f", "g", "date", "fold"])
        writer.writerows(rows)
    categories = ["sports", "politics", "finance", "science", "weather"]
    with (folder / "plain.jsonl").open("w") as plain, (folder / "sources.jsonl").open("w") as by:
        for i in range(300):
            correct = [c for c in categories if rng.random() < 0.3] or [categories[i % 5]]
            assigned = [c for c in correct if rng.random() < 0.8]
            assigned += [c for c in categories if rng.random() < 0.1 and c not in assigned]
            document = {"assigned": assigned, "correct": correct}
            plain.write(json.dumps(document) + "\n")
            by.write(json.dumps({**document, "source": ("web", "print", "radio")[i % 3]}) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        for half, (start, stop) in enumerate(((0, 300), (300, 600)), 1):
            with Path(f"half{half}.csv").open("w", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(["y", "p", "s", "p2", "s2", "f", "g", "date", "fold"])
                writer.writerows(rows[start:stop])
            scored = [f"half{half}.csv", "--actual", "y", "--positive", "1", "--predicted", "p"]
            scored += ["--score", "s", "--quiet"]
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["evaluate", *scored, "--partial", f"part{half}.json"]) == 0
            sliced = io.StringIO()
            with contextlib.redirect_stdout(sliced):
                argv = ["evaluate", *scored, "--by", "f", "--format", "json", "--summary"]
                assert main(argv) == 0
            Path(f"sliced{half}.json").write_text(sliced.getvalue())
    return folder


@pytest.fixture(scope="module")
def wide(inputs: Path) -> dict[str, str]:
    """Every report 200 columns wide, where every table fits whole."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(inputs)
        return {name: _run(argv, 200, patch) for name, argv in COMMANDS.items()}


@pytest.mark.parametrize("width", [100, 60, 40])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_report_fits_the_terminal_with_every_number_whole(
    name: str, width: int, inputs: Path, wide: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(inputs)
    text = _run(COMMANDS[name], width, monkeypatch)
    over = [line for line in text.splitlines() if len(line) > width]
    assert not over, "\n".join(over)
    assert not re.search(r"\.\d*…", text)  # no value cut (a formula may be: "log2…")
    lost = Counter(NUMBER.findall(wide[name])) - Counter(NUMBER.findall(text))
    assert not lost, lost


def test_a_slices_table_is_split_repeating_the_slice(
    inputs: Path, wide: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 200 columns the slices' table is one line a slice (127 characters); at 60 it is
    blocks of its columns, each naming the slice."""
    monkeypatch.chdir(inputs)
    text = _run(COMMANDS["evaluate --by both"], 60, monkeypatch)
    assert max(len(line) for line in wide["evaluate --by both"].splitlines()) > 120
    assert sum(line.startswith("alpha ") for line in wide["evaluate --by both"].splitlines()) == 3
    assert sum(line.startswith("alpha ") for line in text.splitlines()) > 3


def test_redirected_the_slices_report_keeps_its_rows_whole(
    inputs: Path, wide: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a terminal: each row of a table is one line, as wide as it is, as before."""
    monkeypatch.chdir(inputs)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(COMMANDS["evaluate --by both"]) == 0
    keys = ("slice ", "alpha ")
    rows = [line for line in out.getvalue().splitlines() if line.startswith(keys)]
    assert len(rows) == 6 and max(len(line) for line in rows) > 120
    assert rows == [x for x in wide["evaluate --by both"].splitlines() if x.startswith(keys)]
