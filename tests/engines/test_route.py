"""The engine route on polars, DuckDB and ibis lazy frames: the summaries counted where the
rows live equal the in-memory summaries of the same rows, exactly; what cannot be counted
exactly is refused with the count of rows and the engine's filter."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from engine_data import engine_frames, rows

from informed import Ranking, Slices, Table, evaluate
from informed.errors import InputError, InputTypeError, MemoryLimitError
from informed.io import summarise_frame
from informed.io.tallies import summarise_documents

# the engine route needs narwhals; these tests run it on DuckDB, polars and ibis
for _package in ("narwhals", "duckdb", "polars", "ibis"):
    pytest.importorskip(_package, reason=f"the engine tests need {_package} (informed[test])")

ENGINES = ("polars", "duckdb", "ibis")


@pytest.fixture(scope="module", params=[0, 1])
def data(request: Any, tmp_path_factory: Any) -> tuple[pa.Table, dict[str, Any]]:
    table = rows(request.param)
    return table, engine_frames(table, tmp_path_factory.mktemp("parts"), parts=3)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_summary_equals_the_in_memory_one(
    data: tuple[pa.Table, dict[str, Any]], engine: str
) -> None:
    """Table, weighted Table, Ranking (two classes, weighted), Slices (one column and two
    crossed, with a missing slice, Table and Ranking) and a frame's summaries: equal to
    those of the same rows in memory, on data split into partitions, with tied scores,
    -0.0 among them, and weights of 0."""
    memory, frames = data
    frame = frames[engine]
    assert Table.from_frame(frame, actual="y", predicted="p") == Table.from_frame(
        memory, actual="y", predicted="p"
    )
    assert Table.from_frame(frame, actual="y", predicted="p", weights="w") == Table.from_frame(
        memory, actual="y", predicted="p", weights="w"
    )
    two = {"actual": "b", "scores": "s", "positive": True}
    assert Ranking.from_frame(frame, **two) == Ranking.from_frame(memory, **two)
    assert Ranking.from_frame(frame, **two, weights="w") == Ranking.from_frame(
        memory, **two, weights="w"
    )
    options = {"actual": "y", "predicted": "p", "scores": "s", "positive": "cat"}
    assert Slices.from_frame(frame, by="g", **options, weights="w") == Slices.from_frame(
        memory, by="g", **options, weights="w"
    )
    assert Slices.from_frame(frame, by=["g", "p"], **options) == Slices.from_frame(
        memory, by=["g", "p"], **options
    )
    found = summarise_frame(frame, part="day", **options, weights="w")
    assert found == summarise_frame(memory, part="day", **options, weights="w")
    assert found.rows == memory.num_rows and found.parts == frozenset({"day"})
    measures = evaluate(frame, actual="y", predicted="p").measures
    expected = evaluate(memory, actual="y", predicted="p").measures
    assert all(
        measures[k] == v or (math.isnan(measures[k]) and math.isnan(v)) for k, v in expected.items()
    )


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_weights_are_summed_exactly_where_the_in_memory_sum_rounds(
    engine: str, tmp_path: Path
) -> None:
    """Weights such as 0.1, 1/3, 1e-9 and 2^51 + 0.5 in one cell: each cell is the float64
    nearest the exact sum (a Fraction oracle), whatever order the engine adds in."""
    rng = np.random.default_rng(5)
    n = 4000
    y = rng.choice(["a", "b"], n)
    p = rng.choice(["a", "b"], n)
    w = rng.random(n) * rng.choice([1e-9, 1e-3, 1.0, 1e6, 1e12], n)
    w[:5] = [0.1, 1 / 3, 2.0**-60, 2.0**51 + 0.5, 0.0]
    table = pa.table({"y": y, "p": p, "w": w})
    exact: dict[tuple[str, str], Fraction] = {}
    for a, b, weight in zip(y.tolist(), p.tolist(), w.tolist(), strict=True):
        exact[(b, a)] = exact.get((b, a), Fraction(0)) + Fraction(weight)
    counted = Table.from_frame(
        engine_frames(table, tmp_path)[engine], actual="y", predicted="p", weights="w"
    )
    assert {k: counted.count(*k) for k in exact} == {k: float(v) for k, v in exact.items()}


@pytest.mark.parametrize(
    ("values", "found"),
    [
        ([1.0, -0.5, 2.0], r"holds 1 negative weights.*WHERE \"w\" < 0"),
        ([1.0, float("nan"), None], r"holds 1 missing \(null\), 1 NaN weights"),
        ([1.0, float("inf"), 2.0], r"holds 1 infinite weights"),
        ([1.0, 2.0**53, 2.0], r"holds 1 of 2\^52 or more weights"),
        ([1.0, 1e-30, 1.0], r"1 weights of the column .w. have bits below 2\^-104"),
    ],
)
def test_weights_the_engine_cannot_sum_exactly_are_refused_with_a_count(
    values: list[float | None], found: str
) -> None:
    """Missing, NaN, negative, infinite, too large or too fine weights: how many, and the
    filter that finds them on the engine; nothing rounded silently."""
    import duckdb

    table = pa.table(
        {"y": ["a", "b", "a"], "p": ["a", "a", "b"], "w": pa.array(values, pa.float64())}
    )
    relation = duckdb.connect().from_arrow(table)
    with pytest.raises(InputError, match=found):
        Table.from_frame(relation, actual="y", predicted="p", weights="w")


def _all_ones_weights() -> list[float]:
    """Weights of 53 one bits (the float64 just below 2^k) and powers of two, at every
    exponent the limbs hold: bits from 2^-104 to 2^51. Each limb of such a weight is
    2^26 - 1 or its top part, where a modulo computed as ((x % m) + m) % m rounds up."""
    found = []
    for k in range(-51, 53):
        found += [math.ldexp(1.0, k) - math.ldexp(1.0, k - 53), math.ldexp(1.0, k - 1)]
    return found


@pytest.mark.parametrize("engine", ENGINES)
def test_weights_of_every_bit_pattern_are_summed_exactly(engine: str, tmp_path: Path) -> None:
    """Weights with all 53 bits set (0.9999999999999999, 2.9999999999999996, ...) at every
    exponent, powers of two and random doubles: each cell is the float64 nearest the
    exact sum of its weights (a Fraction oracle), on every engine."""
    rng = np.random.default_rng(9)
    w = [*_all_ones_weights(), 3.0 - 2.0**-51, 1.0 - 2.0**-53]
    w += (rng.random(300) * np.exp2(rng.integers(-50, 52, 300))).tolist()
    n = len(w)
    y, p = rng.choice(["a", "b"], n).tolist(), rng.choice(["a", "b"], n).tolist()
    exact: dict[tuple[str, str], Fraction] = {}
    for a, b, weight in zip(y, p, w, strict=True):
        exact[(b, a)] = exact.get((b, a), Fraction(0)) + Fraction(weight)
    frame = engine_frames(pa.table({"y": y, "p": p, "w": w}), tmp_path)[engine]
    counted = Table.from_frame(frame, actual="y", predicted="p", weights="w")
    assert {k: counted.count(*k) for k in exact} == {k: float(v) for k, v in exact.items()}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("tiny", [1e-100, 5e-324, 1e-300, 2.0**-52 - 2.0**-105, 2.0**-105])
def test_tiny_weights_are_refused_on_every_engine_never_zeroed(
    engine: str, tiny: float, tmp_path: Path
) -> None:
    """A weight with bits below 2^-104 (1e-100, the smallest subnormal 5e-324, ...) cannot
    be summed exactly by the limbs: refused with its count on every engine, never summed
    as 0 (which made informedness nan with the false reason "no real positives")."""
    table = pa.table({"y": ["a", "b", "a"], "p": ["a", "a", "b"], "w": [tiny, tiny, 1.0]})
    frame = engine_frames(table, tmp_path, parts=1)[engine]
    with pytest.raises(InputError, match=r"2 weights of the column 'w' have bits below 2\^-104"):
        Table.from_frame(frame, actual="y", predicted="p", weights="w")


@pytest.mark.parametrize("engine", ENGINES)
def test_nan_in_a_by_column_is_the_missing_slice_on_every_engine(
    engine: str, tmp_path: Path
) -> None:
    """NaN in a float `by` column (kept as NaN on the engine, beside nulls) is the slice
    "missing", as in a numpy column in memory (the oracle); it was refused as a missing
    label. The engine's NaN and null groups add into one slice, Table and Ranking."""
    rng = np.random.default_rng(16)
    n = 200
    g = rng.choice([0.5, 1.5, np.nan, -1.0], n)
    null = rng.random(n) < 0.1
    y = rng.choice(["a", "b"], n)
    p = np.where(rng.random(n) < 0.7, y, "b")
    s = np.round(rng.random(n), 1)
    table = pa.table({"g": pa.array(g, mask=null), "y": y, "p": p, "s": s})
    options = {"actual": "y", "predicted": "p", "scores": "s", "positive": "a"}
    expected = Slices.from_labels(
        by=np.where(null, np.nan, g), actual=y, predicted=p, scores=s, positive="a", names=["g"]
    )
    assert expected.keys[-1] == (None,)
    frame = engine_frames(table, tmp_path)[engine]
    assert Slices.from_frame(frame, by="g", **options) == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_a_nul_in_a_label_or_slice_key_is_counted_never_given_a_group_as_its_row(
    engine: str, tmp_path: Path
) -> None:
    """A NUL in a `by` column (after a missing value) or in a label: refused with the rows
    that hold it and the engine's filter that finds them, as missing labels are; the
    position of its group in the grouped count ("row 2 (index 1)") is no row of the
    frame. On DuckDB the filter given finds the rows."""
    table = pa.table(
        {
            "g": [None, "x", "z\x00", "z\x00", "x"],
            "q": ["a", "z\x00", "b", "z\x00", "z\x00"],
            "y": ["a", "b", "a", "b", "b"],
            "p": ["a"] * 5,
        }
    )
    frame = engine_frames(table, tmp_path, parts=1)[engine]
    with pytest.raises(InputError) as refused:
        Slices.from_frame(frame, by="g", actual="y", predicted="p")
    message = str(refused.value)
    assert "`by` (the column 'g') holds 'z\\x00' in 2 rows" in message, message
    assert "row 2" not in message and "index" not in message
    with pytest.raises(InputError, match=r"`actual` \(the column 'q'\) holds 'z\\x00' in 3 rows"):
        Table.from_frame(frame, actual="q", predicted="q")
    if engine == "duckdb":
        where = message.split("find them with ")[1].rstrip(".")
        assert len(frame.filter(where.removeprefix("WHERE ")).fetchall()) == 2


