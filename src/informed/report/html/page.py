"""The HTML report: one self-contained page with the terminal report's content and plots.

The page holds its CSS and its plots (inline SVG drawn by `informed.plots`), and nothing in
it fetches anything (no external font, image, style sheet, script or link), so it opens
the same way offline, from a mail attachment or from a CI artifact. Its one script,
inline, moves the live operating point of the ranking section
(`informed.report.html.live`); without script the page shows the same report with the
first operating point. Every label, file name and title given by the user is
HTML-escaped.

Presentation only: each number is read from typed results computed once, before (an
`Evaluation` and its `Payoff`, a `RankingSummary`, a `Bootstrap`); `html_report` computes
the payoff and the ranking summary itself only when they are not passed in. Every
heading, formula, range, chance value and source comes from the registries
(`informed.measures.MEASURES`, `informed.ranking.RANKING_MEASURES`), and the page ends with
the full references of the works it cites.

>>> from informed import Table, evaluate
>>> page = html_report(evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+"))
>>> page.startswith("<!DOCTYPE html>"), "http://" in page, "https://" in page
(True, False, False)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from informed.coding.labels import keyed
from informed.comparison.html import COMPARISON_SOURCES, comparison_section
from informed.comparison.result import Comparison
from informed.disparity.html import search_section, search_sources
from informed.disparity.result import SliceSearch
from informed.errors import InputError, InputTypeError
from informed.inference.disparities import Disparities
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.inference.slice_calibration import SliceCalibration
from informed.inference.slice_rankings import SliceRankings
from informed.inference.table_bootstrap import Bootstrap
from informed.ranking import OperatingPoint, Ranking
from informed.ranking.document import RankingSummary, summarize_ranking
from informed.report.calibration import CalibrationReport, calibration_report
from informed.report.html.calibration import CALIBRATION_SOURCES, calibration_section
from informed.report.html.evaluation import EVALUATION_SOURCES, evaluation_sections
from informed.report.html.markup import count, escaped
from informed.report.html.ranking import RANKING_SOURCES, first_threshold, ranking_section
from informed.report.html.slice_calibration import calibration_slices_section
from informed.report.html.slice_scores import scored_slices_section
from informed.report.html.slices import SLICES_SOURCES, slices_section
from informed.report.html.style import CSS
from informed.report.references import references_of
from informed.report.slice_scores import ScoredSlices, scored_shown
from informed.report.slices import shown_slices
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff, payoff

__all__ = [
    "check_output_path",
    "comparison_report",
    "html_report",
    "page_document",
    "scored_slices_report",
    "search_report",
    "slices_report",
    "write_comparison_report",
    "write_html_report",
    "write_page",
    "write_scored_slices_report",
    "write_search_report",
    "write_slices_report",
]


def html_report(
    evaluation: Evaluation | None = None,
    ranking: Ranking | None = None,
    *,
    intervals: Bootstrap | None = None,
    pay: Payoff | None = None,
    summary: RankingSummary | None = None,
    title: str = "Classifier evaluation",
    source: str = "",
    ranking_positive: Any = None,
    quotas: Sequence[float] = (),
    bins: int = 10,
    max_labels: int = 30,
    threshold: OperatingPoint | None = None,
    comparison: Comparison | None = None,
    calibration: CalibrationReport | None = None,
) -> str:
    """One self-contained HTML document reporting an evaluation, a ranking, a comparison
    of models, or several of them.

    Parameters
    ----------
    evaluation : Evaluation, optional
        Gives the headline, the contingency table and its heat map, the payoff matrix, all
        measures with the reasons for undefined values, the per-label table and plot.
    ranking : Ranking, optional
        Gives the ranking section: AUC, average hit rate, average Qrecall, PEM, the lift
        table and the ROC, quota and lift plots.
    intervals : Bootstrap, optional
        Bootstrap intervals of the evaluation's measures (`informed.bootstrap` of the same
        table and positive label); their level is shown with them. Needs an `evaluation`.
    pay : Payoff, optional
        The evaluation's payoff matrix (`informed.payoff(evaluation.table)`); computed here
        when not given.
    summary : RankingSummary, optional
        `summarize_ranking(ranking, quotas, bins)`; computed here from `quotas` and `bins`
        when not given (pass one or the other, not both).
    title : str
        The page's heading.
    source : str
        Where the data came from (a file name), shown under the heading.
    ranking_positive : label, optional
        The class the scores rank, named in the ranking section.
    quotas : sequence of float
        Quotas at which the ranking section lists hit rate, Qrecall, lift and Pearson.
    bins : int
        Bins of the lift table and plot (deciles by default).
    max_labels : int
        Tables list at most this many labels, the most frequent ones (by the larger of
        prevalence and bias), with a note saying how many are left out; the heat map
        shows at most `min(max_labels, MAX_HEATMAP_LABELS)`.
    threshold : OperatingPoint, optional
        An operating point of the ranking (`Ranking.best_threshold` or `at_threshold`):
        the first point of the live operating point beside the ROC plot (by default the
        threshold with the best informedness), described under it. Needs a `ranking`.
    comparison : Comparison, optional
        Several models on the same cases (`informed.compare`): the leaderboard, the
        operating points, the paired differences with their forest plot, the models' ROC
        curves on one plane and the paired tests.
    calibration : CalibrationReport, optional
        `calibration_report(ranking)`, computed here when not given: when the ranking's
        scores are probabilities, the calibration section (the CORP reliability diagram,
        the decision curve with its marker at the live operating point, the Brier and log
        decompositions, slope, intercept, net benefit at the report's thresholds).

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    TypeError
        `evaluation` is not an `Evaluation`, `ranking` not a `Ranking`, `intervals` not a
        `Bootstrap`.
    ValueError
        No evaluation, ranking or comparison; intervals without an evaluation, or of
        another positive label; quotas or a summary without a ranking; both a summary and
        quotas; `max_labels` below 1.
    """
    _check(evaluation, ranking, intervals, summary, quotas, max_labels, comparison)
    if threshold is not None and (ranking is None or not isinstance(threshold, OperatingPoint)):
        msg = (
            "`threshold` must be an OperatingPoint of the `ranking` (from "
            f"`Ranking.best_threshold`); got {type(threshold).__name__} with "
            f"ranking={'given' if ranking is not None else None}."
        )
        raise InputError(msg)
    if calibration is not None and (
        ranking is None or not isinstance(calibration, CalibrationReport)
    ):
        msg = (
            "`calibration` must be the CalibrationReport of the `ranking` (from "
            f"`calibration_report`); got {type(calibration).__name__} with "
            f"ranking={'given' if ranking is not None else None}."
        )
        raise InputTypeError(msg)
    sections: list[tuple[str, str, str]] = []  # (id, heading, html)
    cited: list[str] = []
    if evaluation is not None:
        pay = payoff(evaluation.table) if pay is None else pay
        sections += evaluation_sections(evaluation, pay, intervals, max_labels)
        cited += EVALUATION_SOURCES
    if ranking is not None:
        summary = summarize_ranking(ranking, quotas, bins) if summary is None else summary
        calibration = calibration_report(ranking) if calibration is None else calibration
        first = first_threshold(ranking, threshold)
        found = (
            None
            if calibration is None
            else calibration_section(calibration, ranking, ranking_positive, first)
        )
        body = ranking_section(
            ranking,
            summary,
            ranking_positive,
            evaluation,
            threshold,
            None if found is None else found.decision,
        )
        sections.append(("ranking", "Ranking by score", body))
        cited += RANKING_SOURCES
        if found is not None:
            sections.append(("calibration", "Calibration and decision curve", found.html))
            cited += CALIBRATION_SOURCES
    if comparison is not None:
        sections.append(("compare", "Models compared", comparison_section(comparison)))
        cited += COMPARISON_SOURCES
    return page_document(title, _meta(evaluation, ranking, comparison, source), sections, cited)


def page_document(
    title: str, meta: str, sections: list[tuple[str, str, str]], cited: list[str]
) -> str:
    """The page: its head and style, the heading with `meta`, the navigation, the
    sections (id, heading, content), the references of the works `cited`."""
    nav = "".join(f'<a href="#{sid}">{escape(heading)}</a>' for sid, heading, _ in sections)
    body = "".join(
        f'<section id="{sid}"><h2>{escape(heading)}</h2>{content}</section>'
        for sid, heading, content in sections
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="informed"><title>{escaped(title)}</title>'
        f"<style>{CSS}</style></head>\n<body><main>"
        f"<header><h1>{escaped(title)}</h1>{meta}"
        f"<nav>{nav}</nav></header>\n{body}\n{_footer(cited, '<script>' in body)}"
        "</main></body></html>\n"
    )


def comparison_report(
    comparison: Comparison, *, title: str = "Comparison of classifiers", source: str = ""
) -> str:
    """One self-contained HTML document reporting a comparison of models (`informed.compare`):
    `html_report(comparison=comparison, title=title, source=source)`.

    >>> from informed import compare
    >>> result = compare([1, 1, 0, 0] * 5, {"a": [1, 1, 0, 1] * 5, "b": [1, 0, 0, 1] * 5},
    ...                  positive=1, replicates=20, permutations=9, seed=0)
    >>> page = comparison_report(result)
    >>> 'id="compare-models"' in page and "https://" not in page
    True
    """
    return html_report(comparison=comparison, title=title, source=source)


def slices_report(
    result: SliceBootstrap,
    disparities: Disparities | None,
    *,
    overall: float,
    order: str = "informedness",
    title: str = "Slices",
    source: str = "",
    rankings: SliceRankings | None = None,
    merged: str | None = None,
    calibration: SliceCalibration | str | None = None,
) -> str:
    """One self-contained HTML document reporting slices (`informed.slices`); with
    scores, each slice's ranking summaries (`rankings`, computed if not given) and with
    `calibration` (`informed.inference.slice_calibration`, or why there is none) a
    section of calibration within slices; windows `merged` (cumulative, rolling) without
    disparities."""
    slices = result.evaluation.slices
    sizes = (
        f"{len(slices.keys):,} slices · {int(slices.rows.sum()):,} rows"
        if merged is None
        else f"{len(slices.keys):,} windows ({escaped(merged)})"
    )
    meta = (
        f'<p class="meta">Source: <strong>{escaped(source)}</strong> · by '
        f"{escaped(', '.join(slices.by))} · {sizes}</p>"
    )
    sections = [
        ("slices", "Slices", slices_section(result, disparities, overall, order, rankings, merged))
    ]
    cited = list(SLICES_SOURCES)
    if calibration is not None:
        shown = shown_slices(result, order=order)
        html = calibration_slices_section(calibration, shown)
        sections.append(("slice-calibration", "Calibration within slices", html))
        cited.append("Dimitriadis et al. (2021)")
    return page_document(title, meta, sections, cited)


def write_slices_report(path: str | os.PathLike[str], *args: Any, **options: Any) -> Path:
    """Write `slices_report(*args, **options)` to `path` atomically; return it."""
    return write_page(path, slices_report(*args, **options))


def scored_slices_report(
    found: ScoredSlices, *, order: str = "auc", title: str = "Slices", source: str = ""
) -> str:
    """One self-contained HTML document reporting slices read with scores and no predicted
    labels (`informed.report.slice_scores`): each slice's ranking, the spread of AUC and
    calibration within slices."""
    slices = found.slices
    sizes = (
        f"{len(slices.keys):,} slices · {int(slices.rows.sum()):,} rows"
        if found.merged is None
        else f"{len(slices.keys):,} windows ({escaped(found.merged)})"
    )
    meta = (
        f'<p class="meta">Source: <strong>{escaped(source)}</strong> · by '
        f"{escaped(', '.join(slices.by))} · {sizes}</p>"
    )
    shown = scored_shown(found, order)
    sections = [("slices", "Slices", scored_slices_section(found, shown))]
    cited = ["DeLong et al. (1988)", "Holm (1979)"]
    if found.calibration is not None:
        html = calibration_slices_section(found.calibration, shown)
        sections.append(("slice-calibration", "Calibration within slices", html))
        cited.append("Dimitriadis et al. (2021)")
    return page_document(title, meta, sections, cited)


def write_scored_slices_report(path: str | os.PathLike[str], *args: Any, **options: Any) -> Path:
    """Write `scored_slices_report(*args, **options)` to `path` atomically; return it."""
    return write_page(path, scored_slices_report(*args, **options))


def search_report(search: SliceSearch, *, title: str = "Slices least informed",
                  source: str = "") -> str:  # fmt: skip
    """One self-contained HTML document reporting a slice search (`informed.find_slices`)."""
    where = f"Source: <strong>{escaped(source)}</strong> · " if source else ""
    meta = f'<p class="meta">{where}N = {count(search.rows)}</p>'
    section = ("slice-search", "Slices least informed", search_section(search))
    return page_document(title, meta, [section], list(search_sources(search)))


def write_search_report(path: str | os.PathLike[str], search: SliceSearch, **options: Any) -> Path:
    """Write `search_report(search, **options)` to `path` atomically; return it."""
    return write_page(path, search_report(search, **options))


def _check(
    evaluation: Any,
    ranking: Any,
    intervals: Any,
    summary: Any,
    quotas: Sequence[float],
    max_labels: Any,
    comparison: Any,
) -> None:
    """The argument checks of `html_report`."""
    if evaluation is None and ranking is None and comparison is None:
        msg = "html_report needs an `evaluation`, a `ranking` or a `comparison`; got none."
        raise InputError(msg)
    for value, kind, hint in (
        (evaluation, Evaluation, "an Evaluation (from `informed.evaluate`)"),
        (comparison, Comparison, "a Comparison (from `informed.compare`)"),
        (ranking, Ranking, "a Ranking (from `Ranking.from_scores`)"),
        (intervals, Bootstrap, "a Bootstrap (from `informed.bootstrap`)"),
        (summary, RankingSummary, "a RankingSummary (from `summarize_ranking`)"),
    ):
        if value is not None and not isinstance(value, kind):
            name = kind.__name__
            argument = {
                "Evaluation": "evaluation",
                "Comparison": "comparison",
                "Ranking": "ranking",
                "Bootstrap": "intervals",
                "RankingSummary": "summary",
            }[name]
            msg = f"`{argument}` must be {hint}; got {type(value).__name__}."
            raise InputTypeError(msg)
    if intervals is not None and evaluation is None:
        msg = "`intervals` are intervals of an evaluation's measures; pass the `evaluation`."
        raise InputError(msg)
    if intervals is not None and evaluation is not None:
        mine, theirs = evaluation.positive, intervals.positive
        if (mine is None) != (theirs is None) or (
            mine is not None and keyed(mine) != keyed(theirs)
        ):
            msg = (
                f"`intervals` bootstrap positive={theirs!r} but the evaluation has "
                f"positive={mine!r}; bootstrap the same view."
            )
            raise InputError(msg)
    if (len(quotas) or summary is not None) and ranking is None:
        what = f"`quotas` ({list(quotas)})" if len(quotas) else "`summary`"
        msg = f"{what} need a `ranking`; got ranking=None."
        raise InputError(msg)
    if summary is not None and len(quotas):
        msg = "pass `quotas` or a `summary` (which holds its quotas), not both."
        raise InputError(msg)
    if isinstance(max_labels, bool) or not isinstance(max_labels, int) or max_labels < 1:
        msg = f"`max_labels` must be a positive integer; got {max_labels!r}."
        raise InputError(msg)


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """`path` as a Path, if a report can be written there; an InputError naming it if not.

    Checked before any work (`informed.io.output_files`): a new file needs an existing,
    writable folder; an existing path must be a writable regular file (replaced whole), a
    symbolic link to one (its target is written, the link kept), or a character device
    or FIFO (written through, never replaced); a folder, socket or disk is refused.
    """
    from informed.io.output_files import check_output

    check_output(path, "the report")
    return Path(path)


def write_html_report(
    path: str | os.PathLike[str],
    evaluation: Evaluation | None = None,
    ranking: Ranking | None = None,
    **options: Any,
) -> Path:
    """Write `html_report(evaluation, ranking, **options)` to `path` atomically; return it.

    The path is checked first (`check_output_path`). The page is written to a temporary
    file in the same folder, then moved over `path` with `os.replace`: a reader never
    sees half a report, and an error leaves any earlier report in place. An error names
    `path`, never the temporary file. A device or FIFO is written through, never
    replaced; a symbolic link is followed (`informed.io.output_files`).
    """
    return write_page(path, html_report(evaluation, ranking, **options))


def write_comparison_report(
    path: str | os.PathLike[str], comparison: Comparison, **options: Any
) -> Path:
    """Write `comparison_report(comparison, **options)` to `path` atomically; return it."""
    return write_page(path, comparison_report(comparison, **options))


def write_page(path: str | os.PathLike[str], page: str) -> Path:
    """`page` written to `path` atomically (see `write_html_report`)."""
    from informed.io.output_files import write_output

    return write_output(path, page, "the report")


def _meta(
    evaluation: Evaluation | None,
    ranking: Ranking | None,
    comparison: Comparison | None,
    source: str,
) -> str:
    parts = []
    if source:
        parts.append(f"Source: <strong>{escaped(source)}</strong>")
    if evaluation is not None:
        table = evaluation.table
        parts.append(f"N = {count(table.n)}{' (weighted)' if table.weighted else ''}")
        parts.append(
            f"{len(table.predicted)} predicted labels × {len(table.actual)} actual classes"
        )
        if evaluation.positive is not None:
            parts.append(f"positive label <strong>{escaped(evaluation.positive)}</strong>")
    if ranking is not None:
        parts.append(
            f"ranking of {count(ranking.n)} scored rows ({count(ranking.n_positive)} positive, "
            f"{count(ranking.n_negative)} negative; {ranking.n_groups:,} distinct scores)"
        )
    if comparison is not None:
        weighted = " (weighted)" if comparison.weighted else ""
        parts.append(f"{len(comparison.models)} models on N = {count(comparison.n)}{weighted}")
        if comparison.positive is not None:
            parts.append(f"positive label <strong>{escaped(comparison.positive)}</strong>")
    return f'<p class="meta">{" · ".join(parts)}</p>'


def _footer(cited: list[str], scripted: bool) -> str:
    items = "".join(f"<li>{escaped(reference)}</li>" for reference in references_of(cited))
    what = (
        "its one script, inline, moves the operating point; nothing fetched"
        if scripted
        else "no script, nothing fetched"
    )
    return (
        f"<footer><p>Made by <code>informed</code>: a self-contained page ({what}). Rows of "
        "every contingency table are predicted labels, columns actual classes, as in "
        "Powers (2003).</p>"
        f'<p>References:</p><ul id="references">{items}</ul></footer>'
    )
