"""The calibration section of the HTML report, when the scores are probabilities.

The reliability diagram (CORP) and the decision curve are drawn by the functions a
notebook's `plot_reliability` and `plot_decision_curve` call (`draw_reliability`,
`draw_decision_curve`); the tables read every number from the `CalibrationReport` computed
once for the terminal, the JSON and this page (`informed.report.calibration`).

The decision curve carries a marker at p_t = the threshold of the ranking section's live
operating point: net benefit is the bet of acting on the rows scored at least p_t, and the
operating point "score >= t" acts on exactly those rows at p_t = t. The section returns the
marker's place on the plot (`CalibrationSection.decision`); the live panel embeds it with
its data, and its script (`live.js`) moves the marker and rewrites the net benefit there
with the operations of `decision_curve`, in the same order. Without script, or when the
ranking has no live panel, the marker stays at the first operating point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from matplotlib.figure import Figure

from informed.inference.calibration_bands import calibration_bands
from informed.inference.decision_bands import band_thresholds, decision_curve_bands
from informed.inference.interval import undefined_note
from informed.plots.calibration import CALIBRATION_FRAME, draw_decision_curve, draw_reliability
from informed.plots.style import RED, fit
from informed.plots.svg import report_axes, svg
from informed.ranking import Ranking
from informed.ranking.calibration_summary import CALIBRATION_NUMBERS
from informed.ranking.decision import decision_curve, threshold_probabilities
from informed.report.calibration import INTERVAL_TITLES, SOURCES, CalibrationReport
from informed.report.html.live import axes_mapping, js_number
from informed.report.html.markup import escaped, figure_element, note_cell, number, value_cell

__all__ = [
    "BAND_GROUPS",
    "CALIBRATION_SOURCES",
    "CalibrationSection",
    "calibration_section",
    "decision_text",
]

CALIBRATION_SOURCES = SOURCES
"""The works the calibration section cites, listed in full in the page's references."""

BAND_GROUPS = 5000
"""Bands are drawn for rankings of at most this many distinct scores: each costs 200
replicates of a pass over the tie groups (about a second at this size, ten at 76,000)."""

REPLICATES = 200
SEED = 0
MARKER = "threshold"
"""The gid of the decision curve's marker at the live operating point's p_t."""


@dataclass(frozen=True)
class CalibrationSection:
    """The section's HTML, and where its decision curve's marker sits (for the live
    panel's script: the marker's id, the affine map from (p_t, net benefit) to the SVG's
    coordinates, the first point, the rows and the prevalence)."""

    html: str
    decision: dict[str, Any]


def decision_text(threshold: float, net_benefit: float, treat_all: float) -> str:
    """What the page says under the decision curve of the threshold `threshold` (the live
    script writes the same words: live.js `decisionText`).

    >>> for part in decision_text(0.25, 0.2, 0.1).split(": "):
    ...     print(part)
    At p_t = 0.25
    net benefit 0.2000 per row (treat all 0.1000, treat none 0)
    acting on the scores beats both.
    >>> decision_text(math.inf, math.nan, math.nan)
    'At score ≥ ∞ there is no threshold probability (p_t must lie below 1), so no net benefit.'
    """
    if not 0.0 <= threshold < 1.0:
        shown = "∞" if math.isinf(threshold) else js_number(threshold)
        return (
            f"At score ≥ {shown} there is no threshold probability (p_t must lie below 1), "
            "so no net benefit."
        )
    if net_benefit > treat_all and net_benefit > 0:
        verdict = "acting on the scores beats both"
    elif treat_all >= net_benefit and treat_all >= 0:
        verdict = "treating all does at least as well"
    else:
        verdict = "treating none does at least as well"
    return (
        f"At p_t = {js_number(threshold)}: net benefit {number(net_benefit)} per row (treat "
        f"all {number(treat_all)}, treat none 0): {verdict}."
    )


