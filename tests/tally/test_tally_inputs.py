"""Inputs at the edges of the Tally: the seed's input forms, bulk indicator matrices, bad
input, merging rules, JSON state, the JSON-lines reader and the report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse

from informed.errors import InputError, InputTypeError
from informed.io import read_jsonl
from informed.measures import MEASURES
from informed.tally import Tally, tally_report
from informed.tally.indicators import _SPARSE_CELLS

CATS = ["sports", "politics", "finance"]


def _tally(**options: str) -> Tally:
    return Tally(CATS, **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- construction
@pytest.mark.parametrize(
    ("categories", "error"),
    [
        ("sports", InputTypeError),
        ([], InputError),
        (["a", "a"], InputError),
        (["a", 1], InputTypeError),
        (None, InputTypeError),
    ],
)
def test_bad_categories(categories: object, error: type[Exception]) -> None:
    """Categories are a non-empty list of distinct str."""
    with pytest.raises(error):
        Tally(categories)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value"), [("unknown", "skip"), ("conventions", "perl"), ("unknown", "")]
)
def test_unknown_options_are_errors(option: str, value: object) -> None:
    """No prefix matching, no silent fallback (STYLE.md)."""
    with pytest.raises(InputError, match=option):
        Tally(CATS, **{option: value})  # type: ignore[arg-type]


def test_declared_order_is_kept_and_a_set_is_sorted() -> None:
    """A list keeps its order (it names the columns of add_results); a set has none: sorted."""
    assert Tally(["b", "a"]).categories == ("b", "a")
    assert Tally({"b", "a", "c"}).categories == ("a", "b", "c")


# ---------------------------------------------------------------------- the seed's input forms
@pytest.mark.parametrize(
    ("assigned", "correct"),
    [
        (["sports"], ["sports", "finance"]),
        (("sports",), ("finance", "sports")),
        ({"sports"}, {"sports", "finance"}),
        (frozenset({"sports"}), ["finance", "sports", "sports"]),
        ({"sports": True, "politics": False}, {"sports": 1, "finance": "yes"}),
        ("sports", np.array(["sports", "finance"])),
    ],
)
def test_input_forms_agree(assigned: object, correct: object) -> None:
    """List, tuple, set, dict with true values, single string and array give one result."""
    t = _tally()
    t.add_result(assigned, correct)
    # sports: a; politics: d; finance: c
    assert t.counts.tolist() == [[[1, 0], [0, 0]], [[0, 0], [0, 1]], [[0, 0], [1, 0]]]


@pytest.mark.parametrize("bad", [None, 3, b"sports", ["sports", 3], {3: True}, iter(["sports"])])
def test_bad_input_forms(bad: object) -> None:
    """Other containers or non-str names are type errors naming the document; nothing counts."""
    t = _tally()
    with pytest.raises(InputTypeError, match="document 'doc'"):
        t.add_result(bad, [], name="doc")
    assert t.documents == 0
    assert not t.counts.any()


def test_unknown_category_error_names_document_by_position() -> None:
    """Without a name, the document is its 0-based position; the category is named."""
    t = _tally()
    t.add_result([], [])
    with pytest.raises(InputError, match=r"document 1: `correct` names the category 'weather'"):
        t.add_result(["sports"], ["weather"])


def test_failed_add_result_counts_nothing() -> None:
    """Validation happens before counting: the valid side of a bad document is not counted."""
    t = _tally()
    t.add_result("sports", "sports")
    before = t.to_json()
    with pytest.raises(InputError):
        t.add_result(["sports", "finance"], ["weather"])
    assert t.to_json() == before


def test_ignore_counts_each_document_once_per_unknown_category() -> None:
    """Under unknown="ignore", `ignored` counts documents naming the category (either side)."""
    t = _tally(unknown="ignore")
    t.add_result(["weather"], ["weather", "sports"])
    t.add_result([], ["weather"])
    t.add_result(["arts"], [])
    assert t.ignored == {"arts": 1, "weather": 2}
    assert t.table("sports").counts.tolist() == [[0, 0], [1, 2]]


# ---------------------------------------------------------------------- bulk indicator matrices
DOCS = [
    (["sports", "finance"], ["sports"]),
    (["politics"], ["politics", "finance"]),
    ([], ["finance"]),
    (["sports"], ["sports"]),
    ([], []),
]


def _indicators(
    docs: list[tuple[list[str], list[str]]], cats: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    assigned = np.array([[c in a for c in cats] for a, _ in docs], dtype=bool)
    correct = np.array([[c in r for c in cats] for _, r in docs], dtype=bool)
    return assigned, correct


def _one_by_one(docs: list[tuple[list[str], list[str]]]) -> Tally:
    t = _tally()
    for assigned, correct in docs:
        t.add_result(assigned, correct)
    return t


@pytest.mark.parametrize(
    "convert",
    [
        lambda x: x,
        lambda x: x.astype(np.int8),
        lambda x: x.astype(np.uint64),
        lambda x: x.astype(np.float32),
        lambda x: np.asfortranarray(x),
        lambda x: x.astype(int).tolist(),
        scipy.sparse.csr_matrix,
        scipy.sparse.csc_array,
        scipy.sparse.coo_array,
        lambda x: scipy.sparse.lil_matrix(x.astype(float)),
    ],
    ids=["bool", "int8", "uint64", "float32", "fortran", "lists", "csr", "csc", "coo", "lil"],
)
def test_bulk_representations_equal_one_by_one(convert) -> None:  # type: ignore[no-untyped-def]
    """Dense bool/int/float/lists and every sparse format give the per-document result (P04)."""
    assigned, correct = _indicators(DOCS, CATS)
    t = _tally()
    t.add_results(convert(assigned), convert(correct))
    assert t == _one_by_one(DOCS)


def test_bulk_dense_and_sparse_mixed() -> None:
    """One matrix dense, the other sparse."""
    assigned, correct = _indicators(DOCS, CATS)
    t = _tally()
    t.add_results(assigned, scipy.sparse.csr_array(correct))
    u = _tally()
    u.add_results(scipy.sparse.csr_array(assigned), correct.astype(int))
    assert t == u == _one_by_one(DOCS)


def test_sparse_explicit_zeros_and_duplicates() -> None:
    """Stored zeros are not mentions; duplicate COO entries are summed (1 + 1 = 2: refused)."""
    zeros = scipy.sparse.csr_array(
        (np.array([0.0, 1.0]), (np.array([0, 1]), np.array([0, 2]))), shape=(2, 3)
    )
    t = _tally()
    t.add_results(zeros, np.zeros((2, 3)))
    assert t.table("sports").counts.tolist() == [[0, 0], [0, 2]]
    assert t.table("finance").counts.tolist() == [[0, 1], [0, 1]]
    duplicated = scipy.sparse.coo_array(
        (np.array([1, 1]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 3)
    )
    with pytest.raises(
        InputError, match=r"`assigned`\[0, 1\] is 2 \(sparse duplicates are summed\)"
    ):
        t.add_results(duplicated, np.zeros((2, 3)))


WIDE = [f"w{j:02d}" for j in range(40)]


@pytest.mark.parametrize("seed", range(5))
def test_wide_sparse_route_equals_dense(seed: int) -> None:
    """Very sparse input (< 1 stored entry per 16 cells) is counted entry by entry; it gives
    the dense result, with explicit zeros and COO duplicates of 0 + 1 handled."""
    rng = np.random.default_rng(seed)
    assigned = rng.random((200, 40)) < 0.005
    correct = assigned ^ (rng.random((200, 40)) < 0.005)
    dense = Tally(WIDE)
    dense.add_results(assigned, correct)
    rows, cols = np.nonzero(assigned)
    padded = scipy.sparse.coo_array(  # each entry stored as 0 + 1, plus one stored zero
        (
            np.concatenate([np.ones(rows.size), np.zeros(rows.size + 1)]),
            (np.concatenate([rows, rows, [199]]), np.concatenate([cols, cols, [39]])),
        ),
        shape=(200, 40),
    )
    sparse = Tally(WIDE)
    sparse.add_results(padded, scipy.sparse.csr_array(correct))
    assert sparse == dense
    assert _SPARSE_CELLS * (padded.nnz + int(correct.sum())) < 200 * 40  # entry by entry


def test_wide_sparse_route_refuses_bad_values() -> None:
    """The entry-by-entry route names the bad entry too, and counts nothing."""
    bad = scipy.sparse.coo_array(
        (np.array([1, 1]), (np.array([3, 3]), np.array([7, 7]))), shape=(30, 40)
    )
    t = Tally(WIDE)
    assert _SPARSE_CELLS * 3 < 30 * 40  # entry by entry
    with pytest.raises(InputError, match=r"`correct`\[3, 7\] is 2"):
        t.add_results(scipy.sparse.csr_array((30, 40), dtype=np.int8), bad)
    with pytest.raises(InputError, match=r"`assigned`\[0, 1\] is 0.5"):
        t.add_results(scipy.sparse.csr_array(np.pad([[0, 0.5]], ((0, 29), (0, 38)))), bad)
    assert t.documents == 0


def test_sparse_input_is_not_mutated() -> None:
    """The caller's sparse matrix keeps its duplicates and zeros (P05)."""
    coo = scipy.sparse.coo_array(
        (np.array([1, 0]), (np.array([0, 1]), np.array([1, 1]))), shape=(2, 3)
    )
    csr = scipy.sparse.csr_matrix(coo)
    csr.has_canonical_format = False
    data, indices = csr.data.copy(), csr.indices.copy()
    t = _tally()
    t.add_results(csr, csr)
    assert np.array_equal(csr.data, data)
    assert np.array_equal(csr.indices, indices)
    assert t.table("politics").counts.tolist() == [[1, 0], [0, 1]]