def test_missing_labels_are_counted_and_the_filter_given() -> None:
    """A grouped count cannot name a row: a null label gives the rows that hold one and
    the engine's filter; a type that is no label is refused with the cast to write."""
    import duckdb
    import polars as pl

    table = pa.table({"y": ["a", None, None, "b"], "p": ["a", "b", "a", "b"], "d": [1, 2, 3, 4]})
    relation = duckdb.connect().from_arrow(table)
    with pytest.raises(
        InputError, match=r"column 'y'\) has a missing value in 2 rows.*WHERE \"y\" IS NULL"
    ):
        Table.from_frame(relation, actual="y", predicted="p")
    with pytest.raises(InputError, match=r"pl\.col\('y'\)\.is_null\(\)"):
        Table.from_frame(pl.from_arrow(table).lazy(), actual="y", predicted="p")
    dated = duckdb.connect().sql("SELECT DATE '2024-01-01' AS y, 'a' AS p")
    with pytest.raises(InputTypeError, match=r"is of type date32.*CAST"):
        Table.from_frame(dated, actual="y", predicted="p")
    text = duckdb.connect().sql("SELECT 'a' || chr(0) AS y, 'a' AS p")
    with pytest.raises(InputError, match=r"the column 'y'\) holds 'a\\x00' in 1 rows.*NUL"):
        Table.from_frame(text, actual="y", predicted="p")


