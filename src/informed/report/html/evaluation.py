"""The evaluation's sections of the HTML report: headline, contingency, measures, per label.

Each number is read from the `Evaluation`, its `Payoff` and its `Bootstrap` intervals
(all computed before); every heading, formula,
range, chance value and source of a contingency measure comes from the registry
`informed.measures.MEASURES`, so a new measure appears here without touching this module.
Many labels are capped: tables list the most frequent, the heat map fewer still.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from informed._common import printable
from informed.coding.labels import Label, keyed
from informed.inference.design import design_note
from informed.inference.interval import undefined_notes
from informed.inference.table_bootstrap import Bootstrap
from informed.measures import MEASURES
from informed.plots.contingency import MAX_HEATMAP_LABELS, PAYOFF_IN_CELLS
from informed.plots.labels import MAX_SCATTER_LABELS
from informed.report.contents import HEADLINE, PER_LABEL, table_block, top_labels
from informed.report.document import bootstrap_document
from informed.report.html.figures import contingency_svg, labels_svg
from informed.report.html.markup import (
    bound,
    count,
    escaped,
    figure_element,
    label_css,
    note_cell,
    number,
    percent,
    sentence,
    value_cell,
    value_range,
)
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff

__all__ = [
    "EVALUATION_SOURCES",
    "MAX_HEATMAP_LABELS",
    "MAX_SCATTER_LABELS",
    "evaluation_sections",
]

VERTICAL_AFTER, VERTICAL_LENGTH = 3, 6
"""Column labels are written upwards past this many columns, if one is longer than this."""

EVALUATION_SOURCES = ("Powers (2003)", *(m.source for m in MEASURES.values()))
"""The works the evaluation's sections cite, listed in full in the page's references."""


def _shown_labels(evaluation: Evaluation, limit: int) -> tuple[Label, ...]:
    """At most `limit` labels, the most frequent first picked (by the larger of how often
    a label is predicted and how often it occurs), kept in the table's order."""
    labels = evaluation.table.labels
    return tuple(labels[i] for i in top_labels(evaluation.table, limit))


def _left_out(shown: int, total: int, what: str) -> str:
    if shown >= total:
        return ""
    return (
        f'<p class="note">Showing {shown} of {total} {what}, the most frequent (by the larger '
        f"of prevalence and bias); {total - shown} are left out here and are all in the JSON "
        "output (<code>--format json</code>).</p>"
    )


def evaluation_sections(
    evaluation: Evaluation,
    pay: Payoff,
    intervals: Bootstrap | None,
    max_labels: int,
) -> list[tuple[str, str, str]]:
    """The sections of an evaluation, as (id, heading, HTML), in the order of the page.

    `pay` is the table's payoff and `intervals` a bootstrap of the same table (or None).
    Tables show at most `max_labels` labels, the heat map at most `MAX_HEATMAP_LABELS`.
    """
    shown = _shown_labels(evaluation, max_labels)
    note = (
        f'<p class="note interval-design">{escaped(design_note(bootstrap_document(intervals)))}</p>'
        if intervals is not None
        else ""
    )
    note += _undefined_replicates(intervals, HEADLINE)
    return [
        ("headline", "Headline", _headline(evaluation, intervals) + note),
        (
            "contingency",
            "Contingency table and payoff",
            _contingency(evaluation, pay, shown, max_labels),
        ),
        ("measures", "All measures", _measures(evaluation, intervals)),
        ("per-label", "Per label (one-vs-rest)", _per_label(evaluation, shown)),
    ]


def _undefined_replicates(intervals: Bootstrap | None, names: Sequence[str]) -> str:
    """How many replicates were undefined and left out of the measures' intervals, one
    paragraph per count with the measures it holds for (as the calibration report says
    it); "" where none was."""
    if intervals is None:
        return ""
    titles = {name: MEASURES[name].title for name in names}
    return "".join(
        f'<p class="small undefined-replicates">{escaped(note)}.</p>'
        for note in undefined_notes(intervals.intervals, titles)
    )


def _interval(intervals: Bootstrap | None, name: str) -> tuple[float, float] | None:
    if intervals is None or name not in intervals.intervals:
        return None
    found = intervals.intervals[name]
    if math.isnan(found.low) or math.isnan(found.high):
        return None
    return found.low, found.high


