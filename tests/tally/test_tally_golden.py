"""Golden values for the multi-label Tally.

Sources: the formulas of seed 002 (Statistics::Contingency 0.09 documentation), worked by
hand on small tallies, and the "Reference vectors" of PITFALLS.md, which were obtained by
running the real Perl module 0.09. Expected numbers are written as fractions of the
counts, never computed by `informed`.
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import pytest

from informed.errors import InputError
from informed.tally import Tally
from informed.tally.stats_table import format_stats_table, sig_figs

PERL: Final = "statistics-contingency"
CATEGORIES = ["sports", "politics", "finance"]

# PITFALLS "Reference vectors": the five add_result calls, the last naming an unknown category.
REFERENCE_RESULTS = [
    (["sports", "finance"], ["sports"]),
    (["politics"], ["politics", "finance"]),
    ([], ["finance"]),
    ("sports", "sports"),
    (["unknowncat"], ["sports"]),
]

# stats_table and stats_table(2), verbatim from PITFALLS.md (Perl 0.09 output)
REFERENCE_TABLE_3 = (
    "+---------------------------------------------+\n"
    "|   maR   maP  maF1    miR   miP  miF1    Err |\n"
    "| 0.556 0.667 0.600  0.500 0.750 0.600  0.267 |\n"
    "+---------------------------------------------+\n"
)
REFERENCE_TABLE_2 = (
    "+--------------------------------------+\n"
    "|  maR  maP maF1   miR  miP miF1   Err |\n"
    "| 0.56 0.67 0.60  0.50 0.75 0.60  0.27 |\n"
    "+--------------------------------------+\n"
)


def reference_tally(conventions: str = PERL, categories: list[str] | None = None) -> Tally:
    tally = Tally(categories or CATEGORIES, unknown="ignore", conventions=conventions)  # type: ignore[arg-type]
    for assigned, correct in REFERENCE_RESULTS:
        tally.add_result(assigned, correct)
    return tally


# ---------------------------------------------------------------------- PITFALLS reference vectors
def test_reference_cells_per_category() -> None:
    """finance a=0 b=1 c=2 d=2, politics a=1 b=0 c=0 d=4, sports a=2 b=0 c=1 d=2 (PITFALLS)."""
    stats = reference_tally().category_stats()
    cells = {k: (v["a"], v["b"], v["c"], v["d"]) for k, v in stats.items()}
    assert cells == {"finance": (0, 1, 2, 2), "politics": (1, 0, 0, 4), "sports": (2, 0, 1, 2)}


def test_reference_per_category_statistics() -> None:
    """finance P=0 R=0 F1=0; politics P=R=F1=1; sports P=1 R=0.6667 F1=0.8 (PITFALLS)."""
    stats = reference_tally().category_stats()
    assert (stats["finance"]["precision"], stats["finance"]["recall"], stats["finance"]["F1"]) == (
        0,
        0,
        0,
    )
    assert (
        stats["politics"]["precision"],
        stats["politics"]["recall"],
        stats["politics"]["F1"],
    ) == (1, 1, 1)
    assert stats["sports"]["precision"] == 1
    assert stats["sports"]["recall"] == pytest.approx(2 / 3, abs=1e-15)
    assert stats["sports"]["F1"] == pytest.approx(0.8, abs=1e-15)  # 2*2 / (2*2 + 0 + 1)
    assert stats["sports"]["accuracy"] == pytest.approx(4 / 5, abs=1e-15)
    assert stats["finance"]["error"] == pytest.approx(3 / 5, abs=1e-15)


def test_reference_micro() -> None:
    """micro P=0.75 R=0.5 F1=0.6 acc=0.733333 err=0.266667 (PITFALLS; pooled a=3 b=1 c=3 d=8)."""
    t = reference_tally()
    assert t.pooled.tolist() == [[3, 1], [3, 8]]
    assert t.micro_precision() == 3 / 4
    assert t.micro_recall() == 3 / 6
    assert t.micro_F1() == pytest.approx(6 / 10, abs=1e-15)
    # Perl prints %.17g 0.73333333333333328 = 11/15 and 0.26666666666666666 = 4/15
    assert t.micro_accuracy() == 11 / 15
    assert t.micro_error() == 4 / 15


def test_reference_macro() -> None:
    """macro P=0.666667 R=0.555556 F1=0.6 acc=0.733333 err=0.266667 (PITFALLS)."""
    t = reference_tally()
    assert t.macro_precision() == pytest.approx((0 + 1 + 1) / 3, abs=1e-15)
    assert t.macro_recall() == pytest.approx((0 + 1 + 2 / 3) / 3, abs=1e-15)
    assert t.macro_F1() == pytest.approx((0 + 1 + 0.8) / 3, abs=1e-15)
    assert t.macro_accuracy() == pytest.approx(11 / 15, abs=1e-15)
    assert t.macro_error() == pytest.approx(4 / 15, abs=1e-15)


def test_reference_unknown_category_ignored_and_counted() -> None:
    """The Perl module drops 'unknowncat' silently; unknown="ignore" drops it and counts it."""
    t = reference_tally()
    assert t.ignored == {"unknowncat": 1}
    assert t.documents == 5


@pytest.mark.parametrize(("figures", "expected"), [(3, REFERENCE_TABLE_3), (2, REFERENCE_TABLE_2)])
def test_reference_stats_table(figures: int, expected: str) -> None:
    """stats_table() and stats_table(2) equal the Perl output byte for byte (PITFALLS)."""
    assert reference_tally().stats_table(figures) == expected


def test_stats_table_default_is_three_figures() -> None:
    """The seed: "the default is 3 significant digits"."""
    assert reference_tally().stats_table() == REFERENCE_TABLE_3


def test_stats_table_one_figure_keeps_perl_misalignment() -> None:
    """With 1 figure the values are 3 wide, and Perl's `' ' x (m - 4)` pads nothing, so the
    header is wider than the rule (output of the real module, run on this data)."""
    expected = (
        "+-------------------------------+\n"
        "|  maR  maP maF1   miR  miP miF1   Err |\n"
        "| 0.6 0.7 0.6  0.5 0.8 0.6  0.3 |\n"
        "+-------------------------------+\n"
    )
    assert reference_tally().stats_table(1) == expected


@pytest.mark.parametrize("figures", [0, -1, 2.5, True])
def test_stats_table_refuses_bad_figures(figures: object) -> None:
    """Perl turns 0 into 3 (`shift || 3`); here a figure count below 1 is an error."""
    with pytest.raises(InputError, match="figures"):
        reference_tally().stats_table(figures)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("number", "figures", "expected"),
    [
        (5 / 9, 3, "0.556"),
        (0.1, 3, "0.100"),  # log(0.1)/log(10) = -0.99999..., int() -> 0: 3 decimals
        (0.01, 3, "0.0100"),
        (0.001, 3, "0.00100"),
        (0.05, 3, "0.0500"),
        (0.0001, 3, "0.000100"),
        (1.0, 3, "1.000"),
        (0.0, 3, "0.000"),
        (0.999, 3, "0.999"),
        (0.9999, 3, "1.000"),
        (0.75, 1, "0.8"),  # exactly representable half: rounds to even, as C printf does
        (0.05, 1, "0.05"),
        (1.0, 1, "1.0"),
    ],
)
def test_sig_figs_matches_perl(number: float, figures: int, expected: str) -> None:
    """Values printed by Statistics::Contingency->_sig_figs(number, figures) under perl 5.36."""
    assert sig_figs(number, figures) == expected


def test_stats_table_layout_from_seven_values() -> None:
    """format_stats_table reproduces the Perl layout for any seven values (here those of
    the reference vector, as fractions)."""
    values = [5 / 9, 2 / 3, 0.6, 0.5, 0.75, 0.6, 4 / 15]
    assert format_stats_table(values) == REFERENCE_TABLE_3
    assert format_stats_table(values, 2) == REFERENCE_TABLE_2


def test_stats_table_prints_undefined_as_nan() -> None:
    """Default conventions: an undefined macro value prints as "nan", right-aligned.
    x: a=1 c=1; unused: d=2 -> macro nan; pooled a=1 b=0 c=1 d=2: R 1/2, P 1, F1 2/3, Err 1/4."""
    t = Tally(["x", "unused"])
    t.add_result("x", "x")
    t.add_result([], "x")
    assert t.stats_table() == (
        "+---------------------------------------------+\n"
        "|   maR   maP  maF1    miR   miP  miF1    Err |\n"
        "|   nan   nan   nan  0.500 1.000 0.667  0.250 |\n"
        "+---------------------------------------------+\n"
    )


# ---------------------------------------------------------------------- the same inputs, default conventions
def test_default_conventions_refuse_the_unknown_category() -> None:
    """By default an unknown category is an error naming the document (0-based) and category."""
    t = Tally(CATEGORIES)
    for assigned, correct in REFERENCE_RESULTS[:4]:
        t.add_result(assigned, correct)
    with pytest.raises(InputError, match=r"document 4: `assigned` names the category 'unknowncat'"):
        t.add_result(*REFERENCE_RESULTS[4])
    assert t.documents == 4


def test_default_conventions_on_the_reference_data() -> None:
    """Where every denominator is positive, the default conventions give the Perl values."""
    t = reference_tally("default")
    assert t.micro_precision() == 3 / 4
    assert t.micro_recall() == 1 / 2
    assert t.micro_F1() == 6 / 10
    assert t.micro_accuracy() == 11 / 15
    assert t.macro_precision() == pytest.approx(2 / 3, abs=1e-15)
    assert t.macro_recall() == pytest.approx(5 / 9, abs=1e-15)
    assert t.stats_table() == REFERENCE_TABLE_3
    stats = t.category_stats()
    assert stats["finance"]["precision"] == 0.0  # a=0, b=1: defined, 0/1


def test_unused_category_changes_micro_accuracy_and_macro() -> None:
    """PITFALLS P14: one unused category moves micro accuracy 0.7333 -> 0.8 (= 16/20) and
    macro P/R/F1 to 0.75/0.6667/0.70 under the Perl conventions; by default the unused
    category's P, R, F1 are undefined, so the macro averages are nan (or omit it)."""
    perl = reference_tally(PERL, [*CATEGORIES, "unused"])
    assert perl.micro_accuracy() == 16 / 20
    assert perl.macro_precision() == pytest.approx((0 + 1 + 1 + 1) / 4, abs=1e-15)
    assert perl.macro_recall() == pytest.approx((0 + 1 + 2 / 3 + 1) / 4, abs=1e-15)
    assert perl.macro_F1() == pytest.approx((0 + 1 + 0.8 + 1) / 4, abs=1e-15)
    default = reference_tally("default", [*CATEGORIES, "unused"])
    assert default.micro_accuracy() == 16 / 20
    assert math.isnan(default.macro_precision())
    assert math.isnan(default.macro_F1())
    assert default.macro("precision", undefined="omit") == pytest.approx(2 / 3, abs=1e-15)
    assert default.reason("precision", "unused") == "no +P predictions"
    assert default.reason("f_measure", "unused") is not None


