"""The report of slices read with scores and no predicted labels: each slice's ranking
and calibration, as a terminal table, a JSON document and CSV rows.

Without predicted labels a slice has no Table, so no informedness, no rates and no
bootstrap of them: what it has is its Ranking. The report lists each slice's AUC with
DeLong's interval and its flag (fewer than 30 real positives or negatives), each slice's
AUC minus the rest's and the reference's (`informed.inference.auc_differences`), the
spread of AUC across the slices of adequate size (`informed.inference.slice_auc`) and,
when the scores are probabilities, calibration within slices
(`informed.inference.slice_calibration`). Slices are sorted by AUC (time windows by
time); of many, the largest and those of lowest and highest AUC are listed, the JSON
document and the CSV hold every one. Nothing is computed here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from informed._common import cut_apart, json_float, printable
from informed._terminal import PlainColumn, plain_table, report_lines
from informed.inference.auc_differences import AucDifferences
from informed.inference.interval import Interval
from informed.inference.slice_auc import AucSpread
from informed.inference.slice_calibration import SliceCalibration
from informed.inference.slice_rankings import SliceRankings
from informed.ranking.document import SUMMARIES as RANKING_SUMMARIES
from informed.report.document import cells_text
from informed.report.slice_calibration import calibration_json, calibration_lines, spread_lines
from informed.report.slice_disparities import (
    AUC_CSV,
    AUC_NOTE,
    auc_difference_json,
    counted_interval_text,
    interval_text,
    p_text,
    value_text,
)
from informed.report.slices import merged_note, ranking_definitions, ranking_json
from informed.slices.evaluation import SHOWN_SLICES
from informed.slices.slices import Slices

__all__ = [
    "AUC_SPREAD_NOTE",
    "ScoredSlices",
    "scored_csv",
    "scored_differs",
    "scored_document",
    "scored_shown",
    "scored_text",
    "spread_json",
]

AUC_SPREAD_NOTE = (
    "spread of AUC: the largest slice AUC minus the smallest, over the slices of adequate "
    "size; percentile interval from a case bootstrap within each slice (a range is biased "
    "up in a resample, so when the AUCs are equal the interval may lie above the estimate)."
)
"""What the spread of AUC is, as the terminal and the page say it."""


@dataclass(frozen=True, eq=False)
class ScoredSlices:
    """What the report of slices without predicted labels shows (computed elsewhere).

    Attributes
    ----------
    slices : Slices
        Built with scores and no predictions (a Ranking per slice, no Table).
    rankings : SliceRankings
        Each slice's ranking summaries, AUC with DeLong's interval.
    spread : AucSpread
        Each slice's AUC and the spread of AUC across slices.
    differences : AucDifferences or None
        Each slice's AUC minus the rest's and the reference's; None for overlapping
        windows (`merged`).
    reference : int or None
        The reference slice's position.
    calibration : SliceCalibration, str or None
        Calibration within slices, or why there is none (scores not probabilities).
    merged : str or None
        "cumulative", "rolling, 4 of 7d each": the windows overlap.
    """

    slices: Slices
    rankings: SliceRankings
    spread: AucSpread
    differences: AucDifferences | None
    reference: int | None
    calibration: SliceCalibration | str | None
    merged: str | None = None


def scored_shown(found: ScoredSlices, order: str = "auc", limit: int = SHOWN_SLICES) -> list[int]:
    """The slices a report lists: all when few; else the largest and the extremes of AUC;
    sorted by AUC, highest first (undefined last), or by key (`order="key"`: time)."""
    n = found.slices.n
    auc = np.asarray(found.spread.auc)
    S = auc.size
    if limit >= S:
        chosen = list(range(S))
    else:
        by_size = np.argsort(-n, kind="stable")[: limit // 2].tolist()
        defined = np.flatnonzero(~np.isnan(auc))
        ordered = defined[np.argsort(auc[defined], kind="stable")].tolist()
        tail = limit // 4
        chosen = list(dict.fromkeys([*by_size, *ordered[:tail], *ordered[-tail:]]))
    if order == "key":
        return sorted(chosen)
    return sorted(chosen, key=lambda s: (math.isnan(auc[s]), -np.nan_to_num(auc[s])))


def _n(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.3g}"


def _range_text(interval: Interval) -> str:
    if math.isnan(interval.estimate):
        return f"— ({interval.reason})"
    return f"{value_text(interval.estimate)} {counted_interval_text(interval)}"


def scored_differs(found: ScoredSlices, s: int) -> str:
    """'reference', 'differs' where the AUC minus the reference's excludes 0, else ''."""
    if found.differences is None or found.reference is None:
        return ""
    if s == found.reference:
        return "reference"
    d = found.differences.vs_reference[s]
    return "differs" if not math.isnan(d.low) and (d.low > 0 or d.high < 0) else ""


