"""Weights of any range give true values: issue 20 ("never silently wrong"), items 2-4.

Tables of float weights drawn from 1 to 1e300 (and from 1e-200 up): every one-vs-rest view
equals the exact view (sums of `fractions.Fraction` of the weights) rounded once; every
registry measure, on a label's view and over the whole table, is within 1e-12 relative of
its exact value, computed here with Fractions from the formula the registry documents
(written again, independently of the library), or nan with a reason that is true of the
exact table. Sums of terms of both signs (an average of informedness over labels, mutual
information, R_K and kappa of more than two labels) round to within 1e-15 of the exact sum
near zero, so those also pass within 1e-15 absolute (and Powers' correlation of such
averages, sign(B) sqrt(B M), has B M within 2e-15); where such an average is within
rounding of 0, the sign of Powers' correlation is not known, and its reason says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from hypothesis import example, given, note, settings
from hypothesis import strategies as st

from informed import MEASURES, Table, evaluate
from informed.measures import MARGIN_REASONS, Average, SignedGeometric

PROPERTY = settings(max_examples=120, deadline=None)
Cell = Fraction
View = tuple[Fraction, Fraction, Fraction, Fraction]
MIXED_SIGNS = {"mutual_information", "informedness", "markedness", "correlation"}
MIXED_SIGNS_MULTICLASS = {"matthews_correlation", "kappa"}


@st.composite
def wide_weights(draw: st.DrawFn, lowest: int = 0, highest: int = 300) -> float:
    """0, or a weight m x 10^e with e anywhere in [lowest, highest]."""
    if draw(st.integers(0, 5)) == 0:
        return 0.0
    mantissa = draw(st.floats(1.0, 10.0))
    return float(mantissa * 10.0 ** draw(st.integers(lowest, highest)))


@st.composite
def wide_tables(draw: st.DrawFn, size: int | None = None) -> Table:
    """Square weighted tables of 2 to 4 labels, weights spanning up to 300 decades."""
    labels = size or draw(st.integers(2, 4))
    lowest = draw(st.sampled_from([0, -200]))
    weights = [
        [draw(wide_weights(lowest, lowest + 300)) for _ in range(labels)] for _ in range(labels)
    ]
    storage = draw(st.sampled_from(["dense", "sparse"]))
    return Table.from_counts(
        np.array(weights, dtype=np.float64), rows="predicted", weighted=True, storage=storage
    )


# ---------------------------------------------------------------------- exact oracle
def exact_square(table: Table) -> list[list[Fraction]]:
    """The table's cells as Fractions (rows predicted), over its labels."""
    counts = table.to_dense().counts
    return [[Fraction(float(x)) for x in row] for row in counts]


def exact_view(square: list[list[Fraction]], label: int) -> View:
    """tp, fp, fn, tn of one label, summed exactly from the cells."""
    size = len(square)
    tp = square[label][label]
    fp = sum((square[label][c] for c in range(size) if c != label), Fraction(0))
    fn = sum((square[r][label] for r in range(size) if r != label), Fraction(0))
    tn = sum(
        (square[r][c] for r in range(size) for c in range(size) if r != label and c != label),
        Fraction(0),
    )
    return tp, fp, fn, tn


def divide(a: Fraction, b: Fraction) -> Fraction | None:
    return a / b if b != 0 else None


def sqrt(x: Fraction) -> float:
    """sqrt of a non-negative Fraction to within an ulp, however small."""
    if x == 0:
        return 0.0
    shift = 0
    while float(x) < 1e-200:
        x *= 2**400
        shift += 200
    return math.sqrt(float(x)) * 2.0**-shift


def log2(x: Fraction) -> float:
    """log2 of a positive Fraction to within an ulp, near 1 too."""
    if abs(x - 1) < Fraction(1, 2):
        return math.log1p(float(x - 1)) / math.log(2)
    return math.log2(x.numerator) - math.log2(x.denominator)


