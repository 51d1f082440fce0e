"""A model evaluator for `mlflow.models.evaluate`: informed's measures of a classifier,
with their bootstrap intervals and the exact summaries, beside MLflow's own evaluator.

Installed, informed registers it under MLflow's ``mlflow.model_evaluator`` entry point as
``informed``, so that::

    mlflow.models.evaluate(model_uri, data, targets="label", model_type="classifier",
                           evaluators=["default", "informed"])

logs MLflow's metrics and informed's (informedness, markedness, correlation and every
registry measure, each with ``_ci_low``, ``_ci_high`` and ``_n``; per label; AUC and the
ranking's summaries when the model gives probabilities of two classes) to the same run,
with the artifacts `informed.mlflow.log` writes. Its ``evaluator_config`` (all optional):

* ``pos_label``: the positive class of a binary classifier (as for MLflow's evaluator);
  by default the larger of the two labels, as MLflow chooses it; a multiclass model is
  evaluated over all its labels (Powers' bias-weighted informedness and
  prevalence-weighted markedness, after Powers (2011), "Evaluation: from precision,
  recall and F-measure to ROC, informedness, markedness and correlation");
* ``ci``: the level of the bootstrap intervals (default 0.95; None for none);
* ``replicates`` (default 1000), ``seed`` (default 0): the bootstrap's;
* ``metric_prefix``: put before each key (MLflow's own evaluators read it too);
* ``html``: log the HTML report (default: when matplotlib is installed).

This module imports mlflow (its base class) and is imported only by MLflow's registry or
by `informed.mlflow.InformedEvaluator`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mlflow.models.evaluation.base import EvaluationResult, ModelEvaluator

from informed.errors import InputError
from informed.integrations.mlflow.tracking import log_metrics
from informed.ranking.ranking import Ranking
from informed.table.table import Table

__all__ = ["InformedEvaluator"]

CONFIG = ("pos_label", "ci", "replicates", "seed", "metric_prefix", "html", "label_list")
"""The evaluator_config keys read (``label_list`` is MLflow's evaluator's, accepted and
not needed: the labels are those of the data and the predictions)."""


def _column(values: Any, name: str | None) -> np.ndarray[Any, Any]:
    """One column of predictions, from what a pyfunc model's predict returns."""
    columns = getattr(values, "columns", None)
    if columns is not None:
        if name is None and len(columns) != 1:
            msg = (
                f"the model returns {len(columns)} columns; name the predicted labels' "
                "column with mlflow.models.evaluate(..., predictions=COLUMN)."
            )
            raise InputError(msg)
        values = values[name if name is not None else columns[0]]
    return np.asarray(values).reshape(-1)


def _scores(model: Any, features: Any, positive: Any) -> np.ndarray[Any, Any] | None:
    """The probability of `positive` from the raw model's predict_proba (scikit-learn,
    XGBoost, CatBoost), or None when the model gives none."""
    try:
        raw = model.get_raw_model()
    except (AttributeError, NotImplementedError):
        return None
    predict_proba = getattr(raw, "predict_proba", None)
    classes = list(getattr(raw, "classes_", []))
    if predict_proba is None or positive not in classes:
        return None
    return np.asarray(predict_proba(features))[:, classes.index(positive)]


class InformedEvaluator(ModelEvaluator):
    """informed's measures of a classifier with their intervals, for
    ``mlflow.models.evaluate(..., evaluators=["informed"])``."""

    name = "informed"

    @classmethod
    def can_evaluate(cls, *, model_type: str, evaluator_config: Any, **kwargs: Any) -> bool:
        """Classifiers only (binary and multiclass)."""
        return model_type == "classifier"

    def evaluate(
        self,
        *,
        model_type: str,
        dataset: Any,
        run_id: str,
        evaluator_config: Any,
        model: Any = None,
        extra_metrics: Any = None,
        custom_artifacts: Any = None,
        predictions: str | None = None,
        **kwargs: Any,
    ) -> EvaluationResult:
        """Predict (or read the dataset's predictions), count the Table (and the Ranking
        of a binary model's probabilities), bootstrap, and log it all to `run_id`."""
        import pandas as pd

        from informed.inference.table_bootstrap import bootstrap

        config = dict(evaluator_config or {})
        unknown = sorted(set(config) - set(CONFIG))
        if unknown:
            msg = (
                f"the informed evaluator reads the evaluator_config keys {list(CONFIG)}; "
                f"got {unknown}."
            )
            raise InputError(msg)
        actual = np.asarray(dataset.labels_data).reshape(-1)
        features = pd.DataFrame(dataset.features_data)
        features.columns = list(dataset.feature_names)
        if model is None:
            predicted = _column(dataset.predictions_data, None)
        else:
            predicted = _column(model.predict(features), predictions)
        table = Table.from_labels(actual, predicted)
        positive = config.get("pos_label")
        ranking = None
        if len(table.labels) == 2:
            positive = table.labels[-1] if positive is None else positive
            scores = None if model is None else _scores(model, features, positive)
            if scores is not None:
                ranking = Ranking.from_scores(actual, scores, positive=positive)
        level = config.get("ci", 0.95)
        intervals = None
        if level is not None:
            intervals = bootstrap(
                table,
                positive=positive,
                level=float(level),
                replicates=int(config.get("replicates", 1000)),
                seed=int(config.get("seed", 0)),
            )
        results = [x for x in (table, intervals, ranking) if x is not None]
        run, metrics = log_metrics(
            *results,
            prefix=str(config.get("metric_prefix", "")),
            run_id=run_id,
            positive=positive,
            html=config.get("html"),
            source=str(getattr(dataset, "name", "") or ""),
        )
        return EvaluationResult(metrics=metrics, artifacts={}, run_id=run)  # type: ignore[no-untyped-call]