def _headline(evaluation: Evaluation, intervals: Bootstrap | None) -> str:
    cards = []
    for name in HEADLINE:
        measure = MEASURES[name]
        value = evaluation.measures[name]
        bounds = _interval(intervals, name)
        if math.isnan(value):
            shown = (
                '<div class="value undefined">undefined</div>'
                f'<p class="small">{escaped(evaluation.reasons.get(name, "undefined"))}</p>'
            )
        else:
            shown = f'<div class="value" data-value="{value!r}">{number(value)}</div>'
        interval = ""
        meter = ""
        if bounds is not None and intervals is not None:
            interval = (
                f'<p class="small interval">{100 * intervals.level:g} % interval '
                f"[{number(bounds[0])}, {number(bounds[1])}]</p>"
            )
        if math.isfinite(measure.low) and math.isfinite(measure.high):
            parts = []
            if measure.chance is not None:
                at = percent(measure.chance, measure.low, measure.high)
                parts.append(f'<span class="chance" style="left:{at:.2f}%"></span>')
            if bounds is not None:
                start = percent(bounds[0], measure.low, measure.high)
                end = percent(bounds[1], measure.low, measure.high)
                parts.append(
                    f'<span class="interval" style="left:{start:.2f}%;width:{end - start:.2f}%">'
                    "</span>"
                )
            if not math.isnan(value):
                at = percent(value, measure.low, measure.high)
                parts.append(f'<span class="dot" style="left:{at:.2f}%"></span>')
            meter = f'<div class="meter" aria-hidden="true">{"".join(parts)}</div>'
        chance = "" if measure.chance is None else f"; chance {bound(measure.chance)}"
        cards.append(
            f'<div class="card" data-measure="{name}"><h3>{escaped(measure.title)}</h3>{shown}'
            f"{interval}{meter}"
            f'<p class="small">range {value_range(measure.low, measure.high)}{chance}</p>'
            f'<p class="small formula">{escaped(measure.formula)}</p></div>'
        )
    scope = (
        f"for the positive label <strong>{escaped(evaluation.positive)}</strong> (one-vs-rest)"
        if evaluation.positive is not None
        else "over all labels, as each measure's registry entry combines them"
    )
    return f'<p>Beyond chance, {scope}.</p><div class="cards">{"".join(cards)}</div>'


def _column_heads(labels: Sequence[Label]) -> str:
    """The <th> of each column's label: written upwards when the table has more than
    `VERTICAL_AFTER` columns and a label longer than `VERTICAL_LENGTH` characters, so
    that a column is as narrow as its numbers and no label is broken inside a word."""
    vertical = len(labels) > VERTICAL_AFTER and any(
        len(printable(x)) > VERTICAL_LENGTH for x in labels
    )
    css = "num label vertical" if vertical else "num label"
    return "".join(f'<th class="{css}" scope="col">{escaped(x)}</th>' for x in labels)


