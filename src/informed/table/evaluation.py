"""Evaluate a Table: every registered measure, overall and per label, with reasons for nan.

>>> from informed.table import Table
>>> result = evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+")
>>> round(result.measures["informedness"], 12)
0.5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from informed.coding.columns import engine_of
from informed.coding.labels import Label, as_label
from informed.errors import InputError, InputTypeError
from informed.measures import (
    AVERAGES,
    MEASURES,
    Average,
    ByMeasure,
    Measure,
    SignedGeometric,
    as_cells,
    label_margin,
    label_weights,
    measure_name,
    one_vs_rest_counts,
    undefined_reason,
    undefined_reasons,
    weighted_mean,
)
from informed.measures.cells import one_view
from informed.table.display import evaluation_html, evaluation_repr
from informed.table.inputs import (
    LabelColumns,
    engine_table,
    frame_label_columns,
    is_frame,
    label_columns,
)
from informed.table.per_label import LabelReasons, LabelValues
from informed.table.table import Table

__all__ = ["Evaluation", "average", "evaluate", "measure_values"]


@dataclass(frozen=True)
class Evaluation:
    """The measures of one Table.

    Attributes
    ----------
    table : Table
        What was evaluated.
    positive : label or None
        With a positive label, `measures` are those of its one-vs-rest 2x2 view; without
        one, each measure is combined over labels as its registry entry says.
    measures : dict
        Registry name -> float (nan where undefined); a `ByMeasure`, so any name of a
        measure finds it: ``measures["tpr"]`` is ``measures["recall"]``.
    per_label : mapping
        Label -> registry name -> float, from each label's one-vs-rest view (a
        `LabelValues`: one array per measure, `per_label.column(name)`).
    reasons : dict
        Registry name -> why the overall value is nan (a `ByMeasure`).
    per_label_reasons : mapping
        Label -> registry name -> why that value is nan (a `LabelReasons`).
    """

    table: Table
    positive: Label | None
    alpha: float
    measures: dict[str, float]
    per_label: Mapping[Label, Mapping[str, float]]
    reasons: dict[str, str] = field(default_factory=dict)
    per_label_reasons: Mapping[Label, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # any name of a measure finds its value: measures["youden"], reasons["F1"]
        object.__setattr__(self, "measures", ByMeasure(self.measures))
        object.__setattr__(self, "reasons", ByMeasure(self.reasons))

    @property
    def n(self) -> float:
        """Total count or weight."""
        return self.table.n

    def __repr__(self) -> str:
        return evaluation_repr(self.n, self.positive, self.measures, len(self.per_label))

    def _repr_html_(self) -> str:
        """A notebook's view: every measure with its formula or why it is undefined."""
        return evaluation_html(
            self.n,
            self.positive,
            self.measures,
            self.reasons,
            self.per_label,
            self.per_label_reasons,
        )


def average(
    table: Table,
    name: str,
    how: str,
    *,
    alpha: float = 0.5,
    undefined: str = "propagate",
) -> float:
    """One measure of `table` (`name`: its registry name, title or any alias, such as
    "tpr" or "F1") averaged over its labels' one-vs-rest views, as asked.

    how="micro": the measure of the summed one-vs-rest 2x2 tables (for accuracy, error and
    the rates this pools the cells of every label); "macro": the plain mean of the
    per-label values; "prevalence": weighted by pR(l) (scikit-learn's "weighted");
    "bias": weighted by pP(l) (Powers' weighting of informedness). A label with zero
    weight is left out; a nan value propagates unless `undefined="omit"`.

    >>> t = Table.from_counts([[5, 3, 1], [2, 7, 4], [0, 6, 9]], rows="actual")
    >>> round(average(t, "informedness", "bias"), 6)  # Powers' B: weighted by bias pP(l)
    0.30331
    """
    measure = MEASURES[measure_name(name)]  # any name of the measure: "tpr", "F1"
    if how not in AVERAGES:
        msg = f"`how` must be one of {sorted(AVERAGES)}; got {how!r}."
        raise InputError(msg)
    _, square = table.square_cells()
    ovr = one_vs_rest_counts(square)
    with np.errstate(divide="ignore", invalid="ignore"):
        if how == "micro":
            return float(measure(ovr.sum(axis=-3), **_kwargs(measure, alpha)))
        values = measure(ovr, **_kwargs(measure, alpha))
        return float(weighted_mean(values, label_weights(square, how), undefined))


