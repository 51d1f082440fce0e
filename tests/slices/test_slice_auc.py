"""Differences of AUC between slices: DeLong's variances of independent samples summed,
against the structural components written out from the definition (O(n+ n-)), Holm's
adjustment against statsmodels', the coverage of the interval by simulation, the reasons
of the undefined ones."""

from __future__ import annotations

import importlib
import math
from typing import Any

import numpy as np
import pytest

from informed.inference.auc_differences import AUC_METHOD, auc_differences
from informed.inference.slice_rankings import slice_rankings
from informed.slices import Slices

# the module itself (its name, as a package attribute, is the function)
module = importlib.import_module("informed.inference.auc_differences")
rest_module = importlib.import_module("informed.inference.slice_rest")


def _delong(actual: np.ndarray, scores: np.ndarray) -> tuple[float, float]:
    """AUC and DeLong's variance by definition (DeLong et al. 1988): psi(X, Y) = 1 if
    X > Y, 1/2 if tied; V10(X_i) = mean_j psi(X_i, Y_j), V01(Y_j) = mean_i psi(X_i, Y_j);
    Var = S10 / m + S01 / n with S10, S01 their sample variances."""
    x, y = scores[actual == 1], scores[actual == 0]
    psi = (x[:, None] > y[None, :]) + 0.5 * (x[:, None] == y[None, :])
    area = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    s10 = np.sum((v10 - area) ** 2) / (x.size - 1)
    s01 = np.sum((v01 - area) ** 2) / (y.size - 1)
    return float(area), float(s10 / x.size + s01 / y.size)


def _data(seed: int, n: int, groups: int, dominant: float = 0.0) -> dict[str, Any]:
    """Scores rounded to few levels (ties within and across slices); with `dominant`,
    that share of the rows in slice 0."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    group = np.where(rng.random(n) < dominant, 0, group)
    actual = (rng.random(n) < 0.35).astype(int)
    scores = np.round((rng.normal(size=n) + (0.5 + 0.3 * group) * actual) * 3) / 3
    weights = rng.integers(1, 4, n)
    return {"group": group, "actual": actual, "scores": scores, "weights": weights}


@pytest.mark.parametrize("block", [None, 7, 64])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    ("seed", "dominant", "groups"), [(0, 0.0, 5), (1, 0.0, 5), (2, 0.9, 5), (3, 0.97, 2)]
)
def test_each_difference_equals_the_definition(
    weighted: bool,
    seed: int,
    dominant: float,
    groups: int,
    block: int | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each slice's AUC and DeLong variance, and its rest's, and so each difference and
    its standard error sqrt(Var_slice + Var_other), and the slice's own AUC interval read
    from the same components (`slice_rankings(components=...)`), equal DeLong's
    definition computed on the rows of each side (integer weights as repeated rows),
    heavy ties included, a slice of 90 % or 97 % of the rows included, to 1e-12 (the definition's own rounding
    is below 1e-14 here; the rest beside a slice of 97 % read from centred sums would
    miss by 5e-12, and is read directly); read in one block of points, or in blocks of
    7 or 64 (slices and the overall groups cut across blocks, the sums carried over)."""
    if block is not None:
        monkeypatch.setattr(rest_module, "BLOCK", block)
    n = 1500
    data = _data(seed, n, groups, dominant)
    w = data["weights"].astype(float) if weighted else None
    s = Slices.from_labels(
        by=data["group"], actual=data["actual"], scores=data["scores"], positive=1, weights=w
    )
    names = [repr(s.name(key)) for key in s.keys]
    own, rest, _ = module._both(module.Overall(s.overall_ranking), s, names)
    found = auc_differences(s, reference=1)
    # each slice's own AUC interval read from the same components, not from its Ranking
    summaries = slice_rankings(s, components=found.components)
    rows = np.repeat(np.arange(n), data["weights"]) if weighted else np.arange(n)
    group, actual, scores = data["group"][rows], data["actual"][rows], data["scores"][rows]
    for s_, (key,) in enumerate(s.keys):
        mine = _delong(actual[group == key], scores[group == key])
        other = _delong(actual[group != key], scores[group != key])
        assert own[s_].estimate == pytest.approx(mine[0], abs=1e-12)
        assert own[s_].variance == pytest.approx(mine[1], rel=1e-12, abs=0)
        interval = summaries[s_].auc_interval
        assert interval.estimate == pytest.approx(mine[0], abs=1e-12)
        assert interval.standard_error == pytest.approx(math.sqrt(mine[1]), rel=1e-12, abs=0)
        assert rest[s_].estimate == pytest.approx(other[0], abs=1e-12)
        assert rest[s_].variance == pytest.approx(other[1], rel=1e-12, abs=0)
        got = found.vs_rest[s_]
        assert got.method == AUC_METHOD and got.reason is None
        assert got.estimate == pytest.approx(mine[0] - other[0], abs=1e-12)
        assert got.standard_error == pytest.approx(math.sqrt(mine[1] + other[1]), rel=1e-12, abs=0)
        if key != 1:
            reference = _delong(actual[group == 1], scores[group == 1])
            versus = found.vs_reference[s_]
            assert versus.estimate == pytest.approx(mine[0] - reference[0], abs=1e-12)
            assert versus.standard_error == pytest.approx(
                math.sqrt(mine[1] + reference[1]), rel=1e-12, abs=0
            )


