"""Disparities with their AUC differences and ranges over the slices of adequate size, in
every report: a tiny perfect slice left out of the ranges and named, the range over every
slice beside them; each slice's AUC difference in the terminal, JSON, CSV and page."""

from __future__ import annotations

import numpy as np
import pytest

from informed.inference.auc_differences import auc_differences
from informed.inference.disparities import disparities
from informed.slices import Slices
from informed.table import Table


def _scored(seed: int, n: int, groups: int) -> dict[str, np.ndarray]:
    """Scores rounded to few levels, separating the classes more in later groups."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, groups, n)
    actual = (rng.random(n) < 0.35).astype(int)
    scores = np.round((rng.normal(size=n) + (0.5 + 0.3 * group) * actual) * 3) / 3
    return {"group": group, "actual": actual, "scores": scores}


def test_disparities_hold_the_auc_differences_with_scores() -> None:
    """With scores, disparities carry each slice's AUC difference (Holm across slices);
    without, none."""
    data = _scored(5, 900, 4)
    predicted = (data["scores"] > 0.5).astype(int)
    s = Slices.from_labels(
        by=data["group"],
        actual=data["actual"],
        predicted=predicted,
        scores=data["scores"],
        positive=1,
    )
    d = disparities(s, positive=1, replicates=50, seed=0)
    alone = auc_differences(s, reference=int(np.argmax(s.n)))
    assert [x.estimate for x in d.vs_rest["auc"]] == [x.estimate for x in alone.vs_rest]
    np.testing.assert_array_equal(d.p_reference["auc"], alone.p_reference)  # nan: reference
    plain = Slices.from_labels(by=data["group"], actual=data["actual"], predicted=predicted)
    assert "auc" not in disparities(plain, positive=1, replicates=50, seed=0).vs_rest


def _with_tiny_perfect_slice() -> tuple[Slices, dict[int, float]]:
    """Four slices of 400 rows, informedness about 0.6, and a perfect slice of 3 rows."""
    rng = np.random.default_rng(8)
    group = np.repeat(["a", "b", "c", "d"], 400)
    actual = rng.integers(0, 2, 1600)
    predicted = np.where(rng.random(1600) < 0.8, actual, 1 - actual)
    by = np.concatenate([group, ["tiny"] * 3])
    truth = np.concatenate([actual, [1, 1, 0]])
    guess = np.concatenate([predicted, [1, 1, 0]])
    s = Slices.from_labels(by=by, actual=truth, predicted=guess)
    informedness = {}
    for i, (key,) in enumerate(s.keys):
        rows = by == key
        table = Table.from_labels(actual=truth[rows], predicted=guess[rows])
        view = table.one_vs_rest(1)
        informedness[i] = view.tp / (view.tp + view.fn) - view.fp / (view.fp + view.tn)
    return s, informedness


def test_a_tiny_perfect_slice_does_not_make_the_spread() -> None:
    """A perfect slice of 3 rows made the spread of informedness about 0.4 (1 - 0.6):
    the ranges are over the slices of adequate size, the tiny one named as left out with
    its counts, and the range over every slice kept beside them."""
    s, informedness = _with_tiny_perfect_slice()
    d = disparities(s, positive=1, replicates=200, seed=0)
    tiny = s.index("tiny")
    big = [v for i, v in informedness.items() if i != tiny]
    spread = d.summary["informedness_spread"]
    assert spread.estimate == pytest.approx(max(big) - min(big), abs=1e-12)
    assert spread.low <= spread.estimate <= spread.high
    every = d.summary_all["informedness_spread"]
    assert every.estimate == pytest.approx(1.0 - min(big), abs=1e-12)
    assert every.estimate > spread.estimate + 0.2
    assert d.left_out["informedness_spread"] == [(tiny, "2 real positives, 1 real negatives")]
    assert d.left_out["equalized_odds_difference"] == [(tiny, "2 real positives, 1 real negatives")]
    assert d.left_out["demographic_parity_difference"] == [(tiny, "3 cases")]
    assert d.summary["equalized_odds_difference"].estimate < every.estimate
    assert d.rules["informedness_spread"] == "of at least 30 real positives and 30 real negatives"


@pytest.mark.parametrize(
    ("arguments", "error", "words"),
    [
        ({"min_count": "x"}, "InputTypeError", "`min_count` must be a number >= 0; got 'x'"),
        ({"min_count": True}, "InputTypeError", "`min_count` must be a number"),
        ({"min_count": -1}, "InputError", "`min_count` must be a number >= 0; got -1"),
        ({"min_count": float("nan")}, "InputError", "`min_count` must be a number"),
        ({"seed": "a"}, "InputTypeError", "`seed` must be None, a non-negative integer"),
    ],
)
def test_bad_arguments_are_refused_in_one_line_naming_them(
    arguments: dict, error: str, words: str
) -> None:
    """min_count='x' failed with numpy's UFuncNoLoopError, naming no argument."""
    from informed import errors

    s, _ = _with_tiny_perfect_slice()
    with pytest.raises(getattr(errors, error), match=words) as raised:
        disparities(s, positive=1, replicates=20, **{"seed": 0, **arguments})
    assert "\n" not in str(raised.value)


