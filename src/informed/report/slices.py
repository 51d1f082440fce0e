"""The report of slices: a terminal table, a JSON document and CSV rows.

The terminal table lists slices sorted by informedness (n, B with its interval, M, the
label-bias diagnosis, the flag of a slice too small to say anything), then each slice's
difference from the rest and the summaries of the disparities. Ten thousand slices stay
readable: the largest slices and those of lowest and highest informedness are shown and
the others pooled into one row (their summed table); the JSON document and the CSV hold
every slice.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from informed._common import json_float, printable
from informed.inference.disparities import COMPARED, Disparities
from informed.inference.interval import Interval
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.measures import MEASURES
from informed.ranking import auc, pem
from informed.report.document import FORMULA_STARTS, csv_text
from informed.slices.evaluation import SHOWN_SLICES
from informed.slices.evaluation import shown_slices as shown
from informed.table.evaluation import evaluate
from informed.table.storage import from_cells
from informed.table.table import Table

__all__ = ["SHOWN_SLICES", "shown_slices", "slices_csv", "slices_document", "slices_text"]


SUMMARIES = {
    "equalized_odds_difference": "equalized-odds difference, max(|dTPR|, |dFPR|)",
    "demographic_parity_difference": "demographic-parity difference (bias pP)",
    "informedness_spread": "spread of informedness (max - min)",
}
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def shown_slices(
    result: SliceBootstrap, limit: int = SHOWN_SLICES, order: str = "informedness"
) -> list[int]:
    """The slices a report lists (`informed.slices.evaluation.shown_slices` of the result's
    evaluation): all when few; else the largest and the extremes of informedness."""
    return shown(result.evaluation, limit, order)


def _value(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:+.3f}" if value < 0 else f"{value:.3f}"


def _interval(interval: Interval) -> str:
    if math.isnan(interval.low):
        return "[—]"
    return f"[{interval.low:.3f}, {interval.high:.3f}]"


def _n(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.3g}"


def _pooled(result: SliceBootstrap, shown: list[int]) -> Table | None:
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


def slices_text(
    result: SliceBootstrap, disparities: Disparities, source: str, order: str = "informedness"
) -> str:
    """The terminal report (user text escaped); slices sorted by informedness, or by key
    (`order="key"`: time windows in time order)."""
    evaluation = result.evaluation
    slices = evaluation.slices
    level = f"{result.level:.0%}"
    positive = evaluation.positive
    lines = [
        f"informed: {printable(source)} by {', '.join(printable(b) for b in slices.by)}: "
        f"{len(slices.keys):,} slices, {int(slices.rows.sum()):,} rows"
        + (f", positive {printable(positive)!s}" if positive is not None else ""),
        "",
    ]
    width = max([5, *(len(printable(slices.name(k))) for k in slices.keys[: SHOWN_SLICES * 4])])
    width = min(width, 30)
    head = f"{'slice':<{width}}  {'n':>9}  {'informedness':>12} {level + ' interval':<18}"
    scored = slices.rankings is not None
    auc_head = f"  {'AUC':>6}" if scored else ""
    lines.append(f"{head}  {'markedness':>10}{auc_head}  {'bias diagnosis':<26}  flag")
    shown = shown_slices(result, order=order)
    for s in shown:
        name = printable(slices.name(slices.keys[s]))
        name = name if len(name) <= width else name[: width - 1] + "…"
        interval = result.intervals["informedness"][s]
        flag = evaluation.row_flag(s)
        lines.append(
            f"{name:<{width}}  {_n(evaluation.n[s]):>9}  "
            f"{_value(evaluation.values['informedness'][s]):>12} {_interval(interval):<18}  "
            f"{_value(evaluation.values['markedness'][s]):>10}{_auc(slices, s)}  "
            f"{printable(evaluation.bias_diagnosis(s)):<26}  {printable(flag)}"
        )
    pooled = _pooled(result, shown)
    if pooled is not None:
        found = evaluate(pooled, positive=positive)
        lines.append(
            f"{'… ' + f'{len(slices.keys) - len(shown):,} more, pooled':<{width}}  "
            f"{_n(pooled.n):>9}  {_value(found.measures['informedness']):>12} {'':<18}  "
            f"{_value(found.measures['markedness']):>10}  (every slice: --format json)"
        )
    reference = disparities.reference or ()
    ref_name = printable(slices.name(reference)) if reference else ""
    lines += [
        "",
        f"Each slice minus the rest of the rows ({level} intervals; p Holm-adjusted); "
        f"'differs' where its informedness minus that of {ref_name!r} (the reference) "
        "excludes 0:",
    ]
    lines.append(
        f"{'slice':<{width}}  {'d informedness':>15} {'interval':<18} {'p':>6}  "
        f"{'d TPR':>7}  {'d FPR':>7}  {'d bias pP':>9}  vs reference"
    )
    for s in shown:
        name = printable(slices.name(slices.keys[s]))
        name = name if len(name) <= width else name[: width - 1] + "…"
        d = disparities.vs_rest
        p = disparities.p_rest["informedness"][s]
        lines.append(
            f"{name:<{width}}  {_value(d['informedness'][s].estimate):>15} "
            f"{_interval(d['informedness'][s]):<18} {'—' if math.isnan(p) else f'{p:.3g}':>6}  "
            f"{_value(d['recall'][s].estimate):>7}  {_value(d['fallout'][s].estimate):>7}  "
            f"{_value(d['bias'][s].estimate):>9}  {_differs(disparities, s)}"
        )
    lines.append("")
    for key, title in SUMMARIES.items():
        interval = disparities.summary[key]
        lines.append(f"{title}: {_value(interval.estimate)} {_interval(interval)}")
    if positive is not None:
        lines.append(
            "With two classes informedness = TPR - FPR (Powers 2011): a slice's gap in "
            "informedness is its TPR gap minus its FPR gap."
        )
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _auc(slices: Any, s: int) -> str:
    """A slice's AUC as a terminal column (nothing without scores)."""
    if slices.rankings is None:
        return ""
    return f"  {_value(auc(slices.rankings[s])):>6}"


