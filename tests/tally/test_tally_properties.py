"""Properties of the Tally (hypothesis): streaming, merging, order, JSON and inputs.

RELIABILITY 1.H and 4.1: the summary of all documents equals the merge of the summaries of
any split, in any merge tree; one-by-one equals bulk; order never matters; JSON round trips
exactly; every input representation gives the same counts.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given, settings
from hypothesis import strategies as st

from informed.measures import MEASURES
from informed.tally import Tally

CATS = ("arts", "news", "sport", "tech")
PERL = "statistics-contingency"
FIVE = ("accuracy", "error", "precision", "recall", "f_measure")

Doc = tuple[frozenset[str], frozenset[str]]

subsets = st.frozensets(st.sampled_from(CATS))
documents = st.lists(st.tuples(subsets, subsets), max_size=40)
conventions = st.sampled_from(["default", PERL])
SETTINGS = settings(max_examples=60, deadline=None)


def one_by_one(docs: list[Doc], conv: str = "default", cats: tuple[str, ...] = CATS) -> Tally:
    t = Tally(cats, conventions=conv)  # type: ignore[arg-type]
    for assigned, correct in docs:
        t.add_result(sorted(assigned), sorted(correct))
    return t


def indicators(docs: list[Doc], cats: tuple[str, ...] = CATS) -> tuple[np.ndarray, np.ndarray]:
    assigned = np.array([[c in a for c in cats] for a, _ in docs], dtype=bool).reshape(
        -1, len(cats)
    )
    correct = np.array([[c in r for c in cats] for _, r in docs], dtype=bool).reshape(-1, len(cats))
    return assigned, correct


def bulk(docs: list[Doc], conv: str = "default", sparse: bool = False) -> Tally:
    t = Tally(CATS, conventions=conv)  # type: ignore[arg-type]
    assigned, correct = indicators(docs)
    if sparse:
        t.add_results(scipy.sparse.csr_array(assigned), scipy.sparse.coo_array(correct))
    else:
        t.add_results(assigned, correct)
    return t


def same_values(left: float, right: float) -> bool:
    return (math.isnan(left) and math.isnan(right)) or left == right


@st.composite
def splits(draw: st.DrawFn) -> tuple[list[Doc], list[list[Doc]], list[int]]:
    """Documents, a split into parts (empty parts allowed), and a random merge order."""
    docs = draw(documents)
    cuts = sorted(draw(st.lists(st.integers(0, len(docs)), max_size=5)))
    bounds = [0, *cuts, len(docs)]
    parts = [docs[lo:hi] for lo, hi in itertools.pairwise(bounds)]
    order = draw(st.permutations(range(len(parts))))
    return docs, parts, list(order)


def tree_merge(tallies: list[Tally], data: st.DataObject) -> Tally:
    """Merge by repeatedly adding a random adjacent pair: any binary tree over the parts."""
    items = list(tallies)
    while len(items) > 1:
        i = data.draw(st.integers(0, len(items) - 2))
        items[i : i + 2] = [items[i] + items[i + 1]]
    return items[0]


def ignoring(docs: list[Doc], conv: str, use_bulk: bool) -> Tally:
    """A tally declaring three of the four categories, "tech" ignored and counted."""
    t = Tally(CATS[:3], unknown="ignore", conventions=conv)  # type: ignore[arg-type]
    if use_bulk:
        assigned, correct = indicators(docs)
        t.add_results(assigned, scipy.sparse.csr_array(correct), columns=CATS)
    else:
        for assigned_names, correct_names in docs:
            t.add_result(set(assigned_names), set(correct_names))
    return t


@SETTINGS
@given(splits(), conventions, st.data())
def test_one_by_one_equals_bulk_equals_any_split_merged(
    case: tuple[list[Doc], list[list[Doc]], list[int]], conv: str, data: st.DataObject
) -> None:
    """add_result per document == add_results dense == sparse == parts merged in any tree,
    the documents naming an ignored category included."""
    docs, parts, order = case
    reference = one_by_one(docs, conv)
    assert bulk(docs, conv) == reference
    assert bulk(docs, conv, sparse=True) == reference
    summaries = []
    for index in order:
        part = parts[index]
        use_bulk = data.draw(st.booleans())
        summaries.append(bulk(part, conv) if use_bulk else one_by_one(part, conv))
    merged = tree_merge(summaries, data)
    assert merged == reference
    assert merged.to_json() == reference.to_json()
    assert merged.documents == len(docs)
    partial = ignoring(docs, conv, use_bulk=False)
    assert ignoring(docs, conv, use_bulk=True) == partial
    pieces = [ignoring(parts[i], conv, use_bulk=data.draw(st.booleans())) for i in order]
    assert tree_merge(pieces, data) == partial
    assert partial.ignored == ({"tech": n} if (n := sum("tech" in a | c for a, c in docs)) else {})


@SETTINGS
@given(documents)
def test_micro_is_the_measure_of_the_summed_table(docs: list[Doc]) -> None:
    """micro(m) == m(sum over categories of the 2x2 tables), for every registry measure."""
    t = one_by_one(docs)
    summed = t.counts.sum(axis=0)
    assert np.array_equal(t.pooled, summed)
    for name, measure in MEASURES.items():
        assert same_values(t.micro(name), float(measure(summed))), name


@SETTINGS
@given(documents)
def test_macro_is_the_mean_of_per_category_values(docs: list[Doc]) -> None:
    """macro(m) == mean of per_category(m) (nan propagates); "omit" == nanmean when defined."""
    t = one_by_one(docs)
    for name in MEASURES:
        values = np.array(list(t.per_category(name).values()))
        mean = float(np.mean(values))
        assert math.isnan(t.macro(name)) == math.isnan(mean), name
        if not math.isnan(mean):
            assert t.macro(name) == pytest.approx(mean, abs=1e-12), name
        defined = values[~np.isnan(values)]
        if defined.size:
            assert t.macro(name, undefined="omit") == pytest.approx(
                float(np.mean(defined)), abs=1e-12
            )
        else:
            assert math.isnan(t.macro(name, undefined="omit"))


@SETTINGS
@given(documents, st.randoms(use_true_random=False), conventions)
def test_document_order_never_matters(docs: list[Doc], random: Any, conv: str) -> None:
    """Shuffling the documents leaves the tally, its JSON and its statistics unchanged."""
    shuffled = list(docs)
    random.shuffle(shuffled)
    left, right = one_by_one(docs, conv), one_by_one(shuffled, conv)
    assert left == right
    assert left.to_json() == right.to_json()
    assert left.stats_table() == right.stats_table()


@SETTINGS
@given(documents, conventions, st.booleans(), st.integers(0, 50))
def test_json_round_trip_is_exact(docs: list[Doc], conv: str, set_pooled: bool, extra: int) -> None:
    """J^-1(J(t)) == t and J(J^-1(J(t))) == J(t), with ignored categories and set_entries."""
    t = Tally(CATS[:3], unknown="ignore", conventions=conv)  # type: ignore[arg-type]
    for assigned, correct in docs:
        t.add_result(assigned, correct)
    if set_pooled:
        t.set_entries(extra, 2 * extra, 3, 0)
    text = t.to_json()
    back = Tally.from_json(text)
    assert back == t
    assert back.to_json() == text
    for name in FIVE:
        assert same_values(back.micro(name), t.micro(name))
        assert same_values(back.macro(name), t.macro(name))


@st.composite
def representation(draw: st.DrawFn, names: frozenset[str]) -> Any:
    """One of the seed's forms for a set of category names."""
    forms: list[Any] = [
        sorted(names),
        tuple(sorted(names, reverse=True)),
        set(names),
        dict.fromkeys(names, True) | {other: False for other in CATS if other not in names},
        np.array(sorted(names), dtype=str),
        sorted(names) + sorted(names),  # repeats count once
    ]
    if len(names) == 1:
        forms.append(next(iter(names)))
    return draw(st.sampled_from(forms))


