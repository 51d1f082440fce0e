"""The versioned result document (issue 31): every kind a command writes is valid under the
JSON Schema shipped in the package, whose measure names are the registries'; a forged or
newer document is refused with a one-line reason; `measure_records` reads every kind."""

from __future__ import annotations

import csv
import fnmatch
import json
import math
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from schema_check import check_result_document

from informed import Ranking, Table
from informed.cli import main
from informed.errors import InputError
from informed.inference import bootstrap_ranking
from informed.measures import MEASURES
from informed.ranking.document import SUMMARIES
from informed.report.records import measure_records, result_document
from informed.report.result_schema import (
    KINDS,
    SCHEMA_VERSION,
    document_version,
    load_schema,
    schema_file,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "informed" / "data"
HEAD = ("schema", "version", "kind", "informed_version")


def test_schema_names_are_the_registries() -> None:
    """The enums of the shipped schema are the registries' names, in their order."""
    schema = load_schema()
    defs = schema["$defs"]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert defs["table_measure"]["enum"] == list(MEASURES)
    assert defs["ranking_summary"]["enum"] == list(SUMMARIES)
    assert schema["properties"]["kind"]["enum"] == list(KINDS)
    assert schema["properties"]["version"]["const"] == SCHEMA_VERSION
    branches = {b["if"]["properties"]["kind"]["const"]: b["then"]["$ref"] for b in schema["allOf"]}
    assert branches == {k: f"#/$defs/{k}" for k in KINDS}


def test_the_schema_ships_with_the_package() -> None:
    """pyproject's package data holds the schema file (a wheel carries it)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["informed"]
    relative = Path(str(schema_file())).relative_to(ROOT / "src" / "informed").as_posix()
    assert any(fnmatch.fnmatch(relative, p) for p in patterns)


def _folds_file(path: Path) -> Path:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    fold = rng.permutation(120) % 3 + 1
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["fold", "y", "a", "b", "sa", "sb"])
        for i in range(120):
            sa, sb = y[i] * 0.8 + rng.normal(0, 0.6), y[i] * 1.1 + rng.normal(0, 0.6)
            w.writerow([fold[i], "np"[y[i]], "np"[int(sa > 0.4)], "np"[int(sb > 0.5)],
                        f"{sa:.3f}", f"{sb:.3f}"])  # fmt: skip
    return path


def _tally_file(path: Path) -> Path:
    path.write_text(
        '{"assigned": ["a"], "correct": ["a", "c"], "g": "x"}\n'
        '{"assigned": ["b"], "correct": ["b"], "g": "y"}\n'
    )
    return path


def _commands(tmp: Path) -> dict[str, list[str]]:
    cv, sliced = str(DATA / "breast_cancer_cv.csv"), str(DATA / "breast_cancer_slices.csv")
    two = ["--actual", "actual", "--predicted", "predicted"]
    folds = str(_folds_file(tmp / "folds.csv"))
    tally = str(_tally_file(tmp / "t.jsonl"))
    models = ["--actual", "y", "--predicted", "a", "b", "--score", "sa", "sb", "--positive", "p"]
    return {
        "informed.evaluation": ["evaluate", cv, *two, "--score", "score", "--positive",
                                "malignant", "--ci", "0.9", "--summary", "--quiet"],
        "informed.slices_report": ["evaluate", sliced, *two, "--by", "size", "--quiet"],
        "informed.slice_search": ["evaluate", sliced, *two, "--positive", "malignant",
                                  "--find-slices", "size,texture", "--min-size", "10", "--quiet"],
        "informed.folds_report": ["evaluate", folds, "--actual", "y", "--predicted", "a",
                                  "--folds", "fold", "--quiet"],
        "informed.comparison": ["compare", folds, *models, "--replicates", "50",
                                "--permutations", "99"],
        "informed.fold_comparison": ["compare", folds, *models, "--folds", "fold"],
        "informed.tally_summary": ["tally", tally, "--by", "g"][:2],
        "informed.tally_slices": ["tally", tally, "--by", "g"],
    }  # fmt: skip


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One document of every kind, as the command line writes it."""
    import contextlib
    import io

    tmp = tmp_path_factory.mktemp("kinds")
    (tmp / "t.jsonl").parent.mkdir(exist_ok=True)
    found = {}
    for kind, args in _commands(tmp).items():
        if kind == "informed.tally_summary":
            (tmp / "plain.jsonl").write_text(
                '{"assigned": ["a"], "correct": ["a", "c"]}\n{"assigned": ["b"], "correct": ["b"]}\n'
            )
            args = ["tally", str(tmp / "plain.jsonl")]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([*args, "--format", "json"]) == 0, kind
        found[kind] = json.loads(out.getvalue())
    return found


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_is_valid_and_stamped(kind: str, documents: dict[str, Any]) -> None:
    document = documents[kind]
    assert [document[k] for k in HEAD[:3]] == ["informed.result", 1, kind]
    assert list(document)[:4] == list(HEAD)
    check_result_document(document)
    records = measure_records(document)
    assert records and all(math.isnan(r.value) == (r.reason is not None) for r in records)
    assert all(r.level is not None for r in records if not math.isnan(r.low))


def test_a_missing_key_or_a_wrong_name_breaks_the_schema(documents: dict[str, Any]) -> None:
    forged = dict(documents["informed.comparison"])
    del forged["models"]
    with pytest.raises(AssertionError, match=r"'models' is a required property"):
        check_result_document(forged)
    renamed = json.loads(json.dumps(documents["informed.evaluation"]))
    renamed["measures"]["youdens_j"] = 0.5
    with pytest.raises(AssertionError, match="youdens_j"):
        check_result_document(renamed)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 2, "informed_version": "9.1"},
         "written by informed 9.1 with schema version 2; this informed reads version 1"),
        ({"schema": "other.thing"}, "its schema is 'other.thing'"),
        ({"version": True}, "a whole number from 1; got True"),
        ({"kind": "informed.Table"}, "its kind is 'informed.Table'"),
    ],
)  # fmt: skip
def test_a_forged_document_is_refused_in_one_line(
    change: dict[str, Any], reason: str, documents: dict[str, Any]
) -> None:
    forged = {**documents["informed.evaluation"], **change}
    with pytest.raises(InputError, match=reason) as caught:
        measure_records(forged)
    assert "\n" not in str(caught.value)


