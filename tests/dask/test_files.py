"""Files, one machine or a cluster: a glob of Parquet and CSV files read one batch at a
time gives the summaries of all their rows; the cluster reads one file per task and gives
the same; JSON-lines tallies merge the same way; and the command line says how many rows
it read and counted (`informed evaluate 'data/*.parquet' [--dask ...]`, `informed merge`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import informed.dask as idk
from informed import InputError, Ranking, Table, Tally
from informed.cli.main import main
from informed.io import Summaries, expand_paths, read_jsonl, read_summaries

SIZES = [0, 700, 1, 2500, 300]  # an empty file among them


@pytest.fixture
def data(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    """Five files (four Parquet, one CSV; one holds no rows) and all their rows."""
    rng = np.random.default_rng(7)
    frames = []
    for i, n in enumerate(SIZES):
        frame = pd.DataFrame(
            {
                "y": rng.choice(["spam", "ham", "eggs"], n),
                "p": rng.choice(["spam", "ham"], n),
                "s": np.round(rng.random(n), 3),
                "w": rng.integers(0, 3, n).astype(float),
            }
        )
        frames.append(frame)
        if i == 3:
            frame.to_csv(tmp_path / f"part-{i}.csv", index=False)
        else:
            pq.write_table(pa.table(frame), tmp_path / f"part-{i}.parquet", row_group_size=256)
    return tmp_path, pd.concat(frames, ignore_index=True)


def _expected(frame: pd.DataFrame, weights: bool = False) -> tuple[Table, Ranking]:
    table = Table.from_frame(frame, actual="y", predicted="p", weights="w" if weights else None)
    ranking = Ranking.from_scores(
        actual=frame.y == "spam",
        scores=frame.s,
        positive=True,
        negative=False,
        weights=frame.w if weights else None,
    ).with_classes("spam")  # spam against all the other classes
    return table, ranking


def test_a_glob_is_read_file_by_file_into_the_summaries_of_all_rows(data: Any) -> None:
    folder, frame = data
    pattern = str(folder / "part-*")
    for weight in (None, "w"):
        found = read_summaries(
            pattern,
            actual="y",
            predicted="p",
            score="s",
            weight=weight,
            positive="spam",
            batch_rows=128,
        )
        assert (found.table, found.ranking) == _expected(frame, weight is not None)
        assert found.rows == len(frame) == sum(SIZES)
        assert found.parts == {str(p.resolve()) for p in folder.glob("part-*")}
    listed = read_summaries(sorted(folder.glob("part-*"))[::-1], actual="y", predicted="p")
    assert listed.table == _expected(frame)[0]


def test_inputs_naming_no_file_or_a_file_twice_are_refused(data: Any) -> None:
    folder, _ = data
    with pytest.raises(InputError, match="no file matches"):
        expand_paths(str(folder / "*.feather"))
    with pytest.raises(InputError, match="named twice"):
        read_summaries(
            [folder / "part-1.parquet", folder / "part-1.parquet"], actual="y", predicted="p"
        )
    with pytest.raises(InputError, match=r"part-0\.\* has a header but no data rows"):
        read_summaries(str(folder / "part-0.*"), actual="y", predicted="p")
    with pytest.raises(InputError, match="'bacon' is not a label in"):
        read_summaries(str(folder / "part-*"), actual="y", score="s", positive="bacon")


def test_the_cluster_reads_one_file_per_task_into_the_same_summaries(
    client: Any, data: Any
) -> None:
    folder, frame = data
    pattern = str(folder / "part-*")
    found = idk.summarise(
        pattern,
        actual="y",
        predicted="p",
        score="s",
        weight="w",
        positive="spam",
        split_every=2,
        scheduler=client,
    )
    one_process = read_summaries(
        pattern, actual="y", predicted="p", score="s", weight="w", positive="spam"
    )
    assert found == one_process
    assert (found.table, found.ranking) == _expected(frame, weights=True)
    bad = folder / "part-2.parquet"
    pq.write_table(pa.table({"y": ["a"], "p": ["a"], "s": [float("nan")]}), bad)
    with pytest.raises(InputError, match=r"part-2\.parquet data row 1, column 's': nan is not"):
        idk.rank(pattern, actual="y", score="s", positive="a", scheduler=client)


def test_json_lines_tallies_on_the_cluster(client: Any, tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    lines = []
    for _ in range(300):
        assigned = sorted(set(rng.choice(["x", "y", "z"], rng.integers(0, 3)).tolist()))
        correct = sorted(set(rng.choice(["x", "y", "z"], rng.integers(0, 3)).tolist()))
        lines.append(json.dumps({"assigned": assigned, "correct": correct}))
    for i in range(3):
        chunk = lines[i * 100 : (i + 1) * 100]
        (tmp_path / f"docs-{i}.jsonl").write_text("\n".join(chunk) + "\n")
    expected = read_jsonl(lines, categories=["x", "y", "z"])
    found = idk.tally(str(tmp_path / "docs-*.jsonl"), categories=["x", "y", "z"], scheduler=client)
    assert isinstance(found, Tally) and found == expected and found.documents == 300


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


COLUMNS = ["--actual", "y", "--predicted", "p", "--score", "s", "--positive", "spam"]


def test_the_command_line_says_the_rows_read_were_counted(
    data: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, frame = data
    status, out, _ = _run(["evaluate", str(folder / "part-*"), *COLUMNS], capsys)
    assert status == 0
    n = f"{len(frame):,}"
    assert f"Coverage: {n} rows read from 5 partitions, {n} counted, none twice" in out
    status, out, _ = _run(
        ["evaluate", str(folder / "part-*"), *COLUMNS, "--format", "json"], capsys
    )
    document = json.loads(out)
    assert document["coverage"] == {
        "rows_read": len(frame),
        "rows_counted": len(frame),
        "partitions": 5,
        "engine": "one process",
    }


def test_partial_summaries_written_by_separate_runs_merge_to_the_whole(
    data: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each file summarised by its own run (one holds no rows, one lacks 'eggs'), merged:
    the summaries of all the rows, and the same report as one run over them all."""
    folder, frame = data
    saved = []
    for i, file in enumerate(sorted(folder.glob("part-*"))):
        target = tmp_path / f"saved-{i}.json"
        status, out, err = _run(["evaluate", str(file), *COLUMNS, "--partial", str(target)], capsys)
        assert status == 0 and out == "" and "wrote the summaries of" in err, err
        saved.append(str(target))
    merged_path = tmp_path / "merged.json"
    status, out, err = _run(
        ["merge", *saved, "--positive", "spam", "--output", str(merged_path), "--format", "json"],
        capsys,
    )
    assert status == 0, err
    document = json.loads(out)
    coverage = document.pop("coverage")
    assert coverage["rows_read"] == coverage["rows_counted"] == len(frame)
    assert coverage["partitions"] == 5
    whole = json.loads(
        _run(["evaluate", str(folder / "part-*"), *COLUMNS, "--format", "json"], capsys)[1]
    )
    whole.pop("coverage")
    assert document == whole
    merged = Summaries.from_json(merged_path.read_text())
    assert (merged.table, merged.ranking) == _expected(frame)
    status, _, err = _run(["merge", saved[1], saved[2], saved[1]], capsys)
    assert status == 2 and "both cover the partition" in err and "Traceback" not in err
    status, _, err = _run(
        ["evaluate", saved[0], *COLUMNS, "--partial", saved[0], "--ci", "0.9"], capsys
    )
    assert status == 2 and "--partial writes summaries, not a report" in err


