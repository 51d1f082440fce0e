"""Multi-label input by slice: every slice's Tally equals Tally.add_results of its own
documents (dense and sparse indicators, crossed keys, missing keys)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

from informed.errors import InputError
from informed.slices.tallies import slice_tallies
from informed.tally import Tally


@pytest.mark.parametrize("sparse", [False, True])
def test_every_slice_tally_equals_add_results_of_its_documents(sparse: bool) -> None:
    rng = np.random.default_rng(0)
    n, m = 300, 5
    assigned = (rng.random((n, m)) < 0.3).astype(int)
    correct = np.where(rng.random((n, m)) < 0.8, assigned, 1 - assigned)
    group = rng.choice(["a", "b", "c"], n).astype(object)
    group[:7] = None
    device = rng.choice(["web", "app"], n)
    categories = [f"c{j}" for j in range(m)]
    given = (
        (scipy.sparse.csr_array(assigned), scipy.sparse.csr_array(correct))
        if sparse
        else (assigned, correct)
    )
    found = slice_tallies([group, device], *given, categories=categories, names=["g", "d"])
    assert (None, "app") in found or (None, "web") in found
    for key, tally in found.items():
        rows = np.array([(g, d) == key for g, d in zip(group, device, strict=True)])
        expected = Tally(categories)
        expected.add_results(assigned[rows], correct[rows])
        assert tally == expected, key
        assert tally.micro("f_measure") == expected.micro("f_measure")


def test_bad_indicators_are_refused() -> None:
    with pytest.raises(InputError, match="indicator matrices hold only 0 and 1"):
        slice_tallies(["a"], [[2]], [[1]], categories=["x"])
    with pytest.raises(InputError, match="same documents"):
        slice_tallies(["a", "b"], [[1]], [[1]], categories=["x"])
