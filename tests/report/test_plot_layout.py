"""The plots' layout, measured on the matplotlib figures the report renders.

Each plot function is run with `svg` wrapped so that the test keeps the figure it rendered
(after the margins were fitted, exactly as drawn into the page). Matplotlib's Agg renderer
then measures every text a reader sees (titles, axis titles, tick labels, legend entries,
point names, bar labels) against the figure's box, every legend against its axes, and the
names in the per-label plot against each other. No expected value comes from the code
under test: the boxes are the renderer's.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

import informed
from informed import Slices, Table, Tally, bootstrap_slices, compare, evaluate
from informed.comparison import html as compare_plots
from informed.plots import style as style_module
from informed.plots import svg as svg_module
from informed.ranking import Ranking
from informed.report.html import figures as ranking_plots
from informed.report.html import figures as table_plots
from informed.table.payoff import payoff

EXAMPLE = Path(__file__).parents[2] / "examples" / "three_models.csv"
LONG = "a_label_with_a_rather_long_name"  # one word, cut by short_label to 16 or 22 chars


@dataclass
class Drawn:
    name: str
    figure: Figure


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """The figures the plot functions render, kept after `svg` made them into SVG."""
    kept: list[Drawn] = []
    render = svg_module.svg

    def keep(figure: Figure, name: str, description: str) -> str:
        out = render(figure, name, description)
        kept.append(Drawn(name, figure))
        return out

    # every plot of the report is rendered through informed.plots.svg (`drawn_svg`)
    monkeypatch.setattr(svg_module, "svg", keep)
    return kept


def _drawn_texts(axes: Axes) -> Iterator[Text]:
    """Every non-empty visible text of `axes` a reader sees, tick labels in view only."""
    candidates: list[Text] = [axes.title, axes.xaxis.label, axes.yaxis.label, *axes.texts]
    for axis, low_high in ((axes.xaxis, axes.get_xlim()), (axes.yaxis, axes.get_ylim())):
        low, high = sorted(low_high)
        for tick in axis.get_major_ticks():
            if low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                candidates += [tick.label1, tick.label2]
    legend = axes.get_legend()
    if legend is not None:
        candidates += [*legend.get_texts(), legend.get_title()]
    for text in candidates:
        if text.get_visible() and text.get_text().strip():
            yield text


def _inside(box: Bbox, frame: Bbox, slack: float = 0.5) -> bool:
    return (
        box.x0 >= frame.x0 - slack
        and box.x1 <= frame.x1 + slack
        and box.y0 >= frame.y0 - slack
        and box.y1 <= frame.y1 + slack
    )


def _tick_labels(axes: Axes) -> Iterator[list[Text]]:
    """The visible tick labels in view of each axis of `axes`."""
    for axis, low_high in ((axes.xaxis, axes.get_xlim()), (axes.yaxis, axes.get_ylim())):
        low, high = sorted(low_high)
        yield [
            tick.label1
            for tick in axis.get_major_ticks()
            if low - 1e-9 <= tick.get_loc() <= high + 1e-9
            and tick.label1.get_visible()
            and tick.label1.get_text().strip()
        ]


def _apart(name: str, labels: list[Text], renderer: Any) -> None:
    """No two tick labels on one another: level labels' boxes do not overlap; slanted
    labels (the heat map's), whose boxes do, are at least a line height apart across
    their slant."""
    for i, text in enumerate(labels):
        angle = math.radians(text.get_rotation())
        if angle == 0.0:
            box = text.get_window_extent(renderer)
            for other in labels[i + 1 :]:
                assert not box.overlaps(other.get_window_extent(renderer)), (name, text)
        elif i + 1 < len(labels):
            here = text.get_transform().transform(text.get_position())
            there = labels[i + 1].get_transform().transform(labels[i + 1].get_position())
            dx, dy = there - here
            across = abs(-dx * math.sin(angle) + dy * math.cos(angle))
            height = text.get_fontsize() * text.get_figure().dpi / 72.0  # type: ignore[union-attr]
            assert across >= height, (name, text.get_text(), across, height)


def check_layout(kept: list[Drawn]) -> None:
    """Every text inside its figure; no two tick labels of an axis on one another; every
    legend outside its axes (never over the data)."""
    assert kept, "no figure was rendered"
    for item in kept:
        # measured under the rc settings it is drawn with: ticks are placed by tick size
        with style_module.style(item.name):
            _check_figure(item)


def _check_figure(item: Drawn) -> None:
    figure = item.figure
    FigureCanvasAgg(figure).draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    for axes in figure.axes:
        for text in _drawn_texts(axes):
            box = text.get_window_extent(renderer)
            assert _inside(box, figure.bbox), (item.name, text.get_text(), box, figure.bbox)
        for labels in _tick_labels(axes):
            _apart(item.name, labels, renderer)
        # texts in the plot (names of points, bar labels, cell counts) never on one another
        # nor on the title
        notes = [t for t in [axes.title, *axes.texts] if t.get_visible() and t.get_text().strip()]
        boxes = [t.get_window_extent(renderer) for t in notes]
        for i, box in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                assert not box.overlaps(boxes[j]), (item.name, notes[i], notes[j])
        legend = axes.get_legend()
        if legend is not None:
            box = legend.get_window_extent(renderer)
            assert not box.overlaps(axes.get_window_extent(renderer)), (item.name, box)


def _names(figure: Figure) -> list[Annotation]:
    return [t for t in figure.axes[0].texts if isinstance(t, Annotation)]


def test_names_near_the_edge_are_not_cut(drawn: list[Drawn]) -> None:
    """Both labels of an almost perfect binary table sit at (B, M) near (1, 1), at the
    plot's right edge: their joint name ('benign, mali' before) lies inside the figure."""
    actual = ["benign_tissue_sample"] * 60 + [LONG] * 40
    predicted = ["benign_tissue_sample"] * 59 + [LONG] + [LONG] * 40
    evaluation = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    table_plots.labels_svg(evaluation, evaluation.table.labels)
    check_layout(drawn)
    (name,) = _names(drawn[0].figure)
    assert "benign_tissue_s" in name.get_text() and "a_label_with_a_" in name.get_text()


def test_crowded_names_never_cover_each_other(drawn: list[Drawn]) -> None:
    """Forty labels of nearly the same informedness and markedness: the names drawn never
    overlap, some are left out, and every name drawn is one of the labels."""
    rng = np.random.default_rng(3)
    labels = [f"{LONG}_{k:02d}" for k in range(40)]
    actual = rng.choice(labels, size=4000)
    predicted = np.where(rng.random(4000) < 0.6, actual, rng.choice(labels, size=4000))
    evaluation = evaluate(Table.from_labels(actual=actual, predicted=predicted))
    table_plots.labels_svg(evaluation, evaluation.table.labels)
    check_layout(drawn)
    figure = drawn[0].figure
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    boxes = [t.get_window_extent(renderer) for t in _names(figure)]
    assert 0 < len(boxes) < 40
    for i, box in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not box.overlaps(other), (box, other)
    shown = {label[:15] for label in labels}
    assert all(t.get_text()[:15] in shown for t in _names(figure))


def _ranking(flip: bool) -> Ranking:
    """A ranking; flipped, worse than chance, so its ROC curve runs through the lower right
    corner, where the legend used to be."""
    rng = np.random.default_rng(8)
    actual = rng.random(600) < 0.3
    scores = rng.normal(size=600) + np.where(actual, -1.5 if flip else 1.5, 0.0)
    return Ranking.from_scores(actual=actual, scores=scores.round(2), positive=True)


PLOTS: dict[str, Callable[[], Any]] = {
    "roc, worse than chance": lambda: ranking_plots.roc_svg(
        _ranking(flip=True), operating_point=(0.8, 0.2), threshold=_ranking(True).best_threshold()
    ),
    "quota": lambda: ranking_plots.quota_svg(_ranking(flip=False)),
    "lift": lambda: ranking_plots.lift_svg(_ranking(flip=False)),
    "lift, 20 bins": lambda: ranking_plots.lift_svg(_ranking(flip=True), bins=20),
}


@pytest.mark.parametrize("plot", sorted(PLOTS))
def test_ranking_plots_fit(plot: str, drawn: list[Drawn]) -> None:
    """ROC, quota and lift plots: all text inside, legends under the axes."""
    PLOTS[plot]()
    check_layout(drawn)


def test_heat_map_of_many_long_labels_fits(drawn: list[Drawn]) -> None:
    rng = np.random.default_rng(4)
    labels = [f"{LONG}_{k:02d}" for k in range(20)]
    actual = rng.choice(labels, size=2000)
    predicted = np.where(rng.random(2000) < 0.7, actual, rng.choice(labels, size=2000))
    table = Table.from_labels(actual=actual, predicted=predicted)
    table_plots.contingency_svg(table, payoff(table), table.predicted, table.actual)
    check_layout(drawn)


@pytest.mark.parametrize("length", [6, 9, 11, 12, 18])
def test_heat_map_column_names_never_meet(length: int, drawn: list[Drawn]) -> None:
    """Four labels: written level when they fit their cells, slanted when not; either way
    no two names on one another and all inside the figure."""
    labels = [f"{k}{'m' * (length - 1)}" for k in range(4)]
    actual = np.repeat(labels, [40, 30, 20, 10])
    table = Table.from_labels(actual=actual, predicted=np.roll(actual, 7))
    table_plots.contingency_svg(table, payoff(table), table.predicted, table.actual)
    check_layout(drawn)


@pytest.mark.parametrize("size", [3, 10, 12])
def test_heat_map_cells_hold_their_numbers(size: int, drawn: list[Drawn]) -> None:
    """Counts in the hundred thousands and payoffs (up to 12 labels) stay apart from their
    neighbours' in every cell size."""
    rng = np.random.default_rng(size)
    counts = rng.integers(1_000_000, 99_999_999, size=(size, size))
    table = Table.from_counts(counts, rows="predicted", labels=[f"c{k}" for k in range(size)])
    table_plots.contingency_svg(table, payoff(table), table.predicted, table.actual)
    check_layout(drawn)


def _example() -> list[dict[str, str]]:
    with EXAMPLE.open(newline="") as stream:
        return list(csv.DictReader(stream))


def test_comparison_plots_of_long_model_names_fit(drawn: list[Drawn]) -> None:
    """The three classifiers of examples/three_models.csv, renamed long: the forest plot's
    row labels ('Matthews correlation: <model>') were cut at its left edge, its tick labels
    (−0.175, −0.150, ...) ran into each other, and the models' ROC legend lay on the curves."""
    rows = _example()
    actual = [row["actual"] for row in rows]
    models = ("logistic", "bayes", "tree")
    predicted = {f"{LONG}_{m}": [row[m] for row in rows] for m in models}
    scores = {f"{LONG}_{m}": [float(row[f"{m}_score"]) for row in rows] for m in models}
    comparison = compare(
        actual,
        predicted,
        scores=scores,
        positive="malignant",
        replicates=1000,
        permutations=19,
        seed=0,
    )
    compare_plots.differences_svg(comparison)
    compare_plots.models_roc_svg(comparison)
    check_layout(drawn)


def test_points_at_the_edge_of_the_plane_are_drawn_whole() -> None:
    """A classifier's point at (fallout 0, recall 1) or near it sits on the axes' edge:
    its marker is not clipped to the axes (half a diamond before), in either ROC plot."""
    ranking = Ranking.from_scores(
        actual=[1, 1, 0, 0, 1, 0], scores=[0.9, 0.8, 0.7, 0.3, 0.2, 0.1], positive=1
    )
    page = ranking_plots.roc_svg(
        ranking, operating_point=(0.0, 1.0), threshold=ranking.best_threshold()
    )
    for gid in ("operating-point", "threshold"):
        group = re.search(rf'<g id="plot-roc-{gid}">(.*?)</g>', page, re.DOTALL)
        assert group is not None and "clip-path" not in group[1], gid
    rows, models = _example(), ("logistic", "tree")  # logistic's point: (0.0028, 0.934)
    comparison = compare(
        [row["actual"] for row in rows],
        {m: [row[m] for row in rows] for m in models},
        scores={m: [float(row[f"{m}_score"]) for row in rows] for m in models},
        positive="malignant",
        replicates=20,
        permutations=9,
        seed=0,
    )
    page = compare_plots.models_roc_svg(comparison)
    group = re.search(r'<g id="plot-compare-roc-point-1">(.*?)</g>', page, re.DOTALL)
    assert group is not None and "clip-path" not in group[1]


def test_counts_too_wide_for_their_cell_are_rounded_and_said_so() -> None:
    """Twelve labels, cells half an inch wide: 12,345,678 is written 12.3M and the axis
    title says so; three labels of counts below a million are written in full."""
    counts = np.full((12, 12), 7)
    counts[0, 0] = 12_345_678
    table = Table.from_counts(counts, rows="predicted", labels=[f"c{k}" for k in range(12)])
    page = table_plots.contingency_svg(table, payoff(table), table.predicted, table.actual)
    assert ">12.3M<" in page and "12,345,678" not in page
    assert "counts to 3 digits: k thousand, M million" in page
    small = Table.from_counts(
        [[999_999, 5, 0], [1, 400_000, 2], [0, 3, 77]], rows="predicted", labels=["a", "b", "c"]
    )
    page = table_plots.contingency_svg(small, payoff(small), small.predicted, small.actual)
    assert ">999,999<" in page and ">400,000<" in page and "counts to 3 digits" not in page


def _notebook_plots() -> dict[str, Callable[[], Any]]:
    ranking = _ranking(flip=False)
    rows = _example()
    actual = [row["actual"] for row in rows]
    models = ("logistic", "bayes", "tree")
    comparison = compare(
        actual,
        {f"{LONG}_{m}": [row[m] for row in rows] for m in models},
        scores={f"{LONG}_{m}": [float(row[f"{m}_score"]) for row in rows] for m in models},
        positive="malignant",
        replicates=200,
        permutations=9,
        seed=0,
    )
    labels = [f"{LONG}_{k:02d}" for k in range(8)]
    rng = np.random.default_rng(4)
    truth = rng.choice(labels, size=800)
    guess = np.where(rng.random(800) < 0.7, truth, rng.choice(labels, size=800))
    slices = Slices.from_labels(
        by=rng.choice([f"{LONG}_{k}" for k in range(5)], 800),
        actual=(truth == labels[0]).astype(int),
        predicted=(guess == labels[0]).astype(int),
    )
    sliced = bootstrap_slices(slices, ["informedness"], positive=1, replicates=50, seed=0)
    tally = Tally([f"{LONG}_{k}" for k in range(6)])
    for k in range(200):
        tally.add_result([f"{LONG}_{k % 6}"], [f"{LONG}_{(k * 7) % 6}", f"{LONG}_{k % 5}"])
    return {
        "roc": lambda: informed.plot_roc(ranking, threshold=ranking.best_threshold()),
        "qrecall": lambda: informed.plot_qrecall(ranking),
        "hit rate": lambda: informed.plot_hit_rate(ranking),
        "lift": lambda: informed.plot_lift(ranking, bins=20),
        "contingency": lambda: informed.plot_contingency(truth, guess),
        "per label": lambda: informed.plot_per_label(truth, guess),
        "slices": lambda: informed.plot_slices(sliced),
        "slices over time": lambda: informed.plot_slices_over_time(sliced),
        "tally": lambda: informed.plot_tally(tally, seed=0, replicates=100),
        "models": lambda: informed.plot_models_roc(comparison),
        "differences": lambda: informed.plot_differences(comparison),
    }


def test_notebook_figures_fit_their_texts() -> None:
    """Each plot function's own figure (no ax given), as a notebook shows it: every text
    inside the figure, no two tick labels on one another, legends off the data, with long
    labels everywhere."""
    plots = _notebook_plots()
    kept = []
    for name, plot in plots.items():
        axes = plot()
        figure = axes.get_figure(root=True)
        assert isinstance(figure, Figure)
        kept.append(Drawn(f"notebook {name}", figure))
    check_layout(kept)
