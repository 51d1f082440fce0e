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
from numpy.typing import NDArray

from informed._markup import (
    count_cell,
    fragment,
    header_cell,
    html_table,
    note_cell,
    text_cell,
    value_cell,
)
from informed.labels import Label
from informed.measures import MEASURES

__all__ = ["HEADLINE", "SHOWN", "evaluation_html", "evaluation_repr", "table_html"]

SHOWN = 20
"""Labels a notebook shows of each axis of a table."""
HEADLINE = ("informedness", "markedness", "correlation")
"""The measures an evaluation names first."""


def _number(value: Any) -> float:
    """A count as int (exact) or float (a weight), for display."""
    return int(value) if np.asarray(value).dtype.kind in "iu" else float(value)


def table_html(
    counts: NDArray[Any], predicted: Sequence[Label], actual: Sequence[Label], weighted: bool
) -> str:
    """A table's counts with their margins, rows predicted, at most `SHOWN` labels a side.

    >>> html = table_html(np.array([[1, 2], [3, 4]]), ["<b>", "y"], ["<b>", "y"], False)
    >>> "&lt;b&gt;" in html and "<b>" not in html
    True
    """
    rows, cols = list(predicted[:SHOWN]), list(actual[:SHOWN])
    body = [
        [header_cell(label, row=True)]
        + [count_cell(_number(counts[i, j])) for j in range(len(cols))]
        + [count_cell(_number(counts[i].sum()))]
        for i, label in enumerate(rows)
    ]
    totals = counts.sum(axis=0)
    body.append(
        [header_cell("total", row=True)]
        + [count_cell(_number(totals[j])) for j in range(len(cols))]
        + [count_cell(_number(counts.sum()))]
    )
    hidden = len(predicted) - len(rows) + len(actual) - len(cols)
    title = (
        f"Table: N = {_number(counts.sum()):,}{' (weighted)' if weighted else ''}, "
        f"{len(predicted)} predicted × {len(actual)} actual (rows predicted)"
    )
    grid = html_table(["predicted \\ actual", *(str(c) for c in cols), "total"], body, styled=True)
    return fragment(title, [grid], note=f"{hidden} more labels not shown" if hidden else None)


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
