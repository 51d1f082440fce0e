"""The comparison section of the HTML report: leaderboard, operating points, the paired
differences with their forest plot, the models' ROC curves on one plane, the tests, and
for probabilities the difference in net benefit from the best model.

Presentation only: every number is read from the `Comparison`
(`informed.compare`); headings of measures from the registry (or the ranking
measures' titles); every model name, label and reason is HTML-escaped.
"""

from __future__ import annotations

import math

import numpy as np

from informed._markup import escaped, figure_element, label_css, number, value_cell
from informed.comparison.plots import (
    MODELS_ROC_FRAME,
    differences_frame,
    differences_title,
    draw_differences,
    draw_models_roc,
    draw_net_benefit_difference,
    model_colour,
    models_roc_reason,
)
from informed.comparison.result import TEST_NAMES, Comparison, measure_title
from informed.plots.calibration import CALIBRATION_FRAME
from informed.plots.svg import drawn_svg, message_svg
from informed.ranking.decision import REPORT_THRESHOLDS

__all__ = [
    "COMPARISON_SOURCES",
    "comparison_section",
    "differences_svg",
    "models_roc_svg",
    "net_benefit_svg",
]

COMPARISON_SOURCES = (
    "Efron & Tibshirani (1993)",
    "McNemar (1947)",
    "DeLong et al. (1988)",
    "Holm (1979)",
    "Vickers & Elkin (2006)",
)
"""The works the comparison section cites, listed in full at the end of the page."""


def _swatch(rank: int) -> str:
    return (
        f'<span aria-hidden="true" style="display:inline-block;width:0.8em;height:0.8em;'
        f'border-radius:2px;margin-right:6px;background:{model_colour(rank)}"></span>'
    )