def _reliability(ranking: Ranking, banded: bool) -> str:
    bands = (
        calibration_bands(ranking, replicates=REPLICATES, level=0.9, seed=SEED, intervals=False)
        if banded
        else None
    )
    with report_axes(CALIBRATION_FRAME, "plot-reliability") as axes:
        draw_reliability(axes, ranking, bands)
        figure = axes.get_figure(root=True)
        assert isinstance(figure, Figure)
        return svg(figure, "plot-reliability", "Reliability diagram (CORP)")


def _decision(ranking: Ranking, banded: bool, first: float) -> tuple[str, dict[str, Any]]:
    """The decision curve with the marker at p_t = `first`, and the marker's mapping."""
    name = "plot-decision"
    if banded:
        found: Any = decision_curve_bands(
            ranking, threshold_probabilities(ranking), replicates=REPLICATES, seed=SEED
        )
    else:
        found = decision_curve(ranking, band_thresholds(ranking))
    at = 0.0 <= first < 1.0
    point = decision_curve(ranking, [first]) if at else None
    x0 = first if at else 0.0
    y0 = float(point.net_benefit[0]) if point is not None else 0.0
    with report_axes(CALIBRATION_FRAME, name) as axes:
        draw_decision_curve(axes, {"model": found})
        axes.plot(
            [x0],
            [y0],
            marker="o",
            markersize=9,
            markerfacecolor="none",
            markeredgecolor=RED,
            markeredgewidth=2,
            linestyle="none",
            clip_on=False,
            gid=MARKER,
        )
        figure = axes.get_figure(root=True)
        assert isinstance(figure, Figure)
        fit(figure)
        mapping = axes_mapping(axes, figure)
        low, high = axes.get_ylim()
        left, right = axes.get_xlim()
        shown = at and low <= y0 <= high
        text = svg(figure, name, "Decision curve")
    marker = f"{name}-{MARKER}"
    if not shown:
        text = text.replace(f'<g id="{marker}">', f'<g id="{marker}" style="display:none">', 1)
    mapping.update(
        plot=name,
        marker=marker,
        x0=x0,
        y0=y0,
        ylim=[low, high],
        xlim=[left, right],
        n=float(ranking.n),
        prevalence=float(ranking.n_positive) / float(ranking.n),
    )
    return text, mapping


def _decomposition(report: CalibrationReport) -> str:
    result = report.calibration
    rows = []
    for key in ("brier", "log"):
        found = getattr(result, key)
        title, meaning = CALIBRATION_NUMBERS[key]
        rows.append(
            f'<tr data-score="{key}"><th>{escaped(title)}</th>'
            f"{value_cell(found.score, found.reason)}"
            f"{value_cell(found.miscalibration, found.reason)}"
            f"{value_cell(found.discrimination, found.reason)}"
            f"{value_cell(found.uncertainty, found.reason)}"
            f'<td class="text">{escaped(meaning)}</td>{note_cell(found.reason)}</tr>'
        )
    head = "".join(
        f'<th class="num" title="{escaped(CALIBRATION_NUMBERS[k][1])}">'
        f"{escaped(CALIBRATION_NUMBERS[k][0])}</th>"
        for k in ("miscalibration", "discrimination", "uncertainty")
    )
    return (
        '<div class="scroll"><table id="calibration-decomposition"><thead><tr><th>score</th>'
        f'<th class="num">value</th>{head}<th>what it is</th><th>note</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        '<p class="small">score = MCB − DSC + UNC. MCB: '
        f"{escaped(CALIBRATION_NUMBERS['miscalibration'][1])}; DSC: "
        f"{escaped(CALIBRATION_NUMBERS['discrimination'][1])}; UNC: "
        f"{escaped(CALIBRATION_NUMBERS['uncertainty'][1])} (Dimitriadis et al. (2021)).</p>"
    )


