"""The disparities between slices as every report shows them: the ranges across slices
(each over the slices of adequate size, those left out named with their counts, the range
over every slice beside it) and each slice's AUC difference, as terminal lines, JSON and
CSV cells. Nothing is computed here (`informed.inference.disparities` did it)."""

from __future__ import annotations

import math
from typing import Any

from informed._common import json_float, printable
from informed.inference.disparities import SUMMARIES, Disparities
from informed.inference.interval import Interval, undefined_note

__all__ = [
    "AUC_CSV",
    "AUC_NOTE",
    "FAIRLEARN_NAMES",
    "LEFT_OUT",
    "SUMMARY_TITLES",
    "auc_csv_cells",
    "auc_difference_json",
    "auc_json",
    "counted_interval_text",
    "fairlearn_name",
    "fixed",
    "interval_text",
    "left_out_text",
    "p_text",
    "summary_json",
    "summary_lines",
    "value_text",
]

SUMMARY_TITLES = {
    "equalized_odds_difference": "equalized-odds difference, max(|dTPR|, |dFPR|)",
    "demographic_parity_difference": "demographic-parity difference (bias pP)",
    "informedness_spread": "spread of informedness (max - min)",
}
assert tuple(SUMMARY_TITLES) == SUMMARIES

FAIRLEARN_NAMES = {
    "equalized_odds_difference": "fairlearn's equalized_odds_difference",
    "demographic_parity_difference": "fairlearn's demographic_parity_difference",
}
"""The ranges over every slice that are fairlearn's numbers (fairlearn.metrics, worst case
over the groups): said beside the value, so a fairlearn user recognises it."""


def fairlearn_name(disparities: Disparities, key: str) -> str:
    """ " (fairlearn's ...)" after a range over every slice that fairlearn computes too:
    for two labels (fairlearn's functions take binary predictions; over more labels the
    range is informed's own, over every label's one-vs-rest view)."""
    overall = disparities.slices.overall
    if key not in FAIRLEARN_NAMES or overall is None or len(overall.labels) != 2:
        return ""
    return f" ({FAIRLEARN_NAMES[key]})"


AUC_METHOD_TEXT = (
    "DeLong et al. (1988) variances of the two AUCs summed (the slice and the rest, or "
    "the reference, are disjoint rows: independent samples); normal interval, "
    "two-sided p Holm-adjusted across slices"
)
"""How the AUC differences are computed, as the reports say it."""

AUC_NOTE = f"d AUC: the slice's AUC minus the rest's, {AUC_METHOD_TEXT}."
"""What the AUC differences are, as the terminal and the page say it."""

AUC_CSV = (
    "d_auc_vs_rest",
    "d_auc_vs_rest_low",
    "d_auc_vs_rest_high",
    "p_holm_auc_vs_rest",
    "d_auc_vs_reference",
    "d_auc_vs_reference_low",
    "d_auc_vs_reference_high",
    "p_holm_auc_vs_reference",
)
"""The CSV columns of the AUC differences (with scores)."""

# The slices left out of a range that the terminal and the page name (JSON: all of them).
LEFT_OUT_SHOWN = 5

LEFT_OUT = {
    "equalized_odds_difference": "left out of the TPR or FPR range as too small",
    "demographic_parity_difference": "left out as too small",
    "informedness_spread": "left out as too small",
}
"""How each range says which slices it leaves out."""


def fixed(value: float) -> str:
    """A bound with three decimals, never "-0.000" (a bound just below 0 shows as 0)."""
    text = f"{value:.3f}"
    return "0.000" if text == "-0.000" else text


def value_text(value: float) -> str:
    """A value with three decimals, "—" where undefined."""
    return "—" if math.isnan(value) else f"{value:+.3f}" if value < 0 else f"{value:.3f}"


def p_text(value: float) -> str:
    """A p-value with three significant digits, "—" where undefined."""
    return "—" if math.isnan(value) else f"{value:.3g}"


def interval_text(interval: Interval) -> str:
    """[low, high], or [—] where there is no interval."""
    if math.isnan(interval.low):
        return "[—]"
    return f"[{fixed(interval.low)}, {fixed(interval.high)}]"


