"""Coverage: on data simulated with a known informedness, 95 % intervals cover it ~95 % of
the time.

With R independent repetitions, the observed coverage of an exact 95 % procedure has
binomial standard deviation sqrt(0.95 x 0.05 / R); for R = 400 that is 0.0109. We accept
coverage within 3 of those (0.917 .. 0.983). The bootstrap is only asymptotically exact,
so at these sample sizes a small shortfall (about 0.01) is expected and fits the band.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from informed import Table, evaluate
from informed.inference import bootstrap, proportion_interval

R = 400
SD = math.sqrt(0.95 * 0.05 / R)
BAND = (0.95 - 3 * SD, 0.95 + 3 * SD)

# A population with prevalence 0.3, recall 0.8, inverse recall 0.7: informedness 0.5.
PROBABILITIES_2X2 = np.array([[0.3 * 0.8, 0.7 * 0.3], [0.3 * 0.2, 0.7 * 0.7]])
# Three classes: the true multiclass informedness is that of the population table.
PROBABILITIES_3X3 = np.array([[0.20, 0.05, 0.03], [0.06, 0.25, 0.04], [0.04, 0.05, 0.28]])


def _coverage(probabilities: np.ndarray, n: int, method: str, positive: object, seed: int) -> float:
    labels = ["+", "-"] if probabilities.shape[0] == 2 else [0, 1, 2]
    truth_table = Table.from_counts(probabilities, rows="predicted", labels=labels)
    truth = evaluate(truth_table, positive=positive).measures["informedness"]
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(R):
        counts = rng.multinomial(n, probabilities.ravel()).reshape(probabilities.shape)
        table = Table.from_counts(counts, rows="predicted", labels=labels)
        interval = bootstrap(
            table,
            ["informedness"],
            positive=positive,
            method=method,
            seed=rng.integers(2**32),
            replicates=1000,
        ).intervals["informedness"]
        hits += interval.low <= truth <= interval.high
    return hits / R


@pytest.mark.slow
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_binary_informedness_coverage(method: str) -> None:
    """95 % intervals of binary informedness (truth 0.5, n = 300) cover it 92-98 % of the time."""
    coverage = _coverage(PROBABILITIES_2X2, 300, method, "+", seed=2024)
    assert BAND[0] <= coverage <= BAND[1], coverage


@pytest.mark.slow
def test_multiclass_informedness_coverage() -> None:
    """The same for Powers' bias-weighted informedness of three classes (n = 400)."""
    coverage = _coverage(PROBABILITIES_3X3, 400, "percentile", None, seed=7)
    assert BAND[0] <= coverage <= BAND[1], coverage


@pytest.mark.slow
@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
def test_proportion_interval_coverage(method: str) -> None:
    """Wilson and Clopper-Pearson intervals of recall (truth 0.8, n = 150) cover it."""
    rng = np.random.default_rng(99)
    hits = 0
    for _ in range(R):
        counts = rng.multinomial(150, PROBABILITIES_2X2.ravel()).reshape(2, 2)
        table = Table.from_counts(counts, rows="predicted", labels=["+", "-"])
        interval = proportion_interval(table, "recall", positive="+", method=method)
        hits += interval.low <= 0.8 <= interval.high
    # Clopper-Pearson is conservative by construction: only a lower bound is meaningful
    assert hits / R >= BAND[0]
    if method == "wilson":
        assert hits / R <= BAND[1]