@pytest.mark.parametrize(
    ("assigned", "message"),
    [
        (np.array([[0, 2, 0]]), r"`assigned`\[0, 1\] is 2"),
        (np.array([[0, 0, -1]]), r"`assigned`\[0, 2\] is -1"),
        (np.array([[0.5, 0, 0]]), r"`assigned`\[0, 0\] is 0.5"),
        (np.array([[np.nan, 0, 0]]), r"`assigned`\[0, 0\] is nan"),
        (scipy.sparse.csr_array(np.array([[0, 0, 3]])), r"`assigned`\[0, 2\] is 3"),
        (np.zeros((2, 3)), r"shape \(2, 3\) but `correct` has shape \(1, 3\)"),
        (np.zeros(3), "two-dimensional"),
    ],
)
def test_bulk_bad_values(assigned: object, message: str) -> None:
    """Entries other than 0/1 are named by row and column; shapes must agree; nothing counts."""
    t = _tally()
    with pytest.raises(InputError, match=message):
        t.add_results(assigned, np.zeros((1, 3)))
    assert t.documents == 0


def test_bulk_columns_must_match() -> None:
    """Without `columns=`, the matrices have one column per declared category."""
    with pytest.raises(InputError, match="2 columns but there are 3 declared categories"):
        _tally().add_results(np.zeros((1, 2)), np.zeros((1, 2)))
    with pytest.raises(InputError, match="2 columns but there are 1 columns named"):
        _tally().add_results(np.zeros((1, 2)), np.zeros((1, 2)), columns=["sports"])


