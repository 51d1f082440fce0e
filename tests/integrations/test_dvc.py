"""`informed evaluate ... --dvc DIR` and `informed.dvc.write`: the metrics file `dvc metrics
diff` compares and the plot files DVC's built-in templates draw (issue 31, item 4).

DVC's file formats, as its documentation gives them: a metrics file is JSON whose nested
keys DVC flattens with "." and whose leaves are numbers (JSON has no NaN); a plot file is
a JSON list of records, and the ``confusion`` templates count the rows of each (actual,
predicted) pair (a Vega-Lite ``count`` aggregate). The oracles here are the rows
themselves (counted by `collections.Counter`), the formulas written out, and
scikit-learn's ROC curve. When the ``dvc`` command is installed, DVC reads the files
itself: `dvc metrics show` and `dvc metrics diff` on two commits of a git + DVC
repository, `dvc plots show` on the plots of docs/dvc.md's dvc.yaml.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import stat
import subprocess
import sys
import threading
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import Ranking, Table, bootstrap
from informed.cli import main
from informed.dvc import DECISION_THRESHOLDS, write

RNG = np.random.default_rng(31)
N = 400
ACTUAL = RNG.integers(0, 2, N)
SCORES = np.round(np.clip(RNG.normal(0.35 + 0.3 * ACTUAL, 0.2), 0.0, 1.0), 2)
PREDICTED = (SCORES >= 0.5).astype(int)


@pytest.fixture(autouse=True)
def _in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative paths (``--dvc eval``) land in the test's folder."""
    monkeypatch.chdir(tmp_path)


def _csv(folder: Path, actual: Any = ACTUAL, scores: Any = SCORES) -> Path:
    path = folder / "predictions.csv"
    predicted = (np.asarray(scores) >= 0.5).astype(int)
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["y", "p", "s"])
        writer.writerows(zip(actual, predicted, scores, strict=True))
    return path


def _strict(path: Path) -> Any:
    """The file's JSON, NaN and Infinity refused (they are not JSON)."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{path.name} holds {constant}, which is not JSON")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested keys joined with ".", as DVC flattens a metrics file."""
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _evaluate(data: Path, *options: str) -> list[str]:
    return ["evaluate", str(data), "--actual", "y", "--predicted", "p", "--score", "s",
            "--positive", "1", "--quiet", "--format", "json", *options]  # fmt: skip


# -- metrics.json ---------------------------------------------------------------------


