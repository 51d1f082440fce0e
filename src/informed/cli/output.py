"""What a command produced, and writing it: stdout in the chosen format, the HTML page."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from informed.ranking import Ranking
    from informed.table import Evaluation

__all__ = ["Output", "emit", "write_html"]


@dataclass
class Output:
    """What a command produced, in every format it can be written in."""

    document: dict[str, Any]
    text: str
    csv: str | None = None
    evaluation: Evaluation | None = None
    ranking: Ranking | None = None
    intervals: dict[str, list[float | None]] | None = None
    positive: str | None = None
    quotas: tuple[int, ...] = ()
    bins: int = 10
    interval_note: str | None = None


def emit(output: Output, fmt: str) -> None:
    """Print the output on stdout as JSON, CSV or text."""
    if fmt == "json":
        print(json.dumps(output.document, indent=1, allow_nan=False))
    elif fmt == "csv":
        print(output.csv or "", end="")
    else:
        print(output.text)


def write_html(output: Output, path: str, source: str, level: float | None) -> None:
    """Write the self-contained HTML report of an evaluation."""
    from informed.report.html import write_html_report

    write_html_report(
        path,
        output.evaluation,
        output.ranking,
        intervals=output.intervals,
        level=level,
        source=source,
        ranking_positive=output.positive,
        quotas=output.quotas,
        bins=output.bins,
        interval_note=output.interval_note,
    )
