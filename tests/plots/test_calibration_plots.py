"""`plot_reliability` and `plot_decision_curve` draw what an independent computation gives:
scikit-learn's isotonic fit for the CORP curve, net benefit counted row by row for the
decision curve, the treat-all formula, and the bands they are given."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("sklearn")

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from sklearn.isotonic import IsotonicRegression

import informed
from informed import InputError, InputTypeError, Ranking
from informed.inference import calibration_bands, decision_curve_bands

RNG = np.random.default_rng(12)
SCORES = np.round(RNG.beta(2, 3, 400), 2)
ACTUAL = (RNG.random(400) < SCORES**1.3).astype(int)


def _gids(axes: Axes) -> dict[str, object]:
    found: dict[str, object] = {}
    for artist in [*axes.get_lines(), *axes.collections, *axes.patches]:
        if artist.get_gid():
            found[str(artist.get_gid())] = artist
    return found


def test_reliability_draws_the_isotonic_fit_and_the_bands_given() -> None:
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    bands = calibration_bands(ranking, replicates=50, seed=0, intervals=False)
    axes = informed.plot_reliability(ranking, bands=bands)
    found = _gids(axes)
    assert {"diagonal", "corp", "consistency", "confidence", "histogram"} <= set(found)
    corp = found["corp"]
    x = np.unique(SCORES)
    np.testing.assert_array_equal(corp.get_xdata(), x)  # type: ignore[attr-defined]
    fitted = IsotonicRegression().fit(SCORES, ACTUAL).predict(x)
    np.testing.assert_allclose(corp.get_ydata(), fitted, atol=1e-12)  # type: ignore[attr-defined]
    band = found["confidence"].get_paths()[0].vertices  # type: ignore[attr-defined]
    assert np.isin(bands.confidence[0], band[:, 1]).all()
    assert "MCB" in corp.get_label()  # type: ignore[attr-defined]


def test_reliability_from_rows_and_without_bands() -> None:
    axes = informed.plot_reliability(ACTUAL, SCORES, positive=1, bands=False, histogram=False)
    assert set(_gids(axes)) == {"diagonal", "corp"}
    assert isinstance(axes.figure, Figure)


def test_reliability_refuses_scores_that_are_no_probabilities() -> None:
    with pytest.raises(InputError, match="lies outside"):
        informed.plot_reliability([1, 0], [2.0, 0.5], positive=1)
    with pytest.raises(InputTypeError, match="bands"):
        informed.plot_reliability(ACTUAL, SCORES, positive=1, bands="yes")


def test_decision_curve_draws_net_benefit_counted_row_by_row() -> None:
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    other = Ranking.from_scores(ACTUAL, np.round(np.sqrt(SCORES), 2), positive=1)
    axes = informed.plot_decision_curve({"a": ranking, "b": other}, bands=False)
    found = _gids(axes)
    assert {"model-0", "model-1", "treat-all", "treat-none"} <= set(found)
    line = found["model-0"]
    x = np.asarray(line.get_xdata())  # type: ignore[attr-defined]
    n = ACTUAL.size
    acted = SCORES[None, :] >= x[:, None]
    tp, fp = (acted & (ACTUAL == 1)).sum(axis=1), (acted & (ACTUAL == 0)).sum(axis=1)
    expected = tp / n - fp / n * x / (1 - x)
    np.testing.assert_allclose(line.get_ydata(), expected, atol=1e-15)  # type: ignore[attr-defined]
    prevalence = ACTUAL.mean()
    everyone = found["treat-all"]
    np.testing.assert_allclose(
        everyone.get_ydata(),  # type: ignore[attr-defined]
        prevalence - (1 - prevalence) * x / (1 - x),
        atol=1e-15,
    )
    assert [t.get_text() for t in axes.get_legend().get_texts()][:2] == ["a", "b"]


def test_decision_curve_bands_and_standardized() -> None:
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    axes = informed.plot_decision_curve(ranking, bands=True, replicates=40, standardized=True)
    found = _gids(axes)
    assert "band-0" in found
    bands = decision_curve_bands(ranking, replicates=40, seed=0)
    line = found["model-0"]
    np.testing.assert_allclose(line.get_ydata(), bands.curve.standardized)  # type: ignore[attr-defined]


def test_decision_curve_refuses_models_of_different_cases() -> None:
    a = Ranking.from_scores([1, 0, 1], [0.9, 0.2, 0.6], positive=1)
    b = Ranking.from_scores([1, 0], [0.9, 0.2], positive=1)
    with pytest.raises(InputError, match="same cases"):
        informed.plot_decision_curve([a, b], bands=False)
    with pytest.raises(InputTypeError):
        informed.plot_decision_curve("model", bands=False)


def test_a_long_model_name_is_cut_and_the_figure_keeps_its_width() -> None:
    """A 200-character model name: the legend gives it cut to 22 characters (as the
    comparison plots do) and the figure is as wide as with short names, the legend inside
    it (an uncut name widened the figure threefold, squeezing the plot to its middle)."""
    ranking = Ranking.from_scores(ACTUAL, SCORES, positive=1)
    other = Ranking.from_scores(ACTUAL, np.round(SCORES**2, 2), positive=1)
    long = "gradient boosted trees " + "x" * 177
    assert len(long) == 200

    def drawn(name: str) -> tuple[Axes, Figure]:
        axes = informed.plot_decision_curve({name: ranking, "logistic": other}, bands=False)
        figure = axes.get_figure()
        assert isinstance(figure, Figure)
        figure.canvas.draw()
        return axes, figure

    axes, figure = drawn(long)
    _, short = drawn("gbm")
    legend = axes.get_legend()
    assert legend is not None
    labels = [text.get_text() for text in legend.get_texts()]
    assert labels[1:] == ["logistic", "treat all", "treat none"]
    assert len(labels[0]) <= 22 and labels[0].startswith("gradient boosted")
    assert figure.get_size_inches()[0] == pytest.approx(short.get_size_inches()[0])
    box, frame = legend.get_window_extent(), figure.bbox
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1
