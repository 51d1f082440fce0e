"""A terminal narrower than the report: the report is drawn at the terminal's width down
to MIN_WIDTH (40 columns), a table too wide shared out over tables that fit (`narrow`),
each repeating its key columns. The reports were drawn at least 64 columns wide, so in a
50-column terminal most lines ran over and the terminal wrapped them into a ragged mess
(`script -qc "stty cols 50; informed demo" /dev/null`)."""

from __future__ import annotations

import contextlib
import io
import re
from collections import Counter

import pytest

from informed._terminal import MIN_WIDTH
from informed.cli import main, output

NUMBER = re.compile(r"-?\d+\.\d+")
INTERVAL = re.compile(r"\[-?\d+\.\d+, -?\d+\.\d+\]")


def _demo(width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr(output, "terminal_width", lambda: width)
    code = main(["demo", "--html", ""])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


@pytest.fixture(scope="module")
def wide() -> str:
    buffer = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(output, "terminal_width", lambda: 200)
        with contextlib.redirect_stdout(buffer):
            assert main(["demo", "--html", ""]) == 0
    return buffer.getvalue()


@pytest.mark.parametrize("width", [60, 50, MIN_WIDTH])
def test_the_demo_fits_a_narrow_terminal_with_every_number_whole(
    width: int,
    wide: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No line wider than the terminal, no number cut to "…", and every number and
    interval of the 200-column report shown whole, at least as often (a split table
    repeats its keys)."""
    text = _demo(width, monkeypatch, capsys)
    assert max(len(line) for line in text.splitlines()) <= width
    assert not re.search(r"\d…", text)
    assert Counter(INTERVAL.findall(text)) == Counter(INTERVAL.findall(wide))
    assert not Counter(NUMBER.findall(wide)) - Counter(NUMBER.findall(text))


def test_below_the_narrowest_width_the_report_is_drawn_at_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _demo(30, monkeypatch, capsys)
    assert max(len(line) for line in text.splitlines()) == MIN_WIDTH
