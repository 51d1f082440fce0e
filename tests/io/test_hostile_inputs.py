"""Issue 19, hostile inputs: a loop of symbolic links, a cut or corrupt ``.csv.gz``, a JSON
document nested too deeply, and counts of the wrong type or size in every JSON summary
document. Each is one line naming the file and the true reason, never a traceback, and
no partial result is printed."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import informed.coding.columns
from informed import Ranking, Table, Tally
from informed.cli import main
from informed.errors import InputError
from informed.io import Summaries


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("informed: error: "), err
    assert "Traceback" not in err and "Errno" not in err
    return err


# -- item 4: a loop of symbolic links given as FILE -----------------------------------------


def test_a_loop_of_links_is_named_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command says the file is a loop of links (not "no such file")."""
    first, second = tmp_path / "one.csv", tmp_path / "two.csv"
    first.symlink_to(second.name)
    second.symlink_to(first.name)
    bare = tmp_path / "loop"
    bare.symlink_to(bare.name)
    for args in (
        ["evaluate", str(first), "--actual", "y", "--predicted", "p"],
        ["evaluate", str(bare), "--actual", "y", "--predicted", "p"],
        ["compare", str(first), "--actual", "y", "--predicted", "p", "q"],
        ["tally", str(first)],
        ["merge", str(first)],
    ):
        code, out, err = _run(args, capsys)
        assert code == 2 and out == "", args
        assert "loop of symbolic links" in _one_line(err) and Path(args[1]).name in err


def test_a_link_to_a_missing_file_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.csv"
    link.symlink_to("gone.csv")
    code, _, err = _run(["evaluate", str(link), "--actual", "y", "--predicted", "p"], capsys)
    assert code == 2 and "a symbolic link to 'gone.csv', which does not exist" in _one_line(err)


# -- item 5: a cut or corrupt x.csv.gz, on both CSV routes ----------------------------------


def _compressed_rows() -> bytes:
    rows = "".join(f"{'ab'[i % 2]},{'ab'[i % 3 % 2]},{i / 50000}\n" for i in range(50000))
    return gzip.compress(("y,p,s\n" + rows).encode())


