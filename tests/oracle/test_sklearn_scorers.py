"""informed.sklearn's scorers inside scikit-learn's own search give `evaluate`'s numbers.

GridSearchCV scores every candidate on every fold with our scorers; the test refits each
candidate on each fold itself, predicts, and measures the fold's predictions with
`informed.evaluate` (or the Ranking of the fold's scores): the numbers must agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import informed.sklearn
from informed import Ranking, Table, evaluate
from informed.errors import InputError
from informed.ranking import pem

FOLDS = StratifiedKFold(n_splits=4, shuffle=True, random_state=0)


def _fold_values(search, X, y, measure_of_fold) -> dict[tuple[int, int], float]:
    """Refit every candidate on every fold and measure the fold's predictions."""
    out = {}
    for k, (train, test) in enumerate(FOLDS.split(X, y)):
        for c, params in enumerate(search.cv_results_["params"]):
            model = clone(search.estimator).set_params(**params).fit(X[train], y[train])
            out[(c, k)] = measure_of_fold(model, X[test], y[test])
    return out


def test_multiclass_scorers_in_grid_search_equal_evaluate() -> None:
    """Iris, three classes: informedness (bias-weighted), markedness and correlation from
    the scorers equal evaluate() of each fold's predictions, for every candidate."""
    X, y = load_iris(return_X_y=True)
    names = ("informedness", "markedness", "correlation")
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    search = GridSearchCV(
        model,
        {"logisticregression__C": [0.01, 0.1, 1.0]},
        scoring={name: informed.sklearn.scorer(name) for name in names},
        refit="informedness",
        cv=FOLDS,
    ).fit(X, y)

    def measures(fitted, X_test, y_test):
        table = Table.from_labels(actual=y_test, predicted=fitted.predict(X_test))
        return evaluate(table).measures

    expected = _fold_values(search, X, y, measures)
    for (c, k), values in expected.items():
        for name in names:
            got = search.cv_results_[f"split{k}_test_{name}"][c]
            assert got == pytest.approx(values[name], abs=1e-12), (name, c, k)
    # the bias-weighted informedness is not scikit-learn's adjusted balanced accuracy
    assert len({round(v["informedness"], 9) for v in expected.values()}) > 1


def test_binary_scorers_in_grid_search_equal_evaluate_and_ranking() -> None:
    """Breast cancer: informedness of the positive class and PEM of the scores equal
    evaluate() and pem() of each fold, for every candidate."""
    X, y = load_breast_cancer(return_X_y=True)
    search = GridSearchCV(
        GaussianNB(),
        {"var_smoothing": [1e-9, 1e-5, 1e-2]},
        scoring={
            "informedness": informed.sklearn.scorer("informedness", positive=1),
            "pem": informed.sklearn.scorer("pem"),
            "f": informed.sklearn.scorer("f_measure", positive=1),
        },
        refit=False,
        cv=FOLDS,
    ).fit(X, y)

    def measures(fitted, X_test, y_test):
        table = Table.from_labels(actual=y_test, predicted=fitted.predict(X_test))
        values = evaluate(table, positive=1).measures
        score = fitted.predict_proba(X_test)[:, 1]
        ranking = Ranking.from_scores(actual=y_test, scores=score, positive=1)
        return {
            "informedness": values["informedness"],
            "f": values["f_measure"],
            "pem": pem(ranking),
        }

    for (c, k), values in _fold_values(search, X, y, measures).items():
        for name in ("informedness", "f", "pem"):
            got = search.cv_results_[f"split{k}_test_{name}"][c]
            assert got == pytest.approx(values[name], abs=1e-12), (name, c, k)


def test_cross_val_score_and_negated_error() -> None:
    """cross_val_score takes the scorer; 'error' is negated as scikit-learn's neg_ scorers."""
    X, y = load_iris(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500))
    error = cross_val_score(model, X, y, cv=FOLDS, scoring=informed.sklearn.scorer("error"))
    accuracy = cross_val_score(model, X, y, cv=FOLDS, scoring="accuracy")
    np.testing.assert_allclose(-error, 1 - accuracy, atol=1e-12)


def test_pem_is_two_auc_minus_one_against_roc_auc() -> None:
    """The PEM scorer agrees with scikit-learn's roc_auc on the same folds (PEM = 2 AUC - 1)."""
    X, y = load_breast_cancer(return_X_y=True)
    model = GaussianNB()
    ours = cross_val_score(model, X, y, cv=FOLDS, scoring=informed.sklearn.scorer("pem"))
    theirs = cross_val_score(model, X, y, cv=FOLDS, scoring="roc_auc")
    np.testing.assert_allclose(ours, 2 * theirs - 1, atol=1e-12)


def test_absent_positive_class_is_undefined_not_zero() -> None:
    """A fold without the positive class scores nan, never 0."""
    score = informed.sklearn.table_score([0, 0, 0], [0, 0, 0], measure="informedness", positive=1)
    assert math.isnan(score)


@pytest.mark.parametrize("measure", ["bias", "no_such_measure"])
def test_scorer_refuses_what_is_not_a_score(measure: str) -> None:
    """Bias and prevalence describe predictions; unknown names are errors."""
    with pytest.raises(InputError):
        informed.sklearn.scorer(measure)


