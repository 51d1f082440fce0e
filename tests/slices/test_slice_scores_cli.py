"""`informed evaluate FILE --actual Y --score S --by COL` without --predicted: each slice's
ranking and calibration. Oracles: scikit-learn's roc_auc_score on each slice's rows (and
on the rest of the rows), model-diagnostics' CORP decomposition of each slice's rows (in
a child process: it imports pyplot); the text, CSV and page show the same numbers."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from informed.cli import main
from tests.peers import run_peer


def _file(path: Path, seed: int = 0, n: int = 1500) -> tuple[Path, dict[str, np.ndarray]]:
    """Groups a, b, c (b ranks worse, c's scores too low), a timestamp over three months,
    probabilities rounded to 2 decimals (many ties)."""
    rng = np.random.default_rng(seed)
    group = rng.choice(np.array(["a", "b", "c"]), n, p=[0.5, 0.3, 0.2])
    risk = rng.beta(2, 3, n)
    noise = np.where(group == "b", 0.35, 0.1)
    scores = np.clip(risk + rng.normal(0, 1, n) * noise, 0, 1)
    scores = np.round(np.where(group == "c", 0.6 * scores, scores), 2)
    actual = (rng.random(n) < risk).astype(int)
    day = np.datetime64("2024-01-01") + np.sort(rng.integers(0, 90, n)).astype("timedelta64[D]")
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["g", "y", "s", "t"])
        for row in zip(group, actual, scores, day, strict=True):
            w.writerow([row[0], row[1], f"{row[2]:.2f}", str(row[3])])
    return path, {"group": group, "actual": actual, "scores": scores, "month": day.astype("M8[M]")}


def _run(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> str:
    args = ["evaluate", str(path), "--actual", "y", "--score", "s", "--positive", "1", "--quiet"]
    code = main([*args, *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_json_gives_each_slice_sklearn_s_auc_and_its_difference_from_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, rows = _file(tmp_path / "rows.csv")
    document = json.loads(_run(capsys, path, "--by", "g", "--format", "json"))
    assert document["kind"] == "informed.slices_report" and document["scores_only"] is True
    group, actual, scores = rows["group"], rows["actual"], rows["scores"]
    aucs = {}
    for entry in document["slices"]:
        mine = group == entry["name"]
        expected = roc_auc_score(actual[mine], scores[mine])
        ranking = entry["ranking"]
        assert ranking["auc"] == pytest.approx(expected, abs=1e-12)
        assert (ranking["n_positive"], ranking["n_negative"]) == (
            actual[mine].sum(),
            (1 - actual[mine]).sum(),
        )
        low, high = ranking["auc_interval"]
        assert low < ranking["auc"] < high
        rest = roc_auc_score(actual[~mine], scores[~mine])
        assert entry["vs_rest"]["auc"]["estimate"] == pytest.approx(expected - rest, abs=1e-12)
        assert "measures" not in entry  # no table without predicted labels
        aucs[entry["name"]] = expected
    largest = max(aucs, key=lambda g: int(np.sum(group == g)))
    assert document["reference"] == [largest]
    for entry in document["slices"]:
        found = entry["vs_reference"]["auc"]
        if entry["name"] == largest:
            assert found["estimate"] is None and found["reason"] == "the reference slice itself"
        else:
            expected = aucs[entry["name"]] - aucs[largest]
            assert found["estimate"] == pytest.approx(expected, abs=1e-12)
    spread = document["disparities"]["auc_spread"]
    assert spread["estimate"] == pytest.approx(max(aucs.values()) - min(aucs.values()), abs=1e-12)
    assert spread["interval"][0] <= spread["estimate"] <= spread["interval"][1]
    assert spread["highest"] == max(aucs, key=aucs.get) and spread["lowest"] == "b"
    assert spread["left_out"] == []


def test_calibration_within_slices_matches_model_diagnostics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each slice's MCB, DSC, UNC and Brier score: model-diagnostics' `decompose` of the
    slice's rows, to 1e-12."""
    path, rows = _file(tmp_path / "rows.csv", seed=1)
    document = json.loads(_run(capsys, path, "--by", "g", "--format", "json"))
    code = """
from model_diagnostics.scoring import SquaredError, decompose
found = {}
for g in ("a", "b", "c"):
    keep = group == g
    found[g] = decompose(actual[keep], scores[keep], scoring_function=SquaredError()).row(
        0, named=True)
print(json.dumps(found))
"""
    arrays = {k: rows[k] for k in ("actual", "scores")} | {"group": rows["group"].astype("U1")}
    theirs = run_peer("model_diagnostics", code, arrays, tmp_path)
    section = document["calibration"]
    assert section["rule"] == "brier"
    for entry in section["slices"]:
        for name in ("miscalibration", "discrimination", "uncertainty", "score"):
            assert entry[name] == pytest.approx(theirs[entry["name"]][name], abs=1e-12)
    mcb = [theirs[g]["miscalibration"] for g in ("a", "b", "c")]
    assert section["spread"]["estimate"] == pytest.approx(max(mcb) - min(mcb), abs=1e-12)


def test_text_csv_and_page_show_the_same_slices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, rows = _file(tmp_path / "rows.csv")
    group, actual, scores = rows["group"], rows["actual"], rows["scores"]
    expected = {g: roc_auc_score(actual[group == g], scores[group == g]) for g in "abc"}
    page = tmp_path / "slices.html"
    text = _run(capsys, path, "--by", "g", "--html", str(page))
    assert "Scores without predicted labels" in text
    listed = re.findall(r"^([abc]) +[\d,]+ +\d+ +\d+ +([\d.]+) \[", text, re.M)
    assert [g for g, _ in listed] == sorted(expected, key=lambda g: -expected[g])  # by AUC
    assert all(float(auc) == round(expected[g], 3) for g, auc in listed)
    assert "spread of AUC (max - min): " in text and "Calibration within slices" in text
    table = list(csv.DictReader(io.StringIO(_run(capsys, path, "--by", "g", "--format", "csv"))))
    assert [r["g"] for r in table] == ["a", "b", "c"]
    for r in table:
        assert float(r["auc"]) == pytest.approx(expected[r["g"]], abs=1e-12)
        assert float(r["d_auc_vs_rest_low"]) < float(r["d_auc_vs_rest"])
    html = page.read_text()
    assert html.count('<tr data-slice="') == 6  # three slices, in both tables
    for section in ('id="slices-table"', 'id="slices-auc-spread"', 'id="slice-calibration-table"'):
        assert section in html
    assert f"{expected['b']:.4f}" in html


def test_time_windows_and_merged_windows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--by-time: each month's AUC is sklearn's on the month's rows, in time order;
    --cumulative: each merged window's AUC is sklearn's on the rows up to it, and the
    windows (which overlap) are not compared: no differences, no spread, the reason."""
    path, rows = _file(tmp_path / "rows.csv", seed=2)
    actual, scores, month = rows["actual"], rows["scores"], rows["month"]
    months = ["2024-01", "2024-02", "2024-03"]
    every = ["--by-time", "t", "--every", "1mo"]
    document = json.loads(_run(capsys, path, *every, "--format", "json"))
    assert [e["name"] for e in document["slices"]] == months
    for entry in document["slices"]:
        mine = month == np.datetime64(entry["name"])
        assert entry["ranking"]["auc"] == pytest.approx(
            roc_auc_score(actual[mine], scores[mine]), abs=1e-12
        )
    assert document["reference"][0].startswith("2024-01")  # the first window
    merged = json.loads(_run(capsys, path, *every, "--cumulative", "--format", "json"))
    for entry in merged["slices"]:
        upto = month <= np.datetime64(entry["name"])
        assert entry["ranking"]["auc"] == pytest.approx(
            roc_auc_score(actual[upto], scores[upto]), abs=1e-12
        )
        assert entry["vs_rest"] is None
    assert merged["disparities"] is None and merged["windows"]["merged"] == "cumulative"
    text = _run(capsys, path, *every, "--cumulative")
    assert "spread of AUC (max - min): — (the windows overlap (cumulative)" in text


def test_scores_that_are_not_probabilities_give_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "logits.csv"
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    logits = y * 1.5 + rng.normal(0, 1, 400)
    path.write_text(
        "g,y,s\n" + "".join(f"{'pq'[i % 2]},{y[i]},{logits[i]:.3f}\n" for i in range(400))
    )
    document = json.loads(_run(capsys, path, "--by", "g", "--format", "json"))
    assert "outside [0, 1]" in document["calibration"]["undefined"]
    assert document["slices"][0]["ranking"]["auc"] is not None
    text = _run(capsys, path, "--by", "g")
    assert "Calibration within slices: none (" in text


def test_reference_and_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _file(tmp_path / "rows.csv")
    document = json.loads(_run(capsys, path, "--by", "g", "--reference", "c", "--format", "json"))
    assert document["reference"] == ["c"]
    assert main(["evaluate", str(path), "--actual", "y", "--by", "g", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "give --predicted COL, --score COL, or both." in err
    assert main(["evaluate", str(path), "--actual", "y", "--score", "s", "--positive", "1",
                 "--by", "g", "--reference", "z", "--quiet"]) == 2  # fmt: skip
    assert "--reference 'z' is not a slice" in capsys.readouterr().err
