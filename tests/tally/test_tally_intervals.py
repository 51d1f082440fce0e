"""Intervals of a tally's values from its 2x2 tables (`informed.inference.tally_intervals`):
Wilson's interval against statsmodels, the cell bootstraps against the library's own
table bootstrap and against a loop written here, the conventions and undefined values
said, and the coverage of a category's informedness interval on simulated documents."""

from __future__ import annotations

import math

import numpy as np
import pytest

from informed import Tally, bootstrap
from informed.inference import tally_intervals

statsmodels = pytest.importorskip("statsmodels.stats.proportion")

CATEGORIES = ["sports", "politics", "weather"]


def _tally(seed: int = 0, documents: int = 400) -> Tally:
    rng = np.random.default_rng(seed)
    tally = Tally(CATEGORIES)
    rates = [0.3, 0.2, 0.1]
    skill = [0.8, 0.5, 0.3]
    for _ in range(documents):
        correct = [c for c, r in zip(CATEGORIES, rates, strict=True) if rng.random() < r]
        assigned = [
            c
            for c, s, r in zip(CATEGORIES, skill, rates, strict=True)
            if (c in correct and rng.random() < s) or (c not in correct and rng.random() < r / 3)
        ]
        tally.add_result(assigned, correct)
    return tally


def test_proportions_have_wilsons_interval_as_statsmodels_computes_it() -> None:
    """Micro and per-category recall, precision and accuracy: statsmodels' Wilson interval
    of the table's successes and trials."""
    tally = _tally()
    result = tally_intervals(tally, ["recall", "precision", "accuracy"], seed=0)
    tables = {"micro": tally.pooled, **{c: tally.counts[k] for k, c in enumerate(CATEGORIES)}}
    for where, table in tables.items():
        (a, b), (c, d) = np.asarray(table).tolist()
        found = result.micro if where == "micro" else result.per_category[where]
        for name, (x, n) in {
            "recall": (a, a + c),
            "precision": (a, a + b),
            "accuracy": (a + d, a + b + c + d),
        }.items():
            low, high = statsmodels.proportion_confint(x, n, alpha=0.05, method="wilson")
            assert found[name].method == "wilson"
            assert found[name].low == pytest.approx(low, abs=1e-12), (where, name)
            assert found[name].high == pytest.approx(high, abs=1e-12), (where, name)


def test_a_categorys_bootstrap_agrees_with_the_table_bootstrap() -> None:
    """A category's informedness interval is the percentile bootstrap of its table's
    cells: the library's table bootstrap of the same table (another random stream) gives
    the same interval up to resampling noise."""
    tally = _tally(seed=1)
    result = tally_intervals(tally, ["informedness"], replicates=4000, seed=3)
    for category in CATEGORIES:
        mine = result.per_category[category]["informedness"]
        theirs = bootstrap(
            tally.table(category), replicates=4000, positive="+", seed=7, method="percentile"
        ).intervals["informedness"]
        assert mine.estimate == pytest.approx(theirs.estimate, abs=1e-12)
        assert mine.low == pytest.approx(theirs.low, abs=0.025), category
        assert mine.high == pytest.approx(theirs.high, abs=0.025), category


def test_the_macro_interval_is_a_loop_over_resampled_categories() -> None:
    """Macro informedness: each replicate draws every category's table anew (a multinomial
    of its size) and averages; a loop written here, with its own random numbers, gives the
    same percentile interval up to resampling noise."""
    tally = _tally(seed=2)
    result = tally_intervals(tally, ["informedness"], replicates=4000, seed=5)
    rng = np.random.default_rng(11)
    means = []
    for _ in range(4000):
        values = []
        for table in tally.counts:
            flat = table.reshape(4)
            a, b, c, d = rng.multinomial(flat.sum(), flat / flat.sum())
            values.append(a / (a + c) - b / (b + d) if a + c and b + d else math.nan)
        means.append(np.mean(values))
    low, high = np.nanpercentile(means, [2.5, 97.5])
    macro = result.macro["informedness"]
    assert macro.estimate == pytest.approx(tally.macro("informedness"), abs=1e-12)
    assert macro.low == pytest.approx(low, abs=0.015)
    assert macro.high == pytest.approx(high, abs=0.015)


def test_undefined_values_and_conventions_have_no_interval_and_say_why() -> None:
    """A category never true has no recall (its reason); under Statistics::Contingency's
    conventions its recall is 1 by convention: no interval either, and it says so. The
    macro average over an undefined category is undefined and names it."""
    for conventions in ("default", "statistics-contingency"):
        tally = Tally(["seen", "never"], conventions=conventions)
        for k in range(50):
            tally.add_result(["seen"] if k % 3 else [], ["seen"] if k % 2 else [])
        result = tally_intervals(tally, ["recall", "informedness"], replicates=100, seed=0)
        recall = result.per_category["never"]["recall"]
        assert math.isnan(recall.low) and math.isnan(recall.high)
        if conventions == "default":
            assert (
                math.isnan(recall.estimate) and recall.reason == "no real positives (+R is empty)"
            )
            macro = result.macro["informedness"]
            assert math.isnan(macro.estimate) and "'never'" in (macro.reason or "")
        else:
            assert recall.estimate == 1.0 and "convention of Statistics::Contingency" in (
                recall.reason or ""
            )
        assert not math.isnan(result.per_category["seen"]["recall"].low)


def test_the_same_seed_gives_the_same_intervals() -> None:
    tally = _tally()
    first = tally_intervals(tally, ["informedness"], replicates=200, seed=9)
    again = tally_intervals(tally, ["informedness"], replicates=200, seed=9)
    assert first.macro == again.macro and first.per_category == again.per_category


def test_a_categorys_informedness_interval_covers_the_truth() -> None:
    """Documents drawn from known rates (recall 0.7, false alarm 0.1, prevalence 0.3: true
    informedness 0.6), 150 per tally, 120 tallies: the 90 % interval of the category's
    informedness covers 0.6 in about 90 % of them (allowed: 80 % to 97 %)."""
    rng = np.random.default_rng(21)
    covered = 0
    runs = 120
    for _ in range(runs):
        truth = rng.random(150) < 0.3
        assigned = np.where(truth, rng.random(150) < 0.7, rng.random(150) < 0.1)
        tally = Tally(["x"])
        tally.add_results(assigned[:, None].astype(int), truth[:, None].astype(int))
        interval = tally_intervals(
            tally, ["informedness"], level=0.9, replicates=400, seed=rng
        ).per_category["x"]["informedness"]
        covered += interval.low <= 0.6 <= interval.high
    assert 0.80 <= covered / runs <= 0.97, covered / runs
