"""The report of slices: a terminal table and a JSON document (its CSV rows:
`informed.report.slices_csv`).

The terminal table lists slices sorted by informedness (n, B with its interval, M, with
scores the AUC, the label-bias diagnosis, the flag of a slice too small to say
anything), then each slice's difference from the rest (with scores, its AUC's too) and
the ranges across slices (`informed.report.slice_disparities`: each over the slices of
adequate size, those left out named). Ten thousand slices stay readable: the largest
slices and those of lowest and highest informedness are shown and the others pooled
into one row (their summed table); the JSON document and the CSV hold every slice,
with scores every summary of each slice's ranking (`informed.inference.slice_rankings`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from informed._common import cut_apart, json_float, printable
from informed._terminal import PlainColumn, plain_table, report_lines
from informed.inference.disparities import COMPARED, Disparities, differs
from informed.inference.interval import Interval, undefined_counts, undefined_where
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.measures import MEASURES
from informed.ranking.document import AREAS, value_range
from informed.ranking.document import SUMMARIES as RANKING_SUMMARIES
from informed.ranking.registry import RANKING_MEASURES
from informed.report.slice_calibration import calibration_json, calibration_lines
from informed.report.slice_disparities import (
    AUC_NOTE,
    SUMMARY_TITLES,
    auc_json,
    fixed,
    interval_text,
    p_text,
    summary_json,
    summary_lines,
    value_text,
)
from informed.slices.evaluation import SHOWN_SLICES
from informed.slices.evaluation import shown_slices as shown
from informed.table.evaluation import evaluate
from informed.table.storage import from_cells
from informed.table.table import Table

if TYPE_CHECKING:  # types only: the labels' report imports neither
    from informed.inference.slice_calibration import SliceCalibration
    from informed.inference.slice_rankings import RankingOfSlice, SliceRankings

__all__ = [
    "SHOWN_SLICES",
    "differs",
    "fixed",
    "merged_note",
    "pooled_table",
    "ranking_definitions",
    "ranking_json",
    "rankings_of",
    "report_lines",
    "shown_slices",
    "slices_document",
    "slices_text",
]


def shown_slices(
    result: SliceBootstrap, limit: int = SHOWN_SLICES, order: str = "informedness"
) -> list[int]:
    """The slices a report lists (`informed.slices.evaluation.shown_slices` of the result's
    evaluation): all when few; else the largest and the extremes of informedness."""
    return shown(result.evaluation, limit, order)


def rankings_of(
    result: SliceBootstrap, rankings: SliceRankings | None = None
) -> SliceRankings | None:
    """The slices' ranking summaries given, or (with scores) those of the slices at the
    level of the bootstrap; None without scores (`slice_rankings` left unimported)."""
    slices = result.evaluation.slices
    if rankings is not None or slices.rankings is None:
        return rankings
    from informed.inference.slice_rankings import slice_rankings  # loaded with scores only

    return slice_rankings(slices, level=result.level, min_count=result.evaluation.min_count)


_value = value_text
_interval = interval_text


def _n(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.3g}"


def pooled_table(result: SliceBootstrap, shown: list[int]) -> Table | None:
    """The table of the slices not shown, summed."""
    slices = result.evaluation.slices
    cells = slices.cells
    if cells is None or len(shown) == len(slices.keys):
        return None
    keep = ~np.isin(cells.slice, shown)
    stored = from_cells(
        cells.row[keep],
        cells.col[keep],
        cells.values[keep],
        (len(cells.predicted), len(cells.actual)),
        cells.values.dtype,
        "auto",
    )
    return Table(stored, cells.predicted, cells.actual)


def merged_note(merged: str) -> str:
    """Why windows merged (cumulative, rolling) are not compared with each other."""
    return (
        f"The windows overlap ({merged}): no window is compared with the rest or with a "
        "reference (a difference would count rows twice and treat overlapping windows as "
        "independent); compare the windows as they are, without --cumulative or --rolling."
    )


def _sizes(slices: Any, merged: str | None, rows: int | None) -> str:
    """The header's count: slices and rows, or merged windows of the rows read."""
    if merged is None:
        return f"{len(slices.keys):,} slices, {int(slices.rows.sum()):,} rows"
    read = f" of {rows:,} rows" if rows is not None else ""
    return f"{len(slices.keys):,} windows ({merged}){read}"


