"""The HTML page of a tally (`informed tally FILE --html`): micro and macro values with
intervals, the table of categories, their informedness plotted, the Perl module's table.

Presentation only: every value is read from the `TallySummary` (the tally's measures,
micro, macro and per category, each undefined one with its reason) and the
`TallyIntervals` (how the intervals were made is said on the page: Wilson's interval
for a proportion, a bootstrap of each table's cells for the rest, per-category
bootstraps for macro averages; no bootstrap of documents, which the tally does not keep).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from informed._markup import count, escaped, label_css, number, value_cell
from informed.inference.interval import Interval
from informed.inference.tally_intervals import TallyIntervals
from informed.measures import MEASURES
from informed.plots.tally import MAX_CATEGORIES
from informed.report.html.figures import tally_svg
from informed.report.html.page import page_document, write_page
from informed.tally.document import TallySummary

__all__ = ["MAX_ROWS", "TALLY_SOURCES", "tally_page", "write_tally_page"]

TALLY_SOURCES = (
    "Williams (n.d.)",
    "Powers (2011)",
    "Wilson (1927)",
    "Efron & Tibshirani (1993)",
)
"""The works the tally page cites."""

MAX_ROWS = 200
"""The table of categories lists at most this many (those with the most real positives);
the JSON output (`--format json`) holds every one."""


def _interval(interval: Interval) -> str:
    if math.isnan(interval.low) or math.isnan(interval.high):
        reason = interval.reason or "undefined"
        return f'<td class="small" title="{escaped(reason)}">—</td>'
    return f'<td class="num">[{number(interval.low)}, {number(interval.high)}]</td>'


def _method(intervals: TallyIntervals, name: str) -> str:
    return "Wilson" if intervals.method(name) == "wilson" else "bootstrap of the cells"


def _overall(summary: TallySummary, intervals: TallyIntervals) -> str:
    rows = []
    for name in intervals.measures:
        micro, macro = intervals.micro[name], intervals.macro[name]
        why = summary.micro_reasons.get(name)
        notes = []
        micro_why = why or (micro.reason if math.isnan(micro.low) else None)
        if micro_why:
            notes.append(f"micro: {micro_why}")
        if math.isnan(macro.low) and macro.reason:
            notes.append(f"macro: {macro.reason}")
        rows.append(
            f'<tr data-measure="{name}"><th>{escaped(MEASURES[name].title)}</th>'
            f"{value_cell(summary.micro[name], why)}{_interval(micro)}"
            f'<td class="small">{_method(intervals, name)}</td>'
            f"{value_cell(summary.macro[name], macro.reason)}{_interval(macro)}"
            f'<td class="small">{escaped("; ".join(notes))}</td></tr>'
        )
    level = f"{100 * intervals.level:g} %"
    averaged = "undefined if any is" if intervals.undefined == "propagate" else "the defined ones"
    return (
        '<div class="scroll"><table id="tally-overall"><thead><tr><th>measure</th>'
        f'<th class="num">micro</th><th>{level} interval</th><th>interval by</th>'
        f'<th class="num">macro</th><th>{level} interval</th><th>note</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        '<p class="small">Micro: the measure of the pooled table (every document and '
        "category decision summed); macro: the mean over the categories of each one's "
        f"value ({averaged}).</p>"
    )


def _shown(intervals: TallyIntervals) -> list[str]:
    """The categories the table lists: all, or the `MAX_ROWS` with the most real positives."""
    categories = list(intervals.tally.categories)
    if len(categories) <= MAX_ROWS:
        return categories
    counts = intervals.tally.counts
    support = (counts[:, 0, 0] + counts[:, 1, 0]).tolist()
    keep = sorted(range(len(categories)), key=lambda k: (-support[k], k))[:MAX_ROWS]
    return [categories[k] for k in sorted(keep)]


def _categories(summary: TallySummary, intervals: TallyIntervals) -> str:
    counts = intervals.tally.counts
    where = {c: k for k, c in enumerate(intervals.tally.categories)}
    names = [m for m in ("precision", "recall", "f_measure") if m in MEASURES]
    rows = []
    notes = []
    shown = _shown(intervals)
    for category in shown:
        (a, b), (c, d) = counts[where[category]].tolist()
        values = summary.per_category[category]
        reasons = summary.category_reasons.get(category, {})
        cells = "".join(f'<td class="num">{count(int(v))}</td>' for v in (a, b, c, d)) + "".join(
            value_cell(values[m], reasons.get(m)) for m in names
        )
        interval = intervals.per_category[category].get("informedness")
        informed = value_cell(values["informedness"], reasons.get("informedness"))
        bounds = _interval(interval) if interval is not None else "<td></td>"
        rows.append(
            f'<tr data-category="{escaped(category)}">'
            f'<th class="{label_css(category)}" scope="row">{escaped(category)}</th>{cells}'
            f"{informed}{bounds}{value_cell(values['markedness'], reasons.get('markedness'))}"
            "</tr>"
        )
        if reasons:
            why = "; ".join(
                f"{escaped(MEASURES[m].title)}: {escaped(r)}" for m, r in reasons.items()
            )
            notes.append(f"<li><strong>{escaped(category)}</strong>: {why}</li>")
    head = "".join(f'<th class="num">{escaped(MEASURES[m].title)}</th>' for m in names)
    left = len(intervals.tally.categories) - len(shown)
    more = (
        f'<p class="note">Showing {len(shown)} of {len(intervals.tally.categories)} '
        f"categories, those with the most real positives; {left} more are in the JSON "
        "output (<code>--format json</code>).</p>"
        if left
        else ""
    )
    undefined = (
        f"<details><summary>Why some values are undefined</summary><ul>{''.join(notes)}"
        "</ul></details>"
        if notes
        else ""
    )
    return (
        f'{more}<div class="scroll"><table id="tally-categories"><thead><tr>'
        '<th>category</th><th class="num" title="assigned and correct">a (tp)</th>'
        '<th class="num" title="assigned, not correct">b (fp)</th>'
        '<th class="num" title="correct, not assigned">c (fn)</th>'
        '<th class="num" title="neither">d (tn)</th>'
        f'{head}<th class="num">{escaped(MEASURES["informedness"].title)}</th>'
        f"<th>{100 * intervals.level:g} % interval</th>"
        f'<th class="num">{escaped(MEASURES["markedness"].title)}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>{undefined}"
    )


def _lines(summary: TallySummary) -> str:
    """The Perl module's table, line by line, each line escaped (its line breaks kept)."""
    return "\n".join(escaped(line) for line in summary.stats_table.rstrip().split("\n"))


