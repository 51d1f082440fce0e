"""On a cluster, the Ranking `informed.dask.rank` returns, and the Slices
`informed.dask.slices` returns, are the in-memory ones: the same counts and the same classes
(issue 27, item 9). `rank` carried `negative=None` where `Ranking.from_scores` of the same
rows names the other class, so `==` was False though every count agreed; a slice's label
seen only with weight 0 was dropped. Partitions here lack a class, or hold a label only
with weight 0, so that no partition alone can name what the whole names."""

from __future__ import annotations

from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import informed.dask as idk
from informed import Ranking, Table
from informed.slices import Slices


def _frame(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    actual = (rng.random(n) < 0.3).astype(np.int64)
    actual[: n // 5] = 1  # the first partition holds no negative
    return pd.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "y": actual,
            "p": np.where(rng.random(n) < 0.8, actual, 1 - actual),
            "s": np.round(rng.random(n) + 0.4 * actual, 2),
            "w": rng.integers(0, 3, n).astype(float),
        }
    )


@pytest.mark.parametrize("weights", [None, "w"])
def test_rank_is_the_ranking_of_all_the_rows(client: Any, weights: str | None) -> None:
    """40,000 rows in 5 partitions: equal to Ranking.from_scores, `negative` included."""
    frame = _frame(40_000, 0)
    found = idk.rank(
        dd.from_pandas(frame, npartitions=5, sort=False),
        actual="y",
        scores="s",
        positive=1,
        weights=weights,
        scheduler=client,
    )
    expected = Ranking.from_scores(
        frame.y.to_numpy(),
        frame.s.to_numpy(),
        positive=1,
        weights=None if weights is None else frame.w.to_numpy(),
    )
    assert expected.negative == 0
    assert found == expected


def test_rank_of_three_classes_ranks_the_positive_against_all_the_others(client: Any) -> None:
    """Each partition holds two classes, a different other one each: no negative."""
    frame = pd.DataFrame({"y": ["x", "o", "x", "z"] * 50, "s": np.arange(200) % 7 / 7})
    frame = frame.sort_values("y", kind="stable", ignore_index=True)  # o..., x..., z...
    found = idk.rank(
        dd.from_pandas(frame, npartitions=2, sort=False),
        actual="y",
        scores="s",
        positive="x",
        scheduler=client,
    )
    rest = Ranking.from_scores(frame.y == "x", frame.s, positive=True, negative=False)
    assert (found.positive, found.negative) == ("x", None)
    assert found.positives.tolist() == rest.positives.tolist()
    assert found.negatives.tolist() == rest.negatives.tolist()


def test_slices_on_a_cluster_are_each_slices_summaries(client: Any) -> None:
    """Dask's Slices equal the in-memory ones; each slice's Table and Ranking are those of
    its rows, a label whose rows all weigh 0 kept."""
    frame = _frame(3000, 1)
    frame.loc[10, ["g", "p", "w"]] = ["a", 7, 0.0]  # "7" is predicted once, weighing 0
    options = {"by": "g", "actual": "y", "predicted": "p", "scores": "s", "positive": 1}
    found = idk.slices(
        dd.from_pandas(frame, npartitions=4, sort=False),
        **options,
        weights="w",
        scheduler=client,
    )
    assert found == Slices.from_frame(frame, **options, weights="w")
    for key in ("a", "b", "c"):
        rows = frame[frame.g == key]
        assert found.table(key) == Table.from_labels(rows.y, rows.p, weights=rows.w)
        assert found.ranking(key) == Ranking.from_scores(
            rows.y.to_numpy(), rows.s.to_numpy(), positive=1, negative=0, weights=rows.w
        )
    assert 7 in found.table("a").predicted
    scores_only = idk.slices(
        dd.from_pandas(frame, npartitions=4, sort=False),
        by="g",
        actual="y",
        scores="s",
        positive=1,
        scheduler=client,
    )
    assert scores_only.overall_ranking == Ranking.from_scores(frame.y, frame.s, positive=1)
