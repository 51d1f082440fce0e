"""Bootstrap replicates that are infinite (a log score with a case given probability 0 of
its outcome): an interval end among them is +-inf, a true value with the reason, not the
NaN that numpy's interpolation makes of inf - inf and 0 inf (issue 29). Held to the
order-statistic rule written out here (`_end`) and, on finite replicates, to numpy's
quantiles bit for bit; then through `calibration_bands`, JSON, the terminal, the HTML
report and the command line.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.cli import main
from informed.inference.calibration_bands import calibration_bands
from informed.inference.interval import Interval, normal_cdf, normal_quantile
from informed.inference.replicates import (
    percentile_band,
    replicate_interval,
    replicate_intervals,
)
from informed.integrations.dvc import metrics as dvc_metrics
from informed.integrations.mlflow.keys import metric_values
from informed.ranking import Ranking
from informed.report.records import measure_records, result_document


def _end(values: np.ndarray, p: float) -> float:
    """The oracle: numpy's linear interpolation (method 7 of Hyndman & Fan 1996) between
    the order statistics x[j] and x[j + 1] at h = (n - 1) p, j = floor(h), g = h - j,
    read as its limit where one of them is infinite: x[j] where g = 0 or x[j] = x[j + 1];
    -inf after -inf, +inf before +inf. Between two finite ones numpy's own number: the
    infinite replicates put at +-1e300 leave the order, x[j], x[j + 1] and g as they were."""
    x = np.sort(values[~np.isnan(values)])
    h = (x.size - 1) * p
    j = math.floor(h)
    g = h - j
    a, b = x[j], x[min(j + 1, x.size - 1)]
    if g == 0 or a == b:
        return float(a)
    if a == -math.inf:
        return -math.inf if b != math.inf else math.nan
    if b == math.inf:
        return math.inf
    stand_in = np.where(np.isinf(x), np.sign(x) * 1e300, x)
    return float(np.quantile(stand_in, p))


def _tails(level: float) -> tuple[float, float]:
    """The tail probabilities of an interval at `level`, as a float computes them
    ((1 - 0.95) / 2 is 0.025000000000000022, not 0.025)."""
    return (1 - level) / 2, (1 + level) / 2


def _same(found: float, expected: float) -> bool:
    return found == expected or (math.isnan(found) and math.isnan(expected))


def _repro() -> Ranking:
    """Issue 29's data: one negative given probability 1 (its log score +inf)."""
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 1, 300)
    y = rng.uniform(0, 1, 300) < p
    p[:3] = 1.0
    y[:3] = [True, True, False]
    p[3:6] = 0.0
    y[3:6] = False
    return Ranking.from_scores(y, p, positive=True)


def test_log_score_interval_is_unbounded_above_with_the_reason() -> None:
    bands = calibration_bands(_repro(), replicates=200, seed=1)
    found = bands.intervals["log"]
    drawn = bands.distribution["log"]
    infinite = int(np.isinf(drawn).sum())
    assert 0 < infinite < 200  # some replicates drew the case, some did not
    assert found.estimate == math.inf
    low, high = _tails(0.95)
    assert found.low == _end(drawn, low) and math.isfinite(found.low)
    assert found.high == math.inf == _end(drawn, high)
    assert found.reason == (
        f"unbounded: the upper end is infinite because {infinite} of 200 replicates drew "
        "a case given probability 0 of its outcome"
    )
    assert math.isnan(found.standard_error)
    assert repr(found).endswith(f"[{found.low:.4f}, ∞]; {found.reason})")
    mcb = bands.intervals["log_miscalibration"]
    assert mcb.high == math.inf and mcb.low == _end(bands.distribution["log_miscalibration"], low)
    # the finite numbers are numpy's quantiles, bit for bit
    brier = bands.intervals["brier"]
    expected = np.quantile(bands.distribution["brier"], _tails(0.95))
    assert (brier.low, brier.high, brier.reason) == (*expected, None)
    document = json.dumps(bands.to_dict(), allow_nan=False)
    assert json.loads(document)["intervals"]["log"] == [found.low, "Infinity"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([1.0, 2.0, np.inf, np.inf], (1.075, np.inf)),  # upper end between 2 and inf
        ([np.inf] * 4, (np.inf, np.inf)),  # inf, inf: inf, not inf - inf
        ([-np.inf, -np.inf, 3.0, 4.0], (-np.inf, 3.925)),
        ([-np.inf, np.inf], (np.nan, np.nan)),  # every value lies between
    ],
)
def test_the_order_statistic_rule(values: list[float], expected: tuple[float, float]) -> None:
    replicates = np.array(values)
    found = replicate_interval(0.0, replicates, 0.95, "percentile", math.nan)
    assert (found.low, found.high) == pytest.approx(expected, nan_ok=True)
    oracle = [_end(replicates, p) for p in _tails(0.95)]
    low, high = oracle
    assert _same(found.low, low) and _same(found.high, high)
    infinite = int(np.isinf(replicates).sum())
    assert found.reason is not None and f"{infinite} of {len(values)} replicates" in found.reason
    assert math.isnan(found.standard_error)


