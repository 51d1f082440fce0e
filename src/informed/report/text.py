"""Plain-text reports: the table, the measures with reasons, per label, the payoff.

Every heading and value is read from the measure registry, so a new measure appears here
without touching this module.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from informed.evaluation import Evaluation
from informed.measures import MEASURES
from informed.payoff import payoff

__all__ = ["render_evaluation", "render_ranking", "render_tally"]

PER_LABEL = ("recall", "precision", "f_measure", "informedness", "markedness", "bias", "prevalence")


def _fmt(value: float | None, width: int = 9) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined".rjust(width)
    return f"{value:.4f}".rjust(width)


def render_evaluation(
    result: Evaluation,
    source: str,
    intervals: Mapping[str, Sequence[float | None]] | None = None,
    level: float | None = None,
) -> str:
    """The evaluation as text; `intervals` (name -> [low, high]) are shown beside values."""
    table = result.table
    head = f"{source}: N = {table.n:g}"
    if result.positive is not None:
        head += f", positive label {result.positive!r}"
    out = [head, "", "Contingency table (rows predicted, columns actual)", str(table), ""]
    title = "Measures"
    if result.positive is not None:
        title += " (one-vs-rest for the positive label)"
    if intervals is not None and level is not None:
        title += f"; {100 * level:g} % intervals"
    out.append(title)
    width = max(len(m.title) for m in MEASURES.values())
    for name, measure in MEASURES.items():
        line = f"  {measure.title.ljust(width)} {_fmt(result.measures[name])}"
        if intervals is not None and name in intervals:
            low, high = intervals[name]
            if low is not None and high is not None:
                line += f"  [{low:.4f}, {high:.4f}]"
        if name in result.reasons:
            line += f"  undefined: {result.reasons[name]}"
        out.append(line)
    if result.per_label:
        out += ["", "Per label (one-vs-rest)"]
        out.append("  " + "label".ljust(14) + "".join(n[:11].rjust(12) for n in PER_LABEL))
        for label, values in result.per_label.items():
            cells = "".join(_fmt(values[n], 12) for n in PER_LABEL)
            out.append("  " + str(label)[:14].ljust(14) + cells)
    pay = payoff(table)
    out += ["", "Fair-odds payoff per unit stake (rows predicted; won = informedness of the label)"]
    heads = "".join(str(c)[:11].rjust(12) for c in pay.labels)
    out.append("  " + "".ljust(14) + heads + "won".rjust(12) + "weighted".rjust(12))
    for i, label in enumerate(pay.labels):
        cells = "".join(_fmt(float(v), 12) for v in pay.matrix[i])
        won = _fmt(float(pay.won[i]), 12) + _fmt(float(pay.weighted[i]), 12)
        out.append("  " + str(label)[:14].ljust(14) + cells + won)
    out.append(f"  Bookmaker informedness: {_fmt(pay.informedness).strip()}")
    return "\n".join(out)


def render_ranking(report: Mapping[str, Any], positive: object) -> str:
    """The ranking section: AUC, average hit rate, average Qrecall, PEM, quotas, deciles."""
    out = [f"Ranking by score (positive class {positive!r}; ties share their group's positives)"]
    for key, title in (
        ("auc", "AUC (ties count 1/2)"),
        ("average_hit_rate", "Average hit rate"),
        ("average_qrecall", "Average Qrecall"),
        ("pem", "PEM (= 2 AUC - 1)"),
    ):
        out.append(f"  {title.ljust(26)} {_fmt(report.get(key))}")
    quotas = report.get("at_quota") or {}
    if quotas:
        names = ("hit_rate", "qrecall", "lift", "pearson", "threshold")
        out += ["", "  " + "quota".rjust(8) + "".join(n.rjust(12) for n in names)]
        for quota, values in quotas.items():
            out.append("  " + str(quota).rjust(8) + "".join(_fmt(values.get(n), 12) for n in names))
    deciles = report.get("deciles") or []
    if deciles:
        keys = [k for k in ("quota", "hit_rate", "lift", "cumulative_qrecall") if k in deciles[0]]
        out += [
            "",
            "  Bins of the ranking",
            "  " + "bin".rjust(4) + "".join(k.rjust(20) for k in keys),
        ]
        for i, row in enumerate(deciles, start=1):
            out.append("  " + str(i).rjust(4) + "".join(_fmt(row.get(k), 20) for k in keys))
    return "\n".join(out)


def render_tally(document: Mapping[str, Any]) -> str:
    """A multi-label tally: the one-glance statistics table, then per category."""
    out = [
        f"Documents: {document.get('documents')}",
        str(document.get("stats_table", "")).rstrip(),
        "",
    ]
    per = document.get("per_category") or {}
    names = ("precision", "recall", "f_measure", "informedness", "markedness")
    out.append("  " + "category".ljust(16) + "".join(n[:11].rjust(12) for n in names))
    for category, values in per.items():
        out.append(
            "  " + str(category)[:16].ljust(16) + "".join(_fmt(values.get(n), 12) for n in names)
        )
    return "\n".join(out)