# ---------------------------------------------------------------------- set_entries
@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ((0, 0, 5, 10), (0.0, 0.0, 0.0, 10 / 15)),
        ((0, 0, 0, 10), (1.0, 1.0, 1.0, 1.0)),
        ((3, 0, 0, 0), (1.0, 1.0, 1.0, 1.0)),
        ((0, 4, 0, 1), (0.0, 1.0, 0.0, 1 / 5)),
    ],
)
def test_set_entries_perl(cells: tuple[int, int, int, int], expected: tuple[float, ...]) -> None:
    """PITFALLS: set_entries(0,0,5,10) P=0 R=0 F1=0 acc=0.667; (0,0,0,10) 1,1,1,1;
    (3,0,0,0) P=R=F1=1; (0,4,0,1) P=0 R=1 F1=0 (acc = 1/5 by the seed's formula)."""
    t = Tally(CATEGORIES, conventions=PERL)
    t.set_entries(*cells)
    got = (t.micro_precision(), t.micro_recall(), t.micro_F1(), t.micro_accuracy())
    assert got == pytest.approx(expected, abs=1e-15)


def test_macro_after_set_entries_only_perl() -> None:
    """PITFALLS: set_entries sets only the pooled table; macro then averages the empty
    per-category tables: P = R = F1 = acc = 1 (and error 0)."""
    t = Tally(CATEGORIES, conventions=PERL)
    t.set_entries(0, 0, 5, 10)
    assert (t.macro_precision(), t.macro_recall(), t.macro_F1(), t.macro_accuracy()) == (1, 1, 1, 1)
    assert t.macro_error() == 0
    assert t.counts.tolist() == [[[0, 0], [0, 0]]] * 3
    assert t.documents == 0


