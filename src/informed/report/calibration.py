"""The calibration and decision-curve section of a report on a Ranking of probabilities:
terminal text and JSON.

Presentation only: the numbers are read from a `Calibration` (`informed.ranking.calibration`)
and a `DecisionCurve` at the report's thresholds (`calibration_report` computes both once,
for the text and the JSON alike). A Ranking whose scores are not probabilities has no
such section; its JSON says why.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text

from informed._common import json_float, printable
from informed._terminal import WIDTH, grid, render, split
from informed._terminal import value as number
from informed.ranking import Ranking
from informed.ranking.calibration_summary import (
    CALIBRATION_NUMBERS,
    Calibration,
    calibration,
    is_probability_ranking,
)
from informed.ranking.decision import REPORT_THRESHOLDS, DecisionCurve, decision_curve
from informed.report.references import references_of

if TYPE_CHECKING:
    from informed.inference.calibration_bands import ReliabilityBands

__all__ = [
    "INTERVAL_TITLES",
    "REPORT_THRESHOLDS",
    "CalibrationReport",
    "calibration_report",
    "calibration_section",
    "render_calibration",
]


SOURCES = (
    "Dimitriadis et al. (2021)",
    "Cox (1958)",
    "Vickers & Elkin (2006)",
    "Kerr et al. (2016)",
)


INTERVAL_TITLES = {
    "brier": "Brier score",
    "miscalibration": "Brier MCB",
    "discrimination": "Brier DSC",
    "uncertainty": "Brier UNC",
    "log": "log score",
    "log_miscalibration": "log MCB",
    "log_discrimination": "log DSC",
    "slope": "calibration slope",
    "intercept": "calibration intercept",
    "in_the_large": "calibration-in-the-large",
    "ece": "ECE, equal-width bins",
    "ece_quantile": "ECE, equal-mass bins",
}
"""How a report names each number of `informed.inference.CALIBRATION_INTERVALS`."""

REPLICATES = 1000
"""Bootstrap replicates of the calibration intervals a report asks for (as `--ci` draws
a Table's)."""


@dataclass(frozen=True)
class CalibrationReport:
    """What a report shows of a Ranking of probabilities, computed once; with `intervals`
    (`informed.inference.calibration_bands`) the interval of every calibration number and
    the test of calibration."""

    calibration: Calibration
    decision: DecisionCurve
    intervals: ReliabilityBands | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON section: the calibration document and the decision curve at the
        report's thresholds; with intervals, "intervals" {name: [low, high]} (an infinite
        end as "Infinity"), why an interval is undefined ("intervals_undefined") or why it
        is infinite or its replicates are ("intervals_infinite"), how many replicates were
        undefined and left out ("intervals_undefined_replicates"), and how they were made
        ("ci_level", "ci_method", "replicates", "calibration_p_value")."""
        document = {**self.calibration.to_dict(), "decision_curve": self.decision.to_dict()}
        bands = self.intervals
        if bands is not None:
            document["intervals"] = {
                name: found.as_list() for name, found in bands.intervals.items()
            }
            undefined, unbounded = {}, {}
            for name, found in bands.intervals.items():
                if found.reason and (math.isnan(found.low) or math.isnan(found.high)):
                    undefined[name] = found.reason
                elif found.reason:
                    unbounded[name] = found.reason
            if undefined:
                document["intervals_undefined"] = undefined
            if unbounded:
                document["intervals_infinite"] = unbounded
            from informed.inference.interval import undefined_counts

            dropped = undefined_counts(bands.intervals)
            if dropped:
                document["intervals_undefined_replicates"] = dropped
            document["ci_level"] = bands.level
            document["ci_method"] = (
                "percentile; a case bootstrap of the rows drawn over the tie groups "
                "(unstratified: the prevalence is part of calibration), weights read as "
                "frequency weights"
            )
            document["replicates"] = bands.replicates
            document["calibration_p_value"] = json_float(bands.p_value)
        return document


def calibration_report(
    ranking: Ranking,
    bins: int = 10,
    *,
    level: float | None = None,
    seed: int | None = 0,
    replicates: int = REPLICATES,
    progress: Callable[[int], None] | None = None,
) -> CalibrationReport | None:
    """The calibration and the decision curve at `REPORT_THRESHOLDS` and the prevalence,
    or None when the scores are not probabilities or there are no rows; with a `level`,
    the intervals of the calibration numbers and the test of calibration
    (`informed.inference.calibration_bands`, `replicates` of the tie groups, `seed`;
    `progress` is called with the replicates done)."""
    if ranking.n == 0 or not is_probability_ranking(ranking):
        return None
    prevalence = float(ranking.n_positive) / float(ranking.n)
    thresholds = sorted({*REPORT_THRESHOLDS, *([prevalence] if prevalence < 1 else [])})
    bands = None
    if level is not None:
        from informed.inference.calibration_bands import calibration_bands

        bands = calibration_bands(
            ranking, replicates=replicates, level=level, seed=seed, bins=bins, progress=progress
        )
    return CalibrationReport(calibration(ranking, bins), decision_curve(ranking, thresholds), bands)


def calibration_section(ranking: Ranking, report: CalibrationReport | None) -> dict[str, Any]:
    """The JSON "calibration" of a ranking: the report's document, or why there is none."""
    if report is not None:
        return report.to_dict()
    if ranking.n == 0:
        return {"undefined": "no rows"}
    outside = ranking.scores[0] if ranking.scores[0] > 1 else ranking.scores[-1]
    return {
        "undefined": f"the scores are not probabilities: {float(outside)!r} lies outside [0, 1]"
    }