def slices_text(
    result: SliceBootstrap,
    disparities: Disparities | None,
    source: str,
    order: str = "informedness",
    rankings: SliceRankings | None = None,
    merged: str | None = None,
    rows: int | None = None,
    width: int | None = None,
    calibration: SliceCalibration | str | None = None,
) -> str:
    """The terminal report (user text escaped); slices sorted by informedness, or by key
    (`order="key"`: time windows in time order); with scores, each slice's AUC, and with
    `calibration` (`informed.inference.slice_calibration`, or why there is none) each
    shown slice's MCB and the spread of MCB at the end. Windows
    `merged` ("cumulative", "rolling, 4 of 7d each") overlap: there are no
    `disparities` then, and the header counts the `rows` read. With a `width` (a
    terminal's), its sentences are wrapped to it and a table too wide is split into
    blocks of its columns, each repeating the slice (`informed._terminal.plain_table`);
    without, each sentence and each row is one line (for a file or a pipe, to be
    searched)."""
    rankings = rankings_of(result, rankings)
    evaluation = result.evaluation
    slices = evaluation.slices
    level = f"{result.level:.0%}"
    positive = evaluation.positive
    lines = [
        f"informed: {printable(source)} by {', '.join(printable(b) for b in slices.by)}: "
        + _sizes(slices, merged, rows)
        + (f", positive {printable(positive)!s}" if positive is not None else ""),
        "",
    ]
    if not slices.keys:
        lines.append("No slice: there are no rows to evaluate or compare.")
        return report_lines(lines, width)
    shown = shown_slices(result, order=order)
    # as wide as the longest name shown (up to 30), so no shown name is cut short of that
    full = [slices.name(slices.keys[s]) for s in shown]
    names = min(30, max([5, *(len(printable(x)) for x in full)]))
    named = dict(zip(shown, cut_apart(full, names), strict=True))
    auc = [PlainColumn("AUC", 6)] if rankings is not None else []
    columns = [
        PlainColumn("slice", names, "<", 0, wraps=True),
        PlainColumn("n", 9),
        PlainColumn("informedness", 12),
        PlainColumn(level + " interval", 18, "<", 1),
        PlainColumn("markedness", 10),
        *auc,
        PlainColumn("bias diagnosis", 31, "<", wraps=True),
        PlainColumn("flag", 0, "<", wraps=True),
    ]
    body: list[list[str]] = []
    for s in shown:
        interval = result.intervals["informedness"][s]
        flag = evaluation.row_flag(s)
        body.append(
            [
                named[s],
                _n(evaluation.n[s]),
                _value(evaluation.values["informedness"][s]),
                _interval(interval),
                _value(evaluation.values["markedness"][s]),
                *([] if rankings is None else [_value(rankings[s].values["auc"])]),
                printable(evaluation.bias_diagnosis(s)),
                printable(_flags(flag, rankings, s)),
            ]
        )
    pooled = pooled_table(result, shown)
    if pooled is not None:  # its last cell, a note, spans the rest of the line
        found = evaluate(pooled, positive=positive)
        body.append(
            [
                f"… {len(slices.keys) - len(shown):,} more, pooled",
                _n(pooled.n),
                _value(found.measures["informedness"]),
                "",
                _value(found.measures["markedness"]),
                "(every slice: --format json)",
            ]
        )
    lines += plain_table(columns, body, width)
    lines += _undefined_lines(
        [(full[i], result.intervals["informedness"][s]) for i, s in enumerate(shown)],
        "informedness",
    )
    tail = (
        []
        if calibration is None
        else ["", *calibration_lines(calibration, shown, names, positive, width)]
    )
    if disparities is None:
        lines += ["", merged_note(merged or "merged"), *tail]
        return report_lines(lines, width)
    reference = disparities.reference or ()
    ref_name = printable(slices.name(reference)) if reference else ""
    lines += [
        "",
        f"Each slice minus the rest of the rows ({level} intervals; p Holm-adjusted); "
        f"'differs' where its informedness minus that of {ref_name!r} (the reference) "
        "excludes 0:",
    ]
    scored = "auc" in disparities.vs_rest
    columns = [
        PlainColumn("slice", names, "<", 0, wraps=True),
        PlainColumn("d informedness", 15),
        PlainColumn("interval", 18, "<", 1),
        PlainColumn("p", 6, ">", 1),
        PlainColumn("d TPR", 7),
        PlainColumn("d FPR", 7),
        PlainColumn("d bias pP", 9),
    ]
    if scored:
        columns += [
            PlainColumn("d AUC", 7),
            PlainColumn("interval", 18, "<", 1),
            PlainColumn("p", 6, ">", 1),
        ]
    columns.append(PlainColumn("vs reference", 0, "<", wraps=True))
    body = []
    for s in shown:
        d = disparities.vs_rest
        auc_cells = []
        if scored:
            q = disparities.p_rest["auc"][s]
            auc_cells = [_value(d["auc"][s].estimate), _interval(d["auc"][s]), p_text(q)]
        body.append(
            [
                named[s],
                _value(d["informedness"][s].estimate),
                _interval(d["informedness"][s]),
                p_text(disparities.p_rest["informedness"][s]),
                _value(d["recall"][s].estimate),
                _value(d["fallout"][s].estimate),
                _value(d["bias"][s].estimate),
                *auc_cells,
                differs(disparities, s),
            ]
        )
    lines += plain_table(columns, body, width)
    lines += _undefined_lines(
        [(full[i], disparities.vs_rest["informedness"][s]) for i, s in enumerate(shown)],
        "d informedness",
    )
    if scored:
        lines.append(AUC_NOTE)
    lines.append("")
    lines += summary_lines(disparities)
    if positive is not None:
        lines.append(
            "With two classes informedness = TPR - FPR (Powers 2011): a slice's gap in "
            "informedness is its TPR gap minus its FPR gap."
        )
    return report_lines(lines + tail, width)


