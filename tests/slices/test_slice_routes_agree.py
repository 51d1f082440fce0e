"""A slice's Table and Ranking are those its rows give alone, on every route (issue 27,
item 9).

A label whose rows all weighed 0 was dropped from the slice's Table (kept by
`Table.from_labels` of the same rows), and a slice's Ranking carried `negative=None` where
`Ranking.from_scores` of the same rows names the other class, so `==` was False. The
oracles are the unsliced constructors on each slice's rows, picked out here by a loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from informed import Ranking, Table
from informed.slices import Slices

CLASSES = {2: ["no", "yes"], 3: ["no", "yes", "maybe"], 1: ["yes"]}


def _expected_ranking(
    actual: list[Any], scores: list[float], weights: Any, classes: list[Any]
) -> Ranking | None:
    """`Ranking.from_scores` of the rows, "yes" against the data's one other class (named,
    as the slice's rows may lack it), or against all the others when there are several."""
    others = sorted({a for a in classes if a != "yes"})
    if len(others) <= 1:
        negative = {"negative": others[0]} if others else {}
        return Ranking.from_scores(actual, scores, positive="yes", weights=weights, **negative)
    return None  # several other classes: compared by counts below


def _check_ranking(
    found: Ranking, actual: list[Any], scores: list[float], weights: Any, classes: list[Any]
) -> None:
    expected = _expected_ranking(actual, scores, weights, classes)
    if expected is not None:
        assert found == expected
        return
    # several other classes: from_scores refuses them; the counts of "yes" against the rest
    rest = Ranking.from_scores(
        [a == "yes" for a in actual], scores, positive=True, negative=False, weights=weights
    )
    assert found.scores.tolist() == rest.scores.tolist()
    assert found.positives.tolist() == rest.positives.tolist()
    assert found.negatives.tolist() == rest.negatives.tolist()
    assert (found.positive, found.negative) == ("yes", None)


ROWS = st.integers(2, 3).flatmap(
    lambda k: st.tuples(
        st.just(k),
        st.lists(
            st.tuples(
                st.sampled_from(["a", "b", "c"]),
                st.sampled_from(CLASSES[k]),
                st.sampled_from(CLASSES[k]),
                st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                st.sampled_from([0.0, 0.0, 1.0, 2.5]),
            ),
            min_size=1,
            max_size=30,
        ),
    )
)


@settings(max_examples=80, deadline=None)
@given(drawn=ROWS, weighted=st.booleans())
def test_every_slice_is_the_summary_of_its_rows(
    drawn: tuple[int, list[Any]], weighted: bool
) -> None:
    """For random rows (weights of 0 among them, two or three classes): each slice's Table
    is Table.from_labels of its rows, each slice's Ranking Ranking.from_scores of its rows,
    the overall ones those of all the rows; JSON keeps them."""
    _, rows = drawn
    rows = [("a", "yes", "yes", 0.5, 1.0), *rows]  # "yes" occurs: it is the positive class
    by, actual, predicted, scores, weights = (list(c) for c in zip(*rows, strict=True))
    w = weights if weighted else None
    classes = sorted(set(actual))
    found = Slices.from_labels(
        by=by, actual=actual, predicted=predicted, scores=scores, positive="yes", weights=w
    )
    for key in sorted(set(by)):
        at = [i for i, b in enumerate(by) if b == key]
        part = [[column[i] for i in at] for column in (actual, predicted, scores, weights)]
        part_w = part[3] if weighted else None
        assert found.table(key) == Table.from_labels(part[0], part[1], weights=part_w)
        _check_ranking(found.ranking(key), part[0], part[2], part_w, classes)
    assert found.overall == Table.from_labels(actual, predicted, weights=w)
    _check_ranking(found.overall_ranking, actual, scores, w, classes)  # type: ignore[arg-type]
    assert Slices.from_json(found.to_json()) == found


def test_a_label_whose_rows_all_weigh_zero_is_a_label_of_the_slice() -> None:
    """The issue's case: "z" is seen in slice "a" only with weight 0."""
    by, actual, predicted = ["a", "a", "b"], ["x", "y", "x"], ["x", "z", "x"]
    weights = [1.0, 0.0, 2.0]
    found = Slices.from_labels(by=by, actual=actual, predicted=predicted, weights=weights)
    table = found.table("a")
    assert table.predicted == ("x", "z") and table.actual == ("x", "y")
    assert table == Table.from_labels(actual[:2], predicted[:2], weights=weights[:2])
    assert table.count("z", "y") == 0.0
    assert Slices.from_json(found.to_json()).table("a") == table


@settings(max_examples=60, deadline=None)
@given(drawn=ROWS, cut=st.integers(1, 30), weighted=st.booleans())
def test_parts_merged_name_the_classes_the_whole_names(
    drawn: tuple[int, list[Any]], cut: int, weighted: bool
) -> None:
    """Two parts sliced apart and merged equal the slices of all the rows: one part may
    lack the other class, or each part hold a different one of two others."""
    _, rows = drawn
    rows = [("a", "yes", "yes", 0.5, 1.0), *rows, ("b", "yes", "no", 0.25, 1.0)]
    cut = min(cut, len(rows) - 1)

    def build(part: list[Any]) -> Slices:
        by, actual, predicted, scores, weights = (list(c) for c in zip(*part, strict=True))
        return Slices.from_labels(
            by=by,
            actual=actual,
            predicted=predicted,
            scores=scores,
            positive="yes",
            weights=weights if weighted else None,
        )

    first, second = rows[:cut], rows[cut:]
    if not any(r[1] == "yes" for r in second):
        second = [("c", "yes", "yes", 0.0, 1.0), *second]
        rows = [*first, *second]
    assert build(first) + build(second) == build(rows)


def test_slices_read_from_a_csv_file_are_those_in_memory(tmp_path: Path) -> None:
    """The file route (text labels), weights of 0 and two classes: the same Slices."""
    path = tmp_path / "rows.csv"
    rows = [
        ("g", "y", "p", "s", "w"),
        ("a", "yes", "yes", "0.9", "1"),
        ("a", "no", "maybe", "0.4", "0"),
        ("b", "no", "no", "0.4", "2"),
        ("b", "yes", "no", "0.1", "1"),
    ]
    path.write_text("\n".join(",".join(r) for r in rows) + "\n")
    from informed.io.sliced import read_slices

    found = read_slices(
        path, by="g", actual="y", predicted="p", scores="s", weights="w", positive="yes"
    )
    columns = list(zip(*rows[1:], strict=True))
    memory = Slices.from_labels(
        by=list(columns[0]),
        actual=list(columns[1]),
        predicted=list(columns[2]),
        scores=[float(x) for x in columns[3]],
        weights=[float(x) for x in columns[4]],
        positive="yes",
        names=["g"],
    )
    assert found == memory
    assert found.table("a").predicted == ("maybe", "yes")  # "maybe" weighs 0
    assert found.ranking("a").negative == "no" == found.overall_ranking.negative  # type: ignore[union-attr]