def _differs(disparities: Disparities, s: int) -> str:
    """'differs' where the slice's informedness minus the reference's has an interval
    that excludes 0; 'reference' for the reference itself."""
    found = disparities.vs_reference["informedness"][s]
    if disparities.reference == disparities.slices.keys[s]:
        return "reference"
    if math.isnan(found.low) or found.low <= 0 <= found.high:
        return ""
    return "differs"


def _interval_json(interval: Interval) -> dict[str, Any]:
    return {
        "estimate": json_float(interval.estimate),
        "interval": interval.as_list(),
        "reason": interval.reason,
    }


def slices_document(
    result: SliceBootstrap, disparities: Disparities, source: str
) -> dict[str, Any]:
    """The JSON document: every slice, its measures, intervals, flags and differences."""
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
                "flag": evaluation.flags[s],
                "bias_diagnosis": evaluation.bias_diagnosis(s),
                "ranking": None if slices.rankings is None else _ranking(slices.rankings[s]),
                "vs_rest": {
                    name: {
                        **_interval_json(disparities.vs_rest[name][s]),
                        "p_holm": json_float(disparities.p_rest[name][s]),
                    }
                    for name in COMPARED
                },
                "vs_reference": {
                    name: {
                        **_interval_json(disparities.vs_reference[name][s]),
                        "p_holm": json_float(disparities.p_reference[name][s]),
                    }
                    for name in COMPARED
                },
            }
        )
    return {
        "kind": "informed.slices_report",
        "version": 1,
        "source": source,
        "by": list(slices.by),
        "positive": evaluation.positive,
        "level": result.level,
        "method": result.method,
        "replicates": result.replicates,
        "min_count": evaluation.min_count,
        "reference": list(disparities.reference or ()),
        "slices": entries,
        "disparities": {key: _interval_json(disparities.summary[key]) for key in SUMMARIES},
    }


def _ranking(ranking: Any) -> dict[str, Any]:
    """A slice's Ranking in brief: its sizes, AUC and PEM (nan as None)."""
    return {
        "n_positive": ranking.n_positive,
        "n_negative": ranking.n_negative,
        "auc": json_float(auc(ranking)),
        "pem": json_float(pem(ranking)),
    }


def _text_cell(text: str, raw: bool) -> str:
    if raw or _NUMBER.fullmatch(text):
        return text
    return "'" + text if text[:1] in (*FORMULA_STARTS, "'") else text


def _number(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else repr(float(value))


def slices_csv(result: SliceBootstrap, disparities: Disparities, *, raw: bool = False) -> str:
    """One CSV row per slice: key, n, B and M with intervals, rates, flag, differences."""
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
    ]
    rows = [header]
    for s, key in enumerate(slices.keys):
        b, m = result.intervals["informedness"][s], result.intervals["markedness"][s]
        d = disparities.vs_rest["informedness"][s]
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
                *(_number(disparities.vs_rest[n][s].estimate) for n in COMPARED),
                _number(d.low),
                _number(d.high),
                _number(disparities.p_rest["informedness"][s]),
            ]
        )
    return csv_text(rows)
