"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from informed import Ranking, Slices, Table, Tally
from informed.io import Summaries, summarise_frame
from informed.slices.rolling import accumulate


def counts_matrix(k: int, c: int | None = None, max_count: int = 1000):  # type: ignore[no-untyped-def]
    """Integer count matrices of shape (k, c)."""
    return hnp.arrays(np.int64, (k, c if c is not None else k), elements=st.integers(0, max_count))


@st.composite
def tables(draw, min_labels: int = 2, max_labels: int = 5, max_count: int = 1000):  # type: ignore[no-untyped-def]
    """Square integer tables over labels 0..L-1 (rows predicted)."""
    size = draw(st.integers(min_labels, max_labels))
    counts = draw(counts_matrix(size, size, max_count))
    return Table.from_counts(counts, rows="predicted")


@st.composite
def binary_tables(draw, max_count: int = 10**6, positive_margins: bool = False):  # type: ignore[no-untyped-def]
    """2x2 integer tables; with positive_margins every margin is non-zero."""
    low = 1 if positive_margins else 0
    tp, tn = draw(st.integers(low, max_count)), draw(st.integers(low, max_count))
    fp, fn = draw(st.integers(0, max_count)), draw(st.integers(0, max_count))
    return Table.binary(tp=tp, fp=fp, fn=fn, tn=tn)


# ---------------------------------------------------------------------- documents
# Valid summaries as their writers make them, for the tests that forge their JSON
# documents (tests/properties/test_forged_documents.py). Few distinct labels, scores and
# weights, so that ties, empty cells, repeated slices and unseen classes all occur;
# weights such as 1/3 and 0.1 make float sums that depend on their order.
_LABELS = {"str": ["a", "b", "c"], "int": [0, 1, 2]}
_SCORES = [-0.0, 0.0, 0.1, 0.25, 0.5, 0.75, 1.0]
_WEIGHTS = [0.0, 0.1, 1 / 3, 0.5, 1.0, 2.5]


@st.composite
def rows(draw, kind: str, weighted: bool, min_rows: int = 1, max_rows: int = 25):  # type: ignore[no-untyped-def]
    """Columns of rows: actual and predicted labels of `kind`, scores, slice keys
    (one column of "m", "w" and missing) and, when `weighted`, weights."""
    n = draw(st.integers(min_rows, max_rows))
    labels = _LABELS[kind]
    column = st.lists(st.sampled_from(labels), min_size=n, max_size=n)
    found = {
        "y": draw(column),
        "p": draw(column),
        "s": draw(st.lists(st.sampled_from(_SCORES), min_size=n, max_size=n)),
        "g": draw(st.lists(st.sampled_from(["m", "w", None]), min_size=n, max_size=n)),
    }
    if weighted:
        found["w"] = draw(st.lists(st.sampled_from(_WEIGHTS), min_size=n, max_size=n))
    return found


@st.composite
def slices_objects(  # type: ignore[no-untyped-def]
    draw,
    table: bool | None = None,
    ranking: bool | None = None,
    weighted: bool | None = None,
    accumulated: bool = False,
):
    """Slices by a column of keys, with a Table per slice, a Ranking per slice, or both
    (`table`, `ranking`: None draws), weighted or not, sometimes two merged; with
    `accumulated`, every slice then merged with the slices before it (cumulative, or
    rolling over the last two or three)."""
    kind = draw(st.sampled_from(sorted(_LABELS)))
    weighted = draw(st.booleans()) if weighted is None else weighted
    table = draw(st.booleans()) if table is None else table
    ranking = (not table or draw(st.booleans())) if ranking is None else ranking
    positive = draw(st.sampled_from(_LABELS[kind]))

    def one(found: dict) -> Slices:
        return Slices.from_labels(
            by=found["g"],
            actual=found["y"],
            predicted=found["p"] if table else None,
            scores=found["s"] if ranking else None,
            positive=positive if ranking else None,
            weights=found.get("w"),
        )

    def drawn() -> dict:
        found = draw(rows(kind, weighted))
        if ranking:  # the positive class is a label of `actual`
            found["y"][0] = positive
        return found

    made = one(drawn())
    made = made + one(drawn()) if draw(st.booleans()) else made
    if accumulated:
        made = accumulate(made, last=draw(st.sampled_from([None, 2, 3])))
    return made


@st.composite
def summaries_objects(  # type: ignore[no-untyped-def]
    draw, table: bool | None = None, ranking: bool | None = None, weighted: bool | None = None
):
    """`summarise_frame` of a partition (or two merged): a Table, a Ranking of a positive
    class (seen or not), or both; weighted or not."""
    kind = draw(st.sampled_from(sorted(_LABELS)))
    weighted = draw(st.booleans()) if weighted is None else weighted
    table = draw(st.booleans()) if table is None else table
    ranking = (not table or draw(st.booleans())) if ranking is None else ranking
    positive = draw(st.sampled_from(_LABELS[kind]))

    def one(part: str) -> Summaries:
        return summarise_frame(
            draw(rows(kind, weighted)),
            part=part,
            actual="y",
            predicted="p" if table else None,
            scores="s" if ranking else None,
            positive=positive if ranking else None,
            weights="w" if weighted else None,
        )

    made = one("monday")
    return made + one("tuesday") if draw(st.booleans()) else made


@st.composite
def tally_objects(draw, ignored: bool | None = None):  # type: ignore[no-untyped-def]
    """A Tally of a few documents; with `ignored`, unknown categories are skipped and
    counted (some documents name "u" or "v", which are not declared)."""
    ignored = draw(st.booleans()) if ignored is None else ignored
    declared = ["x", "y", "z"]
    tally = Tally(declared, unknown="ignore" if ignored else "error")
    names = declared + (["u", "v"] if ignored else [])
    documents = st.lists(st.sampled_from(names), max_size=4)
    for _ in range(draw(st.integers(1, 12))):
        tally.add_result(draw(documents), draw(documents))
    return tally


@st.composite
def table_objects(draw, storage: str | None = None, weighted: bool | None = None):  # type: ignore[no-untyped-def]
    """A Table counted from rows, stored densely or sparsely, weighted or not."""
    kind = draw(st.sampled_from(sorted(_LABELS)))
    weighted = draw(st.booleans()) if weighted is None else weighted
    found = draw(rows(kind, weighted))
    storage = draw(st.sampled_from(["dense", "sparse"])) if storage is None else storage
    return Table.from_labels(found["y"], found["p"], weights=found.get("w"), storage=storage)


@st.composite
def ranking_objects(draw, weighted: bool | None = None):  # type: ignore[no-untyped-def]
    """A Ranking of one class against the others, from scores with ties."""
    kind = draw(st.sampled_from(sorted(_LABELS)))
    weighted = draw(st.booleans()) if weighted is None else weighted
    found = draw(rows(kind, weighted))
    positive = draw(st.sampled_from(_LABELS[kind]))
    found["y"][0] = positive
    return Ranking.from_scores(
        [y == positive for y in found["y"]], found["s"], positive=True, weights=found.get("w")
    ).with_classes(positive)
