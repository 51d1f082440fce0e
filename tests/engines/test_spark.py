"""Spark: Table, Ranking, Slices, a frame's summaries and a Tally counted on a local Spark
(PySpark in local mode), equal to the in-memory summaries of the same rows, partitions
and all; only partial and final aggregates in the plan, never the rows; a lost partition
refused. One session for the module, few jobs: it starts in seconds, runs in seconds."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from engine_data import rows

from informed import Ranking, Slices, Table
from informed.errors import InputError
from informed.io import summarise_frame
from informed.io.tallies import summarise_documents

for _package in ("narwhals", "pyspark"):
    pytest.importorskip(_package, reason=f"the Spark tests need {_package} (informed[test])")
if shutil.which("java") is None:  # pragma: no cover - .ci/run installs a JRE
    pytest.skip("no Java runtime for Spark: .ci/run installs one", allow_module_level=True)


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """A local Spark of two threads, two shuffle partitions, no UI, no progress bars."""
    from pyspark.sql import SparkSession

    logging.getLogger("py4j").setLevel(logging.ERROR)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("informed-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "1g")
        # small data: no whole-stage code generation (compiling it costs more than it
        # saves here), no adaptive re-planning, a JVM that starts fast
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def data(spark: Any) -> tuple[pa.Table, Any]:
    """The rows in memory and as a Spark DataFrame of three partitions."""
    table = rows(7, n=500)
    return table, spark.createDataFrame(table.to_pandas()).repartition(3)


def test_every_summary_equals_the_in_memory_one(data: tuple[pa.Table, Any]) -> None:
    """Summaries (Table and Ranking of one class against the rest, weighted), the Ranking
    of two classes, and Slices with a missing slice: equal to the rows' in memory."""
    memory, frame = data
    options = {"actual": "y", "predicted": "p", "scores": "s", "positive": "cat", "weights": "w"}
    found = summarise_frame(frame, part="spark", **options)
    assert found == summarise_frame(memory, part="spark", **options)
    assert found.rows == memory.num_rows
    two = {"actual": "b", "scores": "s", "positive": True}
    assert Ranking.from_frame(frame, **two) == Ranking.from_frame(memory, **two)
    assert Slices.from_frame(frame, by="g", **options) == Slices.from_frame(
        memory, by="g", **options
    )