def _numbers(report: CalibrationReport) -> str:
    result = report.calibration
    fit_ = result.recalibration
    rows: list[tuple[str, str, float, str | None]] = [
        ("mean_score", "mean score", result.mean_score, None),
        ("observed_rate", "observed rate", result.observed_rate, None),
        ("slope", "calibration slope", fit_.slope, fit_.reason),
        ("intercept", "calibration intercept", fit_.intercept, fit_.reason),
        ("in_the_large", "calibration-in-the-large", fit_.in_the_large, fit_.reason),
    ]
    for strategy, binned in result.binned.items():
        how = "equal-width" if strategy == "uniform" else "equal-mass"
        rows.append(("ece", f"ECE, {result.bins} {how} bins", binned.expected_error, None))
    body = "".join(
        f'<tr data-number="{key}{"-" + title.split()[2] if key == "ece" else ""}">'
        f"<th>{escaped(title)}</th>{value_cell(value, reason)}"
        f'<td class="text">{escaped(CALIBRATION_NUMBERS[key][1])}</td>{note_cell(reason)}</tr>'
        for key, title, value, reason in rows
    )
    note = f'<p class="note">{escaped(fit_.note)}</p>' if fit_.note else ""
    return (
        '<div class="scroll"><table id="calibration-numbers"><thead><tr><th>number</th>'
        '<th class="num">value</th><th>what it is</th><th>note</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>{note}"
        '<p class="small">Slope and intercept: logistic recalibration, logit P(+) = a + b '
        "logit(score), fitted by maximum likelihood on the tie groups (Cox (1958)). The binned "
        "ECE moves with the number of bins and where their edges fall; it is shown for "
        "comparison with other tools, the CORP curve needs no bins.</p>"
    )


def _intervals(report: CalibrationReport) -> str:
    """The intervals of the calibration numbers (with --ci) and the test of calibration;
    nothing without them."""
    bands = report.intervals
    if bands is None:
        return ""
    rows = []
    caveats: dict[str, list[str]] = {}  # why an end is infinite or how many replicates
    # were undefined, once, with its numbers
    for name, title in INTERVAL_TITLES.items():
        found = bands.intervals[name]
        if math.isnan(found.low) or math.isnan(found.high):
            bounds = note_cell(found.reason or "no interval")
        else:
            why = f' title="{escaped(found.reason)}"' if found.reason else ""
            bounds = f'<td class="num"{why}>[{number(found.low)}, {number(found.high)}]</td>'
            if found.reason:
                caveats.setdefault(found.reason, []).append(title)
            if found.undefined_replicates:
                caveats.setdefault(undefined_note(found), []).append(title)
        rows.append(
            f'<tr data-interval="{name}"><th>{escaped(title)}</th>'
            f"{value_cell(found.estimate, found.reason)}{bounds}</tr>"
        )
    notes = "".join(
        f'<p class="small">{escaped(", ".join(titles))}: {escaped(why)}.</p>'
        for why, titles in caveats.items()
    )
    level = f"{100 * bands.level:g} %"
    return (
        f"<h3>Intervals ({level})</h3>"
        '<div class="scroll"><table id="calibration-intervals"><thead><tr><th>number</th>'
        f'<th class="num">value</th><th class="num">{level} interval</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>{notes}"
        f'<p class="small">Percentile intervals, {bands.replicates:,} replicates resampling '
        "the tie groups (a case bootstrap of the rows). Test of calibration: p = "
        f'<span id="calibration-p">{bands.p_value:.3g}</span>, the share of as many outcome '
        "sets drawn from the scores themselves whose Brier MCB reaches the observed "
        "(Dimitriadis et al. (2021)).</p>"
    )


def _decision_table(report: CalibrationReport) -> str:
    curve = report.decision
    rows = []
    for i, p in enumerate(curve.thresholds.tolist()):
        shown = f"{p:.4g}" + (" (prevalence)" if p == curve.prevalence else "")
        rows.append(
            f'<tr data-threshold="{p!r}"><th class="num">{escaped(shown)}</th>'
            + value_cell(float(curve.net_benefit[i]))
            + value_cell(float(curve.treat_all[i]))
            + value_cell(float(curve.standardized[i]))
            + value_cell(float(curve.interventions_avoided[i]), "0/0 at p_t = 0", 1)
            + "</tr>"
        )
    if curve.beats_defaults:
        stretches = " and ".join(f"({low:.4g}, {high:.4g})" for low, high in curve.beats_defaults)
        verdict = (
            "The model beats treating all and treating none for p_t in "
            f"{escaped(stretches)} (exact, from every distinct score)."
        )
    else:
        verdict = "The model beats treating all and treating none at no threshold probability."
    return (
        '<div class="scroll"><table id="decision-table"><thead><tr><th class="num">p_t</th>'
        '<th class="num">net benefit</th><th class="num">treat all</th>'
        '<th class="num">standardized</th><th class="num">avoided /100</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f'<p id="decision-beats">{verdict}</p>'
        '<p class="small">net benefit = TP/n − FP/n · p_t/(1 − p_t) (Vickers &amp; Elkin '
        "(2006)); standardized = net benefit / prevalence (Kerr et al. (2016)), at p_t = "
        "prevalence the informedness of the threshold; avoided /100 = (net benefit − treat "
        "all) / (p_t/(1 − p_t)) × 100.</p>"
    )


