"""Every number printed in Powers' seeds (shared/golden), through the API and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from golden_files import load_golden

from informed import Table, abstain, evaluate, payoff
from informed.cli import main

FIGURE1 = load_golden("powers_figure1.json")
EXAMPLES = load_golden("powers_examples.json")

# the spreadsheet's names -> registry names
NAMES = {
    "accuracy": "accuracy",
    "recall": "recall",
    "inverse_recall": "inverse_recall",
    "precision": "precision",
    "inverse_precision": "inverse_precision",
    "fallout": "fallout",
    "F": "f_measure",
    "inverse_F": "inverse_f_measure",
    "average_F": "average_f_measure",
    "G": "g_measure",
    "inverse_G": "inverse_g_measure",
    "average_G": "average_g_measure",
    "bookmaker": "informedness",
}
# printed as whole percentages (rounded to 1 point) or with two decimals (to 0.005 points)
WHOLE = {"accuracy", "recall", "inverse_recall", "precision", "inverse_precision", "bookmaker"}


def _table(counts: list[list[float]]) -> Table:
    return Table.from_counts(counts, rows="predicted", labels=["+", "-"])


def _tolerance(name: str) -> float:
    return 0.5 if name in WHOLE else 0.005


def _figure1_cases() -> list[tuple[str, str, float]]:
    return [
        (model, name, value)
        for model, spec in FIGURE1["models"].items()
        for name, value in spec["printed_percent"].items()
    ]


@pytest.mark.parametrize(("model", "name", "printed"), _figure1_cases())
def test_figure1_percentages(model: str, name: str, printed: float) -> None:
    """Figure 1's percentages: rates, F, G and their inverse and average forms, Bookmaker."""
    table = _table(FIGURE1["models"][model]["counts"])
    value = evaluate(table, positive="+").measures[NAMES[name]]
    assert abs(100 * value - printed) <= _tolerance(name) + 1e-9


@pytest.mark.parametrize("model", list(FIGURE1["models"]))
def test_figure1_payoff_dollars(model: str) -> None:
    """Figure 1's dollar rows are the payoff matrix per unit stake on a scale of $10."""
    spec = FIGURE1["models"][model]
    dollars = spec["printed_dollars"]
    result = payoff(_table(spec["counts"])).scaled(10)
    np.testing.assert_allclose(result.matrix, dollars["payoff"], atol=0.005)
    np.testing.assert_allclose(result.won, dollars["won"], atol=0.005)
    np.testing.assert_allclose(result.weighted, dollars["weighted"], atol=0.005)
    np.testing.assert_allclose(result.column_sums, dollars["column_sums"], atol=0.005)
    # the total weighted win is the informedness (on the $10 scale)
    bookmaker = evaluate(_table(spec["counts"]), positive="+").measures["informedness"]
    assert sum(result.weighted) == pytest.approx(10 * bookmaker)


def _example_cases() -> list[tuple[str, str, float]]:
    return [
        (case["name"], name, value)
        for case in EXAMPLES["cases"]
        for name, value in case["expected"].items()
    ]


@pytest.mark.parametrize(("case", "name", "expected"), _example_cases())
def test_worked_examples(case: str, name: str, expected: float) -> None:
    """The poster's and the paper's worked tables (exact values)."""
    spec = next(c for c in EXAMPLES["cases"] if c["name"] == case)
    table = _table(spec["counts"])
    assert evaluate(table, positive="+").measures[NAMES[name]] == pytest.approx(expected, abs=1e-12)


def test_always_noun_inverse_precision_is_undefined() -> None:
    """The 'always noun' tagger: inverse precision is undefined, and the reason says why."""
    result = evaluate(_table([[90, 10], [0, 0]]), positive="+")
    assert np.isnan(result.measures["inverse_precision"])
    assert result.reasons["inverse_precision"] == "no -P predictions"


