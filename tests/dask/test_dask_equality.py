"""On a cluster of two worker processes, the summaries of a Dask DataFrame equal the
in-memory summaries of all its rows, bit for bit, however the rows are partitioned:
random cuts (empty partitions among them), one label per partition, string, integer and
categorical labels, weights. The Table is also counted by brute force here, and the
Ranking grouped by pandas, so the oracle is not only informed's in-memory route."""

from __future__ import annotations

import itertools
import os
from collections import Counter
from typing import Any

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import informed.dask as idk
from informed import InputTypeError, Ranking, Table, Tally

SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SCORES = [0.0, -0.0, 0.25, 0.5, 0.5000000000000001, 1.0, -3.5, 1e300, 7.0]


def partitioned(frame: pd.DataFrame, cuts: list[int]) -> Any:
    """A Dask DataFrame whose partitions are frame[0:c1], frame[c1:c2], ... (cuts sorted,
    repeated cuts give empty partitions)."""
    bounds = [0, *sorted(cuts), len(frame)]
    parts = [dask.delayed(frame.iloc[a:b].copy()) for a, b in itertools.pairwise(bounds)]
    return dd.from_delayed(parts, meta=frame.iloc[:0], verify_meta=False)


def brute_table(actual: list[Any], predicted: list[Any]) -> dict[tuple[Any, Any], int]:
    return dict(Counter(zip(predicted, actual, strict=True)))


def cells(table: Table) -> dict[tuple[Any, Any], int]:
    return {
        (p, a): table.count(p, a)
        for p in table.predicted
        for a in table.actual
        if table.count(p, a)
    }


@st.composite
def frames(draw: Any) -> tuple[pd.DataFrame, list[int]]:
    n = draw(st.integers(0, 120))
    kind = draw(st.sampled_from(["str", "int", "category"]))
    alphabet: list[Any] = ["ant", "bee", "cat"] if kind != "int" else [3, -1, 10]
    actual = draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n))
    predicted = draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n))
    scores = draw(st.lists(st.sampled_from(SCORES), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    frame = pd.DataFrame(
        {"y": actual, "p": predicted, "s": scores, "w": np.array(weights, dtype=float)}
    )
    if kind == "int":
        frame = frame.astype({"y": np.int64, "p": np.int64})
    if kind == "category":
        frame = frame.astype({"y": "category", "p": "category"})
    cuts = draw(st.lists(st.integers(0, n), max_size=6))
    return frame, cuts


def test_the_cluster_runs_two_worker_processes(client: Any) -> None:
    pids = client.run(os.getpid)
    assert len(pids) == 2 and len(set(pids.values())) == 2
    assert os.getpid() not in pids.values()


@SETTINGS
@given(data=frames())
def test_random_partitions_give_the_in_memory_table(client: Any, data: Any) -> None:
    frame, cuts = data
    ddf = partitioned(frame, cuts)
    found = idk.summarise(ddf, actual="y", predicted="p", scheduler=client)
    expected = Table.from_frame(frame, actual="y", predicted="p")
    assert found.table == expected
    assert cells(found.table) == brute_table(frame.y.tolist(), frame.p.tolist())
    assert found.rows == len(frame) and len(found.parts) == len(cuts) + 1
    weighted = idk.table(ddf, actual="y", predicted="p", weight="w", scheduler=client)
    assert weighted == Table.from_frame(frame, actual="y", predicted="p", weights="w")


@SETTINGS
@given(data=frames(), which=st.integers(0, 2))
def test_random_partitions_give_the_in_memory_ranking(client: Any, data: Any, which: int) -> None:
    frame, cuts = data
    labels = sorted(set(frame.y.tolist()), key=str)
    if not labels:
        return
    positive = labels[which % len(labels)]
    ddf = partitioned(frame, cuts)
    is_positive = (frame.y == positive).to_numpy()
    for weight in (None, "w"):
        found = idk.rank(
            ddf, actual="y", score="s", positive=positive, weight=weight, scheduler=client
        )
        weights = None if weight is None else frame.w.to_numpy()
        if len(labels) <= 2:  # Ranking.from_scores of the rows, their other class named
            expected = Ranking.from_scores(
                np.asarray(frame.y.tolist(), dtype=object), frame.s.to_numpy(),
                positive=positive, weights=weights,
            )  # fmt: skip
        else:  # from_scores refuses a third class: the positive against all the others
            expected = Ranking.from_scores(
                actual=is_positive, scores=frame.s.to_numpy(), positive=True,
                negative=False, weights=weights,
            ).with_classes(positive)  # fmt: skip
        assert found == expected
    # pandas groups the rows by score: the oracle for the unweighted counts
    grouped = (
        pd.DataFrame({"s": frame.s + 0.0, "pos": is_positive})
        .groupby("s")["pos"]
        .agg(["sum", "count"])
        .sort_index(ascending=False)
    )
    found = idk.rank(ddf, actual="y", score="s", positive=positive, scheduler=client)
    assert found.scores.tolist() == grouped.index.tolist()
    assert found.positives.tolist() == grouped["sum"].tolist()
    assert found.negatives.tolist() == (grouped["count"] - grouped["sum"]).tolist()


def test_one_label_per_partition(client: Any) -> None:
    rng = np.random.default_rng(3)
    n = 3000
    frame = pd.DataFrame(
        {
            "y": rng.choice(["north", "south", "east", "west"], n),
            "p": rng.choice(["north", "south", "east", "west"], n),
            "s": np.round(rng.random(n), 3),
        }
    ).sort_values("y", kind="stable", ignore_index=True)
    cuts = np.flatnonzero(frame.y.to_numpy()[1:] != frame.y.to_numpy()[:-1]) + 1
    ddf = partitioned(frame, cuts.tolist())
    assert ddf.npartitions == 4
    found = idk.summarise(
        ddf, actual="y", predicted="p", score="s", positive="south", scheduler=client
    )
    assert found.table == Table.from_frame(frame, actual="y", predicted="p")
    assert found.ranking == Ranking.from_scores(
        actual=frame.y == "south", scores=frame.s, positive=True, negative=False
    ).with_classes("south")
    assert found.labels == ("east", "north", "south", "west")


def test_categorical_and_string_labels_give_one_table(client: Any) -> None:
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"y": rng.choice(["a", "b", "c"], 500), "p": rng.choice(["a", "b"], 500)})
    as_strings = idk.table(
        dd.from_pandas(frame, npartitions=5), actual="y", predicted="p", scheduler=client
    )
    categories = frame.astype({"y": pd.CategoricalDtype(["z", "c", "b", "a"]), "p": "category"})
    as_categories = idk.table(
        dd.from_pandas(categories, npartitions=3), actual="y", predicted="p", scheduler=client
    )
    assert as_strings == as_categories == Table.from_frame(frame, actual="y", predicted="p")
    assert "z" not in as_categories.labels  # an unused category is no label


