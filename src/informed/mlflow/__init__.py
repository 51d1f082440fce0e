"""`informed.mlflow`: results logged to MLflow runs with their intervals and exact
summaries, read back, and informed as a model evaluator of `mlflow.models.evaluate`.

The adapter lives in `informed.integrations.mlflow`, beside the other integrations; this
package re-exports its names, as `informed.sklearn` does scikit-learn's. mlflow is
imported only when one of them is used (`import informed.mlflow` does not import it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names
from informed.integrations.mlflow import artifact_path, load, log, safe_name

if TYPE_CHECKING:
    from informed.integrations.mlflow import InformedEvaluator

__all__ = ["InformedEvaluator", "artifact_path", "load", "log", "safe_name"]

__getattr__, __dir__ = lazy_names(
    __name__, {"InformedEvaluator": "informed.integrations.mlflow"}, __all__
)
