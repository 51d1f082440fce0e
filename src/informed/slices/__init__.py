"""Slices: every summary by group (one column or several crossed) or time window, in one pass.

`Slices` holds the Table (and Ranking) of every slice of the rows and of all of them;
`evaluate_slices` gives every registry measure of every slice with its denominator and
a flag where a slice is too small to say anything; `window_keys` turns timestamps into
time-window keys and `accumulate` merges adjacent windows (cumulative, rolling);
`Folds` is the Slices of a cross-validation's fold column beside their pooled sum.
Bootstrap intervals and the differences between slices are in `informed.inference`
(`bootstrap_slices`, `disparities`). User guide: docs/slices.md.

The names load on first use (PEP 562): a report by `by` columns does not load the time
windows' modules (and their time zones), nor the folds'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names

if TYPE_CHECKING:
    from informed.slices.evaluation import SliceEvaluation, evaluate_slices
    from informed.slices.folds import FoldRows, Folds, FoldSummary
    from informed.slices.keys import MISSING, key_name
    from informed.slices.rolling import accumulate
    from informed.slices.slices import Slices
    from informed.slices.windows import window_keys

_SOURCES = {
    "Slices": "informed.slices.slices",
    "Folds": "informed.slices.folds",
    "FoldRows": "informed.slices.folds",
    "FoldSummary": "informed.slices.folds",
    "MISSING": "informed.slices.keys",
    "SliceEvaluation": "informed.slices.evaluation",
    "accumulate": "informed.slices.rolling",
    "evaluate_slices": "informed.slices.evaluation",
    "key_name": "informed.slices.keys",
    "window_keys": "informed.slices.windows",
}

# the summary first: the API reference lists a page's names in this order
__all__ = [  # noqa: RUF022
    "Slices",
    "Folds",
    "FoldRows",
    "FoldSummary",
    "MISSING",
    "SliceEvaluation",
    "accumulate",
    "evaluate_slices",
    "key_name",
    "window_keys",
]

__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