def tally_page(
    summary: TallySummary,
    intervals: TallyIntervals,
    *,
    title: str = "Multi-label evaluation",
    source: str = "",
) -> str:
    """One self-contained HTML document reporting a tally: the micro and macro values with
    their intervals, each category's table and values, their informedness plotted, and
    Statistics::Contingency's one-glance table.

    Parameters
    ----------
    summary : TallySummary
        `informed.tally.summarize_tally(tally)`: every measure, micro, macro and per
        category, with the reasons of undefined values.
    intervals : TallyIntervals
        `informed.inference.tally_intervals(tally, ...)` of the same tally; it holds the
        measures the page shows intervals for (informedness among them for the plot).
    """
    tally = intervals.tally
    meta_parts = []
    if source:
        meta_parts.append(f"Source: <strong>{escaped(source)}</strong>")
    meta_parts.append(f"{summary.documents:,} documents")
    meta_parts.append(f"{len(summary.categories):,} categories")
    meta_parts.append(
        "conventions: Statistics::Contingency 0.09's (a 0 or 1 where a denominator is 0)"
        if summary.conventions == "statistics-contingency"
        else "an undefined value is undefined (nan), with its reason"
    )
    meta = f'<p class="meta">{" · ".join(meta_parts)}</p>'
    ignored = ""
    if summary.ignored:
        named = ", ".join(f"{escaped(c)} ({n})" for c, n in summary.ignored.items())
        ignored = (
            f'<p class="note">Undeclared categories skipped, with the documents naming each: '
            f"{named}.</p>"
        )
    overall = (
        f"{ignored}{_overall(summary, intervals)}"
        f'<p class="note" id="tally-method">{escaped(intervals.note)}</p>'
    )
    plotted = ""
    if "informedness" in intervals.measures and tally.categories:
        shown = min(len(tally.categories), MAX_CATEGORIES)
        caption = (
            "Each category's informedness (recall + inverse recall − 1: how far its "
            "assignments beat chance, Powers (2011)) with the percentile bootstrap interval "
            "of its own table; the solid line is the micro value"
            + (
                ", the dashed one the macro. "
                if math.isfinite(intervals.macro["informedness"].estimate)
                else " (the macro value is undefined: no dashed line). "
            )
            + "<b>Good:</b> near 1. <b>Chance:</b> 0. A hollow red dot has no interval (why: "
            "in the table); a category whose informedness is undefined has no dot."
            + (
                f" The plot shows the {shown} categories with the most real positives."
                if shown < len(tally.categories)
                else ""
            )
        )
        plotted = (
            f'<div class="figures"><figure id="figure-tally" class="wide">'
            f"{tally_svg(intervals)}<figcaption>{caption}</figcaption></figure></div>"
        )
    sections = [
        ("tally-summary", "Micro and macro", overall),
        ("tally-per-category", "Per category", plotted + _categories(summary, intervals)),
        (
            "tally-perl",
            "Statistics::Contingency's table",
            '<p class="small">As Williams (n.d.) prints it (maR maP maF1 miR miP miF1 '
            f'Err).</p><div class="scroll"><pre id="tally-stats">{_lines(summary)}</pre></div>',
        ),
    ]
    return page_document(title, meta, sections, list(TALLY_SOURCES))


def write_tally_page(
    path: str | os.PathLike[str], summary: TallySummary, intervals: TallyIntervals, **options: str
) -> Path:
    """Write `tally_page(summary, intervals, **options)` to `path` atomically; return it."""
    return write_page(path, tally_page(summary, intervals, **options))