def signed_root(b: Fraction | None, m: Fraction | None) -> float | None:
    if b is None or m is None or b * m < 0:
        return None
    sign = 1.0 if b + m > 0 else -1.0 if b + m < 0 else 0.0
    return sign * sqrt(abs(b)) * sqrt(abs(m))


def entropy(square: list[list[Fraction]], given: str) -> float | None:
    """H(R|P) (given "P": shares of rows) or H(P|R) ("R"), or I(P;R) ("I")."""
    rows = [sum(row, Fraction(0)) for row in square]
    cols = [sum(col, Fraction(0)) for col in zip(*square, strict=True)]
    total = sum(rows, Fraction(0))
    if total == 0:
        return None
    terms = []
    for r, row in enumerate(square):
        for c, n in enumerate(row):
            if n == 0:
                continue
            ratio = {"P": rows[r] / n, "R": cols[c] / n, "I": n * total / (rows[r] * cols[c])}
            terms.append(float(n / total) * log2(ratio[given]))
    return math.fsum(terms)


def exact_binary(name: str, view: View) -> Fraction | float | None:
    """The registry's documented formula of `name` on one 2x2 view, in exact arithmetic
    (None where a denominator is 0); rows predicted +P/-P, columns actual +R/-R."""
    tp, fp, fn, tn = view
    n = tp + fp + fn + tn
    det = tp * tn - fp * fn
    half = Fraction(1, 2)
    precision, recall = divide(tp, tp + fp), divide(tp, tp + fn)
    inverse_precision, inverse_recall = divide(tn, fn + tn), divide(tn, fp + tn)
    f = divide(tp, tp + half * fp + half * fn)
    inverse_f = divide(tn, tn + half * fn + half * fp)
    informedness = divide(det, (tp + fn) * (fp + tn))
    markedness = divide(det, (tp + fp) * (fn + tn))
    if name == "average_f_measure":
        weights = [(tp + fp, f), (fn + tn, inverse_f)]
        used = [(w, v) for w, v in weights if w > 0]
        if not used or any(v is None for _, v in used):
            return None
        if any(v == 0 for _, v in used):
            return Fraction(0)
        return sum((w for w, _ in used), Fraction(0)) / sum(w / v for w, v in used if v)
    if name in ("g_measure", "inverse_g_measure", "average_g_measure"):
        g = None if precision is None or recall is None else sqrt(precision) * sqrt(recall)
        ig = (
            None
            if inverse_precision is None or inverse_recall is None
            else sqrt(inverse_precision) * sqrt(inverse_recall)
        )
        if name != "average_g_measure":
            return g if name == "g_measure" else ig
        if n == 0:
            return None
        used = [(float((tp + fp) / n), g), (float((fn + tn) / n), ig)]
        used = [(w, v) for w, v in used if w > 0]  # a term of weight 0 is left out
        if any(v is None for _, v in used):
            return None
        if any(v == 0 for _, v in used):
            return 0.0
        return math.exp(math.fsum(w * math.log(v) for w, v in used) / math.fsum(w for w, _ in used))
    if name == "correlation":
        return signed_root(informedness, markedness)
    if name == "matthews_correlation":
        product = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        if product == 0:
            return None
        return math.copysign(sqrt(det * det / product), 1.0 if det >= 0 else -1.0)
    if name == "kappa":
        if n == 0:
            return None
        po = (tp + tn) / n
        pe = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / (n * n)
        return divide(po - pe, 1 - pe)
    if name in ("conditional_entropy", "conditional_entropy_given_actual", "mutual_information"):
        given = {"conditional_entropy": "P", "conditional_entropy_given_actual": "R"}
        return entropy([[tp, fp], [fn, tn]], given.get(name, "I"))
    formulas: dict[str, Callable[[], Fraction | None]] = {
        "recall": lambda: recall,
        "inverse_recall": lambda: inverse_recall,
        "precision": lambda: precision,
        "inverse_precision": lambda: inverse_precision,
        "fallout": lambda: divide(fp, fp + tn),
        "miss_rate": lambda: divide(fn, tp + fn),
        "accuracy": lambda: divide(tp + tn, n),
        "error": lambda: divide(fp + fn, n),
        "jaccard": lambda: divide(tp, tp + fp + fn),
        "f_measure": lambda: f,
        "inverse_f_measure": lambda: inverse_f,
        "informedness": lambda: informedness,
        "markedness": lambda: markedness,
        "bias": lambda: divide(tp + fp, n),
        "prevalence": lambda: divide(tp + fn, n),
        "bias_ratio": lambda: divide(tp + fp, tp + fn),
    }
    return formulas[name]()


