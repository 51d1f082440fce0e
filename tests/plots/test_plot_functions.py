"""The notebook plot functions: each returns the Axes it drew on, holding the artists it
promises, and the data those artists hold is the data an independent computation gives
(scikit-learn's ROC curve and confusion matrix, counts by hand), not merely present.

How a notebook sees the result is tested too: a figure made without pyplot changes no
global state and shows itself as a PNG (`ShownAxes._repr_png_`); with pyplot in use the
figure is pyplot's (shown by ``plt.show()`` and the inline backend), in a subprocess so
that this test session never imports pyplot (its figures would pile up in it).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("sklearn")

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from sklearn import metrics as sklearn_metrics

import informed
from informed import InputError, InputTypeError, Ranking, Slices, Table, Tally
from informed.inference import tally_intervals

RNG = np.random.default_rng(7)
ACTUAL = RNG.random(300) < 0.35
SCORES = RNG.normal(size=300) + 1.2 * ACTUAL  # continuous: no ties


def _gids(axes: Axes) -> dict[str, object]:
    found: dict[str, object] = {}
    for artist in [*axes.get_lines(), *axes.collections]:
        if artist.get_gid():
            found[str(artist.get_gid())] = artist
    return found


def test_roc_draws_the_curve_scikit_learn_computes() -> None:
    """The curve's vertices are scikit-learn's roc_curve (every threshold kept); the hull,
    the chance diagonal and the threshold's point are there, the point at at_threshold's
    (fallout, recall)."""
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=True)
    point = ranking.at_threshold(0.5)
    axes = informed.plot_roc(ranking, threshold=0.5)
    lines = _gids(axes)
    assert {"chance", "hull", "curve", "threshold"} <= set(lines)
    fpr, tpr, _ = sklearn_metrics.roc_curve(ACTUAL, SCORES, drop_intermediate=False)
    curve = lines["curve"]
    np.testing.assert_allclose(curve.get_xdata(), fpr, atol=1e-15)  # type: ignore[attr-defined]
    np.testing.assert_allclose(curve.get_ydata(), tpr, atol=1e-15)  # type: ignore[attr-defined]
    marker = lines["threshold"]
    assert marker.get_xdata()[0] == point.false_positive_rate  # type: ignore[attr-defined]
    assert marker.get_ydata()[0] == point.true_positive_rate  # type: ignore[attr-defined]
    hull = lines["hull"]
    xs, ys = hull.get_xdata(), hull.get_ydata()  # type: ignore[attr-defined]
    assert xs[0] == ys[0] == 0.0 and xs[-1] == ys[-1] == 1.0
    # every curve point lies on or under the hull
    assert np.all(np.interp(fpr, xs, ys) >= tpr - 1e-12)
    assert axes.get_legend() is not None


def test_rows_build_the_same_ranking_as_the_summary() -> None:
    """plot_roc(actual, scores, positive=...) draws exactly what plot_roc(ranking) draws."""
    by_rows = _gids(informed.plot_roc(ACTUAL, SCORES, positive=True))["curve"]
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=True)
    by_summary = _gids(informed.plot_roc(ranking))["curve"]
    assert np.array_equal(by_rows.get_xydata(), by_summary.get_xydata())  # type: ignore[attr-defined]


def test_quota_curves_and_lift_hold_the_counts_by_hand() -> None:
    """Qrecall at quota j is the share of positives in the top j (no ties here), the hit
    rate the share among those j, the lift of each decile its rate over the prevalence;
    PEM's two areas are drawn."""
    order = np.argsort(-SCORES)
    hits = np.cumsum(ACTUAL[order])
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=True)
    qrecall = informed.plot_qrecall(ranking)
    line = _gids(qrecall)["qrecall"]
    x, y = line.get_xdata(), line.get_ydata()  # type: ignore[attr-defined]
    assert x.tolist() == list(range(301))
    np.testing.assert_allclose(y[1:], hits / ACTUAL.sum(), rtol=1e-12)
    assert {"pem-above", "pem-below", "qrecall-random", "qrecall-optimal"} <= set(_gids(qrecall))
    hit = _gids(informed.plot_hit_rate(ranking))["hit-rate"]
    np.testing.assert_allclose(hit.get_ydata()[1:], hits / np.arange(1, 301), rtol=1e-12)  # type: ignore[attr-defined]
    lift = informed.plot_lift(ranking)
    assert len(lift.patches) == 10
    prevalence = ACTUAL.mean()
    expected = [ACTUAL[order][k * 30 : (k + 1) * 30].mean() / prevalence for k in range(10)]
    np.testing.assert_allclose([p.get_height() for p in lift.patches], expected, rtol=1e-12)
    assert {"chance", "cumulative"} <= set(_gids(lift))


