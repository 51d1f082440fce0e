"""The fast route of `read_jsonl` on files (issue 19, item 13) against the exact reader.

A file is read in regions; a region of well-formed documents is parsed by pyarrow and
counted in bulk, any other region is read again line by line by the exact reader. Here
random files (unknown and repeated categories, empty lists, unicode and escapes, the
other forms of a side, set_entries lines, blank lines, CR LF and lone CR line breaks, a
BOM, and bad lines of many kinds) are read with regions of a few bytes, so that fast and
exact regions alternate, and the result, or the error and its message, must be exactly
the exact reader's, reading the same file as text one line at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import informed.io.jsonl_arrow
from informed.cli import main
from informed.errors import InputError
from informed.io import read_jsonl
from informed.io.jsonl_arrow import read_file
from informed.io.jsonl_reader import Reader, read_lines
from informed.tally import Tally

pytest.importorskip("pyarrow", reason="the fast route parses with pyarrow (informed[parquet])")

NAMES = ["a", "b", "é", "日本", "x y", 'q"t', "back\\slash", "emoji 😀", "tab\tin"]
BAD_LINES = [
    "{",
    '{"assigned": [1], "correct": []}',
    '{"assigned": ["a\\u0000"], "correct": []}',
    '{"assigned": ["\\ud800"], "correct": []}',
    '{"assigned": [], "correct": [], "name": true}',
    '{"assigned": [], "correct": [], "name": 1.5}',
    '{"assigned": [], "correct": [], "other": 1}',
    '{"assigned": [null], "correct": []}',
    '{"assigned": null, "correct": []}',
    '{"correct": []}',
    "[]",
    '{"assigned": ["a"], "correct": []} {"assigned": [], "correct": []}',
    '{"assigned": ["a"], "assigned": ["b"], "correct": []}',
    '{"assigned": [], "correct": [], "name": NaN}',
    '{"categories": ["a", "b"]}',
    '{"set_entries": [1, 2, 3]}',
    '\ufeff{"assigned": [], "correct": []}',
    '{"assigned": [["a"]], "correct": []}',
]


@contextmanager
def small_regions(size: int, *, bitmap: bool = True) -> Iterator[None]:
    """Regions of `size` bytes; without `bitmap`, duplicates are dropped by sorting."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(informed.io.jsonl_arrow, "REGION", size)
        if not bitmap:
            patch.setattr(informed.io.jsonl_arrow, "_BITMAP", 0)
        yield


@st.composite
def side(draw: st.DrawFn) -> Any:
    names = draw(st.lists(st.sampled_from(NAMES), max_size=4))  # repeats and unknowns
    form = draw(st.sampled_from(["list"] * 8 + ["str", "dict"]))
    if form == "str" and names:
        return names[0]
    if form == "dict":
        return {name: draw(st.booleans()) for name in names}
    return names


@st.composite
def document_files(draw: st.DrawFn) -> tuple[bytes, dict[str, Any]]:
    """The bytes of a JSON-lines file and the keyword arguments to read it with."""
    declared = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6, unique=True))
    lines: list[bytes] = []
    if draw(st.booleans()):
        lines.append(json.dumps({"categories": declared}).encode())
    clean = draw(st.booleans())  # a file the fast route can take whole, or mixed
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(
            st.sampled_from(
                ["document"] * 10 + ([] if clean else ["blank", "entries", "bad", "bytes"])
            )
        )
        if kind == "document":
            document: dict[str, Any] = {"assigned": draw(side()), "correct": draw(side())}
            name = draw(st.one_of(st.none(), st.integers(-5, 5), st.text(max_size=3)))
            if name is not None or draw(st.booleans()):
                document["name"] = name
            if clean:
                document["assigned"] = list(draw(st.lists(st.sampled_from(declared), max_size=3)))
                document["correct"] = list(draw(st.lists(st.sampled_from(declared), max_size=3)))
            lines.append(json.dumps(document, ensure_ascii=draw(st.booleans())).encode())
        elif kind == "blank":
            lines.append(draw(st.sampled_from([b"", b"  ", b"\t"])))
        elif kind == "entries":
            lines.append(json.dumps({"set_entries": [3, 1, 2, 10]}).encode())
        elif kind == "bad":
            lines.append(draw(st.sampled_from(BAD_LINES)).encode("utf-8", "surrogatepass"))
        else:
            lines.append(b'{"assigned": ["a\xff"], "correct": []}')
    breaks = [draw(st.sampled_from([b"\n"] * 6 + [b"\r\n", b"\r"])) for _ in lines]
    if clean:
        breaks = [b"\n" if b == b"\r" else b for b in breaks]
    body = b"".join(line + end for line, end in zip(lines, breaks, strict=True))
    if lines and not draw(st.booleans()):
        body = body.rstrip(b"\r\n")
    if draw(st.booleans()):
        body = b"\xef\xbb\xbf" + body
    options: dict[str, Any] = {
        "categories": None if draw(st.booleans()) else declared,
        "unknown": draw(st.sampled_from([None, "ignore", "error"])),
        "conventions": draw(st.sampled_from(["default", "statistics-contingency"])),
    }
    return body, options


