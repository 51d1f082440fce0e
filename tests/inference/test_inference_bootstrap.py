"""The multinomial bootstrap of a Table: what it computes, and how it fails."""

from __future__ import annotations

import json
import math
from dataclasses import asdict

import numpy as np
import pytest

from informed import MEASURES, Table, evaluate
from informed.errors import InputError, InputTypeError
from informed.inference import Interval, bootstrap, intervals_report
from informed.table import measure_values


def _random_square(rng: np.random.Generator, size: int, zero_rows: bool) -> np.ndarray:
    counts = rng.integers(0, 20, (size, size))
    if zero_rows:
        counts[rng.integers(size)] = 0
        counts[:, rng.integers(size)] = 0
    return counts


@pytest.mark.parametrize("positive", [None, 0, 2])
@pytest.mark.parametrize("undefined", ["propagate", "omit"])
def test_measure_values_equal_evaluate_table_by_table(positive: int | None, undefined: str) -> None:
    """One vectorised call over a batch of tables gives what `evaluate` gives table by table,
    overall and per label, nan where evaluate has nan (empty rows and columns included)."""
    rng = np.random.default_rng(5)
    squares = np.stack([_random_square(rng, 3, zero_rows=i % 3 == 0) for i in range(30)])
    names = list(MEASURES)
    overall, per_label = measure_values(squares.astype(float), names, positive, 0.3, undefined)
    for b, square in enumerate(squares):
        table = Table.from_counts(square, rows="predicted", labels=[0, 1, 2])
        expected = evaluate(table, positive=positive, alpha=0.3, undefined=undefined)
        for name in names:
            np.testing.assert_allclose(
                overall[name][b], expected.measures[name], rtol=1e-12, atol=1e-15, err_msg=name
            )
            for k in range(3):
                np.testing.assert_allclose(
                    per_label[name][b, k], expected.per_label[k][name], rtol=1e-12, atol=1e-15
                )


def test_estimates_are_those_of_evaluate() -> None:
    """The interval's estimate is the measure of the table as `evaluate` computes it."""
    table = Table.from_labels(
        actual=["a", "b", "c", "a", "b", "c", "a", "a", "c"] * 5,
        predicted=["a", "b", "b", "a", "c", "c", "b", "a", "c"] * 5,
    )
    result = bootstrap(table, replicates=50, seed=0, per_label=True)
    expected = evaluate(table)
    for name, interval in result.intervals.items():
        np.testing.assert_allclose(interval.estimate, expected.measures[name], rtol=1e-12)
        for label in table.labels:
            np.testing.assert_allclose(
                result.per_label[label][name].estimate, expected.per_label[label][name], rtol=1e-12
            )


def test_same_seed_same_intervals_and_other_seed_differs() -> None:
    """A seed makes the bootstrap reproducible."""
    table = Table.binary(tp=40, fp=12, fn=9, tn=61)
    first = bootstrap(table, seed=123, method="bca")
    second = bootstrap(table, seed=123, method="bca")
    other = bootstrap(table, seed=124, method="bca")
    for name in MEASURES:
        np.testing.assert_equal(asdict(first.intervals[name]), asdict(second.intervals[name]))
        np.testing.assert_array_equal(first.distribution[name], second.distribution[name])
    assert first.intervals["informedness"] != other.intervals["informedness"]
    generator = bootstrap(table, seed=np.random.default_rng(123))
    assert generator.intervals["recall"] == bootstrap(table, seed=123).intervals["recall"]


def test_percentile_interval_is_the_quantiles_of_the_replicates() -> None:
    """Percentile bounds are numpy's quantiles of the stored replicates at the tail levels."""
    table = Table.binary(tp=30, fp=10, fn=15, tn=45)
    result = bootstrap(table, ["informedness", "precision"], positive="+", level=0.9, seed=3)
    for name in ("informedness", "precision"):
        low, high = np.quantile(result.distribution[name], [0.05, 0.95])
        assert result.intervals[name].low == pytest.approx(low, abs=1e-12)
        assert result.intervals[name].high == pytest.approx(high, abs=1e-12)
        assert result.intervals[name].standard_error == pytest.approx(
            np.std(result.distribution[name], ddof=1)
        )


