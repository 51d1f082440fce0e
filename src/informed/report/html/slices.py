"""The slices section of the HTML report: the forest plot of per-slice informedness
against the overall value (and, over time, each group's line with its interval band,
the windows that differ from the reference marked), the table of slices (with scores,
each slice's AUC and its interval; beyond the slices shown, the rest pooled into one
row), each slice's difference from the rest (with scores, its AUC's too: DeLong
variances of independent samples) and the ranges across slices, each over the slices of
adequate size with those left out named. Presentation only; every slice name and reason
is HTML-escaped."""

from __future__ import annotations

import math

from informed.inference.disparities import Disparities
from informed.inference.interval import Interval, undefined_where
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.inference.slice_rankings import SliceRankings
from informed.report.html.figures import slices_svg, slices_time_svg
from informed.report.html.markup import count, escaped, number
from informed.report.slice_disparities import (
    AUC_NOTE,
    LEFT_OUT,
    SUMMARY_TITLES,
    counted_interval_text,
    fairlearn_name,
    fixed,
    left_out_text,
)
from informed.report.slices import (
    differs,
    merged_note,
    pooled_table,
    rankings_of,
    shown_slices,
)
from informed.table.evaluation import evaluate

__all__ = ["SLICES_SOURCES", "Notes", "interval_cell", "slices_section"]

SLICES_SOURCES = (
    "Powers (2003)",
    "Powers (2011)",
    "Holm (1979)",
    "Hardt et al. (2016)",
    "DeLong et al. (1988)",
)
"""The works the slices section cites."""


class Notes:
    """The reasons a table's cells give, each once, numbered: a cell shows its note's
    number under the value, the reasons are listed under the table (a reason written in
    a number's cell wrapped it into a tall, narrow column)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.reasons: dict[str, int] = {}

    def mark(self, reason: str) -> str:
        """The reference to `reason`'s note, numbered on first use."""
        number_ = self.reasons.setdefault(reason, len(self.reasons) + 1)
        return f'<a href="#{self.prefix}-{number_}">note {number_}</a>'

    def listed(self, heading: str) -> str:
        """The numbered reasons, or nothing when no cell gave one."""
        if not self.reasons:
            return ""
        items = "".join(
            f'<li id="{self.prefix}-{k}">{escaped(reason)}</li>'
            for reason, k in self.reasons.items()
        )
        return f'<p class="small">{escaped(heading)}</p><ol class="small notes">{items}</ol>'


def interval_cell(value: float, interval: Interval, notes: Notes) -> str:
    """A cell: the value, its interval under it (or the note that says why there is none)."""
    if math.isnan(interval.low):
        why = "no interval" if math.isfinite(value) else "why"
        under = f'<span class="small">{why}: {notes.mark(interval.reason or "no interval")}</span>'
    else:
        under = f'<span class="small">[{fixed(interval.low)}, {fixed(interval.high)}]</span>'
    return f'<td class="num" style="white-space:nowrap">{number(value)}<br>{under}</td>'


def _range(interval: Interval) -> str:
    """A range's value and interval (with how many replicates were undefined, where
    any was), or why it has none."""
    if math.isnan(interval.estimate):
        return f"undefined ({escaped(interval.reason or 'undefined')})"
    return f"{number(interval.estimate)} {escaped(counted_interval_text(interval))}"


def _summary_item(disparities: Disparities, key: str, title: str) -> str:
    """A range across slices, over those of adequate size; the slices left out and the
    range over every slice where some were."""
    item = f"<li>{escaped(title)}: {_range(disparities.summary[key])}"
    fairlearn = escaped(fairlearn_name(disparities, key))
    if not disparities.left_out[key]:
        item += fairlearn
    else:
        if not math.isnan(disparities.summary[key].estimate):
            item += f" over the slices {escaped(disparities.rules[key])}"
        item += (
            f'<br><span class="small">{LEFT_OUT[key]}: '
            f"{escaped(left_out_text(disparities, key))}; over every slice: "
            f"{_range(disparities.summary_all[key])}{fairlearn}</span>"
        )
    return item + "</li>"


def _undefined_paragraph(
    result: SliceBootstrap, disparities: Disparities | None, shown: list[int]
) -> str:
    """Under the table, where replicates were undefined and left out of a shown slice's
    interval, how many (`undefined_where`: the first slice, how many more), as the
    terminal says it; "" where none was."""
    slices = result.evaluation.slices
    names = [slices.name(slices.keys[s]) for s in shown]
    found = {title: result.intervals[m] for title, m in (("Informedness", "informedness"),
                                                         ("Markedness", "markedness"))}  # fmt: skip
    if disparities is not None:
        found["Informedness minus the rest"] = disparities.vs_rest["informedness"]
    notes = [
        undefined_where(zip(names, [intervals[s] for s in shown], strict=True), title, "slice")
        for title, intervals in found.items()
    ]
    text = " ".join(f"{escaped(note)}." for note in notes if note)
    return f'<p class="small" id="slices-undefined">{text}</p>' if text else ""


def _flag(flag: str, extra: str | None) -> str:
    """The flags under a slice's name: its informedness's, and its AUC's if it differs."""
    shown = [f for f in (flag, extra) if f and (f is flag or f.split(": ", 1)[-1] not in flag)]
    return "".join(f"<br><span class=small>{escaped(f)}</span>" for f in shown)