def test_heat_map_writes_scikit_learns_counts_and_the_payoffs() -> None:
    """Each cell's count is scikit-learn's confusion matrix, transposed (rows predicted);
    each row's payoffs add up to that label's informedness."""
    labels = ["a", "b", "c"]
    actual = RNG.choice(labels, 200)
    predicted = np.where(RNG.random(200) < 0.6, actual, RNG.choice(labels, 200))
    axes = informed.plot_contingency(actual, predicted)
    assert _gids(axes)["cells"] is not None
    texts = [t.get_text() for t in axes.texts]
    counts = [int(t) for t in texts[0::2]]
    payoffs = [float(t) for t in texts[1::2]]
    expected = sklearn_metrics.confusion_matrix(actual, predicted, labels=labels).T
    assert counts == expected.ravel().tolist()
    evaluation = informed.evaluate(actual, predicted)
    for row, label in enumerate(labels):
        won = sum(payoffs[3 * row : 3 * row + 3])
        assert won == pytest.approx(evaluation.per_label[label]["informedness"], abs=2e-3)


def test_heat_map_of_many_labels_shows_the_most_frequent() -> None:
    """Thirty labels: twenty drawn, the most frequent, and the axis title says so."""
    labels = [f"l{k:02d}" for k in range(30)]
    actual = np.repeat(labels, np.arange(30, 0, -1))
    axes = informed.plot_contingency(informed.Table.from_labels(actual, actual))
    names = [t.get_text() for t in axes.get_xticklabels()]
    assert names == labels[:20]
    assert "20 of 30 labels shown" in axes.get_xlabel()
    chosen = informed.plot_contingency(actual, actual, labels=["l29", "l00"])
    assert [t.get_text() for t in chosen.get_xticklabels()] == ["l00", "l29"]
    with pytest.raises(InputError, match="not among"):
        informed.plot_contingency(actual, actual, labels=["nope"])


def test_per_label_points_are_each_labels_informedness_and_markedness() -> None:
    """Each point is (tpr - fpr, ppv - for) of its label's one-vs-rest table, by hand."""
    labels = ["a", "b", "c", "d"]
    actual = RNG.choice(labels, 400)
    predicted = np.where(RNG.random(400) < 0.5, actual, RNG.choice(labels, 400))
    axes = informed.plot_per_label(actual, predicted)
    points = _gids(axes)["labels"].get_offsets()  # type: ignore[attr-defined]
    expected = []
    for label in labels:
        tp = np.sum((predicted == label) & (actual == label))
        fp = np.sum((predicted == label) & (actual != label))
        fn = np.sum((predicted != label) & (actual == label))
        tn = np.sum((predicted != label) & (actual != label))
        expected.append((tp / (tp + fn) - fp / (fp + tn), tp / (tp + fp) - fn / (fn + tn)))
    np.testing.assert_allclose(np.asarray(points), expected, atol=1e-12)
    assert "overall" in _gids(axes) and "diagonal" in _gids(axes)


def _slices() -> Slices:
    group = RNG.choice(["north", "south", "east"], 600, p=[0.5, 0.4, 0.1])
    actual = RNG.integers(0, 2, 600)
    predicted = np.where(RNG.random(600) < 0.75, actual, 1 - actual)
    return Slices.from_labels(by=group, actual=actual, predicted=predicted)


def test_slices_forest_draws_each_slices_value_and_interval() -> None:
    """A dot per slice at its informedness (the Table of that slice, evaluated), its
    interval as a bar, and the overall value as the dashed line."""
    slices = _slices()
    result = informed.bootstrap_slices(slices, ["informedness"], positive=1, replicates=100, seed=0)
    axes = informed.plot_slices(result)
    names = [t.get_text() for t in axes.get_yticklabels()]
    lines = _gids(axes)
    for y, name in enumerate(names):
        value = informed.evaluate(slices.table(name), positive=1).measures["informedness"]
        assert lines[f"estimate-{y}"].get_xdata()[0] == pytest.approx(value, abs=1e-12)  # type: ignore[attr-defined]
        low, high = lines[f"interval-{y}"].get_xdata()  # type: ignore[attr-defined]
        assert low <= value <= high
    overall = informed.evaluate(slices.overall, positive=1).measures["informedness"]
    assert lines["overall"].get_xdata()[0] == pytest.approx(overall, abs=1e-12)  # type: ignore[attr-defined]
    over_time = informed.plot_slices_over_time(result)
    assert {"line-0", "band-0", "overall"} <= set(_gids(over_time))


