"""Every place that takes a measure's name takes any of its names (issue 27, item 18).

The registry lists each measure's title and aliases ("tpr", "Youden's J", "F1"); a call
or a result keyed by measure names finds the measure by any of them, in any case, and an
unknown name is one `InputError` (also a `KeyError`, as a mapping's missing key is) that
names the close names. Bad input of every other kind is an `InputError` too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from informed import MEASURES, Ranking, Slices, Table, Tally, evaluate
from informed.errors import InputError, UnknownMeasureError
from informed.inference import (
    bootstrap,
    bootstrap_ranking,
    bootstrap_slices,
    compare,
    permutation_test,
    proportion_interval,
    tally_intervals,
    threshold_interval,
)
from informed.measures import ByMeasure, measure_name
from informed.ranking import RANKING_MEASURES, summarize_ranking, undefined_reason
from informed.slices.evaluation import evaluate_slices
from informed.table import average

ACTUAL = [1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0]
PREDICTED = [1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0]
SCORES = [0.9, 0.8, 0.3, 0.2, 0.7, 0.1, 0.6, 0.35, 0.4, 0.95, 0.5, 0.05]


def _spelled(name: str) -> str:
    """A name as a reader may type it: letters and digits, in any case."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def _every_name() -> list[tuple[str, str]]:
    """(a name of a measure as the registry writes it, the registry name), for every
    name, title and alias of every contingency measure."""
    return [
        (written, name)
        for name, measure in MEASURES.items()
        for written in (name, measure.title, *measure.aliases)
    ]


def test_no_name_names_two_measures() -> None:
    """Every spelling of a name, title or alias (contingency and ranking measures)
    belongs to one measure, so a name is never ambiguous."""
    owners: dict[str, set[str]] = {}
    for written, name in _every_name():
        owners.setdefault(_spelled(written), set()).add(name)
    for name, entry in RANKING_MEASURES.items():
        for written in (name, entry.title):
            owners.setdefault(_spelled(written), set()).add(name)
    assert {k: v for k, v in owners.items() if len(v) > 1} == {}


@pytest.mark.parametrize(("written", "name"), _every_name())
def test_an_evaluation_finds_a_measure_by_any_name(written: str, name: str) -> None:
    """measures, reasons and the per-label values take a title or an alias, as written,
    upper-cased or lower-cased."""
    result = evaluate(ACTUAL, PREDICTED)
    for asked in (written, written.upper(), written.lower()):
        assert measure_name(asked) == name
        assert asked in result.measures
        assert result.measures[asked] == result.measures[name] or (
            math.isnan(result.measures[asked]) and math.isnan(result.measures[name])
        )
        assert result.measures.get(asked) is result.measures[name]
        np.testing.assert_array_equal(result.per_label.column(asked), result.per_label.column(name))
        np.testing.assert_array_equal(result.per_label[1][asked], result.per_label[1][name])


def test_the_issues_names_give_the_values_of_their_formulas() -> None:
    """measures["tpr"], ["youden"], ["f1"] of the positive label's view are tp / (tp + fn),
    tp / (tp + fn) - fp / (fp + tn) and 2 tp / (2 tp + fp + fn), counted here."""
    pairs = list(zip(ACTUAL, PREDICTED, strict=True))
    tp = pairs.count((1, 1))
    fn = pairs.count((1, 0))
    fp = pairs.count((0, 1))
    tn = pairs.count((0, 0))
    tpr = Fraction(tp, tp + fn)
    result = evaluate(ACTUAL, PREDICTED, positive=1).measures
    assert result["tpr"] == pytest.approx(float(tpr), abs=1e-15)
    assert result["youden"] == pytest.approx(float(tpr - Fraction(fp, fp + tn)), abs=1e-15)
    assert result["f1"] == pytest.approx(float(Fraction(2 * tp, 2 * tp + fp + fn)), abs=1e-15)


def test_an_unknown_name_is_one_input_error_that_is_a_key_error() -> None:
    """An unknown name: an InputError and a KeyError, one line naming the close name;
    `in` says no and `get` gives the default, as for any mapping."""
    measures = evaluate(ACTUAL, PREDICTED).measures
    for lookup in (lambda: measures["tprr"], lambda: measure_name("tprr")):
        with pytest.raises(UnknownMeasureError) as caught:
            lookup()
        assert isinstance(caught.value, InputError) and isinstance(caught.value, KeyError)
        message = str(caught.value)
        assert "\n" not in message and "'tpr' (recall)" in message, message
    assert "tprr" not in measures and 3 not in measures
    assert measures.get("tprr", -1.0) == -1.0
    held = ByMeasure({"recall": 0.5})
    with pytest.raises(
        KeyError, match=r"measure 'ppv' \(precision\) must be one of \['recall'\] here"
    ):
        held["ppv"]


def _tally() -> Tally:
    tally = Tally(["sport", "politics", "weather"])
    for assigned, correct in (
        (["sport"], ["sport"]),
        (["politics"], ["sport", "politics"]),
        ([], ["weather"]),
        (["weather", "sport"], ["weather"]),
        (["politics"], ["politics"]),
        (["sport"], []),
    ):
        tally.add_result(assigned, correct)
    return tally


