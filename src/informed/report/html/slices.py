"""The slices section of the HTML report: the forest plot of per-slice informedness
against the overall value (and the line over time windows), the table of slices and the
disparities. Presentation only; every slice name and reason is HTML-escaped."""

from __future__ import annotations

import math

from informed.inference.disparities import Disparities
from informed.inference.interval import Interval
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.report.html.figures import slices_svg, slices_time_svg
from informed.report.html.markup import count, escaped, number
from informed.report.slices import SUMMARIES, shown_slices

__all__ = ["SLICES_SOURCES", "slices_section"]

SLICES_SOURCES = ("Powers (2003)", "Powers (2011)", "Holm (1979)", "Hardt et al. (2016)")
"""The works the slices section cites."""


def _interval(interval: Interval) -> str:
    if math.isnan(interval.low):
        return f'<td class="small">{escaped(interval.reason or "undefined")}</td>'
    return (
        f'<td class="num" style="white-space:nowrap">[{interval.low:.3f}, {interval.high:.3f}]</td>'
    )


def slices_section(
    result: SliceBootstrap, disparities: Disparities, overall: float, order: str = "informedness"
) -> str:
    """The section's HTML: plot, table of the shown slices, disparities."""
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
        line = slices_time_svg(result, overall)
        parts.append(
            f'<figure id="figure-slices-time" class="wide">{line}<figcaption>Informedness '
            "window by window, its interval as a band.</figcaption></figure>"
        )
    rows = []
    for s in shown:
        d = disparities.vs_rest["informedness"][s]
        p = disparities.p_rest["informedness"][s]
        flag = evaluation.row_flag(s)
        rows.append(
            f'<tr data-slice="{escaped(slices.name(slices.keys[s]))}">'
            f'<th class="label" scope="row"><span style="white-space:nowrap">'
            f"{escaped(slices.name(slices.keys[s]))}</span>"
            f"{'<br><span class=small>' + escaped(flag) + '</span>' if flag else ''}</th>"
            f'<td class="num">{count(float(evaluation.n[s]))}</td>'
            f'<td class="num">{number(float(evaluation.values["informedness"][s]))}</td>'
            f"{_interval(result.intervals['informedness'][s])}"
            f'<td class="num">{number(float(evaluation.values["markedness"][s]))}</td>'
            f'<td class="small">{escaped(evaluation.bias_diagnosis(s))}</td>'
            f'<td class="num">{number(d.estimate)}</td>{_interval(d)}'
            f'<td class="num">{"—" if math.isnan(p) else f"{p:.3g}"}</td></tr>'
        )
    more = len(slices.keys) - len(shown)
    note = (
        f'<p class="small">{more:,} more slices are in the JSON and CSV reports.</p>'
        if more
        else ""
    )
    parts.append(
        '<div class="scroll"><table id="slices-table"><thead><tr><th>slice</th>'
        '<th class="num">n</th><th class="num">informedness</th><th>interval</th>'
        '<th class="num">markedness</th><th>bias diagnosis</th>'
        '<th class="num">minus the rest</th><th>interval</th><th class="num">p (Holm)</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>{note}"
    )
    items = "".join(
        f"<li>{escaped(title)}: {number(disparities.summary[key].estimate)} "
        f"[{number(disparities.summary[key].low)}, {number(disparities.summary[key].high)}]</li>"
        for key, title in SUMMARIES.items()
    )
    reading = (
        "<p>With two classes informedness is TPR − FPR (Powers 2011): a slice's gap in "
        "informedness is its TPR gap minus its FPR gap.</p>"
        if evaluation.positive is not None
        else ""
    )
    parts.append(f'<ul id="slices-disparities">{items}</ul>{reading}')
    return "".join(parts)
