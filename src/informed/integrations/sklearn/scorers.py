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

A measure is named by its registry name, its title or any alias of the registry
("bookmaker", "Youden's J", "youden", "MCC", "F1", "sensitivity", ...), in any case and
with any punctuation: `scorer("Youden's J")` is `scorer("informedness")`.

**Multiclass informedness is not scikit-learn's adjusted balanced accuracy.** For two
classes they are equal (tpr - fpr). For K > 2 classes informedness is Powers' Bookmaker,
B = sum_l pP(l) [tpr(l) - fpr(l)]: each label's one-vs-rest informedness weighted by how
often it is *predicted* (its bias pP), since every prediction is a bet on its label;
`balanced_accuracy_score(adjusted=True)` averages recall over the classes with equal
weights and rescales it from chance, (mean recall - 1/K) / (1 - 1/K). They differ in
general: on scikit-learn's digits, GaussianNB's 5-fold `cross_val_predict` scores
0.79683 against 0.78534.

scikit-learn is imported only when a scorer is made: it is not a dependency of informed.
An undefined value is nan (scikit-learn's search ranks nan candidates last and warns);
it is never replaced by 0.

References
----------
Powers, D. M. W. (2003). Recall and Precision versus the Bookmaker. Proceedings of the
International Conference on Cognitive Science (ICCS 2003), Sydney.
"""

from __future__ import annotations

import difflib
import math
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from informed.coding.arguments import canonical_arguments
from informed.errors import InputError, InputTypeError
from informed.measures import MEASURES
from informed.measures.names import spelled
from informed.ranking import ANY_MEASURE_NAMES, RANKING_MEASURES, Ranking
from informed.ranking.registry import RANKING_ALIASES
from informed.table import Table, evaluate

__all__ = ["NAMES", "RANKING_SCORES", "measure_name", "scorer", "scorer_names"]

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
    actual: Any,
    predicted: Any,
    *,
    measure: str,
    positive: Any = None,
    labels: Sequence[Any] | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    weights: Any = None,
    **aliases: Any,
) -> float:
    """The registry measure `measure` of the table of `predicted` against `actual`, as
    `informed.evaluate(actual, predicted, weights=...)` gives it. scikit-learn calls it
    with ``sample_weight=``, the alias of `weights`."""
    weights = _weights("table_score", weights, aliases)
    table = Table.from_labels(
        np.asarray(actual), np.asarray(predicted), weights=weights, labels=labels
    )
    if positive is not None and positive not in table.labels:
        return math.nan  # the positive class is absent from this fold: undefined
    return evaluate(table, positive=positive, alpha=alpha, undefined=undefined).measures[measure]


def _weights(call: str, weights: Any, aliases: dict[str, Any]) -> Any:
    """`weights`, or scikit-learn's `sample_weight=` (an error if both are given)."""
    given = aliases if weights is None else {"weights": weights, **aliases}
    return canonical_arguments(call, given, ["weights"]).get("weights")


def ranking_score(
    actual: Any,
    scores: Any,
    *,
    measure: str,
    pos_label: Any = None,
    weights: Any = None,
    **aliases: Any,
) -> float:
    """The ranking measure `measure` of the `scores` (higher = more `pos_label`).

    Without `pos_label` the positive class is the greater of the two classes, as
    scikit-learn's `predict_proba` column and `decision_function` sign assume.
    scikit-learn calls it with ``sample_weight=``, the alias of `weights`."""
    weights = _weights("ranking_score", weights, aliases)
    scores = np.asarray(scores)
    if scores.ndim != 1:
        msg = (
            f"{measure} ranks the scores of one class: the estimator gave scores of shape "
            f"{scores.shape}. Use a binary problem, or score one class against the rest."
        )
        raise InputError(msg)
    actual = np.asarray(actual)
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
        weights=weights,
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(RANKING_SCORES[measure](ranking))


def _names() -> dict[str, str]:
    """Every name a scorer takes (registry names, titles, aliases) -> the registry name:
    the registries' names (`informed.ranking.ANY_MEASURE_NAMES`) of the measures that
    score."""
    return {
        key: name
        for key, (name, _) in ANY_MEASURE_NAMES.spellings.items()
        if name in MEASURES or name in RANKING_SCORES
    }


NAMES: dict[str, str] = _names()
"""A name as `scorer` looks it up (lower case, letters and digits only) -> the registry
name: every registry name, title and alias ("youdensj" -> "informedness")."""


def measure_name(measure: str) -> str:
    """The registry name of `measure`, given by its name, title or any alias.

    >>> measure_name("Youden's J"), measure_name("bookmaker"), measure_name("MCC")
    ('informedness', 'informedness', 'matthews_correlation')
    """
    if not isinstance(measure, str):
        msg = f"`measure` must be a measure's name such as 'informedness'; got {measure!r}."
        raise InputTypeError(msg)
    found = NAMES.get(spelled(measure))
    if found is None:
        close = difflib.get_close_matches(spelled(measure), NAMES, n=1)
        hint = f" Did you mean {NAMES[close[0]]!r}?" if close else ""
        msg = f"unknown measure {measure!r}.{hint} A scorer takes:\n{scorer_names()}"
        raise InputError(msg)
    return found


def scorer_names(width: int = 88) -> str:
    """The measures a scorer takes, grouped and wrapped, for a message or a notebook.

    >>> print(scorer_names().splitlines()[0])
    contingency measures, from the estimator's predict:
    """
    scores = sorted(name for name in MEASURES if name not in _NOT_SCORES)
    written = [a for name in scores for a in MEASURES[name].aliases]
    written += [a for names in RANKING_ALIASES.values() for a in names]
    aliases = sorted(set(written), key=str.casefold)
    groups = (
        ("contingency measures, from the estimator's predict", scores),
        ("ranking measures, from its decision_function or predict_proba", sorted(RANKING_SCORES)),
        ("and their aliases, in any case", aliases),
    )
    lines = []
    for title, names in groups:
        lines.append(f"{title}:")
        lines += textwrap.wrap(", ".join(names), width, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(lines)


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
        or `predict_proba` (binary problems); or any title or alias of the registry
        ("bookmaker", "Youden's J", "MCC", "F1"), case and punctuation ignored
        (`scorer_names()` lists them). For more than two classes informedness is
        Powers' bias-weighted Bookmaker, not scikit-learn's adjusted balanced accuracy
        (see the module's notes): they agree on two classes only.
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
        scikit-learn's ``neg_`` scorers are.

    Raises
    ------
    ImportError
        scikit-learn is not installed.
    InputError
        An unknown measure, or bias / prevalence (descriptions, not scores).
    """
    measure = measure_name(measure)
    if measure in _NOT_SCORES:
        msg = f"{measure!r} describes the predictions, it does not score them; pick a measure."
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