def scored_text(
    found: ScoredSlices,
    source: str,
    order: str = "auc",
    rows: int | None = None,
    width: int | None = None,
) -> str:
    """The terminal report (user text escaped): each shown slice's n, real positives and
    negatives, AUC with its interval and flag; each one's AUC minus the rest's; the
    spread of AUC; calibration within slices. With a `width` (a terminal's) sentences
    are wrapped to it and a table too wide is split into blocks of its columns, each
    repeating the slice (`informed._terminal.plain_table`)."""
    slices = found.slices
    level = f"{found.rankings.level:.0%}"
    positive = slices.positive
    count = (
        f"{len(slices.keys):,} slices, {int(slices.rows.sum()):,} rows"
        if found.merged is None
        else f"{len(slices.keys):,} windows ({found.merged})"
        + (f" of {rows:,} rows" if rows is not None else "")
    )
    lines = [
        f"informed: {printable(source)} by {', '.join(printable(b) for b in slices.by)}: "
        f"{count}" + (f", positive {printable(positive)!s}" if positive is not None else ""),
        "Scores without predicted labels: each slice's ranking and calibration (give "
        "--predicted COL for its table, informedness and rates).",
        "",
    ]
    if not slices.keys:
        lines.append("No slice: there are no rows to evaluate or compare.")
        return report_lines(lines, width)
    shown = scored_shown(found, "key" if order == "key" else "auc")
    full = [slices.name(slices.keys[s]) for s in shown]
    names = min(30, max([5, *(len(printable(x)) for x in full)]))
    named = dict(zip(shown, cut_apart(full, names), strict=True))
    columns = [
        PlainColumn("slice", names, "<", 0, wraps=True),
        PlainColumn("n", 7),
        PlainColumn("n+", 6),
        PlainColumn("n-", 6),
        PlainColumn("AUC", 6),
        PlainColumn(level + " interval", 16, "<", 1),
        PlainColumn("flag", 0, "<", wraps=True),
    ]
    body: list[list[str]] = []
    for s in shown:
        summary = found.rankings[s]
        body.append(
            [
                named[s],
                _n(slices.n[s]),
                _n(summary.n_positive),
                _n(summary.n_negative),
                value_text(summary.values["auc"]),
                interval_text(summary.auc_interval),
                printable(summary.flag or ""),
            ]
        )
    lines += plain_table(columns, body, width)
    if len(shown) < len(slices.keys):
        left = [s for s in range(len(slices.keys)) if s not in set(shown)]
        lines.append(
            f"… {len(left):,} more slices, {_n(float(slices.n[left].sum()))} rows "
            "(every slice: --format json)"
        )
    lines.append(f"AUC interval: DeLong et al. (1988), {level}, on the logit scale.")
    differences = found.differences
    if differences is None:
        lines += ["", merged_note(found.merged or "merged")]
    else:
        reference = found.reference
        ref_name = "" if reference is None else printable(slices.name(slices.keys[reference]))
        lines += [
            "",
            f"Each slice's AUC minus the rest's ({level} intervals; p Holm-adjusted); "
            f"'differs' where its AUC minus that of {ref_name!r} (the reference) excludes 0:",
        ]
        columns = [
            PlainColumn("slice", names, "<", 0, wraps=True),
            PlainColumn("d AUC", 7),
            PlainColumn("interval", 17, "<", 1),
            PlainColumn("p", 6, ">", 1),
            PlainColumn("vs reference", 0, "<", wraps=True),
        ]
        body = []
        for s in shown:
            d = differences.vs_rest[s]
            body.append(
                [
                    named[s],
                    value_text(d.estimate),
                    interval_text(d),
                    p_text(differences.p_rest[s]),
                    scored_differs(found, s),
                ]
            )
        lines += plain_table(columns, body, width)
        lines.append(AUC_NOTE)
    lines += ["", *_spread_lines(found.spread)]
    if found.calibration is not None:
        lines += ["", *calibration_lines(found.calibration, shown, names, positive, width)]
    return report_lines(lines, width)


def _spread_lines(spread: AucSpread) -> list[str]:
    """The spread of AUC with its interval, the slices it is over and those left out."""
    lines = spread_lines(spread, "AUC", _range_text, _left_out)
    lines.append(AUC_SPREAD_NOTE)
    return lines


def _left_out(spread: AucSpread) -> str:
    """The first five slices left out of the spread of AUC, with their counts."""
    slices = spread.slices
    named = [f"{slices.name(slices.keys[s])!r} ({why})" for s, why in spread.left_out[:5]]
    more = len(spread.left_out) - 5
    return ", ".join(named) + (f" and {more:,} more" if more > 0 else "")