def test_metrics_hold_value_interval_and_n_as_dvc_flattens_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every leaf a number, null or text; informedness as its formula gives it from the
    rows, with the interval of `--format json` and n the rows."""
    code, out, err = _run(_evaluate(_csv(tmp_path), "--ci", "0.9", "--dvc", "eval"), capsys)
    assert code == 0, err
    flat = _flatten(_strict(tmp_path / "eval" / "metrics.json"))
    assert all(v is None or isinstance(v, int | float | str) for v in flat.values())
    tp = np.sum((PREDICTED == 1) & (ACTUAL == 1))
    fn = np.sum((PREDICTED == 0) & (ACTUAL == 1))
    fp = np.sum((PREDICTED == 1) & (ACTUAL == 0))
    tn = np.sum((PREDICTED == 0) & (ACTUAL == 0))
    assert flat["informedness.value"] == pytest.approx(tp / (tp + fn) - fp / (fp + tn), abs=1e-15)
    printed = json.loads(out)
    assert [flat["informedness.ci_low"], flat["informedness.ci_high"]] == printed["intervals"][
        "informedness"
    ]
    assert flat["informedness.level"] == 0.9
    assert flat["informedness.method"] == "percentile"
    assert flat["informedness.replicates"] == 1000
    assert flat["informedness.n"] == N
    assert flat["per_label.1.recall.value"] == pytest.approx(tp / (tp + fn), abs=1e-15)
    assert flat["auc.value"] == printed["ranking"]["auc"]
    assert "auc.ci_low" not in flat  # no interval was made for it: no key, not a null
    # DVC reads any key named "error" as a file it failed to load: the error rate is
    # keyed by its other name
    assert not any("error" in key.split(".") for key in flat)
    assert flat["error_rate.value"] == pytest.approx((fp + fn) / N, abs=1e-15)


def test_an_undefined_value_is_null_with_its_reason(tmp_path: Path) -> None:
    """No actual negatives: informedness is undefined, written null (never 0, never NaN)
    with the reason beside it."""
    write(Table.binary(tp=5, fp=0, fn=3, tn=0), tmp_path, positive="+")
    entry = _strict(tmp_path / "metrics.json")["informedness"]
    assert entry["value"] is None
    assert "negative" in entry["undefined"]
    assert entry["n"] == 8


# -- the plots -------------------------------------------------------------------------


def test_the_confusion_rows_count_as_the_cases_do(tmp_path: Path) -> None:
    """DVC's confusion template counts rows per (actual, predicted): those counts are the
    rows' own crosstab, and its normalized template's fractions per actual class too."""
    actual = ["cat", "dog", "dog", "bird", "cat", "dog", "bird", "cat", "cat"]
    predicted = ["cat", "dog", "cat", "bird", "dog", "dog", "cat", "cat", "cat"]
    files = write(Table.from_labels(actual, predicted), tmp_path)
    rows = _strict(tmp_path / "confusion.json")
    assert Counter((r["actual"], r["predicted"]) for r in rows) == Counter(
        zip(actual, predicted, strict=True)
    )
    cells = _strict(tmp_path / "confusion_counts.json")
    assert {(c["actual"], c["predicted"]): c["count"] for c in cells} == Counter(
        zip(actual, predicted, strict=True)
    )
    assert [p.name for p in files.written] == [
        "metrics.json", "confusion.json", "confusion_counts.json"
    ]  # fmt: skip
    assert files.left_out == {}  # no Ranking given: no ROC to leave out


def test_confusion_rows_are_left_out_beyond_max_cases_or_for_fractional_weights(
    tmp_path: Path,
) -> None:
    """One row per case cannot stand for 1,001 cases under max_cases=1000, nor for a
    weight of 0.5: the file is left out with the reason; the exact counts are written."""
    big = Table.binary(tp=600, fp=1, fn=200, tn=200)
    files = write(big, tmp_path / "big", positive="+", max_cases=1000)
    assert "1,001 cases" in files.left_out["confusion.json"]
    assert not (tmp_path / "big" / "confusion.json").exists()
    counts = _strict(tmp_path / "big" / "confusion_counts.json")
    assert sorted(c["count"] for c in counts) == [1, 200, 200, 600]
    weighted = Table.from_labels([1, 0, 1], [1, 1, 0], weights=[0.5, 2.0, 1.0])
    files = write(weighted, tmp_path / "weighted")
    assert "fractional weights" in files.left_out["confusion.json"]
    whole = Table.from_labels([1, 0, 1], [1, 1, 0], weights=[3.0, 2.0, 1.0])
    write(whole, tmp_path / "whole")
    rows = _strict(tmp_path / "whole" / "confusion.json")
    assert Counter((r["actual"], r["predicted"]) for r in rows) == {(1, 1): 3, (0, 1): 2, (1, 0): 1}


def test_the_roc_points_are_scikit_learns_curve(tmp_path: Path) -> None:
    """Every point lies on scikit-learn's ROC curve (all its points kept), and the area
    under the points written is its AUC."""
    from sklearn.metrics import roc_auc_score, roc_curve

    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    write(ranking, tmp_path)
    points = _strict(tmp_path / "roc.json")
    fpr, tpr, _ = roc_curve(ACTUAL, SCORES, drop_intermediate=False)
    theirs = set(zip(fpr.round(12).tolist(), tpr.round(12).tolist(), strict=True))
    ours = [(round(p["fpr"], 12), round(p["tpr"], 12)) for p in points]
    assert set(ours) <= theirs
    assert ours[0] == (0.0, 0.0) and ours[-1] == (1.0, 1.0)
    assert points[0]["threshold"] is None  # +inf: select nothing
    x = np.array([p["fpr"] for p in points])
    y = np.array([p["tpr"] for p in points])
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    assert area == pytest.approx(roc_auc_score(ACTUAL, SCORES), abs=1e-12)


def test_a_long_roc_curve_keeps_points_of_the_curve_close_together(tmp_path: Path) -> None:
    """30,000 distinct scores: at most about 10,000 points are written, each a point of
    scikit-learn's curve; between two points kept the curve moves less than
    ROC_RESOLUTION in fpr + tpr, or runs straight from one to the other."""
    from sklearn.metrics import roc_auc_score, roc_curve

    from informed.dvc import ROC_RESOLUTION

    rng = np.random.default_rng(7)
    actual = rng.integers(0, 2, 30_000)
    scores = rng.normal(actual * 0.8, 1.0)
    write(Ranking.from_scores(actual, scores, positive=1), tmp_path)
    points = _strict(tmp_path / "roc.json")
    assert 1000 < len(points) <= 2 * (2 / ROC_RESOLUTION + 1) + 2
    fpr, tpr, _ = roc_curve(actual, scores, drop_intermediate=False)
    position = {xy: i for i, xy in enumerate(zip(fpr.tolist(), tpr.tolist(), strict=True))}
    at = [position[(p["fpr"], p["tpr"])] for p in points]  # KeyError: not on the curve
    for a, b in pairwise(at):
        moved = (fpr[b] - fpr[a]) + (tpr[b] - tpr[a])
        between = slice(a + 1, b)
        cross = (fpr[b] - fpr[a]) * (tpr[between] - tpr[a]) - (tpr[b] - tpr[a]) * (
            fpr[between] - fpr[a]
        )
        assert moved < ROC_RESOLUTION + 1e-12 or np.all(np.abs(cross) < 1e-12)
    x = np.array([p["fpr"] for p in points])
    y = np.array([p["tpr"] for p in points])
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    assert area == pytest.approx(roc_auc_score(actual, scores), abs=ROC_RESOLUTION)


def test_the_decision_curve_is_net_benefit_as_its_formula_gives_it(tmp_path: Path) -> None:
    """NB(p) = TP/n - FP/n * p/(1-p) over the rows scored at least p (Vickers & Elkin
    2006), treat-all from the prevalence, at 0, 0.01, ..., 0.99."""
    write(Ranking.from_scores(ACTUAL, SCORES, positive=1), tmp_path)
    points = _strict(tmp_path / "decision_curve.json")
    assert [p["threshold"] for p in points] == list(DECISION_THRESHOLDS)
    prevalence = ACTUAL.mean()
    for point in points[::7]:
        p = point["threshold"]
        acted = p <= SCORES
        tp, fp = np.sum(acted & (ACTUAL == 1)), np.sum(acted & (ACTUAL == 0))
        odds = p / (1 - p)
        assert point["net_benefit"] == pytest.approx(tp / N - fp / N * odds, abs=1e-12)
        assert point["treat_all"] == pytest.approx(prevalence - (1 - prevalence) * odds, abs=1e-12)
        assert point["treat_none"] == 0.0


def test_scores_that_are_no_probabilities_draw_no_decision_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ROC is drawn; the decision curve is left out, said on stderr."""
    data = _csv(tmp_path, scores=SCORES * 10)
    code, _, err = _run(_evaluate(data, "--dvc", "eval"), capsys)
    assert code == 0, err
    assert (tmp_path / "eval" / "roc.json").exists()
    assert not (tmp_path / "eval" / "decision_curve.json").exists()
    assert "--dvc: decision_curve.json not written: the decision curve reads" in err


