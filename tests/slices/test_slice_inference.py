"""Per-slice intervals and disparities: fairlearn's MetricFrame and difference functions
as oracles, a direct per-slice computation, and honest small slices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from informed.inference import bootstrap
from informed.inference.disparities import disparities
from informed.inference.slice_bootstrap import bootstrap_slices
from informed.slices import Slices
from informed.table import Table


def _binary(seed: int, n: int = 3000, groups: int = 6):
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    actual = (rng.random(n) < 0.3 + 0.05 * group).astype(int)
    flip = rng.random(n) < 0.2 + 0.03 * group
    predicted = np.where(flip, 1 - actual, actual)
    weights = rng.integers(1, 5, n).astype(float)
    return group, actual, predicted, weights


@pytest.mark.parametrize("weighted", [False, True])
def test_fairlearn_metricframe_and_differences_equal_ours(weighted: bool) -> None:
    """Per-group recall and selection rate, equalized_odds_difference and
    demographic_parity_difference of fairlearn equal ours, with sample weights."""
    fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
    from sklearn.metrics import recall_score

    group, actual, predicted, weights = _binary(7)
    w = weights if weighted else None
    params = {"sample_weight": w} if weighted else {}
    frame = fairlearn_metrics.MetricFrame(
        metrics={"recall": recall_score, "selection_rate": fairlearn_metrics.selection_rate},
        y_true=actual,
        y_pred=predicted,
        sensitive_features=group,
        sample_params={"recall": params, "selection_rate": params} if weighted else None,
    )
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted, weights=w)
    d = disparities(s, positive=1, replicates=20, seed=0)
    from informed.slices.evaluation import evaluate_slices

    ours = evaluate_slices(s, positive=1)
    for k, (g,) in enumerate(s.keys):
        assert ours.values["recall"][k] == pytest.approx(frame.by_group["recall"][g], abs=1e-12)
        assert ours.values["bias"][k] == pytest.approx(
            frame.by_group["selection_rate"][g], abs=1e-12
        )
    eod = fairlearn_metrics.equalized_odds_difference(
        actual, predicted, sensitive_features=group, sample_weight=w
    )
    dpd = fairlearn_metrics.demographic_parity_difference(
        actual, predicted, sensitive_features=group, sample_weight=w
    )
    for summary in (d.summary_all, d.summary):  # every group has 30 cases of each class
        assert summary["equalized_odds_difference"].estimate == pytest.approx(eod, abs=1e-12)
        assert summary["demographic_parity_difference"].estimate == pytest.approx(dpd, abs=1e-12)
    assert not any(d.left_out.values())


def test_differences_vs_rest_and_reference_equal_tables_built_directly() -> None:
    """A slice minus the rest is the measure of its rows minus that of all other rows;
    for two classes the informedness gap is the TPR gap minus the FPR gap."""
    from informed.table import evaluate

    group, actual, predicted, _ = _binary(8, n=800, groups=4)
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    d = disparities(s, positive=1, reference=2, replicates=30, seed=1)
    for k in range(4):
        mine = evaluate(
            Table.from_labels(
                actual=actual[group == k], predicted=predicted[group == k], labels=[0, 1]
            ),
            positive=1,
        ).measures
        rest = evaluate(
            Table.from_labels(
                actual=actual[group != k], predicted=predicted[group != k], labels=[0, 1]
            ),
            positive=1,
        ).measures
        ref = evaluate(
            Table.from_labels(
                actual=actual[group == 2], predicted=predicted[group == 2], labels=[0, 1]
            ),
            positive=1,
        ).measures
        for name in ("informedness", "markedness", "recall", "fallout", "bias"):
            assert d.vs_rest[name][k].estimate == pytest.approx(mine[name] - rest[name], abs=1e-12)
            if k != 2:
                assert d.vs_reference[name][k].estimate == pytest.approx(
                    mine[name] - ref[name], abs=1e-12
                )
        gap = d.vs_rest["recall"][k].estimate - d.vs_rest["fallout"][k].estimate
        assert d.vs_rest["informedness"][k].estimate == pytest.approx(gap, abs=1e-12)
    assert math.isnan(d.vs_reference["informedness"][2].estimate)
    assert all(0 <= p <= 1 for p in d.p_rest["informedness"])


def test_multiclass_equalized_odds_is_the_largest_label_gap() -> None:
    """Three classes (fairlearn refuses them): the largest one-vs-rest TPR or FPR gap."""
    rng = np.random.default_rng(3)
    n = 900
    group = rng.integers(0, 3, n)
    actual = rng.integers(0, 3, n)
    predicted = np.where(rng.random(n) < 0.5 + 0.1 * group, actual, rng.integers(0, 3, n))
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    d = disparities(s, replicates=20, seed=0)
    gaps = []
    for label in range(3):
        for rate in ("recall", "fallout"):
            values = []
            for g in range(3):
                view = Table.from_labels(
                    actual=actual[group == g], predicted=predicted[group == g]
                ).one_vs_rest(label)
                values.append(
                    view.tp / (view.tp + view.fn)
                    if rate == "recall"
                    else view.fp / (view.fp + view.tn)
                )
            gaps.append(max(values) - min(values))
    assert d.summary["equalized_odds_difference"].estimate == pytest.approx(max(gaps), abs=1e-12)


def test_one_slice_bootstrap_has_the_distribution_of_the_table_bootstrap() -> None:
    """A slice's replicates are Multinomial(n_s, its cells): the same distribution as
    informed.inference.bootstrap of its Table (means and spreads agree)."""
    group, actual, predicted, _ = _binary(9, n=600, groups=3)
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    ours = bootstrap_slices(s, ["informedness"], positive=1, replicates=4000, seed=1)
    table = Table.from_labels(actual=actual[group == 1], predicted=predicted[group == 1])
    theirs = bootstrap(table, ["informedness"], positive=1, replicates=4000, seed=2)
    a = ours.distribution["informedness"][:, 1]
    b = theirs.distribution["informedness"]
    assert abs(a.mean() - b.mean()) < 4 * b.std() / math.sqrt(4000) * math.sqrt(2)
    assert a.std() == pytest.approx(b.std(), rel=0.08)


def test_a_two_row_slice_never_gets_a_silent_interval() -> None:
    """fairlearn gives a two-row group [0, 0]; here the interval is nan with the reason."""
    s = Slices.from_labels(
        by=["big"] * 100 + ["tiny"] * 2,
        actual=[1, 0] * 50 + [1, 0],
        predicted=[1, 0] * 40 + [0, 1] * 10 + [1, 1],
    )
    result = bootstrap_slices(s, ["recall", "informedness"], positive=1, replicates=200, seed=0)
    tiny = s.index("tiny")
    recall = result.intervals["recall"][tiny]
    assert recall.estimate == 1.0 and math.isnan(recall.low) and "too few" in (recall.reason or "")
    big = result.intervals["informedness"][s.index("big")]
    assert big.low < big.estimate < big.high and big.reason is None
    assert result.evaluation.flags[tiny] is not None


@pytest.mark.slow
@pytest.mark.parametrize("rows", [30, 1000])
def test_per_slice_intervals_cover_at_30_and_1000_rows_per_slice(rows: int) -> None:
    """95 % BCa intervals of informedness cover the true 0.6 in 93-97 % of 2,000 slices
    of 30 and of 1,000 rows (benchmarks/coverage_slices.py: the percentile interval
    covers 92 % at 30 rows, docs/slices.md)."""
    rng = np.random.default_rng(5)
    hits = []
    for sim in range(20):
        by = np.repeat(np.arange(100), rows)
        actual = (rng.random(by.size) < 0.4).astype(int)
        draw = rng.random(by.size)
        predicted = np.where(actual == 1, draw < 0.8, draw < 0.2).astype(int)
        s = Slices.from_labels(by=by, actual=actual, predicted=predicted)
        found = bootstrap_slices(s, ["informedness"], positive=1, replicates=400, seed=sim)
        hits += [
            i.low <= 0.6 <= i.high for i in found.intervals["informedness"] if not np.isnan(i.low)
        ]
    assert 0.93 <= np.mean(hits) <= 0.97


def test_intervals_taken_at_once_equal_those_taken_one_by_one() -> None:
    """The vectorised quantiles give each slice the interval replicate_interval gives it."""
    from informed.inference.replicates import replicate_interval

    group, actual, predicted, _ = _binary(11, n=2000, groups=8)
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted)
    found = bootstrap_slices(
        s, ["informedness"], positive=1, replicates=300, seed=4, method="percentile"
    )
    for k, interval in enumerate(found.intervals["informedness"]):
        if interval.reason is None:
            alone = replicate_interval(
                interval.estimate,
                found.distribution["informedness"][:, k],
                0.95,
                "percentile",
                math.nan,
            )
            assert (interval.low, interval.high, interval.standard_error) == (
                alone.low,
                alone.high,
                alone.standard_error,
            )


def test_a_spread_over_one_defined_slice_is_undefined_not_zero() -> None:
    """With one slice of weight 0, the spread across slices is nan with the reason (it
    was a silent [0, 0]); no slice at all evaluates to empty arrays."""
    from informed.slices.evaluation import evaluate_slices

    s = Slices.from_labels(
        by=["a", "a", "b", "b"], actual=[1, 0, 1, 0], predicted=[1, 0, 0, 0], weights=[1, 1, 0, 0]
    )
    d = disparities(s, positive=1, replicates=20, seed=0, min_count=1)
    for interval in d.summary_all.values():
        assert (
            math.isnan(interval.estimate) and interval.reason == "defined in fewer than two slices"
        )
    for interval in d.summary.values():
        assert math.isnan(interval.estimate)
        assert (interval.reason or "").startswith("defined in fewer than two slices of at least 1 ")
    empty = Slices.from_labels(by=[], actual=[], predicted=[])
    assert evaluate_slices(empty).values["informedness"].size == 0


@pytest.mark.parametrize("weighted", [False, True])
def test_bca_acceleration_of_each_slice_equals_that_of_its_table(weighted: bool) -> None:
    """Each slice's jackknife acceleration is the one informed.inference.bootstrap gives
    the slice's own Table (method="bca")."""
    from informed.inference.slice_bootstrap import slice_accelerations
    from informed.slices.evaluation import evaluate_slices

    group, actual, predicted, weights = _binary(12, n=500, groups=4)
    w = weights if weighted else None
    s = Slices.from_labels(by=group, actual=actual, predicted=predicted, weights=w)
    names = ["informedness", "recall", "markedness"]
    found = slice_accelerations(s, names, evaluate_slices(s, positive=1), 0.5, "propagate")
    for k in range(4):
        rows = group == k
        table = Table.from_labels(
            actual=actual[rows], predicted=predicted[rows], weights=None if w is None else w[rows]
        )
        alone = bootstrap(table, names, positive=1, method="bca", replicates=10, seed=0)
        for name in names:
            assert found[name][k] == pytest.approx(alone.acceleration[(None, name)], abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_replicate_intervals_of_all_columns_equal_replicate_interval_bit_for_bit(
    method: str,
) -> None:
    """Columns read together (sorted, each its own BCa tails, numpy's interpolation)
    give every slice the interval replicate_interval gives it alone: bounds, standard
    error, reason, undefined replicates; with ties, nan and infinite replicates, and a
    constant column."""
    from informed.inference.replicates import replicate_interval, replicate_intervals

    rng = np.random.default_rng(12)
    for trial in range(60):
        B, S = int(rng.integers(2, 250)), int(rng.integers(1, 30))
        values = np.round(rng.normal(size=(B, S)), int(rng.integers(0, 4)))
        if trial % 4 == 0:
            values[rng.random((B, S)) < 0.05] = np.nan
        if trial % 9 == 0:
            values[0, -1] = np.inf
        values[:, 0] = 0.25 if trial % 5 == 0 else values[:, 0]
        estimates = np.round(rng.normal(size=S), 1)
        accelerations = rng.normal(size=S) * 0.1 if method == "bca" else None
        found = replicate_intervals(estimates, values, 0.9, method, accelerations)
        for s in range(S):
            a = math.nan if accelerations is None else float(accelerations[s])
            alone = replicate_interval(float(estimates[s]), values[:, s], 0.9, method, a)
            got = found[s]
            for x, y in (
                (got.low, alone.low),
                (got.high, alone.high),
                (got.standard_error, alone.standard_error),
            ):
                assert (x is None and y is None) or x == y or (math.isnan(x) and math.isnan(y))
            assert (got.reason, got.undefined_replicates) == (
                alone.reason,
                alone.undefined_replicates,
            )
