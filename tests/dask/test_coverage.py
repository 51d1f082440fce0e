"""Nothing lost, nothing counted twice: a partition covered twice is refused wherever
summaries merge (on the cluster, in Python, from JSON files), and a partition lost on the
way is named by the check that the rows counted are the rows read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import informed.dask as idk
import informed.engines.dask.summaries as dask_summaries
from informed import InputError, Table
from informed.io import Summaries, check_complete, merge_files, summarise_frame


def _frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "y": rng.choice(["a", "b"], n),
            "p": rng.choice(["a", "b"], n),
            "s": np.round(rng.random(n), 2),
        }
    )


def _part(frame: pd.DataFrame, part: str) -> Summaries:
    return summarise_frame(frame, part=part, actual="y", predicted="p", score="s", positive="a")


def test_summaries_covering_one_partition_do_not_merge() -> None:
    frame = _frame()
    first, second = _part(frame[:100], "day 1"), _part(frame[100:], "day 2")
    both = first + second
    assert both.table == Table.from_frame(frame, actual="y", predicted="p")
    with pytest.raises(InputError, match="both summaries cover the partition 'day 2'"):
        both + second  # a retried task delivering its result again
    with pytest.raises(InputError, match="counted twice"):
        first + _part(frame[:100], "day 1")


def test_a_duplicated_partition_is_refused_on_the_cluster(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tree merges on the workers refuse a partition's summaries given twice."""
    original = dask_summaries._leaves

    def twice(*args: Any) -> Any:
        leaves, rows, ids = original(*args)
        return [*leaves, leaves[1]], [*rows, rows[1]], [*ids, ids[1]]

    monkeypatch.setattr(dask_summaries, "_leaves", twice)
    ddf = dd.from_pandas(_frame(), npartitions=4)
    with pytest.raises(InputError, match="both summaries cover the partition"):
        idk.table(ddf, actual="y", predicted="p", scheduler=client)


def test_a_dropped_partition_is_reported_by_the_row_count(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partition's summaries lost between the leaves and the root: the rows read (each
    partition's length, counted by a task of its own) no longer match the rows counted."""
    original = dask_summaries._tree
    monkeypatch.setattr(
        dask_summaries, "_tree", lambda dask, leaves, k: original(dask, leaves[1:], k)
    )
    frame = _frame()
    ddf = dd.from_pandas(frame, npartitions=4)
    first = len(ddf.partitions[0].compute())
    expected = (
        f"counted {len(frame) - first:,} rows but {len(frame):,} were read: the partition "
        f"'sales/0' \\({first:,} rows\\) was not counted"
    )
    with pytest.raises(InputError, match=expected):
        idk.summarise(ddf, actual="y", predicted="p", name="sales", scheduler=client)


def test_the_row_check_names_what_is_missing_extra_or_lost() -> None:
    frame = _frame()
    found = _part(frame[:150], "p0") + _part(frame[150:], "p1")
    check_complete(found, {"p0": 150, "p1": 250})  # complete: no error
    with pytest.raises(InputError, match="'p2' \\(5 rows\\) was not counted"):
        check_complete(found, {"p0": 150, "p1": 250, "p2": 5})
    with pytest.raises(InputError, match="'p1' was counted but never read"):
        check_complete(found, {"p0": 150})
    with pytest.raises(InputError, match="counted 400 rows but 401 were read"):
        check_complete(found, {"p0": 151, "p1": 250})
    lost = Summaries(
        rows=found.rows + 1,
        table=found.table,
        ranking=found.ranking,
        labels=found.labels,
        weighted_rows=found.weighted_rows,
        parts=found.parts,
    )
    with pytest.raises(InputError, match="the Table counts 400 rows but 401 were read"):
        check_complete(lost, {"p0": 150, "p1": 251})


def test_summaries_survive_json_and_refuse_edits() -> None:
    found = _part(_frame(), "p0")
    assert Summaries.from_json(found.to_json()) == found
    document = json.loads(found.to_json())
    assert document["rows_read"] == 400 and document["partitions"] == ["p0"]
    assert document["table"]["rows"] == "predicted"  # the Table's own document, unchanged
    edited = dict(document, rows_read=399, weighted_rows=399)
    with pytest.raises(InputError, match="the Table counts 400 rows but 399 were read"):
        Summaries.from_dict(edited)
    with pytest.raises(InputError, match="missing \\['partitions'\\]"):
        Summaries.from_dict({k: v for k, v in document.items() if k != "partitions"})
    with pytest.raises(InputError, match="each partition once"):
        Summaries.from_dict(dict(document, partitions=["p0", "p0"]))
    with pytest.raises(InputError, match="not a Summaries JSON document"):
        Summaries.from_json("{")


def test_merge_files_refuses_overlap_and_a_mix(tmp_path: Path) -> None:
    frame = _frame()
    paths = []
    for name, part in (("a", frame[:200]), ("b", frame[200:])):
        path = tmp_path / f"{name}.json"
        path.write_text(_part(part, name).to_json())
        paths.append(path)
    merged = merge_files(paths)
    assert merged == _part(frame[:200], "a") + _part(frame[200:], "b")
    with pytest.raises(InputError, match="both cover the partition 'a'"):
        merge_files([paths[0], paths[1], paths[0]])
    bare = tmp_path / "table.json"
    bare.write_text(Table.from_frame(frame, actual="y", predicted="p").to_json())
    with pytest.raises(InputError, match="cannot merge a mix"):
        merge_files([paths[0], bare])


def test_bare_summary_json_without_coverage_still_merges(tmp_path: Path) -> None:
    """Table JSON written before summaries recorded coverage merges as before (sums only)."""
    frame = _frame()
    halves = [frame[:123], frame[123:]]
    paths = []
    for i, half in enumerate(halves):
        path = tmp_path / f"t{i}.json"
        path.write_text(Table.from_frame(half, actual="y", predicted="p").to_json())
        paths.append(path)
    assert merge_files(paths) == Table.from_frame(frame, actual="y", predicted="p")
