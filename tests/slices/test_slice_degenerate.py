"""Slices at the edges: a slice whose fractional weights round to no case, weights that
are all 0, and no slice at all; each gives a defined result with its reason, or a
one-line error, never numpy's exception (bootstrap_slices, disparities, the command line
with --by --weight, on a file and on DuckDB)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from informed.cli.main import main
from informed.errors import InputError
from informed.inference import bootstrap, bootstrap_slices, disparities
from informed.report.slices import slices_document, slices_text
from informed.slices import Slices
from informed.table import Table


def _informedness(actual: np.ndarray, predicted: np.ndarray, weights: np.ndarray) -> float:
    """Informedness of weighted rows, TPR - FPR written out (the positive class 1)."""
    tp = weights[(actual == 1) & (predicted == 1)].sum()
    fn = weights[(actual == 1) & (predicted == 0)].sum()
    fp = weights[(actual == 0) & (predicted == 1)].sum()
    tn = weights[(actual == 0) & (predicted == 0)].sum()
    return float(tp / (tp + fn) - fp / (fp + tn))


def _rows(groups: dict[str, float], n: int = 60, seed: int = 0) -> tuple[np.ndarray, ...]:
    """n rows per group, each row weighted by its group's weight."""
    rng = np.random.default_rng(seed)
    group = np.repeat(np.array(list(groups), dtype=object), n)
    actual = rng.integers(0, 2, group.size)
    predicted = np.where(rng.random(group.size) < 0.8, actual, 1 - actual)
    weights = np.array([groups[g] for g in group], dtype=np.float64)
    return group, actual, predicted, weights


def test_a_slice_whose_weights_round_to_no_case_says_so() -> None:
    """A slice of total weight 0.3 (read as 0 cases) has its estimate and no interval,
    with the reason the unsliced bootstrap gives; the others' intervals are made, and
    their differences from the rest keep its weight in the rest."""
    group, actual, predicted, weights = _rows({"a": 1.0, "b": 0.005, "c": 1.0})
    found = Slices.from_labels(by=group, actual=actual, predicted=predicted, weights=weights)
    result = bootstrap_slices(found, ["informedness"], positive=1, replicates=200, seed=0)
    a, b, c = result.intervals["informedness"]
    tiny = group == "b"
    assert b.estimate == pytest.approx(_informedness(actual[tiny], predicted[tiny], weights[tiny]))
    assert math.isnan(b.low) and math.isnan(b.high)
    assert b.reason is not None and "slice 'b' sum to 0.3, read as 0 cases" in b.reason
    alone = bootstrap(
        Table.from_labels(actual=actual[tiny], predicted=predicted[tiny], weights=weights[tiny]),
        ["informedness"],
        positive=1,
        replicates=200,
    ).intervals["informedness"]
    assert alone.reason is not None and "sum to 0.3, read as 0 cases" in alone.reason
    for interval in (a, c):
        assert interval.low <= interval.estimate <= interval.high

    d = disparities(found, positive=1, replicates=200, seed=0)
    for k, name in enumerate("abc"):
        mine, rest = group == name, group != name
        gap = _informedness(actual[mine], predicted[mine], weights[mine]) - _informedness(
            actual[rest], predicted[rest], weights[rest]
        )
        assert d.vs_rest["informedness"][k].estimate == pytest.approx(gap, abs=1e-12)
    assert not math.isnan(d.vs_rest["informedness"][0].low)
    held = d.vs_rest["informedness"][1]
    assert math.isnan(held.low) and held.reason is not None and "read as 0 cases" in held.reason
    versus = disparities(found, positive=1, reference="b", replicates=50, seed=0)
    for k in (0, 2):
        why = versus.vs_reference["informedness"][k].reason
        assert why is not None and "slice 'b' sum to 0.3" in why


def test_the_rest_of_no_case_has_no_interval() -> None:
    """Two slices, one of weight 0.3: the other's difference from the rest (that slice
    alone) has no interval, the rest being no case to resample."""
    group, actual, predicted, weights = _rows({"a": 1.0, "b": 0.005})
    found = Slices.from_labels(by=group, actual=actual, predicted=predicted, weights=weights)
    d = disparities(found, positive=1, replicates=50, seed=0)
    first = d.vs_rest["informedness"][0]
    assert not math.isnan(first.estimate) and math.isnan(first.low)
    assert first.reason is not None
    assert "the rest of the rows sum to 0.3, read as 0 cases" in first.reason


