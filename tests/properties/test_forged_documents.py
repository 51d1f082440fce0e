"""Forged documents: every invariant a writer guarantees, its reader checks.

Each summary is drawn as its writer makes it (`tests/strategies.py`: counted from rows,
sometimes merged), written as JSON, one invariant of the document broken (a forgery),
and read back: the reader refuses it with a one-line error naming what disagrees. Every
unbroken document reads back equal to what was written, so no check refuses what a
writer writes. The invariants are listed with each kind of document below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import (
    ranking_objects,
    slices_objects,
    summaries_objects,
    table_objects,
    tally_objects,
)

from informed import Ranking, Slices, Table, Tally
from informed.cli import main
from informed.errors import InputError, InputTypeError
from informed.io import Summaries, summarise_frame
from informed.slices.rolling import accumulate

Document = dict[str, Any]
FAST = settings(max_examples=25, deadline=None)


@dataclass(frozen=True)
class Forgery:
    """One invariant broken: `forge` edits a valid document in place (drawing what it
    needs from `data`) and returns the words the reader's error must hold."""

    name: str
    forge: Callable[[Document, st.DataObject], str]
    needs: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


def _refused(reader: Callable[[str], Any], document: Document, words: str) -> None:
    """`reader` refuses the JSON of `document` with a one-line error holding `words`."""
    with pytest.raises((InputError, InputTypeError)) as caught:
        reader(json.dumps(document))
    message = str(caught.value)
    assert "\n" not in message, message
    assert words in message, message


def _other(label: Any, *also: Any) -> Any:
    """A label of the kind of `label` that is neither it nor any of `also`."""
    pool = ["a", "b", "c", "zz"] if isinstance(label, str) else [0, 1, 2, 99]
    return next(x for x in pool if x != label and x not in also)


def _unseen(label: Any) -> Any:
    """A label of the kind of `label` that no row of the strategies holds."""
    return "zz" if isinstance(label, str) else 99


def _cells(table: Document) -> list[tuple[int, int, Any]]:
    """(row, column, count) of the non-zero cells of a Table document, either form."""
    counts = table["counts"]
    if isinstance(counts, dict):
        return list(zip(counts["row"], counts["column"], counts["count"], strict=True))
    return [(i, j, v) for i, row in enumerate(counts) for j, v in enumerate(row) if v]


def _add(table: Document, at: int, amount: Any) -> None:
    """Add `amount` to the `at`-th non-zero cell of a Table document."""
    counts = table["counts"]
    if isinstance(counts, dict):
        counts["count"][at] += amount
    else:
        i, j, _ = _cells(table)[at]
        counts[i][j] += amount


def _put(into: Document, keys: tuple[str, ...], cells: list[tuple[Any, ...]]) -> None:
    """Write `cells` (tuples, in order) as the parallel lists `keys` of `into`."""
    for k, key in enumerate(keys):
        into[key] = [cell[k] for cell in cells]


def _one(data: st.DataObject, count: int, what: str) -> int:
    assume(count > 0)
    return data.draw(st.integers(0, count - 1), label=what)


# ---------------------------------------------------------------------- Summaries
# The partitions covered: named (at least one), each once, sorted. `labels`: every label
# read, distinct, in canonical order; the Table's labels among them. Without weights,
# `weighted_rows` is the rows read, and an unweighted Table and Ranking count them; with
# weights, no more non-zero cells or tie groups than rows of positive weight. The Table
# and the Ranking hold both weights or both counts, and the Ranking counts the Table's
# column of its positive class as positives, the rest as negatives (a class never seen:
# no positives), against all the other classes (negative null).


def _no_partition(doc: Document, data: st.DataObject) -> str:
    doc["partitions"] = []
    return "`partitions` is empty"


def _partition_twice(doc: Document, data: st.DataObject) -> str:
    doc["partitions"] = [*doc["partitions"], doc["partitions"][0]]
    return "each partition once"


def _partitions_unsorted(doc: Document, data: st.DataObject) -> str:
    assume(len(doc["partitions"]) > 1)
    doc["partitions"].reverse()
    return "sorted order"


def _table_label_unlisted(doc: Document, data: st.DataObject) -> str:
    table = doc["table"]
    labels = sorted(set(table["predicted"]) | set(table["actual"]))
    dropped = labels[_one(data, len(labels), "label")]
    doc["labels"] = [x for x in doc["labels"] if x != dropped]
    return "is not among `labels`"


