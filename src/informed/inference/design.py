"""How the bootstrap intervals of a report were made, said in the report.

`bootstrap_design` gives the JSON entry (level, method, replicates, cases per replicate,
and for a weighted table how its weights were read); `design_note` the sentence the text
and HTML reports print. A weighted table's intervals depend on that reading: frequency
weights make N the total weight, normalised weights make the number of rows the sample
size (`informed.inference.bootstrap`).
"""

from __future__ import annotations

from typing import Any

from informed._common import check_choice
from informed.inference.checks import check_count, check_level, check_table
from informed.inference.table_bootstrap import BOOTSTRAP_METHODS, case_count
from informed.table.table import Table

__all__ = ["bootstrap_design", "design_note"]


def bootstrap_design(
    table: Table,
    level: float,
    *,
    replicates: int = 1000,
    method: str = "percentile",
    weights_are: str = "frequency",
    size: int | None = None,
) -> dict[str, Any]:
    """How `intervals_report` makes its intervals, for a report to say: level, method,
    replicates, cases drawn per replicate, and for a weighted table how its weights were
    read and its total weight (JSON values).

    >>> weighted = Table.from_counts([[2.5, 0.5], [1.0, 1.0]], rows="predicted")
    >>> bootstrap_design(weighted, 0.95, weights_are="normalised", size=40)["cases"]
    40
    """
    check_table(table)
    check_choice(method, BOOTSTRAP_METHODS, "method")
    return {
        "level": check_level(level),
        "method": method,
        "replicates": check_count(replicates, "replicates", 2),
        "cases": case_count(table, size, weights_are),
        "weights_are": weights_are if table.weighted else None,
        "total_weight": float(table.n) if table.weighted else None,
    }


def design_note(design: dict[str, Any]) -> str:
    """One sentence saying how the intervals of `bootstrap_design` were made.

    >>> design = {"level": 0.95, "method": "percentile", "replicates": 1000, "cases": 5,
    ...           "weights_are": "frequency", "total_weight": 5.0}
    >>> print(design_note(design))  # doctest: +NORMALIZE_WHITESPACE
    95 % percentile bootstrap, 1000 replicates of 5 cases (frequency weights: N = 5, the total
    weight)
    """
    text = (
        f"{100 * design['level']:g} % {design['method']} bootstrap, "
        f"{design['replicates']} replicates of {design['cases']} cases"
    )
    if design["weights_are"] == "frequency":
        total = f"{design['total_weight']:.6g}"
        text += f" (frequency weights: N = {total}, the total weight)"
    elif design["weights_are"] == "normalised":
        text += " (normalised weights: the rows are the cases, each counting as its weight)"
    return text
