"""Time windows: timestamps floored to fixed and calendar spans in one process, and the
windows counted on DuckDB (calendar fields) against DuckDB's own grouped count.

    .venv/bin/python benchmarks/bench_windows.py [--rows 10000000] [--repeat 3]

Part 1 (in this process; the best of `--repeat` runs): `--rows` timestamps
(datetime64[us], 1950 to 2050) floored by `informed.slices.windows.window_codes` to 1h,
1d, 1w, 1mo, 1q and 1y windows, beside numpy's own cast to datetime64[M] alone (the
floor of a month, without coding the windows that occur). Then the same instants stored
in Europe/Paris (an Arrow array and a pandas column): their wall-clock time as zoneinfo
gives it (`informed.slices.zones.wall_clock`) beside pyarrow's `local_timestamp` (what
informed used before, wrong after 2037) and pandas' `tz_localize(None)` (pytz, wrong
after 2037 too), and their 1h, 1d and 1mo windows.

Part 2: the same rows in an in-memory DuckDB table with two labels, a timestamp column
and the same timestamps as ISO text: `Slices.from_frame(relation, time=..., every=...)`
(the calendar fields counted on DuckDB, floored by informed, the coverage `COUNT(*)`,
the Slices built) against DuckDB's own ``GROUP BY date_trunc('month', t), p, y`` fetched
as Arrow, for months and weeks on the TIMESTAMP column and months on the text.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least time of `repeat` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def part_one(when: np.ndarray[Any, Any], repeat: int) -> None:
    from informed.slices.windows import window_codes

    print(f"Part 1: {when.size:,} timestamps floored in one process (best of {repeat})")
    cast, _ = best(lambda: when.astype("datetime64[M]"), repeat)
    print(f"  numpy's cast to datetime64[M] alone            {cast:7.3f} s")
    for every in ("1h", "1d", "1w", "1mo", "1q", "1y"):
        seconds, coded = best(lambda every=every: window_codes(when, every), repeat)
        print(
            f"  window_codes(every={every!r:6})  {len(coded.values):>7,} windows  {seconds:7.3f} s"
        )
    zoned(when, repeat)


def zoned(when: np.ndarray[Any, Any], repeat: int) -> None:
    """The instants `when` stored in Europe/Paris: wall-clock times and windows."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc

    from informed.slices.windows import window_codes
    from informed.slices.zones import wall_clock

    paris = pa.array(when, pa.timestamp("us", "Europe/Paris"))
    column = pd.Series(when.astype("datetime64[ns]")).dt.tz_localize("UTC")
    column = column.dt.tz_convert("Europe/Paris")
    print(f"  the same {when.size:,} instants stored in Europe/Paris:")
    ours, _ = best(lambda: wall_clock(when, "Europe/Paris"), repeat)
    arrow, _ = best(lambda: pc.local_timestamp(paris), repeat)
    pytz, _ = best(lambda: column.dt.tz_localize(None), repeat)
    print(f"  wall-clock times: zoneinfo's by informed      {ours:7.3f} s")
    print(f"  pyarrow's local_timestamp (stops in 2037)     {arrow:7.3f} s")
    print(f"  pandas' tz_localize(None) (pytz, stops in 2037) {pytz:5.3f} s")
    for every in ("1h", "1d", "1mo"):
        seconds, coded = best(lambda every=every: window_codes(paris, every), repeat)
        frame, _ = best(lambda every=every: window_codes(column, every), repeat)
        print(
            f"  window_codes(every={every!r:6})  {len(coded.values):>7,} windows  "
            f"Arrow {seconds:7.3f} s, pandas {frame:7.3f} s"
        )


def part_two(when: np.ndarray[Any, Any], repeat: int) -> None:
    import duckdb
    import pyarrow as pa

    from informed.slices import Slices

    rng = np.random.default_rng(1)
    n = when.size
    actual = rng.random(n) < 0.3
    table = pa.table(
        {
            "t": pa.array(when),
            "text": pa.array(np.datetime_as_string(when, unit="s")),
            "y": np.where(actual, "click", "no click"),
            "p": np.where(actual == (rng.random(n) < 0.8), "click", "no click"),
        }
    )
    connection = duckdb.connect()
    connection.register("arrow_rows", table)
    connection.sql("CREATE TABLE rows AS SELECT * FROM arrow_rows")
    connection.unregister("arrow_rows")
    relation = connection.table("rows")
    print(f"Part 2: {n:,} rows in DuckDB (in memory; best of {repeat})")
    for column, every, unit in (
        ("t", "1mo", "month"),
        ("t", "1w", "week"),
        ("text", "1mo", "month"),
    ):
        truncated = f"date_trunc('{unit}', CAST({column} AS TIMESTAMP))"
        own, _ = best(
            lambda truncated=truncated: connection.sql(
                f"SELECT {truncated} AS w, p, y, COUNT(*) AS n FROM rows GROUP BY ALL"
            ).to_arrow_table(),
            repeat,
        )
        ours, found = best(
            lambda column=column, every=every: Slices.from_frame(
                relation, time=column, every=every, actual="y", predicted="p"
            ),
            repeat,
        )
        print(
            f"  {column:>4} every {every:3}: DuckDB's own GROUP BY date_trunc {own:6.3f} s, "
            f"Slices.from_frame {ours:6.3f} s ({ours / own:4.2f}x), {len(found.keys):,} windows"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    start = np.datetime64("1950-01-01", "us").astype(np.int64)
    span = 100 * 365 * 86400 * 10**6
    when = (start + rng.integers(0, span, args.rows)).astype("datetime64[us]")
    part_one(when, args.repeat)
    part_two(when, args.repeat)


if __name__ == "__main__":
    main()
