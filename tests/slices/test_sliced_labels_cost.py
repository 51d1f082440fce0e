"""The labels' sliced route cut without changing a number (issue 27, item 24, labels in
100 slices): a batch of tables' margins added a cell at a time, in the order a bincount
adds them, and a Parquet slice column counted by its dictionary codes, the counts then
put in the slices' canonical order."""

from __future__ import annotations

import numpy as np
import pytest

from informed.measures.cells import scatter

ADVERSARIAL = np.array([0.1, 1e-17, 1e17, 3.3, -0.0, 0.0, -1e17, 2.5e-300, 7.0, np.nan])


def _in_order(values: np.ndarray, index: np.ndarray, size: int) -> np.ndarray:
    """The oracle: each output a Python float from 0.0, the values added one by one in
    the order of their cells."""
    batch = values.shape[:-1]
    out = np.zeros((*batch, size))
    for at in np.ndindex(*batch):
        sums = [0.0] * size
        for i, k in enumerate(index.tolist()):
            sums[k] = sums[k] + float(values[(*at, i)])
        out[at] = sums
    return out


@pytest.mark.parametrize("cells", [1, 2, 4, 7, 16, 17])
def test_scatter_adds_a_batch_in_the_order_of_its_cells(cells: int) -> None:
    rng = np.random.default_rng(21)
    values = rng.choice(ADVERSARIAL, (6, 5, cells))
    values[0] = -0.0  # a table of negative zeros sums to +0.0
    index = rng.integers(0, 3, cells).astype(np.intp)
    found = scatter(values, index, 3)
    expected = _in_order(values, index, 3)
    assert found.shape == expected.shape
    # bit for bit: the same bytes (nan where a nan was added, +0.0 never -0.0)
    assert found.tobytes() == expected.tobytes()
    assert scatter(values[:0], index, 3).shape == (0, 5, 3)  # an empty batch
