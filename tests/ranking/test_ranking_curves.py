"""ROC curve and hull, threshold curves, undefined values and the JSON report."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.errors import InputError, InputTypeError
from informed.ranking import (
    RANKING_MEASURES,
    Ranking,
    auc,
    average_hit_rate,
    average_qrecall,
    hit_rate,
    lift,
    lift_table,
    optimal_qrecall,
    pearson,
    pem,
    pem_areas,
    precision_at,
    qrecall,
    random_qrecall,
    ranking_report,
    recall_at,
    roc_convex_hull,
    roc_curve,
    threshold_at,
    undefined_reason,
)


@st.composite
def tied(draw: st.DrawFn) -> tuple[list[float], list[int], list[float]]:
    n = draw(st.integers(1, 40))
    levels = draw(st.lists(st.integers(0, 9), min_size=1, max_size=8))
    scores = [v / 9 for v in draw(st.lists(st.sampled_from(levels), min_size=n, max_size=n))]
    actual = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    weights = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
    return scores, actual, weights


def upper_hull(points: list[tuple[Fraction, Fraction]], *, keep_collinear: bool) -> list[int]:
    """Andrew's monotone chain in exact fractions, over points sorted by x (then y)."""
    hull: list[int] = []
    for i, (x, y) in enumerate(points):
        while len(hull) >= 2:
            (xa, ya), (xb, yb) = points[hull[-2]], points[hull[-1]]
            cross = (xb - xa) * (y - ya) - (yb - ya) * (x - xa)
            if cross > 0 or (cross == 0 and not keep_collinear):
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


@settings(max_examples=80, deadline=None)
@given(data=tied(), keep_collinear=st.booleans())
def test_convex_hull_matches_exact_monotone_chain(
    data: tuple[list[float], list[int], list[float]], keep_collinear: bool
) -> None:
    """The vectorised hull equals a sequential hull in exact arithmetic, collinear points too."""
    scores, actual, weights = data
    ranking = Ranking.from_scores(
        actual=actual, scores=scores, positive=1, negative=0, weights=weights
    )
    points = [(Fraction(0), Fraction(0))]
    for pos, neg in zip(ranking.positives.tolist(), ranking.negatives.tolist(), strict=True):
        points.append((points[-1][0] + Fraction(neg), points[-1][1] + Fraction(pos)))
    hull = roc_convex_hull(ranking, keep_collinear=keep_collinear)
    assert hull.index.tolist() == upper_hull(points, keep_collinear=keep_collinear)


def test_convex_hull_finishes_adversarial_curves() -> None:
    """A concave run ended by a steep step needs one pass per point: the fallback finishes it."""
    k = 200
    negatives = [1] * k + [1]
    positives = [k - i for i in range(k)] + [10 * k * k]
    scores = np.arange(k + 1, 0, -1, dtype=float)
    ranking = Ranking(scores=scores, positives=positives, negatives=negatives)
    points = [(Fraction(0), Fraction(0))]
    for pos, neg in zip(positives, negatives, strict=True):
        points.append((points[-1][0] + neg, points[-1][1] + pos))
    assert roc_convex_hull(ranking).index.tolist() == upper_hull(points, keep_collinear=False)


def test_roc_end_points_and_reachable_thresholds() -> None:
    """RELIABILITY P35, P36, P42: (0,0) with +inf first, (1,1) last; score >= t reproduces each point."""
    actual = np.array([0, 1, 1, 0, 1, 0, 0])
    scores = np.array([1.0, 1.0, 0.7, 0.7, 0.2, 0.0, 0.0])  # the top score on a negative too
    curve = roc_curve(Ranking.from_scores(actual=actual, scores=scores, positive=1))
    assert curve.thresholds[0] == math.inf
    assert np.all((curve.thresholds[1:] >= 0) & (curve.thresholds[1:] <= 1))
    assert (curve.false_positive_rate[0], curve.true_positive_rate[0]) == (0, 0)
    assert (curve.false_positive_rate[-1], curve.true_positive_rate[-1]) == (1, 1)
    for t, fpr, tpr in zip(
        curve.thresholds, curve.false_positive_rate, curve.true_positive_rate, strict=True
    ):
        selected = scores >= t
        assert tpr == np.sum(selected & (actual == 1)) / 3
        assert fpr == np.sum(selected & (actual == 0)) / 4


