"""Multi-label input by slice: one Tally per slice, every category's 2x2 table counted in
one pass.

With A and C the documents x categories indicator matrices of the assigned and the
correct categories, and G the slices x documents matrix of each document's slice, the
per-slice sums are three sparse products: a = G (A * C), |A| = G A, |C| = G C, from which
every slice's and category's b = |A| - a, c = |C| - a, d = n_s - a - b - c follow (as
`Tally.add_results` sums them for one set of documents).

>>> found = slice_tallies(["x", "y", "x"], [[1, 0], [1, 1], [0, 1]], [[1, 0], [0, 1], [1, 1]],
...                       categories=["sport", "news"])
>>> found[("x",)].counts.tolist()
[[[1, 0], [1, 0]], [[1, 0], [0, 1]]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse

from informed.errors import InputError
from informed.slices.keys import Key, code_keys, column_names
from informed.tally import Tally
from informed.tally.indicators import as_indicator, canonical_indicator

__all__ = ["slice_tallies"]


def slice_tallies(
    by: Any,
    assigned: Any,
    correct: Any,
    *,
    categories: Sequence[str],
    names: Sequence[str] | None = None,
) -> dict[Key, Tally]:
    """The Tally of every slice of the documents (rows of the indicator matrices), keyed
    by slice in canonical order; each equals `Tally(categories).add_results(...)` of its
    documents. `by` is one column or a list of columns (crossed), as in `Slices`."""
    crossed = isinstance(by, list | tuple) and len(by) > 0 and hasattr(by[0], "__len__")
    crossed = crossed and not isinstance(by[0], str)
    columns = list(by) if crossed else [by]
    coded = code_keys(columns, column_names(names, len(columns)))
    matrices = []
    for given, name in ((assigned, "assigned"), (correct, "correct")):
        found = as_indicator(given, name)
        matrix = found if scipy.sparse.issparse(found) else scipy.sparse.csr_array(found)
        matrices.append(canonical_indicator(matrix, name).astype(np.int64))
    a_matrix, c_matrix = matrices
    n = coded.codes.shape[0]
    if a_matrix.shape != c_matrix.shape or a_matrix.shape[0] != n:
        msg = (
            f"`assigned` {a_matrix.shape}, `correct` {c_matrix.shape} and `by` ({n} rows) "
            "must describe the same documents."
        )
        raise InputError(msg)
    if a_matrix.shape[1] != len(categories):
        msg = f"the matrices have {a_matrix.shape[1]} columns for {len(categories)} categories."
        raise InputError(msg)
    S = len(coded.keys)
    slices = scipy.sparse.csr_array(
        (np.ones(n, dtype=np.int64), (coded.codes, np.arange(n))), shape=(S, n)
    )
    both = np.asarray((slices @ a_matrix.multiply(c_matrix)).toarray(), dtype=np.int64)
    given_a = np.asarray((slices @ a_matrix).toarray(), dtype=np.int64)
    given_c = np.asarray((slices @ c_matrix).toarray(), dtype=np.int64)
    documents = np.bincount(coded.codes, minlength=S).astype(np.int64)[:, None]
    b, c = given_a - both, given_c - both
    d = documents - both - b - c
    counts = np.stack([np.stack([both, b], -1), np.stack([c, d], -1)], -2)  # [S, m, 2, 2]
    return {
        key: Tally.from_counts(list(categories), counts[s].tolist())
        for s, key in enumerate(coded.keys)
    }