@SETTINGS
@given(documents, st.data())
def test_input_representations_agree(docs: list[Doc], data: st.DataObject) -> None:
    """list, tuple, set, dict, str, array, dense and sparse matrices all give one tally (P04)."""
    t = Tally(CATS)
    for assigned, correct in docs:
        t.add_result(data.draw(representation(assigned)), data.draw(representation(correct)))
    assert t == one_by_one(docs)
    dense_a, dense_c = indicators(docs)
    for convert in (np.int64, np.float64):
        u = Tally(CATS)
        u.add_results(dense_a.astype(convert), dense_c.astype(convert))
        assert u == t
    v = Tally(CATS)
    v.add_results(scipy.sparse.csc_matrix(dense_a), dense_c.tolist() if docs else dense_c)
    assert v == t


@SETTINGS
@given(documents, documents)
def test_union_merge_equals_the_tally_over_the_union(
    left_docs: list[Doc], right_docs: list[Doc]
) -> None:
    """Tallies over different categories merge over the union, as if built over it (a
    category absent from one side counts that side's documents as d); commutative."""
    left_cats, right_cats = CATS[:2], CATS[1:]

    def keep(docs: list[Doc], cats: tuple[str, ...]) -> list[Doc]:
        return [(a & set(cats), c & set(cats)) for a, c in docs]

    left_docs, right_docs = keep(left_docs, left_cats), keep(right_docs, right_cats)
    left = one_by_one(left_docs, cats=left_cats)
    right = one_by_one(right_docs, cats=right_cats)
    whole = one_by_one(left_docs + right_docs)
    merged = left.merge(right, union=True)
    assert merged == whole
    assert merged.to_json() == right.merge(left, union=True).to_json()