def test_replicate_counts_are_multinomial_around_the_table() -> None:
    """The replicates' mean accuracy is the table's accuracy (the multinomial is unbiased for
    each cell): within 4 Monte Carlo standard errors."""
    table = Table.binary(tp=300, fp=100, fn=150, tn=450)
    result = bootstrap(table, ["accuracy"], positive="+", replicates=4000, seed=1)
    values = result.distribution["accuracy"]
    se = values.std(ddof=1) / math.sqrt(values.size)
    assert abs(values.mean() - 0.75) < 4 * se
    # binomial standard deviation of accuracy: sqrt(p (1 - p) / N), to 5 %
    assert values.std(ddof=1) == pytest.approx(math.sqrt(0.75 * 0.25 / 1000), rel=0.05)


def _jackknife_acceleration(actual: np.ndarray, predicted: np.ndarray) -> float:
    """Efron's acceleration by leaving out each row in turn (slow reference)."""
    values = []
    for i in range(actual.size):
        keep = np.arange(actual.size) != i
        a, p = actual[keep], predicted[keep]
        tp = np.sum(a & p)
        fn = np.sum(a & ~p)
        fp = np.sum(~a & p)
        tn = np.sum(~a & ~p)
        values.append(tp / (tp + fn) - fp / (fp + tn))
    theta = np.array(values)
    d = theta.mean() - theta
    return float(np.sum(d**3) / (6 * np.sum(d**2) ** 1.5))


def test_bca_acceleration_equals_row_jackknife() -> None:
    """The cell-weighted jackknife gives the acceleration of the leave-one-row-out jackknife."""
    tp, fp, fn, tn = 17, 5, 3, 35
    actual = np.array([True] * tp + [False] * fp + [True] * fn + [False] * tn)
    predicted = np.array([True] * (tp + fp) + [False] * (fn + tn))
    table = Table.binary(tp=tp, fp=fp, fn=fn, tn=tn)
    result = bootstrap(table, ["informedness"], positive="+", method="bca", seed=0)
    expected = _jackknife_acceleration(actual, predicted)
    assert result.acceleration[(None, "informedness")] == pytest.approx(expected, rel=1e-9)


def test_bca_bounds_follow_efron_formula() -> None:
    """BCa bounds are the replicate quantiles at Phi(z0 + (z0 + z)/(1 - a (z0 + z)))."""
    from scipy.stats import norm

    table = Table.binary(tp=17, fp=5, fn=3, tn=35)
    result = bootstrap(table, ["informedness"], positive="+", method="bca", seed=4, replicates=3000)
    theta = result.distribution["informedness"]
    estimate = result.intervals["informedness"].estimate
    a = result.acceleration[(None, "informedness")]
    z0 = norm.ppf((np.sum(theta < estimate) + 0.5 * np.sum(theta == estimate)) / theta.size)
    z = norm.ppf([0.025, 0.975])
    tails = norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    low, high = np.quantile(theta, tails)
    assert result.intervals["informedness"].low == pytest.approx(low, abs=1e-12)
    assert result.intervals["informedness"].high == pytest.approx(high, abs=1e-12)