def _undefined_lines(named: list[tuple[str, Interval]], title: str) -> list[str]:
    """Under a table, where replicates were undefined and left out of a shown slice's
    interval of `title`, how many (`undefined_where`); none where none was."""
    note = undefined_where(named, title, "slice")
    return [f"{printable(note)}."] if note else []


def _flags(flag: str, rankings: SliceRankings | None, s: int) -> str:
    """A slice's flag, and its AUC's (few positives or negatives) when that differs."""
    found = None if rankings is None else rankings[s].flag
    if not found or found.split(": ", 1)[-1] in flag:
        return flag
    return f"{flag}; {found}" if flag else found


def slices_document(
    result: SliceBootstrap,
    disparities: Disparities | None,
    source: str,
    rankings: SliceRankings | None = None,
    merged: str | None = None,
    calibration: SliceCalibration | str | None = None,
) -> dict[str, Any]:
    """The JSON document: every slice, its measures, intervals, flags and differences,
    and with scores every summary of its ranking (AUC with DeLong's interval, average
    hit rate, average Qrecall, PEM and its areas, each undefined one with its reason);
    windows `merged` have no differences (null, and "windows" says why); "calibration"
    is `calibration`'s document (or why there is none; null when not given)."""
    rankings = rankings_of(result, rankings)
    evaluation = result.evaluation
    slices = evaluation.slices
    entries = []
    for s, key in enumerate(slices.keys):
        entries.append(
            {
                "key": list(key),
                "name": slices.name(key),
                "rows": int(slices.rows[s]),
                "n": json_float(float(evaluation.n[s])),
                "measures": {
                    name: json_float(float(evaluation.values[name][s])) for name in MEASURES
                },
                "denominators": {
                    name: json_float(float(evaluation.denominators[name][s])) for name in MEASURES
                },
                "intervals": {
                    name: intervals[s].as_list() for name, intervals in result.intervals.items()
                },
                **_dropped(result, s),
                "flag": evaluation.flags[s],
                "bias_diagnosis": evaluation.bias_diagnosis(s),
                "ranking": None if rankings is None else ranking_json(rankings[s]),
                "vs_rest": None if disparities is None else _versus(disparities, s, "rest"),
                "vs_reference": (
                    None if disparities is None else _versus(disparities, s, "reference")
                ),
            }
        )
    return {
        "kind": "informed.slices_report",
        "version": 1,
        "source": source,
        "by": list(slices.by),
        "positive": evaluation.positive,
        "scores_only": False,
        "level": result.level,
        "method": result.method,
        "replicates": result.replicates,
        "min_count": evaluation.min_count,
        "reference": None if disparities is None else list(disparities.reference or ()),
        "windows": None if merged is None else {"merged": merged, "note": merged_note(merged)},
        "slices": entries,
        "disparities": None
        if disparities is None
        else {key: summary_json(disparities, key) for key in SUMMARY_TITLES},
        "ranking_definitions": None if rankings is None else ranking_definitions(),
        "auc_differences": (
            AUC_NOTE if disparities is not None and "auc" in disparities.vs_rest else None
        ),
        "calibration": calibration_json(calibration),
    }