def test_a_rest_of_a_few_rows_is_read_directly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside a slice of 10,000 rows, a rest of 5 (its centred sums would lose digits) and
    a rest ranked perfectly (variance 0, where the sums would leave rounding) are read
    from the rest's own Ranking: the definition's values, and the reason for the second."""
    calls = _counting(monkeypatch)
    rng = np.random.default_rng(0)
    n = 10_000
    actual = np.concatenate([(rng.random(n) < 0.4).astype(int), [1, 1, 0, 0, 1]])
    scores = np.round(rng.normal(size=n + 5) + actual, 2)
    scores[n:] = [0.3, -0.5, 0.1, 0.3, 2.0]
    by = np.array(["big"] * n + ["small"] * 5)
    s = Slices.from_labels(by=by, actual=actual, scores=scores, positive=1)
    got = auc_differences(s, reference=0).vs_rest[0]
    mine, other = _delong(actual[:n], scores[:n]), _delong(actual[n:], scores[n:])
    assert got.estimate == pytest.approx(mine[0] - other[0], abs=1e-12)
    assert got.standard_error == pytest.approx(math.sqrt(mine[1] + other[1]), rel=1e-9)
    assert len(calls) == 1
    scores[n:] = [3.0, 2.5, 0.1, 0.2, 2.0]  # the rest of 'big' ranked perfectly
    s = Slices.from_labels(by=by, actual=actual, scores=scores, positive=1)
    perfect = auc_differences(s, reference=0).vs_rest[0]
    assert (perfect.reason or "").startswith("the rest of the rows: DeLong variance 0")
    assert perfect.estimate == pytest.approx(_delong(actual[:n], scores[:n])[0] - 1.0)
    assert len(calls) == 2


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the rests read directly (the fallback of the centred sums)."""
    calls: list[int] = []
    direct = module._direct

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return direct(*args, **kwargs)

    monkeypatch.setattr(module, "_direct", counted)
    return calls


def test_the_interval_and_holm_p_values_follow_from_the_standard_error() -> None:
    """Interval = d ± z se; p two-sided normal, Holm-adjusted as statsmodels does."""
    stats = pytest.importorskip("scipy.stats")
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    data = _data(4, 3000, 6)
    s = Slices.from_labels(
        by=data["group"], actual=data["actual"], scores=data["scores"], positive=1
    )
    found = auc_differences(s, reference=0, level=0.9)
    z = stats.norm.ppf(0.95)
    raw = []
    for got in found.vs_rest:
        assert got.low == pytest.approx(got.estimate - z * got.standard_error, abs=1e-12)
        assert got.high == pytest.approx(got.estimate + z * got.standard_error, abs=1e-12)
        raw.append(2 * stats.norm.sf(abs(got.estimate) / got.standard_error))
    expected = multitest.multipletests(raw, method="holm")[1]
    assert found.p_rest == pytest.approx(list(expected), rel=1e-9)
    assert min(found.p_rest) < 0.05  # the slices differ in AUC by construction


def test_the_interval_covers_an_equal_auc_about_95_percent() -> None:
    """Two independent samples of 150 cases from one binormal population (AUC 0.76):
    the 95 % interval of the difference holds 0 in 93-97 % of 1,200 draws (94.3 %)."""
    rng = np.random.default_rng(11)
    hits = []
    for _ in range(1200):
        actual = (rng.random(300) < 0.4).astype(int)
        scores = rng.normal(size=300) + actual
        s = Slices.from_labels(
            by=np.repeat(["a", "b"], 150), actual=actual, scores=scores, positive=1
        )
        interval = auc_differences(s, reference=1).vs_reference[0]
        hits.append(interval.low <= 0.0 <= interval.high)
    assert 0.93 <= np.mean(hits) <= 0.97


def test_an_auc_difference_without_an_estimate_says_why() -> None:
    """No negatives in a slice, a single positive, every positive in one slice (its rest
    has none), a perfectly ranked slice: no interval, no p-value, the reason."""
    s = Slices.from_labels(
        by=["none"] * 3 + ["one"] * 4 + ["perfect"] * 6 + ["big"] * 40,
        actual=[1, 1, 1] + [1, 0, 0, 0] + [1, 1, 1, 0, 0, 0] + [1, 0] * 20,
        scores=[0.5, 0.4, 0.3, 0.9, 0.1, 0.2, 0.3, 6, 5, 4, 3, 2, 1, *np.linspace(1, 0, 40)],
        positive=1,
    )
    found = auc_differences(s, reference=s.index("big"))
    reasons = {s.name(k): found.vs_rest[i].reason for i, k in enumerate(s.keys)}
    assert reasons["none"] == "slice 'none': no actual negatives (n- = 0)"
    assert reasons["one"] == (
        "slice 'one' has a single actual positive: DeLong's variance cannot be estimated"
    )
    assert (reasons["perfect"] or "").startswith("slice 'perfect': DeLong variance 0")
    assert "too few to say" in (reasons["perfect"] or "")
    assert found.vs_reference[s.index("big")].reason == "the reference slice itself"
    for i, key in enumerate(s.keys):
        if s.name(key) != "big":
            assert math.isnan(found.vs_rest[i].low) and math.isnan(found.p_rest[i])
    assert not math.isnan(found.vs_rest[s.index("big")].low)
    assert found.p_rest[s.index("big")] == pytest.approx(
        math.erfc(
            abs(found.vs_rest[s.index("big")].estimate)
            / found.vs_rest[s.index("big")].standard_error
            / math.sqrt(2)
        )
    )  # the only p-value of its family: Holm leaves it as it is
    alone = Slices.from_labels(
        by=["a"] * 4 + ["b"] * 4,
        actual=[1, 0, 1, 0, 0, 0, 0, 0],
        scores=[0.9, 0.1, 0.8, 0.2, 0.5, 0.6, 0.7, 0.4],
        positive=1,
    )
    rest = auc_differences(alone, reference=1).vs_rest[0]
    assert rest.reason == "the rest of the rows: no actual positives (n+ = 0)"
