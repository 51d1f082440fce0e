"""MLflow adapter: a result logged to a run with its intervals and its exact summary, read
back, and informed as a model evaluator of `mlflow.models.evaluate`.

* `log` (`informed.integrations.mlflow.tracking`): every value as a metric with
  ``_ci_low``, ``_ci_high`` and ``_n`` keys (the key rule:
  `informed.integrations.mlflow.keys`), the result document, the exact Table and Ranking
  and the HTML report as artifacts;
* `load`: the logged Table or Ranking, equal to the one logged, so runs merge and compare;
* `InformedEvaluator` (`informed.integrations.mlflow.evaluator`): the ``informed``
  evaluator of ``mlflow.models.evaluate(..., evaluators=["informed"])``.

mlflow is imported only when one of them is used: it is not a dependency of informed
(``pip install 'informed[mlflow]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names
from informed.integrations.mlflow.keys import safe_name
from informed.integrations.mlflow.tracking import artifact_path, load, log

if TYPE_CHECKING:
    from informed.integrations.mlflow.evaluator import InformedEvaluator

__all__ = ["InformedEvaluator", "artifact_path", "load", "log", "safe_name"]

# the evaluator subclasses MLflow's ModelEvaluator: mlflow loads with it, on first use
__getattr__, __dir__ = lazy_names(
    __name__, {"InformedEvaluator": "informed.integrations.mlflow.evaluator"}, __all__
)