def test_a_document_written_before_the_schema_is_version_0(documents: dict[str, Any]) -> None:
    """The same document without the four keys (as informed wrote it before) reads the
    same records; the slices report had its own version 1, the schema's."""
    for kind, document in documents.items():
        old = {k: v for k, v in document.items() if k not in HEAD}
        if kind in ("informed.slices_report", "informed.tally_slices"):
            old.update(kind=kind, version=1)
            assert document_version(old) == 1
        else:
            assert document_version(old) == 0
        assert measure_records(old) == measure_records(document)


def test_evaluation_records_against_the_counts(documents: dict[str, Any]) -> None:
    """Informedness from the document's own counts (recall + inverse recall - 1); its
    interval's design; the ranking's n; --summary restores the Table and Ranking exactly."""
    document = documents["informed.evaluation"]
    with (DATA / "breast_cancer_cv.csv").open() as f:
        rows = list(csv.DictReader(f))
    actual = [r["actual"] for r in rows]
    table = Table.from_labels(actual=actual, predicted=[r["predicted"] for r in rows])
    ranking = Ranking.from_scores(actual, [float(r["score"]) for r in rows], positive="malignant")
    assert Table.from_dict(document["summary"]["table"]) == table
    assert Ranking.from_dict(document["summary"]["ranking"]) == ranking
    predicted = [r["predicted"] for r in rows]
    tp = sum(a == p == "malignant" for a, p in zip(actual, predicted, strict=True))
    tn = sum(a == p == "benign" for a, p in zip(actual, predicted, strict=True))
    positives = actual.count("malignant")
    expected = tp / positives + tn / (len(rows) - positives) - 1
    records = {r.key(): r for r in measure_records(document)}
    found = records["informedness"]
    assert found.value == pytest.approx(expected, abs=1e-15)
    assert (found.n, found.level, found.method, found.replicates) == (569, 0.9, "percentile", 1000)
    assert found.low < found.value < found.high
    assert records["auc"].n == 569 and records["auc"].measure in SUMMARIES


def test_grouped_records(documents: dict[str, Any]) -> None:
    """Slices, folds and comparisons: each value under its group or model."""
    by = documents["informed.slices_report"]
    slices = [r for r in measure_records(by) if r.measure == "informedness"]
    assert {r.group for r in slices} == {s["name"] for s in by["slices"]}
    assert all(r.method == by["method"] and r.replicates == by["replicates"] for r in slices)
    folds = documents["informed.folds_report"]
    records = {r.key(): r for r in measure_records(folds)}
    per_fold = folds["measures"]["informedness"]["folds"]
    for name, value in per_fold.items():
        assert records[f"slice.fold={name}.informedness"].value == value
    assert records["mean.informedness"].value == pytest.approx(np.mean(list(per_fold.values())))
    compared = documents["informed.comparison"]
    records = {r.key(): r for r in measure_records(compared)}
    for model, differences in compared["differences"].items():
        assert records[f"model.{model}.difference.auc"].value == differences["auc"]["estimate"]
    across = {r.key(): r for r in measure_records(documents["informed.fold_comparison"])}
    test = documents["informed.fold_comparison"]["tests"]["informedness"]["corrected"]
    assert across["difference.informedness"].low == test["interval"][0]
    assert across["difference.informedness"].method == "corrected-t"
    tallied = documents["informed.tally_slices"]
    assert {r.group for r in measure_records(tallied)} == {"x", "y"}


