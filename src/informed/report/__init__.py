"""Presentation of results: JSON documents and text reports. No arithmetic here."""

from __future__ import annotations

from informed.report.document import evaluation_document, json_number, measures_csv
from informed.report.text import render_evaluation, render_ranking, render_tally

__all__ = [
    "evaluation_document",
    "json_number",
    "measures_csv",
    "render_evaluation",
    "render_ranking",
    "render_tally",
]
