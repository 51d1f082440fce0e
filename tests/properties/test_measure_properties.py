"""Hypothesis properties of the measures, looping over the registry where they apply."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_tables, counts_matrix, tables

from informed import MEASURES, Table, evaluate
from informed.measures import (
    bias,
    cells,
    informedness,
    markedness,
    matthews_correlation,
    one_vs_rest_counts,
    prevalence,
)

FAST = settings(max_examples=60, deadline=None)


def _same(a: float, b: float, tol: float = 1e-9) -> bool:
    if np.isnan(a) or np.isnan(b):
        return bool(np.isnan(a) and np.isnan(b))
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


@FAST
@given(binary_tables(max_count=10**4))
def test_transpose_gives_each_measure_its_dual(table: Table) -> None:
    """transpose swaps recall/precision, informedness/markedness, H(R|P)/H(P|R), bias/prevalence."""
    counts = table.one_vs_rest("+").counts
    flipped = table.transpose().one_vs_rest("+").counts
    for measure in MEASURES.values():
        if measure.dual is None:
            continue
        dual = MEASURES[measure.dual]
        assert _same(float(measure(flipped)), float(dual(counts))), measure.name


@FAST
@given(tables(max_labels=5, max_count=50))
def test_transpose_swaps_multiclass_informedness_and_markedness(table: Table) -> None:
    """Multiclass: bias-weighted B of the transpose = prevalence-weighted M of the table."""
    here = evaluate(table).measures
    there = evaluate(table.transpose()).measures
    assert _same(here["informedness"], there["markedness"])
    assert _same(here["markedness"], there["informedness"])
    for name, measure in MEASURES.items():
        if measure.symmetric:
            assert _same(here[name], there[name]), name


@FAST
@given(binary_tables(max_count=10**6))
def test_informedness_and_markedness_identity(table: Table) -> None:
    """B pR(+) pR(-) = M pP(+) pP(-) = (tp tn - fp fn) / N^2."""
    counts = table.one_vs_rest("+").counts
    tp, fp, fn, tn = (float(x) for x in cells(counts))
    n = tp + fp + fn + tn
    determinant = (tp * tn - fp * fn) / n**2 if n else np.nan
    b, m = float(informedness(counts)), float(markedness(counts))
    rp, pp = float(prevalence(counts)), float(bias(counts))
    if not np.isnan(b):
        assert b * rp * (1 - rp) == pytest.approx(determinant, abs=1e-12)
    if not np.isnan(m):
        assert m * pp * (1 - pp) == pytest.approx(determinant, abs=1e-12)


@FAST
@given(binary_tables(max_count=10**6, positive_margins=True))
def test_binary_correlation_squared(table: Table) -> None:
    """Binary: correlation^2 = informedness x markedness = MCC^2, and correlation = MCC."""
    result = evaluate(table, positive="+").measures
    b, m, r = result["informedness"], result["markedness"], result["correlation"]
    mcc = result["matthews_correlation"]
    if np.isnan(mcc):  # a margin is empty
        return
    assert r**2 == pytest.approx(b * m, abs=1e-12)
    assert mcc**2 == pytest.approx(b * m, abs=1e-12)
    assert r == pytest.approx(mcc, abs=1e-9)


@FAST
@given(tables(max_count=200), st.sampled_from([2, 3, 0.25, 1e-3, 1e6]))
def test_scaling_counts_changes_no_rate(table: Table, k: float) -> None:
    """Scaling every cell by k > 0 changes no rate, B, M, MCC, kappa or entropy."""
    scaled = Table.from_counts(
        table.counts * k, rows="predicted", labels=list(table.labels), weighted=True
    )
    here = evaluate(table).measures
    there = evaluate(scaled).measures
    for name in MEASURES:
        assert _same(here[name], there[name], 1e-7), name


@FAST
@given(
    st.lists(st.integers(0, 50), min_size=2, max_size=5),
    st.lists(st.integers(0, 50), min_size=2, max_size=5),
)
def test_independent_rows_and_columns_carry_no_information(
    rows: list[int], cols: list[int]
) -> None:
    """An outer product (prediction independent of reality) has B = M = 0 (or nan), I = 0."""
    size = min(len(rows), len(cols))
    outer = np.outer(rows[:size], cols[:size])
    table = Table.from_counts(outer, rows="predicted")
    result = evaluate(table).measures
    for name in ("informedness", "markedness", "mutual_information", "kappa"):
        value = result[name]
        assert np.isnan(value) or abs(value) < 1e-12, name
    per_label = evaluate(table).per_label
    for label in table.labels:
        for name in ("informedness", "markedness"):
            value = per_label[label][name]
            assert np.isnan(value) or abs(value) < 1e-12, (label, name)


@FAST
@given(tables(max_labels=5, max_count=30))
def test_multiclass_definitions(table: Table) -> None:
    """B = sum pP(l) B(l), M = sum pR(c) M(c), correlation = sign sqrt(B M) (RELIABILITY P33)."""
    _labels, square = table.square()
    total = square.sum()
    if total == 0:
        return
    result = evaluate(table)
    ovr = one_vs_rest_counts(square)
    per_b = informedness(ovr)
    per_m = markedness(ovr)
    p_pred = square.sum(axis=1) / total
    p_real = square.sum(axis=0) / total
    b = sum(w * v for w, v in zip(p_pred, per_b, strict=True) if w > 0)
    m = sum(w * v for w, v in zip(p_real, per_m, strict=True) if w > 0)
    assert _same(result.measures["informedness"], float(b))
    assert _same(result.measures["markedness"], float(m))
    if not (np.isnan(b) or np.isnan(m)) and b * m >= 0:
        assert _same(result.measures["correlation"], float(np.sign(b + m) * np.sqrt(b * m)))


@FAST
@given(tables(max_labels=4, max_count=10**9))
def test_ranges_hold_for_any_table(table: Table) -> None:
    """Every measure stays in its declared range (RELIABILITY P48)."""
    result = evaluate(table)
    for name, measure in MEASURES.items():
        values = [result.measures[name], *(result.per_label[x][name] for x in table.labels)]
        for value in values:
            assert np.isnan(value) or measure.low <= value <= measure.high, (name, value)


@FAST
@given(binary_tables(max_count=1000, positive_margins=True))
def test_swapping_classes_keeps_informedness(table: Table) -> None:
    """Swapping positive and negative keeps B, M and MCC (RELIABILITY P17)."""
    plus = evaluate(table, positive="+").measures
    minus = evaluate(table, positive="-").measures
    for name in ("informedness", "markedness", "matthews_correlation", "accuracy", "kappa"):
        assert _same(plus[name], minus[name]), name


@pytest.mark.parametrize("cell", [1e5, 1e9, 1e18])
def test_huge_counts_do_not_overflow(cell: float) -> None:
    """MCC and kappa at huge counts match the float64 formula (sk#9622, pycm#624)."""
    table = Table.from_counts(
        [[cell, cell], [cell, 2]], rows="predicted", labels=["+", "-"], weighted=True
    )
    mcc = evaluate(table, positive="+").measures["matthews_correlation"]
    expected = (cell * 2 - cell * cell) / np.sqrt(2 * cell * 2 * cell * (cell + 2) * (cell + 2))
    assert mcc == pytest.approx(expected, rel=1e-9)
    exact = Table.from_counts([[10**18, 10**18], [10**18, 2]], rows="predicted", labels=["+", "-"])
    assert float(matthews_correlation(exact.one_vs_rest("+").counts)) == pytest.approx(-0.5)


def test_registry_is_complete() -> None:
    """Every measure declares its range, duality, symmetry and source; duals are mutual."""
    for name, measure in MEASURES.items():
        assert measure.name == name
        assert measure.low < measure.high
        assert measure.source and measure.formula and measure.title
        assert measure.function.__doc__, name
        if measure.dual is not None:
            assert MEASURES[measure.dual].dual == name, name
        if measure.chance is not None:
            guessing = np.array([[12.0, 28.0], [18.0, 42.0]])  # the poster's guessing table
            assert float(measure(guessing)) == pytest.approx(measure.chance, abs=1e-12), name


def test_issue_names_are_registered() -> None:
    """The JSON keys the CLI promises are registry names."""
    promised = [
        "recall",
        "inverse_recall",
        "precision",
        "inverse_precision",
        "fallout",
        "miss_rate",
        "accuracy",
        "error",
        "jaccard",
        "f_measure",
        "inverse_f_measure",
        "average_f_measure",
        "g_measure",
        "inverse_g_measure",
        "average_g_measure",
        "informedness",
        "markedness",
        "correlation",
        "matthews_correlation",
        "kappa",
        "conditional_entropy",
        "bias",
        "prevalence",
    ]
    assert set(promised) <= set(MEASURES)


@FAST
@given(counts_matrix(2, 2, 100))
def test_f_alpha_half_is_f1(counts: np.ndarray) -> None:
    """F with alpha = 0.5 is F1 = 2 tp / (2 tp + fp + fn) (PITFALLS P25)."""
    from informed.measures import f_measure

    tp, fp, fn = counts[0, 0], counts[0, 1], counts[1, 0]
    value = float(f_measure(counts, 0.5))
    if 2 * tp + fp + fn == 0:
        assert np.isnan(value)
    else:
        assert value == pytest.approx(2 * tp / (2 * tp + fp + fn))