def test_labels_keep_their_kind_and_scores_their_values() -> None:
    """True is not 1: a bool column against an int column is refused as in memory; an
    integer score beyond 2^53 and a NaN score are refused with their rows."""
    import duckdb

    connection = duckdb.connect()
    mixed = connection.sql("SELECT true AS y, 1 AS p")
    with pytest.raises(InputTypeError, match="same kind"):
        Table.from_frame(mixed, actual="y", predicted="p")
    big = connection.sql("SELECT 1 AS y, 9007199254740993::BIGINT AS s UNION ALL SELECT 0, 1")
    with pytest.raises(InputError, match=r"1 rows hold integers beyond 2\*\*53"):
        Ranking.from_frame(big, actual="y", scores="s", positive=1)
    nan = connection.sql("SELECT 1 AS y, 'nan'::DOUBLE AS s UNION ALL SELECT 0, 1")
    with pytest.raises(InputError, match=r"holds NaN in 1 rows: find them with WHERE isnan"):
        Ranking.from_frame(nan, actual="y", scores="s", positive=1)


def test_a_ranking_too_large_to_fetch_is_refused_before_it_is_fetched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """More distinct scores than memory allows: the groups are counted on the engine and
    refused in one line saying how many and how to round, never binned."""
    import duckdb

    relation = duckdb.connect().sql("SELECT (i % 2) AS y, i / 7.0 AS s FROM range(20000) t(i)")
    monkeypatch.setenv("INFORMED_MEMORY_LIMIT", str(100_000))
    with pytest.raises(MemoryLimitError, match=r"a Ranking of 20,000 distinct .*ROUND\(score, 4\)"):
        Ranking.from_frame(relation, actual="y", scores="s", positive=1)
    rounded = relation.project("y, round(s, -3) AS s")
    assert Ranking.from_frame(rounded, actual="y", scores="s", positive=1).n == 20000


