"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from informed import Table


def counts_matrix(k: int, c: int | None = None, max_count: int = 1000):  # type: ignore[no-untyped-def]
    """Integer count matrices of shape (k, c)."""
    return hnp.arrays(np.int64, (k, c if c is not None else k), elements=st.integers(0, max_count))


@st.composite
def tables(draw, min_labels: int = 2, max_labels: int = 5, max_count: int = 1000):  # type: ignore[no-untyped-def]
    """Square integer tables over labels 0..L-1 (rows predicted)."""
    size = draw(st.integers(min_labels, max_labels))
    counts = draw(counts_matrix(size, size, max_count))
    return Table.from_counts(counts, rows="predicted")


@st.composite
def binary_tables(draw, max_count: int = 10**6, positive_margins: bool = False):  # type: ignore[no-untyped-def]
    """2x2 integer tables; with positive_margins every margin is non-zero."""
    low = 1 if positive_margins else 0
    tp, tn = draw(st.integers(low, max_count)), draw(st.integers(low, max_count))
    fp, fn = draw(st.integers(0, max_count)), draw(st.integers(0, max_count))
    return Table.binary(tp=tp, fp=fp, fn=fn, tn=tn)