def exact_mean(
    values: list[Fraction | float | None], weights: list[Fraction], mean: str
) -> float | None:
    """A weighted mean that leaves zero weights out and is undefined where a weighted
    value is (undefined="propagate")."""
    used = [(w, v) for w, v in zip(weights, values, strict=True) if w > 0]
    if not used or any(v is None for _, v in used):
        return None
    total = sum((w for w, _ in used), Fraction(0))
    if mean == "arithmetic":
        return float(sum((w * Fraction(v) for w, v in used), Fraction(0)) / total)
    if any(v == 0 for _, v in used):
        return 0.0
    if mean == "harmonic":
        return float(total / sum((w / Fraction(v) for w, v in used), Fraction(0)))
    return math.exp(math.fsum(float(w / total) * math.log(float(v)) for w, v in used))


def exact_overall(name: str, square: list[list[Fraction]]) -> Fraction | float | None:
    """The whole table's value of `name`, as the registry documents its rule."""
    size = len(square)
    views = [exact_view(square, label) for label in range(size)]
    rows = [sum(row, Fraction(0)) for row in square]
    cols = [sum(col, Fraction(0)) for col in zip(*square, strict=True)]
    n = sum(rows, Fraction(0))
    rule = MEASURES[name].overall
    if isinstance(rule, (Average, SignedGeometric)):
        averages = [rule] if isinstance(rule, Average) else [rule.first, rule.second]
        found = []
        for average in averages:
            if n == 0:
                return None
            weights = {
                "macro": [Fraction(1)] * size,
                "prevalence": [c / n for c in cols],
                "bias": [r / n for r in rows],
            }[average.weights]
            values = [exact_binary(average.of, view) for view in views]
            found.append(exact_mean(values, weights, average.mean))
        if isinstance(rule, Average):
            return found[0]
        b, m = found
        if b is None or m is None or b * m < 0:
            return None
        return math.copysign(math.sqrt(abs(b)) * math.sqrt(abs(m)), b + m)
    trace = sum((square[k][k] for k in range(size)), Fraction(0))
    if name in ("bias", "prevalence", "bias_ratio"):
        return None  # per-label quantities
    if n == 0:
        return None
    if name == "accuracy":
        return trace / n
    if name == "error":
        return 1 - trace / n
    if name == "kappa":
        pe = sum((rows[k] * cols[k] for k in range(size)), Fraction(0)) / (n * n)
        return divide(trace / n - pe, 1 - pe)
    if name == "matthews_correlation":
        numerator = n * trace - sum((rows[k] * cols[k] for k in range(size)), Fraction(0))
        product = (n * n - sum((r * r for r in rows), Fraction(0))) * (
            n * n - sum((c * c for c in cols), Fraction(0))
        )
        if product == 0:
            return None
        return math.copysign(sqrt(numerator * numerator / product), 1.0 if numerator >= 0 else -1.0)
    given = {"conditional_entropy": "P", "conditional_entropy_given_actual": "R"}
    return entropy(square, given.get(name, "I"))


def close(got: float, exact: Fraction | float, slack: float) -> bool:
    want = float(exact)
    return abs(got - want) <= 1e-12 * abs(want) + slack


def true_reason(name: str, reason: str, view: View) -> bool:
    """Whether `reason` (why `name` is nan on one label's view) holds of the exact view."""
    tp, fp, fn, tn = view
    for margin, text in MARGIN_REASONS.values():
        if reason == text:
            return bool(margin(tp, fp, fn, tn) == 0)
    if name == "kappa" and reason == MEASURES["kappa"].undefined_otherwise:
        n = tp + fp + fn + tn
        return n > 0 and (tp + fp) * (tp + fn) + (fn + tn) * (fp + tn) == n * n
    return False


