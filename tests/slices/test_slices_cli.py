"""`informed evaluate FILE --by COL`: the terminal table, JSON and CSV of the slices, and
read_summaries(..., by=...) equal to Slices of the frame."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from informed.io import read_summaries
from informed.slices import Slices
from informed.table import Table

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "informed" / "data" / "breast_cancer_slices.csv"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "informed",
            "evaluate",
            str(DATA),
            "--actual",
            "actual",
            "--predicted",
            "predicted",
            "--positive",
            "malignant",
            *args,
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def _rows() -> list[dict[str, str]]:
    with DATA.open() as handle:
        return list(csv.DictReader(handle))


def test_read_summaries_by_equals_slices_of_the_rows() -> None:
    """Files read in small batches by slice equal the Slices of all rows at once."""
    rows = _rows()
    found = read_summaries(
        DATA,
        by=["size"],
        actual="actual",
        predicted="predicted",
        scores="score",
        positive="malignant",
        batch_rows=50,
    )
    direct = Slices.from_labels(
        by=[r["size"] for r in rows],
        names=["size"],
        actual=[r["actual"] for r in rows],
        predicted=[r["predicted"] for r in rows],
        scores=[float(r["score"]) for r in rows],
        positive="malignant",
    )
    assert found == direct
    for size in ("small", "medium", "large"):
        mine = [r for r in rows if r["size"] == size]
        assert found.table(size) == Table.from_labels(
            actual=[r["actual"] for r in mine], predicted=[r["predicted"] for r in mine]
        )


def test_cli_json_lists_every_slice_with_its_interval_and_differences() -> None:
    """--format json: every slice, its informedness equal to that of its own Table."""
    from informed.table import evaluate

    done = _run("--by", "size", "texture", "--score", "score", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    rows = _rows()
    assert len(document["slices"]) == 6
    for entry in document["slices"]:
        size, texture = entry["key"]
        mine = [r for r in rows if r["size"] == size and r["texture"] == texture]
        table = Table.from_labels(
            actual=[r["actual"] for r in mine], predicted=[r["predicted"] for r in mine]
        )
        expected = evaluate(table, positive="malignant").measures["informedness"]
        assert entry["measures"]["informedness"] == expected
        assert entry["rows"] == len(mine)
        from sklearn.metrics import roc_auc_score  # an independent oracle of each slice's AUC

        truth = [r["actual"] == "malignant" for r in mine]
        expected_auc = roc_auc_score(truth, [float(r["score"]) for r in mine])
        assert entry["ranking"]["auc"] == pytest.approx(expected_auc, abs=1e-12)
        low, high = entry["intervals"]["informedness"]
        assert low is None or low <= expected <= high
    assert set(document["disparities"]) == {
        "equalized_odds_difference",
        "demographic_parity_difference",
        "informedness_spread",
    }


def test_cli_text_sorts_by_informedness_and_flags_small_slices() -> None:
    """The terminal table is sorted by informedness; a slice of few positives says so."""
    done = _run("--by", "size")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    order = [line.split()[0] for line in lines[3:6]]
    assert order == ["large", "medium", "small"]
    assert "small         189" in done.stdout and "informedness: 6 real positives\n" in done.stdout
    assert "equalized-odds difference" in done.stdout


def test_cli_csv_has_a_row_per_slice_and_refuses_what_is_not_there_yet() -> None:
    """--format csv: a header and one row per slice; --html with --by is a one-line error."""
    done = _run("--by", "texture", "--format", "csv")
    assert done.returncode == 0, done.stderr
    table = list(csv.reader(io.StringIO(done.stdout)))
    assert table[0][:3] == ["texture", "rows", "n"]
    assert sorted(row[0] for row in table[1:]) == ["high", "low"]
    refused = _run("--by", "size", "--partial", "x.json")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "--partial" in refused.stderr


def test_many_slices_stay_bounded_at_the_terminal(tmp_path: Path) -> None:
    """400 slices: at most 30 listed and the rest pooled into one row; JSON lists all."""
    rng = np.random.default_rng(0)
    n = 4000
    path = tmp_path / "many.csv"
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.8, actual, 1 - actual)
    group = rng.integers(0, 400, n)
    path.write_text(
        "g,y,p\n"
        + "".join(f"g{g},{a},{p}\n" for g, a, p in zip(group, actual, predicted, strict=True))
    )
    base = [
        sys.executable,
        "-m",
        "informed",
        "evaluate",
        str(path),
        "--actual",
        "y",
        "--predicted",
        "p",
        "--positive",
        "1",
        "--by",
        "g",
    ]
    done = subprocess.run(base, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "more, pooled" in done.stdout
    assert len(done.stdout.splitlines()) < 90
    document = json.loads(
        subprocess.run(
            [*base, "--format", "json"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert len(document["slices"]) == len(set(group.tolist()))


@pytest.mark.parametrize(
    "option",
    [
        ["--threshold", "0.5", "--score", "score"],
        ["--quota", "5", "--score", "score"],
        ["--storage", "sparse"],
        ["--all-labels"],
        ["--bins", "5", "--score", "score"],
        ["--weight", "case", "--ci", "0.9", "--weights-are", "normalised"],
    ],
)
def test_options_not_yet_sliced_are_refused(option: list[str]) -> None:
    """Options that do not apply to slices yet are refused, never ignored."""
    done = _run("--by", "size", *option)
    assert done.returncode == 2 and "not available with --by" in done.stderr


def test_reference_slice_is_chosen_by_name() -> None:
    """--reference small: every slice is compared with 'small'; an unknown name is refused."""
    done = _run("--by", "size", "--reference", "small", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["reference"] == ["small"]
    small = next(e for e in document["slices"] if e["key"] == ["small"])
    assert small["vs_reference"]["informedness"]["estimate"] is None
    large = next(e for e in document["slices"] if e["key"] == ["large"])
    gap = large["measures"]["informedness"] - small["measures"]["informedness"]
    assert large["vs_reference"]["informedness"]["estimate"] == pytest.approx(gap, abs=1e-12)
    wrong = _run("--by", "size", "--reference", "tiny")
    assert wrong.returncode == 2 and "--reference 'tiny' is not a slice" in wrong.stderr


def test_the_docs_show_what_the_command_prints() -> None:
    """docs/slices.md's terminal examples (by size, by texture with scores alone, by week)
    are the command's output, byte for byte."""
    import shlex

    text = (ROOT / "docs" / "slices.md").read_text(encoding="utf-8")
    prompt = "$ informed evaluate breast_cancer_slices.csv"
    blocks = text.split(prompt)[1:]
    assert len(blocks) == 3
    for block in blocks:
        block = block[: block.index("```")]
        command, shown = block.split("\n", 2)[:2], block.split("\n", 2)[2]
        words = shlex.split((command[0] + " " + command[1]).replace("\\", " "))
        done = subprocess.run(
            [sys.executable, "-m", "informed", "evaluate", str(DATA), *words],
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.replace(str(DATA), DATA.name) == shown
