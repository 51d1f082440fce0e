"""The harmonic differences behind the average hit rate (Arbel & Rokach 2006, eq. 12),
checked against exact rational sums and against scipy's digamma for fractional ends."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy.special import digamma

from informed.ranking.sums import harmonic


@pytest.mark.parametrize("start", [0, 1, 2, 10, 61, 62, 63, 64, 100, 5000])
@pytest.mark.parametrize("count", [1, 2, 7, 62, 63, 64, 65, 300, 4000])
def test_integer_ends_match_exact_sums(start: int, count: int) -> None:
    exact = sum(Fraction(1, start + k) for k in range(1, count + 1))
    value = harmonic(np.array([float(start)]), np.array([float(count)]))[0]
    assert abs(Fraction(value) - exact) / exact < 2e-15  # scipy's digamma difference: 1e-13


def test_fractional_ends_match_digamma() -> None:
    rng = np.random.default_rng(7)
    start = rng.uniform(0.0, 130.0, 2000)
    count = rng.uniform(0.0, 3000.0, 2000)
    reference = digamma(start + count + 1.0) - digamma(start + 1.0)
    np.testing.assert_allclose(harmonic(start, count), reference, rtol=1e-12)


def test_an_empty_group_sums_to_zero() -> None:
    assert harmonic(np.array([0.0, 70.0]), np.array([0.0, 0.0])).tolist() == [0.0, 0.0]
