"""One data set through every input route gives one Table: numpy ints and strings, object
arrays, lists, pandas (plain and Categorical), polars (plain and Categorical), pyarrow
(plain, dictionary, chunked), and CSV, Parquet and Arrow IPC files, with and without
pyarrow's hash coding. The expected Table is counted by brute force in the test."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import informed.coding.columns
from informed import Ranking, Table
from informed.io import read_summaries

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ipc = pytest.importorskip("pyarrow.ipc")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

WORDS = ["cat", "dog", "NA", "null", "007", " x", "ünï", "Zebra", "a\tb", "ibis", "e\u0301"]
NUMBERS = [0, 1, 2, 7, -3, 1 << 40, 12]


@contextmanager
def numpy_only(flag: bool) -> Iterator[None]:
    informed.coding.columns.ARROW_DISABLED = flag
    try:
        yield
    finally:
        informed.coding.columns.ARROW_DISABLED = False


def _data(values: list[Any], n: int = 3000, seed: int = 0) -> tuple[list[Any], list[Any]]:
    rng = np.random.default_rng(seed)
    # the last value is never predicted and one value never occurs: both drop out
    actual = [values[i] for i in rng.integers(0, len(values) - 1, n)]
    predicted = [
        a if rng.random() < 0.6 else values[i]
        for a, i in zip(actual, rng.integers(1, len(values) - 1, n), strict=True)
    ]
    actual[17] = values[-1]
    return actual, predicted


def _expected(
    actual: list[Any], predicted: list[Any]
) -> tuple[list[Any], list[Any], list[list[int]]]:
    """Brute force: labels sorted (numbers numerically, strings by code point), cells counted."""
    rows = sorted(set(predicted))
    cols = sorted(set(actual))
    cells = Counter(zip(predicted, actual, strict=True))
    return rows, cols, [[cells[(r, c)] for c in cols] for r in rows]


def _check(
    table: Table, expected: tuple[list[Any], list[Any], list[list[int]]], route: str
) -> None:
    rows, cols, counts = expected
    assert list(table.predicted) == rows, route
    assert list(table.actual) == cols, route
    assert [type(x) for x in table.predicted] == [type(x) for x in rows], route
    assert table.counts.tolist() == counts, route


def _in_memory(values: list[Any], dtype: Any) -> dict[str, Callable[[list[Any]], Any]]:
    return {
        "list": list,
        "numpy": lambda v: np.array(v, dtype=dtype),
        "object": lambda v: np.array(v, dtype=object),
        "pandas": pd.Series,
        "pandas categorical": lambda v: pd.Series(v, dtype="category"),
        "pandas Categorical": pd.Categorical,
        "polars": pl.Series,
        "polars categorical": lambda v: (
            pl.Series(v).cast(pl.String).cast(pl.Categorical)
            if isinstance(v[0], str)
            else pl.Series(v)
        ),
        "pyarrow": pa.array,
        "pyarrow dictionary": lambda v: pa.array(v).dictionary_encode(),
        "pyarrow chunked": lambda v: pa.chunked_array([pa.array(v[:1000]), pa.array(v[1000:])]),
        "pyarrow chunked dictionary": lambda v: pa.chunked_array(
            [pa.array(v[:1000]).dictionary_encode(), pa.array(v[1000:]).dictionary_encode()]
        ),
    }


@pytest.mark.parametrize("without_arrow", [False, True])
@pytest.mark.parametrize(("values", "dtype"), [(WORDS, str), (NUMBERS, np.int64)])
def test_every_in_memory_route_gives_one_table(
    values: list[Any], dtype: Any, without_arrow: bool
) -> None:
    actual, predicted = _data(values)
    expected = _expected(actual, predicted)
    with numpy_only(without_arrow):
        for name, make in _in_memory(values, dtype).items():
            table = Table.from_labels(actual=make(actual), predicted=make(predicted))
            _check(table, expected, name)
        for frame in (
            pd.DataFrame({"y": actual, "p": predicted}),
            pl.DataFrame({"y": actual, "p": predicted}),
            pa.table({"y": actual, "p": predicted}),
            {"y": actual, "p": predicted},
        ):
            _check(Table.from_frame(frame, actual="y", predicted="p"), expected, str(type(frame)))


def _files(tmp_path: Path, actual: list[Any], predicted: list[Any]) -> dict[str, Path]:
    strings = pa.table({"y": [str(x) for x in actual], "p": [str(x) for x in predicted]})
    native = pa.table({"y": actual, "p": predicted})
    paths = {}
    csv_path = tmp_path / "d.csv"
    body = "".join(
        f'"{a}",{p}\n' if "," in a else f"{a},{p}\n"
        for a, p in zip(
            strings.column("y").to_pylist(), strings.column("p").to_pylist(), strict=True
        )
    )
    csv_path.write_bytes(("y,p\n" + body).encode())
    paths["csv"] = csv_path
    for name, table in (("strings", strings), ("native", native)):
        parquet = tmp_path / f"{name}.parquet"
        pq.write_table(table, parquet, row_group_size=700)
        paths[f"parquet {name}"] = parquet
        dictionary = tmp_path / f"{name}_dict.parquet"
        pq.write_table(
            pa.table({c: table.column(c).dictionary_encode() for c in ("y", "p")}), dictionary
        )
        paths[f"parquet {name} dictionary"] = dictionary
        arrow = tmp_path / f"{name}.arrow"
        with ipc.new_file(arrow, table.schema) as writer:
            for batch in table.to_batches(max_chunksize=500):
                writer.write_batch(batch)
        paths[f"arrow {name}"] = arrow
    return paths


@pytest.mark.parametrize("values", [WORDS, NUMBERS])
def test_every_file_route_gives_the_table_of_the_labels_as_text(
    values: list[Any], tmp_path: Path
) -> None:
    """Files hold text labels: integers in Parquet or Arrow become their strings."""
    actual, predicted = _data(values)
    expected = _expected([str(x) for x in actual], [str(x) for x in predicted])
    for name, path in _files(tmp_path, actual, predicted).items():
        for without_arrow in (False, True) if name == "csv" else (False,):
            with numpy_only(without_arrow):
                found = read_summaries(path, actual="y", predicted="p", batch_rows=512)
            assert found.rows == len(actual), name
            _check(found.table, expected, name)
            in_memory = Table.from_labels(
                actual=[str(x) for x in actual], predicted=[str(x) for x in predicted]
            )
            assert found.table == in_memory, name


def test_a_file_ranking_equals_the_in_memory_ranking(tmp_path: Path) -> None:
    """Rankings merged batch by batch equal the Ranking of all rows at once."""
    rng = np.random.default_rng(1)
    n = 5000
    actual = rng.choice(["a", "b", "c"], n)
    scores = np.round(rng.random(n), 2)
    weights = rng.integers(0, 4, n).astype(float)
    path = tmp_path / "s.parquet"
    pq.write_table(pa.table({"y": actual, "s": scores, "w": weights}), path, row_group_size=300)
    for weight in (None, "w"):
        found = read_summaries(
            path, actual="y", score="s", weight=weight, positive="b", batch_rows=256
        )
        assert found.ranking == Ranking.from_scores(
            actual=actual == "b",
            scores=scores,
            positive=True,
            weights=None if weight is None else weights,
        ).with_classes("b")
        assert found.labels == ("a", "b", "c")


def test_unused_categories_are_not_labels_unless_named() -> None:
    actual = pd.Categorical(["a", "b", "a"], categories=["z", "b", "a", "q"])
    predicted = pd.Categorical(["a", "a", "a"], categories=["a", "b"])
    table = Table.from_labels(actual=actual, predicted=predicted)
    assert table.predicted == ("a",) and table.actual == ("a", "b")
    named = Table.from_labels(actual=actual, predicted=predicted, labels=["a", "b", "q"])
    assert named.predicted == ("a", "b", "q") and named.counts.tolist() == [
        [2, 1, 0],
        [0, 0, 0],
        [0, 0, 0],
    ]


def test_a_ranking_built_in_its_thread_raises_as_the_call_does() -> None:
    """A frame's Ranking is built in a thread; its error is the one Ranking.from_scores
    raises, raised by the call, and the thread is not left running."""
    import threading

    from informed.errors import InputError
    from informed.io.summaries import summarise_frame

    frame = {"y": ["a", "b", "a"], "s": [0.5, float("nan"), 0.1]}
    with pytest.raises(InputError) as expected:
        Ranking.from_scores(frame["y"], frame["s"], positive="a")
    before = threading.active_count()
    with pytest.raises(InputError) as caught:
        summarise_frame(frame, part="p", actual="y", scores="s", positive="a")
    assert str(caught.value) == str(expected.value)
    assert "row 2" in str(caught.value)
    assert threading.active_count() == before
