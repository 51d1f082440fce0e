"""The CSV reader's two routes agree: pyarrow blocks (re-read by the standard library when
something is wrong) give exactly what the standard library reader alone gives, labels,
numbers and error messages alike."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import informed.coding.columns
from informed.errors import InputError
from informed.io import iter_batches, read_columns
from informed.io.csv_reader import csv_batches

pytest.importorskip("pyarrow")

PIECES = ["a", "b", "7", "1.5", "-2", "1_0", " 3", "nan", "x y", "", ",", '"', "\n", "\r\n", "\r"]


def _outcome(path: Path, arrow: bool, block: int) -> tuple[str, object]:
    """Everything the reader yields (or its error message), by one route."""
    informed.coding.columns.ARROW_DISABLED = not arrow
    try:
        batches = list(
            csv_batches(path, ["y"], ["w"], ["w"], "utf-8", batch_rows=3, block_bytes=block)
        )
    except InputError as exc:
        return "error", str(exc)
    finally:
        informed.coding.columns.ARROW_DISABLED = False
    labels = [str(x) for b in batches for x in np.asarray(b.labels["y"]).tolist()]
    numbers = [float(x) for b in batches for x in b.numbers["w"]]
    starts = [b.first_row for b in batches]
    rows = sum(b.rows for b in batches)
    assert starts == sorted(starts) and rows == len(labels)
    return "rows", (labels, numbers)


@settings(max_examples=300, deadline=None)
@given(
    body=st.lists(st.sampled_from(PIECES), max_size=40),
    block=st.sampled_from([8, 16, 64, 1 << 20]),
)
def test_pyarrow_blocks_read_as_the_standard_reader(
    body: list[str], block: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("csv") / "d.csv"
    path.write_bytes(("y,w\n" + "".join(body)).encode())
    assert _outcome(path, True, block) == _outcome(path, False, block)


def test_well_formed_files_agree_across_block_sizes(tmp_path: Path) -> None:
    """Many rows, CRLF and LF, a quoted label late in the file: same rows either way."""
    rng = random.Random(0)
    lines = ["y,w"]
    for i in range(2000):
        label = rng.choice(["cat", "dog", "NA", "null", "007", "ünï", " sp"])
        if i == 1500:
            label = '"a,b"'
        lines.append(f"{label},{rng.random()!r}")
    for newline in ("\n", "\r\n"):
        path = tmp_path / "d.csv"
        path.write_bytes((newline.join(lines) + newline).encode())
        expected = _outcome(path, False, 1 << 20)
        assert expected[0] == "rows"
        for block in (50, 1000, 1 << 20):
            assert _outcome(path, True, block) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("y,w\na,1\n,2\n", "line 3 (data row 2), column 'y': the label is blank"),
        ("y,w\na,1\nb,x\n", "line 3 (data row 2), column 'w': 'x' is not a number"),
        ("y,w\na,1\nb,-1\n", "line 3 (data row 2), column 'w': '-1' is negative"),
        ("y,w\na,1\nb,inf\n", "line 3 (data row 2), column 'w': 'inf' is not finite"),
        ("y,w\na,1\nb\n", "line 3 (data row 2): 1 fields where the header has 2"),
        ("y,w\na,1\n\nb,2\n", "line 3 (data row 2): 0 fields where the header has 2"),
        ("y,w\r\na,1\r\nb,2,3\r\n", "line 3 (data row 2): 3 fields where the header has 2"),
        ('y,w\na,1\n"b"x,2\n', "line 3: malformed CSV"),
    ],
)
def test_error_messages_name_line_row_column_and_value(
    text: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(text.encode())
    for arrow in (True, False):
        informed.coding.columns.ARROW_DISABLED = not arrow
        try:
            with pytest.raises(InputError, match=re.escape(message)) as caught:
                read_columns(path, labels=["y"], numbers=["w"], nonnegative=["w"])
        finally:
            informed.coding.columns.ARROW_DISABLED = False
        assert str(caught.value).startswith(f"{path} ") and message in str(caught.value)


def test_bad_bytes_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes(b"y,w\na,1\nb,2\n\xe9t\xe9,3\n")
    for arrow in (True, False):
        informed.coding.columns.ARROW_DISABLED = not arrow
        try:
            with pytest.raises(InputError, match=r"not valid utf-8 near line 4"):
                list(iter_batches(path, labels=["y"]))
        finally:
            informed.coding.columns.ARROW_DISABLED = False
    found = read_columns(path, labels=["y"], encoding="latin-1")
    assert found.labels["y"].tolist() == ["a", "b", "été"]


def test_labels_are_kept_exactly(tmp_path: Path) -> None:
    """NA, null, 007, spaces and NUL characters are labels as written, on both routes."""
    words = ["NA", "null", "007", " x ", "a\x00", "N/A", "nan", "None", "ünï"]
    path = tmp_path / "w.csv"
    path.write_bytes(("y\n" + "\n".join(words) + "\n").encode())
    for arrow in (True, False):
        informed.coding.columns.ARROW_DISABLED = not arrow
        try:
            assert read_columns(path, labels=["y"]).labels["y"].tolist() == words
        finally:
            informed.coding.columns.ARROW_DISABLED = False


def test_a_quoted_header_keeps_the_fast_route(tmp_path: Path) -> None:
    """pyarrow and R quote the header's names; the names are read as the standard reader
    reads them, and the rows below are read by blocks all the same."""
    path = tmp_path / "q.csv"
    path.write_bytes(b'"y","w, weight"\na,1\nb,2\n')
    found = read_columns(path, labels=["y"], numbers=["w, weight"])
    assert found.labels["y"].tolist() == ["a", "b"]
    assert found.numbers["w, weight"].tolist() == [1.0, 2.0]
    informed.coding.columns.ARROW_DISABLED = True
    try:
        again = read_columns(path, labels=["y"], numbers=["w, weight"])
    finally:
        informed.coding.columns.ARROW_DISABLED = False
    assert again.labels["y"].tolist() == ["a", "b"]