def test_the_reports_say_which_slices_the_ranges_leave_out() -> None:
    """Terminal, JSON and HTML say the rule, the slice left out and its counts, and the
    range over every slice."""
    from informed.inference import bootstrap_slices
    from informed.report.html.page import slices_report
    from informed.report.slices import slices_document, slices_text

    s, _ = _with_tiny_perfect_slice()
    d = disparities(s, positive=1, replicates=200, seed=0)
    result = bootstrap_slices(s, ["informedness", "markedness"], positive=1, seed=0)
    text = slices_text(result, d, "x.csv")
    assert (
        "left out as too small: 'tiny' (2 real positives, 1 real negatives); over every "
        "slice: " in text
    )
    assert "over the slices of at least 30 real positives and 30 real negatives" in text
    document = slices_document(result, d, "x.csv")["disparities"]["informedness_spread"]
    assert document["left_out"] == [
        {"key": ["tiny"], "name": "tiny", "reason": "2 real positives, 1 real negatives"}
    ]
    assert document["over"] == "slices of at least 30 real positives and 30 real negatives"
    assert document["every_slice"]["estimate"] == d.summary_all["informedness_spread"].estimate
    assert document["estimate"] == d.summary["informedness_spread"].estimate
    page = slices_report(result, d, overall=0.6, source="x.csv")
    assert "left out as too small: &#x27;tiny&#x27; (2 real positives, 1 real negatives)" in page


def test_a_slice_too_small_for_one_label_is_left_out_of_its_multiclass_range() -> None:
    """More classes: a slice with 5 cases of label 'c' is left out of the equalized-odds
    range, the label named; its pP still counts (it has 300 cases)."""
    rng = np.random.default_rng(9)
    actual = np.concatenate(
        [rng.choice(["a", "b", "c"], 600), rng.choice(["a", "b"], 295), ["c"] * 5]
    )
    predicted = np.where(rng.random(900) < 0.7, actual, rng.choice(["a", "b", "c"], 900))
    by = np.repeat(["x", "y", "z"], 300)
    s = Slices.from_labels(by=by, actual=actual, predicted=predicted)
    d = disparities(s, replicates=50, seed=0)
    assert d.left_out["equalized_odds_difference"] == [(2, "'c': 5 real cases")]
    assert d.left_out["demographic_parity_difference"] == []
    assert d.left_out["informedness_spread"] == []


def test_every_report_shows_each_slices_auc_difference() -> None:
    """Terminal (a column of the differences table and the method), JSON (vs the rest and
    the reference, with p, standard error and method), CSV (the same numbers) and the
    page (a column, the method) show the AUC differences of `disparities`."""
    import csv
    import io

    from informed.inference import bootstrap_slices
    from informed.report.html.page import slices_report
    from informed.report.slice_disparities import AUC_NOTE
    from informed.report.slices import slices_document, slices_text
    from informed.report.slices_csv import slices_csv

    data = _scored(6, 1200, 4)
    predicted = (data["scores"] > 0.5).astype(int)
    s = Slices.from_labels(
        by=data["group"],
        actual=data["actual"],
        predicted=predicted,
        scores=data["scores"],
        positive=1,
    )
    d = disparities(s, positive=1, replicates=50, seed=0)
    result = bootstrap_slices(s, ["informedness", "markedness"], positive=1, seed=0, replicates=50)
    document = slices_document(result, d, "x.csv")
    assert document["auc_differences"] == AUC_NOTE
    table = list(csv.DictReader(io.StringIO(slices_csv(result, d))))
    text = slices_text(result, d, "x.csv")
    lines = text.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("slice") and "d informedness" in x)
    assert "d AUC" in lines[head] and AUC_NOTE in text
    reference = s.index(d.reference)
    for k, (entry, row) in enumerate(zip(document["slices"], table, strict=True)):
        rest = entry["vs_rest"]["auc"]
        assert rest["estimate"] == d.vs_rest["auc"][k].estimate
        assert rest["interval"] == [d.vs_rest["auc"][k].low, d.vs_rest["auc"][k].high]
        assert rest["p_holm"] == d.p_rest["auc"][k]
        assert rest["method"] == "delong-independent"
        assert float(row["d_auc_vs_rest"]) == rest["estimate"]
        assert float(row["d_auc_vs_rest_high"]) == rest["interval"][1]
        assert float(row["p_holm_auc_vs_rest"]) == rest["p_holm"]
        versus = entry["vs_reference"]["auc"]
        if k == reference:
            assert versus["reason"] == "the reference slice itself"
            assert row["d_auc_vs_reference"] == ""
        else:
            assert float(row["d_auc_vs_reference"]) == versus["estimate"]
        line = next(x for x in lines[head:] if x.startswith(f"{entry['name']} "))
        assert f"{rest['estimate']:+.3f}"[-5:] in line
    page = slices_report(result, d, overall=0.5, source="x.csv")
    assert "AUC minus the rest, p (Holm)" in page and "independent samples" in page
