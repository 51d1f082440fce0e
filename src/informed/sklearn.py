"""scikit-learn scorers of informed's measures, for `cross_val_score` and `GridSearchCV`.

>>> from informed.sklearn import scorer
>>> informedness = scorer("informedness")  # doctest: +SKIP
>>> cross_val_score(model, X, y, scoring=informedness)  # doctest: +SKIP

A scorer of a contingency measure counts the fold's predictions into a `Table` and reads
the measure as `informed.evaluate` gives it: for more than two classes informedness is
bias-weighted (Powers' multiclass Bookmaker), markedness prevalence-weighted, and so on as
the registry says; with `positive=` it is the measure of that label's one-vs-rest view. A
scorer of a ranking measure (PEM, AUC, average hit rate, average Qrecall) reads the
estimator's scores (`decision_function` or `predict_proba`) into a `Ranking`.

scikit-learn is imported only when a scorer is made: it is not a dependency of informed.
An undefined value is nan (scikit-learn's search ranks nan candidates last and warns);
it is never replaced by 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from informed.errors import InputError, InputTypeError
from informed.measures import MEASURES
from informed.ranking import RANKING_MEASURES, Ranking
from informed.table import Table, evaluate

__all__ = ["RANKING_SCORES", "scorer"]

RANKING_SCORES: dict[str, Callable[[Ranking], float]] = {
    name: measure.function
    for name, measure in RANKING_MEASURES.items()
    if measure.kind == "summary" and measure.function is not None
}
"""Ranking measures a scorer can read from the estimator's scores (the registry's
summaries: AUC, average hit rate, average Qrecall, PEM)."""

# measures where a smaller value is better: scikit-learn maximises their negation
_LOWER_IS_BETTER = {
    "error",
    "fallout",
    "miss_rate",
    "conditional_entropy",
    "conditional_entropy_given_actual",
}
# descriptions of the predictions, not of their quality: no sense in maximising them
_NOT_SCORES = {"bias", "prevalence", "bias_ratio"}


def table_score(
    y_true: Any,
    y_pred: Any,
    *,
    measure: str,
    positive: Any = None,
    labels: Sequence[Any] | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    sample_weight: Any = None,
) -> float:
    """The registry measure `measure` of the table of `y_pred` against `y_true`, as
    `informed.evaluate(Table.from_labels(...))` gives it."""
    table = Table.from_labels(
        actual=np.asarray(y_true),
        predicted=np.asarray(y_pred),
        weights=sample_weight,
        labels=labels,
    )
    if positive is not None and positive not in table.labels:
        return math.nan  # the positive class is absent from this fold: undefined
    return evaluate(table, positive=positive, alpha=alpha, undefined=undefined).measures[measure]


def ranking_score(
    y_true: Any,
    y_score: Any,
    *,
    measure: str,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """The ranking measure `measure` of the scores `y_score` (higher = more `pos_label`).

    Without `pos_label` the positive class is the greater of the two classes, as
    scikit-learn's `predict_proba` column and `decision_function` sign assume."""
    scores = np.asarray(y_score)
    if scores.ndim != 1:
        msg = (
            f"{measure} ranks the scores of one class: the estimator gave scores of shape "
            f"{scores.shape}. Use a binary problem, or score one class against the rest."
        )
        raise InputError(msg)
    actual = np.asarray(y_true)
    classes = np.unique(actual)
    if pos_label is None:
        if classes.size != 2:
            return math.nan  # one class in this fold (or more than two): undefined
        pos_label = classes[-1]
    ranking = Ranking.from_scores(
        actual=actual == pos_label,
        scores=scores,
        positive=True,
        negative=False,
        weights=sample_weight,
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(RANKING_SCORES[measure](ranking))


def scorer(
    measure: str = "informedness",
    *,
    positive: Any = None,
    labels: Sequence[Any] | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
) -> Any:
    """A scikit-learn scorer of an informed measure: `scoring=scorer("informedness")`.

    Parameters
    ----------
    measure : str
        A registry name (informedness, markedness, correlation, matthews_correlation,
        f_measure, ...) scored on the estimator's `predict`, or a ranking measure ("pem",
        "auc", "average_hit_rate", "average_qrecall") scored on its `decision_function`
        or `predict_proba` (binary problems).
    positive : label, optional
        Contingency measures: the label whose one-vs-rest value is scored (default: the
        registry's combination over every label; informedness bias-weighted). Ranking
        measures: the class the scores point to (default: the greater class, as
        scikit-learn's scores assume).
    labels : sequence, optional
        The label universe of every fold's table (a class absent from a fold then still
        has its row and column).
    alpha : float
        Weight of the F-measure (0.5 is F1).
    undefined : {"propagate", "omit"}
        How averages treat a label whose value is nan, as in `evaluate`.

    Returns
    -------
    scorer
        A scikit-learn scorer (`sklearn.metrics.make_scorer`). Measures where smaller is
        better (error, fallout, miss rate, the conditional entropies) are negated, as
        scikit-learn's "neg_" scorers are.

    Raises
    ------
    ImportError
        scikit-learn is not installed.
    InputError
        An unknown measure, or bias / prevalence (descriptions, not scores).
    """
    if not isinstance(measure, str):
        msg = f"`measure` must be a measure's name such as 'informedness'; got {measure!r}."
        raise InputTypeError(msg)
    if measure in _NOT_SCORES:
        msg = f"{measure!r} describes the predictions, it does not score them; pick a measure."
        raise InputError(msg)
    if measure not in MEASURES and measure not in RANKING_SCORES:
        msg = (
            f"unknown measure {measure!r}; give a registry name ({sorted(MEASURES)}) or a "
            f"ranking measure ({sorted(RANKING_SCORES)})."
        )
        raise InputError(msg)
    try:
        from sklearn.metrics import make_scorer
    except ImportError as error:  # pragma: no cover - scikit-learn is a test dependency
        msg = "informed.sklearn needs scikit-learn: pip install scikit-learn."
        raise ImportError(msg) from error
    if measure in RANKING_SCORES:
        extra = {} if positive is None else {"pos_label": positive}
        return make_scorer(
            ranking_score,
            response_method=("decision_function", "predict_proba"),
            measure=measure,
            **extra,
        )
    return make_scorer(
        table_score,
        greater_is_better=measure not in _LOWER_IS_BETTER,
        measure=measure,
        positive=positive,
        labels=labels,
        alpha=alpha,
        undefined=undefined,
    )