def test_ranking_scorer_refuses_multiclass_scores() -> None:
    """A ranking measure needs one column of scores: a clear error, not a wrong number."""
    with pytest.raises(InputError, match="shape"):
        informed.sklearn.ranking_score([0, 1, 2], np.eye(3), measure="pem")


def _scored(made) -> str:
    """The registry measure a scorer made by `scorer` reads."""
    return made._kwargs["measure"]


@pytest.mark.parametrize(
    "name", [n for n in informed.MEASURES if n not in ("bias", "prevalence", "bias_ratio")]
)
def test_scorer_takes_every_alias_in_the_registry(name: str) -> None:
    """Every title and alias of the registry ("bookmaker", "Youden's J", "MCC", "F1"), in
    any case, names the measure it is an alias of, and no spelling names two measures."""
    measure = informed.MEASURES[name]
    for spelled in (name, measure.title, *measure.aliases):
        assert _scored(informed.sklearn.scorer(spelled)) == name, spelled
        assert _scored(informed.sklearn.scorer(spelled.upper())) == name, spelled


@pytest.mark.parametrize("spelled", ["youden", "Youden's J", "bookmaker", "BM", "youden index"])
def test_names_people_search_for_informedness(spelled: str) -> None:
    """The names users type for informedness are accepted (issue 20, item 13)."""
    assert _scored(informed.sklearn.scorer(spelled)) == "informedness"


def test_roc_auc_names_the_auc_scorer() -> None:
    """scikit-learn's "roc_auc" is informed's "auc"."""
    made = informed.sklearn.scorer("roc_auc")
    assert made._kwargs["measure"] == "auc"


def test_unknown_measure_lists_the_names_grouped_and_wrapped() -> None:
    """An unknown name: a first line naming it with the nearest name, then the names a
    scorer takes in groups, no line longer than 88 characters."""
    with pytest.raises(InputError) as error:
        informed.sklearn.scorer("informednes")
    lines = str(error.value).splitlines()
    assert lines[0] == "unknown measure 'informednes'. Did you mean 'informedness'? A scorer takes:"
    assert lines[1] == "contingency measures, from the estimator's predict:"
    assert any(line.startswith("ranking measures") for line in lines)
    assert max(len(line) for line in lines) <= 88
    listed = ", ".join(line.strip() for line in lines[1:])
    for name in ("informedness", "markedness", "pem", "Youden's J", "bookmaker"):
        assert name in listed


# rows = actual, columns = predicted (scikit-learn's confusion_matrix layout); the
# predictions of class 2 are biased: predicted 45 times for 30 cases
_BIASED = [[40, 5, 5], [2, 18, 10], [3, 2, 25]]


def _rows(matrix: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    actual, predicted = [], []
    for i, row in enumerate(matrix):
        for j, n in enumerate(row):
            actual += [i] * n
            predicted += [j] * n
    return np.array(actual), np.array(predicted)


def _bookmaker(matrix: list[list[int]]) -> float:
    """Powers' multiclass informedness in exact arithmetic: sum_l pP(l) (tpr(l) - fpr(l))."""
    from fractions import Fraction

    n = sum(map(sum, matrix))
    k = len(matrix)
    total = Fraction(0)
    for label in range(k):
        tp = matrix[label][label]
        real = sum(matrix[label])  # actual = label
        predicted = sum(matrix[i][label] for i in range(k))
        fp = predicted - tp
        tpr, fpr = Fraction(tp, real), Fraction(fp, n - real)
        total += Fraction(predicted, n) * (tpr - fpr)
    return float(total)


def test_multiclass_informedness_is_not_adjusted_balanced_accuracy() -> None:
    """For three classes informedness is the bias-weighted Bookmaker (checked in exact
    arithmetic), which differs from balanced_accuracy_score(adjusted=True); for two
    classes the two agree (both are tpr - fpr)."""
    from sklearn.metrics import balanced_accuracy_score

    actual, predicted = _rows(_BIASED)
    ours = evaluate(actual, predicted).measures["informedness"]
    assert ours == pytest.approx(_bookmaker(_BIASED), abs=1e-15)
    theirs = balanced_accuracy_score(actual, predicted, adjusted=True)
    assert abs(ours - theirs) > 0.01
    binary = [[40, 10], [5, 45]]
    actual, predicted = _rows(binary)
    ours = evaluate(actual, predicted).measures["informedness"]
    assert ours == pytest.approx(balanced_accuracy_score(actual, predicted, adjusted=True))
    assert ours == pytest.approx(_bookmaker(binary), abs=1e-15)


def test_scorers_take_scikit_learns_sample_weight() -> None:
    """scikit-learn hands the weights as sample_weight=, the alias of weights=."""
    actual, predicted = _rows(_BIASED)
    weights = np.linspace(0.5, 2.0, actual.size)
    by_alias = informed.sklearn.table_score(
        actual, predicted, measure="informedness", sample_weight=weights
    )
    expected = evaluate(actual, predicted, weights=weights).measures["informedness"]
    assert by_alias == expected
    with pytest.raises(TypeError, match="twice"):
        informed.sklearn.table_score(
            actual, predicted, measure="recall", weights=weights, sample_weight=weights
        )
