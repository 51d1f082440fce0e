"""The overall rules of a table of K labels, against a brute force written here (issue 10,
items 1 and 2): every averaged rule follows `undefined` in every entry point, and a nan
overall value names the label and the margin that made it so.

The brute force restates Powers (2003) plainly, with loops over labels: each label's
one-vs-rest cells, the binary measure by its formula, the label's weight (1, pR, pP) and
the arithmetic, harmonic or geometric mean; correlation is sign(B + M) sqrt(B M).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from informed import MEASURES, Table, average, evaluate
from informed.inference import bootstrap, permutation_test
from informed.measures import Average, SignedGeometric

FAST = settings(max_examples=80, deadline=None)
NAN = math.nan


def _div(a: float, b: float) -> float:
    return a / b if b else NAN


# the binary measures by their formulas, from a label's one-vs-rest (tp, fp, fn, tn)
def _f(tp: float, fp: float, fn: float, tn: float) -> float:
    p, r = _div(tp, tp + fp), _div(tp, tp + fn)
    if tp + fp + fn == 0:
        return NAN
    if tp == 0:
        return 0.0
    return 1 / (0.5 / p + 0.5 / r)


def _inverse_f(tp: float, fp: float, fn: float, tn: float) -> float:
    return _f(tn, fn, fp, tp)


BINARY = {
    "recall": lambda tp, fp, fn, tn: _div(tp, tp + fn),
    "inverse_recall": lambda tp, fp, fn, tn: _div(tn, fp + tn),
    "precision": lambda tp, fp, fn, tn: _div(tp, tp + fp),
    "inverse_precision": lambda tp, fp, fn, tn: _div(tn, fn + tn),
    "fallout": lambda tp, fp, fn, tn: _div(fp, fp + tn),
    "miss_rate": lambda tp, fp, fn, tn: _div(fn, tp + fn),
    "jaccard": lambda tp, fp, fn, tn: _div(tp, tp + fp + fn),
    "f_measure": _f,
    "inverse_f_measure": _inverse_f,
    "g_measure": lambda tp, fp, fn, tn: math.sqrt(_div(tp, tp + fp) * _div(tp, tp + fn)),
    "inverse_g_measure": lambda tp, fp, fn, tn: math.sqrt(_div(tn, fn + tn) * _div(tn, fp + tn)),
    "informedness": lambda tp, fp, fn, tn: _div(tp, tp + fn) + _div(tn, fp + tn) - 1,
    "markedness": lambda tp, fp, fn, tn: _div(tp, tp + fp) + _div(tn, fn + tn) - 1,
}

# Powers' rules: measure -> (per-label measure, weights, mean)
AVERAGED = {
    **{name: (name, "macro", "arithmetic") for name in BINARY if name != "markedness"},
    "informedness": ("informedness", "bias", "arithmetic"),
    "markedness": ("markedness", "prevalence", "arithmetic"),
    "average_f_measure": ("f_measure", "bias", "harmonic"),
    "average_g_measure": ("g_measure", "bias", "geometric"),
}


def _one_vs_rest(square: list[list[float]], k: int) -> tuple[float, float, float, float]:
    n = sum(map(sum, square))
    tp = square[k][k]
    fp = sum(square[k]) - tp
    fn = sum(row[k] for row in square) - tp
    return tp, fp, fn, n - tp - fp - fn


def _weight(square: list[list[float]], k: int, how: str) -> float:
    n = sum(map(sum, square))
    if how == "macro":
        return 1.0
    if how == "bias":
        return sum(square[k]) / n
    return sum(row[k] for row in square) / n


def brute_average(square: list[list[float]], name: str, undefined: str) -> float:
    """Powers' overall value of `name` by loops over the labels."""
    if name == "correlation":
        b = brute_average(square, "informedness", undefined)
        m = brute_average(square, "markedness", undefined)
        if math.isnan(b) or math.isnan(m):
            return NAN
        product = b * m
        if abs(product) < 1e-15:  # a zero B or M that the loops' rounding left at -1e-17
            return 0.0
        if product < 0:
            return NAN
        return math.copysign(math.sqrt(product), b + m)
    of, how, mean = AVERAGED[name]
    if sum(map(sum, square)) == 0:
        return NAN
    terms = []
    for k in range(len(square)):
        w = _weight(square, k, how)
        if w == 0:
            continue
        value = BINARY[of](*_one_vs_rest(square, k))
        if math.isnan(value):
            if undefined == "propagate":
                return NAN
            continue
        terms.append((w, value))
    total = sum(w for w, _ in terms)
    if not terms or total == 0:
        return NAN
    if mean == "arithmetic":
        return sum(w * v for w, v in terms) / total
    if mean == "harmonic":
        if any(v == 0 for _, v in terms):
            return 0.0
        return total / sum(w / v for w, v in terms)
    if any(v == 0 for _, v in terms):
        return 0.0
    return math.exp(sum(w * math.log(v) for w, v in terms) / total)