def test_time_plot_draws_a_line_per_group_and_marks_windows_that_differ() -> None:
    """Windows crossed with groups: one line per group, each point at its slice's
    informedness; with disparities, a red circle on exactly the windows whose difference
    from the reference excludes 0 (read from the Disparities, not the plot) and a square on
    the reference."""
    weeks = np.repeat(["2024-01-01", "2024-01-08", "2024-01-15", "2024-01-22"], 400)
    group = np.tile(["app", "web"], 800)
    actual = RNG.integers(0, 2, 1600)
    # the last week is far less informed: its windows must differ from the first
    right = np.where(weeks == "2024-01-22", 0.55, 0.95)
    predicted = np.where(RNG.random(1600) < right, actual, 1 - actual)
    slices = Slices.from_labels(
        by=[weeks, group], names=["week", "channel"], actual=actual, predicted=predicted
    )
    result = informed.bootstrap_slices(slices, ["informedness"], positive=1, replicates=200, seed=0)
    found = informed.disparities(slices, positive=1, reference=("2024-01-01", "app"), seed=0)
    axes = informed.plot_slices_over_time(result, disparities=found)
    gids = _gids(axes)
    assert {"line-0", "line-1", "band-0", "band-1", "reference"} <= set(gids)
    values = result.evaluation.values["informedness"]
    for i in (0, 1):
        channel = axes.get_legend().get_texts()[i].get_text()
        members = [s for s, key in enumerate(slices.keys) if key[1] == channel]
        np.testing.assert_allclose(gids[f"line-{i}"].get_ydata(), values[members])  # type: ignore[attr-defined]
    expected = {
        s
        for s in range(len(slices.keys))
        if slices.keys[s] != found.reference
        and not found.vs_reference["informedness"][s].low
        <= 0
        <= found.vs_reference["informedness"][s].high
    }
    assert {int(g.split("-")[1]) for g in gids if g.startswith("differs-")} == expected
    # both channels of the last week are far from the reference
    assert {s for s, key in enumerate(slices.keys) if key[0] == "2024-01-22"} <= expected


def test_time_caption_names_the_square_only_where_the_reference_is_drawn() -> None:
    """The caption says "the square" when the reference window is drawn with a defined
    informedness; when the reference has none (a week of one class), it says that no
    window is compared and nothing is circled or squared."""
    from informed.plots.slices import time_caption

    weeks = np.repeat(["2024-01-01", "2024-01-08", "2024-01-15"], 200)
    actual = RNG.integers(0, 2, 600)
    actual[:200] = 1  # the first week holds one class: its informedness is undefined
    predicted = np.where(RNG.random(600) < 0.9, actual, 1 - actual)
    slices = Slices.from_labels(by=weeks, actual=actual, predicted=predicted)
    result = informed.bootstrap_slices(slices, ["informedness"], positive=1, replicates=50, seed=0)
    undefined = informed.disparities(slices, positive=1, reference=("2024-01-01",), seed=0)
    caption = time_caption(result, undefined)
    assert (
        "No window is compared: the reference (2024-01-01) has no defined informedness" in caption
    )
    assert "square" not in caption
    gids = set(_gids(informed.plot_slices_over_time(result, disparities=undefined)))
    assert not {g for g in gids if g.startswith("differs-") or g == "reference"}
    defined = informed.disparities(slices, positive=1, reference=("2024-01-08",), seed=0)
    assert "(the square)" in time_caption(result, defined)
    assert "reference" in _gids(informed.plot_slices_over_time(result, disparities=defined))


def test_tally_plot_draws_each_categorys_informedness_micro_and_macro() -> None:
    """Each category's dot is its informedness by hand (tpr - fpr of its 2x2 table); the
    micro and macro lines are the tally's values."""
    tally = Tally(["sports", "politics", "weather"])
    for k in range(60):
        tally.add_result(
            ["sports"] if k % 3 else ["politics"], ["sports", "politics"] if k % 4 else []
        )
        tally.add_result(["weather"] if k % 5 else [], ["weather"] if k % 2 else [])
    result = tally_intervals(tally, ["informedness"], replicates=200, seed=0)
    axes = informed.plot_tally(result)
    lines = _gids(axes)
    for y, text in enumerate(axes.get_yticklabels()):
        (a, b), (c, d) = tally.table(text.get_text()).counts.tolist()
        expected = a / (a + c) - b / (b + d)
        assert lines[f"estimate-{y}"].get_xdata()[0] == pytest.approx(expected, abs=1e-12)  # type: ignore[attr-defined]
    assert lines["micro"].get_xdata()[0] == pytest.approx(tally.micro("informedness"))  # type: ignore[attr-defined]
    assert lines["macro"].get_xdata()[0] == pytest.approx(tally.macro("informedness"))  # type: ignore[attr-defined]
    with pytest.raises(InputError, match="not 'recall'"):
        informed.plot_tally(result, "recall")