def _write(tmp_path: Path, groups: dict[str, float]) -> Path:
    group, actual, predicted, weights = _rows(groups)
    path = tmp_path / "rows.csv"
    lines = ["group,actual,predicted,weight"] + [
        f"{g},{a},{p},{float(w)!r}"
        for g, a, p, w in zip(group, actual, predicted, weights, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def _report(path: Path, capsys, *more: str) -> dict[str, object]:
    args = ["evaluate", str(path), "--actual", "actual", "--predicted", "predicted"]
    args += ["--weight", "weight", "--by", "group", "--format", "json", "--seed", "0", *more]
    assert main(args) == 0, capsys.readouterr().err
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


@pytest.mark.parametrize("engine", [[], ["--engine", "duckdb"]])
def test_cli_by_weight_with_a_slice_of_less_than_half_a_case(
    tmp_path: Path, capsys, engine: list[str]
) -> None:
    """`--by group --weight w`, one group weighing 0.3 in all: a report, that group's
    interval none with the reason (on a file and on DuckDB)."""
    if engine:
        pytest.importorskip("duckdb")
    path = _write(tmp_path, {"a": 1.0, "b": 0.005, "c": 1.0})
    document = _report(path, capsys, "--positive", "1", *engine)
    entries = {e["name"]: e for e in document["slices"]}  # type: ignore[union-attr]
    assert entries["b"]["intervals"]["informedness"] == [None, None]
    why = entries["b"]["vs_rest"]["informedness"]["reason"]
    assert "slice 'b' sum to 0.3, read as 0 cases" in why
    low, high = entries["a"]["intervals"]["informedness"]
    assert low is not None and low <= entries["a"]["measures"]["informedness"] <= high


@pytest.mark.parametrize("engine", [[], ["--engine", "duckdb"]])
def test_cli_by_with_every_weight_zero_reports_undefined(
    tmp_path: Path, capsys, engine: list[str]
) -> None:
    """Every weight 0 with --by: every slice of weight 0, every measure undefined, as
    without --by (on a file and on DuckDB); no IndexError."""
    if engine:
        pytest.importorskip("duckdb")
    path = _write(tmp_path, {"a": 0.0, "b": 0.0})
    document = _report(path, capsys, *engine)
    for entry in document["slices"]:  # type: ignore[union-attr]
        assert entry["n"] == 0 and entry["measures"]["informedness"] is None
        assert entry["intervals"]["informedness"] == [None, None]
    args = ["evaluate", str(path), "--actual", "actual", "--predicted", "predicted"]
    assert main([*args, "--weight", "weight", "--format", "json", *engine]) == 0
    assert json.loads(capsys.readouterr().out)["measures"]["informedness"] is None
    found = Slices.from_labels(by=["a", "b"], actual=[1, 0], predicted=[1, 0], weights=[0.0, 0.0])
    d = disparities(found, positive=1, replicates=20, seed=0)
    assert all(math.isnan(x.estimate) for x in d.vs_rest["informedness"])


def test_no_slice_gives_results_with_no_rows() -> None:
    """Slices of no rows: no interval, no difference, undefined ranges with the reason;
    the report says there is no slice; a `positive` is refused as for an empty Table."""
    for by in ([], [[], []]):
        empty = Slices.from_labels(by=by, actual=[], predicted=[])
        result = bootstrap_slices(empty, ["informedness", "markedness"], replicates=20, seed=0)
        assert result.intervals == {"informedness": [], "markedness": []}
        d = disparities(empty, replicates=20, seed=0)
        assert d.reference is None and d.vs_rest["informedness"] == []
        assert d.vs_reference["bias"] == [] and not any(d.left_out.values())
        spread = d.summary["informedness_spread"]
        assert math.isnan(spread.estimate) and "fewer than two slices" in str(spread.reason)
        assert "No slice: there are no rows" in slices_text(result, d, "none")
        assert slices_document(result, d, "none")["slices"] == []
        for call in (bootstrap_slices, disparities):
            with pytest.raises(ValueError, match=r"positive=1 is not a label of the slices"):
                call(empty, positive=1, replicates=20)


def test_cli_by_on_a_query_of_no_rows_is_refused(tmp_path: Path, capsys) -> None:
    """`--sql` returning no rows with --by: the one-line error it gives without --by."""
    duckdb = pytest.importorskip("duckdb")
    database = tmp_path / "rows.duckdb"
    connection = duckdb.connect(str(database))
    connection.execute("CREATE TABLE t AS SELECT 'a' AS g, 1 AS y, 1 AS p")
    connection.close()
    for by in (["--by", "g"], ["--by", "g", "p"]):
        args = ["evaluate", "--database", str(database), "--sql", "SELECT * FROM t WHERE false"]
        assert main([*args, "--actual", "y", "--predicted", "p", *by]) == 2
        assert "the --sql query: no rows: nothing to evaluate." in capsys.readouterr().err
    with pytest.raises(InputError, match="is not a label"):
        Slices.from_labels(by=[], actual=[], predicted=[], scores=[], positive=1)
