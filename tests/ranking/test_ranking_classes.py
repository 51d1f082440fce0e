"""Issue 20, the Ranking's part: its classes, one label rule, exact integer scores, one
spelling of its arguments, and the measures as methods.

Expected values come from exact arithmetic on the rows (counted by hand), from the
registry's functions as already tested against scikit-learn, or from scikit-learn here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from informed.cli import main
from informed.errors import InputError, InputTypeError
from informed.io import Summaries, read_summaries, summarise_frame
from informed.io.coverage import Merger
from informed.ranking import RANKING_MEASURES, Ranking, auc, hit_rate


def raises(kind: type[Exception], pattern: str) -> Any:
    return pytest.raises(kind, match=pattern)


# -- 1. a Ranking knows its classes; different positives do not merge --------------------


def test_rankings_of_different_positives_refuse_to_merge() -> None:
    """The issue's example: y against p counted n+ = 2 before; now a message naming both."""
    y = Ranking.from_scores(actual=["y", "n"], scores=[0.1, 0.2], positive="y")
    p = Ranking.from_scores(actual=["p", "q"], scores=[0.1, 0.2], positive="p")
    assert (y.positive, y.negative, p.positive, p.negative) == ("y", "n", "p", "q")
    with raises(InputError, r"positive class 'y' with one of positive class 'p'"):
        _ = y + p


@pytest.mark.parametrize(("first", "second"), [(1, "1"), (True, 1), ("1", True)])
def test_labels_of_different_kinds_are_different_positives(first: Any, second: Any) -> None:
    """1, '1' and True are three labels (informed.coding.labels.keyed) in a merge too."""
    a = Ranking(scores=[0.5], positives=[1], negatives=[1], positive=first)
    b = Ranking(scores=[0.5], positives=[1], negatives=[1], positive=second)
    with raises(InputError, rf"positive class {re.escape(repr(first))} with one of"):
        _ = a + b


def test_one_and_one_point_zero_are_one_positive() -> None:
    a = Ranking(scores=[0.5], positives=[1], negatives=[0], positive=1)
    b = Ranking(scores=[0.4], positives=[0], negatives=[1], positive=1.0)
    assert (a + b).n == 2


def test_negative_unseen_merges_with_a_seen_one_but_two_differ_not() -> None:
    """A chunk may see only positives: its negative is unknown and gives way."""
    only_positives = Ranking.from_scores(actual=["y", "y"], scores=[0.9, 0.8], positive="y")
    with_n = Ranking.from_scores(actual=["y", "n"], scores=[0.7, 0.1], positive="y")
    with_m = Ranking.from_scores(actual=["y", "m"], scores=[0.7, 0.1], positive="y")
    assert only_positives.negative is None
    merged = only_positives + with_n
    assert (merged.positive, merged.negative, merged.n_positive, merged.n_negative) == (
        "y",
        "n",
        3,
        1,
    )
    assert (with_n + only_positives) == merged
    with raises(InputError, r"negative class 'n' with one of negative class 'm'"):
        _ = with_n + with_m


def test_repr_json_and_html_carry_the_classes() -> None:
    r = Ranking.from_scores(actual=["spam", "ham", "spam"], scores=[3, 1, 2], positive="spam")
    assert "positive='spam', negative='ham'" in repr(r)
    data = json.loads(r.to_json())
    assert (data["schema_version"], data["positive"], data["negative"]) == (2, "spam", "ham")
    assert Ranking.from_json(r.to_json()) == r
    html = r._repr_html_()
    assert "&#x27;spam&#x27;" in html and "&#x27;ham&#x27;" in html


@pytest.mark.parametrize("label", [True, 1, 2.5, "1"])
def test_json_keeps_the_kind_of_a_class(label: Any) -> None:
    r = Ranking(scores=[0.5], positives=[1], negatives=[1], positive=label)
    back = Ranking.from_json(r.to_json())
    assert back == r and type(back.positive) is type(label)


def test_a_version_1_document_is_read_with_classes_unknown() -> None:
    """Written before a Ranking knew its classes: read as unknown, so it merges with a
    Ranking of any class (the reader vouches), and an edited version 2 is refused."""
    old = {
        "kind": "informed.Ranking",
        "schema_version": 1,
        "weighted": False,
        "scores": [0.5],
        "positives": [1],
        "negatives": [2],
    }
    r = Ranking.from_dict(old)
    assert (r.positive, r.negative) == (None, None)
    known = Ranking.from_scores(actual=["y", "n"], scores=[0.5, 0.1], positive="y")
    assert (r + known).positive == "y" and (r + known).n == 5
    with raises(InputError, r"exactly the keys"):
        Ranking.from_dict({**old, "schema_version": 2})
    with raises(InputError, r"`positive` must be a label"):
        Ranking.from_dict({**known.to_dict(), "positive": [1]})


