"""Operating points: `Ranking.best_threshold` against a brute force over every cut.

The brute force is written here: for every distinct score t (and +inf), predict positive
the rows scored t or more, count the 2x2 table with numpy and compute the measure from
its textbook formula. The best threshold must reach the brute-force optimum, on random
tie-heavy data, weighted or not, under a quota.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from informed import Ranking, Table
from informed.errors import InputError, InputTypeError
from informed.inference import bootstrap, threshold_interval
from informed.ranking import THRESHOLD_CRITERIA


def _cells(actual: np.ndarray, predicted: np.ndarray, weights: np.ndarray) -> tuple[float, ...]:
    tp = float(weights[predicted & actual].sum())
    fp = float(weights[predicted & ~actual].sum())
    fn = float(weights[~predicted & actual].sum())
    tn = float(weights[~predicted & ~actual].sum())
    return tp, fp, fn, tn


def _div(a: float, b: float) -> float:
    return a / b if b else math.nan


def _formula(measure: str, tp: float, fp: float, fn: float, tn: float, ratio: float) -> float:
    """The textbook formula of each criterion (independent of the registry)."""
    n = tp + fp + fn + tn
    if measure == "informedness":
        return _div(tp, tp + fn) + _div(tn, fp + tn) - 1
    if measure == "markedness":
        return _div(tp, tp + fp) + _div(tn, fn + tn) - 1
    if measure in ("correlation", "matthews_correlation"):
        return _div(tp * tn - fp * fn, math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    if measure == "f_measure":
        return _div(2 * tp, 2 * tp + fp + fn)
    if measure == "accuracy":
        return _div(tp + tn, n)
    if measure == "kappa":
        observed = _div(tp + tn, n)
        chance = _div((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn), n * n)
        return _div(observed - chance, 1 - chance)
    assert measure == "cost"
    return _div(fp + ratio * fn, n)


def _brute(
    actual: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray,
    measure: str,
    ratio: float = 1.0,
    quota: float | None = None,
) -> list[tuple[float, float, float]]:
    """(threshold, value, predicted positives) at every cut, nan values dropped."""
    out = []
    for t in [math.inf, *sorted(set(scores.tolist()), reverse=True)]:
        predicted = scores >= t
        cells = _cells(actual, predicted, weights)
        value = _formula(measure, *cells, ratio)
        selected = cells[0] + cells[1]
        if math.isnan(value) or (quota is not None and selected > quota):
            continue
        out.append((t, value, selected))
    return out


def _data(seed: int, n: int, levels: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.random(n) < rng.uniform(0.1, 0.9)
    # few distinct scores: heavy ties, scores related to the class
    scores = np.round(rng.normal(actual * rng.uniform(0, 2), 1.0) * levels / 3) / levels
    return actual, scores


CASES = [(seed, measure) for seed in range(12) for measure in THRESHOLD_CRITERIA]


@pytest.mark.parametrize(("seed", "measure"), CASES)
def test_best_threshold_is_the_brute_force_optimum(seed: int, measure: str) -> None:
    """best_threshold reaches the best value over every cut, and among the cuts that reach
    it (up to rounding) picks the one predicting the fewest positives."""
    actual, scores = _data(seed, n=int(30 + 40 * (seed % 4)), levels=1 + seed % 5)
    ratio = 0.5 + seed % 4 if measure == "cost" else None
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    point = ranking.best_threshold(measure, cost_ratio=ratio)
    cuts = _brute(actual, scores, np.ones(actual.size), measure, ratio or 1.0)
    if not cuts:
        assert math.isnan(point.value) and point.reason
        return
    sign = -1 if measure == "cost" else 1
    best = max(sign * v for _, v, _ in cuts)
    assert sign * point.value == pytest.approx(best, abs=1e-12)
    ties = [c for c in cuts if sign * c[1] >= best - 1e-9]
    assert point.threshold == ties[0][0]  # the highest such threshold
    predicted = scores >= point.threshold
    tp, fp, fn, tn = _cells(actual, predicted, np.ones(actual.size))
    assert point.cells == (tp, fp, fn, tn)


@pytest.mark.parametrize("seed", range(10))
def test_best_threshold_under_a_quota(seed: int) -> None:
    """With a quota, only cuts predicting at most that many positives count."""
    actual, scores = _data(100 + seed, n=80, levels=2 + seed % 3)
    quota = float(10 + 5 * seed)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    point = ranking.best_threshold("informedness", quota=quota)
    cuts = _brute(actual, scores, np.ones(actual.size), "informedness", quota=quota)
    assert point.value == pytest.approx(max(v for _, v, _ in cuts), abs=1e-12)
    assert point.selected <= quota


@pytest.mark.parametrize("seed", range(8))
def test_weighted_best_threshold(seed: int) -> None:
    """Integer weights give the threshold and value of repeated rows; real weights the
    brute force with weighted counts."""
    actual, scores = _data(200 + seed, n=60, levels=3)
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, actual.size)
    weighted = Ranking.from_scores(actual=actual, scores=scores, positive=True, weights=counts)
    repeated = Ranking.from_scores(
        actual=np.repeat(actual, counts), scores=np.repeat(scores, counts), positive=True
    )
    a, b = weighted.best_threshold("markedness"), repeated.best_threshold("markedness")
    assert a.threshold == b.threshold and a.value == pytest.approx(b.value, abs=1e-12)
    real = rng.uniform(0.1, 3.0, actual.size)
    point = Ranking.from_scores(
        actual=actual, scores=scores, positive=True, weights=real
    ).best_threshold("f_measure")
    cuts = _brute(actual, scores, real, "f_measure")
    assert point.value == pytest.approx(max(v for _, v, _ in cuts), abs=1e-12)


def test_youden_is_not_closest_to_the_corner() -> None:
    """The peer pitfall (PyCM's 'Youden equivalent' is the point closest to (0, 1)): 10
    positives scored linspace(0.9, 0.5), 90 negatives linspace(0.8, 0): J picks 0.5."""
    scores = np.concatenate([np.linspace(0.9, 0.5, 10), np.linspace(0.8, 0.0, 90)])
    actual = np.arange(100) < 10
    point = Ranking.from_scores(actual=actual, scores=scores, positive=True).best_threshold()
    assert point.threshold == pytest.approx(0.5)
    # every positive, and the 34 negatives at 0.5 or more: J = 0.6222, as the pitfall says
    assert np.count_nonzero(scores[10:] >= 0.5) == 34
    assert point.value == pytest.approx(1 - 34 / 90)
    assert round(point.value, 4) == 0.6222


def test_at_threshold_predicts_a_tie_group_whole() -> None:
    """A fixed threshold selects the rows scored at least it; a tie is never split."""
    actual = np.array([1, 0, 1, 0, 1, 0])
    scores = np.array([0.9, 0.5, 0.5, 0.5, 0.2, 0.1])
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=1)
    for t in (1.0, 0.9, 0.6, 0.5, 0.3, 0.2, 0.0, -1.0):
        predicted = scores >= t
        expected = Table.from_labels(
            actual=np.where(actual == 1, "+", "-"),
            predicted=np.where(predicted, "+", "-"),
            labels=["+", "-"],
        )
        point = ranking.at_threshold(t, "accuracy")
        assert point.cells == (
            expected.count("+", "+"),
            expected.count("+", "-"),
            expected.count("-", "+"),
            expected.count("-", "-"),
        )
        # the same value as the Table counted from the rows it predicts (issue 27, item 8)
        assert point.table == Table.from_labels(actual, np.where(predicted, 1, 0), labels=[0, 1])
        assert point.value == pytest.approx(np.mean(predicted == (actual == 1)))


def test_operating_point_roc_coordinates() -> None:
    """The point's false and true positive rates are those of its table."""
    actual, scores = _data(7, n=90, levels=4)
    point = Ranking.from_scores(actual=actual, scores=scores, positive=True).best_threshold()
    tp, fp, fn, tn = point.cells
    assert point.true_positive_rate == tp / (tp + fn)
    assert point.false_positive_rate == fp / (fp + tn)
    assert point.value == pytest.approx(point.true_positive_rate - point.false_positive_rate)


def test_no_positives_leaves_no_best_threshold() -> None:
    """Informedness is undefined at every cut without actual positives: nan, with why."""
    ranking = Ranking.from_scores(actual=[0, 0, 0], scores=[3, 2, 1], positive=1, negative=0)
    point = ranking.best_threshold()
    assert math.isnan(point.threshold) and math.isnan(point.value)
    assert "no actual positives" in (point.reason or "")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"measure": "auc"}, InputError),
        ({"measure": "cost"}, InputError),
        ({"measure": "informedness", "cost_ratio": 2.0}, InputError),
        ({"quota": -1}, InputError),
        ({"quota": "5"}, InputTypeError),
        ({"alpha": 2.0}, InputError),
    ],
)
def test_best_threshold_refuses_bad_options(kwargs: dict, error: type) -> None:
    """Unknown criteria, a cost without its ratio, bad quotas are errors."""
    ranking = Ranking.from_scores(actual=[1, 0], scores=[2, 1], positive=1)
    with pytest.raises(error):
        ranking.best_threshold(**kwargs)