def test_comparison_plots_draw_each_model() -> None:
    """Every model's curve and, cut at a threshold, its point; a dot and a bar per
    difference, with the zero line."""
    y = ACTUAL.astype(int)
    scores = {"sharp": SCORES, "dull": RNG.normal(size=300) + 0.3 * ACTUAL}
    result = informed.compare(
        y,
        {k: (v > 0.5).astype(int) for k, v in scores.items()},
        scores=scores,
        positive=1,
        replicates=50,
        permutations=9,
        seed=0,
    )
    roc = _gids(informed.plot_models_roc(result))
    assert {"chance", "curve-1", "curve-2", "point-1", "point-2"} <= set(roc)
    forest = informed.plot_differences(result)
    rows = len(result.measures) * (len(result.models) - 1)
    assert len(forest.get_yticklabels()) == rows
    assert "zero" in _gids(forest) and "estimate-0" in _gids(forest)


def test_drawing_into_the_users_axes_changes_nothing_else() -> None:
    """With ax=, the user's own Axes is returned, drawn on, its figure's size kept; no
    figure is made."""
    figure = Figure(figsize=(9.0, 3.0))
    left, right = figure.subplots(1, 2)
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=True)
    assert informed.plot_roc(ranking, ax=left) is left
    assert informed.plot_lift(ranking, ax=right) is right
    assert tuple(figure.get_size_inches()) == (9.0, 3.0)
    assert len(figure.axes) == 2 and "curve" in _gids(left) and len(right.patches) == 10
    # beside each other, the two legends never meet (each takes fewer columns; in two
    # columns, as in a figure of its own, they did)
    first, second = left.get_legend(), right.get_legend()
    assert not first.get_window_extent().overlaps(second.get_window_extent())
    with pytest.raises(InputTypeError, match="must be a matplotlib Axes"):
        informed.plot_roc(ranking, ax=figure)