def spread_json(spread: AucSpread) -> dict[str, Any]:
    """The spread of AUC: over the slices of adequate size, those left out, every slice."""
    slices = spread.slices

    def interval(found: Interval) -> dict[str, Any]:
        return {
            "estimate": json_float(found.estimate),
            "interval": found.as_list(),
            "reason": found.reason,
            "undefined_replicates": found.undefined_replicates,
        }

    def named(s: int | None) -> str | None:
        return None if s is None else slices.name(slices.keys[s])

    return {
        **interval(spread.spread),
        "over": f"slices {spread.rule_text}",
        "left_out": [
            {"key": list(slices.keys[s]), "name": slices.name(slices.keys[s]), "reason": why}
            for s, why in spread.left_out
        ],
        "every_slice": interval(spread.spread_all),
        "highest": named(spread.highest),
        "lowest": named(spread.lowest),
        "method": "percentile",
        "replicates": spread.replicates,
        "definition": AUC_SPREAD_NOTE,
    }


def scored_document(found: ScoredSlices, source: str) -> dict[str, Any]:
    """The JSON document (kind "informed.slices_report", `"scores_only": true`): every
    slice's ranking summaries (AUC with DeLong's interval, average hit rate, average
    Qrecall, PEM and its areas, the reasons of the undefined ones), its AUC minus the
    rest's and the reference's (`"vs_rest"`, `"vs_reference"`: `"auc"`), the spread of
    AUC (`"disparities"`: `"auc_spread"`) and calibration within slices."""
    slices = found.slices
    differences = found.differences
    entries = []
    for s, key in enumerate(slices.keys):
        versus: dict[str, Any] = {"vs_rest": None, "vs_reference": None}
        if differences is not None:
            versus = {
                "vs_rest": {
                    "auc": auc_difference_json(differences.vs_rest[s], differences.p_rest[s])
                },
                "vs_reference": {
                    "auc": auc_difference_json(
                        differences.vs_reference[s], differences.p_reference[s]
                    )
                },
            }
        entries.append(
            {
                "key": list(key),
                "name": slices.name(key),
                "rows": int(slices.rows[s]),
                "n": json_float(float(slices.n[s])),
                "ranking": ranking_json(found.rankings[s]),
                **versus,
            }
        )
    merged = found.merged
    return {
        "kind": "informed.slices_report",
        "version": 1,
        "source": source,
        "by": list(slices.by),
        "positive": slices.positive,
        "scores_only": True,
        "level": found.rankings.level,
        "method": "percentile",
        "replicates": found.spread.replicates,
        "min_count": found.rankings.min_count,
        "reference": None if found.reference is None else list(slices.keys[found.reference]),
        "windows": None if merged is None else {"merged": merged, "note": merged_note(merged)},
        "slices": entries,
        "disparities": None if merged is not None else {"auc_spread": spread_json(found.spread)},
        "ranking_definitions": ranking_definitions(),
        "auc_differences": None if differences is None else AUC_NOTE,
        "calibration": calibration_json(found.calibration),
    }


def scored_csv(found: ScoredSlices, *, raw: bool = False) -> str:
    """One CSV row per slice: its key, rows, n, real positives and negatives, AUC with
    its interval, the other ranking summaries, the flag, and the AUC differences from
    the rest and the reference (empty for overlapping windows)."""
    slices = found.slices
    others = [name for name in RANKING_SUMMARIES if name != "auc"]
    header: list[Any] = [
        *slices.by,
        "rows",
        "n",
        "n_positive",
        "n_negative",
        "auc",
        "auc_low",
        "auc_high",
        *others,
        "flag",
        *AUC_CSV,
    ]
    rows: list[list[Any]] = [header]
    differences = found.differences
    for s, key in enumerate(slices.keys):
        summary = found.rankings[s]
        interval = summary.auc_interval
        compared: list[Any] = [None] * len(AUC_CSV)
        if differences is not None:
            compared = []
            for d, p in (
                (differences.vs_rest[s], differences.p_rest[s]),
                (differences.vs_reference[s], differences.p_reference[s]),
            ):
                compared += [json_float(v) for v in (d.estimate, d.low, d.high, p)]
        numbers = (
            float(slices.n[s]),
            summary.n_positive,
            summary.n_negative,
            summary.values["auc"],
            interval.low,
            interval.high,
            *(summary.values[name] for name in others),
        )
        rows.append(
            [
                *key,
                int(slices.rows[s]),
                *(json_float(v) for v in numbers),
                summary.flag,
                *compared,
            ]
        )
    return cells_text(rows, raw)
