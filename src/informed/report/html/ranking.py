"""The ranking section of the HTML report: summaries, ROC, quota and lift plots, lift table.

Each number is read from the `RankingSummary` (computed once, before); the plots draw the
`Ranking`'s curves. Every heading, definition, range, chance value, source and reason
for an undefined value comes from the ranking registry `informed.ranking.RANKING_MEASURES`.
"""

from __future__ import annotations

import math
from typing import Any

from informed.coding.labels import keyed
from informed.measures import MEASURES
from informed.ranking import RANKING_MEASURES, OperatingPoint, Ranking, undefined_reason
from informed.ranking.document import AREAS, QUOTA_MEASURES, SUMMARIES, RankingSummary
from informed.ranking.registry import LIFT_COLUMNS
from informed.report.html.figures import lift_svg, quota_svg, roc_svg
from informed.report.html.live import STAKE, live_points, live_roc_svg, panel
from informed.report.html.markup import (
    count,
    escaped,
    figure_element,
    note_cell,
    number,
    sentence,
    value_cell,
    value_range,
)
from informed.table.evaluation import Evaluation

__all__ = [
    "ARBEL_ROKACH",
    "PROVOST_FAWCETT",
    "RANKING_SOURCES",
    "first_point",
    "first_threshold",
    "ranking_section",
]

ARBEL_ROKACH = "Arbel & Rokach (2006)"
PROVOST_FAWCETT = "Provost & Fawcett (2001)"
RANKING_SOURCES = (
    *(m.source for m in RANKING_MEASURES.values()),
    PROVOST_FAWCETT,
    MEASURES["informedness"].source,
)
"""The works the ranking section cites, listed in full in the page's references."""


def _operating_point(evaluation: Evaluation | None, positive: Any) -> tuple[float, float] | None:
    """The evaluated predictions on the ROC plane, when they are about the ranked class."""
    if evaluation is None or evaluation.positive is None or positive is None:
        return None
    if keyed(evaluation.positive) != keyed(positive):
        return None
    return evaluation.measures["fallout"], evaluation.measures["recall"]


def _summary_rows(summary: RankingSummary) -> str:
    rows = []
    for name in (*SUMMARIES, *AREAS):
        measure = RANKING_MEASURES[name]
        reason = summary.reasons.get(name)
        chance = "—" if measure.chance is None else escaped(measure.chance)
        rows.append(
            f'<tr data-measure="{name}"><th>{escaped(measure.title)}</th>'
            f"{value_cell(summary.values[name], reason)}"
            f'<td class="num">{value_range(measure.low, measure.high)}</td>'
            f'<td class="num">{chance}</td>'
            f'<td class="text"><span class="formula">{escaped(measure.definition)}</span><br>'
            f'<span class="alias">{escaped(measure.source)}</span></td>'
            f"{note_cell(reason)}</tr>"
        )
    return "".join(rows)


def _quota_table(summary: RankingSummary) -> str:
    if not summary.at_quota:
        return ""
    head = "".join(
        f'<th class="num" data-measure="{name}">{escaped(RANKING_MEASURES[name].title)}</th>'
        for name in QUOTA_MEASURES
    )
    body = "".join(
        f'<tr data-quota="{escaped(q)}"><th class="num">{escaped(q)}</th>'
        + "".join(
            value_cell(values[k], summary.quota_reasons.get(q, {}).get(k)) for k in QUOTA_MEASURES
        )
        + "</tr>"
        for q, values in summary.at_quota.items()
    )
    definitions = "".join(
        f'<li data-measure="{name}"><strong>{escaped(RANKING_MEASURES[name].title)}</strong>: '
        f'<span class="formula">{escaped(RANKING_MEASURES[name].definition)}</span> '
        f'<span class="alias">({escaped(RANKING_MEASURES[name].source)})</span></li>'
        for name in QUOTA_MEASURES
    )
    return (
        "<h3>At the quotas asked for</h3>"
        f'<div class="scroll"><table id="quota-table"><thead><tr><th class="num">quota</th>'
        f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
        f'<ul class="small" id="quota-definitions">{definitions}</ul>'
    )