def _labels_unsorted(doc: Document, data: st.DataObject) -> str:
    assume(len(doc["labels"]) > 1)
    doc["labels"].reverse()
    return "canonical order"


def _weighted_rows_of_counts(doc: Document, data: st.DataObject) -> str:
    doc["weighted_rows"] -= data.draw(st.integers(1, doc["weighted_rows"]), label="less")
    return "must equal `rows_read`"


def _fewer_weighted_rows_than_cells(doc: Document, data: st.DataObject) -> str:
    cells = len(_cells(doc["table"]))
    assume(cells > 0)
    doc["weighted_rows"] = cells - 1
    return "row of positive weight"


def _fewer_weighted_rows_than_groups(doc: Document, data: st.DataObject) -> str:
    groups = len(doc["ranking"]["scores"])
    assume(groups > 0)
    doc["weighted_rows"] = groups - 1
    return "row of positive weight"


def _rows_read_not_counted(doc: Document, data: st.DataObject) -> str:
    doc["rows_read"] += 1
    doc["weighted_rows"] += 1
    return "rows were lost"


def _ranking_of_another_class(doc: Document, data: st.DataObject) -> str:
    ranking, table = doc["ranking"], doc["table"]
    positives = sum(ranking["positives"])
    columns: dict[Any, int] = {}
    for _, j, v in _cells(table):
        columns[table["actual"][j]] = columns.get(table["actual"][j], 0) + v
    others = [x for x in doc["labels"] if x != ranking["positive"]]
    others = [x for x in others if columns.get(x, 0) != positives]
    assume(others)
    ranking["positive"] = others[data.draw(st.integers(0, len(others) - 1), label="class")]
    # the negative class as a writer names it for the new positive: the one other class
    # of the Table's columns, or none
    rest = [x for x in table["actual"] if x != ranking["positive"]]
    ranking["negative"] = rest[0] if len(rest) == 1 else None
    return "they count other rows"


def _ranking_of_a_negative_class(doc: Document, data: st.DataObject) -> str:
    """A negative class other than the one a writer names: the rows' one other class (the
    Table's columns, or `labels` without a Table), or none when they hold none or several."""
    ranking = doc["ranking"]
    classes = doc["table"]["actual"] if doc["table"] is not None else doc["labels"]
    rest = [x for x in classes if x != ranking["positive"]]
    named = rest[0] if len(rest) == 1 else None
    ranking["negative"] = _other(ranking["positive"], named)
    return "negative class"


def _positives_of_an_unseen_class(doc: Document, data: st.DataObject) -> str:
    ranking = doc["ranking"]
    assume(sum(ranking["positives"]) > 0)
    ranking["positive"] = _unseen(ranking["positive"])
    return "not among `labels`"


def _weights_beside_counts(doc: Document, data: st.DataObject) -> str:
    ranking = doc["ranking"]
    ranking["weighted"] = True
    ranking["positives"] = [float(x) for x in ranking["positives"]]
    ranking["negatives"] = [float(x) for x in ranking["negatives"]]
    return "both hold weights or both counts"


SUMMARIES = [
    Forgery("no partition", _no_partition),
    Forgery("a partition twice", _partition_twice),
    Forgery("partitions unsorted", _partitions_unsorted),
    Forgery("a label of the Table unlisted", _table_label_unlisted, {"table": True}),
    Forgery("labels unsorted", _labels_unsorted),
    Forgery("weighted rows of counts", _weighted_rows_of_counts, {"weighted": False}),
    Forgery(
        "more cells than weighted rows",
        _fewer_weighted_rows_than_cells,
        {"table": True, "weighted": True},
    ),
    Forgery(
        "more tie groups than weighted rows",
        _fewer_weighted_rows_than_groups,
        {"table": False, "ranking": True, "weighted": True},
    ),
    Forgery("rows read not counted", _rows_read_not_counted, {"weighted": False}),
    Forgery(
        "a Ranking of another class",
        _ranking_of_another_class,
        {"table": True, "ranking": True, "weighted": False},
    ),
    Forgery("a Ranking of a negative class", _ranking_of_a_negative_class, {"ranking": True}),
    Forgery(
        "positives of an unseen class",
        _positives_of_an_unseen_class,
        {"ranking": True, "weighted": False},
    ),
    Forgery(
        "a Ranking of weights beside a Table of counts",
        _weights_beside_counts,
        {"table": True, "ranking": True, "weighted": False},
    ),
]


