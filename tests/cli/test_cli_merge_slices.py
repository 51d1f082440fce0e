"""`informed merge` of sliced result documents: the slices reports of `informed evaluate
--by` / `--by-time` written with --summary, and the folds reports of `--folds`, each
part of a file evaluated alone, then merged.

The oracle is `informed evaluate` run on the whole file at once: it reads every row
into one Slices (or Folds), where merge adds the Slices of the parts read back from
JSON; the reports must be equal, text and JSON, value for value (the source's name
aside). The merged summary is checked against `Slices.from_labels` on all the rows.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import Slices
from informed.cli import main
from informed.io import merge_files
from informed.io.sliced_documents import SLICES_NO_SUMMARY, DocumentSlices

RNG = np.random.default_rng(2032)
N = 360
REGION = RNG.choice(["north", "south", "east", ""], N)
ACTUAL = RNG.choice(["spam", "ham"], N)
SCORES = np.round(RNG.random(N) + 0.3 * (ACTUAL == "spam") + 0.1 * (REGION == "north"), 2)
PREDICTED = np.where(SCORES >= 0.7, "spam", "ham")
WEIGHTS = RNG.integers(1, 5, N)
TIMES = RNG.choice(["2024-03-04T10:00", "2024-03-05T23:30", "2024-03-07T01:00"], N)
FOLDS = np.arange(N) % 4
# the first part lacks the slice "east" (and has rows of every other): merged slices are
# the union of the parts', in the order the whole file has them
FIRST = (np.arange(N) < 200) & (REGION != "east")
PARTS = (FIRST, ~FIRST)
HEADER = ["region", "y", "p", "s", "w", "t", "fold"]
COLUMNS = (REGION, ACTUAL, PREDICTED, SCORES, WEIGHTS, TIMES, FOLDS)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _csv(path: Path, rows: Any) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(zip(*(column[rows] for column in COLUMNS), strict=True))
    return path


def _parts(
    folder: Path, capsys: pytest.CaptureFixture[str], options: list[str], *, summary: bool = True
) -> list[Path]:
    """Each part of the rows evaluated with `options` --format json (--summary), one
    document each."""
    written = []
    for number, rows in enumerate(PARTS):
        data = _csv(folder / f"part{number}.csv", rows)
        extra = ["--summary"] if summary else []
        code, out, err = _run(["evaluate", str(data), *options, "--format", "json", *extra],
                              capsys)  # fmt: skip
        assert code == 0, err
        written.append(folder / f"part{number}.json")
        written[-1].write_text(out)
    return written


def _whole(
    folder: Path, capsys: pytest.CaptureFixture[str], options: list[str], *more: str
) -> tuple[str, str]:
    """`informed evaluate` on every row at once: the oracle."""
    data = _csv(folder / "all.csv", np.ones(N, dtype=bool))
    code, out, err = _run(["evaluate", str(data), *options, *more], capsys)
    assert code == 0, err
    return str(data), out


def _same_text(merged: str, name: str, source: str, whole: str) -> None:
    """The same report but for the source's name (the first line's wrapping with it)."""
    flat, flat_name = " ".join(merged.split()), " ".join(name.split())
    assert flat_name in flat
    assert flat.replace(flat_name, " ".join(source.split())) == " ".join(whole.split())
    assert merged.split("\n\n", 1)[1] == whole.split("\n\n", 1)[1]


def _same_documents(merged: str, whole: str) -> None:
    a, b = json.loads(merged), json.loads(whole)
    assert a.pop("source") != b.pop("source")
    assert a == b


LABELS = ["--actual", "y", "--predicted", "p"]
SCORED = [*LABELS, "--score", "s", "--positive", "spam"]
REPORTS = {
    "labels and scores": [*SCORED, "--by", "region"],
    "labels alone": [*LABELS, "--by", "region"],
    "weighted": [*SCORED, "--by", "region", "--weight", "w"],
    "scores alone": ["--actual", "y", "--score", "s", "--positive", "spam", "--by", "region"],
    "time windows": [*SCORED, "--by-time", "t", "--every", "1d"],
    "windows and regions": [*LABELS, "--by-time", "t", "--every", "1d", "--by", "region"],
}


@pytest.mark.parametrize("options", REPORTS.values(), ids=REPORTS.keys())
def test_merged_parts_report_as_the_whole_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    """Text and JSON: the merged report of the parts is the report of all the rows."""
    files = list(map(str, _parts(tmp_path, capsys, options)))
    source, whole = _whole(tmp_path, capsys, options)
    code, out, err = _run(["merge", *files], capsys)
    assert code == 0, err
    _same_text(out, f"{files[0]} and 1 more files", source, whole)
    code, out, err = _run(["merge", *files, "--format", "json"], capsys)
    assert code == 0, err
    _, whole = _whole(tmp_path, capsys, options, "--format", "json")
    _same_documents(out, whole)
    assert "summary" not in json.loads(out)  # only with --summary


def test_the_options_of_the_report_are_passed_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--ci, --seed and --reference give the report evaluate --by gives with them."""
    options = [*SCORED, "--by", "region"]
    files = list(map(str, _parts(tmp_path, capsys, options)))
    more = ["--ci", "0.9", "--seed", "7", "--reference", "south", "--format", "json"]
    code, out, err = _run(["merge", *files, *more], capsys)
    assert code == 0, err
    _, whole = _whole(tmp_path, capsys, options, *more)
    _same_documents(out, whole)
    assert json.loads(out)["reference"] == ["south"] and json.loads(out)["level"] == 0.9


