"""A file's Ranking by hashing each batch's scores (issue 19, item 9): exactly the
Ranking that one sort of all rows gives, whichever route each batch takes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Ranking
from informed.io import read_summaries
from informed.io.summaries import hashed_groups
from informed.ranking.grouping import group_rows

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

POOL = [0.0, -0.0, 1.0, 0.5, 0.25, 1e-300, -1e300, 5e-324, 0.1 + 0.2, 0.3, -2.5]


@settings(max_examples=300, deadline=None)
@given(
    picks=st.lists(st.tuples(st.integers(0, len(POOL) - 1), st.booleans()), max_size=200),
)
def test_hashing_a_batch_gives_the_sorted_groups(picks: list[tuple[int, bool]]) -> None:
    """Distinct scores descending (-0.0 is 0.0, 0.1 + 0.2 is not 0.3), positives and
    negatives: the hash route and the sort agree exactly, or the hash route declines."""
    scores = np.array([POOL[i] for i, _ in picks], dtype=np.float64)
    is_positive = np.array([p for _, p in picks], dtype=bool)
    found = hashed_groups(scores, is_positive)
    expected = group_rows(scores, is_positive, None)
    if found is None:
        assert len(expected[0]) * 2 > len(scores)
        return
    for got, want in zip(found, expected, strict=True):
        assert got.tolist() == want.tolist() and got.dtype == want.dtype
    assert [str(x) for x in found[0]] == [str(x) for x in expected[0]]  # no -0.0


def test_a_file_of_repeated_then_distinct_scores(tmp_path: Path) -> None:
    """Batches of few scores are hashed, then distinct ones are sorted: the merged
    Ranking equals the in-memory one."""
    rng = np.random.default_rng(3)
    repeated = np.round(rng.random(3000), 1)
    distinct = rng.random(3000)
    scores = np.concatenate([repeated, distinct, repeated])
    actual = rng.choice(["yes", "no"], scores.size)
    path = tmp_path / "s.parquet"
    pq.write_table(pa.table({"y": actual, "s": scores}), path)
    found = read_summaries(path, actual="y", scores="s", positive="yes", batch_rows=500)
    expected = Ranking.from_scores(actual == "yes", scores, positive=True).with_classes("yes")
    assert found.ranking == expected
    assert found.ranking.n_groups == 3011
