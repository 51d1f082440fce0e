"""cross_evaluate and the 5x2cv tests against scikit-learn and mlxtend.

* `cross_evaluate`'s pooled Table is `Table.from_labels(y, cross_val_predict(...))` on
  the same folds, bit for bit; each fold's AUC is `cross_validate`'s ``roc_auc`` and each
  fold's informedness (two classes) its ``balanced_accuracy_score(adjusted=True)``.
* mlxtend's `paired_ttest_5x2cv` and `combined_ftest_5x2cv` fit the two estimators on
  their own 5 x 2 splits (a RandomState draws each repeat's `train_test_split` seed);
  the same splits handed to `cross_evaluate` give `compare_folds` the same t and F and
  p-values to 1e-12, for informedness (informed's scorer inside mlxtend) and ROC AUC.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, make_scorer
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
    train_test_split,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import informed.sklearn
from informed import Table
from informed.comparison import compare_folds

pytest.importorskip("mlxtend")
# mlxtend.evaluate imports matplotlib.pyplot; in this process pyplot would turn every later
# plot of the session into a pyplot figure (tests/plots hold that it is not imported), so
# mlxtend runs in a process of its own
MLXTEND = """
import json, sys
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from mlxtend.evaluate import combined_ftest_5x2cv, paired_ttest_5x2cv
import informed.sklearn

seed, measure = int(sys.argv[1]), sys.argv[2]
X, Y = load_breast_cancer(return_X_y=True)
X = X[:, :8]
scoring = informed.sklearn.scorer("informedness") if measure == "informedness" else "roc_auc"
def logistic():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
t, p_t = paired_ttest_5x2cv(logistic(), GaussianNB(), X, Y, scoring=scoring, random_seed=seed)
f, p_f = combined_ftest_5x2cv(logistic(), GaussianNB(), X, Y, scoring=scoring, random_seed=seed)
print(json.dumps([float(t), float(p_t), float(f), float(p_f)]))
"""


def _mlxtend(seed: int, measure: str) -> list[float]:
    """mlxtend's t, p, F, p of logistic regression against naive Bayes, in a subprocess."""
    done = subprocess.run(
        [sys.executable, "-c", MLXTEND, str(seed), measure],
        capture_output=True,
        text=True,
        check=True,
    )
    return [float(x) for x in json.loads(done.stdout)]


X, Y = load_breast_cancer(return_X_y=True)
X = X[:, :8]  # eight features keep the fits fast; the tests compare routes, not models
CV = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)


def _logistic() -> object:
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


def test_cross_evaluate_pools_to_cross_val_predict_bit_for_bit() -> None:
    """Same folds, same fits: the pooled Table is that of scikit-learn's out-of-fold
    predictions; per-fold AUC and informedness are cross_validate's scores."""
    folds = informed.sklearn.cross_evaluate(_logistic(), X, Y, cv=CV)
    predicted = cross_val_predict(_logistic(), X, Y, cv=CV)
    whole = Table.from_labels(Y, predicted)
    assert folds.pooled == whole
    assert folds.pooled.counts.tobytes() == whole.counts.tobytes()
    scores = cross_validate(
        _logistic(),
        X,
        Y,
        cv=CV,
        scoring={
            "auc": "roc_auc",
            "informedness": make_scorer(balanced_accuracy_score, adjusted=True),
        },
    )
    assert folds.values("auc") == pytest.approx(scores["test_auc"], abs=1e-12)
    assert folds.values("informedness") == pytest.approx(scores["test_informedness"], abs=1e-12)
    assert folds.train.tolist() == [len(t) for t, _ in CV.split(X, Y)]
    assert folds.predictions is not None
    assert np.array_equal(
        np.sort(np.concatenate([r.rows for r in folds.predictions])), np.arange(len(Y))
    )


def test_repeated_splitter_gives_repeat_and_fold_keys() -> None:
    """RepeatedStratifiedKFold(2 x 3): keys (repeat, fold), the 5x2cv tests are offered
    only where each repeat has two folds."""
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    folds = informed.sklearn.cross_evaluate(GaussianNB(), X, Y, cv=cv)
    assert folds.keys == ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3))
    result = compare_folds(folds, informed.sklearn.cross_evaluate(_logistic(), X, Y, cv=cv))
    assert set(result.tests["informedness"]) == {"corrected", "naive"}


def _mlxtend_splits(seed: int, n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """mlxtend's 5 x 2 splits: each repeat seeds `train_test_split(test_size=0.5)` with
    RandomState(seed).randint(0, 32767); fold 1 trains on the first half."""
    rng = np.random.RandomState(seed)
    splits = []
    for _ in range(5):
        first, second = train_test_split(
            np.arange(n), test_size=0.5, random_state=rng.randint(low=0, high=32767)
        )
        splits += [(first, second), (second, first)]
    return splits


@pytest.mark.parametrize("measure", ["informedness", "auc"])
def test_5x2cv_tests_equal_mlxtend(measure: str) -> None:
    """t and F (and their p-values) of compare_folds on cross_evaluate's folds equal
    mlxtend's on the same splits, to 1e-12 (mlxtend's difference is estimator1 -
    estimator2: ours is b - a, so b is its estimator1)."""
    seed = 7
    splits = _mlxtend_splits(seed, len(Y))
    a = informed.sklearn.cross_evaluate(GaussianNB(), X, Y, cv=splits, repeats=5)
    b = informed.sklearn.cross_evaluate(_logistic(), X, Y, cv=splits, repeats=5)
    result = compare_folds(a, b, measures=[measure])
    t, p_t, f, p_f = _mlxtend(seed, measure)
    ours_t = result.tests[measure]["5x2cv_t"]
    ours_f = result.tests[measure]["5x2cv_f"]
    assert ours_t.statistic == pytest.approx(t, rel=1e-12, abs=1e-12)
    assert ours_t.pvalue == pytest.approx(p_t, rel=1e-12, abs=1e-12)
    assert ours_f.statistic == pytest.approx(f, rel=1e-12, abs=1e-12)
    assert ours_f.pvalue == pytest.approx(p_f, rel=1e-12, abs=1e-12)