def test_the_python_call_writes_what_the_command_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`write` of the same Table, Bootstrap and Ranking gives the command's files (the
    metrics but the per-label ones, which the command keys by the CSV's text "1")."""
    code, _, err = _run(_evaluate(_csv(tmp_path), "--ci", "0.95", "--dvc", "cli"), capsys)
    assert code == 0, err
    table = Table.from_labels(ACTUAL, PREDICTED)
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    intervals = bootstrap(table, positive=1, replicates=1000, level=0.95, seed=0)
    write([intervals, ranking], tmp_path / "python", positive=1)
    for name in ("roc.json", "decision_curve.json"):
        assert _strict(tmp_path / "cli" / name) == _strict(tmp_path / "python" / name)
    ours = _strict(tmp_path / "python" / "metrics.json")
    theirs = _strict(tmp_path / "cli" / "metrics.json")
    assert {k: v for k, v in ours.items() if k != "per_label"} == {
        k: v for k, v in theirs.items() if k != "per_label"
    }


# -- the paths are the user's ------------------------------------------------------------


def test_a_link_is_followed_and_a_fifo_written_through(tmp_path: Path) -> None:
    """metrics.json a link: its target is written, the link kept; roc.json a FIFO: its
    reader gets the points, the FIFO stays a FIFO."""
    folder = tmp_path / "eval"
    folder.mkdir()
    target = tmp_path / "elsewhere.json"
    (folder / "metrics.json").symlink_to(target)
    fifo = folder / "roc.json"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reading = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    keeper = os.open(fifo, os.O_WRONLY)
    os.set_blocking(reading, True)

    def read() -> None:
        with os.fdopen(reading, "rb") as stream:
            received.append(stream.read())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        write(Ranking.from_scores(ACTUAL, SCORES, positive=1), folder)
    finally:
        os.close(keeper)
        reader.join()
    assert (folder / "metrics.json").is_symlink()
    assert "auc" in json.loads(target.read_text())
    assert json.loads(received[0])[0] == {"fpr": 0.0, "tpr": 0.0, "threshold": None}
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_refusals_come_before_any_file_and_a_failed_write_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DIR a file, and a folder where roc.json goes: refused, exit 2, nothing written. A
    file that cannot be written (a link to /dev/full): exit 2, the reason in words."""
    data = _csv(tmp_path)
    (tmp_path / "plain").write_text("kept")
    code, _, err = _run(_evaluate(data, "--dvc", str(tmp_path / "plain")), capsys)
    assert code == 2
    assert "it is not a folder" in err
    folder = tmp_path / "eval"
    (folder / "roc.json").mkdir(parents=True)
    code, _, err = _run(_evaluate(data, "--dvc", str(folder)), capsys)
    assert code == 2
    assert "roc.json" in err and "it is a folder" in err
    assert sorted(p.name for p in folder.iterdir()) == ["roc.json"]
    if not Path("/dev/full").exists():  # pragma: no cover - Linux has it
        return
    full = tmp_path / "full"
    full.mkdir()
    (full / "metrics.json").symlink_to("/dev/full")
    code, _, err = _run(_evaluate(data, "--dvc", str(full)), capsys)
    assert code == 2
    assert "no space left on device" in err


def test_dvc_goes_with_the_report_of_all_rows_or_of_slices_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _csv(tmp_path)
    for option in (["--partial", str(tmp_path / "x.json")], ["--find-slices", "p"]):
        code, _, err = _run(_evaluate(data, "--dvc", "eval", *option), capsys)
        assert code == 2
        assert f"not with {option[0]}" in err
    assert not (tmp_path / "eval").exists()


def _sliced_csv(folder: Path) -> Path:
    """The rows with a slice column g (three slices) and a date t (two months)."""
    path = folder / "sliced.csv"
    groups = np.array(["north", "south", "east/west"])[np.arange(N) % 3]
    dates = np.where(np.arange(N) < N // 2, "2024-01-15", "2024-02-15")
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["y", "p", "s", "g", "t"])
        writer.writerows(zip(ACTUAL, PREDICTED, SCORES, groups, dates, strict=True))
    return path


def _informedness(rows: Any) -> float:
    tp = np.sum((PREDICTED[rows] == 1) & (ACTUAL[rows] == 1))
    fn = np.sum((PREDICTED[rows] == 0) & (ACTUAL[rows] == 1))
    fp = np.sum((PREDICTED[rows] == 1) & (ACTUAL[rows] == 0))
    tn = np.sum((PREDICTED[rows] == 0) & (ACTUAL[rows] == 0))
    return float(tp / (tp + fn) - fp / (fp + tn))


def test_slices_are_nested_under_their_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--by: each slice's values under slice.<name>, informedness as its formula gives it
    from the slice's rows, with the report's interval and the slice's n; no plot file."""
    data = _sliced_csv(tmp_path)
    code, out, err = _run(_evaluate(data, "--by", "g", "--dvc", "eval"), capsys)
    assert code == 0, err
    flat = _flatten(_strict(tmp_path / "eval" / "metrics.json"))
    assert all(v is None or isinstance(v, int | float | str) for v in flat.values())
    printed = {entry["name"]: entry for entry in json.loads(out)["slices"]}
    for number, name in enumerate(["north", "south", "east/west"]):
        rows = np.arange(N) % 3 == number
        key = f"slice.{name}.informedness"
        assert flat[f"{key}.value"] == pytest.approx(_informedness(rows), abs=1e-15)
        assert flat[f"{key}.n"] == rows.sum()
        assert [flat[f"{key}.ci_low"], flat[f"{key}.ci_high"]] == printed[name]["intervals"][
            "informedness"
        ]
        assert flat[f"{key}.level"] == 0.95
    assert "slice.north.vs_rest.informedness.value" in flat
    disparities = json.loads(out)["disparities"]
    for name, found in disparities.items():  # at the top, as printed
        assert flat[f"{name}.value"] == found["estimate"]
        assert flat[f"{name}.every_slice.value"] == found["every_slice"]["estimate"]
        assert flat[f"{name}.n"] == N
    assert sorted(p.name for p in (tmp_path / "eval").iterdir()) == ["metrics.json"]
    code, _, err = _run(_evaluate(data, "--by-time", "t", "--every", "1mo", "--dvc", "win"),
                        capsys)  # fmt: skip
    assert code == 0, err
    windows = _strict(tmp_path / "win" / "metrics.json")["slice"]
    assert len(windows) == 2
    first = windows[min(windows)]["informedness"]
    assert first["value"] == pytest.approx(_informedness(np.arange(N) < N // 2), abs=1e-15)
    assert first["n"] == N // 2


# -- DVC itself -------------------------------------------------------------------------


DVC = shutil.which("dvc", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
"""The dvc command: beside this Python (a virtual environment's bin) or on PATH."""


@pytest.mark.skipif(DVC is None, reason="the dvc command is not installed")
def test_dvc_metrics_diff_compares_two_commits(tmp_path: Path) -> None:
    """In a git + DVC repository, two commits of metrics.json: `dvc metrics diff` reads
    the flattened keys and the change of informedness."""

    def run(*argv: str) -> str:
        command = [DVC, *argv[1:]] if argv[0] == "dvc" else list(argv)
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        return done.stdout

    run("git", "init", "-q")
    run("git", "config", "user.email", "t@example.org")
    run("git", "config", "user.name", "t")
    run("dvc", "init", "-q")
    (tmp_path / "dvc.yaml").write_text("metrics:\n  - eval/metrics.json\n")
    first = Table.binary(tp=30, fp=10, fn=10, tn=50)
    second = Table.binary(tp=35, fp=10, fn=5, tn=50)
    write(first, tmp_path / "eval", positive="+")
    run("git", "add", "-A")
    run("git", "commit", "-qm", "first")
    write(second, tmp_path / "eval", positive="+")
    shown = subprocess.run([DVC, "metrics", "show"], cwd=tmp_path, capture_output=True,
                           text=True, check=True)  # fmt: skip
    assert "failed" not in shown.stderr + shown.stdout
    assert "informedness.value" in shown.stdout
    diff = json.loads(run("dvc", "metrics", "diff", "--json"))
    changes = diff[str(Path("eval") / "metrics.json")]
    old = 30 / 40 - 10 / 60
    new = 35 / 40 - 10 / 60
    assert changes["informedness.value"]["old"] == pytest.approx(old, abs=1e-15)
    assert changes["informedness.value"]["new"] == pytest.approx(new, abs=1e-15)
    assert changes["informedness.value"]["diff"] == pytest.approx(new - old, abs=1e-12)
    assert not math.isnan(changes["recall.value"]["diff"])


@pytest.mark.skipif(DVC is None, reason="the dvc command is not installed")
def test_dvc_metrics_diff_compares_the_slices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed evaluate --by g --dvc eval` at two commits: `dvc metrics diff` shows
    each slice's change under slice.<name>.<measure>.value."""

    def run(*argv: str) -> str:
        command = [DVC, *argv[1:]] if argv[0] == "dvc" else list(argv)
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                              check=False)  # fmt: skip
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        return done.stdout

    run("git", "init", "-q")
    run("git", "config", "user.email", "t@example.org")
    run("git", "config", "user.name", "t")
    run("dvc", "init", "-q")
    (tmp_path / "dvc.yaml").write_text("metrics:\n  - eval/metrics.json\n")
    data = _sliced_csv(tmp_path)
    code, _, err = _run(_evaluate(data, "--by", "g", "--dvc", "eval"), capsys)
    assert code == 0, err
    run("git", "add", "-A")
    run("git", "commit", "-qm", "first")
    before = _strict(tmp_path / "eval" / "metrics.json")
    lines = data.read_text().splitlines()
    # the model improves in the south: its first ten wrong predictions put right
    wrong = [i for i in range(N) if i % 3 == 1 and PREDICTED[i] != ACTUAL[i]][:10]
    for i in wrong:
        y, _, *rest = lines[i + 1].split(",")
        lines[i + 1] = ",".join([y, y, *rest])
    data.write_text("\n".join(lines) + "\n")
    code, _, err = _run(_evaluate(data, "--by", "g", "--dvc", "eval"), capsys)
    assert code == 0, err
    shown = subprocess.run([DVC, "metrics", "show"], cwd=tmp_path, capture_output=True,
                           text=True, check=True)  # fmt: skip
    assert "failed" not in shown.stderr + shown.stdout
    assert "slice.south.informedness.value" in shown.stdout
    changes = json.loads(run("dvc", "metrics", "diff", "--json"))[
        str(Path("eval") / "metrics.json")
    ]
    south = changes["slice.south.informedness.value"]
    assert south["old"] == before["slice"]["south"]["informedness"]["value"]
    assert south["new"] > south["old"]
    assert "slice.north.informedness.value" not in changes  # the north did not change


@pytest.mark.skipif(DVC is None, reason="the dvc command is not installed")
def test_dvc_draws_the_plots_of_the_dvc_yaml_in_the_docs(tmp_path: Path) -> None:
    """The top-level plots of docs/dvc.md's dvc.yaml, on files `write` made: `dvc plots
    show --json` fills each template with the rows, the confusion matrix with one row per
    case, the decision curve with its three lines."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "dvc.md").read_text()
    yaml = docs.split("```text\nstages:\n", 1)[1].split("```", 1)[0]
    plots = yaml[yaml.index("plots:\n") :]

    def run(*argv: str) -> str:
        done = subprocess.run(
            [DVC, *argv] if argv[0] != "git" else list(argv),
            cwd=tmp_path, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        return done.stdout

    run("git", "init", "-q")
    run("init", "-q")
    (tmp_path / "dvc.yaml").write_text(plots)
    table = Table.from_labels(ACTUAL, PREDICTED)
    write([table, Ranking.from_scores(ACTUAL, SCORES, positive=1)], tmp_path / "eval")
    shown = json.loads(run("plots", "show", "--json"))
    assert not shown.get("errors")
    data = {
        name: entries[0]["content"]["data"]["values"] for name, entries in shown["data"].items()
    }
    confusion = data[str(Path("eval") / "confusion.json")]
    assert Counter((r["actual"], r["predicted"]) for r in confusion) == Counter(
        zip(ACTUAL.tolist(), PREDICTED.tolist(), strict=True)
    )
    assert {"fpr", "tpr"} <= set(data[str(Path("eval") / "roc.json")][0])
    lines = Counter(r["field"] for r in data[str(Path("eval") / "decision_curve.json")])
    assert lines == {"net_benefit": 100, "treat_all": 100, "treat_none": 100}


def test_slices_of_scores_alone_are_kept_for_dvc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--dvc with --by and no --predicted writes each slice's AUC (scikit-learn's on the
    slice's rows) under slice.NAME; the scores-only report once printed and wrote nothing."""
    from sklearn.metrics import roc_auc_score

    data = Path(__file__).parents[2] / "src" / "informed" / "data" / "breast_cancer_slices.csv"
    args = ["evaluate", str(data), "--actual", "actual", "--score", "score",
            "--positive", "malignant", "--by", "size", "--quiet", "--dvc", str(tmp_path / "d")]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    metrics = json.loads((tmp_path / "d" / "metrics.json").read_text())
    with data.open() as f:
        rows = list(csv.DictReader(f))
    for size in {r["size"] for r in rows}:
        own = [r for r in rows if r["size"] == size]
        expected = roc_auc_score([r["actual"] == "malignant" for r in own],
                                 [float(r["score"]) for r in own])  # fmt: skip
        found = metrics["slice"][size]["auc"]
        assert found["value"] == pytest.approx(expected, abs=1e-12)
        assert found["n"] == len(own)


def test_intervals_are_written_only_beside_the_values_they_were_drawn_for(
    tmp_path: Path,
) -> None:
    """A Bootstrap's positive class is the values' when `positive` is not given (the
    recall of class 1, TP / (TP + FN) written out, inside its interval), and results that
    disagree (another table's intervals, another positive, two Tables, another Ranking's
    intervals) are refused before any file is written, never written side by side."""
    from informed.errors import InputError
    from informed.inference import bootstrap_ranking

    table = Table.from_labels(ACTUAL, PREDICTED)
    intervals = bootstrap(table, positive=1, replicates=200, seed=0)
    write([table, intervals], tmp_path / "eval")
    recall = _strict(tmp_path / "eval" / "metrics.json")["recall"]
    tp = int(np.sum((ACTUAL == 1) & (PREDICTED == 1)))
    assert recall["value"] == tp / int(np.sum(ACTUAL == 1))
    assert recall["ci_low"] <= recall["value"] <= recall["ci_high"]
    other = Table.from_labels(ACTUAL, 1 - PREDICTED)
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    wrong = bootstrap_ranking(Ranking.from_scores(ACTUAL, 1 - SCORES, positive=1), seed=0,
                              replicates=50)  # fmt: skip
    for results, says in [
        ([table, bootstrap(other, positive=1, replicates=50, seed=0)], "different counts"),
        ([table, intervals], "positive classes differ"),  # positive=0 below
        ([table, other], "at most one Table"),
        ([ranking, wrong], "another Ranking"),
    ]:
        folder = tmp_path / "refused"
        with pytest.raises(InputError, match=says):
            write(results, folder, positive=0 if says.startswith("positive") else None)
        assert not folder.exists()
