"""`--find-slices` on a Parquet file cuts its number columns into quantile ranges, as it
cuts a CSV file's numbers and a DataFrame's: before, the file route read a Parquet
integer column as labels (72 one-age slices where CSV gave 5 ranges) and refused a float
column as "a label column of type double". Oracle: numpy's quantiles and counts of the
rows, and the CSV file of the same rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from informed.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pacsv = pytest.importorskip("pyarrow.csv")

RNG = np.random.default_rng(21)
N = 4000
AGE = RNG.integers(18, 90, N)
INCOME = np.round(RNG.gamma(2.0, 20.0, N), 3)
PLAN = RNG.integers(0, 3, N)  # three values: labels, not cut
Y = RNG.integers(0, 2, N)
P = np.where((AGE > 70) & (RNG.random(N) < 0.6), 1 - Y, Y)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    table = pa.table({"y": Y, "p": P, "age": AGE, "income": INCOME, "plan": PLAN})
    folder = tmp_path_factory.mktemp("find_numbers")
    paths = {"parquet": folder / "rows.parquet", "csv": folder / "rows.csv"}
    pq.write_table(table, paths["parquet"])
    pacsv.write_csv(table, paths["csv"])
    return paths


def _search(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> dict[str, object]:
    args = ["evaluate", str(path), "--actual", "y", "--predicted", "p", "--positive", "1"]
    code = main([*args, "--find-slices", "age,income,plan", "--format", "json", *more])
    out, err = capsys.readouterr()
    assert code == 0, err
    document = json.loads(out)
    document.pop("source")
    return document


def test_numbers_are_cut_at_their_quantiles(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    found = _search(files["parquet"], capsys, "--depth", "1", "--ranges", "4")
    cuts = found["cuts"]
    assert isinstance(cuts, dict) and set(cuts) == {"age", "income"}  # plan: 3 values
    for name, values in (("age", AGE), ("income", INCOME)):
        # the quantiles at data values (numpy's "lower" method)
        expected = np.quantile(values, np.linspace(0, 1, 5), method="lower")
        assert cuts[name] == expected.tolist()
    for slice_ in found["found"]:  # type: ignore[attr-defined]
        ((column, value),) = slice_["slice"].items()
        if column == "plan":
            assert value in {"0", "1", "2"}  # as the file route reads labels: their text
            assert slice_["n"] == int((int(value) == PLAN).sum())
            continue
        values = AGE if column == "age" else INCOME
        low, high = (float(x) for x in value.strip("[)]").split(", "))
        inside = (values >= low) & ((values <= high) if value.endswith("]") else (values < high))
        assert slice_["n"] == int(inside.sum())


def test_parquet_and_csv_give_one_search(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _search(files["parquet"], capsys) == _search(files["csv"], capsys)
