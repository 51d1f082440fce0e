"""The labels' sliced route cut without changing a number (issue 27, item 24, labels in
100 slices): a batch of tables' margins added a cell at a time, in the order a bincount
adds them, and a Parquet slice column counted by its dictionary codes, the counts then
put in the slices' canonical order."""

from __future__ import annotations

import numpy as np
import pytest

from informed.measures.cells import scatter

ADVERSARIAL = np.array([0.1, 1e-17, 1e17, 3.3, -0.0, 0.0, -1e17, 2.5e-300, 7.0, np.nan])


def _in_order(values: np.ndarray, index: np.ndarray, size: int) -> np.ndarray:
    """The oracle: each output a Python float from 0.0, the values added one by one in
    the order of their cells."""
    batch = values.shape[:-1]
    out = np.zeros((*batch, size))
    for at in np.ndindex(*batch):
        sums = [0.0] * size
        for i, k in enumerate(index.tolist()):
            sums[k] = sums[k] + float(values[(*at, i)])
        out[at] = sums
    return out


@pytest.mark.parametrize("cells", [1, 2, 4, 7, 16, 17])
def test_scatter_adds_a_batch_in_the_order_of_its_cells(cells: int) -> None:
    rng = np.random.default_rng(21)
    values = rng.choice(ADVERSARIAL, (6, 5, cells))
    values[0] = -0.0  # a table of negative zeros sums to +0.0
    index = rng.integers(0, 3, cells).astype(np.intp)
    found = scatter(values, index, 3)
    expected = _in_order(values, index, 3)
    assert found.shape == expected.shape
    # bit for bit: the same bytes (nan where a nan was added, +0.0 never -0.0)
    assert found.tobytes() == expected.tobytes()
    assert scatter(values[:0], index, 3).shape == (0, 5, 3)  # an empty batch


WORDS = ["m", "b", "zz", "a", "q", "b", "k"]  # "b" twice; "a" and "q" in no row
WEIGHTS = np.array([0.1, 1e-17, 1e17, 3.3, 1.0, 0.0])


def _oracle(
    by: list[str], actual: list[str], predicted: list[str], weights: np.ndarray | None
) -> dict[str, dict[tuple[str, str], float]]:
    """Each slice's cells (predicted, actual) -> count or weight, summed in row order
    from 0.0, as a Table of the slice's rows counts them."""
    out: dict[str, dict[tuple[str, str], float]] = {}
    for i, key in enumerate(by):
        cells = out.setdefault(key, {})
        cell = (predicted[i], actual[i])
        cells[cell] = cells.get(cell, 0.0) + (1.0 if weights is None else float(weights[i]))
    return out


def _rows(n: int, seed: int) -> tuple[list[int], list[str], list[str], np.ndarray]:
    """Codes into WORDS ("b" under two codes, a slice of one row), actual and predicted
    labels, weights."""
    rng = np.random.default_rng(seed)
    codes = rng.choice([0, 1, 2, 5], n).tolist()
    codes[n // 2] = 6  # "k": a slice of one row
    actual = rng.choice(["pos", "neg"], n).tolist()
    predicted = rng.choice(["pos", "neg", "other"], n).tolist()
    return codes, actual, predicted, rng.choice(WEIGHTS, n)


def _check(found: object, expected: dict[str, dict[tuple[str, str], float]]) -> None:
    """Each slice of `found` in sorted order, its Table's cells those of the oracle."""
    from informed.slices import Slices

    assert isinstance(found, Slices)
    assert [key[0] for key in found.keys] == sorted(expected)  # no "a" or "q"
    for key in sorted(expected):
        table = found.table(key)
        cells = {
            (str(p), str(a)): float(table.counts[i, j])
            for i, p in enumerate(table.predicted)
            for j, a in enumerate(table.actual)
            if (str(p), str(a)) in expected[key] or table.counts[i, j] != 0
        }
        assert cells == expected[key]  # every float bit for bit (== on Python floats)


@pytest.fixture
def raw_route(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each batch took the route of the column's own codes (`arrow_codes`)."""
    from informed.slices import building

    taken: list[bool] = []
    original = building.arrow_codes

    def recorded(values: object, name: str) -> object:
        found = original(values, name)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(building, "arrow_codes", recorded)
    return taken


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("form", ["string", "large_string", "dictionary"])
def test_slices_of_an_arrow_column_counted_by_its_codes_are_those_of_their_rows(
    form: str, weighted: bool, raw_route: list[bool]
) -> None:
    pa = pytest.importorskip("pyarrow")
    from informed.slices import Slices
    from informed.slices.building import slice_fields

    codes, actual, predicted, weights = _rows(600, 22)
    by = [WORDS[i] for i in codes]
    if form == "dictionary":  # words no row uses, and a word under two codes
        column = pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32()), WORDS)
    else:
        column = pa.array(by, pa.string() if form == "string" else pa.large_string())
    w = weights if weighted else None
    fields, classes = slice_fields(
        [column], ["g"], pa.array(actual), pa.array(predicted), None, None, w
    )
    assert raw_route == [True]
    found = Slices(*fields)
    _check(found, _oracle(by, actual, predicted, w))
    assert classes == ("neg", "pos")
    # the rows of each slice, with or without weights
    assert found.rows.tolist() == [by.count(key) for key in sorted(set(by))]
    assert found.cells is not None
    s = found.cells.slice
    assert s.dtype == np.intp
    assert bool(np.all(s[1:] >= s[:-1]))
    # and the Slices of the rows' numpy strings (the route that codes every row)
    plain, _ = slice_fields([np.array(by)], ["g"], actual, predicted, None, None, w)
    assert raw_route == [True, False]
    assert Slices(*plain) == found