def test_rows_lost_between_the_count_and_the_grouped_count_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The grouped count must count every row the frame holds (a separate COUNT(*)); a
    difference (a partition lost, data that changed) is an error, nothing reported."""
    import duckdb

    import informed.engines.query as query

    relation = duckdb.connect().sql("SELECT 'a' AS y, 'b' AS p FROM range(10)")
    monkeypatch.setattr(query, "count_rows", lambda frame, lazy: 11)
    import informed.engines.route as route

    monkeypatch.setattr(route, "count_rows", lambda frame, lazy: 11)
    with pytest.raises(InputError, match=r"counted 10 rows but the frame holds 11"):
        Table.from_frame(relation, actual="y", predicted="p")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_a_tally_of_documents_equals_the_in_memory_one(engine: str) -> None:
    """Lists of categories per document, an undeclared one among them: the same Tally
    (and the same documents ignored) as documents read in memory; refused by default."""
    import duckdb
    import polars as pl

    rng = np.random.default_rng(3)
    names = ["sport", "politics", "weather"]
    assigned = [list(rng.choice([*names, "other"], rng.integers(0, 3))) for _ in range(300)]
    correct = [list(rng.choice(names, rng.integers(0, 3))) for _ in range(300)]
    table = pa.table({"assigned": assigned, "correct": correct})
    frame = (
        pl.from_arrow(table).lazy() if engine == "polars" else duckdb.connect().from_arrow(table)
    )
    expected = summarise_documents(table, part="d", categories=names, unknown="ignore")
    found = summarise_documents(frame, part="d", categories=names, unknown="ignore")
    assert found.tally == expected.tally and found.tally is not None
    assert found.tally.ignored == expected.tally.ignored != {}
    with pytest.raises(InputError, match=r"documents name a category that is not one of the 3"):
        summarise_documents(frame, part="d", categories=names)