def _leaderboard(comparison: Comparison) -> str:
    head = "".join(f'<th class="num">{escaped(measure_title(m))}</th>' for m in comparison.measures)
    rows = []
    for name, model in comparison.models.items():
        cells = "".join(
            value_cell(model.measures.get(m), model.reasons.get(m)) for m in comparison.measures
        )
        rows.append(
            f'<tr data-model="{escaped(name)}"><td class="num">{model.rank}</td>'
            f'<th class="{label_css(name)}" scope="row"><span class="swatched">'
            f"{_swatch(model.rank)}{escaped(name)}</span></th>"
            f"{cells}</tr>"
        )
    return (
        '<div class="scroll"><table id="compare-models"><thead><tr><th class="num">rank</th>'
        f"<th>model</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _thresholds(comparison: Comparison) -> str:
    rows = []
    for name, model in comparison.models.items():
        point = model.threshold
        if point is None:
            continue
        tp, fp, fn, tn = point.cells
        how = f"best {measure_title(point.measure)}" if point.chosen_by == "best" else "given"
        cells = "".join(f'<td class="num">{c:,g}</td>' for c in (tp, fp, fn, tn))
        rows.append(
            f'<tr data-model="{escaped(name)}">'
            f'<th class="{label_css(name)}" scope="row">{escaped(name)}</th>'
            f'<td class="num">{point.threshold:.6g}</td><td>{escaped(how)}</td>{cells}</tr>'
        )
    if not rows:
        return ""
    return (
        '<h3>Where the scores were cut</h3><p class="small">A score at least the threshold '
        'predicts the positive class.</p><div class="scroll"><table id="compare-thresholds">'
        '<thead><tr><th>model</th><th class="num">threshold</th><th>chosen</th>'
        '<th class="num">tp</th><th class="num">fp</th><th class="num">fn</th>'
        '<th class="num">tn</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _differences(comparison: Comparison) -> str:
    rows = []
    for name, by_measure in comparison.differences.items():
        for measure, interval in by_measure.items():
            if math.isnan(interval.estimate) or math.isnan(interval.low):
                verdict = ""
            elif interval.low > 0 or interval.high < 0:
                verdict = "excludes 0"
            else:
                verdict = "includes 0"
            rows.append(
                f'<tr data-model="{escaped(name)}" data-measure="{escaped(measure)}">'
                f'<th class="{label_css(name)}" scope="row">{escaped(name)}</th>'
                f"<td>{escaped(measure_title(measure))}</td>"
                f"{value_cell(interval.estimate, interval.reason)}"
                f"{value_cell(interval.low, interval.reason)}"
                f"{value_cell(interval.high, interval.reason)}"
                f'<td class="small">{escaped(verdict or (interval.reason or ""))}</td></tr>'
            )
    return (
        '<div class="scroll"><table id="compare-differences"><thead><tr><th>model</th>'
        '<th>measure</th><th class="num">difference</th><th class="num">low</th>'
        f'<th class="num">high</th><th></th></tr></thead><tbody>{"".join(rows)}</tbody>'
        "</table></div>"
    )


def _tests(comparison: Comparison) -> str:
    keys = [k for k in TEST_NAMES if any(k in t for t in comparison.tests.values())]
    if not keys:
        return ""
    head = "".join(f'<th class="num">{escaped(TEST_NAMES[k])}</th>' for k in keys)
    rows = []
    for name, by_test in comparison.tests.items():
        cells = []
        for key in keys:
            test = by_test.get(key)
            if test is None:
                cells.append("<td></td>")
                continue
            adjusted = comparison.adjusted[name][key]
            title = f"raw p = {number(test.pvalue, 6)}"
            if test.reason:
                title += f"; {test.reason}"
            shown = number(adjusted, 4) if adjusted >= 1e-4 else f"{adjusted:.2g}"
            if math.isnan(adjusted):
                shown = "undefined"
            cells.append(f'<td class="num" data-test="{key}" title="{escaped(title)}">{shown}</td>')
        rows.append(
            f'<tr data-model="{escaped(name)}">'
            f'<th class="{label_css(name)}" scope="row">{escaped(name)}</th>'
            f"{''.join(cells)}</tr>"
        )
    how = (
        "Holm-adjusted over the models compared"
        if comparison.correction == "holm" and len(comparison.tests) > 1
        else "not adjusted"
    )
    return (
        f"<h3>Paired tests against {escaped(comparison.reference)}</h3>"
        f'<p class="small">p-values, {how}; the raw value is in each cell\'s title.</p>'
        f'<div class="scroll"><table id="compare-tests"><thead><tr><th>model</th>{head}</tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def models_roc_svg(comparison: Comparison, name: str = "plot-compare-roc") -> str:
    """The models' ROC curves as <svg id=name>, or why none can be drawn."""
    title = "ROC curves of the models"
    reason = models_roc_reason(comparison)
    if reason is not None:
        return message_svg(name, title, reason)
    return drawn_svg(
        MODELS_ROC_FRAME,
        name,
        lambda axes: draw_models_roc(axes, comparison),
        lambda drawn: f"{title}: {drawn} models",
    )


def differences_svg(comparison: Comparison, name: str = "plot-forest") -> str:
    """The forest of paired differences as <svg id=name>, or why there is none."""
    title = differences_title(comparison)
    if not comparison.differences:
        return message_svg(name, title, "a single model: nothing to compare")
    return drawn_svg(
        differences_frame(comparison),
        name,
        lambda axes: draw_differences(axes, comparison),
        lambda drawn: f"{title}: {drawn} differences with intervals",
    )


def net_benefit_svg(comparison: Comparison, name: str = "plot-net-benefit-difference") -> str:
    """Each model's difference in net benefit from the best one as <svg id=name>."""
    differences = [
        (found, model_colour(comparison.models[model].rank))
        for model, found in comparison.net_benefit.items()
    ]
    return drawn_svg(
        CALIBRATION_FRAME,
        name,
        lambda axes: draw_net_benefit_difference(axes, differences),
        lambda drawn: f"Net benefit against {comparison.reference}: {drawn} differences",
    )


def _where(pairs: tuple[tuple[float, float], ...]) -> str:
    if not pairs:
        return "at no p_t"
    return "for p_t in " + " and ".join(f"({low:.6g}, {high:.6g})" for low, high in pairs)


def _net_benefit(comparison: Comparison) -> str:
    """The net benefit section: the plot, each model's difference at the report's
    thresholds with its band, and the exact ranges where it beats the best model."""
    if not comparison.net_benefit:
        return ""
    reference = escaped(comparison.reference)
    rows, notes = [], []
    for model, found in comparison.net_benefit.items():
        low, high = found.bands["difference"]
        for i in np.flatnonzero(np.isin(found.thresholds, REPORT_THRESHOLDS)).tolist():
            rows.append(
                f'<tr data-model="{escaped(model)}">'
                f'<th class="{label_css(model)}" scope="row">{escaped(model)}</th>'
                f'<td class="num">{found.thresholds[i]:g}</td>'
                f"{value_cell(found.net_benefit[model][i], None)}"
                f"{value_cell(found.difference[i], None)}"
                f"{value_cell(low[i], None)}{value_cell(high[i], None)}</tr>"
            )
        notes.append(
            f"<li><strong>{escaped(model)}</strong> beats {reference} "
            f"{escaped(_where(found.beats))}; {reference} beats it "
            f"{escaped(_where(found.loses))} (exact, from every distinct score).</li>"
        )
    figure = figure_element(
        "net-benefit-difference",
        net_benefit_svg(comparison),
        f"Each model's net benefit less {reference}'s when acting on the cases scored at "
        "least p_t (Vickers &amp; Elkin (2006)), with its pointwise paired bootstrap band: "
        f"below 0, {reference} is worth more at that threshold probability.",
    )
    return (
        f"<h3>Net benefit against {reference}</h3>"
        '<p class="small">Net benefit = TP/n − FP/n × p_t/(1 − p_t); the scores are read '
        "as probabilities. The band resamples the cases once for both models, so their "
        "correlation stays in the difference.</p>"
        f'<ul class="small">{"".join(notes)}</ul>'
        f'<div class="figures">{figure}<div class="scroll"><table id="compare-net-benefit">'
        '<thead><tr><th>model</th><th class="num">p_t</th><th class="num">net benefit</th>'
        f'<th class="num">− {reference}</th><th class="num">low</th><th class="num">high</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div></div>"
    )


def comparison_section(comparison: Comparison) -> str:
    """The comparison's section of the page (its content; the page adds the heading)."""
    reference = escaped(comparison.reference)
    intro = (
        f'<p class="note">{len(comparison.models)} models on the same {comparison.n:,g} cases'
        f", ranked by {escaped(measure_title(comparison.sort_by))}; best: "
        f"<strong>{reference}</strong>. Differences are model − {reference}, with "
        f"{100 * comparison.level:g} % paired bootstrap intervals ({comparison.replicates:,} "
        "replicates, the cases resampled once for all models).</p>"
    )
    roc = figure_element(
        "compare-roc",
        models_roc_svg(comparison),
        "Each model's ROC curve (from its scores) and its operating point (its predicted "
        "labels, or its scores cut at the threshold).",
    )
    forest = figure_element(
        "forest",
        differences_svg(comparison),
        f"Each model's difference from {reference}: the dot is the difference, the bar its "
        "paired bootstrap interval; a bar that misses 0 is a difference beyond resampling "
        "noise.",
        # beside the ROC plot while about as tall; a long forest gets the page's width
        wide=len(comparison.measures) * (len(comparison.models) - 1) > 24,
    )
    return (
        f"{intro}{_leaderboard(comparison)}{_thresholds(comparison)}"
        f"<h3>Paired differences from {reference}</h3>{_differences(comparison)}"
        f'<div class="figures">{roc}{forest}</div>{_tests(comparison)}'
        f"{_net_benefit(comparison)}"
        '<p class="small">The bootstrap resamples cases (Efron &amp; Tibshirani (1993)); '
        "McNemar (1947) tests accuracy from the cases only one model gets right; "
        "DeLong et al. (1988) compare correlated AUCs; Holm (1979) adjusts p-values for "
        "several comparisons; Vickers &amp; Elkin (2006) define net benefit.</p>"
    )
