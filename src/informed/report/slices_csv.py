"""The slices report's CSV rows: one row per slice, its key, n, informedness and
markedness with their intervals, rates, flag and bias diagnosis, its differences from the
rest, and with scores the summaries of its ranking (`informed.report.slices` the terminal
table and the JSON document)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from informed.inference.disparities import COMPARED, Disparities
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.ranking.document import SUMMARIES as RANKING_SUMMARIES
from informed.report.document import FORMULA_STARTS, csv_text
from informed.report.slice_disparities import AUC_CSV, auc_csv_cells
from informed.report.slices import rankings_of

if TYPE_CHECKING:
    from informed.inference.slice_rankings import RankingOfSlice, SliceRankings

__all__ = ["slices_csv"]

_OTHER_SUMMARIES = tuple(name for name in RANKING_SUMMARIES if name != "auc")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _text_cell(text: str, raw: bool) -> str:
    if raw or _NUMBER.fullmatch(text):
        return text
    return "'" + text if text[:1] in (*FORMULA_STARTS, "'") else text


def _number(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else repr(float(value))


def slices_csv(
    result: SliceBootstrap,
    disparities: Disparities | None,
    *,
    raw: bool = False,
    rankings: SliceRankings | None = None,
) -> str:
    """One CSV row per slice: key, n, B and M with intervals, rates, flag, differences;
    with scores, the ranking summaries (AUC with its interval, average hit rate, average
    Qrecall, PEM). Without disparities (windows merged) their cells are empty."""
    rankings = rankings_of(result, rankings)
    scored = [] if rankings is None else ["auc", "auc_low", "auc_high", *_OTHER_SUMMARIES, *AUC_CSV]
    evaluation = result.evaluation
    slices = evaluation.slices
    header = [
        *slices.by,
        "rows",
        "n",
        "informedness",
        "informedness_low",
        "informedness_high",
        "markedness",
        "markedness_low",
        "markedness_high",
        "recall",
        "fallout",
        "bias",
        "flag",
        "bias_diagnosis",
        *(f"d_{name}_vs_rest" for name in COMPARED),
        "d_informedness_low",
        "d_informedness_high",
        "p_holm_informedness",
        *scored,
    ]
    rows = [header]
    for s, key in enumerate(slices.keys):
        b, m = result.intervals["informedness"][s], result.intervals["markedness"][s]
        rows.append(
            [
                *("" if v is None else _text_cell(str(v), raw) for v in key),
                str(int(slices.rows[s])),
                _number(float(evaluation.n[s])),
                _number(b.estimate),
                _number(b.low),
                _number(b.high),
                _number(m.estimate),
                _number(m.low),
                _number(m.high),
                *(_number(float(evaluation.values[n][s])) for n in ("recall", "fallout", "bias")),
                _text_cell(evaluation.flags[s] or "", raw),
                _text_cell(evaluation.bias_diagnosis(s), raw),
                *_difference_cells(disparities, s),
                *([] if rankings is None else _ranking_cells(rankings[s])),
                *([] if rankings is None else auc_csv_cells(disparities, s)),
            ]
        )
    return csv_text(rows)


def _difference_cells(disparities: Disparities | None, s: int) -> list[str]:
    """A slice's differences from the rest as CSV cells (empty without disparities)."""
    if disparities is None:
        return [""] * (len(COMPARED) + 3)
    d = disparities.vs_rest["informedness"][s]
    return [
        *(_number(disparities.vs_rest[n][s].estimate) for n in COMPARED),
        _number(d.low),
        _number(d.high),
        _number(disparities.p_rest["informedness"][s]),
    ]


def _ranking_cells(found: RankingOfSlice) -> list[str]:
    """A slice's AUC with its interval, then the other summaries, as CSV cells."""
    interval = found.auc_interval
    return [
        _number(found.values["auc"]),
        _number(interval.low),
        _number(interval.high),
        *(_number(found.values[name]) for name in _OTHER_SUMMARIES),
    ]
