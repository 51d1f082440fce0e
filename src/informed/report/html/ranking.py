"""The ranking section of the HTML report: summaries, ROC, quota and lift plots, lift table.

Each number is read from the `Ranking` through `ranking_report` and `pem_areas`; a value
that is undefined says why (`undefined_reason`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from informed.labels import keyed
from informed.measures import MEASURES
from informed.ranking import Ranking, pem_areas, ranking_report, undefined_reason
from informed.report.html.markup import (
    count,
    escaped,
    figure_element,
    note_cell,
    sentence,
    value_cell,
)
from informed.report.plots.ranking import lift_svg, quota_svg, roc_svg
from informed.table.evaluation import Evaluation

__all__ = ["ARBEL_ROKACH", "PROVOST_FAWCETT", "ranking_section"]

ARBEL_ROKACH = "Arbel & Rokach, Classifier evaluation under limited resources (seed 004)"
PROVOST_FAWCETT = "Provost & Fawcett (2001), Robust classification for imprecise environments"
"""The works the ranking plots' captions cite, listed again in the page's footer."""

# (key, heading, definition, range, chance)
_RANKING_SUMMARIES = (
    ("auc", "AUC", "area under the ROC curve; a tied pair counts 1/2 (§2.3.1)", "[0, 1]", "0.5"),
    (
        "average_hit_rate",
        "Average hit rate",
        "Σ_j t[j] HitRate(j) / n+ (eq. 12)",
        "[0, 1]",
        "prevalence",
    ),
    (
        "average_qrecall",
        "Average Qrecall",
        "mean of Qrecall(j) over j = n+ … n (eq. 13)",
        "[0, 1]",
        "—",
    ),
    ("pem", "PEM", "(S1 − S2) / S3 = 2 AUC − 1 (eq. 14–15)", "[-1, 1]", "0"),
)
_DECILE_COLUMNS = (
    ("bin", "bin"),
    ("quota", "quota (upper edge)"),
    ("positives", "positives in bin"),
    ("bin_hit_rate", "hit rate of bin"),
    ("lift", "lift"),
    ("hit_rate", "cumulative hit rate"),
    ("cumulative_lift", "cumulative lift"),
    ("cumulative_qrecall", "cumulative Qrecall (gain)"),
)
_QUOTA_COLUMNS = (
    ("hit_rate", "hit rate"),
    ("qrecall", "Qrecall"),
    ("lift", "lift (cumulative)"),
    ("pearson", "Pearson"),
    ("threshold", "threshold"),
)


def _operating_point(evaluation: Evaluation | None, positive: Any) -> tuple[float, float] | None:
    """The evaluated predictions on the ROC plane, when they are about the ranked class."""
    if evaluation is None or evaluation.positive is None or positive is None:
        return None
    if keyed(evaluation.positive) != keyed(positive):
        return None
    return evaluation.measures["fallout"], evaluation.measures["recall"]


def ranking_section(
    ranking: Ranking,
    positive: Any,
    quotas: Sequence[float],
    bins: int,
    evaluation: Evaluation | None,
) -> str:
    """The body of the ranking section: summaries, plots, lift table, values at `quotas`.

    `positive` names the ranked class; when `evaluation` is about the same class, its
    (fallout, recall) is marked on the ROC plot.
    """
    point = _operating_point(evaluation, positive)
    report = ranking_report(ranking, quotas=tuple(quotas), bins=bins)
    named = (
        "the positive class" if positive is None else f"class <strong>{escaped(positive)}</strong>"
    )
    rows = []
    for key, heading, definition, bounds, chance in _RANKING_SUMMARIES:
        reason = undefined_reason(ranking, key)
        rows.append(
            f'<tr data-measure="{key}"><th>{heading}</th>{value_cell(report[key], reason)}'
            f'<td class="num">{bounds}</td><td class="num">{chance}</td>'
            f'<td class="formula">{escaped(definition)}</td>'
            f"{note_cell(reason)}</tr>"
        )
    s1, s2, s3 = pem_areas(ranking)
    areas_reason = undefined_reason(ranking, "pem_areas")
    for key, value, definition in (
        ("s1", s1, "area of Qrecall above the random order"),
        ("s2", s2, "area of Qrecall below the random order"),
        ("s3", s3, "area of the optimal order above the random one, n−/2"),
    ):
        rows.append(
            f'<tr data-measure="{key}"><th>{key.upper()}</th>{value_cell(value, areas_reason)}'
            f'<td class="num">[0, ∞)</td><td class="num">—</td>'
            f'<td class="formula">{escaped(definition)}</td><td class="small"></td></tr>'
        )
    summary = (
        f"<p>Scores rank {named} against the rest. Ties are exact: a tie group of m1 rows with "
        "m2 positives counts m2/m1 per position (eq. 5), so no result depends on the input "
        "order.</p>"
        '<div class="scroll"><table id="ranking-table"><thead><tr><th>summary</th>'
        '<th class="num">value</th><th class="num">range</th><th class="num">chance</th>'
        f"<th>definition (seed 004)</th><th>note</th></tr></thead><tbody>{''.join(rows)}"
        "</tbody></table></div>"
    )
    at_quota = report["at_quota"]
    quota_table = ""
    if at_quota:
        head = "".join(f'<th class="num">{t}</th>' for _, t in _QUOTA_COLUMNS)
        body = "".join(
            f'<tr data-quota="{escaped(q)}"><th class="num">{escaped(q)}</th>'
            + "".join(value_cell(values[k]) for k, _ in _QUOTA_COLUMNS)
            + "</tr>"
            for q, values in at_quota.items()
        )
        quota_table = (
            "<h3>At the quotas asked for</h3>"
            f'<div class="scroll"><table id="quota-table"><thead><tr><th class="num">quota</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
        )
    deciles = report["deciles"]
    head = "".join(f'<th class="num">{t}</th>' for _, t in _DECILE_COLUMNS)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{count(row[k])}</td>' if k in ("bin", "quota") else value_cell(row[k])
            for k, _ in _DECILE_COLUMNS
        )
        + "</tr>"
        for row in deciles
    )
    decile_table = (
        f"<h3>Lift table ({bins} bins of equal size, top first)</h3>"
        f'<div class="scroll"><table id="lift-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )
    figures = [
        figure_element(
            "roc",
            roc_svg(ranking, operating_point=point, name="plot-roc"),
            "The ROC curve: each point is a threshold on the scores, at (fallout, recall); a "
            "tie group is one straight segment. <b>Good:</b> the curve bows towards the top-left "
            "corner (0, 1) and AUC nears 1. <b>Chance:</b> it follows the diagonal, AUC 0.5; the "
            "height of any point above the diagonal is the informedness (recall − fallout) of "
            "that threshold. The convex hull joins the thresholds that are optimal for some "
            f"costs and class priors. Sources: {ARBEL_ROKACH}, §2.2.2 and §2.3.1; "
            f"{PROVOST_FAWCETT}; {sentence(MEASURES['informedness'].source)}"
            + (
                " The diamond is the evaluated predictions, at their (fallout, recall)."
                if point is not None
                else ""
            ),
        ),
        figure_element(
            "lift",
            lift_svg(ranking, bins=bins, name="plot-lift"),
            "Lift of each bin: its rate of positives over the overall rate. <b>Good:</b> lift "
            "well above 1 in the top bins, falling below 1 towards the bottom. <b>Chance:</b> "
            "lift 1 in every bin (the dashed line). The line is the cumulative lift. Tie groups "
            f"cut by a bin edge are shared pro rata. Source: {ARBEL_ROKACH}, §2.2.5.",
        ),
        figure_element(
            "quota",
            quota_svg(ranking, name="plot-quota"),
            "Qrecall(j), the share of all positives caught in the top j (eq. 6), and the hit "
            "rate, the share of positives among those j (eq. 4). <b>Good:</b> the curves follow "
            "the optimal order (all positives first): Qrecall climbs straight to 1 at j = n+ "
            "and the hit rate stays at 1 until then. <b>Chance:</b> they follow the random "
            "order: Qrecall = j/n, hit rate = the prevalence. Shaded: PEM's S1 (above random, "
            "green) and S2 (below, red); PEM = (S1 − S2)/S3 is 1 for the optimal order, 0 for "
            f"a random one and −1 for the worst (eq. 14–15). Source: {ARBEL_ROKACH}, "
            "§2.2.3–2.3.4.",
            wide=True,
        ),
    ]
    return summary + f'<div class="figures">{"".join(figures)}</div>' + decile_table + quota_table