ISSUE_TABLE = [[50, 10, 0], [20, 60, 0], [1, 1, 0]]  # rows predicted; 'c' never occurs


def _table(square: list[list[int]]) -> Table:
    return Table.from_counts(square, rows="predicted", labels=list("abcdefg"[: len(square)]))


def test_every_averaged_rule_is_checked_here() -> None:
    """The brute force covers every rule of the registry that averages over labels."""
    averaged = {
        name for name, m in MEASURES.items() if isinstance(m.overall, Average | SignedGeometric)
    }
    assert averaged == {*AVERAGED, "correlation"}


def test_the_issue_example() -> None:
    """evaluate(undefined="omit") gives the 0.5634 that average(..., "bias", "omit") gives."""
    t = _table(ISSUE_TABLE)
    expected = brute_average(ISSUE_TABLE, "informedness", "omit")
    assert round(expected, 4) == 0.5634
    assert evaluate(t, undefined="omit").measures["informedness"] == pytest.approx(expected)
    assert average(t, "informedness", "bias", undefined="omit") == pytest.approx(expected)
    assert math.isnan(evaluate(t).measures["informedness"])


@pytest.mark.parametrize("name", [*AVERAGED, "correlation"])
@pytest.mark.parametrize("undefined", ["propagate", "omit"])
def test_issue_table_every_rule(name: str, undefined: str) -> None:
    """Each averaged rule on the issue's table, both policies, against the brute force."""
    value = evaluate(_table(ISSUE_TABLE), undefined=undefined).measures[name]
    assert value == pytest.approx(brute_average(ISSUE_TABLE, name, undefined), nan_ok=True)


squares = st.integers(2, 5).flatmap(
    lambda k: hnp.arrays(
        np.int64, (k, k), elements=st.sampled_from([0, 0, 0, 1, 2, 3, 5, 8, 13, 40])
    )
)


@FAST
@given(squares, st.sampled_from(["propagate", "omit"]))
@example(np.array([[1, 1, 1], [0, 0, 1], [0, 0, 0]]), "omit")  # markedness 0, or -5.6e-17
def test_evaluate_equals_the_brute_force(square: np.ndarray, undefined: str) -> None:
    """Tables with empty rows and columns, so that labels go undefined in many ways."""
    rows = square.tolist()
    result = evaluate(_table(rows), undefined=undefined)
    for name in [*AVERAGED, "correlation"]:
        expected = brute_average(rows, name, undefined)
        assert result.measures[name] == pytest.approx(expected, rel=1e-12, nan_ok=True), name


@pytest.mark.parametrize("undefined", ["propagate", "omit"])
def test_bootstrap_follows_undefined(undefined: str) -> None:
    """'c' never occurs in the issue's table: with "omit" informedness, correlation and
    average G are defined on it and in every replicate; with "propagate" they are nan on
    the table, so their intervals are nan."""
    names = ["informedness", "correlation", "average_g_measure", "markedness"]
    result = bootstrap(_table(ISSUE_TABLE), names, replicates=200, seed=3, undefined=undefined)
    for name in names:
        expected = brute_average(ISSUE_TABLE, name, undefined)
        interval = result.intervals[name]
        assert interval.estimate == pytest.approx(expected, nan_ok=True), name
        defined = ~np.isnan(result.distribution[name])
        if math.isnan(expected):
            assert math.isnan(interval.low) and math.isnan(interval.high), name
            assert interval.reason == evaluate(_table(ISSUE_TABLE)).reasons[name]
        else:
            assert defined.all() and interval.low <= expected <= interval.high, name


