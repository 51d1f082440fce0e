"""The engine route against the engines' own grouped counts, and Spark's binned AUC.

    .venv/bin/python benchmarks/bench_engines.py [--duckdb-rows 100000000]
        [--spark-rows 10000000] [--repeat 3] [--skip-duckdb] [--skip-spark]

DuckDB (in this process; the best of `--repeat` runs; the machine is shared, so take the
best): a table of `--duckdb-rows` rows in a DuckDB database file (string labels "click"
and "no click", a score rounded to 4 decimals), made once in a temporary folder:

* DuckDB's own ``SELECT p, y, COUNT(*) FROM t GROUP BY p, y`` fetched as Arrow;
* ``Table.from_frame(connection.table("t"), actual="y", predicted="p")``: the same
  grouped count written in narwhals, the separate ``COUNT(*)`` of the coverage check,
  and the Table built; the ratio of the two times;
* the same for the Ranking: ``GROUP BY s, y`` against ``Ranking.from_frame``.

Spark (local[2]): `--spark-rows` rows made on Spark (``spark.range``), a label and two
scores, one tie-heavy (rounded to 2 decimals: 101 values) and one with many distinct
values (rounded to 6 decimals); for each, informed's exact Ranking (``GROUP BY s, y`` on
Spark, only the groups fetched) and its summaries, beside Spark ML's
`BinaryClassificationEvaluator` (areaUnderROC) with its default ``numBins=1000`` and with
``numBins=0`` (no down-sampling), each with its time.

Import times (fresh processes, best of 5): narwhals against ibis, the two libraries that
compile one expression to many engines (docs/engines.md says why narwhals).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bytecode import compile_informed


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least time of `repeat` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def import_time(module: str) -> float:
    """Seconds to import `module` in a fresh interpreter (best of 5, interpreter start
    subtracted)."""

    def once(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        return time.perf_counter() - start

    bare = min(once("pass") for _ in range(5))
    return min(once(f"import {module}") for _ in range(5)) - bare


def bench_duckdb(rows: int, repeat: int) -> None:
    import duckdb

    from informed import Ranking, Table

    folder = Path(tempfile.mkdtemp(prefix="informed-bench-engines-"))
    try:
        path = folder / "rows.duckdb"
        start = time.perf_counter()
        connection = duckdb.connect(str(path))
        connection.sql(
            f"""CREATE TABLE t AS
            SELECT CASE WHEN r < 0.3 THEN 'click' ELSE 'no click' END AS y,
                   CASE WHEN (r < 0.3) = (q < 0.8) THEN 'click' ELSE 'no click' END AS p,
                   round((1 - r) * 0.5 + q * 0.5, 4) AS s
            FROM (SELECT random() AS r, random() AS q FROM range({rows}))"""
        )
        print(
            f"DuckDB: {rows:,} rows made in {time.perf_counter() - start:.1f} s ({path.stat().st_size / 2**20:.0f} MiB)"
        )
        table = connection.table("t")
        own, counted = best(
            lambda: connection.sql(
                "SELECT p, y, COUNT(*) AS n FROM t GROUP BY p, y"
            ).to_arrow_table(),
            repeat,
        )
        ours, found = best(lambda: Table.from_frame(table, actual="y", predicted="p"), repeat)
        assert int(found.n) == rows == sum(counted.column("n").to_pylist())
        print(
            f"  Table: DuckDB GROUP BY p, y {own:.2f} s; Table.from_frame {ours:.2f} s; "
            f"ratio {ours / own:.2f}x"
        )
        own, counted = best(
            lambda: connection.sql(
                "SELECT s, y, COUNT(*) AS n FROM t GROUP BY s, y"
            ).to_arrow_table(),
            repeat,
        )
        ours, ranking = best(
            lambda: Ranking.from_frame(table, actual="y", scores="s", positive="click"), repeat
        )
        assert int(ranking.n) == rows
        print(
            f"  Ranking: DuckDB GROUP BY s, y {own:.2f} s ({counted.num_rows:,} groups); "
            f"Ranking.from_frame {ours:.2f} s; ratio {ours / own:.2f}x; AUC {ranking.auc():.6f}"
        )
        connection.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bench_spark(rows: int) -> None:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F  # noqa: N812  # Spark's own spelling

    from informed import Ranking

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "6g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    base = spark.range(rows, numPartitions=8).select(F.rand(1).alias("r"), F.rand(2).alias("q"))
    frame = base.select(
        (F.col("r") < 0.3).cast("double").alias("label"),
        F.round((1 - F.col("r")) * 0.4 + F.col("q") * 0.6, 2).alias("tied"),
        F.round((1 - F.col("r")) * 0.4 + F.col("q") * 0.6, 6).alias("distinct"),
    ).cache()
    frame.count()
    print(f"Spark local[2]: {rows:,} rows, 8 partitions")
    for column in ("tied", "distinct"):
        start = time.perf_counter()
        ranking = Ranking.from_frame(frame, actual="label", scores=column, positive=1.0)
        ours = time.perf_counter() - start
        print(f"  scores {column!r}: {ranking.n_groups:,} distinct values")
        print(
            f"    informed (exact):  AUC {ranking.auc():.9f}  PEM {ranking.pem():.9f}  "
            f"average hit rate {ranking.average_hit_rate():.9f}  {ours:.1f} s"
        )
        for bins in (1000, 0):
            evaluator = BinaryClassificationEvaluator(
                rawPredictionCol=column, labelCol="label", metricName="areaUnderROC", numBins=bins
            )
            start = time.perf_counter()
            value = evaluator.evaluate(frame)
            took = time.perf_counter() - start
            print(
                f"    Spark numBins={bins:<5} AUC {value:.9f}  (differs by {value - ranking.auc():+.2e})  {took:.1f} s"
            )
    spark.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duckdb-rows", type=int, default=100_000_000)
    parser.add_argument("--spark-rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-duckdb", action="store_true")
    parser.add_argument("--skip-spark", action="store_true")
    parser.add_argument("--skip-imports", action="store_true")
    args = parser.parse_args()
    compile_informed()  # as installed: see benchmarks/bytecode.py
    if not args.skip_imports:
        for module in ("narwhals", "ibis", "duckdb", "pyspark.sql"):
            print(f"import {module}: {import_time(module):.2f} s")
    if not args.skip_duckdb:
        bench_duckdb(args.duckdb_rows, args.repeat)
    if not args.skip_spark:
        bench_spark(args.spark_rows)


if __name__ == "__main__":
    main()
