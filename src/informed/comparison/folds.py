"""Is model b better than model a across the same cross-validation folds?

`compare_folds` reads two `Folds` of the same splits (`informed.sklearn.cross_evaluate`
of each model with one `cv`, or `Folds.from_labels` of each model's predictions with
one fold column), takes each fold's difference of each measure (b - a) and tests their
mean with the variance that retraining adds (`informed.comparison.fold_tests`): the
corrected resampled t-test with its interval for any folds, and Dietterich's 5x2cv
paired t-test and Alpaydin's combined 5x2cv F test where the folds are repeats of two.
The naive paired t-test is kept beside them, labelled, to show how much too confident
it is. The p-values of each test are adjusted across the measures (Holm), as `compare`
adjusts them across models.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice, json_float, printable, readonly
from informed.coding.labels import keyed
from informed.comparison.fold_tests import (
    combined_ftest_5x2cv,
    corrected_ttest,
    naive_ttest,
    paired_ttest_5x2cv,
)
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_level
from informed.inference.significance import Significance, holm
from informed.slices.folds import Folds, FoldSummary, fold_measure
from informed.slices.keys import keyed_key

__all__ = ["FOLD_TEST_NAMES", "FoldComparison", "compare_folds"]

Floats = NDArray[np.float64]

FOLD_TEST_NAMES = {
    "corrected": "corrected resampled t (Nadeau & Bengio 2003)",
    "5x2cv_t": "5x2cv paired t (Dietterich 1998)",
    "5x2cv_f": "combined 5x2cv F (Alpaydin 1999)",
    "naive": "naive paired t (too confident: folds share training cases)",
}
"""The tests of a fold comparison, by key."""


@dataclass(frozen=True, eq=False)
class FoldComparison:
    """Two models on the same folds: per-fold differences (b - a) and their tests.

    Attributes
    ----------
    names : tuple of str
        The names of model a and model b.
    folds : tuple of str
        The folds' names.
    measures : tuple of str
    summaries : dict
        Model name -> measure -> FoldSummary (per-fold values, pooled, mean, std).
    differences : dict
        Measure -> the per-fold differences b - a [S].
    tests : dict
        Measure -> test key ("corrected", "naive", and "5x2cv_t", "5x2cv_f" for repeats
        of two folds) -> Significance; the corrected test's `interval` is the interval
        of the mean difference.
    adjusted : dict
        Measure -> test key -> p-value adjusted across the measures (Holm; the raw one
        with `correction="none"` or one measure).
    test, train : ndarray [S]
        Each fold's test and training-set sizes.
    level : float
    correction : str
    adjusted_over : str
        What each test's p-values were adjusted over together: "" for this comparison's
        measures (`compare_folds`), or the family of several pairs of models
        (`informed.comparison.fold_pairs`), e.g. "3 pairs x 6 measures".
    """

    names: tuple[str, str]
    folds: tuple[str, ...]
    measures: tuple[str, ...]
    summaries: dict[str, dict[str, FoldSummary]]
    differences: dict[str, Floats]
    tests: dict[str, dict[str, Significance]]
    adjusted: dict[str, dict[str, float]]
    test: Floats = field(repr=False)
    train: Floats = field(repr=False)
    level: float = 0.95
    correction: str = "holm"
    adjusted_over: str = ""

    @property
    def family(self) -> str:
        """What the p-values were adjusted over together ("6 measures")."""
        if self.adjusted_over:
            return self.adjusted_over
        count = len(self.measures)
        return f"{count} measure{'' if count == 1 else 's'}"

    @property
    def adjusting(self) -> bool:
        """Whether the p-values were adjusted (Holm, over more than one test)."""
        return self.correction == "holm" and (bool(self.adjusted_over) or len(self.measures) > 1)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: per-fold values and differences, the tests."""
        return {
            "models": list(self.names),
            "difference": f"{self.names[1]} - {self.names[0]}",
            "folds": list(self.folds),
            "test_sizes": self.test.tolist(),
            "train_sizes": self.train.tolist(),
            "level": self.level,
            "correction": self.correction,
            "adjusted_over": self.family,
            "summaries": {
                model: {m: s.to_dict() for m, s in by.items()}
                for model, by in self.summaries.items()
            },
            "differences": {
                m: [json_float(v) for v in d.tolist()] for m, d in self.differences.items()
            },
            "tests": {
                m: {
                    key: {
                        "method": t.method,
                        "statistic": json_float(t.statistic),
                        "df": json_float(t.df),
                        "estimate": json_float(t.estimate),
                        "interval": None if t.interval is None else t.interval.as_list(),
                        "pvalue": json_float(t.pvalue),
                        "adjusted_pvalue": json_float(self.adjusted[m][key]),
                        "reason": t.reason,
                    }
                    for key, t in by.items()
                }
                for m, by in self.tests.items()
            },
        }

    def __repr__(self) -> str:
        a, b = self.names
        lines = [
            f"{b} - {a} over {len(self.folds)} folds "
            f"(mean test {self.test.mean():g}, train {self.train.mean():g} cases)"
        ]
        for m in self.measures:
            corrected = self.tests[m]["corrected"]
            lines.append(
                f"  {m}: {a} {self.summaries[a][m].mean:.4f}, {b} {self.summaries[b][m].mean:.4f}"
            )
            if corrected.interval is not None and not math.isnan(corrected.estimate):
                i = corrected.interval
                lines.append(
                    f"    difference {i.estimate:+.4f}, {100 * self.level:g} % interval "
                    f"[{i.low:+.4f}, {i.high:+.4f}] (corrected t)"
                )
            for key, t in self.tests[m].items():
                p, adjusted = t.pvalue, self.adjusted[m][key]
                shown = f"p = {p:.4g}" if not math.isnan(p) else f"undefined: {t.reason}"
                if self.adjusting and not math.isnan(p):
                    shown += f" (Holm over {self.family} {adjusted:.4g})"
                lines.append(f"    {FOLD_TEST_NAMES[key]}: {shown}")
        return "\n".join(lines)


