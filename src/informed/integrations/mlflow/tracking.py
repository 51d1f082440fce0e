"""`log` a result to an MLflow run with its intervals and its exact summary; `load` the
summary back.

What one `log` call puts in the run (``<prefix>`` is the `prefix` argument):

* metrics: every defined value as ``<prefix><key>`` with ``<key>_ci_low``,
  ``<key>_ci_high`` (when it has an interval) and ``<key>_n``; the key rule is
  `informed.integrations.mlflow.keys` (labels made safe, collisions refused);
* with intervals, the metrics ``<prefix>ci_level`` (0.95) and ``<prefix>ci_replicates``
  (how the method made them, ``percentile`` or ``bca``, is in ``result.json``): metrics,
  not tags, because MLflow writes tags in a transaction of their own, which would cost
  more than the rest of the call;
* artifacts in ``informed/<prefix>``: ``result.json`` (the result document, as
  ``informed evaluate --format json`` writes it: every value, interval and reason),
  ``table.json`` and ``ranking.json`` (the exact summaries: a Table's or a Ranking's
  ``to_json``, the files ``informed merge`` reads), ``undefined.json`` (metric key ->
  why that value is undefined, for each value not logged as a metric because it is NaN,
  and each value or interval end not logged because it is infinite: MLflow would store
  inf as the largest float)
  and ``report.html`` (the page ``informed evaluate --html`` writes; when matplotlib is
  installed).

`log` takes a result document too (`informed.report.records.result_document`, or the JSON
a command wrote, read with `json.load`): of any kind, a slices report (``informed
evaluate --by``) as well as an evaluation. Its values are logged by the same key rule
(a slice's under ``slice.<name>.<measure>``, a model's under ``model.<name>.<measure>``),
``ci_level`` and ``ci_replicates`` when every interval shares one, and the document as
``result.json``; a document holds no Table or Ranking object, so no ``table.json``,
``ranking.json`` or report is logged from it (the ``"summary"`` of an evaluation's document
written with ``--summary`` stays inside ``result.json``).

mlflow is imported when `log` or `load` is called, never by `import informed`.
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from informed.errors import InputError, InputTypeError
from informed.inference.table_bootstrap import Bootstrap
from informed.integrations.mlflow.keys import check_prefix, metric_values
from informed.ranking.ranking import Ranking
from informed.report.records import MeasureRecord, gather, measure_records, result_document
from informed.table.evaluation import Evaluation
from informed.table.table import Table

if TYPE_CHECKING:
    from mlflow import MlflowClient

__all__ = ["artifact_path", "load", "log", "log_metrics"]

KINDS = ("table", "ranking")


def artifact_path(prefix: str = "") -> str:
    """Where `log` puts its artifacts in the run: ``informed`` or ``informed/<prefix>``.

    >>> artifact_path(), artifact_path("val/"), artifact_path("fold_1.")
    ('informed', 'informed/val', 'informed/fold_1.')
    """
    check_prefix(prefix)
    return f"informed/{prefix}".rstrip("/")


def _gather(
    results: tuple[Any, ...], positive: Any
) -> tuple[Evaluation | None, Bootstrap | None, Ranking | None]:
    for wrong in (r for r in results if not isinstance(r, (Table, Evaluation, Bootstrap, Ranking))):
        msg = (
            "informed.mlflow.log logs a Table, an Evaluation, a Bootstrap or a Ranking "
            "(their exact summary is logged with them), or one result document alone, "
            f"got {type(wrong).__name__}."
        )
        raise InputTypeError(msg)
    evaluation, intervals, _, ranking, _, _ = gather(results, positive)
    if evaluation is None and ranking is None:
        msg = "informed.mlflow.log needs a result: a Table, an Evaluation or a Ranking."
        raise InputTypeError(msg)
    return evaluation, intervals, ranking


def _design(records: list[MeasureRecord], prefix: str) -> dict[str, float]:
    """``ci_level`` and ``ci_replicates`` of a document's intervals, each when every
    interval of the document shares it (a slices report's: one level, one bootstrap)."""
    found: dict[str, float] = {}
    levels = {r.level for r in records if r.level is not None}
    replicates = {r.replicates for r in records if r.replicates is not None}
    if len(levels) == 1:
        found[f"{prefix}ci_level"] = float(levels.pop())
    if len(replicates) == 1:
        found[f"{prefix}ci_replicates"] = float(replicates.pop())
    return found


def _want_html(html: bool | None) -> bool:
    available = importlib.util.find_spec("matplotlib") is not None
    if html and not available:
        msg = "the HTML report needs matplotlib: pip install 'informed[report]'."
        raise InputError(msg)
    return available if html is None else bool(html)


def _run(run_id: str | None) -> tuple[str, str]:
    """The run's id and the URI of its artifacts: the given run, or the active one."""
    import mlflow

    active = mlflow.active_run()
    if run_id is None:
        # as mlflow.log_metrics does: no active run starts one, left active for later calls
        run = active if active is not None else mlflow.start_run()
        return str(run.info.run_id), str(run.info.artifact_uri)
    if active is not None and active.info.run_id == run_id:
        return run_id, str(active.info.artifact_uri)
    return run_id, str(mlflow.MlflowClient().get_run(run_id).info.artifact_uri)


def _log_artifacts(run_id: str, artifact_uri: str, folder: str, path: str) -> None:
    """`folder`'s files into the run's artifacts at `path`: straight to the run's artifact
    repository when MLflow offers it (`MlflowClient.log_artifacts` would first read the
    run back from the tracking store to find it), else through the client."""
    try:
        from mlflow.store.artifact.artifact_repository_registry import get_artifact_repository
    except ImportError:  # pragma: no cover - a future MLflow that moved it
        from mlflow import MlflowClient

        MlflowClient().log_artifacts(run_id, folder, path)
        return
    repository = get_artifact_repository(artifact_uri)
    repository.log_artifacts(folder, path)  # type: ignore[no-untyped-call]


def log(
    *results: Any,
    prefix: str = "",
    run_id: str | None = None,
    positive: Any = None,
    html: bool | None = None,
    source: str = "",
) -> str:
    """Log a result to an MLflow run: its values with their intervals and denominators as
    metrics, its result document, exact summaries and HTML report as artifacts.

    Parameters
    ----------
    *results : Table, Evaluation, Bootstrap or Ranking; or a result document
        At most one of each kind: a Table (evaluated here) or its Evaluation, the
        Bootstrap of its intervals (`informed.bootstrap`), the Ranking of the scores. Or
        one result document (a dict) of any kind, alone: its values and the document.
    prefix : str
        Put before every metric key (``"val/"``, ``"fold_1."``); the artifacts go to
        ``informed/<prefix>`` (`artifact_path`), so several results fit in one run.
    run_id : str, optional
        The run to log to; by default the active run (one is started when none is
        active, as `mlflow.log_metrics` does).
    positive : label, optional
        The positive label of a Table given here: its one-vs-rest view; by default the
        Bootstrap's (results of another table or another positive are refused).
    html : bool, optional
        Log the HTML report (``report.html``); by default when matplotlib is installed.
    source : str
        Where the data came from, named in the HTML report.

    Returns
    -------
    str
        The run's id.

    The keys and artifacts are listed in `informed.integrations.mlflow.tracking`.
    """
    return log_metrics(
        *results, prefix=prefix, run_id=run_id, positive=positive, html=html, source=source
    )[0]


def log_metrics(
    *results: Any,
    prefix: str = "",
    run_id: str | None = None,
    positive: Any = None,
    html: bool | None = None,
    source: str = "",
) -> tuple[str, dict[str, float]]:
    """`log`, returning the run's id and the metrics logged (key -> value), as the model
    evaluator returns them to `mlflow.models.evaluate`."""
    from mlflow import MlflowClient
    from mlflow.entities import Metric

    check_prefix(prefix)
    evaluation: Evaluation | None = None
    intervals: Bootstrap | None = None
    ranking: Ranking | None = None
    if len(results) == 1 and isinstance(results[0], Mapping):
        if html:
            msg = "a result document is logged without an HTML report: pass html=None or False."
            raise InputError(msg)
        html = False
        document = result_document(results[0])  # its version checked
        records = measure_records(document)
        metrics, undefined = metric_values(records, prefix)
        metrics.update(_design(records, prefix))
    else:
        evaluation, intervals, ranking = _gather(results, positive)
        given = [x for x in (evaluation, intervals, ranking) if x is not None]
        document = result_document(*given, positive=positive)
        metrics, undefined = metric_values(measure_records(document), prefix)
        if intervals is not None:
            metrics[f"{prefix}ci_level"] = intervals.level
            metrics[f"{prefix}ci_replicates"] = intervals.replicates
    run, artifact_uri = _run(run_id)
    with tempfile.TemporaryDirectory(prefix="informed-mlflow-") as folder:
        out = Path(folder)
        (out / "result.json").write_text(
            json.dumps(document, indent=1, allow_nan=False), encoding="utf-8"
        )
        (out / "undefined.json").write_text(json.dumps(undefined, indent=1), encoding="utf-8")
        if evaluation is not None:
            (out / "table.json").write_text(evaluation.table.to_json(), encoding="utf-8")
        if ranking is not None:
            (out / "ranking.json").write_text(ranking.to_json(), encoding="utf-8")
        if _want_html(html):
            from informed.report.html import write_html_report

            write_html_report(
                out / "report.html",
                evaluation,
                ranking,
                intervals=intervals,
                source=source,
                ranking_positive=None if ranking is None else ranking.positive,
            )
        now = int(time.time() * 1000)
        MlflowClient().log_batch(
            run, metrics=[Metric(key, value, now, 0) for key, value in metrics.items()]
        )
        _log_artifacts(run, artifact_uri, folder, artifact_path(prefix))
    return run, metrics


def _logged(client: MlflowClient, run_id: str, folder: str) -> set[str]:
    return {Path(info.path).name for info in client.list_artifacts(run_id, folder)}


def load(run_id: str, *, prefix: str = "", kind: str | None = None) -> Table | Ranking:
    """The exact summary `log` logged to a run: the Table or the Ranking, equal to the one
    logged, so that the results of many runs merge (``a + b``) or compare.

    Parameters
    ----------
    run_id : str
        The run's id (`log` returns it; ``mlflow.search_runs`` lists them).
    prefix : str
        The prefix the result was logged with.
    kind : {"table", "ranking"}, optional
        Which summary, when both were logged; by default the one that was.
    """
    import mlflow.artifacts
    from mlflow import MlflowClient

    if kind is not None and kind not in KINDS:
        msg = f"kind must be one of {list(KINDS)} or None; got {kind!r}."
        raise InputError(msg)
    folder = artifact_path(prefix)
    found = _logged(MlflowClient(), run_id, folder)
    present = [k for k in KINDS if f"{k}.json" in found]
    if not present:
        msg = (
            f"run {run_id} holds no summary of informed in {folder}/ (log it with "
            "informed.mlflow.log; was it logged with another prefix?)."
        )
        raise InputError(msg)
    if kind is None:
        if len(present) > 1:
            msg = (
                f"run {run_id} holds a Table and a Ranking in {folder}/: pass kind='table' "
                "or 'ranking'."
            )
            raise InputError(msg)
        kind = present[0]
    elif kind not in present:
        msg = f"run {run_id} holds no {kind}.json in {folder}/ (it holds {present})."
        raise InputError(msg)
    text = mlflow.artifacts.load_text(f"runs:/{run_id}/{folder}/{kind}.json")
    return Table.from_json(text) if kind == "table" else Ranking.from_json(text)
