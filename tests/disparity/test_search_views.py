"""The slice search's page and plot: `informed evaluate --find-slices ... --html FILE`
and `informed.plot_found_slices`.

The page is read as a reader reads it (its DOM): every slice found is a row whose counts
are those of the file's rows that match the slice (counted here by pandas, not by the
search), the forest plot draws one labelled row per slice, user text is escaped, nothing
refers outside the page. The plot holds each slice's gap and interval as the search
computed them, in its ranking.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("pandas")

import pandas as pd
from matplotlib.figure import Figure
from report_dom import external_references, parse, table_rows

import informed
from informed import InputTypeError, find_slices

HOSTILE = "<script>alert(3)</script>"


def _rows(n: int = 12000, seed: int = 5) -> dict[str, list[Any]]:
    """Three label columns, one value a script, a missing value; the model worse where
    region=HOSTILE and device=phone (planted), and across region=west."""
    rng = np.random.default_rng(seed)
    region = rng.choice(["north", "west", HOSTILE, ""], n, p=[0.35, 0.25, 0.3, 0.1])
    device = rng.choice(["phone", "tablet", "desktop"], n)
    plan = rng.choice(["basic", "pro"], n)
    actual = rng.integers(0, 2, n)
    inside = (region == HOSTILE) & (device == "phone")
    west = region == "west"
    tpr = np.where(inside, 0.5, np.where(west, 0.75, 0.9))
    fpr = np.where(inside, 0.35, np.where(west, 0.2, 0.1))
    predicted = (rng.random(n) < np.where(actual == 1, tpr, fpr)).astype(int)
    return {
        "region": region.tolist(),
        "device": device.tolist(),
        "plan": plan.tolist(),
        "y": actual.tolist(),
        "p": predicted.tolist(),
    }


def _write(folder: Path) -> Path:
    data = _rows()
    path = folder / "rows.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(list(data))
        writer.writerows(zip(*data.values(), strict=True))
    return path


def _evaluate(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "informed", "evaluate", str(path), "--actual", "y",
         "--predicted", "p", "--positive", "1", "--find-slices", "region,device,plan",
         "--min-size", "25", *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    """The file, the page `--html` wrote, and the JSON document of the same run."""
    folder = tmp_path_factory.mktemp("search-page")
    path = _write(folder)
    page = folder / "search.html"
    done = _evaluate(path, "--format", "json", "--html", str(page))
    assert done.returncode == 0, done.stderr
    return path, page, json.loads(done.stdout)


def test_the_page_lists_every_slice_found_with_the_counts_of_its_rows(
    written: tuple[Path, Path, dict[str, Any]],
) -> None:
    """One row per slice found, in the search's order; each row's n, real positives and
    negatives are those of the file's rows matching its conditions (counted by pandas),
    its gap and interval the JSON document's to four decimals."""
    path, page, document = written
    frame = pd.read_csv(path, keep_default_na=False, dtype=str)
    rows = table_rows(parse(page.read_text(encoding="utf-8")), "found-slices")[1:]
    assert len(rows) == len(document["found"]) >= 2
    assert "region=<script>alert(3)</script>, device=phone" in [r[1] for r in rows]
    for row, found in zip(rows, document["found"], strict=True):
        match = np.ones(len(frame), dtype=bool)
        for column, value in found["slice"].items():
            match &= (frame[column] == ("" if value is None else value)).to_numpy()
        real = frame["y"].to_numpy()[match] == "1"
        n, positives, negatives = (int(x.replace(",", "")) for x in row[2:5])
        assert (n, positives, negatives) == (int(match.sum()), int(real.sum()),
                                             int((~real).sum()))  # fmt: skip
        assert row[1] == found["name"]
        gap, low, high = (float(x) for x in row[7:10])
        assert gap == pytest.approx(found["gap"], abs=5e-5)
        assert (low, high) == pytest.approx(found["interval"], abs=5e-5)
        assert low > 0  # reported: the interval excludes 0