def _dropped(result: SliceBootstrap, s: int) -> dict[str, Any]:
    """A slice's "intervals_undefined_replicates", where any was: how many replicates
    left a measure undefined and were left out of its interval (as `evaluate` says)."""
    dropped = undefined_counts({name: found[s] for name, found in result.intervals.items()})
    return {"intervals_undefined_replicates": dropped} if dropped else {}


def _versus(disparities: Disparities, s: int, family: str) -> dict[str, Any]:
    """A slice's differences from the rest (or the reference), each with its interval."""
    found = disparities.vs_rest if family == "rest" else disparities.vs_reference
    p = disparities.p_rest if family == "rest" else disparities.p_reference
    document: dict[str, Any] = {
        name: {
            "estimate": json_float(found[name][s].estimate),
            "interval": found[name][s].as_list(),
            "reason": found[name][s].reason,
            "undefined_replicates": found[name][s].undefined_replicates,
            "p_holm": json_float(p[name][s]),
        }
        for name in COMPARED
    }
    auc = auc_json(disparities, s, family)
    if auc is not None:
        document["auc"] = auc
    return document


def ranking_json(found: RankingOfSlice) -> dict[str, Any]:
    """A slice's ranking summaries (nan as None, each with its reason)."""
    document: dict[str, Any] = {
        "n_positive": json_float(found.n_positive),
        "n_negative": json_float(found.n_negative),
        **{name: json_float(found.values[name]) for name in RANKING_SUMMARIES},
        "pem_areas": {name: json_float(found.values[name]) for name in AREAS},
        "auc_interval": found.auc_interval.as_list(),
        "auc_interval_method": found.auc_interval.method,
        "auc_interval_reason": found.auc_interval.reason,
        "flag": found.flag,
    }
    if found.reasons:
        document["undefined"] = dict(found.reasons)
    return document


def ranking_definitions() -> dict[str, Any]:
    """The ranking registry's definition of each summary the slices report."""
    return {
        name: {
            "title": RANKING_MEASURES[name].title,
            "definition": RANKING_MEASURES[name].definition,
            "range": value_range(RANKING_MEASURES[name].low, RANKING_MEASURES[name].high),
            "chance": RANKING_MEASURES[name].chance,
            "source": RANKING_MEASURES[name].source,
        }
        for name in (*RANKING_SUMMARIES, *AREAS)
    }