def slices_section(
    result: SliceBootstrap,
    disparities: Disparities | None,
    overall: float,
    order: str = "informedness",
    rankings: SliceRankings | None = None,
    merged: str | None = None,
) -> str:
    """The section's HTML: plots, table of the shown slices (the rest pooled), disparities
    (none for windows `merged`, which overlap: a note says why)."""
    rankings = rankings_of(result, rankings)
    evaluation = result.evaluation
    slices = evaluation.slices
    shown = shown_slices(result, order=order)
    parts = []
    figure = slices_svg(result, shown, overall)
    parts.append(
        f'<figure id="figure-slices" class="wide">{figure}<figcaption>Each slice\'s '
        "informedness with its bootstrap interval (each slice resampled from its own cells); "
        "the dashed line is the value of all rows.</figcaption></figure>"
    )
    if order == "key":
        line, caption = slices_time_svg(result, disparities, overall)
        parts.append(
            f'<figure id="figure-slices-time" class="wide">{line}<figcaption>'
            f"{escaped(caption)}</figcaption></figure>"
        )
    scored = rankings is not None
    compared_auc = disparities is not None and "auc" in disparities.vs_rest
    rows = []
    notes = Notes("slice-note")
    for s in shown:
        name = escaped(slices.name(slices.keys[s]))
        ranked = ""
        extra = None
        if rankings is not None:
            found = rankings[s]
            extra = found.flag
            ranked = interval_cell(found.values["auc"], found.auc_interval, notes)
        cells = [
            f'<td class="num">{count(float(evaluation.n[s]))}</td>',
            interval_cell(
                float(evaluation.values["informedness"][s]),
                result.intervals["informedness"][s],
                notes,
            ),
            interval_cell(
                float(evaluation.values["markedness"][s]),
                result.intervals["markedness"][s],
                notes,
            ),
            ranked,
            f'<td class="small">{escaped(evaluation.bias_diagnosis(s))}</td>',
        ]
        if disparities is not None:
            d = disparities.vs_rest["informedness"][s]
            p = disparities.p_rest["informedness"][s]
            cells += [
                interval_cell(d.estimate, d, notes),
                f'<td class="num">{"—" if math.isnan(p) else f"{p:.3g}"}</td>',
            ]
            if compared_auc:  # its p under its interval: the table stays as wide as the page
                d = disparities.vs_rest["auc"][s]
                p = disparities.p_rest["auc"][s]
                under = "" if math.isnan(p) else f'<br><span class="small">p {p:.3g}</span>'
                cell = interval_cell(d.estimate, d, notes)
                cells.append(cell.replace("</td>", f"{under}</td>"))
            cells.append(f'<td class="small">{escaped(differs(disparities, s))}</td>')
        rows.append(
            f'<tr data-slice="{name}">'
            f'<th class="label" scope="row"><span style="white-space:nowrap">{name}</span>'
            f"{_flag(evaluation.row_flag(s), extra)}</th>{''.join(cells)}</tr>"
        )
    more = len(slices.keys) - len(shown)
    pooled = pooled_table(result, shown)
    if pooled is not None:
        found_pooled = evaluate(pooled, positive=evaluation.positive)
        rows.append(
            f'<tr data-slice="pooled"><th class="label" scope="row">{more:,} more, pooled'
            "<br><span class=small>their rows together; every slice: JSON, CSV</span></th>"
            f'<td class="num">{count(float(pooled.n))}</td>'
            f'<td class="num">{number(found_pooled.measures["informedness"])}</td>'
            f'<td class="num">{number(found_pooled.measures["markedness"])}</td>'
            + ("<td></td>" if scored else "")
            + "<td></td>"
            + ("<td></td><td></td><td></td>" if disparities is not None else "")
            + ("<td></td>" if compared_auc else "")
            + "</tr>"
        )
    auc_head = '<th class="num">AUC</th>' if scored else ""
    versus = (
        '<th class="num">informedness minus the rest</th><th class="num">p (Holm)</th>'
        + ('<th class="num">AUC minus the rest, p (Holm)</th>' if compared_auc else "")
        + "<th>vs reference</th>"
        if disparities is not None
        else ""
    )
    parts.append(
        '<div class="scroll"><table id="slices-table"><thead><tr><th>slice</th>'
        '<th class="num">n</th><th class="num">informedness</th>'
        f'<th class="num">markedness</th>{auc_head}<th>bias diagnosis</th>{versus}'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        + notes.listed("Why some values have no interval or no value:")
        + _undefined_paragraph(result, disparities, shown)
    )
    if disparities is None:
        parts.append(
            f'<p class="small">Under each value its {100 * result.level:g} % interval (or a '
            f"note saying why it has none). {escaped(merged_note(merged or 'merged'))}</p>"
        )
        return "".join(parts)
    reference = disparities.reference
    if reference is not None:
        parts.append(
            f'<p class="small">Under each value its {100 * result.level:g} % interval (or a '
            "note saying why it has none). "
            'vs reference: "differs" where the slice\'s informedness minus '
            f"that of {escaped(repr(slices.name(reference)))} (the reference) has an interval "
            "that excludes 0."
            + (" AUC intervals: DeLong et al. (1988), on the logit scale." if scored else "")
            + (
                f" {escaped(AUC_NOTE.replace('d AUC', 'AUC minus the rest'))}"
                if compared_auc
                else ""
            )
            + "</p>"
        )
    items = "".join(_summary_item(disparities, key, title) for key, title in SUMMARY_TITLES.items())
    reading = (
        "<p>With two classes informedness is TPR − FPR (Powers 2011): a slice's gap in "
        "informedness is its TPR gap minus its FPR gap.</p>"
        if evaluation.positive is not None
        else ""
    )
    parts.append(f'<ul id="slices-disparities">{items}</ul>{reading}')
    return "".join(parts)