@SETTINGS
@given(documents, documents, documents)
def test_merge_laws(a: list[Doc], b: list[Doc], c: list[Doc]) -> None:
    """Identity, commutativity and associativity of `+` (RELIABILITY L1-L3)."""
    ta, tb, tc = one_by_one(a), one_by_one(b), one_by_one(c)
    assert ta + Tally(CATS) == ta
    assert ta + tb == tb + ta
    assert (ta + tb) + tc == ta + (tb + tc)


@SETTINGS
@given(documents)
def test_perl_conventions_agree_wherever_the_default_is_defined(docs: list[Doc]) -> None:
    """The conventions differ only where the default says nan: elsewhere both compute the
    seed's formulas (to within 1 ulp: Perl divides as 1 / (1 + y / x))."""
    perl, default = one_by_one(docs, PERL), one_by_one(docs)
    for name in FIVE:
        pairs = [(perl.micro(name), default.micro(name))]
        pairs += list(
            zip(perl.per_category(name).values(), default.per_category(name).values(), strict=True)
        )
        for ours, theirs in pairs:
            assert 0.0 <= ours <= 1.0
            if not math.isnan(theirs):
                assert ours == pytest.approx(theirs, rel=1e-15, abs=1e-300)


@SETTINGS
@given(documents.filter(bool))
def test_macro_accuracy_equals_micro_accuracy(docs: list[Doc]) -> None:
    """Seed 002: "macro-accuracy and micro-accuracy will always give the same number"
    (every category sees every document); likewise error."""
    t = one_by_one(docs)
    assert t.macro_accuracy() == pytest.approx(t.micro_accuracy(), abs=1e-12)
    assert t.macro_error() == pytest.approx(t.micro_error(), abs=1e-12)


@SETTINGS
@given(documents, st.randoms(use_true_random=False))
def test_category_order_permutes_per_category_only(docs: list[Doc], random: Any) -> None:
    """Declaring the categories in another order permutes nothing but the display order."""
    shuffled = list(CATS)
    random.shuffle(shuffled)
    t, u = one_by_one(docs), one_by_one(docs, cats=tuple(shuffled))
    assert t == u
    for name in ("precision", "informedness"):
        assert same_values(t.micro(name), u.micro(name))
        assert same_values(t.macro(name), u.macro(name))
        left, right = t.per_category(name), u.per_category(name)
        assert all(same_values(left[k], right[k]) for k in CATS)