def test_bca_agrees_with_scipy_bootstrap_on_rows() -> None:
    """scipy.stats.bootstrap(method="BCa") on the rows gives the same BCa interval, within the
    Monte Carlo error of two independent runs of 5000 replicates (bound SD ~ 0.01 here)."""
    from scipy import stats

    tp, fp, fn, tn = 45, 20, 15, 120
    actual = np.array([1] * tp + [0] * fp + [1] * fn + [0] * tn)
    predicted = np.array([1] * (tp + fp) + [0] * (fn + tn))

    def informedness(a: np.ndarray, p: np.ndarray, axis: int = -1) -> np.ndarray:
        tp_ = np.sum((a == 1) & (p == 1), axis=axis)
        fn_ = np.sum((a == 1) & (p == 0), axis=axis)
        fp_ = np.sum((a == 0) & (p == 1), axis=axis)
        tn_ = np.sum((a == 0) & (p == 0), axis=axis)
        return tp_ / (tp_ + fn_) - fp_ / (fp_ + tn_)

    theirs = stats.bootstrap(
        (actual, predicted),
        informedness,
        paired=True,
        vectorized=True,
        n_resamples=5000,
        method="BCa",
        random_state=np.random.default_rng(0),
    ).confidence_interval
    ours = bootstrap(
        Table.binary(tp=tp, fp=fp, fn=fn, tn=tn),
        ["informedness"],
        positive="+",
        method="bca",
        replicates=5000,
        seed=1,
    ).intervals["informedness"]
    assert ours.low == pytest.approx(theirs.low, abs=0.03)
    assert ours.high == pytest.approx(theirs.high, abs=0.03)


def test_weighted_table_with_whole_weights_is_the_count_table() -> None:
    """Frequency weights: a weighted table holding whole numbers resamples like the counts."""
    counts = np.array([[30, 7, 2], [5, 40, 6], [1, 3, 25]])
    table = Table.from_counts(counts, rows="predicted")
    weighted = Table.from_counts(counts.astype(float), rows="predicted")
    assert weighted.weighted
    ours = bootstrap(table, seed=9, method="bca")
    theirs = bootstrap(weighted, seed=9, method="bca")
    for name in MEASURES:
        a, b = ours.intervals[name], theirs.intervals[name]
        np.testing.assert_allclose([a.low, a.high], [b.low, b.high], rtol=1e-9, err_msg=name)


def test_weighted_table_size_sets_cases_per_replicate() -> None:
    """`size` sets the number of cases drawn; fewer cases give a wider interval."""
    weighted = Table.from_counts([[3.5, 1.0], [0.5, 5.0]], rows="predicted", labels=["+", "-"])
    default = bootstrap(weighted, ["accuracy"], positive="+", seed=0)
    assert default.size == 10  # round(total weight)
    small = bootstrap(weighted, ["accuracy"], positive="+", seed=0, size=10)
    large = bootstrap(weighted, ["accuracy"], positive="+", seed=0, size=1000)
    assert small.intervals["accuracy"] == default.intervals["accuracy"]
    width = {
        k: v.intervals["accuracy"].high - v.intervals["accuracy"].low
        for k, v in {"small": small, "large": large}.items()
    }
    assert width["large"] < width["small"] / 3


def test_undefined_on_the_table_gives_nan_with_the_reason() -> None:
    """A measure undefined on the table has a nan interval that says why; no exception."""
    table = Table.binary(tp=90, fp=10, fn=0, tn=0)  # no -P predictions
    result = bootstrap(table, positive="+", seed=0, method="bca")
    interval = result.intervals["inverse_precision"]
    assert math.isnan(interval.low) and math.isnan(interval.high)
    assert interval.reason == "no -P predictions"
    assert not math.isnan(result.intervals["precision"].low)


def test_empty_table_gives_nan_everywhere() -> None:
    """N = 0 is degenerate, not an error."""
    table = Table.from_counts([[0, 0], [0, 0]], rows="predicted")
    result = bootstrap(table, seed=0, per_label=True)
    assert all(
        math.isnan(i.low) and i.reason == "no data (N = 0)" for i in result.intervals.values()
    )
    assert intervals_report(table, 0.95)["informedness"] == [None, None]


