"""The reliability diagram (CORP) and the decision curve of Rankings of probabilities.

`plot_reliability` draws the CORP curve (the isotonic recalibration of the scores,
Dimitriadis, Gneiting & Jordan 2021) against the diagonal of calibration, with its
consistency and confidence bands and the histogram of the scores; `plot_decision_curve`
draws the net benefit of one or more models on the same cases against treating all and
treating none (Vickers & Elkin 2006), with bands. Every value drawn comes from
`informed.ranking` and `informed.inference`; `draw_reliability` and `draw_decision_curve`
draw on a given Axes (for the HTML report).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from informed.errors import InputError, InputTypeError
from informed.inference.calibration_bands import ReliabilityBands, calibration_bands
from informed.inference.decision_bands import (
    DecisionCurveBands,
    band_thresholds,
    decision_curve_bands,
)
from informed.plots.axes import Frame, drawing
from informed.plots.inputs import ranking_of
from informed.plots.style import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    PINK,
    RED,
    SKY,
    legend_below,
    short_labels,
)
from informed.ranking import Ranking, calibration, decision_curve
from informed.ranking.calibration import check_probabilities

__all__ = [
    "CALIBRATION_FRAME",
    "draw_decision_curve",
    "draw_reliability",
    "plot_decision_curve",
    "plot_reliability",
]

CALIBRATION_FRAME = Frame(5.2, 5.0)

_MODEL_COLOURS = (BLUE, ORANGE, GREEN, PINK, SKY, RED)
_HISTOGRAM_BINS = 40
_HISTOGRAM_HEIGHT = 0.18  # of the axes' height


def draw_reliability(
    axes: Axes, ranking: Ranking, bands: ReliabilityBands | None = None, histogram: bool = True
) -> None:
    """Draw the CORP curve of `ranking` (gid "corp"), the diagonal ("diagonal"), the bands
    of `bands` ("consistency", "confidence") and the histogram of the scores
    ("histogram")."""
    result = calibration(ranking)
    curve = result.curve
    axes.plot(
        [0, 1], [0, 1], color=GREY, linestyle="--", linewidth=1, label="calibrated", gid="diagonal"
    )
    if bands is not None:
        percent = f"{100 * bands.level:g} %"
        axes.fill_between(
            bands.points,
            *bands.consistency,
            color=GREY,
            alpha=0.25,
            linewidth=0,
            label=f"{percent} consistency band (if calibrated)",
            gid="consistency",
        )
        axes.fill_between(
            bands.points,
            *bands.confidence,
            color=SKY,
            alpha=0.35,
            linewidth=0,
            label=f"{percent} confidence band",
            gid="confidence",
        )
    brier = result.brier
    axes.plot(
        curve.scores,
        curve.recalibrated,
        color=BLUE,
        linewidth=1.8,
        label=(
            f"CORP: Brier {brier.score:.4f} = MCB {brier.miscalibration:.4f} - DSC "
            f"{brier.discrimination:.4f} + UNC {brier.uncertainty:.4f}"
        ),
        gid="corp",
    )
    if histogram and curve.scores.size:
        counts, edges = np.histogram(
            curve.scores, bins=_HISTOGRAM_BINS, range=(0.0, 1.0), weights=curve.rows
        )
        heights = _HISTOGRAM_HEIGHT * counts / counts.max()
        # one patch (not a bar per bin): an SVG of the plot holds one element of this gid
        axes.stairs(
            heights,
            edges,
            fill=True,
            color=GREY,
            alpha=0.45,
            linewidth=0,
            label="scores (histogram, rows)",
            gid="histogram",
        )
    axes.set_xlim(-0.01, 1.01)
    axes.set_ylim(-0.01, 1.01)
    axes.set_aspect("equal")
    axes.set_xlabel("score (forecast probability)")
    axes.set_ylabel("CORP recalibrated probability")
    axes.set_title("Reliability diagram (CORP)")
    legend_below(axes, columns=1)


def plot_reliability(
    ranking: Any,
    scores: Any = None,
    *,
    positive: Any = None,
    weights: Any = None,
    bands: bool | ReliabilityBands = True,
    replicates: int = 200,
    level: float = 0.9,
    seed: int | None = 0,
    histogram: bool = True,
    ax: Axes | None = None,
) -> Axes:
    """The CORP reliability diagram of a Ranking of probabilities.

    Parameters
    ----------
    ranking : Ranking or array-like
        A `Ranking` whose scores are probabilities, or the actual classes of the rows
        (then `scores` and `positive`, and `weights` if any).
    bands : bool or ReliabilityBands
        Draw the consistency band (where the curve would stay were the scores calibrated)
        and the confidence band: computed here (`calibration_bands` with `replicates`,
        `level`, `seed`), or given. False: the curve alone.
    histogram : bool
        Draw the histogram of the scores along the bottom.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None (see `informed.plots`).

    Returns
    -------
    matplotlib.axes.Axes
        With lines of gid "diagonal" and "corp", bands "consistency" and "confidence",
        and the histogram (one patch) of gid "histogram".

    Notes
    -----
    A calibrated forecast lies on the diagonal; the CORP curve is the isotonic (PAV)
    recalibration of the scores over the tie groups, so no bin is chosen (Dimitriadis,
    Gneiting & Jordan 2021). Where the curve leaves the consistency band the data
    disagree with calibration. The legend decomposes the Brier score.

    Examples
    --------
    >>> import informed
    >>> r = informed.Ranking.from_scores([0, 1, 0, 1, 1], [.1, .3, .4, .7, .9], positive=1)
    >>> ax = informed.plot_reliability(r, bands=False)
    >>> sorted(line.get_gid() for line in ax.get_lines())
    ['corp', 'diagonal']
    """
    data = ranking_of("plot_reliability", ranking, scores, positive, weights)
    check_probabilities(data, "plot_reliability")
    found = bands
    if bands is True:
        found = calibration_bands(
            data, replicates=replicates, level=level, seed=seed, intervals=False
        )
    elif bands is not False and not isinstance(bands, ReliabilityBands):
        msg = f"`bands` must be True, False or a ReliabilityBands; got {type(bands).__name__}."
        raise InputTypeError(msg)
    with drawing(ax, CALIBRATION_FRAME, "plot-reliability") as axes:
        draw_reliability(
            axes, data, found if isinstance(found, ReliabilityBands) else None, histogram
        )
    return axes


def _models(rankings: Any) -> dict[str, Ranking]:
    """Rankings by model name: one Ranking, a mapping name -> Ranking, or a sequence."""
    if isinstance(rankings, Ranking):
        found = {"model": rankings}
    elif isinstance(rankings, Mapping):
        found = {str(name): value for name, value in rankings.items()}
    elif isinstance(rankings, Sequence) and not isinstance(rankings, str | bytes):
        found = {f"model {i + 1}": value for i, value in enumerate(rankings)}
    else:
        msg = (
            "plot_decision_curve() takes a Ranking, a mapping of model names to Rankings, "
            f"or a list of Rankings; got {type(rankings).__name__}."
        )
        raise InputTypeError(msg)
    if not found or not all(isinstance(value, Ranking) for value in found.values()):
        msg = "plot_decision_curve() needs at least one Ranking, and only Rankings."
        raise InputTypeError(msg)
    sizes = {(float(r.n), float(r.n_positive)) for r in found.values()}
    if len(sizes) > 1:
        msg = (
            "The models' Rankings count different rows or positives "
            f"({', '.join(f'n={n:g}, n+={p:g}' for n, p in sorted(sizes))}): a decision "
            "curve compares models on the same cases, against one treat-all line."
        )
        raise InputError(msg)
    for value in found.values():
        check_probabilities(value, "plot_decision_curve")
    return found


def draw_decision_curve(
    axes: Axes,
    curves: Mapping[str, DecisionCurveBands | Any],
    *,
    standardized: bool = False,
) -> None:
    """Draw each model's net benefit (gid "model-<i>", labelled with its name cut to 22
    characters), its band ("band-<i>") where given, treating all ("treat-all") and
    treating none ("treat-none")."""
    key = "standardized" if standardized else "net_benefit"
    first = None
    names = short_labels(curves, 22)  # as the comparison plots cut models' names
    for index, (name, found) in enumerate(zip(names, curves.values(), strict=True)):
        curve = found.curve if isinstance(found, DecisionCurveBands) else found
        first = curve if first is None else first
        colour = _MODEL_COLOURS[index % len(_MODEL_COLOURS)]
        if isinstance(found, DecisionCurveBands):
            low, high = found.bands[key]
            axes.fill_between(
                curve.thresholds,
                low,
                high,
                color=colour,
                alpha=0.2,
                linewidth=0,
                gid=f"band-{index}",
            )
        axes.plot(
            curve.thresholds,
            getattr(curve, key),
            color=colour,
            linewidth=1.8,
            label=name,
            gid=f"model-{index}",
        )
    assert first is not None
    everyone = first.treat_all / first.prevalence if standardized else first.treat_all
    axes.plot(
        first.thresholds,
        everyone,
        color=GREY,
        linestyle="--",
        linewidth=1.2,
        label="treat all",
        gid="treat-all",
    )
    axes.axhline(0.0, color="black", linewidth=1.0, label="treat none", gid="treat-none")
    top = 1.0 if standardized else first.prevalence
    top = top if top > 0 else 1.0  # no positives (or no rows): a plain unit scale
    axes.set_ylim(-0.1 * top, 1.15 * top)
    axes.set_xlim(0.0, float(first.thresholds[-1]) if first.thresholds.size else 1.0)
    axes.set_xlabel("threshold probability p_t (act when score >= p_t)")
    axes.set_ylabel(
        "standardized net benefit (NB / prevalence)" if standardized else "net benefit per row"
    )
    axes.set_title("Decision curve")
    legend_below(axes)


def plot_decision_curve(
    rankings: Any,
    *,
    thresholds: Any = None,
    bands: bool = True,
    replicates: int = 200,
    level: float = 0.95,
    seed: int | None = 0,
    standardized: bool = False,
    ax: Axes | None = None,
) -> Axes:
    """The decision curve: net benefit of acting on the rows scored at least p_t, for one
    or more models on the same cases, against treating all and treating none.

    Parameters
    ----------
    rankings : Ranking, mapping of name -> Ranking, or list of Rankings
        Each model's Ranking of probabilities, all of the same rows (same n and n+).
    thresholds : array-like in [0, 1), optional
        Where to draw; by default each model's `band_thresholds` (every distinct score
        when few, else a grid of 100 with 400 quantiles of its scores).
    bands : bool
        Draw each model's percentile band (`decision_curve_bands` with `replicates`,
        `level`, `seed`).
    standardized : bool
        Draw NB / prevalence (Kerr et al. 2016): 1 is a perfect model, and at p_t =
        prevalence the value is the informedness of that threshold.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Lines of gid "model-0", "model-1", ..., "treat-all", "treat-none"; bands
        "band-0", ...

    Examples
    --------
    >>> import informed
    >>> r = informed.Ranking.from_scores([0, 1, 0, 1, 1], [.1, .3, .4, .7, .9], positive=1)
    >>> ax = informed.plot_decision_curve({"logistic": r}, bands=False)
    >>> sorted(line.get_gid() for line in ax.get_lines())
    ['model-0', 'treat-all', 'treat-none']
    """
    models = _models(rankings)
    curves: dict[str, Any] = {}
    for name, ranking in models.items():
        points = band_thresholds(ranking) if thresholds is None else thresholds
        if bands:
            curves[name] = decision_curve_bands(
                ranking, points, replicates=replicates, level=level, seed=seed
            )
        else:
            curves[name] = decision_curve(ranking, points)
    with drawing(ax, CALIBRATION_FRAME, "plot-decision-curve") as axes:
        draw_decision_curve(axes, curves, standardized=standardized)
    return axes
