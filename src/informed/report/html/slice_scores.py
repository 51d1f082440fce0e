"""The slices section of the HTML report when the slices have scores and no predicted
labels: each shown slice's n, real positives and negatives, AUC with DeLong's interval
(its flag under its name), its AUC minus the rest's with the interval and Holm-adjusted
p, whether it differs from the reference, then the spread of AUC across slices.
Presentation only (`informed.report.slice_scores` holds what is shown); every slice name
and reason is HTML-escaped."""

from __future__ import annotations

import math

from informed.inference.interval import Interval
from informed.report.html.markup import count, escaped
from informed.report.html.slices import Notes, interval_cell
from informed.report.slice_disparities import AUC_NOTE, counted_interval_text, value_text
from informed.report.slice_scores import AUC_SPREAD_NOTE, ScoredSlices, scored_differs
from informed.report.slices import merged_note

__all__ = ["scored_slices_section"]


def _range(interval: Interval) -> str:
    if math.isnan(interval.estimate):
        return f"undefined ({escaped(interval.reason or 'undefined')})"
    return f"{value_text(interval.estimate)} {escaped(counted_interval_text(interval))}"


def _spread(found: ScoredSlices) -> str:
    """The spread of AUC, the slices it is over, those left out and the range over all."""
    spread = found.spread
    slices = spread.slices
    text = _range(spread.spread)
    if spread.highest is not None and spread.lowest is not None:
        text += (
            f"; highest {escaped(repr(slices.name(slices.keys[spread.highest])))}, "
            f"lowest {escaped(repr(slices.name(slices.keys[spread.lowest])))}"
        )
    if spread.left_out and slices.accumulated is None:
        if not math.isnan(spread.spread.estimate):
            text += f" over the slices {escaped(spread.rule_text)}"
        left = ", ".join(
            f"{escaped(repr(slices.name(slices.keys[s])))} ({escaped(why)})"
            for s, why in spread.left_out
        )
        text += (
            f'<br><span class="small">left out as too small: {left}; over every slice: '
            f"{_range(spread.spread_all)}</span>"
        )
    return (
        f'<ul id="slices-auc-spread"><li>spread of AUC (max − min): {text}</li></ul>'
        f'<p class="small">{escaped(AUC_SPREAD_NOTE)}</p>'
    )


def scored_slices_section(found: ScoredSlices, shown: list[int]) -> str:
    """The section's HTML: the table of the `shown` slices and the spread of AUC."""
    slices = found.slices
    differences = found.differences
    notes = Notes("slice-note")
    rows = []
    for s in shown:
        name = escaped(slices.name(slices.keys[s]))
        summary = found.rankings[s]
        flag = f"<br><span class=small>{escaped(summary.flag)}</span>" if summary.flag else ""
        cells = [
            f'<td class="num">{count(float(slices.n[s]))}</td>',
            f'<td class="num">{count(summary.n_positive)}</td>',
            f'<td class="num">{count(summary.n_negative)}</td>',
            interval_cell(summary.values["auc"], summary.auc_interval, notes),
        ]
        if differences is not None:
            d, p = differences.vs_rest[s], differences.p_rest[s]
            under = "" if math.isnan(p) else f'<br><span class="small">p {p:.3g}</span>'
            cells.append(interval_cell(d.estimate, d, notes).replace("</td>", f"{under}</td>"))
            cells.append(f'<td class="small">{scored_differs(found, s)}</td>')
        rows.append(
            f'<tr data-slice="{name}">'
            f'<th class="label" scope="row"><span style="white-space:nowrap">{name}</span>'
            f"{flag}</th>{''.join(cells)}</tr>"
        )
    more = len(slices.keys) - len(shown)
    if more:
        rows.append(
            f'<tr data-slice="more"><th class="label" scope="row">{more:,} more'
            "<br><span class=small>every slice: JSON, CSV</span></th></tr>"
        )
    versus_head = (
        '<th class="num">AUC minus the rest, p (Holm)</th><th>vs reference</th>'
        if differences is not None
        else ""
    )
    level = f"{100 * found.rankings.level:g} %"
    parts = [
        "<p>Scores without predicted labels: each slice's ranking and calibration (with "
        "predicted labels, its table, informedness and rates too).</p>",
        '<div class="scroll"><table id="slices-table"><thead><tr><th>slice</th>'
        '<th class="num">n</th><th class="num">real positives</th>'
        f'<th class="num">real negatives</th><th class="num">AUC</th>{versus_head}'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>",
        notes.listed("Why some values have no interval or no value:"),
    ]
    if differences is None:
        parts.append(
            f'<p class="small">Under each AUC its {level} interval (DeLong et al. 1988, on '
            f"the logit scale). {escaped(merged_note(found.merged or 'merged'))}</p>"
        )
    else:
        reference = "" if found.reference is None else slices.name(slices.keys[found.reference])
        parts.append(
            f'<p class="small">Under each value its {level} interval (or a note saying why '
            "it has none); AUC intervals: DeLong et al. (1988), on the logit scale. "
            'vs reference: "differs" where the slice\'s AUC minus that of '
            f"{escaped(repr(reference))} (the reference) has an interval that excludes 0. "
            f"{escaped(AUC_NOTE.replace('d AUC', 'AUC minus the rest'))}</p>"
        )
    parts.append(_spread(found))
    return "".join(parts)