def test_roc_with_float_weights_is_monotone() -> None:
    """RELIABILITY P37, with scikit-learn's own case: weights 0.2 x 5."""
    ranking = Ranking.from_scores(
        actual=[1, 0, 1, 0, 1], scores=[0.9, 0.8, 0.7, 0.6, 0.5], positive=1, weights=[0.2] * 5
    )
    curve = roc_curve(ranking)
    assert np.all(np.diff(curve.false_positive_rate) >= 0)
    assert np.all(np.diff(curve.true_positive_rate) >= 0)
    assert curve.true_positive_rate[-1] == 1.0
    assert curve.false_positive_rate[-1] == 1.0


def test_tie_group_is_one_roc_step() -> None:
    """RELIABILITY entry 31: scores [9,9,5,5], labels [1,0,1,0]: AUC 0.5, vertices at group ends."""
    ranking = Ranking.from_scores(actual=[1, 0, 1, 0], scores=[9, 9, 5, 5], positive=1)
    curve = roc_curve(ranking)
    assert curve.false_positive_rate.tolist() == [0, 0.5, 1]
    assert curve.true_positive_rate.tolist() == [0, 0.5, 1]
    assert auc(ranking) == 0.5


@settings(max_examples=100, deadline=None)
@given(data=tied(), threshold=st.sampled_from([-1.0, 0.0, 0.5, 1 / 9, 4 / 9, 1.0, 2.0, math.inf]))
def test_precision_and_recall_count_the_rows(
    data: tuple[list[float], list[int], list[float]], threshold: float
) -> None:
    """Eq. 2-3 by direct count over the rows, with `>` (the seed's) and `>=`."""
    scores, actual, weights = (np.array(v) for v in data)
    ranking = Ranking.from_scores(
        actual=actual, scores=scores, positive=1, negative=0, weights=weights
    )
    for rule, selected in ((">", scores > threshold), (">=", scores >= threshold)):
        hits = float(np.sum(weights * (selected & (actual == 1))))
        chosen = float(np.sum(weights * selected))
        positives = float(np.sum(weights * (actual == 1)))
        expected_precision = hits / chosen if chosen else math.nan
        expected_recall = hits / positives if positives else math.nan
        assert precision_at(ranking, threshold, rule=rule) == pytest.approx(
            expected_precision, nan_ok=True
        )
        assert recall_at(ranking, threshold, rule=rule) == pytest.approx(
            expected_recall, nan_ok=True
        )


def test_threshold_curves_are_vectorised() -> None:
    ranking = Ranking.from_scores(actual=[1, 0, 1, 1], scores=[0.9, 0.8, 0.7, 0.1], positive=1)
    assert precision_at(ranking, [0.05, 0.75, 0.95]).tolist()[:2] == [0.75, 0.5]
    assert math.isnan(precision_at(ranking, [0.95])[0])
    assert recall_at(ranking, np.array([0.05, 0.75])).tolist() == [1.0, 1 / 3]
    with pytest.raises(
        InputError, match=r"`rule` must be '>' \(Arbel & Rokach's\) or '>='; got '=>'"
    ):
        precision_at(ranking, 0.5, rule="=>")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="NaN"):
        recall_at(ranking, math.nan)


# -- undefined values -----------------------------------------------------------------------