def calibration_section(
    report: CalibrationReport, ranking: Ranking, positive: Any, first: float
) -> CalibrationSection:
    """The calibration section of `ranking` (its scores probabilities of `positive`), with
    the decision curve's marker at p_t = `first`, the live operating point's threshold."""
    banded = ranking.n_groups <= BAND_GROUPS
    named = "the positive class" if positive is None else f"<strong>{escaped(positive)}</strong>"
    curve = report.decision
    point = decision_curve(ranking, [first]) if 0.0 <= first < 1.0 else None
    at = decision_text(
        first,
        math.nan if point is None else float(point.net_benefit[0]),
        math.nan if point is None else float(point.treat_all[0]),
    )
    value = "nan" if point is None else repr(float(point.net_benefit[0]))
    plot, mapping = _decision(ranking, banded, first)
    bands = (
        f"Bands: {REPLICATES} replicates resampling the tie groups (a fixed random state: "
        "the same page every time)."
        if banded
        else f"No bands: {ranking.n_groups:,} distinct scores, more than the {BAND_GROUPS:,} "
        "the page resamples (informed.inference.calibration_bands and decision_curve_bands "
        "compute them)."
    )
    figures = [
        figure_element(
            "reliability",
            _reliability(ranking, banded),
            "The CORP reliability diagram: the isotonic (PAV) recalibration of the scores "
            "over the tie groups, no bins to choose. <b>Good:</b> the curve follows the "
            "diagonal. <b>Chance:</b> scores that say nothing of the outcome give a flat "
            "curve at the prevalence. Where it leaves the grey consistency band (where "
            "it would stay were the scores calibrated, 90 %) the data disagree with "
            f"calibration; the blue band is its 90 % confidence band. {escaped(bands)} The "
            "bars are the histogram of the scores. Source: Dimitriadis et al. (2021).",
        ),
        figure_element(
            "decision",
            plot,
            "Net benefit of acting on the rows scored at least p_t, against treating all "
            "(dashed) and treating none (0), at every distinct score "
            f"{'with its 95 % band' if banded else 'or a grid of them'}. <b>Good:</b> the "
            "model's curve above both defaults over the p_t that matter to the decision. "
            "<b>Chance:</b> acting on a random share q of the rows is worth q times treating "
            "all, between the two defaults, never above both. The circle is at p_t = the "
            "threshold of the live operating point (ranking section), and follows it when it "
            "moves. Sources: "
            "Vickers &amp; Elkin (2006); Kerr et al. (2016)."
            f'<br><span id="decision-at" data-value="{value}">{escaped(at)}</span>',
        ),
    ]
    html = (
        f"<p>The scores read as probabilities of {named} (n = {curve.n:,g}, prevalence "
        f"{number(curve.prevalence)}): are they calibrated, and for which threshold "
        "probability is acting on them worth it?</p>"
        f'<div class="figures">{"".join(figures)}</div>'
        f"<h3>Brier and log score, decomposed</h3>{_decomposition(report)}"
        f"<h3>Calibration numbers</h3>{_numbers(report)}"
        f"{_intervals(report)}"
        f"<h3>Net benefit at the report's thresholds</h3>{_decision_table(report)}"
    )
    return CalibrationSection(html, mapping)