def test_an_empty_arrow_column_gives_no_slice() -> None:
    pa = pytest.importorskip("pyarrow")
    from informed.slices.building import slice_fields

    empty = pa.array([], pa.string())
    fields, _ = slice_fields([empty], ["g"], empty, empty, None, None, None)
    assert fields[1] == ()
    assert fields[2].tolist() == []


def test_a_parquet_file_read_in_batches_gives_each_slice_its_rows(
    tmp_path: object, raw_route: list[bool]
) -> None:
    # row groups with dictionaries of their own, batches across them: every batch's
    # codes counted and put in order, the batches merged
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from pathlib import Path

    from informed.io.sliced import read_slices

    codes, actual, predicted, _ = _rows(3000, 23)
    by = ["zz"] * 700 + [WORDS[i] for i in codes[700:]]  # a row group of one slice
    path = Path(str(tmp_path)) / "rows.parquet"
    pq.write_table(pa.table({"g": by, "y": actual, "p": predicted}), path, row_group_size=700)
    found = read_slices(path, by="g", actual="y", predicted="p", batch_rows=500)
    assert len(raw_route) >= 6  # every batch (some cut at the row groups)
    assert all(raw_route)
    _check(found, _oracle(by, actual, predicted, None))
    assert found.rows.tolist() == [by.count(key) for key in sorted(set(by))]


@pytest.mark.parametrize(
    ("first", "second", "keys", "mine", "theirs"),
    [
        ((("a",), ("b",)), (("a",), ("b",)), (("a",), ("b",)), [0, 1], [0, 1]),
        (((1,),), ((1.0,),), ((1,),), [0], [0]),  # equal keys of two types: the first's
        (((True,),), ((1,),), ((True,), (1,)), [0], [1]),  # True is not 1
        ((("1",),), ((1,),), ((1,), ("1",)), [1], [0]),  # numbers before text
        (((1,), (2,)), ((2,), (3,)), ((1,), (2,), (3,)), [0, 1], [1, 2]),
        ((("a", None),), (("a", None), ("b", 1)), (("a", None), ("b", 1)), [0], [0, 1]),
        ((), (("a",),), (("a",),), [], [0]),
    ],
)
def test_merged_keys_are_the_union_in_canonical_order(
    first: tuple, second: tuple, keys: tuple, mine: list[int], theirs: list[int]
) -> None:
    from informed.slices.keys import merged_keys

    found, at_mine, at_theirs = merged_keys(first, second)
    assert found == keys
    assert [type(v) for key in found for v in key] == [type(v) for key in keys for v in key]
    assert at_mine.tolist() == mine
    assert at_theirs.tolist() == theirs


def test_batches_of_the_same_slices_add_up_to_the_slices_of_their_rows() -> None:
    from informed.slices import Slices

    codes, actual, predicted, _ = _rows(900, 24)
    by = [WORDS[i] for i in codes]
    by[0], by[450], by[-1] = "k", "m", "k"  # "k": a slice of one row in either half
    half = 450
    parts = [
        Slices.from_labels(by=by[lo:hi], actual=actual[lo:hi], predicted=predicted[lo:hi])
        for lo, hi in ((0, half), (half, 900))
    ]
    assert parts[0].keys == parts[1].keys  # the route of the same keys
    found = parts[0] + parts[1]
    _check(found, _oracle(by, actual, predicted, None))
    assert found.rows.tolist() == [by.count(key) for key in sorted(set(by))]


