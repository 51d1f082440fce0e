"""A Tally behaves like a value (issue 20, item 12): `print(tally)` prints the Perl
module's statistics table, `repr` is one bounded line, `sum(tallies)` merges them."""

from __future__ import annotations

import pytest

from informed import Tally

# Statistics::Contingency 0.09's stats_table for these five add_result calls (the
# example of the Tally's docstring, printed by the Perl module)
PERL_TABLE = (
    "+---------------------------------------------+\n"
    "|   maR   maP  maF1    miR   miP  miF1    Err |\n"
    "| 0.556 0.667 0.600  0.500 0.750 0.600  0.267 |\n"
    "+---------------------------------------------+\n"
)


def _perl_example() -> Tally:
    t = Tally(["sports", "politics", "finance"], conventions="statistics-contingency")
    t.add_result(["sports", "finance"], ["sports"])
    t.add_result(["politics"], ["politics", "finance"])
    t.add_result([], ["finance"])
    t.add_result("sports", "sports")
    t.add_result(["unknowncat"], ["sports"])
    return t


def test_print_shows_the_stats_table(capsys: pytest.CaptureFixture[str]) -> None:
    """print(tally) prints Statistics::Contingency's stats_table, byte for byte."""
    print(_perl_example(), end="")
    assert capsys.readouterr().out == PERL_TABLE


def test_repr_is_one_bounded_line() -> None:
    """repr names the first 20 categories and how many more, on one line."""
    tally = Tally([f"c{k:04d}" for k in range(5000)])
    text = repr(tally)
    assert "\n" not in text and len(text) < 400
    assert "and 4,980 more" in text and "documents=0" in text


def test_sum_of_tallies_merges_them() -> None:
    """sum(tallies) equals left + right; the inputs are untouched."""
    left, right = Tally(["x", "y"]), Tally(["x", "y"])
    left.add_result("x", "x")
    right.add_result(["x", "y"], "y")
    total = sum([left, right])
    assert isinstance(total, Tally)
    assert total == left + right
    assert total.documents == 2 and left.documents == 1
    assert total is not left
    with pytest.raises(TypeError):
        _ = 1 + left  # type: ignore[operator]
