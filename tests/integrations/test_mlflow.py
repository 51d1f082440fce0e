"""informed.mlflow against a real MLflow tracking store (SQLite in a temporary folder, no
server; MLflow 3 refuses the plain file store unless MLFLOW_ALLOW_FILE_STORE is set, and
its default store is SQLite): the keys `mlflow.search_runs` finds and their values, the
artifacts read back exactly, the model evaluator inside `mlflow.models.evaluate`, the
command line's --mlflow.

mlflow imports slowly and creates its tables once per store: every test shares one store
and one process (the module's fixture).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from informed import Ranking, Table, bootstrap, evaluate
from informed.errors import InputError
from informed.integrations.mlflow.keys import check_prefix, metric_values, safe_name
from informed.report.records import MeasureRecord, measure_records, result_document

mlflow = pytest.importorskip("mlflow", reason="mlflow is not installed: pip install '.[test]'")
import informed.mlflow as im  # noqa: E402  (after the skip: it names the missing package)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A SQLite tracking store and an experiment whose artifacts stay in the temporary
    folder; MLFLOW_TRACKING_URI names it (the command line reads it from there). The
    store is opened in that folder: an experiment created without an artifact location
    (the command line's) keeps its artifacts in ./mlruns there."""
    folder = tmp_path_factory.mktemp("mlflow")
    uri = f"sqlite:///{folder / 'mlflow.db'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.setenv("MLFLOW_TRACKING_URI", uri)
        patch.delenv("MLFLOW_RUN_ID", raising=False)
        patch.delenv("MLFLOW_EXPERIMENT_NAME", raising=False)
        patch.delenv("MLFLOW_EXPERIMENT_ID", raising=False)
        previous = mlflow.get_tracking_uri()
        mlflow.set_tracking_uri(uri)
        experiment = mlflow.create_experiment("informed", (folder / "artifacts").as_uri())
        mlflow.set_experiment(experiment_id=experiment)
        try:
            yield experiment
        finally:
            while mlflow.active_run() is not None:
                mlflow.end_run()
            mlflow.set_tracking_uri(previous)


# labels a metric key cannot hold as they are: '/' and '+' become '_'
TABLE = Table.from_labels(
    ["cat", "dog", "a/b", "dog", "cat", "a/b", "dog", "cat", "1+1", "dog"] * 3,
    ["cat", "dog", "dog", "dog", "a/b", "a/b", "cat", "cat", "dog", "dog"] * 3,
)


def _run(run_id: str) -> Any:
    return mlflow.MlflowClient().get_run(run_id)


def test_log_gives_every_value_its_interval_and_n(store: str) -> None:
    """`search_runs` finds each value under its key with _ci_low, _ci_high and _n, equal
    to informed's; undefined values are no metric but have their reason in undefined.json."""
    intervals = bootstrap(TABLE, replicates=200, seed=3)
    with mlflow.start_run(experiment_id=store) as run:
        assert im.log(TABLE, intervals, prefix="val/", html=False) == run.info.run_id
    found = mlflow.search_runs([store], filter_string=f"attributes.run_id = '{run.info.run_id}'")
    row = found.iloc[0]
    measures = evaluate(TABLE).measures
    informedness = intervals.intervals["informedness"]
    assert row["metrics.val/informedness"] == measures["informedness"]
    assert row["metrics.val/informedness_ci_low"] == informedness.low
    assert row["metrics.val/informedness_ci_high"] == informedness.high
    assert row["metrics.val/informedness_n"] == 30
    recall = evaluate(TABLE).per_label["a/b"]["recall"]
    assert row["metrics.val/per_label.a_b.recall"] == recall == 1 / 2
    assert row["metrics.val/per_label.1_1.recall"] == 0.0
    assert row["metrics.val/ci_level"] == 0.95
    assert row["metrics.val/ci_replicates"] == 200
    # 1+1 is never predicted: its precision is undefined, so not a metric
    assert "metrics.val/per_label.1_1.precision" not in found.columns
    undefined = json.loads(
        mlflow.artifacts.load_text(f"runs:/{run.info.run_id}/informed/val/undefined.json")
    )
    assert undefined["val/per_label.1_1.precision"] == "undefined for this label"
    assert all(math.isfinite(v) for v in _run(run.info.run_id).data.metrics.values())