def compare_folds(
    a: Folds,
    b: Folds,
    *,
    measures: Sequence[str] | str = ("informedness", "markedness"),
    positive: Any = None,
    names: Sequence[str] = ("a", "b"),
    level: float = 0.95,
    correction: Literal["holm", "none"] = "holm",
) -> FoldComparison:
    """Compare model b with model a on the same cross-validation folds.

    Parameters
    ----------
    a, b : Folds
        The two models' folds: the same fold keys, each fold the same cases (its size
        and its actual classes are checked), the same training-set sizes.
    measures : str or sequence of str
        Registry measures (informedness, markedness, ...) and ranking measures ("auc",
        "pem", ...; the folds need scores).
    positive : label, optional
        Table measures of this label's one-vs-rest view (as `evaluate(positive=)`).
    names : pair of str
        The models' names, for the report.
    level : float
        Coverage of the corrected t interval of the mean difference.
    correction : {"holm", "none"}
        Adjustment of each test's p-values across the measures.

    Returns
    -------
    FoldComparison
        The corrected resampled t-test (with its interval) for any folds; the 5x2cv
        t and F tests when each repeat has two folds (`Folds` with a repeat column);
        the naive paired t-test, labelled, for contrast.
    """
    for model in (a, b):
        if not isinstance(model, Folds):
            msg = f"compare_folds takes two Folds; got {type(model).__name__}."
            raise InputTypeError(msg)
    level = check_level(level)
    correction = check_choice(correction, ("holm", "none"), "correction")
    if isinstance(measures, str):
        measures = [measures]
    chosen = tuple(fold_measure(m) for m in dict.fromkeys(measures))
    if not chosen:
        msg = "`measures` is empty: name at least one measure to compare."
        raise InputError(msg)
    pair = tuple(names)
    if len(pair) != 2 or pair[0] == pair[1]:
        msg = f"`names` must be two different names; got {list(names)!r}."
        raise InputError(msg)
    _check_paired(a, b)
    test, train = a.test, a.train
    grid = _two_fold_grid(a)
    summaries: dict[str, dict[str, FoldSummary]] = {pair[0]: {}, pair[1]: {}}
    differences: dict[str, Floats] = {}
    tests: dict[str, dict[str, Significance]] = {}
    for m in chosen:
        sa, sb = a.measure(m, positive=positive), b.measure(m, positive=positive)
        summaries[pair[0]][m], summaries[pair[1]][m] = sa, sb
        d = readonly(sb.values - sa.values)
        differences[m] = d
        found = {"corrected": corrected_ttest(d, test, train, level=level, measure=m)}
        if grid is not None:
            found["5x2cv_t"] = paired_ttest_5x2cv(d[grid], measure=m)
            found["5x2cv_f"] = combined_ftest_5x2cv(d[grid], measure=m)
        found["naive"] = naive_ttest(d, level=level, measure=m)
        why = _undefined_where(m, sa, sb, a.names, pair)
        if why is not None:  # the tests know the differences only: name the model(s)
            found = {key: _with_reason(result, why) for key, result in found.items()}
        tests[m] = found
    adjusted: dict[str, dict[str, float]] = {m: {} for m in chosen}
    for key in tests[chosen[0]]:
        raw = [float(tests[m][key].pvalue) for m in chosen]
        values = holm(raw) if correction == "holm" else raw
        for m, value in zip(chosen, values, strict=True):
            adjusted[m][key] = value
    return FoldComparison(
        names=(pair[0], pair[1]),
        folds=a.names,
        measures=chosen,
        summaries=summaries,
        differences=differences,
        tests=tests,
        adjusted=adjusted,
        test=test,
        train=train,
        level=level,
        correction=correction,
    )


