"""`cross_evaluate`: cross-validation with scikit-learn's splitters, every fold kept.

`sklearn.model_selection.cross_validate` keeps one number per fold and scorer. Here the
estimator is cloned and fitted on each split of scikit-learn's own splitter (`check_cv`:
an integer is (stratified) k-fold as scikit-learn makes it; any splitter, with `groups`,
or a list of (train, test) index pairs), and each fold's test predictions and scores are
kept and counted into a `Folds`: every fold's Table (and Ranking, for two classes when
the estimator has `decision_function` or `predict_proba`) beside their pooled sum, from
which every measure, each fold's and the pooled one, and the comparisons of
`informed.comparison.compare_folds` are computed.

Repeated splitters (`RepeatedKFold`, `RepeatedStratifiedKFold`) give folds keyed by
(repeat, fold); so do `repeats=r` consecutive rounds of a list of splits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from informed.errors import InputError
from informed.slices.folds import FoldRows, Folds

__all__ = ["cross_evaluate"]


def cross_evaluate(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    cv: Any = None,
    groups: Any = None,
    positive: Any = None,
    scores: bool = True,
    repeats: int | None = None,
    fit_params: dict[str, Any] | None = None,
) -> Folds:
    """Fit `estimator` on each training split, keep each test fold's predictions, and
    return the `Folds`: each fold's Table (and Ranking) and their pooled sum.

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned for every fold (the estimator given is not fitted).
    X, y : array-like
        The data and the actual classes, as for `cross_validate`.
    cv : int, splitter or iterable of (train, test), optional
        As `cross_validate` takes it (default 5-fold; stratified for a classifier).
    groups : array-like, optional
        Group labels for a group splitter (`GroupKFold`, ...).
    positive : label, optional
        The class the scores point to (default: the greater class, as scikit-learn's
        `decision_function` and `predict_proba[:, 1]` assume).
    scores : bool
        Keep a Ranking per fold when there are two classes and the estimator has
        `decision_function` or `predict_proba` (tried in that order, as scikit-learn's
        ROC AUC scorer does).
    repeats : int, optional
        The splits are this many consecutive rounds of equally many folds (default: the
        splitter's `n_repeats`, else one round).
    fit_params : dict, optional
        Passed to `fit` (sample-aligned values indexed by the training rows).

    Returns
    -------
    Folds
        Keyed by fold (1, 2, ...) or by (repeat, fold); `train` holds each fold's
        training-set size, `predictions` each fold's test rows, predictions and scores.
    """
    try:
        from sklearn.base import clone, is_classifier
        from sklearn.model_selection import check_cv
        from sklearn.utils import _safe_indexing, indexable
    except ImportError as error:  # pragma: no cover - scikit-learn is a test dependency
        msg = "informed.sklearn needs scikit-learn: pip install scikit-learn."
        raise ImportError(msg) from error
    X, y, groups = indexable(X, y, groups)
    actual = np.asarray(y)
    if actual.ndim != 1:
        msg = f"cross_evaluate needs one actual class per row; `y` has shape {actual.shape}."
        raise InputError(msg)
    splitter = check_cv(cv, y, classifier=is_classifier(estimator))
    splits = list(splitter.split(X, y, groups))
    rounds = _rounds(repeats, splitter, len(splits))
    classes = np.unique(actual)
    if positive is None and classes.size == 2:
        positive = classes[-1].item() if hasattr(classes[-1], "item") else classes[-1]
    elif positive is not None and not (classes == positive).any():
        msg = f"positive={positive!r} is not a class of `y`; classes are {classes.tolist()}."
        raise InputError(msg)
    ranked = scores and classes.size == 2
    kept: list[FoldRows] = []
    for train, test in splits:
        model = clone(estimator)
        extra = {k: _safe_indexing(v, train) for k, v in (fit_params or {}).items()}
        model.fit(_safe_indexing(X, train), _safe_indexing(y, train), **extra)
        held = _safe_indexing(X, test)
        predicted = np.asarray(model.predict(held))
        found = _scores(model, held, positive) if ranked else None
        ranked = ranked and found is not None
        kept.append(FoldRows(np.asarray(test, dtype=np.intp), predicted, found))
    index = np.concatenate([rows.rows for rows in kept])
    per_round = len(splits) // rounds
    fold = np.concatenate(
        [np.full(rows.rows.size, s % per_round + 1) for s, rows in enumerate(kept)]
    )
    repeat = None
    if rounds > 1 or repeats is not None:
        repeat = np.concatenate(
            [np.full(rows.rows.size, s // per_round + 1) for s, rows in enumerate(kept)]
        )
    ranking_scores = None
    if ranked:
        ranking_scores = np.concatenate([rows.scores for rows in kept if rows.scores is not None])
    folds = Folds.from_labels(
        folds=fold,
        repeats=repeat,
        actual=actual[index],
        predicted=np.concatenate([rows.predicted for rows in kept]),
        scores=ranking_scores,
        positive=positive if ranked else None,
        train=[len(train) for train, _ in splits],
    )
    if ranked:
        return Folds(folds.slices, folds.train_sizes, tuple(kept))
    unscored = tuple(FoldRows(r.rows, r.predicted, None) for r in kept)
    return Folds(folds.slices, folds.train_sizes, unscored)


def _rounds(repeats: int | None, splitter: Any, count: int) -> int:
    """How many rounds of folds the splits are, checked to divide them evenly."""
    rounds = repeats if repeats is not None else int(getattr(splitter, "n_repeats", 1))
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        msg = f"`repeats` must be a positive integer; got {rounds!r}."
        raise InputError(msg)
    if count % rounds:
        msg = f"{count} splits cannot be {rounds} repeats of equally many folds."
        raise InputError(msg)
    return rounds


def _scores(model: Any, held: Any, positive: Any) -> Any:
    """The scores of `positive` on the held-out rows, or None without a score method."""
    classes = list(getattr(model, "classes_", []))
    if len(classes) != 2 or positive not in classes:
        return None
    if hasattr(model, "decision_function"):
        found = np.asarray(model.decision_function(held), dtype=np.float64)
        if found.ndim == 1:
            return found if classes.index(positive) == 1 else -found
    if hasattr(model, "predict_proba"):
        proba = np.asarray(model.predict_proba(held), dtype=np.float64)
        return proba[:, classes.index(positive)]
    return None
