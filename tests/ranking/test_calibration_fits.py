"""informed's own PAV and logistic recalibration against independent oracles: scipy's
`isotonic_regression` and scikit-learn's `IsotonicRegression` with weights for the PAV
(random and adversarial inputs, both of its paths), statsmodels' binomial GLM with
frequency weights for the calibration slope, intercept and calibration-in-the-large
(both of the fit's starts)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Ranking
from informed.ranking import recalibration
from informed.ranking.calibration import pav
from informed.ranking.recalibration import _START_BINS, Recalibration, recalibration_of_groups


def _fitted(positives: np.ndarray, rows: np.ndarray) -> np.ndarray:
    values, starts, block_rows = pav(positives, rows)
    counts = np.diff(np.append(starts, rows.size))
    assert np.all(counts > 0) and starts[0] == 0
    assert np.all(np.diff(values) > 0), "blocks are the maximal runs of equal fitted values"
    np.testing.assert_allclose(block_rows, np.add.reduceat(rows, starts), rtol=1e-15)
    return np.repeat(values, counts)


def _check_against_peers(positives: np.ndarray, rows: np.ndarray) -> None:
    from scipy.optimize import isotonic_regression
    from sklearn.isotonic import IsotonicRegression

    ours = _fitted(positives, rows)
    y = positives / rows
    scipy_fit = isotonic_regression(y, weights=rows).x
    x = np.arange(rows.size, dtype=np.float64)
    sklearn_fit = IsotonicRegression().fit(x, y, sample_weight=rows).predict(x)
    np.testing.assert_allclose(ours, scipy_fit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours, sklearn_fit, rtol=0, atol=1e-12)


@st.composite
def _groups(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Tie groups: whole counts or fractional weights, any order of rates, often ties."""
    n = draw(st.integers(1, 80))
    if draw(st.booleans()):
        rows = np.array(draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)), dtype=float)
        hits = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
        return np.minimum(np.array(hits, dtype=float), rows), rows
    rows = np.array(draw(st.lists(st.floats(0.01, 50.0), min_size=n, max_size=n)))
    rates = np.array(
        draw(
            st.lists(
                st.sampled_from([0.0, 0.25, 0.5, 1.0]) | st.floats(0, 1), min_size=n, max_size=n
            )
        )
    )
    return rows * rates, rows


@settings(max_examples=300, deadline=None)
@given(groups=_groups())
def test_pav_equals_scipy_and_scikit_learn_with_weights(
    groups: tuple[np.ndarray, np.ndarray],
) -> None:
    _check_against_peers(*groups)


@pytest.mark.parametrize(
    "rates",
    [
        [0.5] * 40,  # all equal: one block
        np.linspace(1.0, 0.0, 40),  # strictly decreasing: one block
        [0.3],  # one group
        [0.0, 1.0],  # already increasing: no pooling
        np.append(np.linspace(0.1, 0.9, 3000), 0.0),  # a cascade: the stack finishes
        np.tile([1.0, 0.0], 2000),  # alternating
        np.concatenate([np.linspace(0.2, 0.8, 500), np.linspace(0.8, 0.2, 500)]),  # a peak
    ],
)
def test_pav_on_adversarial_inputs(rates: list[float]) -> None:
    rng = np.random.default_rng(len(rates))
    rows = rng.integers(1, 4, len(rates)).astype(float)
    _check_against_peers(rows * np.asarray(rates), rows)
    _check_against_peers(np.asarray(rates, dtype=float), np.ones(len(rates)))


def test_pav_of_many_bernoulli_groups_equals_scipy() -> None:
    """200,000 groups of one row each (the distinct scores of a file): many rounds."""
    rng = np.random.default_rng(5)
    hits = (rng.random(200_000) < np.sort(rng.random(200_000)) ** 2).astype(float)
    _check_against_peers(hits, np.ones(hits.size))


@pytest.mark.timeout(20, method="signal")
@pytest.mark.parametrize(
    ("positives", "size", "reason"),
    [
        ([1.0, 0.0, 2.0], [1.0, 0.0, 3.0], "group 1 has size 0.0"),  # looped forever
        ([0.0, 0.0], [2.0, 0.0], "group 1 has size 0.0"),  # looped forever
        ([1.0, 0.0], [1.0, -2.0], "group 1 has size -2.0"),
        ([1.0, 0.0], [math.nan, 1.0], "group 0 has size nan"),
        ([1.0, 0.0], [math.inf, 1.0], "group 0 has size inf"),
        ([math.nan, 0.0], [1.0, 1.0], "group 0 has nan"),
        ([1.0, 0.0], [1.0], "same length"),
    ],
)
def test_pav_refuses_groups_without_rows_in_one_line(
    positives: list[float], size: list[float], reason: str
) -> None:
    """pav is public: a group of zero weight (its rate 0/0) never pooled and looped forever;
    it is refused, naming the group and its value."""
    from informed.errors import InputError

    with pytest.raises(InputError, match=reason) as caught:
        pav(np.array(positives), np.array(size))
    assert "\n" not in str(caught.value)


def _statsmodels_fits(
    scores: np.ndarray, positives: np.ndarray, negatives: np.ndarray
) -> tuple[float, float, float]:
    """(intercept, slope, in-the-large) by statsmodels' GLM, each group two rows (its
    positives and its negatives) with frequency weights."""
    sm = pytest.importorskip("statsmodels.api")
    logit = np.log(scores / (1 - scores))
    x = np.concatenate([logit, logit])
    y = np.concatenate([np.ones(scores.size), np.zeros(scores.size)])
    weights = np.concatenate([positives, negatives]).astype(float)
    keep = weights > 0
    x, y, weights = x[keep], y[keep], weights[keep]
    family = sm.families.Binomial()
    free = sm.GLM(y, sm.add_constant(x), family=family, freq_weights=weights).fit(tol=1e-14)
    offset = sm.GLM(y, np.ones((x.size, 1)), family=family, offset=x, freq_weights=weights).fit(
        tol=1e-14
    )
    return float(free.params[0]), float(free.params[1]), float(offset.params[0])