@pytest.mark.parametrize("forgery", SUMMARIES, ids=str)
@FAST
@given(data=st.data())
def test_a_forged_summaries_document_is_refused(forgery: Forgery, data: st.DataObject) -> None:
    """Summaries with one invariant broken are refused, in one line that names it."""
    found = data.draw(summaries_objects(**forgery.needs), label="summaries")
    document = found.to_dict()
    _refused(Summaries.from_json, document, forgery.forge(document, data))


@FAST
@given(found=summaries_objects())
def test_summaries_read_back_as_written(found: Summaries) -> None:
    """Every document the writer writes is read back equal: no check refuses it."""
    assert Summaries.from_json(found.to_json()) == found


# ---------------------------------------------------------------------- Slices
# Every slice holds a row; without weights its rows are the sum of its cells and of its
# Ranking's counts, with weights at least its non-zero cells and tie groups. The labels
# are in canonical order and are the overall Table's, which is the sum of the slices'
# cells; the overall Ranking is the merge of the slices' Rankings. Every Ranking counts
# `positive` (named exactly when there are Rankings) against all the other classes: its
# positives are the slice's cells in that class's column, its negatives the others;
# Rankings hold weights exactly when the document does.


def _rows_not_the_cells(doc: Document, data: st.DataObject) -> str:
    doc["rows"][_one(data, len(doc["rows"]), "slice")] += 1
    return '"rows" but its cells count'


def _rows_not_the_ranking(doc: Document, data: st.DataObject) -> str:
    doc["rows"][_one(data, len(doc["rows"]), "slice")] += 1
    return '"rows" but its Ranking counts'


def _a_slice_without_rows(doc: Document, data: st.DataObject) -> str:
    doc["rows"][_one(data, len(doc["rows"]), "slice")] = 0
    return "every slice holds a row"


def _more_cells_than_rows(doc: Document, data: st.DataObject) -> str:
    held: dict[int, int] = {}
    for s in doc["table"]["cells"]["slice"]:
        held[s] = held.get(s, 0) + 1
    crowded = [s for s, count in held.items() if count > 1]
    assume(crowded)
    s = crowded[data.draw(st.integers(0, len(crowded) - 1), label="slice")]
    doc["rows"][s] = held[s] - 1
    return "non-zero cells"


def _more_groups_than_rows(doc: Document, data: st.DataObject) -> str:
    groups = [len(r["scores"]) for r in doc["rankings"]["slices"]]
    crowded = [s for s, count in enumerate(groups) if count > 1]
    assume(crowded)
    s = crowded[data.draw(st.integers(0, len(crowded) - 1), label="slice")]
    doc["rows"][s] = groups[s] - 1
    return "tie groups"


def _overall_not_the_sum(doc: Document, data: st.DataObject) -> str:
    overall = doc["table"]["overall"]
    cells = _cells(overall)
    _add(overall, _one(data, len(cells), "cell"), 1.0 if overall["weighted"] else 1)
    return '"overall" table is not the sum of the slices'


def _overall_labels_not_the_slices(doc: Document, data: st.DataObject) -> str:
    overall = doc["table"]["overall"]
    axis = data.draw(st.sampled_from(["predicted", "actual"]), label="axis")
    labels = overall[axis]
    assume(labels)
    labels[-1] = _unseen(labels[-1])
    return "are not the slices'"


def _labels_unordered(doc: Document, data: st.DataObject) -> str:
    table = doc["table"]
    K = len(table["predicted"])
    assume(K > 1)
    table["predicted"].reverse()
    cells = table["cells"]
    moved = zip(
        cells["slice"],
        [K - 1 - r for r in cells["row"]],
        cells["column"],
        cells["count"],
        strict=True,
    )
    _put(cells, ("slice", "row", "column", "count"), sorted(moved))
    overall = table["overall"]
    overall["predicted"].reverse()
    if isinstance(overall["counts"], dict):
        sparse = overall["counts"]
        moved = zip(
            [K - 1 - r for r in sparse["row"]], sparse["column"], sparse["count"], strict=True
        )
        _put(sparse, ("row", "column", "count"), sorted(moved))
    else:
        overall["counts"].reverse()
    return "not in canonical order"


def _overall_ranking_not_the_merge(doc: Document, data: st.DataObject) -> str:
    overall = doc["rankings"]["overall"]
    k = _one(data, len(overall["scores"]), "group")
    overall["positives"][k] += 1.0 if overall["weighted"] else 1
    return "not the merge of the slices' Rankings"


