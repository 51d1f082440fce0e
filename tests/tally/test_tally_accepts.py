"""What the Statistics::Contingency conventions accept, the JSON-lines format around it,
and the Tally's public constructor (issue 10, item 4; issue 16: deeply nested JSON).

The values here follow from the Perl module's source (Statistics::Contingency 0.09,
Williams): its category list becomes the keys of a hash, `add_result` loops over those
keys only, and `set_entries` assigns its four arguments as they are. The same behaviours
are run through the real module in test_tally_perl.py.
"""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import numpy as np
import pytest

from informed.cli import main
from informed.errors import InputError, InputTypeError
from informed.io import read_jsonl
from informed.tally import Tally

PERL = "statistics-contingency"


# ---------------------------------------------------------------------- the Tally
def test_repeated_categories_are_kept_once_under_the_perl_conventions() -> None:
    t = Tally(["b", "a", "b", "c", "a"], conventions=PERL)
    assert t.categories == ("b", "a", "c")
    t.add_result("b", ["b", "c"])
    assert t.counts.tolist() == [[[1, 0], [0, 0]], [[0, 0], [0, 1]], [[0, 0], [1, 0]]]
    with pytest.raises(InputError, match=r"'b' appears twice .*statistics-contingency"):
        Tally(["b", "a", "b"])


def test_unknown_categories_are_ignored_and_counted_by_default_under_perl() -> None:
    t = Tally(["x", "y"], conventions=PERL)
    assert t.unknown == "ignore"
    t.add_result(["x", "zz"], ["zz", "ww"])
    t.add_result("ww", "y")
    assert t.ignored == {"ww": 2, "zz": 1}
    assert t.pooled.tolist() == [[0, 1], [1, 2]]
    assert Tally(["x"]).unknown == "error"
    strict = Tally(["x"], conventions=PERL, unknown="error")
    with pytest.raises(InputError, match="'zz'"):
        strict.add_result("zz", "x")


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        # micro precision a / (a + b) = 1 / (1 + b / a), recall, F1 = 2a / (2a + b + c),
        # accuracy (a + d) / N, by hand
        ((1.5, 0.5, 2, 4), (0.75, 1.5 / 3.5, 3 / 5.5, 5.5 / 8)),
        ((0.25, 0, 0, 0.75), (1.0, 1.0, 1.0, 1.0)),
        ((0, 0, 0.5, 2.5), (0.0, 0.0, 0.0, 2.5 / 3)),
        ((np.float64(2.0), 1, np.float32(1.0), 0), (2 / 3, 2 / 3, 2 / 3, 0.5)),
    ],
)
def test_set_entries_takes_fractional_cells_under_perl(
    cells: tuple[float, ...], expected: tuple[float, ...]
) -> None:
    t = Tally(["x"], conventions=PERL)
    t.set_entries(*cells)
    got = (t.micro_precision(), t.micro_recall(), t.micro_F1(), t.micro_accuracy())
    assert got == pytest.approx(expected, rel=1e-15)
    assert t.documents == 0


def test_fractional_cells_then_documents_then_json() -> None:
    """Later documents add to the cells set; the float cells survive JSON and merging."""
    t = Tally(["x", "y"], conventions=PERL)
    t.set_entries(1.5, 0, 0.25, 2)
    t.add_result("x", ["x", "y"])  # x: a, y: c
    assert t.pooled.tolist() == [[2.5, 0.0], [1.25, 2.0]]
    back = Tally.from_json(t.to_json())
    assert back == t and back.pooled.dtype == np.float64
    assert (t + Tally(["x", "y"], conventions=PERL)).pooled.tolist() == [[2.5, 0.0], [1.25, 2.0]]
    whole = Tally(["x"], conventions=PERL)
    whole.set_entries(2.0, 1.0, 0.0, 3.0)  # whole numbers stay exact int64 counts
    assert whole.pooled.dtype == np.int64 and whole.pooled.tolist() == [[2, 1], [0, 3]]