def _scaled(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray) -> np.ndarray:
    """The oracle: informedness as it was computed before, each column scaled by the
    power of two that brings its sum into [0.5, 1), then the plain determinant over the
    product of the scaled margins (nan where a margin is empty), clipped to [-1, 1]."""

    def scale(total: np.ndarray) -> np.ndarray:
        _, exponent = np.frexp(np.where(total > 0, total, 1.0))
        return np.ldexp(1.0, -exponent)

    first, second = scale(tp + fn), scale(fp + tn)
    tp, fn, fp, tn = tp * first, fn * first, fp * second, tn * second
    product = (tp + fn) * (fp + tn)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(product != 0, (tp * tn - fp * fn) / product, np.nan)
    return np.clip(value, -1.0, 1.0)


def test_informedness_of_small_whole_counts_is_the_scaled_formula_bit_for_bit() -> None:
    from informed.measures.binary import informedness, markedness

    rng = np.random.default_rng(25)
    top = 2**26 - 1
    tables = np.concatenate(
        [
            rng.integers(0, top, (20000, 2, 2)),
            rng.integers(0, 40, (20000, 2, 2)),  # small tables, empty margins among them
            np.array([[[top, top], [top, top]], [[top, 0], [0, top]], [[0, 0], [0, 0]]]),
            np.array([[[top, 1], [1, top - 1]], [[1, 0], [0, 0]], [[0, 1], [top, 0]]]),
        ]
    ).astype(np.float64)
    tp, fp, fn, tn = tables[:, 0, 0], tables[:, 0, 1], tables[:, 1, 0], tables[:, 1, 1]
    assert informedness(tables).tobytes() == _scaled(tp, fp, fn, tn).tobytes()
    # markedness: the same over the rows (the transposed table)
    assert markedness(tables).tobytes() == _scaled(tp, fn, fp, tn).tobytes()


@pytest.mark.parametrize("labels", [2, 3])
def test_one_label_view_is_that_label_of_every_view(labels: int) -> None:
    from informed.measures.cells import Cells, one_view

    rng = np.random.default_rng(26)
    counts = rng.integers(0, 50, (40, 3, labels, labels)).astype(np.float64)
    counts[0, 0] = 0.0  # an empty table
    counts[1, 0] = 0.0
    counts[1, 0, 0, 0] = 1.0  # a table of one row
    counts[2, 0] = -0.0  # negative zeros: their sums are +0.0
    weights = counts * 0.1  # not whole: the views of every label, cut
    for table in (counts, weights):
        rows = np.repeat(np.arange(labels), labels)
        cols = np.tile(np.arange(labels), labels)
        cells = Cells(table.reshape(40, 3, -1), rows, cols, (labels, labels))
        for index in range(labels):
            found = one_view(cells, index)
            # the oracle: label index's one-vs-rest table written out
            tp = table[..., index, index]
            fp = table[..., index, :].sum(axis=-1) - tp
            fn = table[..., :, index].sum(axis=-1) - tp
            tn = table.sum(axis=(-2, -1)) - tp - fp - fn
            expected = np.stack([np.stack([tp, fp], -1), np.stack([fn, tn], -1)], -2)
            assert found.shape == (40, 3, 1, 2, 2)
            assert found.flags.c_contiguous
            assert not found.flags.writeable
            if table is counts:  # whole counts: exact sums, +0.0 for every zero
                assert found[..., 0, :, :].tobytes() == (expected + 0.0).tobytes()
            else:
                assert np.allclose(found[..., 0, :, :], expected, rtol=1e-12, atol=1e-12)


def test_canonical_codes_sort_the_labels_that_occur() -> None:
    from informed.slices.keys import canonical_codes

    keys, position = canonical_codes(("m", "b", "zz", "a", "B"), np.array([1, 1, 1, 0, 1], bool))
    assert keys == (("B",), ("b",), ("m",), ("zz",))  # code point order; "a" in no row
    assert position.tolist() == [2, 1, 3, -1, 0]
    # booleans, then numbers, then text
    keys, position = canonical_codes(("a", 2, True, 1.5), np.ones(4, bool))
    assert keys == ((True,), (1.5,), (2,), ("a",))
    assert position.tolist() == [3, 2, 0, 1]
    keys, position = canonical_codes((), np.zeros(0, bool))
    assert keys == ()
    assert position.tolist() == []
