"""The section of the HTML page of two models compared across cross-validation folds:
each model across the folds, the mean difference with its corrected interval beside the
naive one, the plot of each fold's difference beside the interval, the tests, and every
fold's differences.

Presentation only: every number is read from the `FoldComparison`
(`informed.comparison.compare_folds`); headings of measures from the registry (or the
ranking measures' titles); every model and fold name and every reason is HTML-escaped.
"""

from __future__ import annotations

import math

import numpy as np

from informed._markup import escaped, label_css, number, value_cell
from informed.comparison.fold_pairs import FoldPairs
from informed.comparison.fold_plots import (
    draw_fold_differences,
    fold_differences_frame,
    fold_differences_reason,
    fold_differences_title,
)
from informed.comparison.folds import FOLD_TEST_NAMES, FoldComparison
from informed.comparison.result import measure_title
from informed.inference.interval import Interval
from informed.plots.svg import drawn_svg, message_svg
from informed.slices.folds import FoldSummary

__all__ = [
    "FOLD_COMPARISON_SOURCES",
    "fold_comparison_section",
    "fold_differences_svg",
    "fold_pairs_section",
]

FOLD_COMPARISON_SOURCES = (
    "Nadeau & Bengio (2003)",
    "Dietterich (1998)",
    "Alpaydin (1999)",
    "Holm (1979)",
)
"""The works the section cites, listed in full at the end of the page."""


def fold_differences_svg(comparison: FoldComparison, name: str = "plot-fold-differences") -> str:
    """The plot of each fold's difference beside the corrected interval, as <svg id=name>,
    or why it cannot be drawn."""
    title = fold_differences_title(comparison)
    reason = fold_differences_reason(comparison)
    if reason is not None:
        return message_svg(name, title, reason)
    return drawn_svg(
        fold_differences_frame(comparison),
        name,
        lambda axes: draw_fold_differences(axes, comparison),
        lambda drawn: f"{title}: {drawn} measures, each fold's difference and the intervals",
    )


