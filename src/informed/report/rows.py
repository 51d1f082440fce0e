"""Every label's row of the terminal report, as plain lines made one at a time.

`informed evaluate --all-labels` on a table of thousands of labels prints a row per
label. Drawn by rich, 200,000 rows take many minutes and all the memory of the text;
here each line is formatted from the per-label columns (`Evaluation.per_label.column`)
as it is written, so the rows stream out at a steady pace. The columns and headings are
the terminal report's (`informed.report.contents.PER_LABEL`); columns that do not fit in
the width go to a further block of rows, as the drawn report splits its tables.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from informed._common import printable
from informed.report.contents import PER_LABEL, PER_LABEL_HEADINGS
from informed.table.evaluation import Evaluation
from informed.table.per_label import LabelValues

__all__ = ["STREAMED_LABELS", "per_label_lines"]

STREAMED_LABELS = 200
"""With more labels than this, `--all-labels` streams the per-label rows as plain lines
(and the contingency and payoff tables stay summarised: they would have L x L cells)."""

_LABEL_WIDTH = 24
_VALUE_WIDTH = 10


def _column(result: Evaluation, name: str) -> NDArray[np.float64]:
    per_label = result.per_label
    if isinstance(per_label, LabelValues):
        return per_label.column(name)
    return np.array([per_label[x][name] for x in result.table.labels], dtype=np.float64)


def _cell(value: float) -> str:
    return "undefined" if math.isnan(value) else f"{value:.3f}"


def _label(label: object, width: int) -> str:
    shown = printable(label)
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def _blocks(width: int, label_width: int) -> list[Sequence[str]]:
    """The per-label columns cut into blocks that each fit in `width` columns."""
    per_row = max(1, (width - label_width) // (_VALUE_WIDTH + 1))
    return [PER_LABEL[k : k + per_row] for k in range(0, len(PER_LABEL), per_row)]


def per_label_lines(result: Evaluation, width: int = 100) -> Iterator[str]:
    """The title, then for each block of columns a heading and one line per label, in
    the order of the table's labels.

    >>> from informed import Table, evaluate
    >>> lines = list(per_label_lines(evaluate(Table.binary(tp=3, fp=1, fn=2, tn=4)), 60))
    >>> print(lines[1]); print(lines[3])
    label     recall  precision          F  informed.
    +          0.600      0.750      0.667      0.400
    """
    labels = result.table.labels
    label_width = min(max((len(printable(x)) for x in labels), default=5), _LABEL_WIDTH)
    label_width = max(label_width, len("label"))
    yield "Per label, one against the rest (an unbiased label predicts as often as it occurs)"
    for block in _blocks(width, label_width + 1):
        columns = [_column(result, name).tolist() for name in block]
        yield "label".ljust(label_width) + "".join(
            " " + PER_LABEL_HEADINGS[name].rjust(_VALUE_WIDTH) for name in block
        )
        yield "-" * (label_width + (_VALUE_WIDTH + 1) * len(block))
        for k, label in enumerate(labels):
            yield _label(label, label_width).ljust(label_width) + "".join(
                " " + _cell(values[k]).rjust(_VALUE_WIDTH) for values in columns
            )
