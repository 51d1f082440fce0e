"""The slice search's section of the HTML report: the forest of the slices found (each
gap with its simultaneous interval), the table of the slices found, and the search's
figures (slices counted, tested and pruned per depth, the hypotheses, the numeric
columns' cuts, the method and its level).

Presentation only: every number is read from the `SliceSearch` (`informed.find_slices`);
every column name, value and slice name is HTML-escaped.
"""

from __future__ import annotations

from informed._markup import count, escaped, label_css, number, value_cell
from informed.disparity.plots import (
    MAX_DRAWN,
    draw_found,
    found_frame,
    found_title,
    none_found,
)
from informed.disparity.result import MEASURE_TITLES, SliceSearch, condition_name
from informed.plots.svg import drawn_svg, message_svg

__all__ = ["PAGE_WIDTH", "SEARCH_SOURCES", "found_svg", "search_section"]

PAGE_WIDTH = 10.0
"""The forest's width on the page, in inches: the page's column, as the report's other
forests (`informed.report.html.figures.PAGE_FOREST_WIDTH`)."""

_SOURCES = {
    "bonferroni-price-bonett": ("Powers (2011)", "Price & Bonett (2004)"),
    "bonferroni-delong": ("DeLong et al. (1988)",),
}

SEARCH_SOURCES = ("Powers (2011)", "Price & Bonett (2004)", "DeLong et al. (1988)")
"""Every work the section may cite (`search_sources` says which one search cites)."""


def search_sources(search: SliceSearch) -> tuple[str, ...]:
    """The works this search's section cites."""
    return _SOURCES[search.method]


def found_svg(search: SliceSearch, name: str = "plot-found-slices") -> str:
    """The forest of the slices found as <svg id=name>, or why there is none."""
    title = found_title(search)
    if not search.found:
        return message_svg(name, title, none_found(search))
    return drawn_svg(
        found_frame(search, width=PAGE_WIDTH),
        name,
        lambda axes: draw_found(axes, search),
        lambda drawn: f"{title}: {drawn} slices, each gap with its simultaneous interval",
    )


def _found_table(search: SliceSearch) -> str:
    title = escaped(MEASURE_TITLES[search.measure])
    head = (
        '<th class="num">#</th><th>slice</th><th class="num">n</th>'
        '<th class="num">+R</th><th class="num">−R</th>'
        f'<th class="num">{title} of the slice</th><th class="num">of the rest</th>'
        '<th class="num">gap</th><th class="num">low</th><th class="num">high</th>'
        '<th class="num">gap within the slice found it lies in</th><th>grouped under</th>'
    )
    rows = []
    for rank, f in enumerate(search.found, start=1):
        within = ""
        if f.within is not None:
            within = (
                f"{number(f.within.estimate)} [{number(f.within.low)}, {number(f.within.high)}]"
            )
        group = "" if f.group is None else condition_name(f.group)
        counts = "".join(
            f'<td class="num">{"" if c is None else count(c)}</td>'
            for c in (f.n, f.positives, f.negatives)
        )
        rows.append(
            f'<tr data-rank="{rank}"><td class="num">{rank}</td>'
            f'<th class="{label_css(f.name)}" scope="row">{escaped(f.name)}</th>{counts}'
            f"{value_cell(f.value)}{value_cell(f.rest)}{value_cell(f.gap)}"
            f"{value_cell(f.interval.low)}{value_cell(f.interval.high)}"
            f'<td class="num">{within}</td><td>{escaped(group)}</td></tr>'
        )
    return (
        '<div class="scroll"><table id="found-slices"><thead><tr>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _figures(search: SliceSearch) -> str:
    rows = "".join(
        f'<tr><td class="num">{x.depth}</td><td class="num">{x.counted:,}</td>'
        f'<td class="num">{x.tested:,}</td><td class="num">{x.pruned:,}</td>'
        f'<td class="num">{x.found:,}</td></tr>'
        for x in search.levels
    )
    total = (
        f'<tr class="total"><td>all</td><td class="num">'
        f"{sum(x.counted for x in search.levels):,}</td>"
        f'<td class="num">{search.tested:,}</td><td class="num">{search.pruned:,}</td>'
        f'<td class="num">{len(search.found):,}</td></tr>'
    )
    table = (
        '<div class="scroll"><table id="search-levels"><thead><tr><th class="num">depth</th>'
        '<th class="num">counted</th><th class="num">tested</th><th class="num">pruned</th>'
        f'<th class="num">found</th></tr></thead><tbody>{rows}{total}</tbody></table></div>'
    )
    notes = [
        f"{search.hypotheses:,} hypotheses in the family (each slice tested against its "
        "rest, and each tested slice against the rest of every tested slice it lies in); "
        f"every interval is at the simultaneous level {100 * search.level:g} %.",
        f"Pruned: counted but with fewer than {search.min_size:,} {search.margins} positives "
        f"or {search.margins} negatives (with more classes: {_some(search)}), so neither "
        "tested nor extended; a child has at most its parent's cases.",
    ]
    if search.untestable:
        notes.append(
            f"{search.untestable:,} slices tested have no interval: no variance, or the "
            "measure is undefined in the slice or its rest."
        )
    for name, edges in search.cuts.items():
        notes.append(
            f"{escaped(name)} cut into {len(edges) - 1} quantile ranges at "
            + ", ".join(f"{x:.6g}" for x in edges)
            + "."
        )
    notes.append(f"Method: {escaped(search.method_text)}.")
    items = "".join(f"<li>{n}</li>" for n in notes)
    return f'{table}<ul class="small" id="search-figures">{items}</ul>'


def search_section(search: SliceSearch) -> str:
    """The search's section of the page (its content; the page adds the heading)."""
    title = MEASURE_TITLES[search.measure]
    positive = "" if search.positive is None else f", positive class {escaped(search.positive)}"
    intro = (
        f'<p class="note">{search.rows:,} rows{positive}; {escaped(title)} of all rows '
        f"{number(search.overall)}. Searched: every conjunction of up to "
        f"{min(search.depth, len(search.columns))} conditions on "
        f"{escaped(', '.join(search.columns))}, slices of at least {search.min_size:,} "
        f"{search.margins} positives and negatives. Found: "
        f"<strong>{len(search.found):,}</strong> slices significantly less informed than "
        f"the rest, of {search.tested:,} tested.</p>"
    )
    drawn = min(len(search.found), MAX_DRAWN)
    caption = (
        f"Each slice found, ranked by the lower bound of its gap's interval: the dot is the "
        f"gap ({escaped(title)} of the rest of the rows less the slice's), the bar its "
        f"{100 * search.level:g} % simultaneous interval; every bar misses 0. A slice inside "
        "another slice found (orange) is reported only where it is also less informed "
        "than the rest of that slice."
    )
    if drawn < len(search.found):
        caption += f" The first {drawn} of {len(search.found):,} are drawn."
    figure = (
        f'<div class="figures"><figure id="figure-found-slices" class="wide">'
        f"{found_svg(search)}<figcaption>{caption}</figcaption></figure></div>"
    )
    found = _found_table(search) if search.found else ""
    cites = ", ".join(escaped(s) for s in search_sources(search))
    return (
        f"{intro}{figure}{found}<h3>The search</h3>{_figures(search)}"
        f'<p class="small">Measures and intervals: {cites}.</p>'
    )


def _some(search: SliceSearch) -> str:
    """The margin `min_size` counts with more labels, for markedness or not."""
    return "predictions of some label" if search.margins == "predicted" else "cases of some class"
