"""The slices section of the HTML page: the forest plot, the time line, every shown slice
escaped, the references; written by `informed evaluate --by ... --html`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from informed.inference import bootstrap_slices, disparities
from informed.report.html.page import slices_report
from informed.slices import Slices


def _slices() -> Slices:
    rng = np.random.default_rng(0)
    n = 600
    group = rng.choice(["<b>bold</b>", "plain", "a & b"], n)
    actual = rng.integers(0, 2, n)
    predicted = np.where(rng.random(n) < 0.8, actual, 1 - actual)
    return Slices.from_labels(by=group, actual=actual, predicted=predicted, names=["g"])


def test_the_page_plots_every_slice_and_escapes_their_names() -> None:
    s = _slices()
    result = bootstrap_slices(s, ["informedness", "markedness"], positive=1, replicates=50, seed=0)
    found = disparities(s, positive=1, replicates=50, seed=0)
    page = slices_report(result, found, overall=0.6, source="x.csv")
    assert 'id="figure-slices"' in page and 'id="slices-table"' in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert page.count("<tr data-slice=") == 3
    assert "Hardt, M., Price, E. &amp; Srebro, N. (2016)" in page
    assert "https://" not in page and "<script" not in page
    timed = slices_report(result, found, overall=0.6, order="key")
    assert 'id="figure-slices-time"' in timed


def test_cli_writes_the_page(tmp_path: Path) -> None:
    data = (
        Path(__file__).resolve().parents[2]
        / "src"
        / "informed"
        / "data"
        / "breast_cancer_slices.csv"
    )
    target = tmp_path / "slices.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "informed",
            "evaluate",
            str(data),
            "--actual",
            "actual",
            "--predicted",
            "predicted",
            "--positive",
            "malignant",
            "--by",
            "size",
            "--html",
            str(target),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    page = target.read_text()
    assert page.count("<tr data-slice=") == 3 and 'id="figure-slices"' in page