def test_evaluate_on_the_fixture_cluster_and_on_a_local_one(
    client: Any, data: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, frame = data
    single = _run(["evaluate", str(folder / "part-*"), *COLUMNS, "--format", "json"], capsys)[1]
    for address in (client.scheduler.address, "local"):
        status, out, err = _run(
            ["evaluate", str(folder / "part-*"), *COLUMNS, "--format", "json", "--dask", address],
            capsys,
        )
        assert status == 0, err
        document, expected = json.loads(out), json.loads(single)
        assert document.pop("coverage") == {
            "rows_read": len(frame),
            "rows_counted": len(frame),
            "partitions": 5,
            "engine": f"Dask, {address}",
        }
        expected.pop("coverage")
        assert document == expected


def test_an_unreachable_scheduler_is_one_line(
    data: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = data
    status, _, err = _run(
        ["evaluate", str(folder / "part-1.parquet"), *COLUMNS, "--dask", "nonsense://x"], capsys
    )
    assert status == 2
    assert err.startswith("informed: error: --dask nonsense://x: cannot reach a Dask scheduler")
    assert len(err.strip().splitlines()) == 1


def test_a_bad_row_on_a_local_cluster_is_one_line_without_worker_logs(
    data: Any, capfd: pytest.CaptureFixture[str]
) -> None:
    """The workers' own log of the failed task (with its traceback) stays silent: the
    user reads one line naming the file, the row, the column and the value."""
    folder, _ = data
    bad = folder / "bad.parquet"
    pq.write_table(pa.table({"y": ["spam"], "p": ["ham"], "s": [float("inf")]}), bad)
    status = main(
        ["evaluate", str(folder / "part-1.parquet"), str(bad), *COLUMNS, "--dask", "local"]
    )
    captured = capfd.readouterr()
    assert status == 2
    assert captured.err == f"informed: error: {bad} data row 1, column 's': inf is not finite.\n"