def _a_score_no_slice_holds(doc: Document, data: st.DataObject) -> str:
    overall = doc["rankings"]["overall"]
    overall["scores"].append(-1.0)
    overall["positives"].append(1.0 if overall["weighted"] else 1)
    overall["negatives"].append(0.0 if overall["weighted"] else 0)
    return "which no slice holds"


def _a_slice_ranking_of_another_class(doc: Document, data: st.DataObject) -> str:
    slices = doc["rankings"]["slices"]
    ranking = slices[_one(data, len(slices), "slice")]
    ranking["positive"] = _other(doc["positive"], ranking.get("negative"))
    return "counts the positive class"


def _positive_without_rankings(doc: Document, data: st.DataObject) -> str:
    labels = doc["table"]["overall"]["actual"]
    doc["positive"] = labels[_one(data, len(labels), "label")]
    return "no rankings to count it"


def _rankings_without_positive(doc: Document, data: st.DataObject) -> str:
    doc["positive"] = None
    return '"positive" is null'


def _positives_not_the_column(doc: Document, data: st.DataObject) -> str:
    slices = doc["rankings"]["slices"]
    places = [
        (s, k)
        for s, ranking in enumerate(slices)
        for k, count in enumerate(ranking["positives"])
        if count > 0
    ]
    s, k = places[_one(data, len(places), "group")]
    score = slices[s]["scores"][k]
    overall = doc["rankings"]["overall"]
    for ranking, at in ((slices[s], k), (overall, overall["scores"].index(score))):
        ranking["positives"][at] -= 1
        ranking["negatives"][at] += 1
    return "its Ranking counts"


def _a_ranking_of_weights(doc: Document, data: st.DataObject) -> str:
    overall = doc["rankings"]["overall"]
    overall["weighted"] = True
    overall["positives"] = [float(x) for x in overall["positives"]]
    overall["negatives"] = [float(x) for x in overall["negatives"]]
    return 'holds weights but "weighted" is false'


def _an_accumulated_slice_beyond_the_overall(doc: Document, data: st.DataObject) -> str:
    table = doc["table"]
    cells = table["cells"]
    overall = {(i, j): v for i, j, v in _cells(table["overall"])}
    k = _one(data, len(cells["count"]), "cell")
    cell = (cells["row"][k], cells["column"][k])
    more = overall[cell] - cells["count"][k] + 1
    cells["count"][k] += more
    doc["rows"][cells["slice"][k]] += more
    return 'more than the "overall" table\'s'


def _accumulated_unsaid(doc: Document, data: st.DataObject) -> str:
    assume(sum(doc["rows"]) > sum(v for _, _, v in _cells(doc["table"]["overall"])))
    del doc["accumulated"]
    return '"overall" table is not the sum of the slices'


SLICES = [
    Forgery("rows not the cells", _rows_not_the_cells, {"table": True, "weighted": False}),
    Forgery(
        "rows not the Ranking",
        _rows_not_the_ranking,
        {"table": False, "ranking": True, "weighted": False},
    ),
    Forgery("a slice without rows", _a_slice_without_rows),
    Forgery("more cells than rows", _more_cells_than_rows, {"table": True, "weighted": True}),
    Forgery(
        "more tie groups than rows",
        _more_groups_than_rows,
        {"table": False, "ranking": True, "weighted": True},
    ),
    Forgery("overall not the sum", _overall_not_the_sum, {"table": True}),
    Forgery("overall labels not the slices'", _overall_labels_not_the_slices, {"table": True}),
    Forgery("labels out of order", _labels_unordered, {"table": True}),
    Forgery("overall Ranking not the merge", _overall_ranking_not_the_merge, {"ranking": True}),
    Forgery("a score no slice holds", _a_score_no_slice_holds, {"ranking": True}),
    Forgery(
        "a slice's Ranking of another class", _a_slice_ranking_of_another_class, {"ranking": True}
    ),
    Forgery(
        "positive without rankings", _positive_without_rankings, {"table": True, "ranking": False}
    ),
    Forgery("rankings without positive", _rankings_without_positive, {"ranking": True}),
    Forgery(
        "positives not the positive class's column",
        _positives_not_the_column,
        {"table": True, "ranking": True, "weighted": False},
    ),
    Forgery(
        "a Ranking of weights in a document of counts",
        _a_ranking_of_weights,
        {"ranking": True, "weighted": False},
    ),
    Forgery(
        "an accumulated slice beyond the overall",
        _an_accumulated_slice_beyond_the_overall,
        {"table": True, "weighted": False, "accumulated": True},
    ),
    Forgery(
        "accumulated slices not said to be",
        _accumulated_unsaid,
        {"table": True, "weighted": False, "accumulated": True},
    ),
]


