"""Matching predicted labels (or clusters) to classes, and abstention (seed 001).

Unsupervised labels carry no names: a clustering into K groups must be matched to the C
classes before it can be scored, and when K != C "combinations rather than permutations
need to be explored" (Powers 2003, seed 001, "Analysis of the General Case").

* `match(table, method="one-to-one")` relabels rows by the assignment of labels to
  classes that maximises the overall informedness (or the diagonal). Informedness
  decomposes over matched pairs: with label l matched to class c, l's contribution
  pP(l) (n(l,c) / |R=c| - (|P=l| - n(l,c)) / (N - |R=c|)) depends only on the pair and
  the fixed margins, so a linear assignment (Hungarian algorithm, `scipy.optimize.
  linear_sum_assignment`) finds the exact optimum, K != C included.
* `method="many-to-one"` gives each label its best class ("finding which induced class
  had the highest probability of predicting which label, combining equally good
  classes", seed 001): rows sent to the same class are merged.
* `abstain(table, ignore=[...])` drops catch-all labels, evaluates the remaining n cases
  and discounts recall and informedness by n / N, as the seed's example does:
  0.86 x 0.34 = 29 %.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from informed.errors import InputError
from informed.labels import Label, as_label, keyed, label_kind, sort_labels
from informed.measures import ratio
from informed.table.evaluation import Evaluation, evaluate
from informed.table.table import Table

__all__ = ["Abstention", "Matching", "abstain", "match"]


@dataclass(frozen=True)
class Matching:
    """The result of matching predicted labels to classes.

    Attributes
    ----------
    mapping : dict
        Predicted label -> the class it was matched to.
    unmatched : tuple
        Predicted labels left without a class (one-to-one with K > C); their rows keep
        their own label in `table`.
    table : Table
        The relabelled table: rows named by classes (merged where several labels went
        to one class).
    objective : str
        "informedness" or "diagonal".
    score : float
        The objective reached: the informedness summed over matched pairs,
        sum pP(l) B(l -> c) (an unmatched label bets nothing, as the seed's ignored
        classes), or the share of cases on the diagonal.
    """

    mapping: dict[Label, Label]
    unmatched: tuple[Label, ...]
    table: Table
    objective: str
    score: float


def _pair_scores(counts: NDArray[np.float64], objective: str) -> NDArray[np.float64]:
    """score[l, c]: what matching predicted row l to class column c contributes."""
    total = counts.sum()
    if objective == "diagonal":
        return counts / total if total else counts
    rows = counts.sum(axis=1, keepdims=True)
    cols = counts.sum(axis=0, keepdims=True)
    tpr = ratio(counts, np.broadcast_to(cols, counts.shape))
    fpr = ratio(rows - counts, np.broadcast_to(total - cols, counts.shape))
    score = ratio(rows, total) * (tpr - fpr)
    # a class that is all or none of the cases has no informedness: it can add nothing
    return np.where(np.isnan(score), 0.0, score)


def match(
    table: Table,
    *,
    method: Literal["one-to-one", "many-to-one"] = "one-to-one",
    objective: Literal["informedness", "diagonal"] = "informedness",
) -> Matching:
    """Match the predicted labels (rows) of `table` to its classes (columns).

    Parameters
    ----------
    table : Table
        Rows are predicted labels or cluster ids; columns are classes. K may differ from C.
    method : {"one-to-one", "many-to-one"}
        One-to-one: each label gets at most one class and each class at most one label,
        the assignment maximising the objective exactly. Many-to-one: every label gets
        the class that is best for it alone; rows sent to one class are merged.
    objective : {"informedness", "diagonal"}
        What to maximise: the overall (bias-weighted) informedness, or the number of
        cases on the diagonal.

    >>> t = Table.from_counts(
    ...     [[0, 9], [8, 1]], rows="predicted", predicted=[0, 1], actual=["a", "b"]
    ... )
    >>> match(t).mapping
    {0: 'b', 1: 'a'}
    """
    if method not in ("one-to-one", "many-to-one"):
        msg = f"`method` must be 'one-to-one' or 'many-to-one'; got {method!r}."
        raise InputError(msg)
    if objective not in ("informedness", "diagonal"):
        msg = f"`objective` must be 'informedness' or 'diagonal'; got {objective!r}."
        raise InputError(msg)
    counts = table.counts.astype(np.float64)
    scores = _pair_scores(counts, objective)
    mapping: dict[Label, Label] = {}
    if method == "one-to-one":
        rows, cols = linear_sum_assignment(scores, maximize=True)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            mapping[table.predicted[r]] = table.actual[c]
    else:
        # informedness of label l alone if sent to class c (not weighted by pP(l)); ties go
        # to the first class in canonical order
        per_label = scores if objective == "diagonal" else _per_label_informedness(counts)
        for r, label in enumerate(table.predicted):
            mapping[label] = table.actual[int(np.argmax(per_label[r]))] if table.actual else label
    unmatched = tuple(x for x in table.predicted if x not in mapping)
    relabelled = _relabel(table, mapping)
    if method == "one-to-one" and objective == "informedness":
        # the sum over matched pairs; an unmatched label bets nothing (seed 001: "assign
        # zero weight ... to cases classified in an ignored class")
        pairs = [(table.predicted.index(k), table.actual.index(v)) for k, v in mapping.items()]
        score = float(sum(scores[r, c] for r, c in pairs))
    elif objective == "informedness":
        score = evaluate(relabelled).measures["informedness"]
    else:
        _, square = relabelled.square()
        score = float(ratio(np.trace(square), square.sum()))
    return Matching(
        mapping=mapping, unmatched=unmatched, table=relabelled, objective=objective, score=score
    )


def _per_label_informedness(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    total = counts.sum()
    rows = counts.sum(axis=1, keepdims=True)
    cols = counts.sum(axis=0, keepdims=True)
    value = ratio(counts, np.broadcast_to(cols, counts.shape)) - ratio(
        rows - counts, np.broadcast_to(total - cols, counts.shape)
    )
    return np.where(np.isnan(value), -np.inf, value)


def _relabel(table: Table, mapping: dict[Label, Label]) -> Table:
    """Rename rows by `mapping` (others keep their name) and add up rows that coincide.

    Built directly rather than by merging: an unmatched cluster id (an int) may stand
    beside class names (str) as a row label.
    """
    names = [mapping.get(label, label) for label in table.predicted]
    rows = sort_labels(names)
    position = {keyed(x): i for i, x in enumerate(rows)}
    counts = np.zeros((len(rows), len(table.actual)), dtype=table.counts.dtype)
    np.add.at(counts, [position[keyed(x)] for x in names], table.counts)
    return Table(counts=counts, predicted=rows, actual=table.actual)


@dataclass(frozen=True)
class Abstention:
    """Evaluation of the cases a system did not abstain on, and the discounted values.

    Attributes
    ----------
    ignored : tuple
        The catch-all labels whose cases were set aside.
    n : float
        Cases retained (predicted with a label that is not ignored).
    total : float
        All cases, N.
    coverage : float
        n / N.
    table : Table
        The retained cases; classes left with no case are dropped.
    conditional : Evaluation
        Every measure of `table`, conditioned on a label being given.
    discounted : dict
        Recall and informedness multiplied by n / N: the seed's "true" values.
    """

    ignored: tuple[Label, ...]
    n: float
    total: float
    coverage: float
    table: Table
    conditional: Evaluation
    discounted: dict[str, float]


DISCOUNTED = ("recall", "informedness")
"""The measures the seed discounts by n / N ("the true recall (r) and informedness (B)")."""


def abstain(table: Table, ignore: Sequence[Any], *, positive: Any = None) -> Abstention:
    """Set aside cases given a catch-all label; discount recall and informedness by n/N.

    "Ignored classes and labels that are only present in an ignored class may be omitted
    and the Bookmaker calculation executed on a contingency matrix of the remaining n
    cases ... the true recall (r) and informedness (B) may be found by multiplying them by
    n/N where N is the original number of cases" (seed 001, "Selection, Abstention").

    >>> t = Table.from_counts([[40, 10], [10, 40], [50, 50]], rows="predicted",
    ...                       predicted=["a", "b", "other"], actual=["a", "b"])
    >>> result = abstain(t, ignore=["other"])
    >>> result.coverage, round(result.conditional.measures["informedness"], 12)
    (0.5, 0.6)
    >>> round(result.discounted["informedness"], 12)
    0.3
    """
    if isinstance(ignore, str):
        ignore = [ignore]
    ignored = tuple(as_label(x) for x in ignore)
    keyed = {(label_kind(x), x) for x in table.predicted}
    missing = [x for x in ignored if (label_kind(x), x) not in keyed]
    if missing:
        msg = (
            f"cannot ignore {missing[0]!r}: it is not a predicted label; "
            f"labels are {list(table.predicted)}."
        )
        raise InputError(msg)
    drop = {(label_kind(x), x) for x in ignored}
    keep_rows = [i for i, x in enumerate(table.predicted) if (label_kind(x), x) not in drop]
    counts = table.counts[keep_rows]
    keep_cols = [j for j in range(counts.shape[1]) if counts[:, j].sum() > 0]
    retained = Table(
        counts=np.ascontiguousarray(counts[:, keep_cols]),
        predicted=tuple(table.predicted[i] for i in keep_rows),
        actual=tuple(table.actual[j] for j in keep_cols),
    )
    total = table.n
    n = retained.n
    coverage = float(ratio(n, total))
    conditional = evaluate(retained, positive=positive)
    discounted = {name: conditional.measures[name] * coverage for name in DISCOUNTED}
    return Abstention(
        ignored=ignored,
        n=n,
        total=total,
        coverage=coverage,
        table=retained,
        conditional=conditional,
        discounted=discounted,
    )