@pytest.mark.parametrize("bad", [-0.5, math.nan, math.inf, "1.5", True, None, 2.0**64])
def test_set_entries_refuses_what_is_no_cell_even_under_perl(bad: object) -> None:
    t = Tally(["x"], conventions=PERL)
    with pytest.raises((InputError, InputTypeError), match="`a`"):
        t.set_entries(bad, 0, 0, 0)  # type: ignore[arg-type]
    assert t.pooled.tolist() == [[0, 0], [0, 0]]


def test_default_conventions_refuse_fractional_cells_and_say_where_they_go() -> None:
    with pytest.raises(InputTypeError, match='conventions="statistics-contingency" takes'):
        Tally(["x"]).set_entries(1.5, 0, 0, 0)


# ---------------------------------------------------------------------- the constructor
def test_from_counts_builds_and_checks() -> None:
    t = Tally.from_counts(
        ["x", "y"],
        [[[2, 1], [0, 1]], [[0, 0], [3, 1]]],
        ignored={"z": 2},
        conventions=PERL,
    )
    assert t.documents == 4 and t.pooled.tolist() == [[2, 1], [3, 2]] and t.ignored == {"z": 2}
    assert t.unknown == "ignore"
    with pytest.raises(InputError, match="sums to 3, that of 'x' to 4"):
        Tally.from_counts(["x", "y"], [[[2, 1], [0, 1]], [[0, 0], [2, 1]]])
    with pytest.raises(InputError, match="shape \\(2, 2, 2\\)"):
        Tally.from_counts(["x", "y"], [[[2, 1], [0, 1]]])
    with pytest.raises(InputError, match="whole counts"):
        Tally.from_counts(["x"], [[[0.5, 0], [0, 0]]])
    with pytest.raises(InputError, match="\\[0, 2\\*\\*63 - 1\\]"):
        Tally.from_counts(["x"], [[[-1, 0], [0, 1]]])
    with pytest.raises(InputError, match="undeclared"):
        Tally.from_counts(["x"], [[[1, 0], [0, 0]]], ignored={"x": 1})
    with pytest.raises(InputError, match="positive"):
        Tally.from_counts(["x"], [[[1, 0], [0, 0]]], ignored={"z": 0})
    with pytest.raises(InputTypeError, match="whole count"):
        Tally.from_counts(["x"], [[[1, 0], [0, 0]]], pooled=[[0.5, 0], [0, 0]])


def test_the_reader_uses_no_private_field_of_the_tally() -> None:
    """io/jsonl.py builds tallies through their public methods and `Tally.from_counts`."""
    source = Path(__file__).resolve().parents[2] / "src" / "informed" / "io" / "jsonl.py"
    private = [
        node.attr
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]
    assert private == []


# ---------------------------------------------------------------------- JSON lines
HEADER = '{"categories": ["x", "y"]}'


def test_set_entries_lines() -> None:
    lines = [
        HEADER,
        '{"assigned": "x", "correct": "x"}',
        '{"set_entries": [1.5, 2, 0, 3]}',
        '{"assigned": "y", "correct": "x"}',
    ]
    t = read_jsonl(lines, conventions=PERL)
    assert t.pooled.tolist() == [[1.5, 3.0], [1.0, 3.0]]
    assert t.counts.tolist() == [[[1, 0], [1, 0]], [[0, 1], [0, 1]]]
    with pytest.raises(InputTypeError, match="line 3: set_entries: `a` must be a whole count"):
        read_jsonl(lines)


def test_set_entries_lines_without_declared_categories() -> None:
    """Undeclared categories: the pooled cells after set_entries count every category the
    file names, also those first named after it."""
    lines = [
        '{"assigned": "x", "correct": "x"}',
        '{"set_entries": [1, 2, 0, 3]}',
        '{"assigned": "y", "correct": "z"}',
    ]
    t = read_jsonl(lines)
    assert t.categories == ("x", "y", "z")
    # after set_entries one document: y is b, z is c, x is d
    assert t.pooled.tolist() == [[1, 3], [1, 4]]
    expected = Tally(["x", "y", "z"])
    expected.add_result("x", "x")
    expected.set_entries(1, 2, 0, 3)
    expected.add_result("y", "z")
    assert t == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"set_entries": [1, 2, 3]}', r'line 2: a set_entries line is \{"set_entries"'),
        ('{"set_entries": [1, 2, 3, 4], "name": "n"}', "and nothing else"),
        ('{"set_entries": [1, 2, 3, -4]}', r"line 2: set_entries: `d` must lie in"),
        ('{"set_entries": [1, 2, 3, "4"]}', "line 2: set_entries: `d` must be a number"),
    ],
)
def test_bad_set_entries_lines(line: str, message: str) -> None:
    with pytest.raises((InputError, InputTypeError), match=message):
        read_jsonl([HEADER, line], conventions=PERL)