def _models(
    names: tuple[str, ...],
    summaries: dict[str, dict[str, FoldSummary]],
    measures: tuple[str, ...],
) -> str:
    head = "".join(
        f'<th class="num">{escaped(model)} {what}</th>'
        for model in names
        for what in ("mean", "std", "pooled")
    )
    rows = []
    for m in measures:
        cells = "".join(
            value_cell(getattr(summaries[model][m], what))
            for model in names
            for what in ("mean", "std", "pooled")
        )
        rows.append(f'<tr data-measure="{escaped(m)}"><th scope="row">{escaped(measure_title(m))}'
                    f"</th>{cells}</tr>")  # fmt: skip
    return (
        '<div class="scroll"><table id="folds-models"><thead><tr><th>measure</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _bounds(interval: Interval | None) -> str:
    if interval is None:
        return value_cell(math.nan) * 2
    return value_cell(interval.low, interval.reason) + value_cell(interval.high, interval.reason)


def _differences(comparison: FoldComparison, suffix: str) -> str:
    rows = []
    for m in comparison.measures:
        corrected = comparison.tests[m]["corrected"].interval
        naive = comparison.tests[m]["naive"].interval
        verdict = ""
        if corrected is not None and not math.isnan(corrected.low):
            verdict = "excludes 0" if corrected.low > 0 or corrected.high < 0 else "includes 0"
        rows.append(
            f'<tr data-measure="{escaped(m)}"><th scope="row">{escaped(measure_title(m))}</th>'
            f"{value_cell(float(np.mean(comparison.differences[m])))}{_bounds(corrected)}"
            f'<td class="small">{verdict}</td>{_bounds(naive)}</tr>'
        )
    return (
        f'<div class="scroll"><table id="folds-differences{suffix}"><thead><tr><th>measure</th>'
        '<th class="num">mean difference</th><th class="num">corrected low</th>'
        '<th class="num">corrected high</th><th></th><th class="num">naive low</th>'
        '<th class="num">naive high</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _tests(comparison: FoldComparison, suffix: str) -> str:
    keys = [k for k in FOLD_TEST_NAMES if any(k in t for t in comparison.tests.values())]
    head = "".join(f'<th class="num">{escaped(FOLD_TEST_NAMES[k])}</th>' for k in keys)
    rows = []
    for m in comparison.measures:
        cells = []
        for key in keys:
            test = comparison.tests[m][key]
            adjusted = comparison.adjusted[m][key]
            title = f"raw p = {number(test.pvalue, 6)}" + (
                f"; {test.reason}" if test.reason else ""
            )
            shown = "undefined" if math.isnan(adjusted) else (
                number(adjusted, 4) if adjusted >= 1e-4 else f"{adjusted:.2g}")  # fmt: skip
            cells.append(f'<td class="num" data-test="{key}" title="{escaped(title)}">{shown}</td>')
        rows.append(
            f'<tr data-measure="{escaped(m)}"><th scope="row">{escaped(measure_title(m))}</th>'
            f"{''.join(cells)}</tr>"
        )
    how = f"Holm-adjusted over {comparison.family}" if comparison.adjusting else "not adjusted"
    return (
        f'<h3>Tests of the mean difference</h3><p class="small">p-values, {how}; the raw '
        "value is in each cell's title. The naive paired t-test takes the folds for "
        "independent samples; they share training cases, so it is too confident and is "
        f'shown for contrast only.</p><div class="scroll"><table id="folds-tests{suffix}"><thead>'
        f"<tr><th>measure</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _per_fold(comparison: FoldComparison, suffix: str) -> str:
    head = "".join(f'<th class="num">{escaped(measure_title(m))}</th>' for m in comparison.measures)
    rows = []
    for s, fold in enumerate(comparison.folds):
        cells = "".join(
            value_cell(float(comparison.differences[m][s])) for m in comparison.measures
        )
        rows.append(
            f'<tr><th class="{label_css(fold)}" scope="row">{escaped(fold)}</th>'
            f'<td class="num">{comparison.test[s]:,g}</td>'
            f'<td class="num">{comparison.train[s]:,g}</td>{cells}</tr>'
        )
    return (
        f'<h3>Each fold\'s difference</h3><div class="scroll"><table id="folds-per-fold{suffix}">'
        '<thead><tr><th>fold</th><th class="num">test</th><th class="num">train</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _intro(comparison: FoldComparison, what: str) -> str:
    level = f"{100 * comparison.level:g} %"
    return (
        f'<p class="note">{what} on the same {len(comparison.folds)} folds (mean test '
        f"set {comparison.test.mean():,g} cases, training set {comparison.train.mean():,g})."
        f" The mean of the per-fold differences has a {level} interval from the corrected "
        "resampled t-test of Nadeau &amp; Bengio (2003), which adds to the folds' own "
        "spread the variance that retraining on overlapping training sets brings: "
        "1/J + n<sub>test</sub>/n<sub>train</sub> in place of the naive 1/J.</p>"
    )


def _sources(over: str) -> str:
    return (
        '<p class="small">Nadeau &amp; Bengio (2003): the corrected resampled t-test; '
        "Dietterich (1998): the 5x2cv paired t-test; Alpaydin (1999): the combined 5x2cv "
        f"F test (both for five repeats of two folds); Holm (1979) adjusts the p-values {over}.</p>"
    )


def _pair(comparison: FoldComparison, suffix: str = "") -> str:
    """One pair's mean difference, its plot, its tests and each fold's difference."""
    a, b = (escaped(name) for name in comparison.names)
    level = f"{100 * comparison.level:g} %"
    # its own id, not one of the evaluation page's FIGURES (whose page holds them all)
    svg = fold_differences_svg(comparison, f"plot-fold-differences{suffix}")
    figure = (
        f'<figure id="figure-fold-differences{suffix}" class="wide">{svg}'
        "<figcaption>Per measure: each fold's difference (ticks under the row), their mean "
        f"with the corrected {level} interval (blue), and the naive paired t interval "
        "(orange, too narrow).</figcaption></figure>"
    )
    return (
        f"<h3>Mean difference {b} − {a}</h3>{_differences(comparison, suffix)}"
        f'<div class="figures">{figure}</div>{_tests(comparison, suffix)}'
        f"{_per_fold(comparison, suffix)}"
    )


def fold_comparison_section(comparison: FoldComparison) -> str:
    """The comparison's section of the page (its content; the page adds the heading)."""
    a, b = (escaped(name) for name in comparison.names)
    models = _models(comparison.names, comparison.summaries, comparison.measures)
    return (
        f"{_intro(comparison, f'{b} − {a}')}<h3>Each model across the folds</h3>{models}"
        f"{_pair(comparison)}{_sources('across the measures')}"
    )


def fold_pairs_section(result: FoldPairs) -> str:
    """The section of three or more models compared pair by pair: each model across the
    folds, then each pair (its tables' and plot's ids end in -1, -2, ...)."""
    if len(result.pairs) == 1:
        return fold_comparison_section(result.pairs[0])
    first = result.pairs[0]
    summaries: dict[str, dict[str, FoldSummary]] = {}
    for pair in result.pairs:
        summaries.update(pair.summaries)
    what = f"{len(result.names)} models compared pair by pair (the later named minus the earlier)"
    pairs = "".join(_pair(pair, f"-{i + 1}") for i, pair in enumerate(result.pairs))
    return (
        f"{_intro(first, what)}<h3>Each model across the folds</h3>"
        f"{_models(result.names, summaries, first.measures)}{pairs}"
        f"{_sources(f'over every pair and measure together ({first.family})')}"
    )
