"""Nested cross-validation (Bates, Hastie & Tibshirani 2023): the formulas written out
again by hand, the refits counted, the losses against scikit-learn's metrics, and a
seeded simulation in which the nested interval covers the true error about as often as
it says while the naive one falls short."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.stats import norm

sklearn = pytest.importorskip("sklearn")

from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import (  # noqa: E402
    balanced_accuracy_score,
    brier_score_loss,
    log_loss,
    zero_one_loss,
)

from informed import evaluate  # noqa: E402
from informed.errors import InputError, InputTypeError  # noqa: E402
from informed.integrations.sklearn.nested import _loss  # noqa: E402
from informed.sklearn import NestedCV, nested_cv, nested_refits  # noqa: E402


class LeastSquares(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """A linear classifier fitted by least squares on +-1: fast and deterministic."""

    fits = 0

    def fit(self, X: np.ndarray, y: np.ndarray) -> LeastSquares:
        LeastSquares.fits += 1
        self.classes_ = np.unique(y)
        design = np.c_[np.ones(len(X)), X]
        target = np.where(y == self.classes_[-1], 1.0, -1.0)
        gram = design.T @ design + 1e-8 * np.eye(design.shape[1])
        self.w_ = np.linalg.solve(gram, design.T @ target)
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.classes_[(np.c_[np.ones(len(X)), X] @ self.w_ > 0).astype(int)]


def _draw(rng: np.random.Generator, n: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian features, a logistic model on the first four."""
    beta = np.zeros(p)
    beta[:4] = 1.0
    X = rng.normal(size=(n, p))
    return X, (rng.random(n) < 1 / (1 + np.exp(-X @ beta))).astype(int)


def _by_hand(X: np.ndarray, y: np.ndarray, assignments: np.ndarray, level: float) -> dict:
    """Algorithm 1 of Bates et al. (2023), loop by loop, on the same partitions, and the
    interval as their R package nestedcv forms it."""
    n = assignments.shape[1]
    K = int(assignments.max()) + 1
    a_list, b_list, all_inner, all_outer = [], [], [], []
    for fold in assignments:
        for k in range(K):
            e_in = []
            for j in range(K):  # the inner (K - 1)-fold CV of the data outside fold k
                if j == k:
                    continue
                train = (fold != k) & (fold != j)
                model = LeastSquares().fit(X[train], y[train])
                e_in.extend(model.predict(X[fold == j]) != y[fold == j])
            model = LeastSquares().fit(X[fold != k], y[fold != k])
            e_out = (model.predict(X[fold == k]) != y[fold == k]).astype(float)
            a_list.append((np.mean(e_in) - np.mean(e_out)) ** 2)
            b_list.append(np.var(e_out, ddof=1) / e_out.size)
            all_inner.extend(e_in)
            all_outer.extend(e_out)
    mse = np.mean(a_list) - np.mean(b_list)
    err_ncv, err_cv = np.mean(all_inner), np.mean(all_outer)
    sd = np.std(all_inner, ddof=1)
    infl = math.sqrt(max(mse, 0)) / (sd / math.sqrt(math.floor(n * (K - 1) / K)))
    infl = min(max(infl, 1), math.sqrt(K))
    bias = (1 + ((K - 2) / K) ** 1.5) * (err_ncv - err_cv)
    z = norm.ppf(1 - (1 - level) / 2)
    se = sd / math.sqrt(n) * infl
    naive_se = np.std(all_outer, ddof=1) / math.sqrt(n)
    return {
        "mse": mse, "err_ncv": err_ncv, "err_cv": err_cv, "bias": bias, "inflation": infl,
        "low": err_ncv - bias - z * se, "high": err_ncv - bias + z * se,
        "naive_low": err_cv - z * naive_se, "naive_high": err_cv + z * naive_se,
    }  # fmt: skip


def test_formulas_agree_with_a_hand_written_nested_cv() -> None:
    X, y = _draw(np.random.default_rng(3), 53, 6)  # 53: folds of unequal sizes
    found = nested_cv(LeastSquares(), X, y, folds=4, repetitions=3, level=0.9, seed=5,
                      progress=False)  # fmt: skip
    expected = _by_hand(X, y, found.assignments, 0.9)
    assert found.mse == pytest.approx(expected["mse"], abs=1e-12)
    assert found.nested_mean == pytest.approx(expected["err_ncv"], abs=1e-12)
    assert found.cv_mean == pytest.approx(expected["err_cv"], abs=1e-12)
    assert found.bias == pytest.approx(expected["bias"], abs=1e-12)
    assert found.inflation == pytest.approx(expected["inflation"], abs=1e-12)
    assert found.estimate.low == pytest.approx(expected["low"], abs=1e-12)
    assert found.estimate.high == pytest.approx(expected["high"], abs=1e-12)
    assert found.naive.low == pytest.approx(expected["naive_low"], abs=1e-12)
    assert found.naive.high == pytest.approx(expected["naive_high"], abs=1e-12)
    # the folds: each repetition a partition with sizes and class counts within one
    for fold in found.assignments:
        sizes = np.bincount(fold, minlength=4)
        assert sizes.max() - sizes.min() <= 1
        ones = np.bincount(fold[y == 1], minlength=4)
        assert ones.max() - ones.min() <= 1