def test_t_zero_takes_the_lower_order_statistic() -> None:
    """At h = (n - 1) p whole, numpy's a + (inf - a) 0 is NaN; the end is x[h]."""
    replicates = np.array([0.0, 1.0, 2.0, 3.0, np.inf])  # n = 5, level 0.5: h = 1 and 3
    found = replicate_interval(1.5, replicates, 0.5, "percentile", math.nan)
    assert (found.low, found.high) == (1.0, 3.0)
    assert found.reason == "1 of 5 replicates are infinite: no standard error"


def test_finite_replicates_are_numpys_bit_for_bit() -> None:
    rng = np.random.default_rng(3)
    for size in (2, 3, 17, 1000):
        values = rng.normal(size=size) * 10.0 ** rng.integers(-5, 5)
        found = replicate_interval(0.0, values, 0.9, "percentile", math.nan)
        expected = np.quantile(values, _tails(0.9))
        assert np.array([found.low, found.high]).tobytes() == expected.tobytes()
        assert found.standard_error == np.std(values, ddof=1) and found.reason is None
        curves = rng.normal(size=(size, 6))
        curves[: size // 2, 0] = np.nan  # a point defined in half the replicates
        curves[:, 1] = np.nan  # and one in none
        low, high = percentile_band(curves, 0.9)
        with pytest.warns(RuntimeWarning, match="All-NaN"):
            expected_low, expected_high = np.nanquantile(curves, _tails(0.9), axis=0)
        assert low.tobytes() == expected_low.tobytes()
        assert high.tobytes() == expected_high.tobytes()


def test_curve_band_among_infinite_replicates() -> None:
    rng = np.random.default_rng(4)
    curves = rng.normal(size=(200, 5))
    curves[:150, 0] = np.inf  # the upper end among inf
    curves[:3, 1] = -np.inf  # the lower end among -inf (3 of 200 < 2.5 %: not reached)
    curves[:10, 2] = -np.inf
    curves[:, 3] = np.inf
    curves[:50, 4] = np.nan
    curves[50:60, 4] = np.inf
    low, high = percentile_band(curves, 0.95)
    for k in range(5):
        assert low[k] == _end(curves[:, k], _tails(0.95)[0]), k
        assert high[k] == _end(curves[:, k], _tails(0.95)[1]), k
    assert high[0] == np.inf and low[2] == -np.inf and low[3] == high[3] == np.inf


def test_bca_with_infinite_replicates() -> None:
    """z0 counts an infinite replicate above a finite estimate; the BCa tails are read
    by the same rule."""
    rng = np.random.default_rng(5)
    replicates = rng.normal(size=400)
    replicates[:40] = np.inf
    estimate, a = 0.1, 0.02
    found = replicate_interval(estimate, replicates, 0.9, "bca", a)
    z0 = float(normal_quantile(np.mean(replicates < estimate)))
    z = normal_quantile(np.array(_tails(0.9)))
    tails = normal_cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    assert found.low == _end(replicates, float(tails[0]))
    assert found.high == _end(replicates, float(tails[1])) == np.inf
    # the acceleration of jackknife values with inf among them is nan: BCa says so
    assert math.isnan(replicate_interval(estimate, replicates, 0.9, "bca", math.nan).low)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_many_columns_at_once_read_infinite_ones_alike(method: str) -> None:
    rng = np.random.default_rng(6)
    replicates = rng.normal(size=(300, 4))
    replicates[:200, 1] = np.inf
    replicates[:5, 2] = -np.inf
    estimates, a = np.array([0.0, 0.1, -0.1, 0.2]), np.array([0.01, 0.0, -0.01, 0.02])
    together = replicate_intervals(estimates, replicates, 0.95, method, a)
    for s in range(4):
        alone = replicate_interval(estimates[s], replicates[:, s], 0.95, method, a[s])
        assert together[s] == alone
    assert together[1].high == np.inf and together[1].reason is not None


finite_or_infinite = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False), st.sampled_from([math.inf, -math.inf])
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(finite_or_infinite, min_size=1, max_size=60),
    st.floats(0.01, 0.99),
)
def test_property_ends_are_the_order_statistic_rule(values: list[float], level: float) -> None:
    replicates = np.array(values)
    found = replicate_interval(0.0, replicates, level, "percentile", math.nan)
    assert _same(found.low, _end(replicates, _tails(level)[0]))
    assert _same(found.high, _end(replicates, _tails(level)[1]))
    if not (math.isnan(found.low) or math.isnan(found.high)):
        assert found.low <= found.high
    low, high = percentile_band(replicates[:, None], level)
    assert _same(float(low[0]), found.low) and _same(float(high[0]), found.high)