@pytest.mark.parametrize(
    "bad", [[["sports"], ["finance", "politics"]], np.array([["a", "b", "c"]]), "abc"]
)
def test_bulk_refuses_names(bad: object) -> None:
    """Lists of names (ragged or not) are not indicator matrices: a type error with a hint."""
    with pytest.raises(InputTypeError):
        _tally().add_results(bad, bad)


def test_bulk_columns_subset_and_order() -> None:
    """`columns=` names each column; declared categories not in it count n documents as d."""
    t = _tally()
    t.add_results([[1, 0], [0, 0]], [[1, 1], [0, 0]], columns=["finance", "sports"])
    assert t.table("finance").counts.tolist() == [[1, 0], [0, 1]]
    assert t.table("sports").counts.tolist() == [[0, 0], [1, 1]]
    assert t.table("politics").counts.tolist() == [[0, 0], [0, 2]]
    assert t.pooled.tolist() == [[1, 0], [1, 4]]


def test_bulk_unknown_columns() -> None:
    """An undeclared column: an error, or with "ignore" its mentioning documents are counted."""
    with pytest.raises(InputError, match=r"column 1 .* 'weather'"):
        _tally().add_results([[1, 1]], [[1, 0]], columns=["sports", "weather"])
    t = _tally(unknown="ignore")
    t.add_results([[1, 1], [0, 0], [0, 1]], [[1, 0], [0, 1], [0, 1]], columns=["sports", "weather"])
    assert t.ignored == {"weather": 3}
    assert t.table("sports").counts.tolist() == [[1, 0], [0, 2]]