def test_nested_interval_covers_where_the_naive_one_falls_short() -> None:
    """60 cases, 20 features, 5 folds x 5 repetitions, 150 seeded data sets, nominal
    90 %; the truth is the error of the model fitted on all 60 cases, on 20,000 new
    cases (Err_XY of Bates et al.). benchmarks/bench_nested_cv.py runs a larger one."""
    rng = np.random.default_rng(11)
    X_new, y_new = _draw(rng, 20_000, 20)
    nested = naive = 0
    sims = 150
    for s in range(sims):
        X, y = _draw(rng, 60, 20)
        found = nested_cv(LeastSquares(), X, y, folds=5, repetitions=5, level=0.9, seed=s,
                          progress=False)  # fmt: skip
        truth = np.mean(LeastSquares().fit(X, y).predict(X_new) != y_new)
        nested += found.estimate.low <= truth <= found.estimate.high
        naive += found.naive.low <= truth <= found.naive.high
    assert abs(nested / sims - 0.9) <= 0.05
    assert naive / sims <= 0.87
    assert nested - naive >= 0.05 * sims


def test_refits_said_before_and_counted(capsys: pytest.CaptureFixture[str]) -> None:
    X, y = _draw(np.random.default_rng(0), 40, 3)
    seen: list[str] = []

    class Watching(LeastSquares):
        def fit(self, X: np.ndarray, y: np.ndarray) -> Watching:
            if not seen:
                seen.append(capsys.readouterr().err)
            super().fit(X, y)
            return self

    LeastSquares.fits = 0
    found = nested_cv(Watching(), X, y, folds=4, repetitions=2, seed=0)
    assert found.refits == LeastSquares.fits == nested_refits(4, 2) == 2 * (6 + 4)
    assert "20 refits" in seen[0] and "Watching" in seen[0]
    LeastSquares.fits = 0
    nested_cv(LeastSquares(), X, y, folds=4, repetitions=2, seed=0, progress=False)
    assert capsys.readouterr().err == ""


def test_losses_equal_scikit_learns_metrics() -> None:
    rng = np.random.default_rng(1)
    X, y = _draw(rng, 300, 4)
    y = np.where(rng.random(300) < 0.2, 2, y)  # three classes, unbalanced
    model = LogisticRegression().fit(X[:200], y[:200])
    rows = np.arange(200, 300)
    classes, codes = np.unique(y, return_inverse=True)

    def mean_loss(name: str, codes_used: np.ndarray = codes) -> float:
        return float(_loss(name, classes, codes_used)(model, X[rows], rows).mean())

    predicted = model.predict(X[rows])
    assert mean_loss("zero_one") == pytest.approx(zero_one_loss(y[rows], predicted))
    assert mean_loss("log_loss") == pytest.approx(log_loss(y[rows], model.predict_proba(X[rows])))
    hit = y[rows][:, None] == classes
    brier = ((model.predict_proba(X[rows]) - hit) ** 2).sum(axis=1).mean()  # Brier 1950
    assert mean_loss("brier") == pytest.approx(brier)
    # the balanced error's weights come from all of y; on the test rows' own margins it
    # is 1 - balanced accuracy
    balanced = _loss("balanced_error", classes, codes[rows])(model, X[rows], np.arange(100))
    assert balanced.mean() == pytest.approx(1 - balanced_accuracy_score(y[rows], predicted))
    # two classes: Brier as brier_score_loss, informedness = 1 - 2 balanced error
    two = y[rows] != 2
    binary = LogisticRegression().fit(X[:200][y[:200] != 2], y[:200][y[:200] != 2])
    kept = rows[two]
    c2, k2 = np.unique(y[kept], return_inverse=True)
    brier2 = _loss("brier", c2, k2)(binary, X[kept], np.arange(kept.size)).mean()
    assert brier2 == pytest.approx(brier_score_loss(y[kept], binary.predict_proba(X[kept])[:, 1]))
    ber = _loss("balanced_error", c2, k2)(binary, X[kept], np.arange(kept.size)).mean()
    informedness = evaluate(y[kept], binary.predict(X[kept])).measures["informedness"]
    assert 1 - 2 * ber == pytest.approx(informedness)


