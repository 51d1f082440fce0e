"""scikit-learn adapter: informed's measures as scorers, and cross-validation kept whole.

* `scorer` (`informed.integrations.sklearn.scorers`): informed's measures as
  scikit-learn scorers for `cross_val_score` and `GridSearchCV` (see that module for how
  they read the folds);
* `cross_evaluate` (`informed.integrations.sklearn.folds`): an estimator fitted on each
  split of scikit-learn's own splitter, each fold's predictions (and scores) kept, the result a
  `Folds`: every fold's Table (and Ranking) beside their pooled sum;
* `nested_cv` (`informed.integrations.sklearn.nested`): nested cross-validation (Bates,
  Hastie & Tibshirani 2023), an interval for the cross-validated estimate of a per-case
  loss that covers, beside the naive one.

scikit-learn is imported only when one of them is called: it is not a dependency of
informed.
"""

from __future__ import annotations

from informed.integrations.sklearn.folds import cross_evaluate
from informed.integrations.sklearn.nested import nested_cv, nested_refits
from informed.integrations.sklearn.nested_result import NestedCV
from informed.integrations.sklearn.scorers import (
    NAMES,
    RANKING_SCORES,
    measure_name,
    ranking_score,
    scorer,
    scorer_names,
    table_score,
)

__all__ = [
    "NAMES",
    "RANKING_SCORES",
    "NestedCV",
    "cross_evaluate",
    "measure_name",
    "nested_cv",
    "nested_refits",
    "ranking_score",
    "scorer",
    "scorer_names",
    "table_score",
]