@pytest.mark.parametrize("undefined", ["propagate", "omit"])
def test_bootstrap_replicates_equal_the_brute_force(undefined: str) -> None:
    """Each replicate value is the brute-force rule of its replicate table: the replicate
    tables are drawn again from the same seed (one multinomial call over the non-zero
    cells, in row-major order; a zero cell stays zero) and compared."""
    square = np.array(ISSUE_TABLE)
    names = [*AVERAGED, "correlation"]
    result = bootstrap(_table(ISSUE_TABLE), names, replicates=50, seed=7, undefined=undefined)
    rng = np.random.default_rng(7)
    filled = square.ravel() > 0
    assert not filled.all()  # the table has empty cells, which must stay empty
    drawn = np.zeros((50, square.size), dtype=np.int64)
    probabilities = (square.ravel() / square.sum())[filled]
    drawn[:, filled] = rng.multinomial(int(square.sum()), probabilities, size=50)
    for name in names:
        expected = [brute_average(d.reshape(3, 3).tolist(), name, undefined) for d in drawn]
        got = result.distribution[name].tolist()
        assert got == pytest.approx(expected, rel=1e-12, nan_ok=True), name


def test_permutation_test_follows_undefined() -> None:
    t = _table(ISSUE_TABLE)
    omitted = permutation_test(t, "informedness", permutations=99, seed=0, undefined="omit")
    assert omitted.estimate == pytest.approx(brute_average(ISSUE_TABLE, "informedness", "omit"))
    assert omitted.pvalue < 0.05
    assert math.isnan(permutation_test(t, "informedness", permutations=99, seed=0).estimate)


# ---------------------------------------------------------------------- reasons (item 2)
def test_reason_names_the_label_and_the_vanished_margin() -> None:
    """The issue's example: 'c' occurs but is never predicted; markedness weights by
    prevalence, so it is undefined, and the reason says so."""
    t = _table([[5, 1, 2], [2, 6, 1], [0, 0, 0]])
    reason = evaluate(t).reasons["markedness"]
    assert reason.startswith("label 'c' occurs (pR = 0.176) but is never predicted")
    assert "(its +P margin is empty)" in reason and 'undefined="omit"' in reason
    # informedness weights by bias: 'c' is never predicted, so it does not count
    assert not math.isnan(evaluate(t).measures["informedness"])


@pytest.mark.parametrize(
    ("square", "name", "expected"),
    [
        (
            ISSUE_TABLE,
            "informedness",
            "label 'c' is predicted (pP = 0.0141) but never occurs"
            " (its +R margin is empty), so its informedness is undefined",
        ),
        (
            ISSUE_TABLE,
            "average_g_measure",
            "label 'c' is predicted (pP = 0.0141) but never "
            "occurs (its +R margin is empty), so its G-measure is undefined",
        ),
        (ISSUE_TABLE, "correlation", "informedness is undefined: label 'c' is predicted"),
        (
            ISSUE_TABLE,
            "recall",
            "label 'c' never occurs (its +R margin is empty), so its recall is undefined",
        ),
        (
            [[5, 1, 2], [2, 6, 1], [0, 0, 0]],
            "precision",
            "label 'c' is never predicted (its +P margin is empty), so its precision is undefined",
        ),
        (
            [[5, 1, 2], [2, 6, 1], [0, 0, 0]],
            "correlation",
            "markedness is undefined: label 'c' occurs",
        ),
        (
            [[4, 0, 0], [0, 0, 0], [0, 0, 0]],
            "inverse_recall",
            "label 'a' is the actual label of every case (its -R margin is empty)",
        ),
        (
            [[4, 0, 0], [0, 0, 0], [0, 0, 0]],
            "jaccard",
            "label 'b' is never predicted and "
            "never occurs (tp + fp + fn = 0), so its jaccard is undefined (as is that of 1 "
            "more: 'c')",
        ),
        (
            [[3, 4], [0, 0]],
            "markedness",
            "label 'a' occurs (pR = 0.429) but is predicted for "
            "every case (its -P margin is empty)",
        ),
    ],
)
def test_reasons_of_other_tables(square: list[list[int]], name: str, expected: str) -> None:
    result = evaluate(_table(square))
    assert math.isnan(result.measures[name])
    assert result.reasons[name].startswith(expected), result.reasons[name]