def test_macro_after_set_entries_only_default() -> None:
    """Default conventions: the same per-category tables are empty, so every macro value is
    nan with the reason "no data"; micro describes the table that was set."""
    t = Tally(CATEGORIES)
    t.set_entries(0, 0, 5, 10)
    assert math.isnan(t.macro_precision())
    assert math.isnan(t.macro_accuracy())
    assert t.reason("accuracy", "sports") == "no data (N = 0)"
    assert t.micro_recall() == 0.0
    assert math.isnan(t.micro_precision())  # a + b = 0
    assert t.micro_accuracy() == 10 / 15


def test_set_entries_replaces_and_later_results_add() -> None:
    """set_entries replaces the pooled cells (it does not add), and add_result then adds to
    the cells given, as the Perl hash assignment does."""
    t = Tally(["x", "y"], conventions=PERL)
    t.add_result("x", "x")
    t.set_entries(1, 2, 3, 4)
    assert t.pooled.tolist() == [[1, 2], [3, 4]]
    t.add_result("x", "y")  # x: b, y: c
    assert t.pooled.tolist() == [[1, 3], [4, 4]]
    assert t.table("x").counts.tolist() == [[1, 1], [0, 0]]


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None, 2**63])
def test_set_entries_refuses_non_counts(bad: object) -> None:
    """Cells are whole non-negative int64 counts."""
    t = Tally(["x"])
    with pytest.raises((InputError, TypeError)):
        t.set_entries(bad, 0, 0, 0)  # type: ignore[arg-type]
    assert t.pooled.tolist() == [[0, 0], [0, 0]]