QUOTA_CURVES = {
    "hit_rate": hit_rate,
    "qrecall": qrecall,
    "random_qrecall": random_qrecall,
    "optimal_qrecall": optimal_qrecall,
    "lift": lift,
    "pearson": pearson,
    "threshold": threshold_at,
}
SUMMARIES = {
    "auc": lambda r, q: auc(r),
    "average_hit_rate": average_hit_rate,
    "average_qrecall": average_qrecall,
    "pem": pem,
}


@settings(max_examples=80, deadline=None)
@given(data=tied(), fraction=st.sampled_from([0.0, 0.1, 0.37, 0.5, 1.0]))
def test_undefined_reason_explains_every_nan(
    data: tuple[list[float], list[int], list[float]], fraction: float
) -> None:
    """A measure is NaN exactly when `undefined_reason` gives a reason, and never raises."""
    scores, actual, weights = data
    ranking = Ranking.from_scores(
        actual=actual, scores=scores, positive=1, negative=0, weights=weights
    )
    quota = fraction * float(ranking.n)
    for name, curve in QUOTA_CURVES.items():
        value = curve(ranking, quota)
        assert math.isnan(value) == (undefined_reason(ranking, name, quota) is not None), name
    for name, summary in SUMMARIES.items():
        for q in (None, quota):
            if name == "auc" and q is not None:
                continue
            value = summary(ranking, q)
            assert math.isnan(value) == (undefined_reason(ranking, name, q) is not None), (name, q)
    s1, s2, _ = pem_areas(ranking)
    assert math.isnan(s1) == (undefined_reason(ranking, "pem_areas") is not None)
    assert math.isnan(s2) == math.isnan(s1)


def test_undefined_reasons_are_specific() -> None:
    negatives_only = Ranking.from_scores(actual=[0, 0], scores=[0.2, 0.1], positive=1, negative=0)
    assert undefined_reason(negatives_only, "auc") == "no actual positives (n+ = 0)"
    positives_only = Ranking.from_scores(actual=[1, 1], scores=[0.2, 0.1], positive=1)
    assert undefined_reason(positives_only, "pem") == "no actual negatives (n- = 0)"
    assert math.isnan(pem(positives_only))
    tied_top = Ranking.from_scores(actual=[1, 0, 1], scores=[0.5, 0.5, 0.1], positive=1)
    assert "tied" in str(undefined_reason(tied_top, "pearson", 2))
    assert undefined_reason(tied_top, "pearson", 3) is None
    assert "empty quota" in str(undefined_reason(tied_top, "hit_rate", 0))
    assert "below n+" in str(undefined_reason(tied_top, "average_qrecall", 1))
    assert undefined_reason(Ranking.empty(), "auc") == "no data: the ranking is empty"
    weighted = Ranking.from_scores(actual=[1, 0], scores=[0.2, 0.1], positive=1, weights=[0.5, 1.5])
    assert "integer" in str(undefined_reason(weighted, "pem_areas"))
    with pytest.raises(InputError, match=r"unknown ranking measure 'gini'\. The ranking measures"):
        undefined_reason(tied_top, "gini")
    with pytest.raises(InputError, match="pass the `quota`"):
        undefined_reason(tied_top, "hit_rate")


def test_pearson_of_a_small_example() -> None:
    """Eq. 8-11 by hand: positions 1-3 hold (p, t) = (0.9, 1), (0.5, 1/2), (0.5, 1/2).

    Two distinct points, the upper one to the right, lie on a rising line: rho = 1. The
    top position alone has no spread: NaN. An infinite score inside the quota: NaN.
    """
    ranking = Ranking.from_scores(actual=[1, 1, 0], scores=[0.9, 0.5, 0.5], positive=1)
    assert pearson(ranking, 3) == pytest.approx(1.0, rel=1e-15)
    assert math.isnan(pearson(ranking, 1))
    with_infinity = Ranking.from_scores(
        actual=[1, 0, 1, 0], scores=[1, 0.5, 0.2, -math.inf], positive=1, allow_infinite=True
    )
    assert not math.isnan(pearson(with_infinity, 3))
    assert math.isnan(pearson(with_infinity, 3.5))
    assert "infinite" in str(undefined_reason(with_infinity, "pearson", 4))