def test_undefined_replicates_are_counted_and_left_out() -> None:
    """With one real positive, replicates without it leave recall undefined: they are counted,
    and the interval is computed from the others."""
    table = Table.binary(tp=1, fp=3, fn=0, tn=20)
    result = bootstrap(table, ["recall"], positive="+", seed=2, replicates=500)
    interval = result.intervals["recall"]
    nan_count = int(np.isnan(result.distribution["recall"]).sum())
    assert interval.undefined_replicates == nan_count > 100  # P(no +R) = (23/24)^24 ~ 0.36
    assert interval.low == 1.0 and interval.high == 1.0


def test_degenerate_distribution_bca_is_a_point() -> None:
    """A perfect table: every replicate has recall 1, BCa gives [1, 1] (ties count half)."""
    table = Table.binary(tp=20, fp=0, fn=0, tn=20)
    interval = bootstrap(table, ["recall"], positive="+", method="bca", seed=0).intervals["recall"]
    assert (interval.low, interval.high) == (1.0, 1.0)


def test_per_label_and_confidence_interval_at_another_level() -> None:
    """Per-label intervals exist when asked; `confidence_interval` recomputes from the stored
    replicates: the same at the same level, narrower at a lower one."""
    table = Table.from_counts(
        [[30, 7, 2], [5, 40, 6], [1, 3, 25]], rows="predicted", labels=["x", "y", "z"]
    )
    for method in ("percentile", "bca"):
        result = bootstrap(table, ["recall", "informedness"], per_label=True, seed=0, method=method)
        assert set(result.per_label) == {"x", "y", "z"}
        same = result.confidence_interval("recall", label="y")
        assert same == result.per_label["y"]["recall"]
        assert result.confidence_interval("informedness") == result.intervals["informedness"]
        narrow = result.confidence_interval("informedness", level=0.5)
        wide = result.intervals["informedness"]
        assert wide.low < narrow.low < narrow.high < wide.high
    with pytest.raises(InputError, match="per-label"):
        bootstrap(table, ["recall"], seed=0).confidence_interval("recall", label="x")
    with pytest.raises(InputError, match="must be one of"):
        result.confidence_interval("precision")


def test_intervals_report_covers_the_registry_and_is_json() -> None:
    """{name: [low, high]} for every registry measure, None for nan, stable with seed=0."""
    table = Table.binary(tp=21, fp=14, fn=9, tn=56)
    report = intervals_report(table, 0.95, positive="+")
    assert list(report) == list(MEASURES)
    assert all(len(v) == 2 for v in report.values())
    assert report == intervals_report(table, 0.95, positive="+")
    assert json.loads(json.dumps(report)) == report
    low, high = report["informedness"]
    assert low is not None and high is not None and low < 0.5 < high
    overall = intervals_report(table, 0.9)
    assert overall["bias"] == [None, None]  # a per-label quantity without a positive label


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"level": 95}, InputError),
        ({"level": 0.0}, InputError),
        ({"level": "0.95"}, InputTypeError),
        ({"method": "BCa"}, InputError),
        ({"replicates": 1}, InputError),
        ({"replicates": 10.0}, InputTypeError),
        ({"measures": ["sensitivty"]}, InputError),  # "sensitivity" is recall's alias
        ({"measures": {"recall"}}, InputTypeError),
        ({"positive": "cat"}, InputError),
        ({"undefined": "drop"}, InputError),
        ({"size": 0}, InputError),
    ],
)
def test_bad_arguments_are_errors(kwargs: dict[str, object], error: type[Exception]) -> None:
    """Unknown options and bad values raise, naming what was expected."""
    with pytest.raises(error):
        bootstrap(Table.binary(tp=1, fp=2, fn=3, tn=4), **kwargs)  # type: ignore[arg-type]


def test_not_a_table_is_a_type_error() -> None:
    """A bare matrix is refused: its orientation is unknown."""
    with pytest.raises(InputTypeError, match="Table"):
        bootstrap([[1, 2], [3, 4]])  # type: ignore[arg-type]


def test_interval_as_list() -> None:
    """nan becomes None in the JSON form."""
    assert Interval(0.5, math.nan, 0.75, 0.95, "percentile").as_list() == [None, 0.75]