def test_bulk_empty_matrix_changes_nothing() -> None:
    """Zero documents: an identity (RELIABILITY L1)."""
    t = _tally()
    t.add_results(np.zeros((0, 3), dtype=bool), np.zeros((0, 3), dtype=bool))
    assert t == _tally()


def test_bulk_large_column_sums_are_exact() -> None:
    """The folded uint16 sums stay exact past 65535 rows per fold and with a ragged tail."""
    rng = np.random.default_rng(7)
    n = 300_001
    assigned = rng.random((n, 3)) < 0.5
    correct = rng.random((n, 3)) < 0.5
    t = _tally()
    t.add_results(assigned, correct)
    a = (assigned & correct).sum(axis=0)
    assert t.counts[:, 0, 0].tolist() == a.tolist()
    assert t.counts[:, 0, 1].tolist() == (assigned.sum(axis=0) - a).tolist()
    ones = _tally()
    ones.add_results(np.ones((n, 3), dtype=bool), np.ones((n, 3), dtype=bool))
    assert ones.counts[:, 0, 0].tolist() == [n, n, n]


# ---------------------------------------------------------------------- merging
def test_add_requires_same_categories_and_keeps_left_order() -> None:
    """`+` aligns categories by name; different sets need merge(union=True)."""
    left = Tally(["x", "y"])
    right = Tally(["y", "x"])
    left.add_result("x", "x")
    right.add_result("x", "y")
    both = left + right
    assert both.categories == ("x", "y")
    assert both.table("x").counts.tolist() == [[1, 1], [0, 0]]
    with pytest.raises(InputError, match="union=True"):
        left + Tally(["x", "z"])


def test_merge_refuses_mixed_options() -> None:
    """Conventions and unknown policy must match (RELIABILITY L8)."""
    with pytest.raises(InputError, match="conventions"):
        Tally(["x"]) + Tally(["x"], conventions="statistics-contingency")
    with pytest.raises(InputError, match="unknown"):
        Tally(["x"]) + Tally(["x"], unknown="ignore")
    assert Tally(["x"]).__add__(3) is NotImplemented


def test_union_merge_refuses_ignored_categories() -> None:
    """A category one side ignored cannot be placed in the union: refused, not guessed."""
    left = Tally(["x"], unknown="ignore")
    left.add_result("y", [])
    right = Tally(["y"], unknown="ignore")
    with pytest.raises(InputError, match="ignored 1 document"):
        left.merge(right, union=True)


def test_merge_leaves_inputs_untouched() -> None:
    """Merging returns a new Tally."""
    left, right = Tally(["x"]), Tally(["x"])
    left.add_result("x", "x")
    right.add_result([], "x")
    before = (left.to_json(), right.to_json())
    _ = left + right
    assert (left.to_json(), right.to_json()) == before


def test_overflow_is_refused() -> None:
    """int64 counts never wrap around silently."""
    t = Tally(["x"])
    t.set_entries(2**63 - 1, 0, 0, 0)
    with pytest.raises(InputError, match="int64"):
        t.add_result("x", "x")
    assert t.documents == 0


def test_counts_stay_exact_next_to_the_int64_limit() -> None:
    """Near 2**63 - 1 in the pooled table, documents are still counted exactly, up to the
    last one that fits; the next is refused and leaves the tally unchanged."""
    limit = 2**63 - 1
    t = Tally(["x", "y", "z"])
    t.set_entries(limit - 20, 0, 0, 0)
    for _ in range(20):
        t.add_result("x", "x")  # pooled a + 1, d + 2
    assert t.pooled.tolist() == [[limit, 0], [0, 40]]
    assert t.counts.tolist() == [[[20, 0], [0, 0]], [[0, 0], [0, 20]], [[0, 0], [0, 20]]]
    before = t.to_json()
    with pytest.raises(InputError, match="int64"):
        t.add_result("y", "y")
    assert t.to_json() == before
    t.add_result("y", [])  # pooled b + 1: still fits
    assert t.pooled.tolist() == [[limit, 1], [0, 42]]


