"""How a Table and an Evaluation show themselves: readable text and notebook HTML.

`_repr_html_` of a Table (counts with margins) and of an Evaluation (every measure with
its formula or why it is undefined) are built here from the escaped pieces of
`informed._markup`, the pieces the HTML report uses too. Functions of plain values, so
that the classes can call them without an import cycle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from informed._markup import (
    count_cell,
    fragment,
    header_cell,
    html_table,
    note_cell,
    text_cell,
    value_cell,
)
from informed.coding.labels import Label
from informed.measures import MEASURES
from informed.table.storage import Stored

__all__ = [
    "HEADLINE",
    "SHOWN",
    "TEXT_CELLS",
    "evaluation_html",
    "evaluation_repr",
    "some_labels",
    "table_html",
    "table_repr",
    "table_text",
]

SHOWN = 20
"""Labels a notebook shows of each axis of a table."""
TEXT_CELLS = 40
"""Non-zero cells `str` shows of a sparse table."""
HEADLINE = ("informedness", "markedness", "correlation")
"""The measures an evaluation names first."""


def _number(value: Any) -> float:
    """A count as int (exact) or float (a weight), for display."""
    return int(value) if np.asarray(value).dtype.kind in "iu" else float(value)


def table_html(
    stored: Stored, predicted: Sequence[Label], actual: Sequence[Label], weighted: bool
) -> str:
    """A table's counts with their margins, rows predicted, at most `SHOWN` labels a side.

    >>> from informed.table.storage import from_dense
    >>> html = table_html(from_dense(np.array([[1, 2], [3, 4]])), ["<b>", "y"], ["<b>", "y"], False)
    >>> "&lt;b&gt;" in html and "<b>" not in html
    True
    """
    rows, cols = list(predicted[:SHOWN]), list(actual[:SHOWN])
    block = stored.block(range(len(rows)), range(len(cols)))
    row_totals, totals = stored.row_sums(), stored.col_sums()
    body = [
        [header_cell(label, row=True)]
        + [count_cell(_number(block[i, j])) for j in range(len(cols))]
        + [count_cell(_number(row_totals[i]))]
        for i, label in enumerate(rows)
    ]
    body.append(
        [header_cell("total", row=True)]
        + [count_cell(_number(totals[j])) for j in range(len(cols))]
        + [count_cell(stored.total())]
    )
    hidden = len(predicted) - len(rows) + len(actual) - len(cols)
    storage = (
        f", stored sparsely ({stored.nonzero_count:,} non-zero cells)"
        if stored.dense is None
        else ""
    )
    title = (
        f"Table: N = {stored.total():,}{' (weighted)' if weighted else ''}, "
        f"{len(predicted)} predicted × {len(actual)} actual (rows predicted){storage}"
    )
    grid = html_table(["predicted \\ actual", *(str(c) for c in cols), "total"], body, styled=True)
    return fragment(title, [grid], note=f"{hidden} more labels not shown" if hidden else None)


def some_labels(labels: Sequence[Label], shown: int = SHOWN) -> str:
    """At most `shown` labels for a message, with how many more there are.

    >>> some_labels(list(range(25)), 3)
    '[0, 1, 2] and 22 more'
    """
    if len(labels) <= shown:
        return repr(list(labels))
    return f"{list(labels[:shown])!r} and {len(labels) - shown:,} more"


def table_repr(stored: Stored, predicted: Sequence[Label], actual: Sequence[Label]) -> str:
    """The call that makes a table of at most 20 x 20 cells again; the first labels, the
    non-zero cells and the total of a larger or sparse one.

    >>> from informed.table.storage import from_dense
    >>> table_repr(from_dense(np.array([[1, 2], [3, 4]])), ["a", "b"], ["a", "b"])
    "Table(predicted=['a', 'b'], actual=['a', 'b'], counts=[[1, 2], [3, 4]])"
    """
    if stored.dense is not None and stored.dense.size <= SHOWN * SHOWN:
        return (
            f"Table(predicted={list(predicted)!r}, actual={list(actual)!r}, "
            f"counts={stored.dense.tolist()!r})"
        )
    return (
        f"Table(predicted={some_labels(predicted)}, actual={some_labels(actual)}, "
        f"storage={stored.kind!r}, nonzero={stored.nonzero_count}, n={stored.total()!r})"
    )


def table_text(stored: Stored, predicted: Sequence[Label], actual: Sequence[Label]) -> str:
    """A table as text: every cell with its margins (dense); the non-zero cells, the
    first `TEXT_CELLS` of them, one per line (sparse).

    >>> from informed.table.storage import from_dense
    >>> print(table_text(from_dense(np.array([[1, 2], [3, 4]])), ["a", "b"], ["a", "b"]))
    predicted \\ actual  a  b  total
    a                   1  2      3
    b                   3  4      7
    total               4  6     10
    """
    if stored.dense is not None:
        counts = stored.dense
        head = ["predicted \\ actual", *(str(c) for c in actual), "total"]
        body = [
            [str(r), *(_text(v) for v in row), _text(sum(row))]
            for r, row in zip(predicted, counts.tolist(), strict=True)
        ]
        totals = counts.sum(axis=0).tolist()
        body.append(["total", *(_text(v) for v in totals), _text(sum(totals))])
    else:
        head = ["predicted", "actual", "count"]
        rows, cols, values = stored.nonzero()
        body = [
            [str(predicted[i]), str(actual[j]), _text(v)]
            for i, j, v in zip(
                rows[:TEXT_CELLS].tolist(),
                cols[:TEXT_CELLS].tolist(),
                values[:TEXT_CELLS].tolist(),
                strict=True,
            )
        ]
        if values.size > TEXT_CELLS:
            body.append([f"... {values.size - TEXT_CELLS:,} more non-zero cells", "", ""])
        body.append(["total", "", _text(stored.total())])
    widths = [max(len(line[k]) for line in [head, *body]) for k in range(len(head))]
    return "\n".join(
        "  ".join(
            cell.rjust(w) if k else cell.ljust(w)
            for k, (cell, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in [head, *body]
    )


def _text(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _short(value: float) -> str:
    return "undefined" if math.isnan(value) else f"{value:.4f}"


def _where(positive: Label | None) -> str:
    return "" if positive is None else f", label {positive!r} against the rest"


def evaluation_repr(
    n: float, positive: Label | None, measures: Mapping[str, float], labels: int
) -> str:
    """One line: N, the positive label, the headline measures, how many measures and labels."""
    shown = [name for name in HEADLINE if name in measures]
    headline = ", ".join(f"{name} {_short(measures[name])}" for name in shown)
    return (
        f"Evaluation(N = {n:g}{_where(positive)}: {headline}; {len(measures)} measures, "
        f"{labels} labels)"
    )


PER_LABEL = ("recall", "precision", "f_measure", "informedness", "markedness", "bias", "prevalence")
"""The measures of each label's one-vs-rest view a notebook shows."""