def _undefined_where(
    measure: str, a: FoldSummary, b: FoldSummary, folds: Sequence[str], names: Sequence[str]
) -> str | None:
    """Where the measure is undefined (its first fold, and in which model or both), or
    None where it is defined in every fold of both."""
    in_a, in_b = np.isnan(a.values), np.isnan(b.values)
    either = np.flatnonzero(in_a | in_b)
    if not either.size:
        return None
    j = int(either[0])
    who = "both models" if in_a[j] and in_b[j] else f"model {names[0 if in_a[j] else 1]!r}"
    more = f" (and {either.size - 1:,} more folds)" if either.size > 1 else ""
    return f"{measure} is undefined in fold {printable(folds[j])} of {who}{more}"


def _with_reason(result: Significance, reason: str) -> Significance:
    interval = result.interval
    if interval is not None:
        interval = replace(interval, reason=reason)
    return replace(result, reason=reason, interval=interval)


def _check_paired(a: Folds, b: Folds) -> None:
    """The same folds of the same cases: keys, sizes, actual classes, training sizes."""
    if [keyed_key(k) for k in a.keys] != [keyed_key(k) for k in b.keys]:
        msg = (
            f"the two models were evaluated on different folds: {list(a.names)} and "
            f"{list(b.names)}."
        )
        raise InputError(msg)
    for what, x, y in (("test", a.test, b.test), ("training", a.train, b.train)):
        differ = np.flatnonzero(x != y)
        if differ.size:
            s = int(differ[0])
            msg = (
                f"fold {a.names[s]!r} has {x[s]:g} {what} cases for one model and {y[s]:g} "
                "for the other: compare models on the same splits."
            )
            raise InputError(msg)
    if a.slices.cells is not None and b.slices.cells is not None:
        for key, name in zip(a.keys, a.names, strict=True):
            if _classes(a, key) != _classes(b, key):
                msg = (
                    f"fold {name!r} holds other actual classes for the two models: "
                    "compare models on the same splits."
                )
                raise InputError(msg)


def _classes(folds: Folds, key: Any) -> dict[Any, float]:
    table = folds.table(key)
    totals = np.asarray(table.counts).sum(axis=0).tolist()
    return {keyed(label): float(n) for label, n in zip(table.actual, totals, strict=True)}


def _two_fold_grid(folds: Folds) -> NDArray[np.intp] | None:
    """Positions [r, 2] of the folds when every repeat has exactly two, else None."""
    if len(folds.slices.by) != 2:
        return None
    rows: dict[Any, list[int]] = {}
    for s, repeat in enumerate(folds.repeats):
        rows.setdefault(keyed(repeat), []).append(s)
    if len(rows) < 2 or any(len(r) != 2 for r in rows.values()):
        return None
    return np.array(list(rows.values()), dtype=np.intp)