@pytest.mark.parametrize("forgery", SLICES, ids=str)
@FAST
@given(data=st.data())
def test_a_forged_slices_document_is_refused(forgery: Forgery, data: st.DataObject) -> None:
    """Slices with one invariant broken are refused, in one line that names it."""
    found = data.draw(slices_objects(**forgery.needs), label="slices")
    document = found.to_dict()
    _refused(Slices.from_json, document, forgery.forge(document, data))


@FAST
@given(found=slices_objects(), accumulated=st.booleans())
def test_slices_read_back_as_written(found: Slices, accumulated: bool) -> None:
    """Every document the writer writes is read back equal (accumulated slices too): no
    check refuses it."""
    if accumulated:
        found = accumulate(found, last=3)
    assert Slices.from_json(found.to_json()) == found


# ---------------------------------------------------------------------- Tally
# Distinct categories; every category's table sums to `documents`; `ignored` names
# distinct undeclared categories, in sorted order, each by at most `documents` documents.


def _ignored_unsorted(doc: Document, data: st.DataObject) -> str:
    assume(len(doc["ignored"]) > 1)
    doc["ignored"].reverse()
    return "sorted order"


def _ignored_too_often(doc: Document, data: st.DataObject) -> str:
    entry = doc["ignored"][_one(data, len(doc["ignored"]), "category")]
    entry[1] = doc["documents"] + 1
    return "a document names a category once"


def _a_table_off_the_documents(doc: Document, data: st.DataObject) -> str:
    table = doc["counts"][_one(data, len(doc["counts"]), "category")]
    table[data.draw(st.integers(0, 1))][data.draw(st.integers(0, 1))] += 1
    return "sums to"


def _documents_off(doc: Document, data: st.DataObject) -> str:
    doc["documents"] += 1
    return "sums to"


def _a_category_twice(doc: Document, data: st.DataObject) -> str:
    doc["categories"][1] = doc["categories"][0]
    return "appears twice"


TALLY = [
    Forgery("ignored unsorted", _ignored_unsorted, {"ignored": True}),
    Forgery("ignored more often than documents", _ignored_too_often, {"ignored": True}),
    Forgery("a table off the documents", _a_table_off_the_documents),
    Forgery("documents off", _documents_off),
    Forgery("a category twice", _a_category_twice),
]


@pytest.mark.parametrize("forgery", TALLY, ids=str)
@FAST
@given(data=st.data())
def test_a_forged_tally_document_is_refused(forgery: Forgery, data: st.DataObject) -> None:
    """A Tally with one invariant broken is refused, in one line that names it."""
    found = data.draw(tally_objects(**forgery.needs), label="tally")
    document = found.to_dict()
    _refused(Tally.from_json, document, forgery.forge(document, data))


@FAST
@given(found=tally_objects())
def test_tallies_read_back_as_written(found: Tally) -> None:
    """Every document the writer writes is read back equal: no check refuses it."""
    assert Tally.from_json(found.to_json()) == found


# ---------------------------------------------------------------------- Table
# Distinct labels on each axis; counts non-negative, whole without weights; the sparse
# form lists each non-zero cell once, in row-major order, and no zero.


def _a_zero_cell(doc: Document, data: st.DataObject) -> str:
    sparse = doc["counts"]
    taken = set(zip(sparse["row"], sparse["column"], strict=True))
    free = [
        (i, j)
        for i in range(len(doc["predicted"]))
        for j in range(len(doc["actual"]))
        if (i, j) not in taken
    ]
    i, j = free[_one(data, len(free), "cell")]
    cells = [*zip(sparse["row"], sparse["column"], sparse["count"], strict=True), (i, j, 0)]
    _put(sparse, ("row", "column", "count"), sorted(cells))
    return "lists non-zero cells"


def _a_negative_count(doc: Document, data: st.DataObject) -> str:
    cells = _cells(doc)
    at = _one(data, len(cells), "cell")
    _add(doc, at, -2 * cells[at][2] - 1)
    return "non-negative"


def _a_label_twice(doc: Document, data: st.DataObject) -> str:
    axis = data.draw(st.sampled_from(["predicted", "actual"]), label="axis")
    assume(len(doc[axis]) > 1)
    doc[axis][1] = doc[axis][0]
    return "distinct labels"