def test_weights_are_summed_exactly_and_tiny_ones_refused(spark: Any) -> None:
    """Weights with all 53 bits set at every exponent the limbs hold (0.9999999999999999,
    ...) and powers of two: each cell is the float64 nearest the exact sum (a Fraction
    oracle); weights with bits below 2^-104 (1e-100, 5e-324) are refused, never zeroed."""
    import math
    from fractions import Fraction

    w = []
    for k in range(-51, 53):
        w += [math.ldexp(1.0, k) - math.ldexp(1.0, k - 53), math.ldexp(1.0, k - 1)]
    y = ["a", "b", "b", "a"] * (len(w) // 4) + ["a"] * (len(w) % 4)
    p = ["a", "a", "b", "b", "b"] * (len(w) // 5) + ["a"] * (len(w) % 5)
    exact: dict[tuple[str, str], Fraction] = {}
    for a, b, weight in zip(y, p, w, strict=True):
        exact[(b, a)] = exact.get((b, a), Fraction(0)) + Fraction(weight)
    frame = spark.createDataFrame(list(zip(y, p, w, strict=True)), "y string, p string, w double")
    counted = Table.from_frame(frame.repartition(3), actual="y", predicted="p", weights="w")
    assert {k: counted.count(*k) for k in exact} == {k: float(v) for k, v in exact.items()}
    tiny = spark.createDataFrame(
        [("a", "a", 1e-100), ("b", "a", 5e-324), ("a", "b", 1.0)], "y string, p string, w double"
    )
    with pytest.raises(InputError, match=r"2 weights of the column 'w' have bits below 2\^-104"):
        Table.from_frame(tiny, actual="y", predicted="p", weights="w")


def test_nan_in_a_by_column_is_the_missing_slice(spark: Any) -> None:
    """NaN and null in a double `by` column on Spark: one slice "missing", as NaN in a
    numpy column in memory (the oracle); NaN was refused as a missing label."""
    g = [0.5, float("nan"), None, 0.5, 1.5, float("nan")]
    y, p = ["a", "b", "a", "a", "b", "b"], ["a", "b", "b", "a", "a", "b"]
    frame = spark.createDataFrame(list(zip(g, y, p, strict=True)), "g double, y string, p string")
    expected = Slices.from_labels(
        by=np.array([np.nan if v is None else v for v in g]), actual=y, predicted=p, names=["g"]
    )
    assert expected.keys == ((0.5,), (1.5,), (None,))
    assert Slices.from_frame(frame, by="g", actual="y", predicted="p") == expected


def test_a_tally_of_documents_equals_the_in_memory_one(spark: Any) -> None:
    """Array columns of categories: per-category counts on Spark, the Tally of memory."""
    rng = np.random.default_rng(8)
    names = ["sport", "politics", "weather"]
    assigned = [rng.choice(names, rng.integers(0, 3)).tolist() for _ in range(200)]
    correct = [rng.choice(names, rng.integers(0, 3)).tolist() for _ in range(200)]
    frame = spark.createDataFrame(
        list(zip(assigned, correct, strict=True)), "assigned array<string>, correct array<string>"
    )
    memory = pa.table({"assigned": assigned, "correct": correct})
    found = summarise_documents(frame, part="d", categories=names)
    assert found.tally == summarise_documents(memory, part="d", categories=names).tally


def test_the_plan_has_a_partial_and_a_final_aggregate_and_fetches_no_rows(
    data: tuple[pa.Table, Any],
) -> None:
    """Spark aggregates each partition (partial_count, partial_sum), exchanges only those
    partial aggregates, and merges them (count, sum): the plan reads no row into Python."""
    from informed.engines.frames import lazy_frame
    from informed.engines.query import grouped_query

    _, frame = data
    query = grouped_query(lazy_frame(frame, {}), ["p", "y"], "w").to_native()
    plan = query._jdf.queryExecution().executedPlan().toString()
    partial = [line for line in plan.splitlines() if "HashAggregate" in line and "partial_" in line]
    final = [
        line for line in plan.splitlines() if "HashAggregate" in line and "partial_" not in line
    ]
    assert partial and final, plan
    assert "partial_count(1)" in partial[0] and "partial_sum(" in partial[0]
    assert "Exchange hashpartitioning(p" in plan
    assert "CollectLimit" not in plan and "toPandas" not in plan


def test_a_lost_partition_is_refused(data: tuple[pa.Table, Any], monkeypatch: Any) -> None:
    """The grouped count of a DataFrame that lost a partition on the way does not count
    the rows the DataFrame holds (counted by a job of its own): refused, nothing reported."""
    from pyspark.sql import functions as F  # noqa: N812  # Spark's own spelling

    import informed.engines.route as route

    _, frame = data
    held = frame.count()
    lost = frame.filter(F.spark_partition_id() != 1)
    monkeypatch.setattr(route, "count_rows", lambda engine_frame, lazy: held)
    with pytest.raises(InputError, match=rf"but the frame holds {held:,}: rows were lost"):
        Table.from_frame(lost, actual="y", predicted="p")


def test_time_windows_on_spark_equal_those_in_memory(spark: Any) -> None:
    """TIMESTAMP_NTZ values and ISO text windowed by calendar fields counted on Spark
    (months, quarters, half hours; before 1970, nulls) equal the Slices in memory; a
    TIMESTAMP (an instant shown in the session's zone) is refused in one line."""
    rng = np.random.default_rng(12)
    n = 400
    when = np.datetime64("1969-12-01", "us") + rng.integers(0, 500 * 86400, n).astype(
        "timedelta64[s]"
    )
    missing = rng.random(n) < 0.05
    y = rng.choice(["yes", "no"], n)
    memory = pa.table(
        {
            "t": pa.array(when, mask=missing),
            "text": pa.array([None if m else str(w) for w, m in zip(when, missing, strict=True)]),
            "y": y,
            "p": np.where(rng.random(n) < 0.7, y, "no"),
            "g": rng.choice(["a", "b"], n),
        }
    )
    frame = spark.createDataFrame(
        memory.to_pandas(), "t timestamp_ntz, text string, y string, p string, g string"
    ).repartition(3)
    options = {"by": "g", "actual": "y", "predicted": "p"}
    for column, every in (("t", "1mo"), ("text", "1q"), ("t", "30min")):
        found = Slices.from_frame(frame, time=column, every=every, **options)
        assert found == Slices.from_frame(memory, time=column, every=every, **options)
    ended = spark.createDataFrame(  # Java's $ matches before a final line end; \z does not
        [("2024-01-01\n", "yes", "yes", "a"), ("2024-01-02", "no", "no", "a")],
        "text string, y string, p string, g string",
    )
    with pytest.raises(InputError, match="1 values of the column 'text' on Spark"):
        Slices.from_frame(ended, time="text", every="1d", **options)
    instants = frame.selectExpr("CAST(t AS TIMESTAMP) AS t", "y", "p", "g")
    with pytest.raises(InputError, match="AS TIMESTAMP_NTZ") as refused:
        Slices.from_frame(instants, time="t", every="1d", **options)
    assert "\n" not in str(refused.value)


def test_the_slice_search_on_spark_equals_the_search_in_memory(
    spark: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`find_slices` on a Spark DataFrame (one GROUPING SETS query per depth, a missing
    value in a column: GROUPING() tells it from a rolled-up column) finds the slices the
    search of the same rows in memory finds, with the same counts, gaps, intervals and
    figures; no combination is counted by a query of its own."""
    from informed import find_slices

    rng = np.random.default_rng(13)
    n = 4000
    region = rng.choice(np.array(["north", "south", "east", None], dtype=object), n)
    device = rng.choice(["phone", "tablet", "desktop"], n)
    plan = rng.choice(["basic", "pro"], n)
    actual = rng.integers(0, 2, n)
    inside = np.array([r is None for r in region]) & (device == "phone")
    tpr, fpr = np.where(inside, 0.45, 0.9), np.where(inside, 0.4, 0.1)
    predicted = (rng.random(n) < np.where(actual == 1, tpr, fpr)).astype(int)
    memory = pa.table({"region": pa.array(region.tolist(), type=pa.string()),
                       "device": device, "plan": plan, "y": actual, "p": predicted})  # fmt: skip
    frame = spark.createDataFrame(memory.to_pandas()).repartition(3)
    options = {"columns": ["region", "device", "plan"], "actual": "y", "predicted": "p",
               "depth": 3, "min_size": 25}  # fmt: skip
    expected = find_slices(memory, **options).to_dict()

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a combination was counted by a query of its own")

    monkeypatch.setattr(Slices, "from_frame", refused)
    found = find_slices(frame, **options).to_dict()
    keep = ("found", "tested", "pruned", "hypotheses", "levels", "method", "overall", "rows")
    assert {k: found[k] for k in keep} == {k: expected[k] for k in keep}
    assert {"region": None, "device": "phone"} in [f["slice"] for f in found["found"]]