def test_a_new_figure_shows_itself_in_a_notebook() -> None:
    """Without ax and without pyplot: a plain Figure (no pyplot state), whose Axes a
    notebook shows as a PNG of the figure; the figure is fitted to its texts. In a fresh
    interpreter: a test worker may have imported pyplot already (torchmetrics, dcurves and
    mlxtend import it), and then the figures are pyplot's, as they should be."""
    code = """
import sys
import numpy as np
from matplotlib.figure import Figure
import informed
from informed.plots import ShownAxes
rng = np.random.default_rng(0)
actual = rng.random(300) < 0.35
axes = informed.plot_roc(actual, rng.normal(size=300) + 1.2 * actual, positive=True)
assert "matplotlib.pyplot" not in sys.modules
assert isinstance(axes, ShownAxes)
figure = axes.get_figure(root=True)
assert type(figure) is Figure and figure.canvas.manager is None
png = axes._repr_png_()
assert png is not None and png[:8] == b"\\x89PNG\\r\\n\\x1a\\n" and len(png) > 10_000
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_undefined_plots_say_why_on_their_axes() -> None:
    """A ROC curve without actual negatives draws no curve, and says why in red."""
    axes = informed.plot_roc([1, 1, 1], [0.3, 0.2, 0.1], positive=1)
    assert not axes.get_lines()
    (text,) = axes.texts
    assert text.get_text().startswith("undefined: ") and "negative" in text.get_text()


def test_wrong_inputs_name_the_call_to_write() -> None:
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=True)
    with pytest.raises(InputTypeError, match=r"plot_roc\(actual, scores, positive=\.\.\.\)"):
        informed.plot_roc(ACTUAL, SCORES)
    with pytest.raises(InputTypeError, match="would be ignored"):
        informed.plot_roc(ranking, SCORES)
    with pytest.raises(InputTypeError, match="needs a Ranking"):
        informed.plot_roc(ACTUAL)
    with pytest.raises(InputTypeError, match="needs a Table"):
        informed.plot_contingency(["a", "b"])
    with pytest.raises(InputTypeError, match="SliceBootstrap"):
        informed.plot_slices(_slices())
    with pytest.raises(InputTypeError, match=r"informed\.compare"):
        informed.plot_differences(ranking)
    with pytest.raises(InputTypeError, match="`bins` must be a positive integer"):
        informed.plot_lift(ranking, bins=2.5)  # type: ignore[arg-type]


PYPLOT = """
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import informed
axes = informed.plot_roc([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1], positive=1)
print(plt.get_fignums(), axes.get_figure(root=True) is plt.gcf(), axes._repr_png_())
"""

NO_PYPLOT = """
import sys
import informed
informed.plot_roc([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1], positive=1)
informed.plot_per_label(["a", "b", "a"], ["a", "b", "b"])
print("matplotlib.pyplot" in sys.modules)
"""


def test_with_pyplot_in_use_the_figure_is_pyplots() -> None:
    """A user who imported pyplot gets a pyplot figure (plt.show, plt.savefig and the
    inline backend show it), and no second picture from the Axes' own repr."""
    done = subprocess.run(
        [sys.executable, "-c", PYPLOT], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["[1]", "True", "None"]


def test_without_pyplot_nothing_imports_it() -> None:
    """Plotting without pyplot never imports it: no global figure list is touched."""
    done = subprocess.run(
        [sys.executable, "-c", NO_PYPLOT], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["False"]


def test_every_plot_function_is_a_top_level_name() -> None:
    """The public plot functions are all reachable as informed.plot_*, and documented
    with an example."""
    names = [name for name in informed.__all__ if name.startswith("plot_")]
    assert len(names) == 16  # with plot_found_slices, plot_reliability, plot_net_benefit_difference
    for name in names:
        function = getattr(informed, name)
        assert "Examples\n    --------\n    >>> import informed" in (function.__doc__ or "")


def test_table_and_evaluation_are_drawn_alike() -> None:
    """plot_contingency of a Table and of its Evaluation draw the same texts."""
    table = Table.binary(tp=58, fp=20, fn=12, tn=10)
    by_table = [t.get_text() for t in informed.plot_contingency(table).texts]
    by_evaluation = [
        t.get_text() for t in informed.plot_contingency(informed.evaluate(table)).texts
    ]
    assert (
        by_table
        == by_evaluation
        == ["58", "+0.829", "20", "-0.667", "12", "-0.171", "10", "+0.333"]
    )


def test_the_roc_curve_names_its_positive_class() -> None:
    """As scikit-learn's RocCurveDisplay does ("Positive label: 1"), the ROC plot says
    which class the curve is about: a reader of a binary problem must know."""
    labels = np.where(ACTUAL, "malignant", "benign")
    axes = informed.plot_roc(labels, SCORES, positive="malignant")
    assert axes.get_title() == "ROC curve (positive: malignant)"
    axes = informed.plot_roc(Ranking.from_scores(labels, SCORES, positive="benign"))
    assert "positive: benign" in axes.get_title()


def test_ten_close_labels_fill_the_per_label_plot_and_are_all_named() -> None:
    """Ten labels with informedness and markedness between about 0.45 and 0.65 were drawn
    in one corner of the 0-to-1 square, their names on top of each other: the axes now
    span the values drawn (one range for both, the diagonal at 45 degrees), every point
    inside, and every label named without two names overlapping."""
    rng = np.random.default_rng(0)
    names = [f"category-{i}" for i in range(10)]
    actual = rng.choice(names, 2000)
    predicted = np.where(rng.random(2000) < 0.6, actual, rng.choice(names, 2000))
    axes = informed.plot_per_label(actual, predicted)
    points = np.asarray(_gids(axes)["labels"].get_offsets())  # type: ignore[attr-defined]
    (x0, x1), (y0, y1) = axes.get_xlim(), axes.get_ylim()
    assert (x0, x1) == (y0, y1)
    assert np.all((points >= x0) & (points <= x1))
    spread = points.max() - points.min()
    assert spread >= 0.4 * (x1 - x0)  # the points fill the plot, not a corner of it
    notes = [t for t in axes.texts if t.get_text().startswith("category-")]
    assert sorted(t.get_text() for t in notes) == sorted(names)
    boxes = [t.get_window_extent() for t in notes]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_the_two_label_contingency_title_fits_its_figure() -> None:
    """The title of a 2-label heat map ran to the figure's edges: it now lies inside them
    with a margin of at least a tenth of an inch on each side."""
    labels = np.where(ACTUAL, "malignant", "benign")
    predicted = np.where(SCORES > 0.5, "malignant", "benign")
    axes = informed.plot_contingency(labels, predicted)
    figure = axes.get_figure(root=True)
    figure.canvas.draw()
    title = axes.title.get_window_extent()
    frame = figure.bbox
    margin = 0.1 * figure.dpi
    assert title.x0 - frame.x0 >= margin and frame.x1 - title.x1 >= margin
    assert title.y1 <= frame.y1