def _intervals_text(pairs: tuple[tuple[float, float], ...]) -> str:
    return " and ".join(f"({low:.4g}, {high:.4g})" for low, high in pairs)


def render_calibration(
    report: CalibrationReport, positive: object, *, color: bool = False, width: int = WIDTH
) -> str:
    """The calibration numbers (with their reasons where undefined) and the decision curve
    at the report's thresholds, each defined, with the references."""
    result, curve = report.calibration, report.decision
    head = Text(
        f"Calibration: scores read as probabilities of {printable(repr(positive))} "
        f"(n = {result.n:g})",
        style="bold",
    )
    brier, log, fit = result.brier, result.log, result.recalibration
    table = grid()
    table.add_column("", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("", overflow="fold")
    rows: list[tuple[str, float, str]] = [
        ("mean score", result.mean_score, f"observed rate {number(result.observed_rate)}"),
        ("Brier score", brier.score, _decomposed(brier)),
        ("log score", log.score, _decomposed(log)),
        ("calibration slope", fit.slope, "1 when calibrated; < 1 too extreme, > 1 too timid"),
        ("calibration intercept", fit.intercept, "0 when calibrated"),
        ("calibration-in-the-large", fit.in_the_large, "0 when calibrated; > 0: scores too low"),
    ]
    for strategy, table_of in result.binned.items():
        how = "equal-width" if strategy == "uniform" else "equal-mass"
        rows.append((f"ECE, {result.bins} {how} bins", table_of.expected_error, "binned"))
    for name, value, note in rows:
        table.add_row(name, number(value), note)
    parts: list[Any] = [head, table]
    notes = [f"slope and intercept undefined: {fit.reason}"] if fit.reason else []
    notes += [fit.note] if fit.note else []
    notes += [f"Brier: {brier.reason}"] if brier.reason else []
    if notes:
        parts.append(Text("\n".join(notes), style="yellow"))
    parts.append(
        Text(
            "MCB: "
            + CALIBRATION_NUMBERS["miscalibration"][1]
            + "; DSC: "
            + CALIBRATION_NUMBERS["discrimination"][1]
            + "; UNC: "
            + CALIBRATION_NUMBERS["uncertainty"][1]
            + ". The CORP curve is the isotonic (PAV) "
            "recalibration over the tie groups, with no bins; the binned ECE moves with the "
            "bins and is shown for comparison.",
            style="dim",
        )
    )
    if report.intervals is not None:
        parts += ["", *_intervals_part(report.intervals)]
    parts += ["", _decision_part(curve, width)]
    parts += ["", Text("References: " + " ".join(references_of(SOURCES)), style="dim")]
    return render(parts, color, width)


def _intervals_part(bands: ReliabilityBands) -> list[Any]:
    """The intervals of the calibration numbers, one row each, and the test of
    calibration; where replicates were undefined (left out of an interval), how many."""
    from informed.inference.interval import undefined_note

    level = f"{100 * bands.level:g} %"
    head = Text(
        f"Intervals ({level}, percentile, {bands.replicates:,} replicates resampling the "
        "tie groups)",
        style="bold",
    )
    table = grid()
    table.add_column("", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column(f"{level} interval", no_wrap=True)
    reasons: dict[str, list[str]] = {}  # each reason once, with the numbers it holds for
    for name, title in INTERVAL_TITLES.items():
        found = bands.intervals[name]
        undefined = math.isnan(found.low) or math.isnan(found.high)
        if found.reason and not (undefined and math.isnan(found.estimate)):
            reasons.setdefault(found.reason, []).append(title)
        if found.undefined_replicates and not undefined:
            reasons.setdefault(undefined_note(found), []).append(title)
        shown = "—" if undefined else f"[{number(found.low)}, {number(found.high)}]"
        table.add_row(title, number(found.estimate), shown)
    notes = [
        f"{'no interval' if len(titles) == len(INTERVAL_TITLES) else ', '.join(titles)}: {why}"
        for why, titles in reasons.items()
    ]
    test = Text(
        f"Test of calibration: p = {bands.p_value:.3g} (the share of {bands.replicates:,} "
        "outcome sets drawn from the scores themselves whose Brier MCB reaches the "
        "observed; Dimitriadis et al. 2021).",
    )
    shown_notes = [Text("\n".join(notes), style="yellow")] if notes else []
    return [head, table, *shown_notes, test]


def _decomposed(found: Any) -> str:
    if math.isnan(found.score):
        return f"undefined: {found.reason}"
    return (
        f"= MCB {number(found.miscalibration)} - DSC {number(found.discrimination)} + UNC "
        f"{number(found.uncertainty)}"
    )


def _decision_part(curve: DecisionCurve, width: int) -> Any:
    from rich.console import Group

    head = Text("Decision curve: acting on the rows scored >= p_t", style="bold")
    prevalence = curve.prevalence
    cells = {
        "net benefit": curve.net_benefit,
        "treat all": curve.treat_all,
        "standardized": curve.standardized,
        "avoided /100": curve.interventions_avoided,
    }

    def build(titles: Sequence[str]) -> Any:
        table = grid()
        table.add_column("p_t", justify="right", no_wrap=True)
        for title in titles:
            table.add_column(title, justify="right", no_wrap=True)
        for i, p in enumerate(curve.thresholds.tolist()):
            shown = f"{p:.4g}" + (" (prevalence)" if p == prevalence else "")
            table.add_row(
                shown,
                *(number(float(cells[t][i]), 1 if t == "avoided /100" else 4) for t in titles),
            )
        return table

    if curve.beats_defaults:
        verdict = (
            "The model beats treating all and treating none for p_t in "
            f"{_intervals_text(curve.beats_defaults)} (exact, from every distinct score)."
        )
    else:
        verdict = "The model beats treating all and treating none at no threshold probability."
    legend = Text(
        "net benefit = TP/n - FP/n p_t/(1 - p_t); standardized = net benefit / prevalence "
        "(at p_t = prevalence: the informedness of the threshold); avoided /100 = (net "
        "benefit - treat all) / (p_t/(1 - p_t)) x 100.",
        style="dim",
    )
    return Group(head, *split(build, list(cells), width), Text(verdict), legend)
