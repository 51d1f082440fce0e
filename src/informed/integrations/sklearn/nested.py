"""`nested_cv`: an interval for the cross-validated estimate that covers (nested CV).

The usual interval around a cross-validated error, the mean held-out loss plus or minus
z times its standard deviation over sqrt(n), takes the n held-out losses as independent.
They are not: every fold's model is trained on most of the other folds' cases. Bates,
Hastie & Tibshirani (2023) show that its coverage falls below nominal, and estimate the
mean squared error of the CV estimate instead by nested cross-validation: inside each
outer fold's training set, an inner (K - 1)-fold CV, whose mean loss is compared with the
outer fold's. `nested_cv` runs their Algorithm 1 on a scikit-learn estimator and returns
a `NestedCV`: the estimate, the nested interval, the naive interval beside it (labelled
naive), and the refits it took, which it says before it starts.

The method needs a loss per case, averaged over the cases (0/1 loss, log loss, the
Brier score, and the balanced error, whose per-case form fixes the class margins; see
`nested_cv`). A measure that is not a mean over cases (F-measure, or informedness
computed from each fold's own margins) has no per-case loss to nest.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import printable
from informed.coding.labels import code_array
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_level, check_seed
from informed.integrations.sklearn.nested_result import LOSSES, NestedCV, nested_estimate
from informed.report.progress import Progress

__all__ = ["nested_cv", "nested_refits"]

Floats = NDArray[np.float64]
Loss = Callable[[Any, Any, Any], Any]


def nested_refits(folds: int, repetitions: int) -> int:
    """The estimator's fits that `nested_cv` makes: K (K - 1) / 2 inner fits (one per
    pair of folds left out) and K outer fits, per repetition.

    >>> nested_refits(10, 50)
    2750
    """
    return repetitions * folds * (folds + 1) // 2


def nested_cv(
    estimator: Any,
    X: Any,
    y: Any,
    *,
    loss: str | Loss = "zero_one",
    folds: int = 10,
    repetitions: int = 50,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    stratify: bool = True,
    progress: bool = True,
) -> NestedCV:
    """The nested cross-validation estimate of a per-case loss and its interval, beside
    the naive one (Bates, Hastie & Tibshirani 2023, Algorithm 1).

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned for every fit (the estimator given is not fitted).
    X, y : array-like
        The data and the actual classes.
    loss : str or callable
        The loss of each case: "zero_one" (misclassified: 1, else 0), "balanced_error"
        (misclassified: n / (C n_y), C classes, n_y the cases of the case's class in `y`;
        its mean is the mean of the classes' error rates, and for two classes
        informedness = 1 - 2 * balanced error), "log_loss" (-log of the probability
        `predict_proba` gives the actual class, clipped below at the float64 epsilon as
        scikit-learn's `log_loss` clips it), "brier" (two classes: (p - y)^2 with p the
        greater class's probability, as scikit-learn's `brier_score_loss`; more: the sum
        over classes of (p_c - [y = c])^2, Brier 1950), or a callable
        `loss(fitted_estimator, X_test, y_test)` returning one finite loss per case.
    folds : int
        K, at least 3 (each inner CV has K - 1 folds).
    repetitions : int
        R random partitions into folds (the authors' R package uses 50 by default; the
        MSE estimate is noisy with few).
    level : float
        Nominal coverage of both intervals.
    seed : int or numpy Generator, optional
        The partitions' randomness.
    stratify : bool
        Deal each class's cases evenly over the folds (default); False: random folds.
    progress : bool
        Say on stderr, before the first fit, how many refits the run takes, and draw a
        progress line on a terminal while they run.

    Returns
    -------
    NestedCV
        `estimate` (nested, with its interval), `naive` (the ordinary CV estimate and the
        naive interval), `refits`, the pieces of the computation; `to_dict`, `to_json`,
        `text()`.

    Notes
    -----
    For each repetition r and outer fold k, the inner losses e_in are those of the
    K - 1 other folds, each predicted by a model fitted without it and without fold k
    (an inner (K - 1)-fold CV of the data outside fold k, on the same partition), and
    the outer losses e_out those of fold k, predicted by a model fitted on all the other
    folds. One model per pair of folds serves both of the pair's inner CVs, so a
    repetition costs K (K - 1) / 2 + K fits (`nested_refits`). The estimate and the
    intervals follow from the per-fold means and variances (`nested_estimate`, whose
    docstring writes out the equations).

    References: Bates, S., Hastie, T. & Tibshirani, R. (2023). Cross-validation: what
    does it estimate and how well does it do it? Journal of the American Statistical
    Association. Brier, G. W. (1950). Verification of forecasts expressed in terms of
    probability. Monthly Weather Review 78(1):1-3.
    """
    try:
        from sklearn.base import clone
        from sklearn.utils import _safe_indexing, indexable
    except ImportError as error:  # pragma: no cover - scikit-learn is a test dependency
        msg = "informed.sklearn needs scikit-learn: pip install scikit-learn."
        raise ImportError(msg) from error
    level = check_level(level)
    folds = _positive(folds, "folds", 3)
    repetitions = _positive(repetitions, "repetitions", 1)
    rng = check_seed(seed)
    X, y = indexable(X, y)
    actual = np.asarray(y)
    if actual.ndim != 1:
        msg = f"nested_cv needs one actual class per case; `y` has shape {actual.shape}."
        raise InputError(msg)
    if actual.dtype.kind in "fO":  # a missing label or mixed kinds, named, before numpy sorts
        code_array(actual, "y")
    n = actual.size
    if n < 2 * folds:
        msg = f"nested_cv needs at least 2 cases per fold: {n} cases for folds={folds}."
        raise InputError(msg)
    classes, codes = np.unique(actual, return_inverse=True)
    per_case = _loss(loss, classes, codes)
    name = type(estimator).__name__
    if loss in ("log_loss", "brier") and not hasattr(estimator, "predict_proba"):
        msg = f"loss={loss!r} needs predict_proba, and {printable(name)} has none."
        raise InputError(msg)
    refits = nested_refits(folds, repetitions)
    if progress:
        per = folds * (folds + 1) // 2
        print(
            f"nested_cv: {refits:,} refits of {printable(name)} "
            f"({repetitions} repetitions x {per} for {folds} folds)",
            file=sys.stderr,
        )
    line = Progress(printable(name), refits, enabled=progress, verb="fitting", unit="refits")
    done = 0

    def take(rows: Any) -> Any:  # numpy rows directly: _safe_indexing costs ~1 ms a call
        return X[rows] if isinstance(X, np.ndarray) else _safe_indexing(X, rows)

    def losses(train: Any, test: Any, where: str) -> Floats:
        nonlocal done
        model = clone(estimator)
        try:
            model.fit(take(train), actual[train])
        except Exception as error:
            raise InputError(_fit_failed(name, where, classes, codes[train], error)) from error
        found = per_case(model, take(test), test)
        done += 1
        line.update(done, done)
        return found

    inner = np.empty((repetitions, folds, 3))
    outer = np.empty((repetitions, folds, 3))
    assignments = np.empty((repetitions, n), dtype=np.int64)
    try:
        for r in range(repetitions):
            assigned = _assign(rng, codes if stratify else None, n, folds)
            assignments[r] = assigned
            members = [np.flatnonzero(assigned == k) for k in range(folds)]
            inner_losses: list[list[Floats]] = [[] for _ in range(folds)]
            for a in range(folds - 1):
                for b in range(a + 1, folds):
                    train = np.flatnonzero((assigned != a) & (assigned != b))
                    both = np.concatenate([members[a], members[b]])
                    found = losses(train, both, f"{r + 1} without folds {a + 1} and {b + 1}")
                    inner_losses[b].append(found[: members[a].size])  # fold a, k = b
                    inner_losses[a].append(found[members[a].size :])  # fold b, k = a
            for k in range(folds):
                held = losses(
                    np.flatnonzero(assigned != k), members[k], f"{r + 1} without fold {k + 1}"
                )
                outer[r, k] = _summary(held)
                inner[r, k] = _summary(np.concatenate(inner_losses[k]))
    finally:
        line.close()
    nested, naive, parts = nested_estimate(inner, outer, n, level)
    return NestedCV(
        estimate=nested,
        naive=naive,
        loss=loss if isinstance(loss, str) else getattr(loss, "__name__", "loss"),
        estimator=name,
        n=n,
        folds=folds,
        repetitions=repetitions,
        refits=refits,
        classes=int(classes.size) if isinstance(loss, str) else 0,
        inner=inner,
        outer=outer,
        assignments=assignments,
        **parts,
    )


def _positive(value: Any, name: str, least: int) -> int:
    """`value` as an integer of at least `least`, else a one-line error naming it."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        msg = f"`{name}` must be an integer of at least {least}; got {value!r}."
        raise InputTypeError(msg)
    if value < least:
        msg = f"`{name}` must be at least {least}; got {value!r}."
        raise InputError(msg)
    return int(value)