def _kwargs(measure: Measure, alpha: float) -> dict[str, float]:
    return {"alpha": alpha} if measure.takes_alpha else {}


def measure_values(
    square: Any,
    names: Sequence[str],
    index: int | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    labelled: bool = True,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Overall values [...] and per-label values [..., L] of square tables [..., L, L]
    (an array, or `Cells`); with `index` and not `labelled`, no per-label values (an
    empty dict) and each measure computed on the positive label's one-vs-rest view alone
    (each label's value reads its own view only: the same values, in half the work for
    two labels).

    The one place where a table's overall value is formed: the positive label's
    one-vs-rest value when `index` is given, else the registry's rule (an `Average` of
    per-label values, the signed geometric mean of two averages, or a function of the
    whole table). Every average follows `undefined`. Leading batch dimensions are kept,
    so bootstrap replicates use the same code as a single table.
    """
    overall: dict[str, Any] = {}
    per_label: dict[str, Any] = {}
    square = as_cells(square)  # its margins are summed once, for every measure
    # nan is the intended value of a measure on a degenerate table (an empty margin)
    with np.errstate(divide="ignore", invalid="ignore"):
        if index is not None and not labelled:
            # that label's view alone, contiguous: every measure reads it (a strided
            # view of 10^5 bootstrap tables took each informedness 9 ms, 5 ms since)
            ovr, index = one_view(square, index), 0
        else:
            ovr = one_vs_rest_counts(square)
        cache: dict[str, Any] = {}

        def labels_of(name: str) -> Any:
            if name not in cache:
                measure = MEASURES[name]
                values = measure(ovr, **_kwargs(measure, alpha))
                cache[name] = np.asarray(values, dtype=np.float64)
            return cache[name]

        for name in names:
            measure = MEASURES[name]
            values = labels_of(name)
            per_label[name] = values
            rule = measure.overall
            if index is not None:
                overall[name] = values[..., index]
            elif isinstance(rule, Average):
                overall[name] = rule.combine(labels_of(rule.of), square, undefined)
            elif isinstance(rule, SignedGeometric):
                first, second = labels_of(rule.first.of), labels_of(rule.second.of)
                overall[name] = rule.of_values(first, second, square, undefined)
            else:
                kwargs = _kwargs(measure, alpha)
                overall[name] = np.asarray(rule(square, **kwargs), dtype=np.float64)
    return overall, per_label if labelled or index is None else {}


def evaluate(
    data: Any = None,
    predicted: Any = None,
    /,
    *extra: Any,
    positive: Any = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    labels: Sequence[Any] | None = None,
    clusters: bool = False,
    **columns: Any,
) -> Evaluation:
    """Compute every registered measure, overall and per label, of a Table or of labels.

    The calls::

        evaluate(table)                                # a Table
        evaluate(actual, predicted)                    # labels, scikit-learn's order
        evaluate(actual, predicted, weights=w)         # weighted rows (sample_weight=)
        evaluate(actual=y, predicted=p)                # by name (y_true=, y_pred=)
        evaluate(frame, actual="y", predicted="p")     # a frame's columns, by name

    Parameters
    ----------
    data : Table, array-like or frame
        A Table; the actual labels (scikit-learn's y_true), with `predicted` next; or a
        frame (pandas, polars, pyarrow, a mapping) whose columns `actual=` and
        `predicted=` name.
    predicted : array-like, optional
        The predicted labels, when `data` holds the actual ones.
    positive : label, optional
        Evaluate the one-vs-rest view of this label as a binary problem.
    alpha : float
        Weight of the F family: alpha = 1 / (1 + beta^2); 0.5 is F1.
    undefined : {"propagate", "omit"}
        For averaged measures: a label whose value is nan makes the average nan
        ("propagate", the default), or is left out ("omit").
    labels, clusters
        For labels counted here, as in `Table.from_labels`.
    **columns
        `actual=`, `predicted=`, `weights=`: arrays, or a frame's column names; the
        aliases `y_true=`, `y_pred=`, `sample_weight=` are accepted.

    Notes
    -----
    For more than two labels informedness is Powers' bias-weighted Bookmaker,
    sum_l pP(l) B(l), which is not scikit-learn's ``balanced_accuracy_score(adjusted=True)``
    (classes weighted equally); the two agree for two classes (docs/measures.md).

    Raises
    ------
    InputTypeError
        A call that cannot be read (a frame without column names, a Table with labels);
        the message shows the call to write.
    """
    if extra:  # weights by position: say to name them, as scikit-learn's sample_weight=
        label_columns("evaluate", (data, predicted, *extra), columns, _OTHERS)
    table = _table_of("evaluate", data, predicted, columns, labels, clusters)
    labels, square = table.square_cells()
    ovr = one_vs_rest_counts(square)
    index: int | None = None
    if positive is not None:
        positive = as_label(positive)
        index = table.label_position(positive)
        if index is None:
            msg = (
                f"positive={positive!r} is not a label of the table; "
                f"it should be one of {_some(labels)}."
            )
            raise InputError(msg)
        positive = labels[index]  # the table's own label: 1.0 names the label 1

    measures: dict[str, float] = {}
    reasons: dict[str, str] = {}
    label_values: dict[str, Any] = {}
    codes: dict[str, Any] = {}
    total = float(table.n)
    if labels:
        overall, values_by_name = measure_values(square, list(MEASURES), index, alpha, undefined)
    for name, measure in MEASURES.items():
        values = values_by_name[name] if labels else np.zeros(0)
        label_values[name] = values
        codes[name] = undefined_reasons(measure, ovr, values)
        value = float(overall[name]) if labels else float("nan")
        measures[name] = value
        if not np.isnan(value):
            continue
        if total == 0:  # before a one-vs-rest view's margins, all empty with it
            reasons[name] = "no data (N = 0)"
        elif index is not None:
            reasons[name] = undefined_reason(measure, ovr[index]) or "undefined"
        else:
            rule = measure.overall
            why = _rule_reason(rule, labels, square, values_by_name, undefined)
            reasons[name] = why or _overall_reason(measure)
    return Evaluation(
        table=table,
        positive=positive,
        alpha=alpha,
        measures=measures,
        per_label=LabelValues(labels, label_values),
        reasons=reasons,
        per_label_reasons=LabelReasons(labels, codes),
    )


# evaluate's keywords besides the columns, for the message naming what it takes
_OTHERS = ("positive", "alpha", "undefined", "labels", "clusters")


def _table_of(
    call: str,
    data: Any,
    predicted: Any,
    columns: Mapping[str, Any],
    labels: Sequence[Any] | None,
    clusters: bool,
) -> Table:
    """The Table a call such as `evaluate` was given, or counted from its labels."""
    if isinstance(data, Table):
        extra = [name for name, v in columns.items() if v is not None]
        if predicted is not None or extra or labels is not None or clusters:
            given = "predicted labels" if predicted is not None else ", ".join(extra or ["labels"])
            msg = (
                f"{call}(table) takes a Table alone, its labels counted already; got "
                f"{given} too. Write {call}(table), or {call}(actual, predicted) to count labels."
            )
            raise InputTypeError(msg)
        return data
    named = any(isinstance(v, str) for v in columns.values())  # column names: a frame
    if data is not None and predicted is None and (is_frame(data) or named):
        actual, predicted, weights = frame_label_columns(call, data, columns, _OTHERS)
        if engine_of(data) is not None:  # counted on its engine: those are column names
            found: Table = engine_table(
                data, LabelColumns(actual, predicted, weights), labels, clusters, "auto"
            )
            return found
        return Table.from_labels(
            actual, predicted, weights=weights, labels=labels, clusters=clusters
        )
    if data is not None and predicted is None and not columns and np.ndim(data) == 2:
        msg = (
            f"{call}() got a matrix; a matrix of counts says which way it faces: "
            f"{call}(Table.from_counts(matrix, rows='actual')) for scikit-learn's "
            "confusion_matrix (rows = actual), or rows='predicted'."
        )
        raise InputTypeError(msg)
    actual, predicted, weights = label_columns(call, (data, predicted), columns, _OTHERS)
    return Table.from_labels(actual, predicted, weights=weights, labels=labels, clusters=clusters)


def _some(labels: Sequence[Label], shown: int = 20) -> str:
    """At most `shown` labels for a message."""
    more = f" and {len(labels) - shown:,} more" if len(labels) > shown else ""
    return f"{list(labels[:shown])}{more}"


def _rule_reason(
    rule: Any,
    labels: tuple[Label, ...],
    square: Any,
    values_by_name: dict[str, Any],
    undefined: str,
) -> str | None:
    """Why the registry's rule gives nan, from the rule's data: which label of positive
    weight has an undefined value, and which margin its one-vs-rest view lacks."""
    if isinstance(rule, SignedGeometric):
        parts = []
        unknown = []
        for average in (rule.first, rule.second):
            values = values_by_name[average.of]
            value = float(average.combine(values, square, undefined))
            if np.isnan(value):
                why = _rule_reason(average, labels, square, values_by_name, undefined)
                title = _lower(MEASURES[average.of].title)
                return f"{title} is undefined: {why or 'undefined for this table'}"
            parts.append(f"{_lower(MEASURES[average.of].title)} ({value:.4g})")
            bound = float(average.rounding(values, square, undefined))
            if bound > 0 and abs(value) <= bound:
                unknown.append(_lower(MEASURES[average.of].title))
        if unknown:  # labels' values of both signs cancelled to within rounding of 0
            return (
                f"{parts[0]} and {parts[1]}: {' and '.join(unknown)} is within rounding "
                "error of 0 (an average of labels' values of both signs), so the sign of "
                "their product, and their signed geometric mean, is not known"
            )
        return (
            f"{parts[0]} and {parts[1]} differ in sign, so their signed geometric mean is undefined"
        )
    if not isinstance(rule, Average):
        return None
    measure = MEASURES[rule.of]
    weights = label_weights(square, rule.weights)
    values = values_by_name[rule.of]
    ovr = one_vs_rest_counts(square)
    bad = np.flatnonzero((weights > 0) & np.isnan(values)).tolist()
    if not bad:
        return None
    first = bad[0]
    does = label_margin(measure, ovr[first]) or f"has no defined {_lower(measure.title)}"
    weight = {
        "bias": f"is predicted (pP = {weights[first]:.3g}) but ",
        "prevalence": f"occurs (pR = {weights[first]:.3g}) but ",
    }.get(rule.weights, "")
    more = ""
    if len(bad) > 1:
        others = ", ".join(repr(labels[k]) for k in bad[1:4])
        more = f" (as is that of {len(bad) - 1} more: {others}{', ...' if len(bad) > 4 else ''})"
    head = f"label {labels[first]!r} {weight}{does}, so its {_lower(measure.title)} is undefined"
    if undefined == "omit":
        return f"{head}{more}; no label of positive weight has a defined value to average"
    return f'{head}{more}; pass undefined="omit" to average over the labels where it is defined'


def _lower(title: str) -> str:
    """A title inside a sentence: "Markedness" -> "markedness", "F-measure" kept."""
    return title[:1].lower() + title[1:] if title[1:2].islower() else title


def _overall_reason(measure: Measure) -> str:
    """Why a whole table's value is nan when no label is to blame: the registry says."""
    return measure.undefined_overall or "undefined for this table"
