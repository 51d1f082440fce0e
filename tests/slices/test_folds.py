"""Folds: each fold's Table and Ranking are those of its rows, the pooled one that of all.

The oracles are written here: `Table.from_labels` of each fold's rows (a boolean mask),
of all rows, the measures of `evaluate` on those tables, numpy's mean and std, and
scikit-learn's `roc_auc_score` of each fold's scores.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from informed import Table, evaluate
from informed.errors import InputError
from informed.slices import Folds


def _rows(seed: int, n: int = 300, k: int = 5) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.choice(["cat", "dog", "eel"], size=n, p=[0.5, 0.3, 0.2])
    flip = rng.random(n) < 0.35
    predicted = np.where(flip, rng.choice(["cat", "dog", "eel"], size=n), actual)
    return {
        "fold": rng.permutation(n) % k + 1,
        "actual": actual,
        "predicted": predicted,
        "scores": rng.normal(size=n) + (actual == "dog"),
        "weights": rng.random(n) * 3,
    }


@pytest.mark.parametrize("weighted", [False, True])
def test_pooled_folds_equal_the_table_of_all_rows_bit_for_bit(weighted: bool) -> None:
    """The pooled Table is `Table.from_labels` of every row: same labels, same counts to
    the last bit (weights summed in the same exact way)."""
    r = _rows(0)
    w = r["weights"] if weighted else None
    folds = Folds.from_labels(
        folds=r["fold"], actual=r["actual"], predicted=r["predicted"], weights=w
    )
    whole = Table.from_labels(r["actual"], r["predicted"], weights=w)
    assert folds.pooled == whole
    assert folds.pooled.counts.tobytes() == whole.counts.tobytes()
    assert folds.pooled.to_json() == whole.to_json()


def test_each_fold_is_the_table_and_ranking_of_its_rows() -> None:
    """fold k's Table is `Table.from_labels` of the rows of fold k; its AUC is
    scikit-learn's on those rows; its measures are `evaluate`'s of that Table."""
    r = _rows(1)
    folds = Folds.from_labels(
        folds=r["fold"],
        actual=r["actual"],
        predicted=r["predicted"],
        scores=r["scores"],
        positive="dog",
    )
    assert folds.keys == ((1,), (2,), (3,), (4,), (5,))
    informedness = folds.values("informedness")
    markedness = folds.values("markedness", positive="dog")
    auc = folds.values("auc")
    for s, k in enumerate(range(1, 6)):
        mask = r["fold"] == k
        table = Table.from_labels(r["actual"][mask], r["predicted"][mask])
        assert folds.table(k) == table
        assert informedness[s] == evaluate(table).measures["informedness"]
        assert markedness[s] == evaluate(table, positive="dog").measures["markedness"]
        expected = roc_auc_score(r["actual"][mask] == "dog", r["scores"][mask])
        assert auc[s] == pytest.approx(expected, abs=1e-12)


def test_summary_mean_and_spread_across_folds() -> None:
    """`measure` gives each fold's value, the pooled Table's value, and numpy's mean and
    sample standard deviation (ddof=1) of the fold values."""
    r = _rows(2)
    folds = Folds.from_labels(folds=r["fold"], actual=r["actual"], predicted=r["predicted"])
    per_fold = [
        evaluate(
            Table.from_labels(r["actual"][r["fold"] == k], r["predicted"][r["fold"] == k])
        ).measures["correlation"]
        for k in range(1, 6)
    ]
    summary = folds.measure("correlation")
    assert summary.values.tolist() == per_fold
    assert (
        summary.pooled
        == evaluate(Table.from_labels(r["actual"], r["predicted"])).measures["correlation"]
    )
    assert summary.mean == pytest.approx(np.mean(per_fold), abs=1e-15)
    assert summary.std == pytest.approx(np.std(per_fold, ddof=1), abs=1e-15)
    assert summary.to_dict()["folds"]["3"] == per_fold[2]


def test_repeated_folds_are_keyed_by_repeat_and_fold_and_train_on_their_repeat() -> None:
    """Repeated k-fold: keys (repeat, fold); a fold's default training size is the rest of
    its repeat's rows; the pooled Table counts each case once per repeat."""
    r = _rows(3, n=60, k=3)
    rng = np.random.default_rng(3)
    second = rng.permutation(60) % 3 + 1
    folds = Folds.from_labels(
        folds=np.concatenate([r["fold"], second]),
        repeats=np.repeat([1, 2], 60),
        actual=np.tile(r["actual"], 2),
        predicted=np.tile(r["predicted"], 2),
    )
    assert folds.keys == ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3))
    assert folds.names[4] == "repeat=2, fold=2"
    assert folds.test.tolist() == [20.0] * 6
    assert folds.train.tolist() == [40.0] * 6
    once = Table.from_labels(r["actual"], r["predicted"])
    assert folds.pooled == once + once


def test_folds_merge_and_round_trip_json() -> None:
    """Folds counted from two halves of the rows and merged are the Folds of all rows;
    JSON restores them exactly, given training sizes included."""
    r = _rows(4)

    def part(sl: slice) -> Folds:
        return Folds.from_labels(
            folds=r["fold"][sl],
            actual=r["actual"][sl],
            predicted=r["predicted"][sl],
            scores=r["scores"][sl],
            positive="dog",
            train=[240] * 5,
        )

    whole = part(slice(None))
    assert part(slice(0, 130)) + part(slice(130, None)) == whole
    assert Folds.from_json(whole.to_json()) == whole
    assert Folds.from_json(whole.to_json()).train.tolist() == [240.0] * 5


def test_folds_refuse_rows_without_a_fold_and_wrong_training_sizes() -> None:
    """A row without a fold, training sizes of the wrong length, a ranking measure
    without scores, an unknown measure: one-line InputErrors."""
    # the row named, as the command line names it (the slice 'missing' named none)
    with pytest.raises(InputError, match=r"`folds` has a missing value \(None\) at row 2 "):
        Folds.from_labels(folds=[1, None, 2], actual=[1, 0, 1], predicted=[1, 0, 0])
    with pytest.raises(InputError, match=r"`repeats` has a missing value \(nan\) at row 3 "):
        Folds.from_labels(
            folds=[1, 2, 1], repeats=np.array([1.0, 1.0, np.nan]), actual=[1, 0, 1],
            predicted=[1, 0, 0],
        )  # fmt: skip
    with pytest.raises(InputError, match="one size per fold"):
        Folds.from_labels(folds=[1, 2, 2], actual=[1, 0, 1], predicted=[1, 0, 0], train=[2])
    folds = Folds.from_labels(folds=[1, 2, 2, 1], actual=[1, 0, 1, 0], predicted=[1, 0, 0, 0])
    with pytest.raises(InputError, match="no scores"):
        folds.values("auc")
    with pytest.raises(InputError, match="unknown measure 'bogus'"):
        folds.measure("bogus")


def test_an_undefined_fold_makes_the_mean_nan_not_zero() -> None:
    """A fold with no real negatives has undefined informedness: nan, and so its mean."""
    folds = Folds.from_labels(folds=[1, 1, 2, 2], actual=[1, 0, 1, 1], predicted=[1, 0, 1, 0])
    summary = folds.measure("informedness")
    assert math.isnan(summary.values[1])
    assert math.isnan(summary.mean)
    assert summary.pooled == evaluate([1, 0, 1, 1], [1, 0, 1, 0]).measures["informedness"]