def test_records_read_infinity_and_mlflow_does_not_log_it() -> None:
    """A document's "Infinity" end is read back as inf; MLflow stores inf as the largest
    float, so the end goes to undefined.json, not to a metric; DVC's metrics.json writes
    it "Infinity" too."""
    document = result_document(_repro(), positive=True)
    document["ranking"]["intervals"] = {"auc": [0.5, "Infinity"]}
    document["ranking"]["bootstrap"] = {"level": 0.95, "method": "percentile", "replicates": 9}
    record = next(r for r in measure_records(document) if r.measure == "auc")
    assert (record.low, record.high) == (0.5, math.inf)
    metrics, undefined = metric_values([record])
    assert metrics["auc_ci_low"] == 0.5 and "auc_ci_high" not in metrics
    assert undefined["auc_ci_high"].startswith("inf: not logged as a metric")
    written = json.loads(json.dumps(dvc_metrics(document), allow_nan=False))
    assert (written["auc"]["ci_low"], written["auc"]["ci_high"]) == (0.5, "Infinity")
    assert Interval(1.0, -math.inf, 2.0, 0.9, "percentile").as_list() == ["-Infinity", 2.0]


def test_command_line_text_json_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(0)
    p = rng.uniform(0, 1, 300)
    y = rng.uniform(0, 1, 300) < p
    p[:3], y[:3] = 1.0, [True, True, False]
    rows = "\n".join(f"{int(a)},{s!r}" for a, s in zip(y.tolist(), p.tolist(), strict=True))
    path = tmp_path / "scores.csv"
    path.write_text(f"actual,score\n{rows}\n")
    page = tmp_path / "report.html"
    common = ["evaluate", str(path), "--actual", "actual", "--score", "score",
              "--positive", "1", "--ci", "0.95"]  # fmt: skip
    assert main([*common, "--format", "json"]) == 0
    section = json.loads(capsys.readouterr().out)["calibration"]  # schema: conftest
    low, high = section["intervals"]["log"]
    assert high == "Infinity" and isinstance(low, float)
    why = section["intervals_infinite"]["log"]
    assert why.startswith("unbounded: the upper end is infinite because ")
    assert why.endswith(" of 1,000 replicates drew a case given probability 0 of its outcome")
    assert "log" not in section.get("intervals_undefined", {})
    assert main([*common, "--html", str(page)]) == 0
    text = capsys.readouterr().out
    intervals = text[text.index("Intervals (95 %") :]
    line = next(row for row in intervals.splitlines() if row.strip().startswith("log score"))
    assert line.split() == ["log", "score", "inf", f"[{low:.4f},", "inf]"]
    assert f"log score, log MCB: {why}" in " ".join(text.split())
    html = page.read_text()
    assert f'title="{why}">[{low:.4f}, ∞]</td>' in html
    assert f'<p class="small">log score, log MCB: {why}.</p>' in html