def _fit_failed(name: str, where: str, classes: Any, codes: Any, error: Exception) -> str:
    """One line: which fit failed (repetition, folds left out), the classes its training
    cases hold when not all of them, and the estimator's own first line."""
    present = np.unique(codes)
    held = ""
    if present.size < classes.size:
        shown = ", ".join(printable(repr(c)) for c in classes[present].tolist())
        kind = "class" if present.size == 1 else "classes"
        held = f"; its {codes.size:,} training cases hold only {kind} {shown} of {classes.size}"
    first = printable(str(error).splitlines()[0] if str(error) else "")
    return (
        f"{printable(name)} failed to fit on repetition {where}{held}: "
        f"{type(error).__name__}: {first}"
    )


def _assign(rng: np.random.Generator, codes: Any, n: int, folds: int) -> NDArray[np.int64]:
    """Each case's fold: the cases in random order (within each class, classes one after
    another, when `codes` are given) dealt round the folds from a random fold, so that
    fold sizes, and each class's count in each fold, differ by at most one."""
    shuffle = rng.permutation(n)
    order = shuffle if codes is None else shuffle[np.argsort(codes[shuffle], kind="stable")]
    assigned = np.empty(n, dtype=np.int64)
    assigned[order] = (np.arange(n) + rng.integers(folds)) % folds
    return assigned


