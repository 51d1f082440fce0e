"""How a Ranking shows itself in a notebook: its classes, its sizes and its first and last
tie groups.

Built from the escaped pieces of `informed._markup`; a function of plain arrays, so that
the Ranking class calls it without an import cycle.
"""

from __future__ import annotations

from informed._markup import count_cell, fragment, html_table, text_cell
from informed.coding.labels import Label
from informed.ranking.groups import CountArray, FloatArray

__all__ = ["ranking_html"]


def ranking_html(
    scores: FloatArray,
    positives: CountArray,
    negatives: CountArray,
    classes: tuple[Label, Label] = ("+", "-"),
) -> str:
    """n, n+, n-, the number of distinct scores, and the highest five and lowest three
    groups (score, positives, negatives), the columns named by the `classes` (positive,
    negative) that `informed.ranking.classes.table_labels` gives.

    >>> import numpy as np
    >>> html = ranking_html(np.array([2.0, 1.0]), np.array([1, 0]), np.array([0, 1]),
    ...                     ("spam", "ham"))
    >>> html.count("<tr>"), "positive &#x27;spam&#x27;" in html
    (3, True)
    """
    size = scores.size
    shown = list(range(min(size, 5))) + list(range(max(size - 3, 5), size))
    rows = [
        [
            text_cell(f"{scores[i]:.6g}"),
            count_cell(positives[i].item()),
            count_cell(negatives[i].item()),
        ]
        for i in shown
    ]
    n_pos, n_neg = positives.sum().item(), negatives.sum().item()
    title = (
        f"Ranking: n = {n_pos + n_neg:,g} ({n_pos:,g} positive {classes[0]!r}, {n_neg:,g} "
        f"negative {classes[1]!r}), {size:,} distinct scores"
    )
    note = f"{size - len(shown):,} groups between not shown" if len(shown) < size else None
    headings = ["score", f"positives ({classes[0]})", f"negatives ({classes[1]})"]
    grid = html_table(headings, rows, styled=True)
    return fragment(title, [grid], note=note)