# ---------------------------------------------------------------------- one test per Perl convention
def _one(a: int, b: int, c: int, d: int, conventions: str) -> Tally:
    t = Tally(["x"], conventions=conventions)  # type: ignore[arg-type]
    t.add_results(
        [[1]] * a + [[1]] * b + [[0]] * c + [[0]] * d, [[1]] * a + [[0]] * b + [[1]] * c + [[0]] * d
    )
    return t


def test_convention_precision_nothing_assigned_nothing_missed() -> None:
    """precision(0, 0, 0, d) = 1 in Perl 0.09; nan ("no +P predictions") by default."""
    assert _one(0, 0, 0, 4, PERL).micro_precision() == 1.0
    default = _one(0, 0, 0, 4, "default")
    assert math.isnan(default.micro_precision())
    assert default.reason("precision") == "no +P predictions"


def test_convention_precision_nothing_assigned_something_missed() -> None:
    """precision(0, 0, c > 0, d) = 0 in Perl 0.09 (changed in 0.04; was 1); nan by default."""
    assert _one(0, 0, 2, 4, PERL).micro_precision() == 0.0
    assert math.isnan(_one(0, 0, 2, 4, "default").micro_precision())


def test_convention_recall_nothing_correct() -> None:
    """recall(a, b, 0, d) = 1 in Perl 0.09 (here a = 0, b = 3); nan by default."""
    assert _one(0, 3, 0, 1, PERL).micro_recall() == 1.0
    assert math.isnan(_one(0, 3, 0, 1, "default").micro_recall())


def test_convention_f1_no_errors_even_when_a_is_zero() -> None:
    """F1(a, 0, 0, d) = 1 in Perl 0.09, a = 0 included; nan for a = 0 by default (0/0) and
    1 for a > 0 (2a / 2a) under both."""
    assert _one(0, 0, 0, 5, PERL).micro_F1() == 1.0
    assert math.isnan(_one(0, 0, 0, 5, "default").micro_F1())
    assert _one(2, 0, 0, 5, "default").micro_F1() == 1.0


def test_convention_f1_no_hits() -> None:
    """F1(0, b, c, d) = 0 when b + c > 0, under both conventions (2*0 / (b + c))."""
    assert _one(0, 1, 2, 0, PERL).micro_F1() == 0.0
    assert _one(0, 1, 2, 0, "default").micro_F1() == 0.0


def test_convention_empty_table_accuracy_and_error() -> None:
    """Perl 0.09: accuracy of an empty table is 1 and error 0; default: nan, "no data"."""
    perl = Tally(["x"], conventions=PERL)
    assert (perl.micro_accuracy(), perl.micro_error()) == (1.0, 0.0)
    default = Tally(["x"])
    assert math.isnan(default.micro_accuracy())
    assert math.isnan(default.micro_error())
    assert default.reason("error") == "no data (N = 0)"


def test_convention_macro_over_all_declared_categories() -> None:
    """Macro = mean over every declared category, used or not: (1 + 1) / 2 under Perl (the
    unused one scores 1); the default propagates its nan."""
    perl = Tally(["x", "unused"], conventions=PERL)
    perl.add_result("x", [])  # x: b = 1 -> precision 0
    assert perl.macro_precision() == (0 + 1) / 2
    default = Tally(["x", "unused"])
    default.add_result("x", [])
    assert math.isnan(default.macro_precision())
    assert default.macro("precision", undefined="omit") == 0.0