def test_many_documents_one_by_one() -> None:
    """More documents than are held back before folding in (bounded memory), exact counts."""
    t = Tally(["x", "y"])
    for i in range(100_000):
        t.add_result(["x", "y"] if i % 2 else "x", "x" if i % 4 else [])
    # i odd: x a, y b; i even: x a (i % 4 == 2) or b (i % 4 == 0), y d
    assert t.counts.tolist() == [[[75_000, 25_000], [0, 0]], [[0, 50_000], [0, 50_000]]]
    assert t.pooled.tolist() == [[75_000, 75_000], [0, 50_000]]


# ---------------------------------------------------------------------- JSON state
def _example() -> Tally:
    t = Tally(["b", "a"], unknown="ignore", conventions="statistics-contingency")
    t.add_result(["a", "zz"], "b")
    t.add_result("b", "b")
    t.set_entries(4, 3, 2, 1)
    return t


def test_json_round_trip() -> None:
    """to_json -> from_json is equal, with the same bytes and the same category order."""
    t = _example()
    text = t.to_json()
    back = Tally.from_json(text)
    assert back == t
    assert back.to_json() == text
    assert back.categories == ("b", "a")
    assert back.ignored == {"zz": 1}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(kind="informed.Table"), "kind"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(extra=1), "unknown"),
        (lambda d: d.pop("pooled"), "missing"),
        (lambda d: d.update(documents=3), "sums to 2"),
        (lambda d: d.update(documents=-1), "documents"),
        (lambda d: d.update(documents=True), "documents"),
        (lambda d: d.update(documents=2.0), "documents"),
        (lambda d: d["counts"][0][0].__setitem__(0, 2**63), "counts"),
        (lambda d: d.update(counts=[[[1, 0], [0, 1]]]), "shape"),
        (lambda d: d.update(pooled=[[1, 2, 3], [4, 5, 6]]), "shape"),
        (lambda d: d.update(ignored={"zz": 1}), "ignored"),
        (lambda d: d.update(ignored=[["a", 1]]), "ignored"),
        (lambda d: d.update(ignored=[["zz", 0]]), "positive"),
        (lambda d: d.update(conventions="perl"), "conventions"),
    ],
)
def test_json_schema_is_validated(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    """Edited or truncated states are refused with a message naming the field."""
    data = json.loads(_example().to_json())
    edit(data)
    with pytest.raises(InputError, match=message):
        Tally.from_dict(data)


@pytest.mark.parametrize("text", ["{", '{"documents": NaN}', '{"documents": Infinity}', "[]"])
def test_json_text_is_validated(text: str) -> None:
    """Truncated text and NaN/Infinity tokens are refused."""
    with pytest.raises((InputError, InputTypeError)):
        Tally.from_json(text)


# ---------------------------------------------------------------------- JSON lines
LINES = [
    '{"categories": ["sports", "politics", "finance"]}',
    '{"assigned": ["sports", "finance"], "correct": ["sports"], "name": "d1"}',
    '{"assigned": ["politics"], "correct": ["politics", "finance"]}',
    "",
    '{"assigned": [], "correct": "finance"}',
    '{"assigned": {"sports": true, "finance": false}, "correct": ["sports"]}',
]


def test_read_jsonl_lines_and_file(tmp_path: Path) -> None:
    """The reader gives the per-document tally, from lines or from a file (BOM allowed)."""
    expected = _one_by_one(DOCS[:4])
    assert read_jsonl(LINES) == expected
    path = tmp_path / "docs.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8-sig")
    assert read_jsonl(path) == expected
    assert read_jsonl(str(path)) == expected


def test_read_jsonl_categories_from_argument_or_data() -> None:
    """Without a header, `categories=` declares them; without either, they are the names
    seen, in code-point order, and d counts every document that does not name them."""
    body = LINES[1:]
    assert read_jsonl(body, categories=CATS) == _one_by_one(DOCS[:4])
    inferred = read_jsonl(body)
    assert inferred.categories == ("finance", "politics", "sports")
    assert inferred == _one_by_one(DOCS[:4])
    with pytest.raises(InputError, match="declares the categories"):
        read_jsonl(LINES, categories=["sports"])


