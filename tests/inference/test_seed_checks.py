"""Every public function that takes `seed` refuses a bad one in one line naming `seed` and
the value (`informed.inference.checks.check_seed`), not with numpy's own ValueError or
TypeError, and not by reading True as the seed 1. The functions are found by walking the
public API, so a new one without a case here fails `test_every_seeded_function_is_covered`.
The command line's --seed is refused by argparse, naming the option and the value."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import informed
from informed import Ranking, Table
from informed.cli import main
from informed.errors import InputError, InputTypeError

BAD_SEEDS = [-1, "a", 1.5, True, np.float64(2.0), [-3]]


def _seeded() -> set[str]:
    """module.qualname of every function or method in a public module's `__all__` that
    takes a `seed` (the checker itself aside)."""
    found: set[str] = set()
    modules = [informed] + [
        importlib.import_module(m.name)
        for m in pkgutil.walk_packages(informed.__path__, "informed.")
        if not any(part.startswith("_") for part in m.name.split(".")[1:])
    ]
    for module in modules:
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            members = [value]
            if inspect.isclass(value):
                members = [
                    v.__func__ if isinstance(v, classmethod | staticmethod) else v
                    for k, v in vars(value).items()
                    if not k.startswith("_") or k == "__init__"
                ]
            for f in members:
                if inspect.isfunction(f) and "seed" in inspect.signature(f).parameters:
                    found.add(f"{f.__module__}.{f.__qualname__}")
    found.discard("informed.inference.checks.check_seed")
    return found


def _rows() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    group = np.repeat(["a", "b"], 40)
    actual = rng.integers(0, 2, 80)
    scores = np.clip(0.3 * actual + rng.random(80) * 0.7, 0.0, 1.0)
    return group, actual, (scores > 0.5).astype(int), scores


def _ranking() -> Ranking:
    _, actual, _, scores = _rows()
    return Ranking.from_scores(actual, scores, positive=1)


def _table() -> Table:
    return Table.binary(tp=21, fp=14, fn=9, tn=56)


def _slices() -> Any:
    from informed.slices import Slices

    group, actual, predicted, scores = _rows()
    return Slices.from_labels(
        by=group, actual=actual, predicted=predicted, scores=scores, positive=1
    )


def _joint_outcomes() -> Any:
    from informed.comparison.joint import joint_outcomes

    _, actual, predicted, _ = _rows()
    return joint_outcomes(actual, {"a": predicted, "b": 1 - predicted}, None)


def _joint_scores() -> Any:
    from informed.comparison.paired import joint_scores

    _, actual, _, scores = _rows()
    rankings = {
        "a": Ranking.from_scores(actual, scores, positive=1),
        "b": Ranking.from_scores(actual, scores[::-1], positive=1),
    }
    return joint_scores(actual == 1, rankings, {"a": scores, "b": scores[::-1]}, None)


def _tally() -> Any:
    from informed.tally import Tally

    tally = Tally(["x", "y"])
    tally.add_result(["x"], ["x", "y"])
    tally.add_result(["y"], ["y"])
    return tally


def _folds() -> Any:
    from informed.slices import Folds

    _, actual, predicted, _ = _rows()
    return Folds.from_labels(folds=np.arange(80) % 4, actual=actual, predicted=predicted)


def _nested_cv(seed: Any) -> Any:
    from sklearn.dummy import DummyClassifier

    from informed.sklearn import nested_cv

    _, actual, _, scores = _rows()
    return nested_cv(
        DummyClassifier(),
        scores[:, None],
        actual,
        folds=3,
        repetitions=2,
        seed=seed,
        progress=False,
    )


def _slice_evaluation() -> Any:
    from informed.slices.evaluation import evaluate_slices

    return evaluate_slices(_slices(), positive=1)


def _calls() -> dict[str, Callable[[Any], Any]]:
    """Each seeded function called with good arguments and the seed under test."""
    from informed.comparison import compare, net_benefit_difference, paired_permutation
    from informed.comparison.net_benefit import paired_net_benefit
    from informed.inference import (
        auc_spread,
        bootstrap,
        bootstrap_ranking,
        bootstrap_slices,
        calibration_bands,
        decision_curve_bands,
        disparities,
        intervals_report,
        permutation_test,
        slice_calibration,
        tally_intervals,
        threshold_interval,
    )
    from informed.inference.fold_intervals import fold_intervals
    from informed.inference.slice_bootstrap import replicate_values, slice_replicates
    from informed.plots import plot_decision_curve, plot_reliability, plot_tally
    from informed.report.calibration import calibration_report

    _, actual, predicted, scores = _rows()
    few = {"replicates": 20}
    return {
        "informed.comparison.comparing.compare": lambda s: compare(
            actual, {"a": predicted, "b": 1 - predicted}, seed=s, permutations=9, **few
        ),
        "informed.comparison.net_benefit.net_benefit_difference": lambda s: net_benefit_difference(
            actual, {"a": scores, "b": 1 - scores}, positive=1, seed=s
        ),
        "informed.comparison.net_benefit.paired_net_benefit": lambda s: paired_net_benefit(
            _joint_scores(), "a", "b", seed=s, **few
        ),
        "informed.comparison.paired.paired_permutation": lambda s: paired_permutation(
            _joint_outcomes(), "a", "b", permutations=9, positive=1, seed=s
        ),
        "informed.inference.calibration_bands.calibration_bands": lambda s: calibration_bands(
            _ranking(), seed=s, **few
        ),
        "informed.inference.decision_bands.decision_curve_bands": lambda s: decision_curve_bands(
            _ranking(), seed=s, **few
        ),
        "informed.inference.disparities.disparities": lambda s: disparities(
            _slices(), positive=1, seed=s, **few
        ),
        "informed.inference.fold_intervals.fold_intervals": lambda s: fold_intervals(
            _folds(), ["informedness"], positive=1, seed=s, **few
        ),
        "informed.inference.permutation.permutation_test": lambda s: permutation_test(
            _table(), permutations=9, seed=s
        ),
        "informed.inference.ranking_bootstrap.bootstrap_ranking": lambda s: bootstrap_ranking(
            _ranking(), seed=s, **few
        ),
        "informed.inference.slice_auc.auc_spread": lambda s: auc_spread(_slices(), seed=s, **few),
        "informed.inference.slice_bootstrap.bootstrap_slices": lambda s: bootstrap_slices(
            _slices(), ["informedness"], positive=1, seed=s, **few
        ),
        "informed.inference.slice_bootstrap.replicate_values": lambda s: replicate_values(
            _slices(), ["informedness"], _slice_evaluation(), 20, s, 0.5, "propagate"
        ),
        "informed.inference.slice_bootstrap.slice_replicates": lambda s: slice_replicates(
            _slices(), 20, s
        ),
        "informed.inference.slice_calibration.slice_calibration": lambda s: slice_calibration(
            _slices(), seed=s, **few
        ),
        "informed.inference.table_bootstrap.bootstrap": lambda s: bootstrap(
            _table(), ["informedness"], positive="+", seed=s, **few
        ),
        "informed.inference.table_bootstrap.intervals_report": lambda s: intervals_report(
            _table(), 0.95, "+", s, **few
        ),
        "informed.inference.tally_intervals.tally_intervals": lambda s: tally_intervals(
            _tally(), seed=s, **few
        ),
        "informed.inference.threshold.threshold_interval": lambda s: threshold_interval(
            _ranking(), seed=s, **few
        ),
        "informed.integrations.sklearn.nested.nested_cv": _nested_cv,
        "informed.plots.calibration.plot_decision_curve": lambda s: plot_decision_curve(
            _ranking(), seed=s, **few
        ),
        "informed.plots.calibration.plot_reliability": lambda s: plot_reliability(
            _ranking(), seed=s, **few
        ),
        "informed.plots.tally.plot_tally": lambda s: plot_tally(_tally(), seed=s, **few),
        "informed.report.calibration.calibration_report": lambda s: calibration_report(
            _ranking(), level=0.9, seed=s, **few
        ),
    }


CALLS = _calls()


def test_every_seeded_function_is_covered() -> None:
    assert _seeded() == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_good_seed_or_generator_runs(name: str) -> None:
    """The calls are right: with a good seed each runs (a bad seed's error is the seed's)."""
    CALLS[name](0)
    CALLS[name](np.random.default_rng(0))


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize(
    "name",
    sorted(CALLS),
)
def test_a_bad_seed_is_refused_naming_seed_and_value(name: str, seed: Any) -> None:
    with pytest.raises((InputError, InputTypeError)) as raised:
        CALLS[name](seed)
    message = str(raised.value)
    assert "`seed`" in message and repr(seed) in message, message
    assert "\n" not in message


@pytest.mark.parametrize("command", ["evaluate", "compare", "tally", "merge"])
@pytest.mark.parametrize("seed", ["-1", "a", "1.5"])
def test_the_command_line_refuses_a_bad_seed(
    command: str, seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main([command, f"--seed={seed}"])
    assert raised.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith(
        f"error: argument --seed: the seed must be a non-negative integer, such as 0; got {seed!r}"
    ), err