def evaluation_html(
    n: float,
    positive: Label | None,
    measures: Mapping[str, float],
    reasons: Mapping[str, str],
    per_label: Mapping[Label, Mapping[str, float]],
    per_label_reasons: Mapping[Label, Mapping[str, str]],
) -> str:
    """Every measure: its title, value, and formula (or why it is undefined); then each
    label's one-vs-rest measures (at most `SHOWN` labels)."""
    rows = [
        [
            header_cell(MEASURES[name].title, row=True),
            value_cell(value, reasons.get(name)),
            note_cell(reasons[name]) if name in reasons else text_cell(MEASURES[name].formula),
        ]
        for name, value in measures.items()
        if name in MEASURES
    ]
    headline = ", ".join(
        f"{MEASURES[name].title} {_short(measures[name])}" for name in HEADLINE if name in measures
    )
    title = f"Evaluation of N = {n:g}{_where(positive)}: {headline}"
    overall = html_table(["measure", "value", "formula"], rows, styled=True)
    labels = list(per_label)[:SHOWN]
    label_rows = [
        [header_cell(label, row=True)]
        + [
            value_cell(per_label[label][name], per_label_reasons.get(label, {}).get(name))
            for name in PER_LABEL
        ]
        for label in labels
    ]
    each = html_table(
        ["label", *(MEASURES[name].title for name in PER_LABEL)],
        label_rows,
        caption="Each label against the rest",
        styled=True,
    )
    hidden = len(per_label) - len(labels)
    return fragment(
        title, [overall, each], note=f"{hidden} more labels not shown" if hidden else None
    )
