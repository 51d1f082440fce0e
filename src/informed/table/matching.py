"""Matching predicted labels (or clusters) to classes, and abstention.

Unsupervised labels carry no names: a clustering into K groups must be matched to the C
classes before it can be scored, and when K != C "combinations rather than permutations
need to be explored" (Powers 2003, "Recall and Precision versus the Bookmaker",
"Analysis of the General Case").

* `match(table, method="one-to-one")` relabels rows by the assignment of labels to
  classes that maximises the overall informedness (or the diagonal). Informedness
  decomposes over matched pairs: with label l matched to class c, l's contribution
  pP(l) (n(l,c) / |R=c| - (|P=l| - n(l,c)) / (N - |R=c|)) depends only on the pair and
  the fixed margins, so a linear assignment (Hungarian algorithm, `scipy.optimize.
  linear_sum_assignment`) finds the exact optimum, K != C included.
* `method="many-to-one"` gives each label its best class ("finding which induced class
  had the highest probability of predicting which label, combining equally good
  classes", Powers 2003): rows sent to the same class are merged.
* `abstain(table, ignore=[...])` drops catch-all labels, evaluates the remaining n cases
  and discounts recall and informedness by n / N, as Powers's example does:
  0.86 x 0.34 = 29 %.
* `match(...).abstention` is the clustering workflow end to end: the labels left without
  a class (K > C) are the abstentions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label, as_label, keyed, sort_labels
from informed.errors import InputError
from informed.measures import margins, ratio
from informed.table.evaluation import Evaluation, evaluate
from informed.table.payoff import payoff
from informed.table.result_views import (
    abstention_html,
    abstention_repr,
    matching_html,
    matching_repr,
)
from informed.table.sparse_matching import best_classes, dense_scores_fit, diagonal_assignment
from informed.table.storage import from_cells
from informed.table.table import Table

__all__ = ["UNMATCHED", "Abstention", "Matching", "abstain", "match"]

UNMATCHED = "unmatched {}"
"""How `Matching.table` names the rows of a label left without a class: a string, so that
an unmatched cluster id (say 7) is never read as, or added to, a class of the same name."""


@dataclass(frozen=True)
class Matching:
    """The result of matching predicted labels to classes.

    Attributes
    ----------
    mapping : dict
        Predicted label -> the class it was matched to.
    unmatched : tuple
        Predicted labels left without a class (one-to-one with K > C).
    table : Table
        The relabelled table of all N cases: rows named by classes (merged where several
        labels went to one class); the rows of an unmatched label l are named
        ``"unmatched l"`` (`UNMATCHED`), never a class. Such a row predicts no class, so
        `evaluate(table)` leaves informedness undefined: use `abstention`.
    objective : str
        "informedness" or "diagonal".
    score : float
        The objective reached: the overall informedness with every unmatched label
        betting nothing, or the share of cases on the diagonal. For one-to-one matching
        by informedness this is the sum over matched pairs of pP(l) B(l -> c), with
        pP(l), the true positive and the false positive rates taken over all N cases:
        Powers's "assign zero weight (cost or penalty) to cases classified in an
        ignored class", so `score == abstention.zero_weight` (tested). The one
        exception: a class that is all of the cases has no informedness; `score` counts
        it as 0 (it cannot steer the assignment), `zero_weight` is nan.
    abstained : tuple
        The names in `table` of the unmatched labels' rows, the ``ignore`` of
        `abstention`.

    Notes
    -----
    `abstention` is Powers's other reading of the same bets: the n cases given a class
    are evaluated alone ("conditioned on the criterion for inclusion") and recall and
    informedness are discounted by n / N. Both readings sum pP(l) (tpr - fpr) over the
    matched labels, with pP(l) = |P = l| / N; `score` takes tpr and fpr over all N cases
    (a case of class c in an unmatched cluster counts as a miss of c), while
    `abstention.discounted["informedness"]` takes them over the n retained cases. They
    agree when nothing is unmatched and in general differ otherwise.
    """

    mapping: dict[Label, Label]
    unmatched: tuple[Label, ...]
    table: Table
    objective: str
    score: float
    abstained: tuple[Label, ...] = ()

    def __repr__(self) -> str:
        return matching_repr(self.mapping, self.unmatched, self.objective, self.score)

    def _repr_html_(self) -> str:
        """A notebook's view: each predicted label and its class, the unmatched ones."""
        return matching_html(self.mapping, self.unmatched, self.objective, self.score)

    @property
    def abstention(self) -> Abstention:
        """The unmatched labels treated as abstentions: `abstain(table, ignore=abstained)`.

        Conditional measures of the cases given a class, their recall and informedness
        discounted by n / N, and the zero-weight informedness, which equals `score` for
        one-to-one matching by informedness.
        """
        return abstain(self.table, ignore=self.abstained)


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
    ...     [[0, 9], [8, 1], [3, 3]], rows="predicted", predicted=[0, 1, 2], actual=["a", "b"]
    ... )
    >>> m = match(t)
    >>> m.mapping, m.unmatched, m.abstained
    ({0: 'b', 1: 'a'}, (2,), ('unmatched 2',))
    >>> a = m.abstention
    >>> a.n, a.total, round(a.conditional.measures["informedness"], 4)
    (18, 24, 0.9)
    >>> round(a.zero_weight, 12) == round(m.score, 12)
    True
    """
    if method not in ("one-to-one", "many-to-one"):
        msg = f"`method` must be 'one-to-one' or 'many-to-one'; got {method!r}."
        raise InputError(msg)
    if objective not in ("informedness", "diagonal"):
        msg = f"`objective` must be 'informedness' or 'diagonal'; got {objective!r}."
        raise InputError(msg)
    mapping: dict[Label, Label] = {}
    sparse = table.storage == "sparse"
    if sparse and (method == "many-to-one" or objective == "diagonal"):
        # from the non-zero cells alone (informed.table.sparse_matching), exactly
        if method == "one-to-one":
            rows, cols = diagonal_assignment(table)
        else:
            rows, cols = list(range(table.shape[0])), best_classes(table, objective)
        for r, c in zip(rows, cols, strict=True):
            mapping[table.predicted[r]] = table.actual[c] if table.actual else table.predicted[r]
        scores = None
    else:
        if sparse:
            dense_scores_fit(table)
        counts = table.counts.astype(np.float64)
        scores = _pair_scores(counts, objective)
        if method == "one-to-one":
            # imported here: scipy.optimize takes most of a second to load, and every
            # `informed evaluate` loads this module
            from scipy.optimize import linear_sum_assignment

            rows, cols = (a.tolist() for a in linear_sum_assignment(scores, maximize=True))
            for r, c in zip(rows, cols, strict=True):
                mapping[table.predicted[r]] = table.actual[c]
        else:
            # informedness of label l alone if sent to class c (not weighted by pP(l));
            # ties go to the first class in canonical order
            per_label = scores if objective == "diagonal" else _per_label_informedness(counts)
            for r, label in enumerate(table.predicted):
                mapping[label] = (
                    table.actual[int(np.argmax(per_label[r]))] if table.actual else label
                )
    unmatched = tuple(x for x in table.predicted if x not in mapping)
    renamed = _unmatched_names(unmatched, table.actual)
    relabelled = _relabel(table, {**mapping, **renamed})
    if method == "one-to-one" and objective == "informedness" and scores is not None:
        # the sum over matched pairs; an unmatched label bets nothing (Powers 2003: "assign
        # zero weight ... to cases classified in an ignored class")
        score = float(sum(scores[r, c] for r, c in zip(rows, cols, strict=True)))
    elif objective == "informedness":
        score = evaluate(relabelled).measures["informedness"]
    else:
        m = margins(relabelled.square_cells()[1])
        score = float(ratio(m.diagonal.sum(), m.total))
    return Matching(
        mapping=mapping,
        unmatched=unmatched,
        table=relabelled,
        objective=objective,
        score=score,
        abstained=tuple(renamed.values()),
    )


def _unmatched_names(
    unmatched: tuple[Label, ...], classes: tuple[Label, ...]
) -> dict[Label, Label]:
    """A row name for each unmatched label that no class (and no other such row) has."""
    taken = {keyed(x) for x in classes}
    names: dict[Label, Label] = {}
    for label in unmatched:
        name = UNMATCHED.format(label)
        while keyed(name) in taken:  # a class already has that name: mark it once more
            name = UNMATCHED.format(name)
        taken.add(keyed(name))
        names[label] = name
    return names


def _per_label_informedness(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    total = counts.sum()
    rows = counts.sum(axis=1, keepdims=True)
    cols = counts.sum(axis=0, keepdims=True)
    value = ratio(counts, np.broadcast_to(cols, counts.shape)) - ratio(
        rows - counts, np.broadcast_to(total - cols, counts.shape)
    )
    return np.where(np.isnan(value), -np.inf, value)


def _relabel(table: Table, mapping: dict[Label, Label]) -> Table:
    """Rename every row by `mapping` and add up rows that coincide.

    Built directly rather than by merging: a renamed row (a string) may stand beside class
    names of another kind (ints) as a row label.
    """
    names = [mapping[label] for label in table.predicted]
    rows = sort_labels(names)
    position = {keyed(x): i for i, x in enumerate(rows)}
    new_row = np.array([position[keyed(x)] for x in names], dtype=np.intp)
    r, c, values = table.cells
    stored = from_cells(
        new_row[r], c, values, (len(rows), len(table.actual)), table.dtype, table.storage
    )
    return Table(stored, predicted=rows, actual=table.actual)


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
        Recall and informedness multiplied by n / N: Powers's "true" values.
    zero_weight : float
        The informedness of all N cases with the ignored labels betting nothing, Powers's
        first reading: sum over retained labels of pP(l) B(l), each taken over all N
        cases (the retained labels' "weighted" entries of `payoff` of the whole table).
    """

    ignored: tuple[Label, ...]
    n: float
    total: float
    coverage: float
    table: Table
    conditional: Evaluation
    discounted: dict[str, float]
    zero_weight: float

    def __repr__(self) -> str:
        return abstention_repr(self.ignored, self.n, self.total, self.discounted, self.zero_weight)

    def _repr_html_(self) -> str:
        """A notebook's view: coverage, discounted values, the cases kept evaluated."""
        return abstention_html(
            self.ignored, self.n, self.total, self.discounted, self.zero_weight, self.conditional
        )