def _contingency(evaluation: Evaluation, pay: Payoff, shown: Sequence[Label], limit: int) -> str:
    table = evaluation.table
    keep = {keyed(x) for x in shown}
    rows = [i for i, x in enumerate(table.predicted) if keyed(x) in keep]
    cols = [j for j, x in enumerate(table.actual) if keyed(x) in keep]
    counts, row_totals, col_totals = table_block(table, rows, cols)
    head = _column_heads([table.actual[j] for j in cols])
    body = []
    for k, i in enumerate(rows):
        cells = []
        for m, j in enumerate(cols):
            css = "num diagonal" if keyed(table.predicted[i]) == keyed(table.actual[j]) else "num"
            cells.append(f'<td class="{css}">{count(counts[k][m])}</td>')
        body.append(
            f'<tr><th class="{label_css(table.predicted[i])}">{escaped(table.predicted[i])}</th>'
            f"{''.join(cells)}"
            f'<td class="num total">{count(row_totals[k])}</td></tr>'
        )
    totals = "".join(f'<td class="num">{count(col_totals[m])}</td>' for m in range(len(cols)))
    body.append(
        f'<tr class="total"><th>total</th>{totals}<td class="num">{count(table.n)}</td></tr>'
    )
    left_out = len(table.predicted) - len(rows) + len(table.actual) - len(cols)
    note = _left_out(len(shown), len(evaluation.per_label), "labels")
    if left_out:
        note += '<p class="small">Totals include the rows and columns left out.</p>'
    contingency = (
        "<h3>Counts (rows predicted, columns actual)</h3>"
        f'{note}<div class="scroll"><table id="contingency-table"><thead><tr>'
        f'<th>predicted \\ actual</th>{head}<th class="num total">total</th></tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
    heat = _shown_labels(evaluation, min(limit, MAX_HEATMAP_LABELS))
    heat_keys = {keyed(x) for x in heat}
    heat_rows = [x for x in table.predicted if keyed(x) in heat_keys]
    heat_cols = [x for x in table.actual if keyed(x) in heat_keys]
    hidden = len(evaluation.per_label) - len(heat)
    heat_note = (
        f" The plot shows the {len(heat)} most frequent of {len(evaluation.per_label)} labels; "
        f"{hidden} are left out of it."
        if hidden
        else ""
    )
    if max(len(heat_rows), len(heat_cols)) > PAYOFF_IN_CELLS:
        heat_note += (
            f" With more than {PAYOFF_IN_CELLS} labels the cells show their counts only; "
            "the payoffs are in the table below."
        )
    informedness = MEASURES["informedness"]
    caption = (
        "The contingency table as a heat map, shaded by count, each cell also giving its "
        "fair-odds payoff per unit stake: a bet on predicted label l pays 1/pR(l) per case "
        "whose class is l and costs 1/(1 − pR(l)) per other case, so each row adds up to "
        "the label's informedness. <b>Good:</b> the counts pile up on the diagonal and each "
        "row wins up to 1. <b>Chance:</b> every row's counts follow the column margins, and "
        "the wins and losses of each row cancel to 0. Sources: Powers (2003), Figure 1; "
        f"{sentence(informedness.source)}{heat_note}"
    )
    figure = figure_element(
        "heatmap",
        contingency_svg(table, pay, heat_rows, heat_cols, name="plot-heatmap"),
        caption,
        wide=True,
    )
    return contingency + f'<div class="figures">{figure}</div>' + _payoff_table(pay, shown)


def _payoff_table(pay: Payoff, shown: Sequence[Label]) -> str:
    keep = {keyed(x) for x in shown}
    index = [i for i, x in enumerate(pay.labels) if keyed(x) in keep]
    block = pay.block(index, index)
    head = _column_heads([pay.labels[j] for j in index])
    body = []
    for k, i in enumerate(index):
        cells = "".join(value_cell(float(v)) for v in block[k])
        reason = "no fair odds: the label is never (or always) the real class"
        body.append(
            f'<tr data-label="{escaped(pay.labels[i])}">'
            f'<th class="{label_css(pay.labels[i])}">{escaped(pay.labels[i])}'
            f"</th>{cells}{value_cell(float(pay.won[i]), reason)}"
            f"{value_cell(float(pay.weighted[i]), reason)}</tr>"
        )
    odds = "".join(value_cell(float(pay.odds[j]), "the label never occurs") for j in index)
    body.append(f'<tr class="total"><th>fair odds against</th>{odds}<td></td><td></td></tr>')
    total = pay.informedness
    informedness = MEASURES["informedness"]
    return (
        "<h3>Fair-odds payoff per unit stake (rows predicted)</h3>"
        '<p class="small">Won = the row sum, the informedness B(l) of the predicted label; '
        "weighted = pP(l) × B(l). The weighted wins add up to the "
        f"{escaped(informedness.title.lower())} of the table: "
        f'<strong id="payoff-total">{number(total)}</strong>.</p>'
        f'<div class="scroll"><table id="payoff-table"><thead><tr><th>predicted \\ actual</th>'
        f'{head}<th class="num">won</th><th class="num">weighted</th></tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _measures(evaluation: Evaluation, intervals: Bootstrap | None) -> str:
    with_ci = intervals is not None
    ci_head = (
        f'<th class="num">{100 * intervals.level:g} % interval</th>'
        if intervals is not None
        else ""
    )
    rows = []
    for name, measure in MEASURES.items():
        value = evaluation.measures[name]
        reason = evaluation.reasons.get(name)
        ci = ""
        if with_ci:
            bounds = _interval(intervals, name)
            shown = "—" if bounds is None else f"[{number(bounds[0])}, {number(bounds[1])}]"
            ci = f'<td class="num">{shown}</td>'
        other_names = [a for a in measure.aliases if a.lower() != measure.title.lower()]
        aliases = (
            f'<br><span class="alias">{escaped(", ".join(other_names))}</span>'
            if other_names
            else ""
        )
        chance = "—" if measure.chance is None else bound(measure.chance)
        rows.append(
            f'<tr data-measure="{name}"><th>{escaped(measure.title)}{aliases}</th>'
            f"{value_cell(value, reason)}{ci}"
            f'<td class="num">{value_range(measure.low, measure.high)}</td>'
            f'<td class="num">{chance}</td>'
            f'<td class="text"><span class="formula">{escaped(measure.formula)}'
            f'</span><br><span class="alias">{escaped(measure.source)}</span></td>'
            f"{note_cell(reason)}</tr>"
        )
    scope = (
        f"one-vs-rest for the positive label {escaped(evaluation.positive)}"
        if evaluation.positive is not None
        else "combined over labels as each registry entry says (micro, macro, bias- or "
        "prevalence-weighted)"
    )
    return (
        f'<p class="small">Every measure of the registry, {scope}.</p>'
        '<div class="scroll"><table id="measures-table"><thead><tr><th>measure</th>'
        f'<th class="num">value</th>{ci_head}<th class="num">range</th>'
        '<th class="num">chance</th><th>formula and source</th><th>note</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f"{_undefined_replicates(intervals, list(MEASURES))}"
    )


def _bias_diagnosis(values: Mapping[str, float]) -> str:
    ratio = values["bias_ratio"]
    if math.isnan(ratio):
        return "never predicted, never occurs"
    if math.isinf(ratio):
        return "predicted, never occurs"
    if ratio > 1:
        return f"over-predicted ×{ratio:.2f}"
    if ratio < 1:
        return "never predicted" if ratio == 0 else f"under-predicted ×{ratio:.2f}"
    return "predicted as often as it occurs"


def _per_label(evaluation: Evaluation, shown: Sequence[Label]) -> str:
    head = "".join(f'<th class="num">{escaped(MEASURES[n].title)}</th>' for n in PER_LABEL)
    rows = []
    notes = []
    for label in shown:
        values = evaluation.per_label[label]
        reasons = evaluation.per_label_reasons.get(label, {})
        cells = "".join(value_cell(values[n], reasons.get(n)) for n in PER_LABEL)
        rows.append(
            f'<tr data-label="{escaped(label)}">'
            f'<th class="{label_css(label)}">{escaped(label)}</th>{cells}'
            f'<td class="small nowrap">{_bias_diagnosis(values)}</td></tr>'
        )
        undefined = [n for n in PER_LABEL if n in reasons]
        if undefined:
            why = "; ".join(
                f"{escaped(MEASURES[n].title)}: {escaped(reasons[n])}" for n in undefined
            )
            notes.append(f"<li><strong>{escaped(label)}</strong>: {why}</li>")
    why_undefined = (
        f"<details open><summary>Why some values are undefined</summary><ul>{''.join(notes)}"
        "</ul></details>"
        if notes
        else ""
    )
    informedness, markedness = MEASURES["informedness"], MEASURES["markedness"]
    caption = (
        f"Each label's {informedness.title.lower()} B ({escaped(informedness.formula)}: how "
        f"consistently the label is predicted when it is the real class) against its "
        f"{markedness.title.lower()} M ({escaped(markedness.formula)}: how much a prediction of "
        "the label tells about the real class). <b>Good:</b> near (1, 1). <b>Chance:</b> at "
        f"({bound(informedness.chance or 0.0)}, {bound(markedness.chance or 0.0)}), where "
        "the grey lines cross. As B·pR(1 − pR) = M·pP(1 − pP), a label off the B = M diagonal "
        "is predicted at a rate (bias pP) other than its prevalence pR: a rare label above the "
        "diagonal is under-predicted, below it over-predicted. The star is the overall value. "
        "The point of a label in the table above is named where the name fits without "
        "covering another. "
        f"Sources: {escaped(informedness.source)}; {sentence(markedness.source)}"
    )
    drawn = None
    count = len(evaluation.table.labels)
    if count > MAX_SCATTER_LABELS:
        drawn = top_labels(evaluation.table, MAX_SCATTER_LABELS)
        caption += f" The plot draws the {MAX_SCATTER_LABELS:,} most frequent of {count:,} labels."
    figure = figure_element(
        "labels", labels_svg(evaluation, shown, drawn=drawn, name="plot-labels"), caption
    )
    return (
        _left_out(len(shown), len(evaluation.per_label), "labels")
        + '<div class="scroll"><table id="per-label-table"><thead><tr><th>label</th>'
        f"{head}<th>bias diagnosis</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        + why_undefined
        + f'<div class="figures">{figure}</div>'
    )
