"""The report's plots as inline SVG, drawn with matplotlib's object-oriented API.

Presentation only: every value drawn comes from a summary (`Table`, `Payoff`,
`Evaluation`, `Ranking`) or from the library's curve functions; axis titles and ranges of
contingency measures come from the registry `informed.measures.MEASURES`. No pyplot and
no backend state: a `matplotlib.figure.Figure` renders itself, under a local `rc_context`,
so importing this module changes nothing for the caller.

Each function returns one ``<svg>`` element ready to be placed in an HTML document: no XML
prolog, no metadata, no namespace URLs, every ``id`` prefixed with the figure's name so
that several plots can share one page, and the same bytes for the same input (a fixed hash
salt, no date). Text stays text (``svg.fonttype = "none"``), so it is searchable and
tested, and user labels are never read as mathtext.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import numpy as np
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import NDArray

from informed.labels import Label, label_kind
from informed.measures.registry import MEASURES, Measure
from informed.ranking.document import undefined_reason
from informed.ranking.quotas import hit_rate, lift_table, optimal_qrecall, qrecall, random_qrecall
from informed.ranking.ranking import Ranking
from informed.ranking.summaries import auc, pem
from informed.ranking.thresholds import roc_convex_hull, roc_curve
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff
from informed.table.table import Table

__all__ = [
    "MAX_POINTS",
    "PAYOFF_IN_CELLS",
    "contingency_svg",
    "labels_svg",
    "lift_svg",
    "quota_svg",
    "roc_svg",
    "short_label",
]

PAYOFF_IN_CELLS = 12
"""The heat map writes each cell's payoff under its count up to this many labels; beyond,
the cells are too small for two numbers, and the payoffs are in the payoff table."""

MAX_POINTS = 2000
"""Curves are drawn through at most this many points (plus the hull's vertices): a page
of a million-point polylines would be slow to open and no sharper on screen."""

# Okabe & Ito's palette: distinguishable with the common colour-vision deficiencies.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
RED = "#D55E00"
SKY = "#56B4E9"
GREY = "#7f7f7f"

_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "text.parse_math": False,  # a label such as "$5" is text, not mathtext
    "font.family": "sans-serif",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e3e3e3",
    "grid.linewidth": 0.6,
    "legend.fontsize": 8.5,
    "legend.frameon": False,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
}

_TAG = re.compile(r"<[^>]*>")


@contextmanager
def _style(name: str) -> Iterator[None]:
    # the salt makes the clip-path ids depend on the figure only: the same bytes every run
    # (matplotlib types rc keys as literals; this dict is checked when it is applied)
    with rc_context(cast("Any", {**_STYLE, "svg.hashsalt": name})):
        yield


def short_label(label: object, width: int = 18) -> str:
    """`label` as text, cut to `width` characters with an ellipsis."""
    text = str(label)
    return text if len(text) <= width else text[: width - 1] + "…"


def _svg(figure: Figure, name: str, description: str) -> str:
    """Render `figure` as an inline <svg id=name> element (see the module docstring)."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.DOTALL)

    def tag(match: re.Match[str]) -> str:
        # rewrite inside tags only: text nodes (user labels) are left as they are
        out = re.sub(r'\s+xmlns(?::\w+)?="[^"]*"', "", match[0])
        out = re.sub(r'\bid="([^"]+)"', rf'id="{name}-\1"', out)
        return re.sub(r'(href="#|url\(#)([^")]+)', rf"\g<1>{name}-\2", out)

    text = _TAG.sub(tag, text)
    size = re.match(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', text)
    if size is None:  # pragma: no cover - matplotlib's SVG header changed
        msg = "unexpected SVG header from matplotlib"
        raise RuntimeError(msg)
    width = size[1]
    text = text.replace(
        size[0],
        f'<svg id="{name}" width="100%" style="max-width:{width}pt" role="img" '
        f'aria-label="{_attribute(description)}"',
        1,
    )
    # matplotlib's one style rule would otherwise apply to the whole page
    return text.replace('<style type="text/css">*{', f'<style type="text/css">#{name} *{{', 1)


def _attribute(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )


def _figure(
    width: float, height: float, *, left: float, right: float, bottom: float, top: float
) -> Figure:
    """A figure with fixed margins in inches: twice as fast as a layout engine, and these
    plots' texts are known in advance (the heat map, whose labels are not, uses one)."""
    figure = Figure(figsize=(width, height))
    figure.subplots_adjust(
        left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - top / height
    )
    return figure


def _message(name: str, title: str, message: str) -> str:
    """A small figure that says why a plot could not be drawn."""
    with _style(name):
        figure = _figure(5.0, 1.6, left=0.1, right=0.1, bottom=0.1, top=0.4)
        axes = figure.subplots()
        axes.set_axis_off()
        axes.set_title(title)
        axes.text(0.5, 0.45, f"undefined: {message}", ha="center", va="center", color=RED)
        return _svg(figure, name, f"{title}: undefined, {message}")


def _thin(size: int, keep: NDArray[np.intp] | None = None) -> NDArray[np.intp]:
    """Indices 0..size-1, evenly thinned to about MAX_POINTS, always keeping `keep`."""
    if size <= MAX_POINTS:
        return np.arange(size)
    index = np.unique(np.linspace(0, size - 1, MAX_POINTS).round().astype(np.intp))
    return index if keep is None else np.union1d(index, keep)


def _quotas(ranking: Ranking) -> NDArray[np.float64]:
    """Quotas to draw at: every integer position for short rankings, an even grid beyond."""
    n = float(ranking.n)
    steps = math.ceil(n) if n <= MAX_POINTS else MAX_POINTS
    return np.linspace(0.0, n, steps + 1)


def _reference(ranking: Ranking, *, optimal: bool) -> Ranking:
    """The same positives and negatives, ordered optimally (all positives first) or at random.

    A random order is, in expectation, one tie group holding every row: the curves of these
    two rankings are the seed's "optimal" and "random" references (seed 004, Table 5).
    """
    n_positive, n_negative = ranking.n_positive, ranking.n_negative
    groups = (
        [(1.0, n_positive, 0), (0.0, 0, n_negative)] if optimal else [(0.0, n_positive, n_negative)]
    )
    groups = [g for g in groups if g[1] or g[2]]
    scores = np.array([g[0] for g in groups])
    if ranking.weighted:
        return Ranking(
            scores=scores,
            positives=np.array([g[1] for g in groups], dtype=np.float64),
            negatives=np.array([g[2] for g in groups], dtype=np.float64),
        )
    return Ranking(
        scores=scores,
        positives=np.array([g[1] for g in groups], dtype=np.int64),
        negatives=np.array([g[2] for g in groups], dtype=np.int64),
    )


# ---------------------------------------------------------------------- ranking plots
def roc_svg(
    ranking: Ranking,
    *,
    operating_point: tuple[float, float] | None = None,
    name: str = "plot-roc",
) -> str:
    """The ROC curve of `ranking` with its convex hull and the chance diagonal.

    Parameters
    ----------
    ranking : Ranking
    operating_point : (fallout, recall), optional
        A classifier's point to mark on the plane (the evaluated predictions).
    name : str
        The id of the <svg> element and the prefix of every id inside it.
    """
    fallout, recall = MEASURES["fallout"], MEASURES["recall"]
    title = "ROC curve"
    reason = undefined_reason(ranking, "roc_curve")
    if reason is not None:
        return _message(name, title, reason)
    curve = roc_curve(ranking)
    hull = roc_convex_hull(ranking)
    shown = _thin(curve.index.size, hull.index)
    area = auc(ranking)
    with _style(name):
        figure = _figure(5.2, 5.0, left=0.75, right=0.2, bottom=0.6, top=0.4)
        axes = figure.subplots()
        axes.plot(
            [fallout.low, fallout.high],
            [recall.low, recall.high],
            color=GREY,
            linestyle="--",
            linewidth=1,
            label="chance (informedness 0, AUC 0.5)",
            gid="chance",
        )
        axes.plot(
            hull.false_positive_rate,
            hull.true_positive_rate,
            color=ORANGE,
            linewidth=2.2,
            label="convex hull",
            gid="hull",
        )
        few = curve.index.size <= 60
        axes.plot(
            curve.false_positive_rate[shown],
            curve.true_positive_rate[shown],
            color=BLUE,
            linewidth=1.6,
            marker="o" if few else None,
            markersize=3,
            label=f"scores (AUC {area:.4f})",
            gid="curve",
        )
        if operating_point is not None and all(map(math.isfinite, operating_point)):
            axes.plot(
                [operating_point[0]],
                [operating_point[1]],
                linestyle="none",
                marker="D",
                markersize=7,
                color=RED,
                label="evaluated predictions",
                gid="operating-point",
            )
        axes.set_xlim(fallout.low - 0.01, fallout.high + 0.01)
        axes.set_ylim(recall.low - 0.01, recall.high + 0.01)
        axes.set_aspect("equal")
        axes.set_xlabel(_named(fallout, "false positive rate"))
        axes.set_ylabel(_named(recall, "true positive rate"))
        axes.set_title(title)
        axes.legend(loc="lower right")
        return _svg(figure, name, f"{title}, AUC {area:.4f}")


def quota_svg(ranking: Ranking, *, name: str = "plot-quota") -> str:
    """Qrecall and hit rate against the quota, with random and optimal references.

    The area between Qrecall and the random reference is shaded: above it (S1) adds to
    PEM, below it (S2) subtracts (seed 004, eq. 14-15).
    """
    title = "Quota curves"
    reason = (
        "no data: the ranking is empty"
        if ranking.n == 0
        else undefined_reason(ranking, "qrecall", float(ranking.n))
    )
    if reason is not None:
        return _message(name, title, reason)
    x = _quotas(ranking)
    model_recall = qrecall(ranking, x)
    random_recall = random_qrecall(ranking, x)
    best_recall = optimal_qrecall(ranking, x)
    model_hits = hit_rate(ranking, x)
    random_hits = hit_rate(_reference(ranking, optimal=False), x)
    best_hits = hit_rate(_reference(ranking, optimal=True), x)
    value = pem(ranking)
    with _style(name):
        figure = _figure(10.0, 4.3, left=0.75, right=0.2, bottom=0.65, top=0.4)
        figure.subplots_adjust(wspace=0.28)
        left, right = figure.subplots(1, 2)
        left.fill_between(
            x,
            model_recall,
            random_recall,
            where=model_recall >= random_recall,
            interpolate=True,
            color=GREEN,
            alpha=0.25,
            linewidth=0,
            label="S1: above random (adds to PEM)",
            gid="pem-above",
        )
        left.fill_between(
            x,
            model_recall,
            random_recall,
            where=model_recall <= random_recall,
            interpolate=True,
            color=RED,
            alpha=0.25,
            linewidth=0,
            label="S2: below random (subtracts)",
            gid="pem-below",
        )
        left.plot(
            x,
            best_recall,
            color=ORANGE,
            linestyle="--",
            label="optimal order",
            gid="qrecall-optimal",
        )
        left.plot(
            x, random_recall, color=GREY, linestyle="--", label="random order", gid="qrecall-random"
        )
        left.plot(x, model_recall, color=BLUE, linewidth=1.8, label="scores", gid="qrecall")
        pem_text = "undefined" if math.isnan(value) else f"{value:.4f}"
        left.set_title(f"Qrecall (PEM {pem_text})")
        left.set_xlabel("quota j (instances taken from the top)")
        left.set_ylabel("Qrecall(j): share of all positives caught")
        left.set_xlim(0, float(ranking.n))
        left.set_ylim(-0.02, 1.02)
        left.legend(loc="lower right")

        right.plot(
            x, best_hits, color=ORANGE, linestyle="--", label="optimal order", gid="hit-optimal"
        )
        right.plot(
            x,
            random_hits,
            color=GREY,
            linestyle="--",
            label="random order (prevalence)",
            gid="hit-random",
        )
        right.plot(x, model_hits, color=BLUE, linewidth=1.8, label="scores", gid="hit-rate")
        right.set_title("Hit rate")
        right.set_xlabel("quota j (instances taken from the top)")
        right.set_ylabel("hit rate(j): share of positives in the top j")
        right.set_xlim(0, float(ranking.n))
        right.set_ylim(-0.02, 1.02)
        right.legend(loc="upper right")
        return _svg(figure, name, f"Qrecall and hit rate against the quota, PEM {pem_text}")


def lift_svg(ranking: Ranking, *, bins: int = 10, name: str = "plot-lift") -> str:
    """Lift of each bin of the ranking (deciles by default), with the lift = 1 line."""
    title = "Lift by decile" if bins == 10 else f"Lift by bin ({bins} bins)"
    reason = (
        "no data: the ranking is empty"
        if ranking.n == 0
        else undefined_reason(ranking, "lift", float(ranking.n))
    )
    if reason is not None:
        return _message(name, title, reason)
    table = lift_table(ranking, bins)
    position = np.arange(1, bins + 1)
    with _style(name):
        figure = _figure(5.6, 5.0, left=0.75, right=0.2, bottom=0.65, top=0.4)
        axes = figure.subplots()
        bars = axes.bar(position, table.lift, color=SKY, edgecolor=BLUE, label="lift of the bin")
        axes.axhline(
            1.0, color=GREY, linestyle="--", linewidth=1.2, label="chance: lift 1", gid="chance"
        )
        axes.plot(
            position,
            table.cumulative_lift,
            color=ORANGE,
            marker="o",
            markersize=4,
            label="cumulative lift",
            gid="cumulative",
        )
        if bins <= 20:
            axes.bar_label(bars, labels=[f"{v:.2f}" for v in table.lift], fontsize=8, padding=2)
        step = max(1, bins // 10)
        ticks = position[::step]
        axes.set_xticks(ticks, [f"{100 * b / bins:.3g} %" for b in ticks.tolist()])
        axes.set_xlabel("top share of the ranking (bin's upper edge)")
        axes.set_ylabel("lift = bin's rate of positives / overall rate")
        axes.set_title(title)
        axes.set_ylim(bottom=0)
        axes.grid(axis="x", visible=False)
        axes.legend(loc="upper right")
        return _svg(figure, name, title)


# ---------------------------------------------------------------------- table plots
def _index(labels: Sequence[Label]) -> dict[tuple[str, Label], int]:
    return {(label_kind(x), x): i for i, x in enumerate(labels)}


def _count_text(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def contingency_svg(
    table: Table,
    pay: Payoff,
    rows: Sequence[Label],
    columns: Sequence[Label],
    *,
    name: str = "plot-heatmap",
) -> str:
    """The contingency table as a heat map of counts, each cell annotated with its payoff.

    Parameters
    ----------
    table : Table
    pay : Payoff
        `informed.payoff.payoff(table)`: the payoff per unit stake of each cell.
    rows, columns : sequence of labels
        The predicted labels (rows) and actual classes (columns) to show, in order.
    """
    size = max(len(rows), len(columns), 1)
    with_payoff = size <= PAYOFF_IN_CELLS
    title = (
        "Contingency table: counts and payoff per unit stake"
        if with_payoff
        else ("Contingency table: counts")
    )
    where = _index(pay.labels)
    counts = [[table.count(p, a) for a in columns] for p in rows]
    grid = np.array(counts, dtype=np.float64).reshape(len(rows), len(columns))
    cell = 1.0 if size <= 4 else (0.75 if size <= 10 else 0.5)
    width = min(max(3.0 + cell * len(columns), 5.0), 12.5)
    height = min(max(2.0 + cell * len(rows), 3.2), 12.0)
    big = 12 if size <= 6 else (10 if size <= PAYOFF_IN_CELLS else 9)
    with _style(name):
        figure = Figure(figsize=(width, height), layout="constrained")
        axes = figure.subplots()
        axes.grid(visible=False)
        top = float(grid.max()) if grid.size else 0.0
        # vector cells (a mesh, not an embedded bitmap): crisp at any zoom
        image = axes.pcolormesh(
            np.arange(len(columns) + 1) - 0.5,
            np.arange(len(rows) + 1) - 0.5,
            grid,
            cmap="Blues",
            vmin=0.0,
            vmax=top if top > 0 else 1.0,
            edgecolors="white",
            linewidth=1.0,
        )
        image.set_gid("cells")
        axes.set_xlim(-0.5, len(columns) - 0.5)
        axes.set_ylim(len(rows) - 0.5, -0.5)
        for i, predicted in enumerate(rows):
            for j, actual in enumerate(columns):
                count = counts[i][j]
                dark = top > 0 and float(count) > 0.55 * top
                colour = "white" if dark else "#1a1a1a"
                payoff_value = float(
                    pay.matrix[
                        where[(label_kind(predicted), predicted)],
                        where[(label_kind(actual), actual)],
                    ]
                )
                axes.text(
                    j,
                    i - 0.13 if with_payoff else i,
                    _count_text(count),
                    ha="center",
                    va="center",
                    fontsize=big,
                    color=colour,
                    fontweight="bold",
                    in_layout=False,  # inside the axes: the layout need not measure it
                )
                if with_payoff:
                    axes.text(
                        j,
                        i + 0.22,
                        "0" if payoff_value == 0 else f"{payoff_value:+.3f}",  # 0: nothing bet
                        ha="center",
                        va="center",
                        fontsize=big - 1.5,
                        color=colour,
                        in_layout=False,
                    )
        rotate = len(columns) > 6 or any(len(str(c)) > 6 for c in columns)
        axes.set_xticks(
            range(len(columns)),
            [short_label(c) for c in columns],
            rotation=35 if rotate else 0,
            ha="right" if rotate else "center",
            rotation_mode="anchor",
        )
        axes.set_yticks(range(len(rows)), [short_label(r) for r in rows])
        axes.tick_params(length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        axes.set_xlabel("actual class")
        axes.set_ylabel("predicted label")
        axes.set_title(title)

        return _svg(figure, name, title)


def labels_svg(
    evaluation: Evaluation,
    annotate: Sequence[Label],
    *,
    name: str = "plot-labels",
) -> str:
    """Per-label informedness (x) against markedness (y), with the B = M diagonal.

    Every label with both values defined is drawn; the labels in `annotate` are named.
    """
    informedness, markedness = MEASURES["informedness"], MEASURES["markedness"]
    title = f"{informedness.title} and {markedness.title} per label"
    names = _index(annotate)
    points = [
        (label, values["informedness"], values["markedness"])
        for label, values in evaluation.per_label.items()
        if math.isfinite(values["informedness"]) and math.isfinite(values["markedness"])
    ]
    low = min(informedness.low, markedness.low)
    high = max(informedness.high, markedness.high)
    with _style(name):
        figure = _figure(5.6, 5.4, left=0.75, right=0.2, bottom=0.6, top=0.4)  # 4.4 in square
        axes = figure.subplots()
        axes.plot(
            [low, high],
            [low, high],
            color=GREY,
            linestyle="--",
            linewidth=1,
            label="B = M",
            gid="diagonal",
        )
        if informedness.chance is not None:
            axes.axvline(informedness.chance, color="#bbbbbb", linewidth=0.9)
        if markedness.chance is not None:
            axes.axhline(markedness.chance, color="#bbbbbb", linewidth=0.9)
        if points:
            axes.scatter(
                [p[1] for p in points],
                [p[2] for p in points],
                s=34,
                color=BLUE,
                edgecolor="white",
                linewidth=0.6,
                zorder=3,
                label="one label (one-vs-rest)",
                gid="labels",
            )
        overall_b = evaluation.measures["informedness"]
        overall_m = evaluation.measures["markedness"]
        if math.isfinite(overall_b) and math.isfinite(overall_m):
            axes.scatter(
                [overall_b],
                [overall_m],
                s=120,
                marker="*",
                color=ORANGE,
                edgecolor="#333333",
                linewidth=0.5,
                zorder=4,
                label="overall" if evaluation.positive is None else "positive label",
                gid="overall",
            )
        # from chance (or the lowest value, if below it) to the top of the range: the
        # worse-than-chance corner is drawn only when a label lies in it
        chances = [c for c in (informedness.chance, markedness.chance) if c is not None]
        drawn = [v for p in points for v in p[1:]] + [overall_b, overall_m]
        bottom = max(low, min([*chances, *(v for v in drawn if math.isfinite(v))], default=low))
        pad = 0.05 * (high - bottom)
        axes.set_xlim(bottom - pad, high + pad)
        axes.set_ylim(bottom - pad, high + pad)
        # labels drawn at one spot (as both labels of a binary table are) share one note
        spots: dict[tuple[float, float], list[str]] = {}
        for label, b, m in points:
            if (label_kind(label), label) in names:
                spots.setdefault((round(b, 3), round(m, 3)), []).append(short_label(label, 16))
        scale = (high - bottom + 2 * pad) / (_SCATTER_AXES * 72)  # data units per point
        _annotate(axes, spots, scale)
        axes.set_aspect("equal")
        axes.set_xlabel(_named(informedness, "Youden's J", "B"))
        axes.set_ylabel(_named(markedness, "deltaP", "M"))
        axes.set_title(title)
        axes.legend(loc="upper left")
        return _svg(figure, name, title)


_SCATTER_AXES = 4.4  # inches: the square axes of `labels_svg`


def _named(measure: Measure, alias: str, symbol: str = "") -> str:
    """An axis title: the registry's title, its symbol, and one of its aliases if it has it."""
    head = f"{measure.title} {symbol}".rstrip()
    return f"{head} ({alias})" if alias in measure.aliases else head


def _annotate(axes: Axes, spots: dict[tuple[float, float], list[str]], scale: float) -> None:
    """Name each spot beside it, on the first side whose text box overlaps no earlier one."""
    sides = (((5, 4), "left"), ((-5, 4), "right"), ((5, -13), "left"), ((-5, -13), "right"))
    placed: list[tuple[float, float, float, float]] = []
    for (b, m), texts in sorted(spots.items(), key=lambda item: -item[0][1]):
        text = ", ".join(texts) if len(texts) <= 3 else f"{texts[0]} and {len(texts) - 1} more"
        width, height = len(text) * 5.2 * scale, 10.0 * scale  # 8.5 pt text, roughly
        chosen = sides[0]
        for (dx, dy), align in sides:
            x0 = b + dx * scale - (width if align == "right" else 0.0)
            y0 = m + dy * scale
            box = (x0, x0 + width, y0, y0 + height)
            if not any(
                box[0] < p[1] and p[0] < box[1] and box[2] < p[3] and p[2] < box[3] for p in placed
            ):
                chosen = ((dx, dy), align)
                placed.append(box)
                break
        else:  # crowded on every side: the first side, overlapping
            placed.append(
                (b + 5 * scale, b + 5 * scale + width, m + 4 * scale, m + 4 * scale + height)
            )
        axes.annotate(
            text,
            (b, m),
            xytext=chosen[0],
            textcoords="offset points",
            ha=chosen[1],
            fontsize=8.5,
            color="#333333",
        )