# ---------------------------------------------------------------------- the properties
@PROPERTY
@given(wide_tables())
@example(Table.from_labels(actual=[1, 0, 1, 0], predicted=[1, 0, 0, 1], weights=[1e17, 1, 1, 1]))
def test_every_view_is_the_exact_view_rounded_once(table: Table) -> None:
    """Each one-vs-rest cell is the exact sum of the table's cells, rounded once: never a
    small cell derived by subtracting large sums (1e17 + 1 - 1e17 = 0)."""
    square = exact_square(table)
    note(f"cells {table.to_dense().counts.tolist()!r}")
    for k, label in enumerate(table.labels):
        view = table.one_vs_rest(label)
        want = [float(x) for x in exact_view(square, k)]
        assert [view.tp, view.fp, view.fn, view.tn] == want, label


@PROPERTY
@given(wide_tables(size=2))
@example(Table.from_labels(actual=[1, 0, 1, 0], predicted=[1, 0, 0, 1], weights=[1e17, 1, 1, 1]))
@example(Table.binary(tp=1e200, fp=1e199, fn=1e199, tn=1e200))
@example(Table.binary(tp=1e-200, fp=1e-201, fn=1e-201, tn=1e-200))
def test_every_measure_of_a_label_is_exact_or_truly_undefined(table: Table) -> None:
    """Every registry measure of each label's 2x2 view: within 1e-12 of the exact value,
    or nan with a reason true of the exact view."""
    square = exact_square(table)
    note(f"cells {table.to_dense().counts.tolist()!r}")
    for k, label in enumerate(table.labels):
        result = evaluate(table, positive=label)
        view = exact_view(square, k)
        for name in MEASURES:
            got, want = result.measures[name], exact_binary(name, view)
            if want is None:
                assert np.isnan(got), (name, label, got)
            else:
                slack = 1e-15 if name == "mutual_information" else 0.0
                assert close(got, want, slack), (name, label, got, float(want))
            if np.isnan(got):
                assert true_reason(name, result.reasons[name], view), (name, result.reasons[name])


@PROPERTY
@given(wide_tables())
@example(
    Table.from_counts([[1e17, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 2.0, 3e300]], rows="predicted")
)
def test_every_overall_measure_is_exact_or_undefined(table: Table) -> None:
    """Every registry measure of the whole table, combined over labels as the registry
    says: within 1e-12 of the exact value (1e-15 absolute for sums of both signs)."""
    square = exact_square(table)
    note(f"cells {table.to_dense().counts.tolist()!r}")
    result = evaluate(table)
    multiclass = len(square) > 2
    for name in MEASURES:
        got, want = result.measures[name], exact_overall(name, square)
        if np.isnan(got) and name == "correlation" and "rounding" in result.reasons[name]:
            # B or M within rounding of 0, so the sign of B M is not known: true when the
            # exact B or M is that close to 0 (its bound is at most 24 x 2^-52)
            near = [exact_overall(part, square) for part in ("informedness", "markedness")]
            assert any(x is not None and abs(float(x)) <= 1e-14 for x in near), near
            continue
        if want is None:
            assert np.isnan(got), (name, got)
            assert result.reasons[name], name
            continue
        if name == "correlation" and multiclass:
            # sign(B) sqrt(B M): B and M within 1e-15 of their exact values, so B M is
            # within 2e-15 of the exact product (the root magnifies an error near 0)
            assert np.sign(got) == np.sign(float(want)), (name, got, float(want))
            assert abs(got * got - float(want) ** 2) <= 1e-12 * float(want) ** 2 + 2e-15
            continue
        mixed = name in MIXED_SIGNS or (multiclass and name in MIXED_SIGNS_MULTICLASS)
        assert close(got, want, 1e-15 if mixed else 0.0), (name, got, float(want))