def test_quota_is_checked() -> None:
    ranking = Ranking.from_scores(actual=[1, 0], scores=[0.2, 0.1], positive=1)
    with pytest.raises(InputError, match=r"`quota` must lie between 0 and n = 2; got 3\.$"):
        hit_rate(ranking, 3)
    with pytest.raises(InputError, match=r"got -1\.$"):
        qrecall(ranking, [1, -1])
    with pytest.raises(InputError, match=r"got nan"):
        lift(ranking, math.nan)
    with pytest.raises(InputTypeError, match="`quota` must be a number"):
        hit_rate(ranking, "10")  # type: ignore[call-overload]
    with pytest.raises(InputError, match="`bins` must be a positive integer"):
        lift_table(ranking, 0)


# -- report -----------------------------------------------------------------------------------


def test_report_shape_and_json() -> None:
    """Exactly the keys the CLI needs, plain Python values, NaN as None, strict JSON."""
    rng = np.random.default_rng(11)
    actual = rng.random(300) < 0.2
    scores = np.round(rng.random(300), 1)
    ranking = Ranking.from_scores(actual=actual, scores=scores, positive=True)
    report = ranking_report(ranking, quotas=[0, 10, 10.0, 30, 45.5, 300], bins=5)
    assert set(report) == {
        "auc",
        "average_hit_rate",
        "average_qrecall",
        "pem",
        "pem_areas",
        "at_quota",
        "deciles",
        "definitions",
    }
    assert list(report["at_quota"]) == ["0", "10", "30", "45.5", "300"]
    for values in report["at_quota"].values():
        names = {"hit_rate", "qrecall", "lift", "pearson", "threshold"}
        assert set(values) - {"undefined"} == names
        # every null carries its reason, and only nulls do
        nulls = {name for name in names if values[name] is None}
        assert set(values.get("undefined", {})) == nulls
    assert report["at_quota"]["0"]["hit_rate"] is None
    assert report["at_quota"]["0"]["undefined"]["hit_rate"]
    assert report["at_quota"]["30"]["hit_rate"] == hit_rate(ranking, 30)
    assert report["at_quota"]["30"]["threshold"] == threshold_at(ranking, 30)
    assert len(report["deciles"]) == 5
    assert {"quota", "hit_rate", "lift", "cumulative_qrecall"} <= set(report["deciles"][0])
    assert report["deciles"][0]["quota"] == 60
    assert report["auc"] == auc(ranking)
    assert report["pem"] == pem(ranking)
    text = json.dumps(report, allow_nan=False)
    assert json.loads(text) == report
    numbers = {
        key: value for key, value in report.items() if key not in ("undefined", "definitions")
    }
    numbers["at_quota"] = {
        quota: {k: v for k, v in entry.items() if k != "undefined"}
        for quota, entry in report["at_quota"].items()
    }
    for value in _leaves(numbers):
        assert value is None or type(value) in (int, float)
    # the definitions are the registry's, for each measure reported
    for name, entry in report["definitions"].items():
        assert entry["title"] == RANKING_MEASURES[name].title
        assert entry["definition"] == RANKING_MEASURES[name].definition
    assert set(report["definitions"]) >= {"auc", "pem", "s1", "hit_rate", "threshold"}


def test_report_of_an_undefined_ranking_uses_none() -> None:
    ranking = Ranking.from_scores(actual=[0, 0, 0], scores=[0.3, 0.2, 0.1], positive=1, negative=0)
    report = ranking_report(ranking, quotas=[2])
    assert report["auc"] is None
    assert report["pem"] is None
    assert report["at_quota"]["2"]["qrecall"] is None
    assert report["at_quota"]["2"]["hit_rate"] == 0.0
    json.dumps(report, allow_nan=False)


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]