def _slices() -> Slices:
    by = ["m", "w"] * 6
    return Slices.from_labels(by=by, actual=ACTUAL, predicted=PREDICTED)


def _ranking() -> Ranking:
    return Ranking.from_scores(actual=ACTUAL, scores=SCORES, positive=1)


# Each call that takes a measure's name, with the name given; the value it returns.
CALLS: dict[str, Callable[[str], Any]] = {
    "average": lambda m: average(Table.from_labels(ACTUAL, PREDICTED), m, "bias"),
    "bootstrap": lambda m: bootstrap(
        Table.from_labels(ACTUAL, PREDICTED), [m], seed=0, replicates=50
    ).intervals[m],
    "Bootstrap.confidence_interval": lambda m: bootstrap(
        Table.from_labels(ACTUAL, PREDICTED), seed=0, replicates=50
    ).confidence_interval(m, level=0.8),
    "permutation_test": lambda m: (
        permutation_test(Table.from_labels(ACTUAL, PREDICTED), m, permutations=50, seed=0).pvalue
    ),
    "Tally.micro": lambda m: _tally().micro(m),
    "Tally.macro": lambda m: _tally().macro(m),
    "Tally.per_category": lambda m: _tally().per_category(m),
    "tally_intervals": lambda m: tally_intervals(_tally(), [m], replicates=50, seed=0).micro[m],
    "evaluate_slices": lambda m: evaluate_slices(_slices()).values[m].tolist(),
    "bootstrap_slices": lambda m: bootstrap_slices(_slices(), [m], replicates=50, seed=0).intervals[
        m
    ],
    "compare": lambda m: (
        compare(
            ACTUAL,
            {"a": PREDICTED, "b": PREDICTED[::-1]},
            measures=[m],
            replicates=50,
            permutations=50,
            seed=0,
        )
        .models["a"]
        .measures[m]
    ),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize(("alias", "name"), [("tpr", "recall"), ("F1", "f_measure")])
def test_every_call_taking_a_measure_takes_its_aliases(call: str, alias: str, name: str) -> None:
    """Each call gives for an alias what it gives for the registry name."""
    assert repr(CALLS[call](alias)) == repr(CALLS[call](name))


@pytest.mark.parametrize(
    "call",
    [
        lambda m: _ranking().best_threshold(m),
        lambda m: threshold_interval(_ranking(), m, replicates=50, seed=0),
    ],
    ids=["Ranking.best_threshold", "threshold_interval"],
)
def test_threshold_criteria_take_their_aliases(call: Callable[[str], Any]) -> None:
    """The best threshold for "Youden's J" is the best for informedness."""
    assert repr(call("Youden's J")) == repr(call("informedness"))
    with pytest.raises(InputError, match="must be one of"):
        call("recall")  # a measure, but no criterion of a threshold


def test_a_proportion_takes_its_aliases() -> None:
    table = Table.from_labels(ACTUAL, PREDICTED)
    assert proportion_interval(table, "TPR", positive=1) == proportion_interval(
        table, "recall", positive=1
    )


def test_ranking_measures_take_their_names() -> None:
    """The ranking measures' results and reasons take titles and scikit-learn's names."""
    ranking = _ranking()
    summary = summarize_ranking(ranking)
    assert summary.values["AUROC"] == summary.values["auc"]
    intervals = bootstrap_ranking(ranking, replicates=50, seed=0).intervals
    assert intervals["roc_auc"] is intervals["auc"]
    empty = Ranking.from_scores(actual=[0, 0], scores=[0.2, 0.1], positive=1, negative=0)
    assert undefined_reason(empty, "ROC AUC") == undefined_reason(empty, "auc")


def test_the_command_line_optimises_any_name(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`informed evaluate --optimise youden` is `--optimise informedness`."""
    from informed.cli import main

    data = tmp_path / "data.csv"
    rows = "".join(f"{y},{s}\n" for y, s in zip(ACTUAL, SCORES, strict=True))
    data.write_text("y,s\n" + rows)
    outputs = []
    for name in ("informedness", "youden", "Youden's J"):
        args = ["evaluate", str(data), "--actual", "y", "--score", "s", "--positive", "1"]
        assert main([*args, "--threshold", "best", "--optimise", name, "--format", "json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    with pytest.raises(SystemExit):
        main([*args, "--threshold", "best", "--optimise", "recall"])
    assert "invalid choice: 'recall'" in capsys.readouterr().err


def test_a_positive_label_not_in_the_table_is_an_input_error() -> None:
    """evaluate(y, p, positive=2) is refused as every bad input is: an InputError (a
    ValueError, as before), one line naming the labels."""
    with pytest.raises(InputError) as caught:
        evaluate(ACTUAL, PREDICTED, positive=2)
    assert isinstance(caught.value, ValueError)
    assert (
        str(caught.value) == "positive=2 is not a label of the table; it should be one of [0, 1]."
    )
    with pytest.raises(InputError, match="not a label of the slices"):
        evaluate_slices(_slices(), positive=2)
    with pytest.raises(InputError, match="`how` must be one of"):
        average(Table.from_labels(ACTUAL, PREDICTED), "recall", "median")