def test_evaluate_gives_the_measures_of_the_table(client: Any) -> None:
    frame = pd.DataFrame({"y": ["a", "b", "a", "b", "a"], "p": ["a", "b", "b", "b", "a"]})
    found = idk.evaluate(
        dd.from_pandas(frame, npartitions=2),
        actual="y",
        predicted="p",
        positive="a",
        scheduler=client,
    )
    assert found.measures["informedness"] == pytest.approx(2 / 3 + 2 / 2 - 1)


LISTS = pd.ArrowDtype(pa.list_(pa.string()))


@st.composite
def documents(draw: Any) -> tuple[pd.DataFrame, list[int]]:
    categories = ["x", "y", "z"]
    n = draw(st.integers(0, 60))
    subsets = st.lists(st.sampled_from(categories), max_size=3)
    assigned = draw(st.lists(subsets, min_size=n, max_size=n))
    correct = draw(st.lists(subsets, min_size=n, max_size=n))
    cuts = draw(st.lists(st.integers(0, n), max_size=5))
    frame = pd.DataFrame(
        {"assigned": pd.Series(assigned, dtype=LISTS), "correct": pd.Series(correct, dtype=LISTS)}
    )
    return frame, cuts


@SETTINGS
@given(data=documents())
def test_random_partitions_give_the_tally_of_every_document(client: Any, data: Any) -> None:
    frame, cuts = data
    expected = Tally(["x", "y", "z"])
    for assigned, correct in zip(frame.assigned, frame.correct, strict=True):
        expected.add_result(assigned, correct)
    found = idk.tally(partitioned(frame, cuts), categories=["x", "y", "z"], scheduler=client)
    assert found == expected
    assert found.documents == len(frame)


def test_object_columns_of_lists_tally_with_dask_string_conversion_off(client: Any) -> None:
    frame = pd.DataFrame({"assigned": [["x"], [], ["x", "y"]], "correct": [["x"], ["y"], ["y"]]})
    expected = Tally(["x", "y"])
    for assigned, correct in zip(frame.assigned, frame.correct, strict=True):
        expected.add_result(assigned, correct)
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(frame, npartitions=2)
    assert idk.tally(ddf, categories=["x", "y"], scheduler=client) == expected


def test_lists_dask_turned_into_text_are_refused() -> None:
    """dask's default string conversion writes a list as "['x', 'y']"; read as a category
    name it would be an unknown category, or silently ignored under unknown="ignore"."""
    frame = pd.DataFrame({"assigned": [["x"], ["x", "y"]], "correct": [["x"], ["y"]]})
    with dask.config.set({"dataframe.convert-string": True}):
        ddf = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(InputTypeError, match="holds text"):
        idk.tally(ddf, categories=["x", "y"], unknown="ignore", scheduler="synchronous")


def test_a_label_whose_rows_weigh_zero_is_kept_on_the_cluster(client: Any) -> None:
    """'eel' only in rows of weight 0, one partition of its own: still a label of the
    Table (zero weight), as it is in memory; the labels are the data's, not its weights'."""
    frame = pd.DataFrame(
        {
            "y": ["ant", "bee", "eel", "eel", "ant"],
            "p": ["ant", "ant", "eel", "bee", "ant"],
            "w": [1.0, 2.0, 0.0, 0.0, 0.5],
        }
    )
    found = idk.table(
        partitioned(frame, [2, 4]), actual="y", predicted="p", weight="w", scheduler=client
    )
    assert found.actual == ("ant", "bee", "eel") and found.predicted == ("ant", "bee", "eel")
    assert found.count("eel", "eel") == 0.0 and found.count("ant", "ant") == 1.5
    assert found == Table.from_frame(frame, actual="y", predicted="p", weights="w")
