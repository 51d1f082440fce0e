"""`informed.sklearn`, as in earlier releases: informed's measures as scikit-learn scorers,
and cross-validation kept whole.

The adapter lives in `informed.integrations.sklearn`, beside the other integrations;
this package re-exports its names, and `informed.sklearn.scorers` and
`informed.sklearn.folds` still name its modules, so code written for earlier releases
keeps working. scikit-learn is imported only when one of them is called.
"""

from __future__ import annotations

import sys

from informed.integrations.sklearn import (
    NAMES,
    RANKING_SCORES,
    NestedCV,
    cross_evaluate,
    folds,
    measure_name,
    nested_cv,
    nested_refits,
    ranking_score,
    scorer,
    scorer_names,
    scorers,
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

# `import informed.sklearn.scorers` (the module, as earlier releases had it) finds the moved one
sys.modules.setdefault(f"{__name__}.scorers", scorers)
sys.modules.setdefault(f"{__name__}.folds", folds)