def test_convention_other_measures_stay_nan_under_perl() -> None:
    """The Perl conventions cover its five statistics only: informedness of a table with
    no real positives is nan under both conventions."""
    t = _one(0, 3, 0, 1, PERL)
    assert math.isnan(t.micro("informedness"))


def test_perl_defines_f1_only() -> None:
    """Under the Perl conventions an F-measure with alpha != 0.5 is refused."""
    t = _one(1, 1, 1, 1, PERL)
    assert t.micro("f_measure", alpha=0.5) == 2 / 4
    with pytest.raises(InputError, match="only F1"):
        t.micro("f_measure", alpha=0.2)


# ---------------------------------------------------------------------- the seed's formulas, by hand
def test_seed_formulas_on_a_hand_made_tally() -> None:
    """Seed 002: accuracy (a+d)/n, error (b+c)/n, precision a/(a+b), recall a/(a+c),
    F1 2a/(2a+b+c); micro pools the cells, macro averages the categories.

    Six documents over x, y, z::

        doc  assigned  correct   x  y  z
        0    x y       x         a  b  d
        1    x         x z       a  d  c
        2    y z       y         d  a  b
        3    -         y         d  c  d
        4    x y z     x y z     a  a  a
        5    z         x         c  d  b

    x: a=3 b=0 c=1 d=2; y: a=2 b=1 c=1 d=2; z: a=1 b=2 c=1 d=2; pooled a=6 b=3 c=3 d=6.
    """
    t = Tally(["x", "y", "z"])
    docs = [
        (["x", "y"], ["x"]),
        (["x"], ["x", "z"]),
        (["y", "z"], ["y"]),
        ([], ["y"]),
        (["x", "y", "z"], ["x", "y", "z"]),
        (["z"], ["x"]),
    ]
    for assigned, correct in docs:
        t.add_result(assigned, correct)
    assert t.counts.tolist() == [[[3, 0], [1, 2]], [[2, 1], [1, 2]], [[1, 2], [1, 2]]]
    assert t.pooled.tolist() == [[6, 3], [3, 6]]
    assert t.micro_precision() == 6 / 9
    assert t.micro_recall() == 6 / 9
    assert t.micro_F1() == pytest.approx(12 / 18, abs=1e-15)
    assert t.micro_accuracy() == 12 / 18
    assert t.micro_error() == 6 / 18
    assert t.macro_precision() == pytest.approx((3 / 3 + 2 / 3 + 1 / 3) / 3, abs=1e-15)
    assert t.macro_recall() == pytest.approx((3 / 4 + 2 / 3 + 1 / 2) / 3, abs=1e-15)
    assert t.macro_F1() == pytest.approx((6 / 7 + 4 / 6 + 2 / 5) / 3, abs=1e-15)
    assert t.macro_accuracy() == pytest.approx((5 / 6 + 4 / 6 + 3 / 6) / 3, abs=1e-15)
    assert t.macro_error() == pytest.approx((1 / 6 + 2 / 6 + 3 / 6) / 3, abs=1e-15)
    # the seed: "macro-accuracy and micro-accuracy will always give the same number"
    assert t.macro_accuracy() == pytest.approx(t.micro_accuracy(), abs=1e-15)
    # F1 = 2pr/(p+r) for y: p = 2/3, r = 2/3
    assert t.per_category("f_measure")["y"] == pytest.approx(2 / 3, abs=1e-15)
    # a registry measure beyond the seed's five: informedness of x = 3/4 - 0/2
    assert t.per_category("informedness")["x"] == 3 / 4
    assert t.micro("informedness") == pytest.approx(6 / 9 - 3 / 9, abs=1e-15)
    assert t.per_category("markedness")["z"] == pytest.approx(1 / 3 - 1 / 3, abs=1e-15)


def test_repeated_category_counts_once() -> None:
    """A list is a set, as the Perl hash makes it: ["x", "x"] is one assignment."""
    t = Tally(["x"])
    t.add_result(["x", "x"], ["x"])
    assert t.counts.tolist() == [[[1, 0], [0, 0]]]


def test_category_table_orientation() -> None:
    """table(k) is the 2x2 Table with rows predicted: tp=a, fp=b, fn=c, tn=d."""
    t = Tally(["x"])
    t.add_result("x", [])
    t.add_result([], "x")
    t.add_result([], "x")
    view = t.table("x").one_vs_rest("+")
    assert (view.tp, view.fp, view.fn, view.tn) == (0, 1, 2, 0)
    assert t.pooled_table().counts.tolist() == [[0, 1], [2, 0]]
    assert np.array_equal(t.table("x").counts, t.counts[0])
