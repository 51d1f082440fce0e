"""The ranges across slices of `informed.inference.disparities`: which slices are of
adequate size for each compared rate, the range over them, and those left out and why.

A range (max - min over the slices) is as large as its most extreme slice, and the most
extreme slices are the smallest; so each range is taken over the slices whose value
rests on at least `min_count` cases of its own denominator (real positives for TPR,
real negatives for FPR, cases for pP, both classes for B), the slices left out are
named with their counts, and a range with fewer than two slices to go over is nan.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures import Cells, margins

__all__ = [
    "SUMMARIES",
    "adequate_slices",
    "kept_range",
    "largest",
    "left_out",
    "range_rules",
    "value_range",
]

Floats = NDArray[np.float64]

SUMMARIES = ("equalized_odds_difference", "demographic_parity_difference", "informedness_spread")
"""The ranges across slices."""


def adequate_slices(
    cells: Cells, index: int | None, min_count: float
) -> tuple[dict[str, NDArray[np.bool_]], dict[str, Any]]:
    """Which slices (and labels) have at least `min_count` cases in each compared rate's
    denominator: real positives for TPR, real negatives for FPR, cases for pP, both
    classes for B (cases for multiclass B, as its flag); and the counts that say why."""
    m = margins(cells)
    total = np.asarray(m.total, dtype=np.float64)
    real = np.asarray(m.cols, dtype=np.float64)
    if index is not None:
        real = real[..., index]
    others = (total[..., None] if index is None else total) - real
    cases = total if index is not None else np.broadcast_to(total[..., None], real.shape)
    adequate = {
        "recall": real >= min_count,
        "fallout": others >= min_count,
        "bias": cases >= min_count,
        "informedness": (
            np.minimum(real, others) >= min_count if index is not None else total >= min_count
        ),
    }
    return adequate, {"real": real, "others": others, "total": total}


def kept_range(
    values: Floats, adequate: NDArray[np.bool_], whole: Floats, axis: int = -1
) -> Floats:
    """The range over the `adequate` slices only (`whole`, the range over all, when every
    slice is)."""
    if adequate.all():
        return whole
    return value_range(np.where(adequate, values, np.nan), axis=axis)


def value_range(values: Floats, axis: int = -1) -> Floats:
    """max - min over the slices, leaving out undefined ones; nan unless at least two
    are defined (one slice has no spread to speak of, not a spread of 0)."""
    defined = ~np.isnan(values)
    # initial: no slice (or no label) gives nan, not numpy's error of an empty maximum
    high = np.max(np.where(defined, values, -np.inf), axis=axis, initial=-np.inf)
    low = np.min(np.where(defined, values, np.inf), axis=axis, initial=np.inf)
    with np.errstate(invalid="ignore"):
        return np.where(np.sum(defined, axis=axis) >= 2, high - low, np.nan)


def largest(values: Floats) -> Floats:
    """The largest defined value over the last axis (labels), nan where none is."""
    defined = ~np.isnan(values)
    found = np.max(np.where(defined, values, -np.inf), axis=-1, initial=-np.inf)
    return np.where(defined.any(axis=-1), found, np.nan)


def range_rules(binary: bool, min_count: float) -> dict[str, str]:
    """Which slices each range is over, as the reports say it."""
    m = f"{min_count:g}"
    if binary:
        return {
            "equalized_odds_difference": (
                f"of at least {m} real positives for TPR, {m} real negatives for FPR"
            ),
            "demographic_parity_difference": f"of at least {m} cases",
            "informedness_spread": f"of at least {m} real positives and {m} real negatives",
        }
    return {
        "equalized_odds_difference": (
            f"of at least {m} real cases of a label for its TPR, {m} others for its FPR"
        ),
        "demographic_parity_difference": f"of at least {m} cases",
        "informedness_spread": f"of at least {m} cases",
    }


def left_out(
    adequate: dict[str, NDArray[np.bool_]],
    counts: dict[str, Any],
    index: int | None,
    labels: tuple[Any, ...],
    present: NDArray[np.bool_],
) -> dict[str, list[tuple[int, str]]]:
    """Per summary, each slice left out of its range and why (its counts; with more
    classes, the first label of the slice too small for its TPR or FPR)."""

    def count(value: float, what: str) -> str:
        shown = f"{int(value):,}" if float(value).is_integer() else f"{value:,.3g}"
        return f"{shown} {what}"

    real, others, total = counts["real"], counts["others"], counts["total"]
    S = total.shape[0]
    out: dict[str, list[tuple[int, str]]] = {key: [] for key in SUMMARIES}
    for s in range(S):
        if not adequate["bias"][s].all():
            out["demographic_parity_difference"].append((s, count(total[s], "cases")))
        if index is None:
            if not adequate["informedness"][s]:
                out["informedness_spread"].append((s, count(total[s], "cases")))
            enough = adequate["recall"][s] & adequate["fallout"][s]
            short = np.flatnonzero(~enough & present[s])
            if short.size:
                k = int(short[0])
                few = real[s, k] < others[s, k]
                why = count(*((real[s, k], "real cases") if few else (others[s, k], "others")))
                more = f" (and {short.size - 1} more labels)" if short.size > 1 else ""
                out["equalized_odds_difference"].append((s, f"{labels[k]!r}: {why}{more}"))
            continue
        short_parts = []
        if not adequate["recall"][s]:
            short_parts.append(count(real[s], "real positives"))
        if not adequate["fallout"][s]:
            short_parts.append(count(others[s], "real negatives"))
        if short_parts:
            out["equalized_odds_difference"].append((s, ", ".join(short_parts)))
            out["informedness_spread"].append((s, ", ".join(short_parts)))
    return out