@pytest.mark.parametrize(
    ("groups", "weighted"),
    [(300, False), (300, True), (5 * _START_BINS, False), (5 * _START_BINS, True)],
)
def test_recalibration_equals_statsmodels_with_frequency_weights(
    groups: int, weighted: bool
) -> None:
    """Small: Newton from the prevalence; more than 4 x 4,096 groups: from the fit on
    bins. Either way the maximum likelihood of statsmodels' GLM, to 1e-9."""
    rng = np.random.default_rng(groups + weighted)
    scores = np.sort(rng.uniform(0.02, 0.98, groups))
    truth = 1 / (1 + np.exp(-(0.4 + 0.6 * np.log(scores / (1 - scores)))))
    if weighted:
        rows = rng.uniform(0.5, 4.0, groups)
        positives = rows * rng.uniform(0, 1, groups) * (rng.random(groups) < truth)
    else:
        rows = rng.integers(1, 5, groups).astype(float)
        positives = rng.binomial(rows.astype(int), truth).astype(float)
    negatives = rows - positives
    ranking = Ranking(scores[::-1], positives[::-1], negatives[::-1])
    fit = recalibration(ranking)
    intercept, slope, large = _statsmodels_fits(scores, positives, negatives)
    assert fit.reason is None
    assert fit.intercept == pytest.approx(intercept, abs=1e-9)
    assert fit.slope == pytest.approx(slope, abs=1e-9)
    assert fit.in_the_large == pytest.approx(large, abs=1e-9)


def test_separated_classes_among_many_groups_give_nan_with_the_reason() -> None:
    """Separation is found before any fit, whatever the number of groups."""
    scores = np.linspace(0.01, 0.99, 5 * _START_BINS)
    positives = (scores > 0.5).astype(np.int64)
    ranking = Ranking(scores[::-1], positives[::-1], 1 - positives[::-1])
    fit = recalibration(ranking)
    assert math.isnan(fit.slope) and math.isnan(fit.intercept)
    assert fit.reason is not None and "separates the classes" in fit.reason
    assert math.isfinite(fit.in_the_large)  # the offset model still has its maximum


@pytest.mark.parametrize("scale", [1e160, 1e-300, 3e10])
@pytest.mark.parametrize("groups", [300, 5 * _START_BINS])
def test_recalibration_does_not_depend_on_the_weights_scale(scale: float, groups: int) -> None:
    """The maximum likelihood of weights c w is that of w. Weights of 1e160 overflowed the
    information matrix and gave NaN with "Newton's iterations did not converge" (a false
    reason); the fit of weights at any scale is the fit of the same weights near 1, and
    both statsmodels' GLM's (fitted on the weights near 1), to 1e-9."""
    rng = np.random.default_rng(groups)
    scores = np.sort(rng.uniform(0.02, 0.98, groups))
    truth = 1 / (1 + np.exp(-(0.4 + 0.6 * np.log(scores / (1 - scores)))))
    rows = rng.uniform(0.5, 4.0, groups)
    positives = rows * rng.uniform(0, 1, groups) * (rng.random(groups) < truth)
    negatives = rows - positives
    plain = recalibration(Ranking(scores[::-1], positives[::-1], negatives[::-1]))
    scaled = recalibration(Ranking(scores[::-1], scale * positives[::-1], scale * negatives[::-1]))
    intercept, slope, large = _statsmodels_fits(scores, positives, negatives)
    assert scaled.reason is None, scaled.reason
    for fit in (plain, scaled):
        assert fit.intercept == pytest.approx(intercept, abs=1e-9)
        assert fit.slope == pytest.approx(slope, abs=1e-9)
        assert fit.in_the_large == pytest.approx(large, abs=1e-9)
    assert scaled.slope == pytest.approx(plain.slope, rel=1e-12)


@pytest.mark.parametrize("start", [False, True])
def test_steep_fits_beyond_the_exponential_s_range_equal_statsmodels(start: bool) -> None:
    """Scores from 1e-15 to 1 - 1e-15 (logits +-34.5) and a true slope of 25: the linear
    predictor passes 700 at the ends, where the passes with one exp a group would
    overflow, so Newton's iterations take the tanh there. Started from the bins or from
    a given fit (as a bootstrap replicate is), the maximum is statsmodels' to 1e-9."""
    rng = np.random.default_rng(25)
    logit = np.sort(rng.uniform(-34.5, 34.5, 5 * _START_BINS))
    scores = 1 / (1 + np.exp(-logit))
    truth = 1 / (1 + np.exp(-np.clip(0.3 + 25 * logit, -700, 700)))
    rows = np.full(scores.size, 3.0)
    positives = rng.binomial(3, truth).astype(float)
    negatives = rows - positives
    given_start = Recalibration(0.0, 20.0, 1.0) if start else None
    fit = recalibration_of_groups(scores, positives, rows, start=given_start)
    with np.errstate(over="ignore"):  # statsmodels' inverse link takes exp(-eta) as is
        intercept, slope, large = _statsmodels_fits(scores, positives, negatives)
    assert fit.reason is None, fit.reason
    assert fit.slope == pytest.approx(slope, rel=1e-9)
    assert fit.intercept == pytest.approx(intercept, abs=1e-9 * slope)
    assert fit.in_the_large == pytest.approx(large, abs=1e-9)