def test_artifacts_round_trip_exactly(store: str) -> None:
    """The result document is the one informed writes; `load` gives back the Table and
    the Ranking equal to the ones logged, so the results of two runs merge."""
    rng = np.random.default_rng(1)
    actual = rng.integers(0, 2, 200)
    scores = np.round(rng.random(200) + 0.3 * actual, 2)
    ranking = Ranking.from_scores(actual, scores, positive=1)
    other = Table.binary(tp=3, fp=1, fn=2, tn=9)
    with mlflow.start_run(experiment_id=store) as first:
        im.log(TABLE, ranking, html=False)
    with mlflow.start_run(experiment_id=store) as second:
        im.log(other, html=False)
    run = first.info.run_id
    assert im.load(run, kind="table") == TABLE
    assert im.load(run, kind="ranking") == ranking
    assert im.load(second.info.run_id) == other
    merged = im.load(run, kind="table") + im.load(second.info.run_id)
    assert merged == TABLE + other
    text = mlflow.artifacts.load_text(f"runs:/{run}/informed/result.json")
    assert json.loads(text) == json.loads(json.dumps(result_document(TABLE, ranking)))
    row = mlflow.search_runs([store], filter_string=f"attributes.run_id = '{run}'").iloc[0]
    assert row["metrics.auc"] == ranking.auc()
    with pytest.raises(InputError, match="kind='table' or 'ranking'"):
        im.load(run)
    with pytest.raises(InputError, match="no summary of informed in informed/x"):
        im.load(run, prefix="x/")


def test_html_report_is_an_artifact(store: str) -> None:
    pytest.importorskip("matplotlib")
    with mlflow.start_run(experiment_id=store) as run:
        im.log(Table.binary(tp=5, fp=2, fn=1, tn=7), prefix="test.", source="rows.csv")
    page = mlflow.artifacts.load_text(f"runs:/{run.info.run_id}/informed/test./report.html")
    assert page.startswith("<!DOCTYPE html>") and "rows.csv" in page
    assert "test.informedness" in _run(run.info.run_id).data.metrics


def test_a_collision_of_keys_is_refused_before_anything_is_logged(store: str) -> None:
    clash = Table.from_labels(["a+b", "a*b", "c"], ["a+b", "a*b", "c"])
    refused = r"label 'a\*b' and \w+ of label 'a\+b' .*'per_label.a_b"
    with mlflow.start_run(experiment_id=store) as run, pytest.raises(InputError, match=refused):
        im.log(clash, html=False)
    assert _run(run.info.run_id).data.metrics == {}


def test_key_rule() -> None:
    """The documented rule, written out: letters (any script), digits, _ - . and space
    stay; every other character becomes '_'."""
    for label in ["a/b", "x:y", "é+ü", "1 2-3.4_5", "=SUM(A1)", "\n", "/"]:
        expected = "".join(c if c.isalnum() or c in "_-. " else "_" for c in label)
        assert safe_name(label) == expected
    for bad in ["/val", "a//b/", "../x/", "a:b", "val\n", "./"]:
        with pytest.raises(InputError, match="cannot begin an MLflow metric key"):
            check_prefix(bad)
    long = MeasureRecord("recall", 0.5, None, math.nan, math.nan, None, None, None, 4, "x" * 240)
    with pytest.raises(InputError, match="at most 250"):
        metric_values([long])


def test_metric_values_of_a_document() -> None:
    """Only defined values are metrics; every defined value has its _n; intervals only
    where the document has them."""
    document = result_document(Table.binary(tp=0, fp=0, fn=3, tn=5), positive="+")
    metrics, undefined = metric_values(measure_records(document))
    assert undefined["precision"] == document["undefined"]["precision"]
    assert "precision" not in metrics and metrics["recall"] == 0.0
    assert metrics["recall_n"] == 8 and "recall_ci_low" not in metrics


