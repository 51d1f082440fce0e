"""The multinomial bootstrap of the cells is the case (row) bootstrap: same distribution."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from informed import Table
from informed.inference import bootstrap

N = 2000
B = 4000
COUNTS = np.array([[520, 90, 40], [110, 610, 70], [60, 100, 400]])  # rows predicted, N = 2000


def _row_bootstrap(counts: np.ndarray, replicates: int, seed: int) -> np.ndarray:
    """Resample the n rows with replacement and count each replicate: counts[B, L, L]."""
    L = counts.shape[0]
    cell_of_row = np.repeat(np.arange(L * L), counts.ravel())  # one entry per row
    rng = np.random.default_rng(seed)
    out = np.empty((replicates, L * L), dtype=np.int64)
    for start in range(0, replicates, 500):
        stop = min(start + 500, replicates)
        rows = rng.integers(0, cell_of_row.size, size=(stop - start, cell_of_row.size))
        cells = cell_of_row[rows] + (L * L) * np.arange(stop - start)[:, None]
        out[start:stop] = np.bincount(cells.ravel(), minlength=(stop - start) * L * L).reshape(
            stop - start, L * L
        )
    return out.reshape(replicates, L, L).astype(float)


def _accuracy(c: np.ndarray) -> np.ndarray:
    return np.trace(c, axis1=1, axis2=2) / c.sum(axis=(1, 2))


def _informedness(c: np.ndarray) -> np.ndarray:
    """Powers' multiclass informedness, written out: sum_l pP(l) (tpr_l - fpr_l)."""
    n = c.sum(axis=(1, 2))
    total = np.zeros(c.shape[0])
    for label in range(c.shape[1]):
        tp = c[:, label, label]
        predicted = c[:, label, :].sum(axis=1)
        real = c[:, :, label].sum(axis=1)
        b = tp / real - (predicted - tp) / (n - real)
        total += predicted / n * b
    return total


def _kappa(c: np.ndarray) -> np.ndarray:
    n = c.sum(axis=(1, 2))
    po = np.trace(c, axis1=1, axis2=2) / n
    pe = (c.sum(axis=2) * c.sum(axis=1)).sum(axis=1) / n**2
    return (po - pe) / (1 - pe)


@pytest.mark.parametrize(
    ("name", "function"),
    [("accuracy", _accuracy), ("informedness", _informedness), ("kappa", _kappa)],
)
def test_multinomial_and_row_bootstrap_have_the_same_quantiles(name: str, function) -> None:  # type: ignore[no-untyped-def]
    """Quantiles 2.5, 25, 50, 75 and 97.5 % of the two bootstraps agree within Monte Carlo error.

    Each side has B = 4000 independent replicates. The standard error of a sample q-quantile
    is sqrt(q (1 - q) / B) / f(x_q); for a near-normal statistic with standard deviation s,
    f(x_q) = phi(z_q) / s. The difference of two independent quantiles has sqrt(2) times
    that; we allow 4 of those standard errors plus one lattice step 1/N (the statistics
    take discrete values). A two-sample Kolmogorov-Smirnov test must not reject at 0.001,
    and the standard deviations agree within Monte Carlo error.
    """
    table = Table.from_counts(COUNTS, rows="predicted")
    ours = bootstrap(table, [name], replicates=B, seed=11).distribution[name]
    rows = function(_row_bootstrap(COUNTS, B, seed=12))
    spread = np.std(np.concatenate([ours, rows]), ddof=1)
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        z = stats.norm.ppf(q)
        se = np.sqrt(2.0) * np.sqrt(q * (1 - q) / B) * spread / stats.norm.pdf(z)
        assert abs(np.quantile(ours, q) - np.quantile(rows, q)) < 4 * se + 1.0 / N, q
    assert stats.ks_2samp(ours, rows).pvalue > 1e-3
    # spread: the relative standard error of a sample SD is about 1 / sqrt(2 B), so the
    # ratio of two independent ones has about 1 / sqrt(B); allow 4 of those
    assert abs(np.std(ours, ddof=1) / np.std(rows, ddof=1) - 1.0) < 4.0 / np.sqrt(B)
    # and both centre on the measure of the table
    assert abs(ours.mean() - rows.mean()) < 4 * np.sqrt(2.0 / B) * spread
