"""Names a reader tells apart stay apart when a report cuts them to fit: labels, slices,
folds and models that share a long start (`class_with_a_long_name_1`, `_2`) used to read
alike ("class_with_a_…" twice) in the contingency table, the per-label table, the
slices' and the comparison's tables and the plots' ticks. `cut_apart` keeps the start
and the end around the ellipsis, or the whole name, whenever the plain cut would merge
two names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from informed import compare, evaluate
from informed._common import cut_apart, printable
from informed.report import render_evaluation

LONG = [f"class_with_a_long_name_{k}" for k in (1, 2, 3)]


@given(st.lists(st.text(min_size=0, max_size=40), unique=True, max_size=12), st.integers(1, 30))
def test_distinct_names_are_shown_distinct_and_cut_only_to_the_width(
    names: list[str], width: int
) -> None:
    shown = cut_apart(names, width)
    assert len(set(shown)) == len(shown)  # told apart
    for name, cut in zip(names, shown, strict=True):
        full = printable(name)
        if cut != full:  # cut: as wide as asked, its start kept, an ellipsis in it
            assert width >= 3 and len(cut) == width and "…" in cut
            head, _, tail = cut.partition("…")
            assert full.startswith(head) and full.endswith(tail) and head


def _rows(labels: list[str], n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    actual = rng.choice(labels, n)
    predicted = np.where(rng.random(n) < 0.7, actual, rng.choice(labels, n))
    return actual, predicted


def _cells(text: str) -> list[str]:
    return [cell for line in text.splitlines() for cell in re.split(r"\s{2,}", line.strip())]


def test_long_labels_read_apart_in_the_contingency_and_per_label_tables() -> None:
    actual, predicted = _rows(LONG)
    text = render_evaluation(evaluate(actual, predicted), "x.csv", width=120)
    cells = _cells(text)
    for k in (1, 2, 3):
        # the column heads (12 characters) and the rows (18) and the per-label rows (16)
        assert any(c.startswith("class") and c.endswith(f"_{k}") for c in cells), text
    assert "class_with_a_…" not in text


def test_long_slice_names_read_apart_in_the_slices_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed evaluate --by` (text): each slice named apart."""
    from informed.cli import main

    actual, predicted = _rows(["a", "b"], 600)
    region = np.random.default_rng(4).choice(
        [f"a_very_long_region_name_in_the_north_{k}" for k in "xyz"], 600
    )
    data = tmp_path / "rows.csv"
    lines = ["y,p,region", *(",".join(r) for r in zip(actual, predicted, region, strict=True))]
    data.write_text("\n".join(lines) + "\n")
    assert main(["evaluate", str(data), "--actual", "y", "--predicted", "p", "--by", "region"]) == 0
    text = capsys.readouterr().out
    for k in "xyz":
        assert re.search(
            rf"a_very_long\S*…\S*{k}\b|a_very_long_region_name_in_the_north_{k}", text
        ), text


def test_models_with_a_long_shared_start_read_apart_in_the_comparison() -> None:
    from informed.comparison.text import render_comparison

    actual, first = _rows(["yes", "no"])
    second = np.where(np.random.default_rng(5).random(first.size) < 0.1, actual, first)
    models = {"logistic_regression_tuned_v1": first, "logistic_regression_tuned_v2": second}
    found = compare(actual, models, positive="yes", replicates=50, permutations=99, seed=0)
    text = render_comparison(found, "x.csv", width=140)
    for k in (1, 2):
        assert re.search(rf"logistic\S*…\S*v{k}\b|logistic_regression_tuned_v{k}", text), text


def test_the_contingency_plot_ticks_read_apart() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from informed.plots import plot_contingency

    actual, predicted = _rows(LONG)
    axes = plot_contingency(actual, predicted)
    ticks = [t.get_text() for t in axes.get_xticklabels()]
    plt.close(axes.figure)
    assert len(set(ticks)) == 3 and all(t.endswith(("1", "2", "3")) for t in ticks), ticks