def _lift_table(summary: RankingSummary) -> str:
    head = "".join(
        f'<th class="num" title="{escaped(meaning)}">{escaped(heading)}</th>'
        for heading, meaning in LIFT_COLUMNS.values()
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{count(row[k])}</td>'  # type: ignore[arg-type]
            if k in ("bin", "quota")
            else value_cell(row[k])
            for k in LIFT_COLUMNS
        )
        + "</tr>"
        for row in summary.lift.to_records()
    )
    return (
        f"<h3>Lift table ({summary.bins} bins of equal size, top first)</h3>"
        f'<div class="scroll"><table id="lift-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _threshold_caption(threshold: OperatingPoint | None) -> str:
    if threshold is None or math.isnan(threshold.threshold):
        return ""
    tp, fp, fn, tn = threshold.cells
    how = (
        f"the threshold with the best {escaped(threshold.measure.replace('_', ' '))}"
        if threshold.chosen_by == "best"
        else "the threshold given"
    )
    return (
        f' The circle is {how}, score ≥ <span id="threshold-value">{threshold.threshold:.6g}'
        f"</span>: {escaped(threshold.measure.replace('_', ' '))} "
        f'<span id="threshold-measure">{number(threshold.value)}</span> (tp {tp:,g}, fp '
        f"{fp:,g}, fn {fn:,g}, tn {tn:,g})."
    )


def first_point(ranking: Ranking, threshold: OperatingPoint | None) -> tuple[OperatingPoint, str]:
    """The operating point the live panel shows first, and how it was chosen: the
    threshold given (or chosen by the command line), else the best informedness."""
    if threshold is not None and not math.isnan(threshold.threshold):
        how = (
            f"the threshold with the best {threshold.measure.replace('_', ' ')}"
            if threshold.chosen_by == "best"
            else "the threshold given"
        )
        return threshold, how
    return ranking.best_threshold(), "the threshold with the best informedness"


def _roc_figure(
    ranking: Ranking,
    point: tuple[float, float] | None,
    threshold: OperatingPoint | None,
    caption: str,
    decision: dict[str, Any] | None,
) -> str:
    """The ROC figure: with the live operating point's panel beside the plot when the
    curve is defined, else the plot (or why it cannot be drawn) alone."""
    if undefined_reason(ranking, "roc_curve") is not None:
        return figure_element(
            "roc",
            roc_svg(ranking, operating_point=point, threshold=threshold),
            caption + _threshold_caption(threshold),
        )
    first, how = first_point(ranking, threshold)
    points = live_points(ranking, first, how)
    plot, mapping = live_roc_svg(ranking, points, point)
    positive, negative = ranking.at_threshold(points.asked).table.predicted
    live = panel(points, mapping, positive, negative, decision)
    given = _threshold_caption(threshold).replace(" The circle is ", " At first it is ", 1)
    caption += (
        " The circle is the operating point of the panel with it: the threshold, its "
        "2x2 table, informedness, markedness, the payoff per unit stake and the "
        f"Bookmaker's money on ${STAKE:g} bets (Powers, the Bookmaker poster)."
        + (given or f" At first it is {escaped(how)}.")
        + " The slider, a click on the curve, or the page's address "
        "(<code>#threshold=0.42</code>) moves it."
    )
    return figure_element("roc", f'<div class="live-row">{plot}{live}</div>', caption, wide=True)


def ranking_section(
    ranking: Ranking,
    summary: RankingSummary,
    positive: Any,
    evaluation: Evaluation | None,
    threshold: OperatingPoint | None = None,
    decision: dict[str, Any] | None = None,
) -> str:
    """The body of the ranking section: summaries, plots, lift table, values at the quotas.

    `summary` is `summarize_ranking(ranking, quotas, bins)`; `positive` names the ranked
    class; when `evaluation` is about the same class, its (fallout, recall) is marked on
    the ROC plot, and so is the operating point `threshold` when given. `decision` is the
    calibration section's decision-curve marker, moved with the live operating point.
    """
    point = _operating_point(evaluation, positive)
    named = (
        "the positive class" if positive is None else f"class <strong>{escaped(positive)}</strong>"
    )
    table = (
        f"<p>Scores rank {named} against the rest. Ties are exact: a tie group of m1 rows with "
        "m2 positives counts m2/m1 per position (Arbel &amp; Rokach (2006), eq. 5), so no "
        "result depends on the input order.</p>"
        '<div class="scroll"><table id="ranking-table"><thead><tr><th>summary</th>'
        '<th class="num">value</th><th class="num">range</th><th class="num">chance</th>'
        f"<th>definition and source</th><th>note</th></tr></thead><tbody>"
        f"{_summary_rows(summary)}</tbody></table></div>"
    )
    informedness = MEASURES["informedness"]
    figures = [
        _roc_figure(
            ranking,
            point,
            threshold,
            "The ROC curve: each point is a threshold on the scores, at (fallout, recall); a "
            "tie group is one straight segment. <b>Good:</b> the curve bows towards the top-left "
            "corner (0, 1) and AUC nears 1. <b>Chance:</b> it follows the diagonal, AUC 0.5; the "
            "height of any point above the diagonal is the informedness (recall − fallout) of "
            "that threshold. The convex hull joins the thresholds that are optimal for some "
            f"costs and class priors. Sources: {escaped(ARBEL_ROKACH)}, sec. 2.2.2 and 2.3.1; "
            f"{escaped(PROVOST_FAWCETT)}; {sentence(informedness.source)}"
            + (
                " The diamond is the evaluated predictions, at their (fallout, recall)."
                if point is not None
                else ""
            ),
            decision,
        ),
        figure_element(
            "lift",
            lift_svg(ranking, bins=summary.bins, name="plot-lift"),
            "Lift of each bin: its rate of positives over the overall rate. <b>Good:</b> lift "
            "well above 1 in the top bins, falling below 1 towards the bottom. <b>Chance:</b> "
            "lift 1 in every bin (the dashed line). The line is the cumulative lift. Tie groups "
            f"cut by a bin edge are shared pro rata. Source: {escaped(ARBEL_ROKACH)}, sec. 2.2.5.",
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
            f"a random one and −1 for the worst (eq. 14–15). Source: {escaped(ARBEL_ROKACH)}, "
            "sec. 2.2.3–2.3.4.",
            wide=True,
        ),
    ]
    return (
        table
        + f'<div class="figures">{"".join(figures)}</div>'
        + _lift_table(summary)
        + _quota_table(summary)
    )


def first_threshold(ranking: Ranking, threshold: OperatingPoint | None) -> float:
    """The threshold the live panel shows first: the lowest score at least the first
    point's (infinite when it predicts no row), as `live_points` shows it."""
    point, _ = first_point(ranking, threshold)
    return float(ranking.cut_tables([point.groups])[0][0])