def _a_fraction_of_a_count(doc: Document, data: st.DataObject) -> str:
    cells = _cells(doc)
    _add(doc, _one(data, len(cells), "cell"), 0.5)
    return "non-integer"


TABLE = [
    Forgery("a zero cell", _a_zero_cell, {"storage": "sparse"}),
    Forgery("a negative count", _a_negative_count),
    Forgery("a label twice", _a_label_twice),
    Forgery("a fraction of a count", _a_fraction_of_a_count, {"weighted": False}),
]


@pytest.mark.parametrize("forgery", TABLE, ids=str)
@FAST
@given(data=st.data())
def test_a_forged_table_document_is_refused(forgery: Forgery, data: st.DataObject) -> None:
    """A Table with one invariant broken is refused, in one line that names it."""
    found = data.draw(table_objects(**forgery.needs), label="table")
    document = found.to_dict()
    _refused(Table.from_json, document, forgery.forge(document, data))


@FAST
@given(found=table_objects())
def test_tables_read_back_as_written(found: Table) -> None:
    """Every document the writer writes is read back equal, in its storage."""
    read = Table.from_json(found.to_json())
    assert read == found and read.storage == found.storage


# ---------------------------------------------------------------------- Ranking
# Distinct scores in descending order; counts non-negative (whole without weights),
# every group holding a positive or a negative.


def _scores_unsorted(doc: Document, data: st.DataObject) -> str:
    scores = doc["scores"]
    assume(len(scores) > 1)
    k = data.draw(st.integers(0, len(scores) - 2), label="group")
    scores[k], scores[k + 1] = scores[k + 1], scores[k]
    return "strictly descending"


def _an_empty_group(doc: Document, data: st.DataObject) -> str:
    k = _one(data, len(doc["scores"]), "group")
    doc["positives"][k] = doc["negatives"][k] = 0.0 if doc["weighted"] else 0
    return "no positives and no negatives"


def _a_negative_group_count(doc: Document, data: st.DataObject) -> str:
    k = _one(data, len(doc["scores"]), "group")
    doc["negatives"][k] = -1.0 if doc["weighted"] else -1
    return "non-negative"


def _a_fraction_of_a_group(doc: Document, data: st.DataObject) -> str:
    k = _one(data, len(doc["scores"]), "group")
    doc["positives"][k] += 0.5
    return "must be an integer"


RANKING = [
    Forgery("scores unsorted", _scores_unsorted),
    Forgery("an empty group", _an_empty_group),
    Forgery("a negative count", _a_negative_group_count),
    Forgery("a fraction of a count", _a_fraction_of_a_group, {"weighted": False}),
]


@pytest.mark.parametrize("forgery", RANKING, ids=str)
@FAST
@given(data=st.data())
def test_a_forged_ranking_document_is_refused(forgery: Forgery, data: st.DataObject) -> None:
    """A Ranking with one invariant broken is refused, in one line that names it."""
    found = data.draw(ranking_objects(**forgery.needs), label="ranking")
    document = found.to_dict()
    _refused(Ranking.from_json, document, forgery.forge(document, data))


@FAST
@given(found=ranking_objects())
def test_rankings_read_back_as_written(found: Ranking) -> None:
    """Every document the writer writes is read back equal."""
    assert Ranking.from_json(found.to_json()) == found


# ---------------------------------------------------------------------- the case
def _four_rows() -> Summaries:
    frame = {"y": ["a", "b", "a", "b"], "p": ["a", "a", "b", "b"]}
    return summarise_frame(frame, part="part-1", actual="y", predicted="p")


def test_summaries_naming_no_partition_do_not_merge_twice() -> None:
    """Two Summaries of 4 rows whose `partitions` were emptied merged to n = 8: the reader
    refuses them, and `+` refuses summaries made without a partition."""
    document = _four_rows().to_dict()
    document["partitions"] = []
    _refused(Summaries.from_json, document, "`partitions` is empty")
    bare = replace(_four_rows(), parts=frozenset())
    with pytest.raises(InputError, match="name no partition cannot be merged"):
        bare + bare


def test_informed_merge_refuses_a_forged_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`informed merge` of two copies of a part without partitions fails in one line naming
    the file and what is wrong, and prints no report (it printed n = 8 for 4 rows)."""
    document = _four_rows().to_dict()
    document["partitions"] = []
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        path.write_text(json.dumps(document))
    assert main(["merge", *map(str, paths)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"informed: error: {paths[0]}: `partitions` is empty: summaries " + (
        "name the partitions they cover, so that none is counted twice when they are merged.\n"
    )
