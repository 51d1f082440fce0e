"""`informed tally FILE --html`: the page of a tally, its numbers read back from the page
against the tally's own values, its intervals and method said, user text escaped."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from report_dom import parse

from informed._markup import number
from informed.cli.main import main
from informed.io import read_jsonl
from informed.tally import summarize_tally

HOSTILE = "<script>alert(1)</script>"
CATEGORIES = ["sports", "politics", HOSTILE, "never"]


def _file(tmp_path: Path) -> Path:
    lines = [json.dumps({"categories": CATEGORIES})]
    for k in range(90):
        correct = ["sports"] if k % 3 else ["politics", HOSTILE]
        assigned = ["sports"] if k % 4 else ["politics"]
        lines.append(json.dumps({"assigned": assigned, "correct": correct}))
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _page(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    target = tmp_path / "tally.html"
    code = main(["tally", str(_file(tmp_path)), "--html", str(target), *extra])
    capsys.readouterr()
    assert code == 0
    return target.read_text(encoding="utf-8")


def test_the_page_shows_the_tallys_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Micro and macro rows and each category's row carry the values summarize_tally
    gives; every category is in the plot; the method of the intervals is said."""
    page = _page(tmp_path, capsys)
    root = parse(page)
    summary = summarize_tally(read_jsonl(_file(tmp_path)))
    for row in root.by_id("tally-overall").find_all("tr")[1:]:
        name = row.attrs["data-measure"]
        cells = [c.text() for c in row.find_all("td")]
        assert cells[0] == number(summary.micro[name]), name
        assert cells[3] == number(summary.macro[name]), name
    for row in root.by_id("tally-categories").find_all("tr")[1:]:
        category = row.attrs["data-category"]
        cells = [c.text() for c in row.find_all("td")]
        assert cells[7] == number(summary.per_category[category]["informedness"])
    ticks = " ".join(t.text() for t in root.by_id("figure-tally").find_all("text"))
    assert "sports" in ticks and "politics" in ticks
    method = root.by_id("tally-method").text()
    assert "Wilson's score interval" in method and "no bootstrap of documents" in method
    assert "Wilson, E. B. (1927)" in page and "Statistics::Contingency 0.09" in page


def test_user_text_is_escaped_and_nothing_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _page(tmp_path, capsys)
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert not parse(page).find_all("script")


def test_undefined_values_say_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The category never true: its recall and informedness are undefined, with the
    reason, and the macro averages over it are undefined, naming it."""
    root = parse(_page(tmp_path, capsys))
    row = next(
        r
        for r in root.by_id("tally-categories").find_all("tr")[1:]
        if r.attrs.get("data-category") == "never"
    )
    assert "undefined" in row.text()
    assert "no real positives" in root.by_id("tally-per-category").text()
    macro = next(
        r
        for r in root.by_id("tally-overall").find_all("tr")[1:]
        if r.attrs["data-measure"] == "informedness"
    )
    assert "'never'" in macro.text()


def test_the_level_of_the_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = _page(tmp_path, capsys, "--ci", "0.8", "--seed", "3")
    assert "80 % interval" in page and "95 % interval" not in page


def test_ci_without_html_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tally", str(_file(tmp_path)), "--ci", "0.9"])
    assert code == 2
    assert "--ci sets the level of the HTML page's intervals" in capsys.readouterr().err


def test_an_unwritable_html_path_fails_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked before any work: nothing printed, the path named."""
    target = tmp_path / "no" / "such" / "tally.html"
    code = main(["tally", str(_file(tmp_path)), "--html", str(target)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and str(target) in err
    source = _file(tmp_path)
    code = main(["tally", str(source), "--html", str(source)])
    assert code == 2 and "--html" in capsys.readouterr().err
    assert source.read_text(encoding="utf-8").startswith('{"categories"')


def test_intervals_hold_the_estimate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every interval the page writes holds the value beside it (read from the page)."""
    root = parse(_page(tmp_path, capsys))
    for row in root.by_id("tally-overall").find_all("tr")[1:]:
        cells = [c.text() for c in row.find_all("td")]
        for value, interval in ((cells[0], cells[1]), (cells[3], cells[4])):
            if interval == "—" or value == "undefined":
                continue
            low, high = (float(v) for v in interval.strip("[]").split(", "))
            assert low - 1e-4 <= float(value) <= high + 1e-4, (row.attrs, value, interval)
            assert not math.isnan(low)