def test_result_views_and_json() -> None:
    X, y = _draw(np.random.default_rng(2), 80, 4)
    found = nested_cv(LeastSquares(), X, y, loss="balanced_error", folds=4, repetitions=2,
                      seed=1, progress=False)  # fmt: skip
    assert isinstance(found, NestedCV)
    document = json.loads(found.to_json())
    assert document["refits"] == 20 and document["naive"]["method"].startswith("naive")
    j = found.informedness
    assert j is not None and j.estimate == pytest.approx(1 - 2 * found.estimate.estimate)
    assert document["informedness"]["interval"] == pytest.approx([j.low, j.high])
    assert "naive" in repr(found) and "informedness" in repr(found)
    text = found.text(width=64)
    assert "naive CV" in text and "20 refits" in text
    assert all(len(line) <= 64 for line in text.splitlines())
    assert "…" not in text


@pytest.mark.parametrize(
    ("arguments", "error", "words"),
    [
        ({"folds": 2}, InputError, "`folds` must be at least 3"),
        ({"folds": True}, InputTypeError, "`folds` must be an integer"),
        ({"repetitions": 0}, InputError, "`repetitions` must be at least 1"),
        ({"loss": "f_measure"}, InputError, "`loss` must be one of"),
        ({"level": 1.5}, InputError, "`level`"),
        ({"folds": 30}, InputError, "at least 2 cases per fold"),
        ({"loss": lambda model, X, y: np.zeros(3)}, InputError, "one finite number per"),
        # numpy's own TypeError before
        ({"seed": "a"}, InputTypeError, "`seed` must be None, a non-negative integer"),
        ({"seed": 1.5}, InputTypeError, "`seed` must be None"),
        ({"seed": -1}, InputError, "`seed` must be None"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(arguments: dict, error: type, words: str) -> None:
    X, y = _draw(np.random.default_rng(0), 40, 3)
    with pytest.raises(error, match=words) as raised:
        nested_cv(
            LeastSquares(), X, y, progress=False, **{"folds": 4, "repetitions": 1, **arguments}
        )
    assert "\n" not in str(raised.value)


def test_a_loss_of_probabilities_needs_predict_proba_before_any_fit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """log_loss and brier of a classifier without predict_proba: refused before the refits
    are announced, not an AttributeError from inside the first fit's loss."""
    X, y = _draw(np.random.default_rng(0), 30, 3)
    before = LeastSquares.fits
    for loss in ("log_loss", "brier"):
        with pytest.raises(InputError, match=f"loss='{loss}' needs predict_proba") as raised:
            nested_cv(LeastSquares(), X, y, loss=loss, folds=3, repetitions=1)
        assert "LeastSquares has none" in str(raised.value) and "\n" not in str(raised.value)
    assert LeastSquares.fits == before and capsys.readouterr().err == ""


def test_labels_of_mixed_kinds_are_refused_naming_them() -> None:
    """y holding numbers and strings, or a missing label: a one-line error naming them,
    not numpy's TypeError from sorting them."""
    X, y = _draw(np.random.default_rng(0), 30, 3)
    mixed = np.array([1 if v else "a" for v in y], dtype=object)
    with pytest.raises(InputTypeError, match="`y` mixes label kinds"):
        nested_cv(LeastSquares(), X, mixed, folds=3, repetitions=1, progress=False)
    missing = np.array([None if i == 4 else int(v) for i, v in enumerate(y)], dtype=object)
    with pytest.raises(InputError, match=r"`y`.*row 5 \(index 4\)"):
        nested_cv(LeastSquares(), X, missing, folds=3, repetitions=1, progress=False)


def test_a_fit_that_fails_says_which_and_why() -> None:
    """A class of 2 cases among 3 folds: leaving two folds out can leave none of it, and a
    logistic regression cannot fit one class. The error names the repetition, the folds
    left out and the classes the training cases hold, in one line."""
    X, _ = _draw(np.random.default_rng(0), 30, 3)
    y = np.array([0] * 28 + [1] * 2)
    with pytest.raises(InputError) as raised:
        nested_cv(LogisticRegression(), X, y, folds=3, repetitions=1, seed=0, progress=False)
    message = str(raised.value)
    assert "\n" not in message and message.startswith("LogisticRegression failed to fit")
    assert "repetition 1" in message and "without folds" in message
    assert "only class 0 of 2" in message
    assert isinstance(raised.value.__cause__, ValueError)