def test_correlation_reason_when_signs_differ() -> None:
    """B > 0 > M: both defined, their signed geometric mean is not."""
    square = [[3, 2, 3], [2, 2, 3], [2, 2, 2]]
    result = evaluate(_table(square))
    b, m = result.measures["informedness"], result.measures["markedness"]
    assert b * m < 0, (b, m)
    assert math.isnan(result.measures["correlation"])
    assert result.reasons["correlation"] == (
        f"informedness ({b:.4g}) and markedness ({m:.4g}) differ in sign, so their signed "
        "geometric mean is undefined"
    )


def test_reason_when_omit_leaves_nothing() -> None:
    """Every label of positive weight is undefined: "omit" cannot help, and says so."""
    result = evaluate(_table([[5, 0], [0, 0]]), undefined="omit")
    assert result.reasons["informedness"] == (
        "label 'a' is predicted (pP = 1) but is the actual label of every case (its -R "
        "margin is empty), so its informedness is undefined; no label of positive weight "
        "has a defined value to average"
    )


@FAST
@given(squares, st.sampled_from(["propagate", "omit"]))
def test_every_averaged_nan_names_an_undefined_label(square: np.ndarray, undefined: str) -> None:
    """Whenever an averaged rule is nan on a non-empty table, its reason names a label
    whose own value is nan and which counts in the average."""
    if square.sum() == 0:
        return
    result = evaluate(_table(square.tolist()), undefined=undefined)
    for name, measure in MEASURES.items():
        rule = measure.overall
        if not isinstance(rule, Average) or not math.isnan(result.measures[name]):
            continue
        reason = result.reasons[name]
        label = reason.split("'")[1]
        assert math.isnan(result.per_label[label][rule.of]), (name, reason)
        assert "margin is empty" in reason or "= 0)" in reason, reason


def test_renaming_labels_keeps_the_bits_of_every_average() -> None:
    """Near M = 0, correlation sqrt(B M) magnified a last-bit difference of the sum order
    (1.99e-9 against 2.44e-9 for the same data under two namings); the averages now sum
    their terms in sorted order, so a renaming cannot change them at all."""
    data = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 3), (1, 3), (2, 2), (3, 2), (3, 3)]
    names = ["w", "y", "x", "z"]
    a = Table.from_labels(actual=[x for x, _ in data], predicted=[y for _, y in data])
    b = Table.from_labels(actual=[names[x] for x, _ in data], predicted=[names[y] for _, y in data])
    ra, rb = evaluate(a), evaluate(b)
    for name in [*AVERAGED, "correlation"]:
        assert ra.measures[name] == rb.measures[name] or (
            math.isnan(ra.measures[name]) and math.isnan(rb.measures[name])
        ), name


def test_docs_state_each_overall_rule() -> None:
    """docs/measures.md's "overall" column says what the registry's rule does."""
    import re
    from pathlib import Path

    from informed.measures import per_label_only

    def described(name: str) -> str:
        rule = MEASURES[name].overall
        if isinstance(rule, Average):
            if rule.of == name and rule.mean == "arithmetic":
                return rule.weights
            return f"{rule.weights}, {rule.mean} mean of `{rule.of}`"
        if isinstance(rule, SignedGeometric):
            return f"signed geometric mean of `{rule.first.of}` and `{rule.second.of}`"
        return "per label only" if rule is per_label_only else "table"

    text = (Path(__file__).resolve().parents[2] / "docs" / "measures.md").read_text()
    rows = [line.split(" | ") for line in text.splitlines() if re.match(r"\| `\w+` \|", line)]
    assert {row[0][3:-1]: row[3] for row in rows} == {n: described(n) for n in MEASURES}