def test_empty_and_one_vs_rest_carry_classes() -> None:
    assert Ranking.empty() + Ranking.empty(positive="y") == Ranking.empty(positive="y")
    with raises(InputError, r"positive class 'x' with one of positive class 'y'"):
        _ = Ranking.empty(positive="x") + Ranking.empty(positive="y")
    rankings = Ranking.one_vs_rest(
        ["a", "b", "c"],
        [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6]],
        classes=["a", "b", "c"],
    )
    assert [(r.positive, r.negative) for r in rankings.values()] == [
        ("a", None),
        ("b", None),
        ("c", None),
    ]
    with raises(InputError, r"positive class 'a' with one of positive class 'b'"):
        _ = rankings["a"] + rankings["b"]


def test_classes_given_directly_are_checked() -> None:
    with raises(InputError, r"`positive` and `negative` must differ; both are 1"):
        Ranking(scores=[0.5], positives=[1], negatives=[0], positive=1, negative=1.0)
    with raises(InputError, r"labels of different kinds"):
        Ranking(scores=[0.5], positives=[1], negatives=[0], positive=1, negative="0")
    with raises(InputTypeError, r"`positive` of a Ranking: a label must be"):
        Ranking(scores=[0.5], positives=[1], negatives=[0], positive=[1])


def _frame_summaries(positive: str, part: str) -> Summaries:
    frame = {"y": ["y", "n", "p"], "s": [0.9, 0.2, 0.4]}
    return summarise_frame(frame, part=part, actual="y", scores="s", positive=positive)


def test_summaries_of_different_positives_refuse_to_merge() -> None:
    """The same through summarise_frame, the Merger of files and Dask trees, and JSON."""
    y = _frame_summaries("y", "monday")
    p = _frame_summaries("p", "tuesday")
    assert y.ranking is not None and (y.ranking.positive, y.ranking.negative) == ("y", None)
    with raises(InputError, r"positive class 'y' with one of positive class 'p'"):
        _ = y + p
    merger = Merger()
    merger.add(Summaries.from_json(y.to_json()))
    with raises(InputError, r"positive class 'y' with one of positive class 'p'"):
        merger.add(Summaries.from_json(p.to_json()))
    same = _frame_summaries("y", "tuesday")
    assert (y + same).ranking == Ranking(
        scores=[0.9, 0.4, 0.2], positives=[2, 0, 0], negatives=[0, 2, 2], positive="y"
    )


