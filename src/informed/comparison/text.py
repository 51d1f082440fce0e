"""The terminal report of a comparison of models: leaderboard, paired differences, tests,
and for probabilities the difference in net benefit from the best model.

Presentation only: every number is read from the `Comparison` (`informed.inference.
compare`), every measure's heading from the registry or the ranking measures' titles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from rich.text import Text

from informed._common import cut_apart, printable

# the terminal report's own tables, rendering, user text and number format: both read alike
from informed._terminal import WIDTH, grid, render, split, titled, value
from informed.comparison.net_benefit import NetBenefitDifference
from informed.comparison.result import TEST_NAMES, Comparison, measure_title
from informed.measures import MEASURES
from informed.ranking.decision import REPORT_THRESHOLDS

__all__ = ["SHORT_TITLES", "render_comparison"]

SHORT_TITLES = {
    "informedness": "informed.",
    "markedness": "marked.",
    "correlation": "correl.",
    "matthews_correlation": "Matthews",
    "accuracy": "accuracy",
    "f_measure": "F",
    "auc": "AUC",
    "pem": "PEM",
    "average_hit_rate": "avg hit",
    "average_qrecall": "avg Qrec.",
}
"""Column titles short enough for a terminal table (others: the name cut to 9)."""


def render_comparison(
    comparison: Comparison, source: str, *, color: bool = False, width: int = WIDTH
) -> str:
    """The comparison as text, `width` columns wide (ANSI colours only when `color`); file
    names, labels and model names with their control characters escaped."""
    positive = comparison.positive
    head = Text(
        f"{printable(source)}: N = {comparison.n:,g}"
        + (f", positive class {printable(repr(positive))}" if positive is not None else "")
        + f"\n{len(comparison.models)} models ranked by {measure_title(comparison.sort_by)}; "
        + f"best: {printable(comparison.reference)}",
        style="bold",
    )
    table_measures = [m for m in comparison.measures if m in MEASURES]
    ranking_measures = [m for m in comparison.measures if m not in MEASURES]
    parts: list[Any] = [head, ""]
    if table_measures:
        parts.append(_leaderboard(comparison, table_measures, "Models, best first", width))
    if ranking_measures:
        title = "Ranking measures of the scores" if table_measures else "Models, best first"
        parts.append(_leaderboard(comparison, ranking_measures, title, width))
    points = _operating_points(comparison)
    if points is not None:
        parts.append(points)
    parts.append(_differences(comparison, width))
    tests = _tests(comparison)
    if tests is not None:
        parts.append(tests)
    for found in comparison.net_benefit.values():
        parts += ["", _net_benefit(found, comparison.level, width)]
    notes = _notes(comparison)
    if notes:
        parts.append(Text("\n".join(notes), style="yellow"))
    return render(parts, color, width)


def _model_names(comparison: Comparison) -> dict[str, Text]:
    """Each model's name as a table shows it: cut to 18 characters, the models told
    apart (`cut_apart`)."""
    models = [str(m) for m in comparison.models]
    return {m: Text(shown) for m, shown in zip(models, cut_apart(models, 18), strict=True)}


def _leaderboard(comparison: Comparison, measures: list[str], title: str, width: int) -> Any:
    """The models' measures, its columns shared out over tables that fit in `width`
    columns (each repeating the rank and the model)."""
    from rich.console import Group

    shown = _model_names(comparison)

    def build(names: Sequence[str]) -> Any:
        table = grid()
        table.add_column("#", justify="right")
        table.add_column("model", no_wrap=True)
        for name in names:
            table.add_column(SHORT_TITLES.get(name, name[:9]), justify="right", no_wrap=True)
        for model_name, model in comparison.models.items():
            table.add_row(
                str(model.rank),
                shown[str(model_name)],
                *(value(model.measures.get(m)) for m in names),
            )
        return table

    return Group(Text(title, style="bold"), *split(build, measures, width))


def _operating_points(comparison: Comparison) -> Any:
    rows = [(n, m.threshold) for n, m in comparison.models.items() if m.threshold is not None]
    if not rows:
        return None
    shown = _model_names(comparison)
    table = grid()
    for heading in ("model", "threshold", "chosen", "tp", "fp", "fn", "tn"):
        table.add_column(
            heading, justify="left" if heading in ("model", "chosen") else "right", no_wrap=True
        )
    for name, point in rows:
        assert point is not None
        tp, fp, fn, tn = point.cells
        chosen = f"best {point.measure}" if point.chosen_by == "best" else "given"
        cells = (f"{c:,g}" for c in (tp, fp, fn, tn))
        table.add_row(shown[str(name)], f"{point.threshold:.6g}", chosen, *cells)
    title = "Where each model's scores were cut (score >= threshold predicts positive)"
    return titled(title, table)


def _differences(comparison: Comparison, width: int) -> Any:
    """Each model's paired difference from the best, measure by measure, with its interval;
    its columns shared out over tables that fit in `width` columns (each repeating the
    model and the measure), so that no number is cut."""
    from rich.console import Group

    reference = printable(comparison.reference)
    title = (
        f"Paired differences from {reference} (model - {reference}), "
        f"{100 * comparison.level:g} % bootstrap intervals, {comparison.replicates} replicates"
    )
    rows = []
    for name, by_measure in comparison.differences.items():
        for measure, interval in by_measure.items():
            if math.isnan(interval.estimate):
                cells = {"difference": "undefined", "interval": "", "": interval.reason or ""}
            else:
                excludes = interval.low > 0 or interval.high < 0
                cells = {
                    "difference": value(interval.estimate),
                    "interval": f"[{value(interval.low)}, {value(interval.high)}]",
                    "": "excludes 0" if excludes else "",
                }
            rows.append((name, measure, cells))

    shown = _model_names(comparison)

    def build(columns: Sequence[str]) -> Any:
        table = grid()
        table.add_column("model", no_wrap=True)
        table.add_column("measure", no_wrap=True)
        for column in columns:
            if column:
                table.add_column(column, justify="right", no_wrap=True)
            else:  # beside the interval it needs no title; alone, it says what it reads
                table.add_column("" if "interval" in columns else "interval", style="dim")
        for name, measure, cells in rows:
            table.add_row(shown[str(name)], measure_title(measure), *(cells[c] for c in columns))
        return table

    return Group(Text(title, style="bold"), *split(build, ["difference", "interval", ""], width))


def _tests(comparison: Comparison) -> Any:
    keys = [k for k in TEST_NAMES if any(k in t for t in comparison.tests.values())]
    if not keys:
        return None
    adjusted = (
        f", p-values Holm-adjusted over {len(comparison.tests)} comparisons"
        if comparison.correction == "holm" and len(comparison.tests) > 1
        else ""
    )
    shown = _model_names(comparison)
    table = grid()
    table.add_column("model", no_wrap=True)
    for key in keys:
        table.add_column(TEST_NAMES[key], justify="right")
    for name, by_test in comparison.tests.items():
        cells = []
        for key in keys:
            test = by_test.get(key)
            if test is None or math.isnan(test.pvalue):
                cells.append("undefined" if test is not None else "")
            else:
                cells.append(f"p = {_p(comparison.adjusted[name][key])}")
        table.add_row(shown[str(name)], *cells)
    return titled(f"Paired tests against {printable(comparison.reference)}{adjusted}", table)


def _ranges(pairs: tuple[tuple[float, float], ...]) -> str:
    return " and ".join(f"({low:.6g}, {high:.6g})" for low, high in pairs)


def _net_benefit(found: NetBenefitDifference, level: float, width: int) -> Any:
    """The two models' net benefit and its difference at the report's thresholds, the
    exact ranges where each beats the other and where the band excludes 0."""
    from rich.console import Group

    model, reference = printable(found.model), printable(found.reference)
    head = Text(
        f"Net benefit, {model} - {reference}: acting on the rows scored >= p_t; "
        f"{100 * level:g} % paired bootstrap band",
        style="bold",
    )
    shown = np.flatnonzero(np.isin(found.thresholds, REPORT_THRESHOLDS))
    low, high = found.bands["difference"]
    first, second = f"NB {reference[:12]}", f"NB {model[:12]}"
    if first == second:  # names alike in their first 12 characters
        first, second = "NB reference", "NB model"
    cells = {
        first: lambda i: value(float(found.net_benefit[found.reference][i])),
        second: lambda i: value(float(found.net_benefit[found.model][i])),
        "difference": lambda i: value(float(found.difference[i])),
        "band": lambda i: f"[{value(float(low[i]))}, {value(float(high[i]))}]",
    }

    def build(titles: Sequence[str]) -> Any:
        table = grid()
        table.add_column("p_t", justify="right", no_wrap=True)
        for title in titles:
            table.add_column(title, justify="right", no_wrap=True)
        for i in shown.tolist():
            table.add_row(f"{found.thresholds[i]:.4g}", *(cells[t](i) for t in titles))
        return table

    lines = []
    if found.beats:
        lowest, highest = found.lowest, found.highest
        lines.append(
            f"{model} beats {reference} for p_t in {_ranges(found.beats)} (exact, from every "
            f"distinct score): from {lowest.estimate:.6g} [{value(lowest.low)}, "
            f"{value(lowest.high)}] to {highest.estimate:.6g} [{value(highest.low)}, "
            f"{value(highest.high)}]."
        )
    else:
        lines.append(f"{model} beats {reference} at no threshold probability.")
    if found.loses:
        lines.append(f"{reference} beats {model} for p_t in {_ranges(found.loses)}.")
    for pairs, better in ((found.above_zero, model), (found.below_zero, reference)):
        if pairs:
            lines.append(f"The band excludes 0 ({better} better) at p_t in {_ranges(pairs)}.")
    legend = Text(
        "net benefit = TP/n - FP/n p_t/(1 - p_t) (Vickers & Elkin 2006); the band resamples "
        "the cases once for both models; it is pointwise, not simultaneous.",
        style="dim",
    )
    return Group(head, *split(build, list(cells), width), Text("\n".join(lines)), legend)


def _notes(comparison: Comparison) -> list[str]:
    notes = []
    for name, by_test in comparison.tests.items():
        for key, test in by_test.items():
            if test.reason:
                notes.append(f"{printable(name)}, {TEST_NAMES[key]}: {test.reason}")
    return notes


def _p(p: float) -> str:
    return f"{p:.2g}" if p < 0.001 else f"{p:.4f}"
