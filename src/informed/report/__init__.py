"""Presentation of results: JSON and CSV documents, text reports, the HTML page.

Nothing is computed here: each function formats typed results computed before (an
`Evaluation` and its `Payoff`, a `RankingSummary`, a `Bootstrap`, a `TallySummary`).
"""

from __future__ import annotations

from informed.report.document import (
    evaluation_document,
    intervals_document,
    measures_csv,
    results_document,
    write_json,
)
from informed.report.text import render_evaluation, render_ranking, render_tally

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
