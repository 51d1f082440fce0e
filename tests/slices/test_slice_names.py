"""Slice names are distinct for distinct slices: the missing slice is `missing`, the text
"missing" is `"missing"`, crossed names cannot run into each other, and true, 1 and "1"
are three slices of `informed tally --by`, each with its own documents."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from informed.cli.main import main
from informed.coding.labels import keyed
from informed.errors import InputError
from informed.slices import Slices


def _distinct_by_kind(values: list[object]) -> list[tuple[str, object]]:
    """The distinct values of a JSON field as informed should slice them: by kind (a
    boolean is no number) and value, null its own slice; written here, not imported."""
    seen: list[tuple[str, object]] = []
    for value in values:
        kind = (
            "missing"
            if value is None
            else "bool"
            if isinstance(value, bool)
            else "str"
            if isinstance(value, str)
            else "number"
        )
        if (kind, value) not in seen:
            seen.append((kind, value))
    return seen


def test_informed_tally_by_keeps_true_1_and_the_text_1_apart(tmp_path: Path, capsys) -> None:
    """`informed tally --by g` on a JSON-lines file whose field holds true, 1, "1",
    "missing", null (and no field): five slices, every document counted in its own, each
    slice's micro counts those of its documents, and five distinct names."""
    values = [True, 1, "1", True, None, "missing", 1, "1", "missing", True, "absent"]
    lines = []
    for i, value in enumerate(values):
        record: dict[str, object] = {"assigned": ["x"] if i % 3 else ["y"], "correct": ["x"]}
        if value != "absent":
            record["g"] = value
        lines.append(record)
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n")

    assert main(["tally", str(path), "--by", "g"]) == 0
    text = capsys.readouterr().out
    assert f"5 slices, {len(values)} documents, 2 categories" in text
    assert main(["tally", str(path), "--by", "g", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    slices = document["slices"]

    field = [None if v == "absent" else v for v in values]
    expected = _distinct_by_kind(field)
    assert len(slices) == len(expected) == 5
    found = {(_kind(e["key"][0]), e["key"][0]): e for e in slices}
    assert set(found) == set(expected)
    for kind, value in expected:
        mine = [
            r
            for r, v in zip(lines, field, strict=True)
            if _kind(v) == kind and v == value  # 1 == True in Python: the kind tells them apart
        ]
        entry = found[(kind, value)]
        assert entry["documents"] == len(mine), (kind, value)
        true_positives = sum("x" in r["assigned"] for r in mine)  # every document is "x"
        assert entry["tally"]["micro"]["recall"] == pytest.approx(true_positives / len(mine))
    names = [e["name"] for e in slices]
    assert len(set(names)) == len(names)
    assert found[("missing", None)]["name"] == "missing"
    assert found[("str", "missing")]["name"] == '"missing"'
    assert found[("str", "1")]["name"] == '"1"'  # beside the number 1 in the same field
    assert found[("number", 1)]["name"] == "1"
    assert found[("bool", True)]["name"] == "True"


def _kind(value: object) -> str:
    if value is None:
        return "missing"
    return keyed(value)[0]  # type: ignore[arg-type]


def test_the_missing_slice_and_the_text_missing_have_two_names_and_are_both_reached() -> None:
    """None and "missing" are two slices with two names; `index(None)` and `named("missing")`
    reach the missing slice, `index("missing")` and `named('"missing"')` the text."""
    found = Slices.from_labels(
        by=[None, "missing", "a", "missing", None, None],
        actual=[1, 0, 1, 1, 0, 1],
        predicted=[1, 0, 0, 1, 1, 1],
    )
    assert found.keys == (("a",), ("missing",), (None,))
    assert [found.name(k) for k in found.keys] == ["a", '"missing"', "missing"]
    assert found.rows.tolist() == [1, 2, 3]
    assert found.index(None) == 2 and found.index("missing") == 1
    assert found.named("missing") == (None,) and found.named('"missing"') == ("missing",)
    with pytest.raises(InputError, match=r"'b' is not a slice; the slices are \['a', "):
        found.named("b")
    again = Slices.from_json(found.to_json())
    assert again == found
    assert [again.name(k) for k in again.keys] == ["a", '"missing"', "missing"]


def test_text_that_would_read_as_something_else_is_quoted() -> None:
    """Empty text, a leading quote, whitespace at an end and a control character are
    quoted as JSON writes them; plain text, numbers and booleans are written as they are."""
    cases = {
        "": '""',
        '"a"': '"\\"a\\""',
        " a": '" a"',
        "a\tb": '"a\\tb"',
        "a\\tb": "a\\tb",  # a backslash and a t: as written
        "a b": "a b",
        "missing value": "missing value",
    }
    found = Slices.from_labels(by=list(cases), actual=[1] * len(cases), predicted=[1] * len(cases))
    named = {k[0]: found.name(k) for k in found.keys}
    assert named == cases
    assert all(json.loads(n) == v for v, n in named.items() if n.startswith('"'))
    numbers = Slices.from_labels(by=[1, 2.5, 1], actual=[1, 0, 1], predicted=[1, 0, 1])
    assert [numbers.name(k) for k in numbers.keys] == ["1", "2.5"]


PIECES = ["x", "y", ", ", "b=", "=", '"', "missing", " ", ""]


def test_crossed_names_are_distinct_for_every_pair_of_keys() -> None:
    """Over every crossed key made of up to two pieces that could fool a joined name
    (", ", "=", a quote, "missing", spaces, nothing) and the missing value, distinct keys
    have distinct names; each name is reached by `named`."""
    texts = sorted({a + b for a, b in itertools.product(PIECES, repeat=2)})
    values: list[object] = [*texts, None]
    rng = np.random.default_rng(0)
    n = 4000
    first = [values[i] for i in rng.integers(0, len(values), n)]
    second = [values[i] for i in rng.integers(0, len(values), n)]
    found = Slices.from_labels(
        by=[first, second], names=["a", "b"], actual=[1] * n, predicted=[1] * n
    )
    names = [found.name(k) for k in found.keys]
    assert len(set(names)) == len(names) == len(found.keys)
    assert len(found.keys) == len({(a, b) for a, b in zip(first, second, strict=True)})
    # the two keys of the issue, each of which joined bare reads "a=x, b=y, b=z"
    pair = Slices.from_labels(
        by=[["x, b=y", "x"], ["z", "y, b=z"]], names=["a", "b"], actual=[1, 0], predicted=[1, 0]
    )
    assert [pair.name(k) for k in pair.keys] == ['a=x, b="y, b=z"', 'a="x, b=y", b=z']
    for key, name in zip(found.keys[:200], names[:200], strict=True):
        assert found.named(name) == key


def test_names_must_match_the_crossed_columns() -> None:
    """`names` with fewer or more names than `by` columns is a one-line InputError."""
    for names in (["g"], ["g", "h", "i"]):
        with pytest.raises(InputError, match=f"`names` gives {len(names)} name"):
            Slices.from_labels(
                by=[["a", "b"], ["x", "y"]], names=names, actual=[1, 0], predicted=[1, 0]
            )
    with pytest.raises(InputError, match="gives 2 names for 1 `by` column"):
        Slices.from_labels(by=["a", "b"], names=["g", "h"], actual=[1, 0], predicted=[1, 0])
    from informed.slices.tallies import slice_tallies

    with pytest.raises(InputError, match="gives 1 name for 2 `by` columns"):
        slice_tallies([["a"], ["b"]], [[1]], [[1]], categories=["x"], names=["g"])


def _file(tmp_path: Path) -> Path:
    """Groups: blank (the missing slice), the text "missing", and "web": 40 rows each."""
    rng = np.random.default_rng(1)
    lines = ["group,actual,predicted"]
    for group, hit in (("", 0.9), ("missing", 0.6), ("web", 0.75)):
        for _ in range(40):
            actual = int(rng.integers(0, 2))
            predicted = actual if rng.random() < hit else 1 - actual
            lines.append(f"{group},{actual},{predicted}")
    path = tmp_path / "groups.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_names_both_slices_apart_and_reference_reaches_each(tmp_path: Path, capsys) -> None:
    """`informed evaluate --by group` lists `missing` and `"missing"` as two rows, and
    `--reference missing` compares with the blank rows, `--reference '"missing"'` with
    the text; the JSON's reference key is [null] or ["missing"]."""
    path = _file(tmp_path)
    base = ["evaluate", str(path), "--actual", "actual", "--predicted", "predicted"]
    base += ["--positive", "1", "--by", "group", "--seed", "0"]
    assert main(base) == 0
    text = capsys.readouterr().out
    rows = {line.split()[0] for line in text.splitlines()[3:6]}
    assert rows == {"missing", '"missing"', "web"}
    for typed, key in (("missing", [None]), ('"missing"', ["missing"])):
        assert main([*base, "--reference", typed, "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["reference"] == key
        names = {e["name"]: e["key"] for e in document["slices"]}
        assert names == {"missing": [None], '"missing"': ["missing"], "web": ["web"]}
        assert main([*base, "--reference", typed]) == 0
        assert f"that of {typed!r} (the reference)" in capsys.readouterr().out
    assert main([*base, "--reference", "nothing"]) == 2
    assert re.search(r"--reference 'nothing' is not a slice", capsys.readouterr().err)


def test_the_page_and_the_plot_name_both_slices_apart(tmp_path: Path) -> None:
    """The HTML page has a row for each of the two slices, and the forest plot's labels
    tell them apart."""
    import matplotlib

    matplotlib.use("Agg")
    from informed import plot_slices
    from informed.inference import bootstrap_slices

    path = _file(tmp_path)
    page = tmp_path / "page.html"
    assert (
        main(
            [
                "evaluate",
                str(path),
                "--actual",
                "actual",
                "--predicted",
                "predicted",
                "--by",
                "group",
                "--html",
                str(page),
                "--format",
                "json",
            ]
        )
        == 0
    )
    html = page.read_text()
    assert 'data-slice="missing"' in html and 'data-slice="&quot;missing&quot;"' in html
    found = Slices.from_labels(by=[None, "missing", None], actual=[1, 0, 1], predicted=[1, 0, 0])
    result = bootstrap_slices(found, ["informedness"], replicates=20, seed=0)
    ax = plot_slices(result)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(labels) == sorted(['"missing"', "missing"])