def _summary(values: Floats) -> tuple[float, float, float]:
    """(count, mean, sum of squared deviations) of some losses."""
    mean = float(values.mean())
    return float(values.size), mean, float(((values - mean) ** 2).sum())


def _loss(loss: str | Loss, classes: Any, codes: Any) -> Callable[[Any, Any, Any], Floats]:
    """The per-case loss as `f(model, X_test, test_rows)`."""
    if callable(loss):
        actual = classes[codes]

        def given(model: Any, held: Any, rows: Any) -> Floats:
            found = np.asarray(loss(model, held, actual[rows]), dtype=np.float64)
            if found.shape != (rows.size,) or not np.isfinite(found).all():
                msg = (
                    f"the loss must return one finite number per test case ({rows.size}); "
                    f"it returned shape {found.shape}"
                    + ("" if found.shape != (rows.size,) else " with a non-finite value")
                    + "."
                )
                raise InputError(msg)
            return found

        return given
    if not isinstance(loss, str) or loss not in LOSSES:
        msg = f"`loss` must be one of {', '.join(LOSSES)} or a callable; got {loss!r}."
        raise InputError(msg)
    counts = np.bincount(codes, minlength=classes.size)
    weight = codes.size / (classes.size * counts)

    def wrong(model: Any, held: Any, rows: Any) -> NDArray[np.bool_]:
        return np.asarray(np.asarray(model.predict(held)) != classes[codes[rows]], dtype=bool)

    def proba(model: Any, held: Any) -> Floats:
        """The probability of every class of `y` (0 for those the fit did not see)."""
        found = np.asarray(model.predict_proba(held), dtype=np.float64)
        full = np.zeros((found.shape[0], classes.size))
        full[:, np.searchsorted(classes, np.asarray(model.classes_))] = found
        return full

    def chosen(model: Any, held: Any, rows: Any) -> Floats:
        if loss == "zero_one":
            return wrong(model, held, rows).astype(np.float64)
        if loss == "balanced_error":
            return np.where(wrong(model, held, rows), weight[codes[rows]], 0.0).astype(np.float64)
        p = proba(model, held)
        if loss == "log_loss":
            taken = p[np.arange(rows.size), codes[rows]]
            found = -np.log(np.clip(taken, np.finfo(np.float64).eps, 1.0))
        else:
            hit = codes[rows][:, None] == np.arange(classes.size)
            two = classes.size == 2
            found = (p[:, 1] - hit[:, 1]) ** 2 if two else ((p - hit) ** 2).sum(axis=1)
        return np.asarray(found, dtype=np.float64)

    return chosen
