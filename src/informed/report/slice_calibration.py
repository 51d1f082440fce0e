"""Calibration within slices as the slices' reports show it: each shown slice's MCB with
its interval and its Brier (or log) score, then the spread of MCB across slices, as
terminal lines and JSON. Nothing is computed here (`informed.inference.slice_calibration`
did it); scores that are not probabilities give the reason instead of the section.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from informed._common import cut_apart, printable
from informed._terminal import PlainColumn, plain_table
from informed.inference.interval import Interval

if TYPE_CHECKING:  # types only: the labels' report imports neither
    from informed.inference.slice_auc import AucSpread
    from informed.inference.slice_calibration import SliceCalibration

__all__ = [
    "BIASED_NOTE",
    "CALIBRATION_NOTE",
    "NO_INTERVALS",
    "calibration_json",
    "calibration_lines",
    "mcb_interval",
    "mcb_text",
]

CALIBRATION_NOTE = (
    "MCB (miscalibration, Dimitriadis et al. 2021): the slice's mean score minus that of "
    "its scores recalibrated by its own CORP curve (isotonic, PAV), 0 when the slice is "
    "calibrated; score = MCB - DSC + UNC on the slice's rows."
)
"""What the calibration of slices is, as the terminal and the page say it."""

BIASED_NOTE = (
    "A resample's MCB is biased up (PAV fits its noise), so near 0 the interval may lie "
    "above the estimate."
)
"""What the intervals of MCB may show, said where there are intervals."""

NO_INTERVALS = "no intervals; --ci LEVEL gives them, from 1,000 replicates of each slice"
"""Why the calibration of slices has no intervals without --ci, as the reports say it."""

_LEFT_OUT_SHOWN = 5


def mcb_text(value: float) -> str:
    """An MCB (or a score) with four decimals; "—" where undefined, "inf" where infinite."""
    if math.isnan(value):
        return "—"
    return "inf" if math.isinf(value) else f"{value:.4f}"


def mcb_interval(interval: Interval) -> str:
    """[low, high] with four decimals, or [—] where there is none."""
    if math.isnan(interval.low):
        return "[—]"
    return f"[{mcb_text(interval.low)}, {mcb_text(interval.high)}]"


def _spread_text(interval: Interval, resampled: bool) -> str:
    if math.isnan(interval.estimate):
        return f"— ({interval.reason})"
    if not resampled:
        return mcb_text(interval.estimate)
    return f"{mcb_text(interval.estimate)} {mcb_interval(interval)}"


def _left_out(found: SliceCalibration) -> str:
    slices = found.slices
    if len(found.left_out) == len(slices.keys) > 2:
        return f"all {len(found.left_out):,} slices (the counts of each: --format json)"
    named = [
        f"{slices.name(slices.keys[s])!r} ({why})" for s, why in found.left_out[:_LEFT_OUT_SHOWN]
    ]
    more = len(found.left_out) - _LEFT_OUT_SHOWN
    return ", ".join(named) + (f" and {more:,} more" if more > 0 else "")


def calibration_lines(
    found: SliceCalibration | str,
    shown: list[int],
    names: int,
    positive: Any,
    width: int | None = None,
) -> list[str]:
    """The terminal lines: a heading, each slice of `shown` (names cut to `names`
    characters) with its MCB, interval and score (the table split to fit `width` columns,
    `informed._terminal.plain_table`), the spread of MCB and the note; or, when `found`
    is the reason there is no calibration, that reason."""
    if isinstance(found, str):
        return [f"Calibration within slices: none ({found.rstrip('.')})."]
    slices = found.slices
    level = f"{found.level:.0%}"
    score = "Brier" if found.rule == "brier" else "log score"
    short = "Brier" if found.rule == "brier" else "log"
    resampled = found.replicates > 0
    how = (
        f"{level} percentile intervals, {found.replicates:,} replicates of each slice"
        if resampled
        else NO_INTERVALS
    )
    columns = [
        PlainColumn("slice", names, "<", 0, wraps=True),
        PlainColumn("n", 7),
        PlainColumn("MCB", 6),
        *([PlainColumn(level + " interval", 16, "<", 1)] if resampled else []),
        PlainColumn(short, 6),
    ]
    rows = []
    named = dict(
        zip(shown, cut_apart([slices.name(slices.keys[s]) for s in shown], names), strict=True)
    )
    for s in shown:
        name = named[s]
        n = float(slices.rankings[s].n) if slices.rankings is not None else math.nan
        decomposition = found.decompositions[s]
        rows.append(
            [
                name,
                f"{n:,.{0 if n.is_integer() else 3}f}",
                mcb_text(decomposition.miscalibration),
                *([mcb_interval(found.miscalibration[s])] if resampled else []),
                mcb_text(decomposition.score),
            ]
        )
    lines = [
        f"Calibration within slices: scores read as probabilities of "
        f"{printable(repr(positive))}, each slice's {score} decomposed on its own rows "
        f"({how}):",
        *plain_table(columns, rows, width),
    ]
    lines += ["", *spread_lines(found, "MCB", lambda i: _spread_text(i, resampled), _left_out)]
    lines.append(CALIBRATION_NOTE + (" " + BIASED_NOTE if resampled else ""))
    return lines


def spread_lines(
    found: SliceCalibration | AucSpread,
    what: str,
    text: Callable[[Interval], str],
    listed: Callable[[Any], str],
) -> list[str]:
    """The spread of `what` over the slices (its value by `text`), the rule of the slices
    it is over, the slices of highest and lowest value; then, if slices were left out as
    too small (`listed` names them), the spread over every slice."""
    slices = found.slices
    defined = not math.isnan(found.spread.estimate)
    over = f" over the slices {found.rule_text}" if found.left_out and defined else ""
    ends = ""
    if found.highest is not None and found.lowest is not None:
        high = printable(repr(slices.name(slices.keys[found.highest])))
        low = printable(repr(slices.name(slices.keys[found.lowest])))
        ends = f"; highest {high}, lowest {low}"
    lines = [f"spread of {what} (max - min): {text(found.spread)}{over}{ends}"]
    if found.left_out and slices.accumulated is None:
        lines.append(
            f"  left out as too small: {printable(listed(found))}; over every slice: "
            f"{text(found.spread_all)}"
        )
    return lines


def calibration_json(found: SliceCalibration | str | None) -> dict[str, Any] | None:
    """The JSON "calibration" of a slices report: the slices' calibration document, or
    why there is none; None without scores."""
    if found is None:
        return None
    if isinstance(found, str):
        return {"undefined": found}
    return found.to_dict()
