"""Presentation of results: JSON and CSV documents, text reports, the HTML page.

Nothing is computed here: each function formats typed results computed before (an
`Evaluation` and its `Payoff`, a `RankingSummary`, a `Bootstrap`, a `TallySummary`).

The names load on first use (PEP 562): the tally's text report (`informed tally`) does
not load the modules of the evaluation's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names

if TYPE_CHECKING:
    from informed.report.document import (
        evaluation_document,
        intervals_document,
        measures_csv,
        results_document,
        write_json,
    )
    from informed.report.tally_text import render_tally
    from informed.report.text import render_evaluation, render_ranking

_SOURCES = {
    "evaluation_document": "informed.report.document",
    "intervals_document": "informed.report.document",
    "measures_csv": "informed.report.document",
    "results_document": "informed.report.document",
    "write_json": "informed.report.document",
    "render_evaluation": "informed.report.text",
    "render_ranking": "informed.report.text",
    "render_tally": "informed.report.tally_text",
}

__all__ = [
    "evaluation_document",
    "intervals_document",
    "measures_csv",
    "render_evaluation",
    "render_ranking",
    "render_tally",
    "results_document",
    "write_json",
]

__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