def test_an_infinite_end_is_not_logged_as_the_number_mlflow_would_keep(store: str) -> None:
    """MLflow's store keeps inf as the largest float (a wrong number): an infinite interval
    end goes to undefined.json instead, the finite one is logged exactly."""
    with mlflow.start_run() as run:
        mlflow.log_metric("probe", math.inf)
    assert _run(run.info.run_id).data.metrics["probe"] == sys.float_info.max
    document = result_document(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+")
    document["intervals"] = {"informedness": [0.25, "Infinity"]}
    document["bootstrap"] = {"level": 0.95, "method": "percentile", "replicates": 9}
    with mlflow.start_run() as run:
        im.log(document)
    metrics = _run(run.info.run_id).data.metrics
    assert metrics["informedness_ci_low"] == 0.25 and "informedness_ci_high" not in metrics
    text = mlflow.artifacts.load_text(f"runs:/{run.info.run_id}/informed/undefined.json")
    undefined = json.loads(text)
    assert undefined["informedness_ci_high"].startswith("inf: not logged as a metric")


@pytest.fixture(scope="module")
def registered() -> None:
    """The entry point (pyproject's mlflow.model_evaluator) is read from the installed
    metadata; an editable install made before it existed lacks it, so it is registered
    here as MLflow's registry would."""
    from mlflow.models.evaluation.evaluator_registry import _model_evaluation_registry

    _model_evaluation_registry.register("informed", im.InformedEvaluator)


@pytest.mark.parametrize("classes", [2, 3])
def test_evaluator_beside_the_default_one(store: str, registered: None, classes: int) -> None:
    """`mlflow.models.evaluate(..., evaluators=["default", "informed"])` on a scikit-learn
    LogisticRegression: MLflow's accuracy and AUC beside informed's, which equal
    scikit-learn's (the oracle) and informed's own of the same predictions."""
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

    X, y = load_iris(return_X_y=True, as_frame=True)
    if classes == 2:
        y = (y == 2).astype(int)
    model = LogisticRegression(max_iter=500).fit(X, y)
    data = X.assign(label=y)
    with mlflow.start_run(experiment_id=store) as run:
        info = mlflow.sklearn.log_model(model, name="model", pip_requirements=["scikit-learn"])
        result = mlflow.models.evaluate(
            info.model_uri,
            data,
            targets="label",
            model_type="classifier",
            evaluators=["default", "informed"],
            evaluator_config={
                "informed": {"replicates": 200, "html": False},
                "default": {"log_model_explainability": False},
            },
        )
    predicted = model.predict(X)
    metrics = result.metrics
    assert metrics["accuracy_score"] == pytest.approx(accuracy_score(y, predicted))
    assert metrics["accuracy"] == pytest.approx(accuracy_score(y, predicted), abs=1e-15)
    expected = evaluate(Table.from_labels(y, predicted), positive=1 if classes == 2 else None)
    assert metrics["informedness"] == expected.measures["informedness"]
    low, high = metrics["informedness_ci_low"], metrics["informedness_ci_high"]
    assert low <= metrics["informedness"] <= high
    logged = _run(run.info.run_id).data.metrics
    assert logged["informedness_n"] == 150 and "markedness_ci_low" in logged
    if classes == 2:  # informedness of a 2x2 table = balanced accuracy * 2 - 1
        assert metrics["informedness"] == pytest.approx(
            2 * balanced_accuracy_score(y, predicted) - 1, abs=1e-12
        )
        scores = model.predict_proba(X)[:, 1]
        assert metrics["auc"] == pytest.approx(roc_auc_score(y, scores), abs=1e-12)
        assert im.load(run.info.run_id, kind="ranking").n == 150
    assert im.load(run.info.run_id, kind="table") == expected.table


def test_evaluator_of_predictions_without_a_model(store: str, registered: None) -> None:
    """With the predictions in the data (no model), the table of those predictions."""
    import pandas as pd

    actual = ["cat", "dog", "bird", "dog", "cat", "bird", "dog", "cat"] * 5
    predicted = ["cat", "dog", "dog", "dog", "bird", "bird", "cat", "cat"] * 5
    data = pd.DataFrame({"label": actual, "prediction": predicted})
    with mlflow.start_run(experiment_id=store) as run:
        result = mlflow.models.evaluate(
            data=data,
            targets="label",
            predictions="prediction",
            model_type="classifier",
            evaluators="informed",
            evaluator_config={"ci": None, "html": False, "metric_prefix": "informed/"},
        )
    table = Table.from_labels(actual, predicted)
    expected = evaluate(table).measures
    assert result.metrics["informed/informedness"] == expected["informedness"]
    assert result.metrics["informed/markedness"] == expected["markedness"]
    assert "informed/informedness_ci_low" not in result.metrics
    assert im.load(run.info.run_id, prefix="informed/") == table
    with pytest.raises(InputError, match=r"evaluator_config keys .* got \['level'\]"):
        mlflow.models.evaluate(
            data=data, targets="label", predictions="prediction", model_type="classifier",
            evaluators="informed", evaluator_config={"level": 0.9},
        )  # fmt: skip


def test_cli_logs_to_a_run_and_prints_its_id(
    store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from informed.cli.main import main

    path = tmp_path / "d.csv"
    path.write_text("y,p\na,a\nb,a\nb,b\na,a\nb,b\na,b\n")
    assert main(["evaluate", str(path), "--actual", "y", "--predicted", "p", "--positive",
                 "a", "--ci", "0.9", "--quiet", "--mlflow", "from the command line"]) == 0  # fmt: skip
    err = capsys.readouterr().err
    run_id = err.split("MLflow run ")[1].split()[0]
    run = _run(run_id)
    assert mlflow.get_experiment(run.info.experiment_id).name == "from the command line"
    assert run.info.status == "FINISHED"
    table = Table.from_labels(list("abbaba"), list("aababb"))
    assert (
        run.data.metrics["informedness"] == evaluate(table, positive="a").measures["informedness"]
    )
    assert run.data.metrics["ci_level"] == 0.9
    assert im.load(run_id) == table


def _informedness(actual: Any, predicted: Any, positive: str) -> float:
    """Informedness written out from the rows: recall + inverse recall - 1."""
    actual, predicted = np.asarray(actual), np.asarray(predicted)
    hit = predicted[actual == positive] == positive
    miss = predicted[actual != positive] == positive
    return float(hit.mean() - miss.mean())


def test_cli_logs_each_slice_and_window(
    store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--by and --by-time with --mlflow: each slice's values under slice.<name>.<measure>
    (the name made safe: 'east/west' is east_west), informedness as its formula gives it
    from the slice's rows, with the interval and n of the printed report; the report's
    document is result.json; no Table, so `load` finds no summary."""
    from informed.cli.main import main

    rng = np.random.default_rng(5)
    n = 240
    actual = rng.choice(["a", "b"], n)
    predicted = np.where(rng.random(n) < 0.7, actual, np.where(actual == "a", "b", "a"))
    groups = np.array(["north", "east/west"])[np.arange(n) % 2]
    months = np.where(np.arange(n) < 100, "2024-01-10", "2024-02-10")
    path = tmp_path / "sliced.csv"
    rows = zip(actual, predicted, groups, months, strict=True)
    path.write_text("y,p,g,t\n" + "".join(",".join(row) + "\n" for row in rows))
    base = ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--positive", "a",
            "--quiet", "--format", "json", "--mlflow=slices"]  # fmt: skip
    assert main([*base, "--by", "g"]) == 0
    out, err = capsys.readouterr()
    printed = {entry["name"]: entry for entry in json.loads(out)["slices"]}
    run_id = err.split("MLflow run ")[1].split()[0]
    metrics = _run(run_id).data.metrics
    for name, key, rows_of in (("north", "north", 0), ("east/west", "east_west", 1)):
        mine = np.arange(n) % 2 == rows_of
        value = metrics[f"slice.{key}.informedness"]
        assert value == pytest.approx(_informedness(actual[mine], predicted[mine], "a"), abs=1e-15)
        low, high = printed[name]["intervals"]["informedness"]
        assert metrics[f"slice.{key}.informedness_ci_low"] == low
        assert metrics[f"slice.{key}.informedness_ci_high"] == high
        assert metrics[f"slice.{key}.informedness_n"] == mine.sum()
    assert metrics["ci_level"] == 0.95 and metrics["ci_replicates"] == 1000
    assert "informedness" not in metrics  # the slices report has no value of all rows
    # the disparities between the slices, fairlearn's value over every slice as oracle
    fairlearn = pytest.importorskip("fairlearn.metrics")
    positive = actual == "a"
    expected = fairlearn.equalized_odds_difference(
        positive, predicted == "a", sensitive_features=groups
    )
    assert metrics["equalized_odds_difference.every_slice"] == pytest.approx(expected, abs=1e-15)
    disparity = json.loads(out)["disparities"]["equalized_odds_difference"]
    assert metrics["equalized_odds_difference"] == disparity["estimate"]
    assert metrics["equalized_odds_difference_ci_low"] == disparity["interval"][0]
    assert metrics["equalized_odds_difference_n"] == n
    logged = json.loads(mlflow.artifacts.load_text(f"runs:/{run_id}/informed/result.json"))
    assert logged["kind"] == "informed.slices_report"
    assert {e["name"] for e in logged["slices"]} == {"north", "east/west"}
    with pytest.raises(InputError, match="holds no summary of informed"):
        im.load(run_id)
    assert main([*base, "--by-time", "t", "--every", "1mo"]) == 0
    out, err = capsys.readouterr()
    windows = [entry["name"] for entry in json.loads(out)["slices"]]
    metrics = _run(err.split("MLflow run ")[1].split()[0]).data.metrics
    first = metrics[f"slice.{safe_name(windows[0])}.informedness"]
    assert first == pytest.approx(_informedness(actual[:100], predicted[:100], "a"), abs=1e-15)
    assert metrics[f"slice.{safe_name(windows[0])}.informedness_n"] == 100


def test_log_takes_a_result_document_of_any_kind(store: str) -> None:
    """A comparison's document: each model's values under model.<name>.<measure>, the
    model's name made safe as a label is; no HTML report is made from a document."""
    from informed import compare

    actual = ["a", "b"] * 30
    first = ["a", "b", "b", "b", "a", "a"] * 10
    second = ["a", "a", "b", "b", "a", "b"] * 10
    found = compare(actual, {"tree/1": first, "forest": second}, replicates=200, seed=0)
    document = result_document(found)
    with mlflow.start_run(experiment_id=store) as run:
        im.log(document, prefix="cmp/")
    metrics = _run(run.info.run_id).data.metrics
    # two classes: informedness is the same whichever is positive
    assert metrics["cmp/model.tree_1.informedness"] == pytest.approx(
        _informedness(actual, first, "a"), abs=1e-15
    )
    assert metrics["cmp/model.forest.informedness_n"] == 60
    with pytest.raises(InputError, match="without an HTML report"):
        im.log(document, html=True)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--partial", "x.json"], "--partial makes another report"),
        (["--mlflow", "d.csv"], "it is a file"),
    ],
)
def test_cli_refuses_what_it_cannot_log(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    from informed.cli.main import main

    monkeypatch.chdir(tmp_path)
    Path("d.csv").write_text("y,p\na,a\nb,b\n")
    assert main(["evaluate", "--actual", "y", "--predicted", "p", "--mlflow", *extra]) == 2
    assert message in capsys.readouterr().err


def test_mlflow_is_imported_only_when_used() -> None:
    """`import informed.mlflow` and `informed evaluate --help` load no mlflow."""
    code = (
        "import sys, informed.mlflow\n"
        "from informed.cli.main import main\n"
        "try:\n    main(['evaluate', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('LOADED', 'mlflow' in sys.modules)"
    )
    import os

    import informed

    # this informed (the module's fixture runs the tests in another folder)
    source = str(Path(informed.__file__).resolve().parents[1])
    environment = {**os.environ, "PYTHONPATH": source}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=environment,
    )
    assert done.stdout.splitlines()[-1] == "LOADED False"


def test_log_puts_no_interval_beside_a_value_it_was_not_drawn_for(store: str) -> None:
    """`log(table, bootstrap(table, positive=...))` without `positive`: the values are the
    Bootstrap's positive class's (recall = TP / (TP + FN), written out), each inside its
    interval; another table's intervals are refused before the run gets any metric."""
    table = Table.from_labels(["s", "h", "h", "s", "h"] * 20, ["s", "h", "s", "h", "h"] * 20)
    intervals = bootstrap(table, positive="s", replicates=200, seed=0)
    with mlflow.start_run(experiment_id=store) as run:
        im.log(table, intervals, html=False)
    logged = _run(run.info.run_id).data.metrics
    assert logged["recall"] == 20 / (20 + 20)  # 20 spam caught, 20 missed
    assert logged["recall_ci_low"] <= logged["recall"] <= logged["recall_ci_high"]
    other = Table.from_labels(["s", "h"] * 50, ["s", "s", "h", "h"] * 25)
    drawn = bootstrap(other, positive="s", replicates=50, seed=0)
    with mlflow.start_run(experiment_id=store) as run, pytest.raises(InputError, match="counts"):
        im.log(table, drawn, html=False)
    assert _run(run.info.run_id).data.metrics == {}