def test_poster_dollars() -> None:
    """Poster: at fair odds 7:3 the guessing punter wins $210 and loses $210."""
    table = _table(EXAMPLES["cases"][0]["counts"])  # [[12, 28], [18, 42]]
    one = table.one_vs_rest("+")
    won = one.tp * 7 + one.tn * 3
    lost = one.fn * 7 + one.fp * 3
    assert (won, lost) == (210, 210)
    assert payoff(table).informedness == pytest.approx(0.0, abs=1e-15)


def test_abstention_discount_of_the_seed() -> None:
    """Seed 001: 170 of 500 cases classified, B_wav = 0.86 -> 0.86 x 0.34 = 29 %.

    A table whose retained part has informedness 0.86 exactly: 170 retained cases, two
    classes of 85; recall 0.93 and fallout 0.07 on both give B = 0.86.
    """
    retained = [[79.05, 5.95], [5.95, 79.05]]
    catch_all = [[165.0, 165.0]]
    table = Table.from_counts(
        np.array(retained + catch_all),
        rows="predicted",
        predicted=["a", "b", "z"],
        actual=["a", "b"],
    )
    result = abstain(table, ignore=["z"])
    assert result.n == pytest.approx(170)
    assert result.total == pytest.approx(500)
    assert result.coverage == pytest.approx(0.34)
    assert result.conditional.measures["informedness"] == pytest.approx(0.86)
    assert result.discounted["informedness"] == pytest.approx(0.2924)
    assert round(100 * result.discounted["informedness"]) == 29


def _write_cells(path: Path, counts: list[list[float]]) -> None:
    """One CSV row per cell, weighted by its (possibly fractional) count."""
    lines = ["actual,predicted,weight"]
    for i, p in enumerate(["+", "-"]):
        for j, a in enumerate(["+", "-"]):
            lines.append(f"{a},{p},{counts[i][j]!r}")
    path.write_text("\n".join(lines) + "\n")


def _cli_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict[str, Any]:
    assert main(args) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.parametrize("model", list(FIGURE1["models"]))
def test_figure1_through_the_cli(
    model: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same numbers from a CSV of weighted rows (weights reproduce the fractional counts)."""
    spec = FIGURE1["models"][model]
    path = tmp_path / "cells.csv"
    _write_cells(path, spec["counts"])
    out = _cli_json(
        capsys,
        [
            "evaluate",
            str(path),
            "--actual",
            "actual",
            "--predicted",
            "predicted",
            "--weight",
            "weight",
            "--positive",
            "+",
            "--format",
            "json",
        ],
    )
    for name, printed in spec["printed_percent"].items():
        value = out["measures"][NAMES[name]]
        assert abs(100 * value - printed) <= _tolerance(name) + 1e-9, name
    dollars = spec["printed_dollars"]
    matrix = np.array(out["payoff"]["matrix"]) * 10
    # the CLI orders labels canonically ("+" before "-"), the seed's order too
    assert out["payoff"]["labels"] == ["+", "-"]
    np.testing.assert_allclose(matrix, dollars["payoff"], atol=0.005)
    np.testing.assert_allclose(np.array(out["payoff"]["won"]) * 10, dollars["won"], atol=0.005)


@pytest.mark.parametrize("case", [c["name"] for c in EXAMPLES["cases"]])
def test_examples_through_the_cli(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The worked examples from unweighted CSV rows, one row per case."""
    spec = next(c for c in EXAMPLES["cases"] if c["name"] == case)
    lines = ["actual,predicted"]
    for i, p in enumerate(["+", "-"]):
        for j, a in enumerate(["+", "-"]):
            lines += [f"{a},{p}"] * int(spec["counts"][i][j])
    path = tmp_path / "rows.csv"
    path.write_text("\n".join(lines) + "\n")
    out = _cli_json(
        capsys,
        [
            "evaluate",
            str(path),
            "--actual",
            "actual",
            "--predicted",
            "predicted",
            "--positive",
            "+",
            "--format",
            "json",
        ],
    )
    assert out["n"] == 100
    for name, expected in spec["expected"].items():
        assert out["measures"][NAMES[name]] == pytest.approx(expected, abs=1e-12), name