def test_result_document_of_python_results() -> None:
    """A RankingBootstrap's intervals are records with their design; a Folds, Comparison
    or the other results make documents valid under the schema."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    ranking = Ranking.from_scores(y, y + rng.normal(0, 1, 300), positive=1)
    found = bootstrap_ranking(ranking, replicates=200, level=0.9, seed=0)
    document = result_document(found, summary=True)
    check_result_document(document)
    auc = next(r for r in measure_records(document) if r.measure == "auc")
    assert (auc.level, auc.replicates, auc.n) == (0.9, 200, 300)
    assert auc.low < auc.value < auc.high
    assert Ranking.from_dict(document["summary"]["ranking"]) == ranking


def test_slices_of_scores_alone_are_valid(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --predicted a slice holds its ranking and no table's measures: valid, read
    by `measure_records`; a slice with neither breaks the schema."""
    args = ["evaluate", str(DATA / "breast_cancer_slices.csv"), "--actual", "actual",
            "--score", "score", "--positive", "malignant", "--by", "size", "--format", "json"]  # fmt: skip
    assert main(args) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["scores_only"] is True and document["kind"] == "informed.slices_report"
    check_result_document(document)
    records = {r.key(): r for r in measure_records(document)}
    assert records["slice.large.auc"].value == document["slices"][0]["ranking"]["auc"]
    forged = json.loads(json.dumps(document))
    del forged["slices"][0]["ranking"]
    with pytest.raises(AssertionError, match="slices"):
        check_result_document(forged)


def test_three_models_across_folds_are_valid_and_read_pair_by_pair(tmp_path: Path) -> None:
    """compare --folds with three models writes every pair; the schema takes it, and
    measure_records gives each pair's differences under the pair's name (an earlier
    reader gave no record at all) and each model's folds once."""
    import contextlib
    import io

    rng = np.random.default_rng(1)
    path = tmp_path / "three.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["fold", "y", "a", "b", "c"])
        for i in range(150):
            y = int(rng.integers(0, 2))
            w.writerow([i % 5 + 1, y, *(int(rng.random() < q) ^ (1 - y) for q in (0.3, 0.4, 0.5))])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        args = ["compare", str(path), "--actual", "y", "--predicted", "a", "b", "c"]
        assert main([*args, "--positive", "1", "--folds", "fold", "--format", "json"]) == 0
    document = json.loads(out.getvalue())
    check_result_document(document)
    records = measure_records(document)
    differences = {(r.model, r.group) for r in records if r.measure == "difference.informedness"}
    assert {model for model, _ in differences} == {"b - a", "c - a", "c - b"}
    assert len(differences) == 3 * 6  # five folds and the corrected test's estimate, a pair
    folds = [r for r in records if r.measure == "informedness" and r.model == "a" and r.group]
    assert len(folds) == 5


def test_n_is_the_cases_of_the_summary_each_value_comes_from(
    documents: dict[str, Any], tmp_path: Path
) -> None:
    """docs/results.md's table of `n`, against the rows counted here: a per-label value's n
    is every case (its one-vs-rest table counts them all), the label's own cases its
    prevalence times n; a slice's n its rows, for its differences too; a fold's its test
    rows, the pooled value's and the folds' mean's all of them."""
    records = {r.key(): r for r in measure_records(documents["informed.evaluation"])}
    with (DATA / "breast_cancer_cv.csv").open() as f:
        actual = [r["actual"] for r in csv.DictReader(f)]
    recall = records["per_label.malignant.recall"]
    assert recall.n == len(actual) == 569
    prevalence = records["per_label.malignant.prevalence"].value
    assert prevalence * recall.n == pytest.approx(actual.count("malignant"), abs=1e-9)
    with (DATA / "breast_cancer_slices.csv").open() as f:
        sizes = Counter(r["size"] for r in csv.DictReader(f))
    checked = 0
    for record in measure_records(documents["informed.slices_report"]):
        if record.measure in ("informedness", "vs_rest.informedness"):
            assert record.group is not None
            assert record.n == sizes[record.group.removeprefix("size=")], record.key()
            checked += 1
    assert checked == 2 * len(sizes)
    with _folds_file(tmp_path / "folds.csv").open() as f:
        folds = Counter(r["fold"] for r in csv.DictReader(f))
    records = {r.key(): r for r in measure_records(documents["informed.folds_report"])}
    for fold, size in folds.items():
        assert records[f"slice.fold={fold}.informedness"].n == size
    assert records["informedness"].n == records["mean.informedness"].n == 120
