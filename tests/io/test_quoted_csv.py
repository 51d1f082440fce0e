"""Quoted CSV read by pyarrow block by block (issue 19, item 8), exactly as the standard
library's reader reads it: the same labels, numbers and messages, whatever the quotes.

pyarrow, R's `write.csv` and many exporters quote every string; pandas quotes where a
value needs it. Blocks are cut at line ends outside quoted fields (by the parity of the
quotes before them) and every quote of a block is checked to sit where the standard
reader takes it as pyarrow does; a block that fails the check is read, with the rest of
the file, by the standard reader. The fuzz tests below build files of quoted and bare
fields holding commas, quotes, line ends and carriage returns, some malformed, and cut
them into small blocks, so that every cut and every check is met.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import informed.coding.columns
import informed.io.csv_reader
from informed.errors import InputError
from informed.io import read_summaries
from informed.io.csv_blocks import cut_records, lines_in
from informed.io.csv_reader import csv_batches

pytest.importorskip("pyarrow")


def _outcome(path: Path, arrow: bool, block: int, labels: list[str], numbers: list[str]) -> object:
    """Every row the reader yields (labels and numbers), or its error message."""
    informed.coding.columns.ARROW_DISABLED = not arrow
    try:
        batches = list(csv_batches(path, labels, numbers, [], "utf-8", 3, block_bytes=block))
    except InputError as exc:
        return ("error", str(exc))
    finally:
        informed.coding.columns.ARROW_DISABLED = False
    rows = sum(b.rows for b in batches)
    starts = [b.first_row for b in batches]
    assert starts == sorted(starts)
    found = {c: [str(x) for b in batches for x in np.asarray(b.labels[c]).tolist()] for c in labels}
    found |= {c: [float(x) for b in batches for x in b.numbers[c]] for c in numbers}
    assert all(len(v) == rows for v in found.values())
    return ("rows", found)


TEXT = st.lists(
    st.sampled_from(["a", "b", "7", ",", '"', "\n", "\r", "\r\n", " ", "é"]), min_size=1, max_size=6
).map("".join)
BARE = st.lists(st.sampled_from(["a", "b", "7", " ", "é", "1.5"]), min_size=1, max_size=4).map(
    "".join
)


@st.composite
def _field(draw: st.DrawFn) -> str:
    """A field as a writer writes it, or (rarely) one of the ways a file goes wrong."""
    kind = draw(st.sampled_from(["quoted"] * 12 + ["bare"] * 6 + ["after", "inside", "open", ""]))
    if kind == "quoted":
        return '"' + draw(TEXT).replace('"', '""') + '"'
    if kind == "bare":
        return draw(BARE)
    if kind == "after":  # text after the closing quote: the standard reader refuses it
        return '"' + draw(BARE) + '"' + draw(st.sampled_from(["x", " ", '"a']))
    if kind == "inside":  # a quote inside a bare field: a literal quote for both readers
        return draw(BARE) + '"' + draw(BARE)
    if kind == "open":  # never closed
        return '"' + draw(TEXT).replace('"', '""')
    return ""  # a blank field


RECORD = st.one_of(
    st.lists(_field(), min_size=3, max_size=3),
    st.lists(_field(), min_size=3, max_size=3),
    st.lists(_field(), min_size=3, max_size=3),
    st.lists(_field(), min_size=0, max_size=4),
)


@settings(max_examples=400, deadline=None)
@given(
    records=st.lists(RECORD, max_size=12),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    end=st.booleans(),
    block=st.sampled_from([4, 8, 16, 64, 1 << 20]),
)
def test_quoted_fields_read_as_the_standard_reader(
    records: list[list[str]],
    newline: str,
    end: bool,
    block: int,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Any mix of quoted fields (commas, doubled quotes, \\n, \\r\\n, \\r inside), bare
    fields and malformed ones, cut into blocks of any size: pyarrow's route gives what
    the standard reader alone gives, rows or message."""
    path = tmp_path_factory.mktemp("csv") / "q.csv"
    text = '"y",x,"w"' + newline + newline.join(",".join(r) for r in records)
    path.write_bytes((text + (newline if end and records else "")).encode())
    expected = _outcome(path, False, block, ["y", "x"], [])
    assert _outcome(path, True, block, ["y", "x"], []) == expected


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.tuples(TEXT.filter(bool), st.sampled_from(["1", "0.5", "-1", "x", "1_0"])), max_size=15
    ),
    block=st.sampled_from([8, 32, 1 << 20]),
)
def test_quoted_labels_and_numbers_agree(
    rows: list[tuple[str, str]], block: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Well-formed quoted files (as csv.writer writes them, every field quoted): same
    labels and numbers, and the same message for a bad number, on both routes."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerow(["y", "w"])
    writer.writerows(rows)
    path = tmp_path_factory.mktemp("csv") / "w.csv"
    path.write_bytes(out.getvalue().encode())
    expected = _outcome(path, False, block, ["y"], ["w"])
    assert _outcome(path, True, block, ["y"], ["w"]) == expected


def _styles(folder: Path) -> dict[str, Path]:
    """One data set as pyarrow, R's write.csv and pandas' to_csv write it."""
    pa = pytest.importorskip("pyarrow")
    pcsv = pytest.importorskip("pyarrow.csv")
    words = ["cat", "dog, big", 'say "hi"', "line\nbreak", "ünï"]
    actual = [words[i % 5] for i in range(400)]
    predicted = [words[(i * 7) % 5] for i in range(400)]
    scores = [round((i * 37 % 100) / 100, 2) for i in range(400)]
    paths = {}
    paths["pyarrow"] = folder / "pyarrow.csv"
    table = pa.table({"actual": actual, "predicted": predicted, "score": scores})
    pcsv.write_csv(table, paths["pyarrow"])
    paths["r"] = folder / "r.csv"  # row names, every string quoted, numbers bare
    with paths["r"].open("w", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        writer.writerow(["", "actual", "predicted", "score"])
        writer.writerows(zip(map(str, range(1, 401)), actual, predicted, scores, strict=True))
    paths["pandas"] = folder / "pandas.csv"  # an index, quotes only where needed
    with paths["pandas"].open("w", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        writer.writerow(["", "actual", "predicted", "score"])
        writer.writerows(zip(range(400), actual, predicted, scores, strict=True))
    return paths


@pytest.mark.parametrize("style", ["pyarrow", "r", "pandas"])
def test_files_as_writers_write_them_take_the_fast_route(
    style: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files written by pyarrow, in R's and in pandas' style are read by pyarrow's blocks
    to the end (the standard reader is never called), into the same Table and Ranking as
    the standard reader's."""
    path = _styles(tmp_path)[style]
    spec = {"actual": "actual", "predicted": "predicted", "scores": "score", "positive": "cat"}
    informed.coding.columns.ARROW_DISABLED = True
    try:
        expected = read_summaries(path, **spec)
    finally:
        informed.coding.columns.ARROW_DISABLED = False

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the standard reader was called")

    monkeypatch.setattr(informed.io.csv_reader, "standard_rest", refused)
    monkeypatch.setattr(informed.io.csv_reader, "standard_file", refused)
    monkeypatch.setattr(informed.io.csv_reader, "standard_batches", refused)
    for block in (64, 1000, 1 << 22):
        monkeypatch.setattr(informed.io.csv_reader, "BLOCK_BYTES", block)
        found = read_summaries(path, **spec)
        assert found.table == expected.table and found.ranking == expected.ranking
        assert found.rows == expected.rows == 400
    assert "line\nbreak" in found.table.labels and 'say "hi"' in found.table.labels


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"y","w"\n"a",1\n"b"x,2\n', "line 3: malformed CSV"),
        ('"y","w"\n"a",1\n"b\nc",2\n"",3\n', "line 5 (data row 3), column 'y': the label is blank"),
        ('"y","w"\n"a\r\nb",1\n"c",x\n', "line 4 (data row 2), column 'w': 'x' is not a number"),
        ('"y","w"\n"a",1\n"b,2\n', "line 3: malformed CSV (unexpected end of data)"),
        ('"y","w"\n"a","1","3"\n', "line 2 (data row 1): 3 fields where the header has 2"),
    ],
)
def test_messages_in_quoted_files_name_line_row_and_column(
    text: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(text.encode())
    for block in (4, 1 << 20):
        for arrow in (True, False):
            outcome = _outcome(path, arrow, block, ["y"], ["w"])
            assert outcome[0] == "error" and message in str(outcome[1]), (arrow, outcome)


def test_cuts_fall_between_records() -> None:
    """The cut is the last line end outside quoted fields, found however many quoted
    line ends come before it, at any offset from a 64-byte word."""
    for pad in range(70):
        first = f'"{"p" * pad}",0\n'.encode()
        data = first + b'"a\nb\nc",1\n"d\ne",2\n"f'
        cut = cut_records(data, final=False)
        assert data[: cut.end] == first + b'"a\nb\nc",1\n"d\ne",2\n'
        assert cut.quoted and cut.regular
        bad = first + b'"a\nb"x,1\n"d\ne",2\n"f'
        assert cut_records(bad, final=False).end == len(bad) - 2
        assert not cut_records(bad, final=False).regular
        assert not cut_records(first + b'"a', final=True).regular
    assert cut_records(b'"a\nb', final=False).end == 0
    assert cut_records(b"a,b\nc", final=False) == (4, False, True, False)
    assert lines_in(b"a\r\n\rb\n\n") == 4


def _reference_cut(data: bytes, final: bool) -> tuple[int, bool, bool, bool]:
    """`cut_records` written as a loop over the bytes (the oracle of the bit version)."""
    inside, end = False, 0
    quoted_breaks = []  # positions of \n and \r inside quoted fields
    for i, byte in enumerate(data):
        if byte == ord('"'):
            inside = not inside
        elif byte in b"\r\n" and inside:
            quoted_breaks.append(i)
        elif byte == ord("\n"):
            end = i + 1
    if final:
        end = len(data)
    quotes = [i for i in range(end) if data[i] == ord('"')]
    if not quotes:
        return end, False, True, False
    if final and len(quotes) % 2:
        return end, True, False, False
    multiline = any(i < end for i in quoted_breaks)
    beside = b',\n\r"'
    for k, i in enumerate(quotes):
        if k % 2 == 0 and i > 0 and data[i - 1] not in beside:
            return end, True, False, multiline
        if k % 2 == 1 and i < end - 1 and data[i + 1] not in beside:
            return end, True, False, multiline
    return end, True, True, multiline


@settings(max_examples=500, deadline=None)
@given(
    data=st.lists(st.sampled_from(["a", ",", '"', '""', "\n", "\r", "é"]), max_size=200).map(
        lambda parts: "".join(parts).encode()
    ),
    final=st.booleans(),
)
def test_the_bit_parallel_cut_is_the_loop(data: bytes, final: bool) -> None:
    """The 64-bit-word prefix XOR finds the same cut and the same verdict as a loop."""
    assert tuple(cut_records(data, final)) == _reference_cut(data, final)


def test_quoted_line_ends_across_pyarrows_own_chunks(tmp_path: Path) -> None:
    """pyarrow cuts a block into chunks of 1 MiB to parse them in parallel; a block whose
    quoted fields hold line ends is parsed with newlines_in_values, so that no chunk ends
    inside a quoted field. Files of several MiB, line ends quoted in every record or in
    one only, read exactly as the standard reader reads them."""
    rng = np.random.default_rng(7)
    words = ["a", "b\nc", "d\r\ne", "f,g", 'h""i', "j\rk"]
    for every in (True, False):
        labels = [words[i] for i in rng.integers(0, len(words), 250_000)]
        if not every:
            labels = ["a" if "\n" in x or "\r" in x else x for x in labels]
            labels[123_456] = "x\ny"
        text = '"y","w"\n' + "".join(f'"{x}",{i % 7}\n' for i, x in enumerate(labels))
        path = tmp_path / "big.csv"
        path.write_bytes(text.encode())
        assert path.stat().st_size > 3 << 19  # pyarrow makes two chunks or more
        expected = _outcome(path, False, 1 << 22, ["y"], ["w"])
        assert expected[0] == "rows"
        assert _outcome(path, True, 1 << 22, ["y"], ["w"]) == expected