def test_header_with_other_keys_says_what_is_wrong() -> None:
    """A first line with "categories" and more is refused for what it is, not told that
    "a categories line must come first"; a categories line later says it must be first."""
    with pytest.raises(InputError) as first:
        read_jsonl(['{"categories": ["x"], "version": 1}', '{"assigned": [], "correct": []}'])
    assert str(first.value) == (
        'line 1: a "categories" line holds only "categories"; this one also holds '
        "['version']. Remove them."
    )
    assert "come first" not in str(first.value)
    with pytest.raises(InputError, match='line 3: a "categories" line must be the first line'):
        read_jsonl(["", '{"assigned": [], "correct": []}', HEADER])
    # a blank line before the header is not a line of the file's content
    assert read_jsonl(["", HEADER]).categories == ("x", "y")


def test_repeated_names_in_the_header_under_perl() -> None:
    lines = ['{"categories": ["x", "y", "x"]}', '{"assigned": "x", "correct": "y"}']
    assert read_jsonl(lines, conventions=PERL).categories == ("x", "y")
    with pytest.raises(InputError, match="line 1: `categories` must hold distinct names"):
        read_jsonl(lines)


@pytest.mark.parametrize(
    "line",
    [
        '{"assigned": ' + "[" * 100_000 + "]" * 100_000 + ', "correct": []}',
        "[" * 5_000 + "]" * 5_000,
        '{"assigned": [' + "[" * 900 + "]" * 900 + '], "correct": []}',
        '{"assigned": [], "correct": [], "name": ' + "[" * 900 + "]" * 900 + "}",
    ],
)
def test_deeply_nested_json_is_a_one_line_error(line: str) -> None:
    """Issue 16: a deeply nested line was a RecursionError traceback; now an InputError
    whose message stays short."""
    with pytest.raises((InputError, InputTypeError), match="line 2") as caught:
        read_jsonl([HEADER, line])
    assert len(str(caught.value)) < 200


def test_deeply_nested_json_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(HEADER + "\n" + '{"assigned": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert main(["tally", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "nested too deeply" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_deeply_nested_tally_document_is_an_input_error() -> None:
    with pytest.raises(InputError, match="nested too deeply"):
        Tally.from_json("[" * 100_000 + "]" * 100_000)


def test_the_command_takes_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--unknown ignore under the default conventions; the report counts the ignored."""
    path = tmp_path / "docs.jsonl"
    path.write_text(HEADER + "\n" + '{"assigned": ["x", "q"], "correct": "y"}\n')
    assert main(["tally", str(path)]) == 2
    assert "'q'" in capsys.readouterr().err
    assert main(["tally", str(path), "--unknown", "ignore", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["ignored"] == {"q": 1} and document["documents"] == 1


def test_set_entries_cells_that_grow_past_int64_are_refused() -> None:
    """Undeclared categories: the cells set, plus the documents after them, in Python
    integers, so a sum past 2**63 - 1 is an error naming the cause, never a wrap."""
    lines = [
        '{"assigned": "x", "correct": "x"}',
        '{"set_entries": [9223372036854775807, 0, 0, 0]}',
        '{"assigned": "x", "correct": "x"}',
    ]
    with pytest.raises(InputError, match="after the last set_entries line: `a` must lie in"):
        read_jsonl(lines)


def test_a_tally_state_names_its_unknown_policy() -> None:
    """In the JSON form `unknown` is "error" or "ignore"; null (the constructor's "by
    conventions") is refused."""
    state = Tally(["x"]).to_dict()
    state["unknown"] = None
    with pytest.raises(InputError, match="`unknown` must be one of"):
        Tally.from_dict(state)
