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


def test_add_results_takes_informeds_names_for_the_matrices() -> None:
    """add_results(actual=Y, predicted=P) (or y_true=, y_pred=) is add_results(P, Y): the
    Perl order puts the predicted matrix first, scikit-learn's puts the actual one first,
    so the names keep a transposed tally (precision and recall swapped) from happening."""
    actual = [[1, 0], [0, 1], [1, 1]]
    predicted = [[1, 1], [0, 1], [0, 0]]
    expected = Tally(["x", "y"])
    for a, p in zip(actual, predicted, strict=True):
        expected.add_result(
            [c for c, v in zip("xy", p, strict=True) if v],
            [c for c, v in zip("xy", a, strict=True) if v],
        )
    for keywords in (
        {"actual": actual, "predicted": predicted},
        {"y_true": actual, "y_pred": predicted},
    ):
        tally = Tally(["x", "y"])
        tally.add_results(**keywords)
        assert tally == expected
    with pytest.raises(TypeError, match="twice"):
        Tally(["x", "y"]).add_results(predicted, predicted=predicted, actual=actual)
    with pytest.raises(TypeError, match="needs two indicator matrices"):
        Tally(["x", "y"]).add_results(actual=actual)