def left_out_text(disparities: Disparities, key: str, limit: int = LEFT_OUT_SHOWN) -> str:
    """The slices left out of range `key`, each with its counts, the first `limit`; "all
    S slices" when every one of more than two is."""
    slices = disparities.slices
    found = disparities.left_out[key]
    if len(found) == len(slices.keys) > 2:
        return f"all {len(found):,} slices (the counts of each: --format json)"
    named = [f"{slices.name(slices.keys[s])!r} ({why})" for s, why in found[:limit]]
    more = f" and {len(found) - limit:,} more" if len(found) > limit else ""
    return ", ".join(named) + more


def summary_lines(disparities: Disparities) -> list[str]:
    """Each range across slices with its interval, over the slices of adequate size (or
    why it has none); under it, where slices were left out, which, and the range over
    every slice."""
    lines = []
    for key, title in SUMMARY_TITLES.items():
        interval = disparities.summary[key]
        left_out = disparities.left_out[key]
        if math.isnan(interval.estimate):
            lines.append(f"{title}: — ({interval.reason})")
        else:
            over = f" over the slices {disparities.rules[key]}" if left_out else ""
            value = f"{value_text(interval.estimate)} {counted_interval_text(interval)}"
            lines.append(f"{title}: {value}{over or fairlearn_name(disparities, key)}")
        if left_out:
            every = disparities.summary_all[key]
            lines.append(
                f"  {LEFT_OUT[key]}: {printable(left_out_text(disparities, key))}; "
                f"over every slice: {value_text(every.estimate)} {counted_interval_text(every)}"
                f"{fairlearn_name(disparities, key)}"
            )
    return lines


def counted_interval_text(interval: Interval) -> str:
    """`interval_text`, then how many replicates were undefined and left out of it, where
    any was and it has bounds (as `interval_bounds` says it)."""
    shown = interval_text(interval)
    if interval.undefined_replicates and not math.isnan(interval.low):
        shown += f", {undefined_note(interval)}"
    return shown


def _interval_json(interval: Interval) -> dict[str, Any]:
    return {
        "estimate": json_float(interval.estimate),
        "interval": interval.as_list(),
        "reason": interval.reason,
        "undefined_replicates": interval.undefined_replicates,
    }


def summary_json(disparities: Disparities, key: str) -> dict[str, Any]:
    """A range across slices: over the slices of adequate size (`over`), those left out
    with their counts, and the range over every slice."""
    slices = disparities.slices
    left_out = disparities.left_out[key]
    return {
        **_interval_json(disparities.summary[key]),
        "over": f"slices {disparities.rules[key]}",
        "left_out": [
            {"key": list(slices.keys[s]), "name": slices.name(slices.keys[s]), "reason": why}
            for s, why in left_out
        ],
        "every_slice": _interval_json(disparities.summary_all[key]),
    }


def auc_json(disparities: Disparities, s: int, family: str) -> dict[str, Any] | None:
    """A slice's AUC minus the rest's (or the reference's), with the method; None
    without scores."""
    found = disparities.vs_rest if family == "rest" else disparities.vs_reference
    if "auc" not in found:
        return None
    p = disparities.p_rest if family == "rest" else disparities.p_reference
    return auc_difference_json(found["auc"][s], p["auc"][s])


def auc_difference_json(interval: Interval, p: float) -> dict[str, Any]:
    """An AUC difference (`informed.inference.auc_differences`) with its interval, its
    Holm-adjusted p, standard error and method."""
    return {
        **_interval_json(interval),
        "p_holm": json_float(p),
        "standard_error": json_float(interval.standard_error),
        "method": interval.method,
    }


def auc_csv_cells(disparities: Disparities | None, s: int) -> list[str]:
    """A slice's AUC differences as the cells of `AUC_CSV` (empty where there are none)."""
    if disparities is None or "auc" not in disparities.vs_rest:
        return [""] * len(AUC_CSV)
    cells = []
    for found, p in (
        (disparities.vs_rest["auc"][s], disparities.p_rest["auc"][s]),
        (disparities.vs_reference["auc"][s], disparities.p_reference["auc"][s]),
    ):
        cells += [_number(v) for v in (found.estimate, found.low, found.high, p)]
    return cells


def _number(value: float) -> str:
    return "" if math.isnan(value) else repr(float(value))