@pytest.mark.parametrize(
    ("line", "error", "message"),
    [
        ('{"assigned": ["sports"]', InputError, "line 3: not valid JSON"),
        ('{"assigned": [], "correct": [], "score": 1}', InputError, "line 3: .*keys"),
        ('{"correct": []}', InputError, "line 3"),
        ("[1, 2]", InputError, "line 3: each line must be a JSON object"),
        ('{"assigned": [NaN], "correct": []}', InputError, "line 3: NaN"),
        ('{"assigned": ["weather"], "correct": []}', InputError, "line 3: document 1: .*'weather'"),
        ('{"assigned": [1], "correct": [], "name": "n7"}', InputTypeError, "line 3: document 'n7'"),
        ('{"assigned": 5, "correct": []}', InputTypeError, "line 3"),
        ('{"assigned": [], "correct": [], "name": [1]}', InputTypeError, 'line 3: "name"'),
        ('{"categories": ["x"]}', InputError, 'line 3: a "categories" line must be the first'),
    ],
)
def test_read_jsonl_malformed_line(line: str, error: type[Exception], message: str) -> None:
    """A malformed line is an error naming its 1-based number."""
    with pytest.raises(error, match=message):
        read_jsonl([LINES[0], LINES[1], line, LINES[2]])


def test_read_jsonl_without_any_category() -> None:
    """Nothing declared and nothing named: an error, not an empty tally."""
    with pytest.raises(InputError, match="no categories"):
        read_jsonl(['{"assigned": [], "correct": []}'])


def test_read_jsonl_ignore_and_conventions() -> None:
    """`unknown` and `conventions` are passed to the Tally."""
    t = read_jsonl(
        [LINES[0], '{"assigned": ["weather"], "correct": ["sports"]}'],
        unknown="ignore",
        conventions="statistics-contingency",
    )
    assert t.ignored == {"weather": 1}
    assert t.conventions == "statistics-contingency"
    assert t.micro_precision() == 0.0  # a = b = 0, c = 1: Perl's 0


# ---------------------------------------------------------------------- report
def test_report_layout_and_values() -> None:
    """Plain JSON values, registry names, NaN as None with a reason."""
    t = _one_by_one(DOCS)
    report = tally_report(t)
    text = json.dumps(report, allow_nan=False)  # would raise on a NaN
    assert json.loads(text) == report
    assert set(report) >= {
        "documents",
        "categories",
        "micro",
        "macro",
        "per_category",
        "stats_table",
    }
    assert report["documents"] == 5
    assert report["categories"] == CATS
    assert set(report["micro"]) == set(MEASURES)
    assert report["micro"]["precision"] == 3 / 4
    assert report["micro"]["error"] == 3 / 15  # b = 1, c = 2 of 5 documents x 3 categories
    assert report["per_category"]["sports"]["recall"] == 1.0
    assert report["stats_table"] == t.stats_table()
    assert all(type(v) is float or v is None for v in report["macro"].values())


def test_report_undefined_values() -> None:
    """A category never assigned has precision None, explained under "undefined"."""
    t = _tally()
    t.add_result([], "sports")
    report = tally_report(t)
    assert report["per_category"]["sports"]["precision"] is None
    assert report["undefined"]["per_category"]["sports"]["precision"] == "no +P predictions"
    assert report["macro"]["precision"] is None
    assert tally_report(t, undefined="omit")["macro"]["recall"] == 0.0
    assert math.isnan(t.macro("recall"))  # politics and finance have no real positives


def test_report_under_perl_conventions() -> None:
    """The Perl conventions fill the five statistics; other measures stay None."""
    t = Tally(CATS, conventions="statistics-contingency")
    t.add_result([], "sports")
    report = tally_report(t)
    assert report["per_category"]["sports"]["precision"] == 0.0
    assert report["per_category"]["politics"]["recall"] == 1.0
    assert report["per_category"]["politics"]["informedness"] is None


def test_unknown_measure_and_parameters() -> None:
    """Unknown names and parameters are errors listing what exists."""
    t = _tally()
    with pytest.raises(InputError, match=r"unknown measure 'F3'\. The measures are recall"):
        t.micro("F3")  # "F1" is the F-measure's alias
    with pytest.raises(InputError, match="no parameters"):
        t.micro("recall", alpha=0.5)
    with pytest.raises(InputError, match="undefined"):
        t.macro("recall", undefined="ignore")
    with pytest.raises(InputError, match="not one of the declared"):
        t.table("weather")