DISCOUNTED = ("recall", "informedness")
"""The measures Powers discounts by n / N ("the true recall (r) and informedness (B)")."""


def abstain(table: Table, ignore: Sequence[Any], *, positive: Any = None) -> Abstention:
    """Set aside cases given a catch-all label; discount recall and informedness by n/N.

    "The Bookmaker may be used in this case too - simply apply as usual to the cases but
    assign zero weight (cost or penalty) to cases classified in an ignored class.
    Alternatively ignored classes and labels that are only present in an ignored class may
    be omitted and the Bookmaker calculation executed on a contingency matrix of the
    remaining n cases ... the true recall (r) and informedness (B) may be found by
    multiplying them by n/N where N is the original number of cases" (Powers 2003,
    "Recall and Precision versus the Bookmaker", "Selection, Abstention and an Example
    Evaluation"). `zero_weight` is the first reading, `conditional` and `discounted` the
    second.

    The retained labels must name classes: a raw clustering (cluster ids against class
    names) is refused with a pointer to `match`, whose `abstention` does both steps.

    >>> t = Table.from_counts([[40, 10], [10, 40], [50, 50]], rows="predicted",
    ...                       predicted=["a", "b", "other"], actual=["a", "b"])
    >>> result = abstain(t, ignore=["other"])
    >>> result.coverage, round(result.conditional.measures["informedness"], 12)
    (0.5, 0.6)
    >>> round(result.discounted["informedness"], 12), round(result.zero_weight, 12)
    (0.3, 0.15)
    """
    if isinstance(ignore, str):
        ignore = [ignore]
    ignored = tuple(as_label(x) for x in ignore)
    predicted = {keyed(x) for x in table.predicted}
    missing = [x for x in ignored if keyed(x) not in predicted]
    if missing:
        msg = (
            f"cannot ignore {missing[0]!r}: it is not a predicted label; "
            f"labels are {list(table.predicted)}."
        )
        raise InputError(msg)
    drop = {keyed(x) for x in ignored}
    keep_rows = [i for i, x in enumerate(table.predicted) if keyed(x) not in drop]
    new_row = np.full(table.shape[0], -1, dtype=np.intp)
    new_row[keep_rows] = np.arange(len(keep_rows))
    r, c, values = table.cells
    kept = new_row[r] >= 0
    r, c, values = new_row[r[kept]], c[kept], values[kept]
    keep_cols = np.flatnonzero(np.bincount(c, minlength=table.shape[1]) > 0)  # non-zero cells
    new_col = np.full(table.shape[1], -1, dtype=np.intp)
    new_col[keep_cols] = np.arange(keep_cols.size)
    retained = Table(
        from_cells(
            r, new_col[c], values, (len(keep_rows), keep_cols.size), table.dtype, table.storage
        ),
        predicted=tuple(table.predicted[i] for i in keep_rows),
        actual=tuple(table.actual[j] for j in keep_cols.tolist()),
    )
    classes = {keyed(x) for x in retained.actual}
    if retained.n and not any(keyed(x) in classes for x in retained.predicted):
        msg = (
            f"none of the retained predicted labels {list(retained.predicted)} is a class "
            f"(classes are {list(retained.actual)}), so no measure can compare a label "
            "with its class; if the rows are cluster ids, match them to classes first: "
            "`match(table).abstention`."
        )
        raise InputError(msg)
    total = table.n
    n = retained.n
    coverage = float(ratio(n, total))
    conditional = evaluate(retained, positive=positive)
    discounted = {name: conditional.measures[name] * coverage for name in DISCOUNTED}
    bets = payoff(table)
    where = {keyed(x): i for i, x in enumerate(bets.labels)}
    zero_weight = float(sum(bets.weighted[where[keyed(x)]] for x in retained.predicted))
    return Abstention(
        ignored=ignored,
        n=n,
        total=total,
        coverage=coverage,
        table=retained,
        conditional=conditional,
        discounted=discounted,
        zero_weight=zero_weight,
    )
