"""The calibration-within-slices section of the HTML slices report: each shown slice's
Brier (or log) score decomposed on its own rows, its MCB with its interval, and the
spread of MCB across slices. Presentation only (`informed.inference.slice_calibration`
computed it); every slice name and reason is HTML-escaped."""

from __future__ import annotations

import math

from informed.inference.slice_calibration import SliceCalibration
from informed.report.html.markup import count, escaped, number, sentence, value_cell
from informed.report.slice_calibration import (
    BIASED_NOTE,
    CALIBRATION_NOTE,
    NO_INTERVALS,
    mcb_interval,
    mcb_text,
)

__all__ = ["calibration_slices_section"]


def calibration_slices_section(found: SliceCalibration | str, shown: list[int]) -> str:
    """The section's HTML: a table of the `shown` slices, the spread of MCB, what MCB is;
    or, when `found` is the reason there is none, that reason."""
    if isinstance(found, str):
        return f'<p id="slice-calibration-none">No calibration: {sentence(found)}</p>'
    slices = found.slices
    score = "Brier score" if found.rule == "brier" else "log score"
    resampled = found.replicates > 0
    rows = []
    for s in shown:
        name = escaped(slices.name(slices.keys[s]))
        d = found.decompositions[s]
        interval = found.miscalibration[s]
        n = float(slices.rankings[s].n) if slices.rankings is not None else math.nan
        rows.append(
            f'<tr data-slice="{name}"><th class="label" scope="row">{name}</th>'
            f'<td class="num">{count(n)}</td>'
            f'<td class="num">{escaped(mcb_text(d.miscalibration))}'
            + (
                f'<br><span class="small">{escaped(mcb_interval(interval))}</span>'
                if resampled
                else ""
            )
            + "</td>"
            f"{value_cell(d.score, d.reason)}{value_cell(d.discrimination, d.reason)}"
            f"{value_cell(d.uncertainty, d.reason)}</tr>"
        )
    spread = found.spread
    if math.isnan(spread.estimate):
        text = f"undefined ({escaped(spread.reason or 'undefined')})"
    else:
        text = number(spread.estimate)
        text += f" {escaped(mcb_interval(spread))}" if resampled else ""
        if found.highest is not None and found.lowest is not None:
            text += (
                f"; highest {escaped(repr(slices.name(slices.keys[found.highest])))}, "
                f"lowest {escaped(repr(slices.name(slices.keys[found.lowest])))}"
            )
    if found.left_out and slices.accumulated is None:
        left = ", ".join(
            f"{escaped(repr(slices.name(slices.keys[s])))} ({escaped(why)})"
            for s, why in found.left_out
        )
        every = found.spread_all
        shown_all = (
            f"undefined ({escaped(every.reason or 'undefined')})"
            if math.isnan(every.estimate)
            else number(every.estimate) + (f" {escaped(mcb_interval(every))}" if resampled else "")
        )
        if not math.isnan(spread.estimate):
            text += f" over the slices {escaped(found.rule_text)}"
        text += (
            f'<br><span class="small">left out as too small: {left}; over every slice: '
            f"{shown_all}</span>"
        )
    how = (
        f"under each MCB its {100 * found.level:g} % percentile interval "
        f"({found.replicates:,} replicates of each slice)"
        if resampled
        else escaped(NO_INTERVALS)
    )
    return (
        f"<p>Is the model calibrated within each slice? Each slice's {score} is decomposed "
        f"on its own rows (score = MCB − DSC + UNC); {how}.</p>"
        '<div class="scroll"><table id="slice-calibration-table"><thead><tr><th>slice</th>'
        '<th class="num">n</th><th class="num">MCB</th>'
        f'<th class="num">{score}</th><th class="num">DSC</th><th class="num">UNC</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        f'<ul id="slice-calibration-spread"><li>spread of MCB (max − min): {text}</li></ul>'
        f'<p class="small">{escaped(CALIBRATION_NOTE)}'
        f"{' ' + escaped(BIASED_NOTE) if resampled else ''}</p>"
    )
