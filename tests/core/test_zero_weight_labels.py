"""A label seen in the data is a label of the Table, whatever its rows weigh.

A label whose rows all weighed 0 disappeared from the Table (so `positive=` that label
was "not a label of the table", and a merged part's labels depended on its weights).
Now it is a label with zero weight on every route: in memory (dense and sparse), merged,
through JSON, the file readers' RunningTable and `summarise_frame`. Expected labels are
the distinct values of the data; expected cells are summed here by exact fractions.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Table, evaluate
from informed.coding.labels import Coded
from informed.io import read_summaries, summarise_frame
from informed.io.coverage import Summaries
from informed.io.running_table import RunningTable

pd = pytest.importorskip("pandas")

ACTUAL = ["x", "y", "z", "z", "x"]
PREDICTED = ["x", "y", "z", "w", "x"]
WEIGHTS = [1.0, 2.0, 0.0, 0.0, 0.5]  # 'z' (actual) and 'w', 'z' (predicted): weight 0 only


def _expected(
    actual: list[str], predicted: list[str], weights: list[float]
) -> tuple[list[str], list[str], dict[tuple[str, str], Fraction]]:
    cells: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    for a, p, w in zip(actual, predicted, weights, strict=True):
        cells[(p, a)] += Fraction(w)
    return sorted(set(predicted)), sorted(set(actual)), cells


def _check(table: Table, actual: list[str], predicted: list[str], weights: list[float]) -> None:
    rows, cols, cells = _expected(actual, predicted, weights)
    assert list(table.predicted) == rows and list(table.actual) == cols
    for p in rows:
        for a in cols:
            assert Fraction(table.count(p, a)) == cells.get((p, a), 0), (p, a)


@pytest.mark.parametrize("storage", ["dense", "sparse"])
def test_a_label_of_weight_zero_is_a_label_of_the_table(storage: str) -> None:
    """Dense and sparse; JSON keeps it; it can be the positive class (undefined measures)."""
    table = Table.from_labels(
        actual=ACTUAL,
        predicted=PREDICTED,
        weights=WEIGHTS,
        storage=storage,  # type: ignore[arg-type]
    )
    assert table.storage == storage
    _check(table, ACTUAL, PREDICTED, WEIGHTS)
    assert Table.from_json(table.to_json()) == table
    assert list(Table.from_json(table.to_json()).actual) == ["x", "y", "z"]
    found = evaluate(table, positive="z")  # was: positive='z' is not a label of the table
    assert math.isnan(found.measures["recall"])  # no weight of actual "z": 0 / 0


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from("abcd"), st.sampled_from("abcd"), st.sampled_from([0.0, 0.0, 1.0, 2.5])
        ),
        min_size=1,
        max_size=30,
    ),
    cut=st.integers(min_value=0, max_value=30),
    storage=st.sampled_from(["dense", "sparse"]),
)
def test_merged_parts_have_the_labels_of_the_whole(
    rows: list[tuple[str, str, float]], cut: int, storage: str
) -> None:
    """Any split: part + part == the table of all rows, labels and cells (no label lost
    because a part's rows of it weigh 0)."""
    actual, predicted, weights = (list(column) for column in zip(*rows, strict=True))
    cut = min(cut, len(rows))

    def part(lo: int, hi: int) -> Table:
        return Table.from_labels(
            actual=actual[lo:hi],
            predicted=predicted[lo:hi],
            weights=np.array(weights[lo:hi], dtype=float),
            storage=storage,  # type: ignore[arg-type]
        )

    whole = part(0, len(rows))
    _check(whole, actual, predicted, weights)
    assert part(0, cut) + part(cut, len(rows)) == whole


def test_file_readers_and_frames_keep_zero_weight_labels(tmp_path: Path) -> None:
    """The RunningTable of the file readers (one batch per row here), summarise_frame,
    and the Summaries' JSON."""
    frame = pd.DataFrame({"y": ACTUAL, "p": PREDICTED, "w": WEIGHTS})
    path = tmp_path / "rows.csv"
    frame.to_csv(path, index=False)
    from_file = read_summaries(path, actual="y", predicted="p", weight="w", batch_rows=1)
    assert from_file.table is not None
    _check(from_file.table, ACTUAL, PREDICTED, WEIGHTS)
    back = Summaries.from_json(from_file.to_json())
    assert back.table == from_file.table and back.labels == ("w", "x", "y", "z")
    in_memory = summarise_frame(frame, part="p0", actual="y", predicted="p", weight="w")
    assert in_memory.table == from_file.table


def test_a_batch_of_weight_zero_only_still_adds_its_labels() -> None:
    """RunningTable (the readers' table): a batch whose rows all weigh 0 adds its labels."""
    running = RunningTable(weighted=True)
    running.add(Coded(("a",), np.array([0])), Coded(("a",), np.array([0])), np.array([1.0]))
    running.add(Coded(("b",), np.array([0])), Coded(("c",), np.array([0])), np.array([0.0]))
    table = running.table("auto")
    assert table.predicted == ("a", "c") and table.actual == ("a", "b")
    assert table.counts.tolist() == [[1.0, 0.0], [0.0, 0.0]]


def test_the_command_line_takes_a_zero_weight_label_as_positive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--positive 1` where every row of actual 1 weighs 0: was "positive=1 is not a label
    of the table"; now the report, with recall undefined (no weight of actual 1)."""
    from informed.cli import main

    path = tmp_path / "rows.csv"
    path.write_text("y,p,w\n1,1,0\n0,0,1\n0,1,1\n", encoding="utf-8")
    command = ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--weight", "w"]
    assert main([*command, "--positive", "1", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["labels"] == {"predicted": ["0", "1"], "actual": ["0", "1"]}
    assert found["table"] == [[1.0, 0.0], [1.0, 0.0]]
    assert found["measures"]["recall"] is None and found["measures"]["precision"] == 0.0