def test_the_merged_summary_is_the_slices_of_all_the_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Slices merged from the documents equal those counted from all the rows."""
    options = [*SCORED, "--by", "region", "--weight", "w"]
    merged = merge_files(_parts(tmp_path, capsys, options))
    assert isinstance(merged, DocumentSlices)
    by = np.where(REGION == "", None, REGION)
    whole = Slices.from_labels(by=by, actual=ACTUAL, predicted=PREDICTED, scores=SCORES,
                               positive="spam", weights=WEIGHTS, names=["region"])  # fmt: skip
    assert merged.summary == whole
    assert merged.positive == "spam" and merged.every is None


def test_merge_summary_and_output_merge_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`merge --format json --summary` prints, and --output writes, the merged document
    with its exact slices: merged again with nothing, it reports all the rows."""
    options = [*SCORED, "--by-time", "t", "--every", "1d"]
    files = list(map(str, _parts(tmp_path, capsys, options)))
    output = tmp_path / "merged.json"
    code, out, err = _run(["merge", *files, "--format", "json", "--summary", "--output",
                           str(output)], capsys)  # fmt: skip
    assert code == 0, err
    _, whole = _whole(tmp_path, capsys, options, "--format", "json", "--summary")
    _same_documents(out, whole)
    assert json.loads(out)["summary"]["every"] == "1d"
    assert json.loads(output.read_text())["summary"] == json.loads(whole)["summary"]
    for again in (str(output), str(tmp_path / "printed.json")):
        (tmp_path / "printed.json").write_text(out)
        code, out_again, err = _run(["merge", again, "--format", "json"], capsys)
        assert code == 0, err
        _same_documents(out_again, _whole(tmp_path, capsys, options, "--format", "json")[1])


def test_folds_reports_merge_as_the_whole_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folds report always holds its Folds: the parts' merge is the report of every
    row's fold, text and JSON (with --ci), and --output writes it to merge again."""
    options = [*SCORED, "--folds", "fold"]
    files = list(map(str, _parts(tmp_path, capsys, options, summary=False)))
    source, whole = _whole(tmp_path, capsys, options)
    code, out, err = _run(["merge", *files], capsys)
    assert code == 0, err
    _same_text(out, f"{files[0]} and 1 more files", source, whole)
    output = tmp_path / "folds.json"
    code, out, err = _run(["merge", *files, "--format", "json", "--ci", "0.9", "--output",
                           str(output)], capsys)  # fmt: skip
    assert code == 0, err
    _, whole = _whole(tmp_path, capsys, options, "--format", "json", "--ci", "0.9")
    _same_documents(out, whole)
    assert json.loads(out)["positive"] == "spam"
    code, out, err = _run(["merge", str(output), "--format", "json", "--ci", "0.9"], capsys)
    assert code == 0, err
    _same_documents(out, whole)


def _one_line(err: str, *said: str) -> None:
    assert err.startswith("informed: error: ") and err.count("\n") == 1, err
    for text in said:
        assert text in err, err