def test_informed_merge_refuses_partial_files_of_different_positives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, positive in (("a", "y"), ("b", "p")):
        (tmp_path / f"{name}.json").write_text(_frame_summaries(positive, name).to_json())
    code = main(["merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    err = capsys.readouterr().err
    assert code != 0
    assert "positive class 'y' with one of positive class 'p'" in err
    assert len(err.strip().splitlines()) == 1


def test_informed_merge_checks_positive_against_the_ranking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "r.json").write_text(
        Ranking.from_scores(actual=["y", "n"], scores=[2, 1], positive="y").to_json()
    )
    code = main(["merge", str(tmp_path / "r.json"), "--positive", "n"])
    err = capsys.readouterr().err
    assert code != 0 and "--positive 'n' but the merged Ranking ranks the class 'y'" in err
    code = main(["merge", str(tmp_path / "r.json"), "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)["positive"] == "y"  # named by the file itself


# -- 5. one label rule: True is not 1 --------------------------------------------------


@pytest.mark.parametrize(
    ("actual", "positive"),
    [
        ([1, 0, 1], True),
        ([True, False, True], 1),
        (np.array([1, 0, 1]), True),
        (np.array([True, False, True]), 1),
        (np.array([1, 0, 1], dtype=object), True),
        (["1", "0", "1"], 1),
    ],
)
def test_a_positive_of_another_kind_is_not_found(actual: Any, positive: Any) -> None:
    """As `evaluate` and Table: 1, '1' and True stay three labels on every route."""
    with raises(InputError, rf"positive={re.escape(repr(positive))} does not occur"):
        Ranking.from_scores(actual, [0.3, 0.2, 0.1], positive=positive)
    with raises(InputError, r"does not occur"):
        Ranking.from_frame(
            {"y": actual, "s": [0.3, 0.2, 0.1]}, actual="y", scores="s", positive=positive
        )


def test_one_vs_rest_and_frames_follow_the_same_rule() -> None:
    with raises(
        InputError, r"row 1 \(index 0\) holds 1, which is not among `classes` \[True, False\]"
    ):
        Ranking.one_vs_rest([1, 0], [[0.9, 0.1], [0.2, 0.8]], classes=[True, False])
    found = summarise_frame(
        {"y": [1, 0, 1], "s": [0.3, 0.2, 0.1]}, part="p", actual="y", scores="s", positive=True
    )
    assert found.ranking is not None and found.ranking.n_positive == 0  # True is not 1
    found = summarise_frame(
        {"y": [1, 0, 1], "s": [0.3, 0.2, 0.1]}, part="p", actual="y", scores="s", positive=1
    )
    assert found.ranking is not None and found.ranking.n_positive == 2


def test_booleans_rank_by_true() -> None:
    r = Ranking.from_scores(np.array([True, False, True]), [0.3, 0.2, 0.1], positive=True)
    assert (r.positive, r.negative, r.n_positive) == (True, False, 2)


# -- 8. integer scores beyond 2**53 ----------------------------------------------------


@pytest.mark.parametrize(
    "scores",
    [
        [2**53 + 1, 2**53],  # int64: 2**53 + 1 rounds to 2**53 as a float
        [-(2**53) - 1, 0],
        [2**63 + 1, 2**53],  # numpy makes this list float64: caught from the list
        [2**64 + 5, 1],  # object array of Python ints
        np.array([2**53 + 1, 3], dtype=np.uint64),
    ],
)
def test_integers_beyond_2_53_are_a_clear_error(scores: Any) -> None:
    """Was an IndexError from 2**53 + 1 up, and a silent rounding past 2**63."""
    first = int(scores[0])
    with raises(
        InputError, rf"`scores` row 1 \(index 0\) holds {first}, an integer beyond 2\*\*53"
    ):
        Ranking.from_scores([1, 0], scores, positive=1)


def test_integers_up_to_2_53_are_exact() -> None:
    r = Ranking.from_scores([1, 0, 1], [2**53, 2**53 - 1, -(2**53)], positive=1)
    assert r.scores.tolist() == [2.0**53, 2.0**53 - 1, -(2.0**53)]
    with raises(InputError, r"`scores` row 2 \(index 1\) holds 9007199254740993"):
        Ranking.one_vs_rest([0, 1], [[1, 2], [2**53 + 1, 2]], classes=[0, 1])


# -- 10, 11. one spelling, positional actual and scores, messages with the call -------


def test_actual_and_scores_by_position_and_by_alias() -> None:
    expected = Ranking.from_scores(actual=[1, 0, 1], scores=[0.9, 0.2, 0.4], positive=1)
    assert Ranking.from_scores([1, 0, 1], [0.9, 0.2, 0.4], positive=1) == expected
    assert Ranking.from_scores(y_true=[1, 0, 1], y_score=[0.9, 0.2, 0.4], positive=1) == expected
    assert Ranking.from_scores([1, 0, 1], score=[0.9, 0.2, 0.4], positive=1) == expected
    weighted = Ranking.from_scores([1, 0], [0.9, 0.2], positive=1, sample_weight=[2, 3])
    assert (weighted.n_positive, weighted.n_negative) == (2.0, 3.0)


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda: Ranking.from_scores([1, 0], [0.1, 0.2]), r"needs `positive`"),
        (lambda: Ranking.from_scores([1, 0], [0.1, 0.2], positive=None), r"needs `positive`"),
        (lambda: Ranking.from_scores([1, 0], [0.1, 0.2], 1), r"takes 2 arguments by position"),
        (lambda: Ranking.from_scores([1, 0], positive=1), r"needs `scores`"),
        (lambda: Ranking.from_scores([1], [1], positiv=1), r"unexpected argument 'positiv'"),
        (
            lambda: Ranking.from_scores([1], [1], actual=[1], positive=1),
            r"got 'actual' twice",
        ),
        (
            lambda: Ranking.from_scores([1], [1], weights=[1], weight=[1], positive=1),
            r"got 'weights' twice",
        ),
        (lambda: Ranking.from_frame({"y": [1]}, actual="y", positive=1), r"needs `scores`"),
        (lambda: Ranking.one_vs_rest([1], classes=[1]), r"needs `scores`"),
    ],
)
def test_every_wrong_argument_shows_the_call_to_write(call: Any, pattern: str) -> None:
    with pytest.raises(InputTypeError, match=pattern) as error:
        call()
    assert re.search(r"Ranking\.(from_scores|from_frame|one_vs_rest)\(.*\)\.$", str(error.value))


