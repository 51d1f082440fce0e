"""`informed merge` of the result documents `informed evaluate --format json --summary`
writes (issue 31): their exact summaries merged, equal to the summaries of all the rows;
a document without them refused with the reason; `merge --format json --summary`,
`--output` and `--dvc`.

The oracles are the rows themselves: the Table and Ranking counted from all of them at
once (`Table.from_labels`, `Ranking.from_scores`), informedness written out from the
counts, scikit-learn's AUC.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from informed import Ranking, Table
from informed.cli import main
from informed.errors import InputError
from informed.io import merge_files
from informed.io.result_documents import NO_SUMMARY, DocumentSummaries

RNG = np.random.default_rng(2031)
N = 300
ACTUAL = RNG.choice(["spam", "ham"], N)
SCORES = np.round(RNG.random(N) + 0.35 * (ACTUAL == "spam"), 3)
PREDICTED = np.where(SCORES >= 0.7, "spam", "ham")
HALVES = (slice(0, 140), slice(140, N))


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _csv(path: Path, rows: slice) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["y", "p", "s"])
        writer.writerows(zip(ACTUAL[rows], PREDICTED[rows], SCORES[rows], strict=True))
    return path


def _documents(
    folder: Path, capsys: pytest.CaptureFixture[str], *more: str, score: bool = True
) -> list[Path]:
    """Each half of the rows evaluated with --format json (and `more`), one document each."""
    written = []
    for number, rows in enumerate(HALVES):
        data = _csv(folder / f"part{number}.csv", rows)
        scored = ["--score", "s"] if score else []
        code, out, err = _run(["evaluate", str(data), "--actual", "y", "--predicted", "p",
                               *scored, "--positive", "spam", "--quiet", "--format", "json",
                               *more], capsys)  # fmt: skip
        assert code == 0, err
        written.append(folder / f"part{number}.json")
        written[-1].write_text(out)
    return written


def _informedness(actual: Any, predicted: Any) -> float:
    tp = np.sum((predicted == "spam") & (actual == "spam"))
    fn = np.sum((predicted == "ham") & (actual == "spam"))
    fp = np.sum((predicted == "spam") & (actual == "ham"))
    tn = np.sum((predicted == "ham") & (actual == "ham"))
    return float(tp / (tp + fn) - fp / (fp + tn))


def test_documents_with_their_summary_merge_to_all_the_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The merged report is the report of every row: informedness by its formula, the
    AUC scikit-learn's, n all the rows, the positive class the documents named."""
    files = _documents(tmp_path, capsys, "--summary")
    code, out, err = _run(["merge", *map(str, files), "--format", "json"], capsys)
    assert code == 0, err
    merged = json.loads(out)
    assert merged["n"] == N
    assert merged["positive"] == "spam"
    assert merged["measures"]["informedness"] == pytest.approx(
        _informedness(ACTUAL, PREDICTED), abs=1e-15
    )
    assert merged["ranking"]["auc"] == pytest.approx(
        roc_auc_score(ACTUAL == "spam", SCORES), abs=1e-15
    )
    assert "summary" not in merged  # only with --summary


def test_the_python_reader_gives_the_exact_summaries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _documents(tmp_path, capsys, "--summary")
    merged = merge_files(files)
    assert isinstance(merged, DocumentSummaries)
    assert merged.table == Table.from_labels(ACTUAL, PREDICTED)
    assert merged.ranking == Ranking.from_scores(ACTUAL, SCORES, positive="spam")
    assert merged.positive == "spam"


def test_merge_summary_output_and_dvc_merge_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`merge --format json --summary` and `--output` write documents with the merged
    summaries, which merge reads again (a document of documents); --dvc writes the
    metrics of the merged rows."""
    files = _documents(tmp_path, capsys, "--summary")
    output = tmp_path / "all.json"
    code, out, err = _run(["merge", *map(str, files), "--format", "json", "--summary",
                           "--output", str(output), "--dvc", str(tmp_path / "eval")],
                          capsys)  # fmt: skip
    assert code == 0, err
    printed = json.loads(out)
    table = Table.from_labels(ACTUAL, PREDICTED)
    assert Table.from_dict(printed["summary"]["table"]) == table
    written = json.loads(output.read_text())
    assert written["kind"] == "informed.evaluation"
    assert Table.from_dict(written["summary"]["table"]) == table
    again = merge_files([output])
    assert again.table == table
    assert again.ranking == Ranking.from_scores(ACTUAL, SCORES, positive="spam")
    metrics = json.loads((tmp_path / "eval" / "metrics.json").read_text())
    assert metrics["informedness"]["n"] == N
    assert metrics["informedness"]["value"] == pytest.approx(
        _informedness(ACTUAL, PREDICTED), abs=1e-15
    )
    assert (tmp_path / "eval" / "roc.json").exists()


def test_a_document_of_the_table_alone_merges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _documents(tmp_path, capsys, "--summary", score=False)
    merged = merge_files(files)
    assert merged.ranking is None
    assert merged.table == Table.from_labels(ACTUAL, PREDICTED)


def test_a_document_without_its_summary_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_summary = _documents(tmp_path, capsys, "--summary")[0]
    without = tmp_path / "without"
    without.mkdir()
    plain = _documents(without, capsys)[0]
    code, out, err = _run(["merge", str(with_summary), str(plain)], capsys)
    assert code == 2 and out == ""
    assert err == f"informed: error: {plain}: {NO_SUMMARY}.\n"
    assert "this document has no exact summary: write it with --summary" in err
    with pytest.raises(InputError, match="this document has no exact summary"):
        merge_files([plain])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 2, "informed_version": "9.0"}, "written by informed 9.0 with schema "
         "version 2; this informed reads version 1"),
        ({"kind": "informed.comparison"}, "kind 'informed.comparison' (informed "
         "compare) holds no summary to merge"),
        ({"kind": "informed.slices_report"}, 'a slices report\'s "summary" is {"slices": '
         '..., "every": ...}'),
        ({"summary": {"table": None, "ranking": None}}, "holds neither a Table nor a Ranking"),
        ({"summary": {"table": None}}, '"summary" is {"table": ..., "ranking": ...}'),
    ],
)  # fmt: skip
def test_a_document_that_cannot_be_read_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], reason: str
) -> None:
    path = _documents(tmp_path, capsys, "--summary")[0]
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    code, _, err = _run(["merge", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"informed: error: {path}: ") and reason in err, err


def test_a_document_before_the_schema_has_no_summary(tmp_path: Path) -> None:
    """Version 0 (no schema, no kind; the keys of an evaluation): written before
    --summary existed, so it holds none."""
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"n": 4, "positive": "a", "measures": {}}))
    with pytest.raises(InputError, match="this document has no exact summary"):
        merge_files([path])


def test_documents_do_not_mix_with_bare_summaries_and_summary_needs_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _documents(tmp_path, capsys, "--summary")
    bare = tmp_path / "table.json"
    bare.write_text(Table.from_labels(ACTUAL, PREDICTED).to_json())
    code, _, err = _run(["merge", str(files[0]), str(bare)], capsys)
    assert code == 2 and "cannot merge a mix of ['DocumentSummaries', 'Table']" in err
    code, _, err = _run(["merge", str(files[0]), "--summary"], capsys)
    assert code == 2 and "--summary adds the summaries to --format json" in err