def test_refusals_name_both_files_and_what_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mismatched slicing columns, windows or positive class; slices with folds; sliced
    documents with unsliced ones; a slices report without its summary: one line each."""
    by_region = _parts(tmp_path, capsys, [*LABELS, "--by", "region"])
    for name, options in {
        "by_label": [*LABELS, "--by", "y"],
        "ham": [*LABELS, "--by", "region", "--positive", "ham"],
        "plain": [*LABELS],
        "folds": [*LABELS, "--folds", "fold"],
        "bare": [*LABELS, "--by", "region"],
    }.items():
        folder = tmp_path / name
        folder.mkdir()
        _parts(folder, capsys, options, summary=name not in ("folds", "bare"))
    first = str(by_region[0])
    for other, said in (
        ("by_label", ["is sliced by ['region'] and", "by ['y']"]),
        ("ham", ["reports no positive class and", "the positive class 'ham'"]),
        ("folds", ["is a slices report and", "a folds report"]),
        ("plain", ["the first holds slices", "the second the rows alone"]),
        ("bare", [SLICES_NO_SUMMARY]),
    ):
        path = str(tmp_path / other / "part1.json")
        code, out, err = _run(["merge", first, path], capsys)
        assert code == 2 and out == "", other
        _one_line(err, *said)
        assert path in err
        if other != "bare":
            assert f"{first} and {path}" in err or f"{first} with {path}" in err


def test_options_the_report_does_not_take_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slices = list(map(str, _parts(tmp_path, capsys, [*SCORED, "--by", "region"])))
    folder = tmp_path / "folds"
    folder.mkdir()
    folds = list(map(str, _parts(folder, capsys, [*SCORED, "--folds", "fold"], summary=False)))
    for files, option, said in (
        (slices, ["--all-labels"], "--all-labels is not available for the report of "
         "informed evaluate --by"),
        (folds, ["--reference", "1"], "--reference is not available for the report of "
         "informed evaluate --folds"),
        (slices, ["--positive", "ham"], "the merged Ranking ranks the class 'spam'"),
    ):  # fmt: skip
        code, _, err = _run(["merge", *files, *option], capsys)
        assert code == 2
        _one_line(err, said)
    table = tmp_path / "plain"
    table.mkdir()
    plain = list(map(str, _parts(table, capsys, LABELS)))
    code, _, err = _run(["merge", *plain, "--reference", "north"], capsys)
    assert code == 2
    _one_line(err, "--reference names a slice: it is for slices reports")


def test_evaluate_refuses_summary_of_overlapping_windows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _csv(tmp_path / "all.csv", np.ones(N, dtype=bool))
    code, _, err = _run(["evaluate", str(data), *LABELS, "--by-time", "t", "--every", "1d",
                         "--cumulative", "--format", "json", "--summary"], capsys)  # fmt: skip
    assert code == 2
    _one_line(err, "--summary keeps the windows for informed merge", "overlap")


def test_ci_of_unsliced_documents_is_that_of_all_the_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--ci and --seed reach the report of merged evaluations too: the intervals are
    those of evaluate --ci on the whole file (the same Table, the same seed)."""
    files = list(map(str, _parts(tmp_path, capsys, SCORED)))
    more = ["--ci", "0.9", "--seed", "5", "--format", "json"]
    code, out, err = _run(["merge", *files, *more], capsys)
    assert code == 0, err
    _, whole = _whole(tmp_path, capsys, SCORED, *more)
    merged, expected = json.loads(out), json.loads(whole)
    assert merged["intervals"] == expected["intervals"]
    assert merged["measures"] == expected["measures"]


def _page(path: Path) -> str:
    """A page with its source's name (the one thing merge and the whole file name apart)
    cut out of its header."""
    text = path.read_text()
    start = text.index("<strong>", text.index('class="source"') if 'class="source"' in text else 0)
    return text[:start] + text[text.index("</strong>", start) :]


@pytest.mark.parametrize(
    ("options", "parts_with_summary"),
    [
        ([*SCORED, "--by", "region"], True),
        ([*LABELS, "--by-time", "t", "--every", "1d"], True),
        ([*SCORED, "--folds", "fold"], False),
        (SCORED, True),
    ],
    ids=["slices", "windows", "folds", "unsliced"],
)
def test_html_of_the_merge_is_the_page_of_all_the_rows(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: list[str],
    parts_with_summary: bool,
) -> None:
    """merge --html writes the page evaluate --html writes for every row at once (the
    source's name aside), for slices, windows, folds and unsliced documents."""
    files = list(map(str, _parts(tmp_path, capsys, options, summary=parts_with_summary)))
    merged, whole = tmp_path / "merged.html", tmp_path / "whole.html"
    code, _, err = _run(["merge", *files, "--html", str(merged)], capsys)
    assert code == 0, err
    _whole(tmp_path, capsys, options, "--html", str(whole))
    assert _page(merged) == _page(whole)
    assert f"{Path(files[0]).name} and 1 more files" in merged.read_text()


def test_html_of_merged_tallies_is_the_tally_page_of_all_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tallies merged with --html (--ci sets its intervals' level) give the page
    informed tally --html writes for every document at once; --ci without --html is
    still refused for a Tally."""
    from informed import Tally

    lines = [
        {"assigned": list(a), "correct": list(c)}
        for a, c in zip(
            RNG.choice(["x", "y", "xy", ""], 80), RNG.choice(["x", "y", "xy", "y"], 80), strict=True
        )
    ]
    whole_file = tmp_path / "all.jsonl"
    whole_file.write_text("".join(json.dumps(line) + "\n" for line in lines))
    parts = []
    for number, chunk in enumerate((lines[:30], lines[30:])):
        tally = Tally(categories=["x", "y"])
        for line in chunk:
            tally.add_result(line["assigned"], line["correct"])
        parts.append(tmp_path / f"tally{number}.json")
        parts[-1].write_text(tally.to_json())
    merged, whole = tmp_path / "merged.html", tmp_path / "whole.html"
    more = ["--ci", "0.9", "--seed", "3"]
    code, _, err = _run(["merge", *map(str, parts), "--html", str(merged), *more], capsys)
    assert code == 0, err
    code, _, err = _run(["tally", str(whole_file), "--categories", "x,y", "--html", str(whole),
                         *more], capsys)  # fmt: skip
    assert code == 0, err
    assert _page(merged) == _page(whole)
    code, _, err = _run(["merge", *map(str, parts), "--ci", "0.9"], capsys)
    assert code == 2
    _one_line(err, "--ci is for a Table and a Ranking")