@pytest.mark.parametrize("arrow", [True, False])
@pytest.mark.parametrize("damage", ["cut", "corrupt"])
def test_a_damaged_gzip_file_is_one_line_and_prints_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    arrow: bool,
    damage: str,
) -> None:
    """Read up to the damage, then stopped: no report, no summary file."""
    if arrow:
        pytest.importorskip("pyarrow")
    monkeypatch.setattr(informed.coding.columns, "ARROW_DISABLED", not arrow)
    data = bytearray(_compressed_rows())
    if damage == "cut":
        data = data[: len(data) // 2]
        why = "the compressed data ends before its end-of-stream marker: the file is cut short"
    else:
        data[-8] ^= 0xFF  # the CRC-32 of the uncompressed bytes, in the gzip trailer
        why = "the compressed data is corrupt (CRC check failed"
    path = tmp_path / "x.csv.gz"
    path.write_bytes(bytes(data))
    part = tmp_path / "part.json"
    for more in ([], ["--format", "json"], ["--partial", str(part)]):
        code, out, err = _run(
            ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--quiet", *more], capsys
        )
        assert code == 2 and out == ""
        assert _one_line(err).startswith(f"informed: error: {path}: {why}")
    assert not part.exists()


# -- item 6: a JSON document nested too deeply ----------------------------------------------


def test_a_deeply_nested_document_is_refused_by_every_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "deep.json"
    path.write_text(deep)
    code, out, err = _run(["merge", str(path)], capsys)
    assert code == 2 and out == ""
    assert _one_line(err) == f"informed: error: {path} is nested too deeply to read.\n"
    for kind in (Table, Ranking, Tally, Summaries):
        with pytest.raises(InputError, match="nested too deeply to read"):
            kind.from_json(deep)


# -- item 7: counts of the wrong type or size -----------------------------------------------

TABLE: dict[str, Any] = {
    "kind": "informed.Table",
    "version": 1,
    "rows": "predicted",
    "weighted": False,
    "predicted": ["a", "b"],
    "actual": ["a", "b"],
    "counts": [[7, 1], [1, 0]],
}
RANKING: dict[str, Any] = {
    "kind": "informed.Ranking",
    "schema_version": 1,
    "weighted": False,
    "scores": [0.7, 0.5],
    "positives": [7, 0],
    "negatives": [0, 1],
}
TALLY: dict[str, Any] = {
    "kind": "informed.Tally",
    "version": 1,
    "conventions": "default",
    "unknown": "error",
    "categories": ["x"],
    "documents": 7,
    "counts": [[[7, 0], [0, 0]]],
    "pooled": [[7, 0], [0, 0]],
    "ignored": [],
}
SUMMARIES: dict[str, Any] = {
    "kind": "informed.Summaries",
    "version": 1,
    "rows_read": 9,
    "weighted_rows": 9,
    "partitions": ["p1"],
    "labels": ["a", "b"],
    "table": TABLE,
    "ranking": None,
    "tally": None,
}


def _edited(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    edited = copy.deepcopy(document)
    place = edited
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return edited


# (document, where the count is, what the message says of the string "7")
STRING_COUNTS = [
    (TABLE, ("counts", 0, 0), "`counts` of predicted 'a', actual 'a' is the string '7', not a number"),
    (
        _edited(TABLE, ("counts",), {"row": [0, 1], "column": [0, 1], "count": [1, "7"]}),
        ("counts", "count", 1),
        "`counts` of predicted 'b', actual 'b' is the string '7', not a number",
    ),
    (_edited(TABLE, ("weighted",), True), ("counts", 0, 0), "is the string '7', not a number"),
    (SUMMARIES, ("table", "counts", 0, 0), "actual 'a' is the string '7', not a number"),
    (SUMMARIES, ("rows_read",), "`rows_read` must be a whole number of rows"),
    (RANKING, ("positives", 0), "`positives` entry 0 must be an integer; got the string '7'"),
    (TALLY, ("documents",), "`documents` must be a whole count in [0, 2**63 - 1]; got the string"),
    (TALLY, ("counts", 0, 0, 0), "`counts` must be a whole count in [0, 2**63 - 1]; got the string"),
]  # fmt: skip


@pytest.mark.parametrize(("document", "where", "message"), STRING_COUNTS)
def test_a_count_written_as_a_string_is_refused_by_its_name(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    document: dict[str, Any],
    where: tuple[Any, ...],
    message: str,
) -> None:
    """The string "7" is not the count 7, even where the row check would not notice."""
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(_edited(document, where, "7")))
    code, out, err = _run(["merge", str(path)], capsys)
    assert code == 2 and out == ""
    assert message in _one_line(err) and str(path) in err


@pytest.mark.parametrize(
    ("document", "where"),
    [
        (TABLE, ("counts", 0, 0)),
        (_edited(TABLE, ("weighted",), True), ("counts", 0, 0)),
        (SUMMARIES, ("table", "counts", 0, 0)),
        (SUMMARIES, ("rows_read",)),
        (RANKING, ("positives", 0)),
        (_edited(RANKING, ("weighted",), True), ("positives", 0)),
        (RANKING, ("scores", 0)),
        (TALLY, ("documents",)),
        (TALLY, ("counts", 0, 0, 0)),
        (_edited(TALLY, ("conventions",), "statistics-contingency"), ("pooled", 0, 0)),
    ],
)
@pytest.mark.parametrize("written", ["1" + "0" * 400, "1e400"])
def test_a_huge_count_is_refused_in_few_words(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    document: dict[str, Any],
    where: tuple[Any, ...],
    written: str,
) -> None:
    """10**400 is "a number of 401 digits", 1e400 (read as infinity) "beyond the range of
    a float": never 400 digits in a message, never a traceback."""
    path = tmp_path / "doc.json"
    text = json.dumps(_edited(document, where, "HUGE")).replace('"HUGE"', written)
    path.write_text(text)
    code, out, err = _run(["merge", str(path)], capsys)
    assert code == 2 and out == ""
    assert len(_one_line(err)) < 250 and "0" * 30 not in err
    if written == "1e400":
        assert "beyond the range of a float" in err or "got inf" in err
    else:
        assert "a number of 401 digits" in err


def test_true_is_not_the_count_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(_edited(TABLE, ("counts", 1, 0), True)))
    code, _, err = _run(["merge", str(path)], capsys)
    assert code == 2 and "`counts` of predicted 'b', actual 'a' is true, not a number" in err


# -- the sweep: an empty FILE, an encoding Python does not know or cannot start -------------


def test_an_empty_file_argument_is_refused_not_read_as_the_current_folder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Path("") is "."; the messages said ". is a directory"."""
    for args in (
        ["evaluate", "", "--actual", "y", "--predicted", "p"],
        ["compare", "", "--actual", "y", "--predicted", "p", "q"],
        ["tally", ""],
        ["merge", ""],
    ):
        with pytest.raises(SystemExit) as exit_:
            main(args)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "an empty path names no file" in err, args


@pytest.mark.parametrize(
    ("encoding", "message"),
    [
        ("nonsense", "unknown text encoding 'nonsense'"),
        ("utf-16", "cannot be read as utf-16 (UTF-16 stream does not start with BOM)"),
    ],
)
def test_an_encoding_that_cannot_read_the_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str, message: str
) -> None:
    """LookupError and UnicodeError (not a decode error) escaped as tracebacks."""
    path = tmp_path / "x.csv"
    path.write_text("y,p\na,a\nb,a\n")
    code, out, err = _run(
        ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--encoding", encoding],
        capsys,
    )
    assert code == 2 and out == ""
    assert _one_line(err).startswith(f"informed: error: {path}: {message}")