def test_threshold_interval_at_a_fixed_threshold_is_the_table_bootstrap() -> None:
    """At a fixed threshold the interval resamples that operating point's table: it agrees
    with `bootstrap` of the table within Monte Carlo error."""
    actual, scores = _data(3, n=400, levels=6)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    point = ranking.best_threshold()
    fixed = threshold_interval(ranking, threshold=point.threshold, replicates=4000, seed=1)
    table = bootstrap(
        point.table, ["informedness"], positive=True, replicates=4000, seed=2
    ).intervals["informedness"]
    assert fixed.estimate == pytest.approx(table.estimate, abs=1e-12)
    assert fixed.low == pytest.approx(table.low, abs=0.02)
    assert fixed.high == pytest.approx(table.high, abs=0.02)


def test_reoptimised_interval_is_above_the_fixed_one() -> None:
    """Choosing the best cut in every replicate can only raise each replicate's value."""
    actual, scores = _data(5, n=300, levels=8)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    point = ranking.best_threshold()
    best = threshold_interval(ranking, replicates=500, seed=3)
    fixed = threshold_interval(ranking, threshold=point.threshold, replicates=500, seed=3)
    assert best.estimate == fixed.estimate == point.value
    assert best.low >= fixed.low - 1e-12 and best.high >= fixed.high - 1e-12