def outcome(read: Any) -> tuple[str, Any]:
    """What a read gives: the Tally's whole state, or the error's type and message."""
    try:
        tally = read()
    except Exception as error:
        return type(error).__name__, str(error)
    assert isinstance(tally, Tally)
    return "tally", (
        tally.categories,
        tally.counts.tolist(),
        tally.pooled.tolist(),
        tally.documents,
        tally.ignored,
    )


def exact_text_reading(path: Path, options: dict[str, Any]) -> Tally:
    """The exact reader on the file read as text, one line at a time, as before."""
    from informed.tally.state import unknown_policy

    unknown = unknown_policy(options["unknown"], options["conventions"])
    with path.open(encoding="utf-8-sig") as handle:
        return read_lines(
            handle, f"{path}, ", options["categories"], unknown, options["conventions"]
        )


def by_regions(path: Path, options: dict[str, Any], fast: bool) -> Tally:
    from informed.tally.state import unknown_policy

    unknown = unknown_policy(options["unknown"], options["conventions"])
    reader = Reader(f"{path}, ", options["categories"], unknown, options["conventions"])
    read_file(path, reader, fast=fast)
    return reader.tally()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=document_files(), region=st.sampled_from([1, 40, 120, 1 << 23]), bitmap=st.booleans())
def test_fast_route_equals_the_exact_reader(
    tmp_path_factory: pytest.TempPathFactory,
    data: tuple[bytes, dict[str, Any]],
    region: int,
    bitmap: bool,
) -> None:
    """Same Tally, or the same error with the same message, whatever the regions."""
    body, options = data
    path = tmp_path_factory.mktemp("jsonl") / "documents.jsonl"
    path.write_bytes(body)
    with small_regions(region, bitmap=bitmap):
        fast = outcome(lambda: read_jsonl(path, **options))
        slow = outcome(lambda: by_regions(path, options, fast=False))
    assert fast == slow
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:  # as text, such a file was a traceback; now a line's error
        assert fast[0] in {"InputError", "InputTypeError"}
        return
    assert fast == outcome(lambda: exact_text_reading(path, options))


def test_clean_regions_are_counted_in_bulk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A well-formed file passes through the exact reader's `line` only for its first line."""
    rng = np.random.default_rng(5)
    names = [f"c{j}" for j in range(7)]
    lines = [json.dumps({"categories": names})]
    for i in range(3000):
        lines.append(
            json.dumps(
                {
                    "assigned": [names[j] for j in np.flatnonzero(rng.random(7) < 0.3)],
                    "correct": [names[j] for j in np.flatnonzero(rng.random(7) < 0.3)],
                    "name": f"doc {i}",
                }
            )
        )
    path = tmp_path / "clean.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    calls = []
    original = Reader.line

    def counted(self: Reader, number: int, raw: str | bytes) -> None:
        calls.append(number)
        original(self, number, raw)

    monkeypatch.setattr(Reader, "line", counted)
    with small_regions(20_000):
        fast = read_jsonl(path)
    assert calls == [1]
    assert fast == read_lines(lines, "", None, "error", "default")


def test_invalid_utf8_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: a byte that is not UTF-8 was a UnicodeDecodeError traceback."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(
        b'{"categories": ["a"]}\n{"assigned": ["a"], "correct": []}\n{"assigned": ["a\xff"], "correct": []}\n'
    )
    with pytest.raises(InputError, match=r"line 3: not valid UTF-8 \(byte 0xff at column 17\)"):
        read_jsonl(path)
    assert main(["tally", str(path)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "line 3: not valid UTF-8" in error


@pytest.mark.parametrize("region", [1, 1 << 23])
@pytest.mark.parametrize("declared", [True, False])
@pytest.mark.parametrize("unknown", ["error", "ignore"])
@pytest.mark.parametrize(
    "bad",
    [line.encode("utf-8", "surrogatepass") for line in BAD_LINES]
    + [
        b'{"assigned": ["a"],\r"correct": []}',  # a lone CR breaks the line in text mode
        b'{"assigned": ["a\xff"], "correct": []}',
        b'{"assigned": ["zz"], "correct": ["a", "a"]}',
        b"",
        b"   ",
    ],
)
def test_each_odd_line_anywhere_in_a_fast_region(
    tmp_path: Path, bad: bytes, unknown: str, declared: bool, region: int
) -> None:
    """One odd line among well-formed documents: the same Tally or the same message."""
    head = (
        b'{"categories": ["a", "b"]}\n' if declared else b'{"assigned": ["a"], "correct": ["b"]}\n'
    )
    clean = b'{"assigned": ["a", "b"], "correct": ["b"], "name": "d"}\n'
    path = tmp_path / "odd.jsonl"
    path.write_bytes(head + clean * 3 + bad + b"\n" + clean * 2)
    options: dict[str, Any] = {"categories": None, "unknown": unknown, "conventions": "default"}
    with small_regions(region):
        fast = outcome(lambda: read_jsonl(path, unknown=unknown))  # type: ignore[arg-type]
    assert fast == outcome(lambda: by_regions(path, options, fast=False))
    if b"\xff" not in bad:
        assert fast == outcome(lambda: exact_text_reading(path, options))
