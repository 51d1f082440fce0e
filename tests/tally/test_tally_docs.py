"""docs/tally.md and the tour (docs/tour.md, the README's long sections) say what a Tally
does (issue 10, item 5): the table of conventions is checked row by row, and both show the
switch to the Perl module's values."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from informed.tally import Tally

ROOT = Path(__file__).resolve().parents[2]
TALLY_MD = (ROOT / "docs" / "tally.md").read_text(encoding="utf-8")
TOUR = (ROOT / "docs" / "tour.md").read_text(encoding="utf-8")
PERL_NAMES = {"precision": "precision", "recall": "recall", "F1": "f_measure"}
ROW = re.compile(
    r"^\| (\w+) \| [^|]+ \| \((\d+), (\d+), (\d+), (\d+)\) \| (\S+) \| (\S+)(?: \((.*)\))? \|$",
    re.M,
)
ROWS = ROW.findall(TALLY_MD)


def test_the_conventions_table_is_found() -> None:
    assert len(ROWS) == 8


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}{r[1:5]}" for r in ROWS])
def test_the_conventions_table_is_true(row: tuple[str, ...]) -> None:
    """Each row: the statistic of a one-category tally whose pooled table is (a, b, c, d),
    under the Perl conventions and the default ones, with the default's reason."""
    statistic, a, b, c, d, perl_value, default_value, reason = row
    name = PERL_NAMES.get(statistic, statistic)
    values = {}
    for conventions in ("statistics-contingency", "default"):
        t = Tally(["x"], conventions=conventions)  # type: ignore[arg-type]
        t.set_entries(int(a), int(b), int(c), int(d))
        values[conventions] = t.micro(name)
        if conventions == "default":
            assert (t.reason(name) or "") == reason
    assert values["statistics-contingency"] == float(perl_value)
    expected = float(default_value)
    assert values["default"] == expected or (math.isnan(expected) and math.isnan(values["default"]))


@pytest.mark.parametrize("text", [TOUR, TALLY_MD], ids=["docs/tour.md", "docs/tally.md"])
def test_the_snippets_show_the_conventions_switch(text: str) -> None:
    """A Tally snippet shows conventions="statistics-contingency" beside the default, and
    the text says plainly that the default gives nan where the module gives 0 or 1."""
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    tally_blocks = [block for block in blocks if "Tally(" in block]
    assert any('conventions="statistics-contingency"' in block for block in tally_blocks)
    plain = " ".join(text.replace("*", "").split())
    assert "nan where the module gives 0 or 1" in plain or (
        "nan where Statistics::Contingency gives 0 or 1" in plain
    )