def test_the_page_draws_the_forest_and_the_searchs_figures(
    written: tuple[Path, Path, dict[str, Any]],
) -> None:
    """The forest is an accessible drawing (role img, a label saying what it shows) with
    one named row per slice found; the levels' table is the document's; the user's text
    is escaped (no script element anywhere); nothing refers outside the page."""
    _, page, document = written
    root = parse(page.read_text(encoding="utf-8"))
    svg = root.by_id("figure-found-slices").find("svg")
    assert svg.attrs["role"] == "img"
    assert f"{len(document['found'])} slices" in svg.attrs["aria-label"]
    texts = [t.text() for t in svg.find_all("text")]
    for rank in range(1, len(document["found"]) + 1):
        assert any(t.startswith(f"{rank}. ") for t in texts), (rank, texts)
        assert root.by_id(f"plot-found-slices-estimate-{len(document['found']) - rank}")
    levels = table_rows(root, "search-levels")[1:]
    assert [[int(c.replace(",", "")) for c in r] for r in levels[:-1]] == [
        [x["depth"], x["counted"], x["tested"], x["pruned"], x["found"]] for x in document["levels"]
    ]
    assert levels[-1][1:] == [
        f"{sum(x['counted'] for x in document['levels']):,}",
        f"{document['tested']:,}",
        f"{document['pruned']:,}",
        f"{len(document['found']):,}",
    ]
    figures = root.by_id("search-figures").text()
    assert f"{document['hypotheses']:,} hypotheses" in figures
    assert not root.find_all("script")
    assert external_references(root) == []
    assert "Price, R. M. & Bonett, D. G. (2004)" in root.by_id("references").text()


def test_an_html_path_that_cannot_be_written_is_refused_before_the_search(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path)
    done = _evaluate(path, "--html", str(tmp_path))  # a folder
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = _evaluate(path, "--html", str(path))  # the input itself
    assert done.returncode == 2 and "--html" in done.stderr
    assert path.read_text().startswith("region,device,plan")


def _gids(axes: Any) -> dict[str, Any]:
    return {str(line.get_gid()): line for line in axes.get_lines() if line.get_gid()}


def test_the_plot_holds_each_gap_and_its_simultaneous_interval() -> None:
    """Top row first in the search's ranking, named "rank. slice" (cut at 40 characters):
    the dot at the gap, the bar from the interval's low to its high bound, the zero line;
    a nested slice in orange."""
    data = _rows()
    columns = {k: np.array(data[k]) for k in ("region", "device", "plan")}
    search = find_slices(columns=columns, actual=data["y"], predicted=data["p"],
                         positive=1, min_size=25)  # fmt: skip
    assert len(search.found) >= 2
    axes = informed.plot_found_slices(search)
    lines = _gids(axes)
    top = len(search.found) - 1
    names = [f.name if len(f.name) <= 40 else f.name[:39] + "…" for f in search.found]
    assert [t.get_text() for t in axes.get_yticklabels()][::-1] == [
        f"{rank}. {name}" for rank, name in enumerate(names, start=1)
    ]
    for rank, f in enumerate(search.found):
        y = top - rank
        assert lines[f"estimate-{y}"].get_xdata()[0] == f.gap
        assert list(lines[f"interval-{y}"].get_xdata()) == [f.interval.low, f.interval.high]
        colour = lines[f"estimate-{y}"].get_color().upper()
        assert colour == ("#E69F00" if f.within is not None else "#0072B2")
    assert lines["zero"].get_xdata()[0] == 0.0
    figure = Figure()
    mine = figure.subplots()
    assert informed.plot_found_slices(search, ax=mine) is mine


def test_the_plot_of_a_search_that_found_nothing_says_so() -> None:
    rng = np.random.default_rng(3)
    actual = rng.integers(0, 2, 3000)
    predicted = np.where(rng.random(3000) < 0.8, actual, 1 - actual)
    search = find_slices(columns={"g": rng.choice(list("abc"), 3000)}, actual=actual,
                         predicted=predicted)  # fmt: skip
    assert search.found == ()
    axes = informed.plot_found_slices(search)
    (text,) = axes.texts
    assert text.get_text().startswith("undefined: no slice found")
    with pytest.raises(InputTypeError, match=r"informed\.find_slices"):
        informed.plot_found_slices(search.to_dict())


def test_a_narrow_terminal_gets_the_found_table_in_parts_with_every_value_whole() -> None:
    """At 60 columns the nine columns of the found slices were cut to "…": the table is
    now shared out over tables that fit, each repeating the rank and the slice, and every
    value is printed whole."""
    from informed import find_slices
    from informed.disparity.text import render_search

    rng = np.random.default_rng(3)
    n = 6000
    region = rng.choice(["north", "south", "east"], n)
    device = rng.choice(["phone", "tablet", "desktop"], n)
    actual = rng.integers(0, 2, n)
    planted = (region == "east") & (device == "phone")
    predicted = np.where(rng.random(n) < np.where(planted, 0.55, 0.9), actual, 1 - actual)
    search = find_slices(
        columns={"region": region, "device": device}, actual=actual, predicted=predicted
    )
    assert search.found
    narrow = render_search(search, "x.csv", width=60)
    assert "…" not in narrow
    assert max(len(line) for line in narrow.splitlines()) <= 64  # informed's narrowest
    for f in search.found:
        for number in (f"{f.n:,}", f"{f.gap:.4f}", f"{f.interval.low:.4f}"):
            assert number in narrow
    assert narrow.count("region=east, device=phone") >= 2  # the key repeated per part