def test_frame_calls_take_scores_and_weights(tmp_path: Path) -> None:
    frame = {"y": ["a", "b", "a"], "s": [0.9, 0.1, 0.5], "w": [1.0, 2.0, 0.5]}
    new = summarise_frame(frame, part="p", actual="y", scores="s", weights="w", positive="a")
    old = summarise_frame(frame, part="p", actual="y", score="s", weight="w", positive="a")
    assert new == old and new.ranking is not None and new.ranking.n_negative == 2.0
    assert Ranking.from_frame(frame, actual="y", scores="s", positive="a") == Ranking.from_frame(
        frame, "y", "s", positive="a"
    )
    with raises(InputTypeError, r"got 'scores' twice, as scores= and score="):
        summarise_frame(frame, part="p", actual="y", scores="s", score="s", positive="a")
    path = tmp_path / "f.csv"
    path.write_text("y,s\na,0.9\nb,0.1\n")
    assert (
        read_summaries(path, actual="y", scores="s", positive="a").ranking
        == read_summaries(path, actual="y", score="s", positive="a").ranking
    )


# -- 12. methods, sum, the table's labels ---------------------------------------------


def test_methods_are_the_registry_functions() -> None:
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300) + 0.3 * y, 1)
    r = Ranking.from_scores(y, s, positive=1)
    assert r.auc() == auc(r) == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    for name, entry in RANKING_MEASURES.items():
        if entry.function is None:
            continue
        if entry.quota == "required":
            assert np.array_equal(r.measure(name, 50), entry.function(r, 50), equal_nan=True)
        else:
            assert r.measure(name) == entry.function(r)
    assert r.pem() == RANKING_MEASURES["pem"].function(r)  # type: ignore[misc]
    assert r.average_hit_rate(quota=100) == RANKING_MEASURES["average_hit_rate"].function(r, 100)  # type: ignore[misc]
    assert np.array_equal(r.hit_rate([10, 20]), hit_rate(r, [10, 20]))
    with raises(InputError, r"no ranking measure 'f1'"):
        r.measure("f1")
    with raises(InputError, r"`lift` is a value at a quota J"):
        r.measure("lift")


def test_sum_of_rankings() -> None:
    parts = [
        Ranking.from_scores(["y", "n"], [0.9, 0.1], positive="y"),
        Ranking.from_scores(["y", "y"], [0.5, 0.1], positive="y"),
    ]
    total = sum(parts)
    assert isinstance(total, Ranking)
    assert total.scores.tolist() == [0.9, 0.5, 0.1]
    assert total.positives.tolist() == [1, 1, 1] and total.negatives.tolist() == [0, 0, 1]
    assert sum(parts[:1]) == parts[0]


def test_best_threshold_table_keeps_the_users_labels() -> None:
    r = Ranking.from_scores(["spam", "ham", "spam", "ham"], [4, 3, 2, 1], positive="spam")
    point = r.best_threshold()
    # in canonical order as every Table, the positive class named beside it
    assert point.table.predicted == ("ham", "spam") == point.table.actual
    assert point.positive == "spam" and point.negative == "ham"
    assert point.cells == (1, 0, 1, 2)  # threshold 4: one spam caught
    assert point.table.counts.tolist() == [[2, 1], [0, 1]]
    assert r.at_threshold(2).table.predicted == ("ham", "spam")
    rest = summarise_frame(
        {"y": ["a", "b", "c"], "s": [3, 2, 1]}, part="p", actual="y", scores="s", positive="a"
    ).ranking
    assert rest is not None and rest.best_threshold().table.predicted == ("a", "not a")
    unknown = Ranking(scores=[2, 1], positives=[1, 0], negatives=[0, 1])
    assert unknown.best_threshold().table.predicted == ("+", "-")
    assert r.best_threshold(labels=("S", "H")).table.predicted == ("H", "S")
    assert r.best_threshold(labels=("S", "H")).positive == "S"
