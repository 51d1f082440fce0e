"""Compare classifiers on the same cases: is model b really better than model a?

`compare` measures each model, ranks them by informedness (AUC for scores alone) and
compares every model with the best one, pairing the cases:

* the difference of each measure, with a **paired bootstrap** interval: each replicate
  resamples the cases once for all models, as a multinomial draw over the joint table
  of their outcomes (`informed.comparison.joint`), O(B x cells) rather than O(B x n);
* McNemar's exact test for accuracy, a paired permutation test for informedness and,
  for scores, DeLong's paired test for AUC, each adjusted for the number of models
  compared (Holm) when there are more than two.

References
----------
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Biometrics 44(3):837-845.
Holm, S. (1979). Scand. J. Statist. 6(2):65-70.
McNemar, Q. (1947). Psychometrika 12(2):153-157.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import check_choice, readonly
from informed.coding.labels import Label, as_label, as_vector
from informed.comparison.joint import JointCells, JointOutcomes, draw_cells, joint_outcomes
from informed.comparison.net_benefit import NetBenefitDifference, paired_net_benefit
from informed.comparison.paired import (
    joint_scores,
    paired_mcnemar,
    paired_permutation,
    paired_replicates,
    positive_index,
    positive_rows,
    ranking_replicates,
)
from informed.comparison.result import Comparison, ModelResult
from informed.errors import InputError, InputTypeError
from informed.inference.checks import check_count, check_level, check_seed
from informed.inference.delong import delong_test
from informed.inference.interval import Interval, nan_interval
from informed.inference.ranking_bootstrap import RANKING_SUMMARIES
from informed.inference.replicates import replicate_interval
from informed.inference.significance import Significance, holm
from informed.inference.threshold import cut_scores
from informed.measures import MEASURES, measure_names
from informed.ranking import ANY_MEASURE_NAMES, Ranking
from informed.ranking import undefined_reason as ranking_reason
from informed.ranking.calibration_summary import is_probability_ranking
from informed.ranking.operating import OperatingPoint
from informed.table.counting import check_weights
from informed.table.evaluation import evaluate

__all__ = ["RANKING_COMPARED", "TABLE_COMPARED", "compare"]

Floats = NDArray[np.float64]

TABLE_COMPARED = (
    "informedness",
    "markedness",
    "correlation",
    "matthews_correlation",
    "accuracy",
    "f_measure",
)
"""The table measures `compare` reports by default."""
RANKING_COMPARED = ("auc", "pem", "average_qrecall")
"""The ranking measures `compare` reports by default for scores."""


def compare(
    actual: Any,
    predicted: Mapping[str, Any] | None = None,
    *,
    scores: Mapping[str, Any] | None = None,
    positive: Any = None,
    threshold: float | Literal["best"] | Mapping[str, float] | None = None,
    threshold_measure: str = "informedness",
    weights: Any = None,
    measures: Sequence[str] | None = None,
    level: float = 0.95,
    replicates: int = 1000,
    permutations: int = 9999,
    correction: Literal["holm", "none"] = "holm",
    alpha: float = 0.5,
    seed: int | np.random.Generator | None = None,
) -> Comparison:
    r"""Compare classifiers scored on the same cases, with paired intervals and tests.

    Parameters
    ----------
    actual : array-like of shape (n,)
        The actual class of each case.
    predicted : dict, optional
        Model name -> predicted labels (n,). Two models or more, unless `scores` has them.
    scores : dict, optional
        Model name -> scores (n,), higher = more likely `positive`. With `predicted` too,
        the names must be the same: a model has both a prediction and a score.
    positive : label, optional
        The positive class: table measures are those of its one-vs-rest view (as
        `informed.evaluate(..., positive=)`), and scores rank it. Needed with `scores`.
    threshold : float, "best" or dict, optional
        Turn each model's scores into predictions, `positive` for a score >= threshold
        (two classes only): a number for every model, a dict per model, or "best" for
        each model's `Ranking.best_threshold(threshold_measure)`.
    threshold_measure : str
        What "best" optimises (see `Ranking.best_threshold`).
    weights : array-like of shape (n,), optional
        Frequency weights (non-negative).
    measures : sequence of str, optional
        Table measures of the registry and ranking measures ("auc", "pem",
        "average_hit_rate", "average_qrecall"), by any of their names ("tpr", "F1",
        "AUROC"); default `TABLE_COMPARED` for tables and `RANKING_COMPARED` for scores.
    level : float
        Coverage of the bootstrap intervals.
    replicates : int
        Paired bootstrap replicates B.
    permutations : int
        Permutations of the paired permutation test.
    correction : {"holm", "none"}
        Multiple-comparison adjustment of each test's p-values across the models.
    alpha : float
        Weight of the F-measure.
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    Comparison

    Notes
    -----
    **Cost.** The rows are read once into the joint table of the models' outcomes: at
    most L^(m+1) cells for L labels and m models (16 for two classes and three models),
    never more than n. Each paired bootstrap replicate is then a multinomial draw over
    those cells, O(B x cells) in all. Ranking measures need the scores: their joint
    cells are the distinct tuples (actual class, tie group of each model's score), about
    n for continuous scores, so their bootstrap costs O(B x (cells + groups)) and one
    Ranking per replicate and model; rounded scores make it cheaper.

    **Net benefit.** When every model's scores are probabilities (in [0, 1]),
    `Comparison.net_benefit` holds each model's difference in net benefit from the
    reference at every threshold probability, with a band from paired bootstrap
    replicates of their own (`informed.comparison.net_benefit`: B x (cells + distinct
    scores)), and the exact ranges where it beats the reference; otherwise
    `Comparison.net_benefit_reason` says why there is none.

    **Which measures are paired.** Every difference is computed within a replicate, so
    the correlation of the models (the same easy and hard cases) narrows the interval of
    their difference, as it should.

    Examples
    --------
    >>> actual = [1, 1, 1, 1, 0, 0, 0, 0] * 25
    >>> result = compare(actual, {"a": [1, 1, 1, 0, 0, 0, 0, 1] * 25,
    ...                           "b": [1, 1, 0, 0, 0, 0, 1, 1] * 25},
    ...                  positive=1, replicates=200, permutations=199, seed=0)
    >>> result.reference, result.models["a"].measures["informedness"]
    ('a', 0.5)
    >>> round(result.differences["b"]["informedness"].estimate, 12)
    -0.5
    """
    if predicted is None and scores is None:
        msg = "compare needs `predicted` (model -> labels), `scores` (model -> scores) or both."
        raise InputError(msg)
    for name, given in (("predicted", predicted), ("scores", scores)):
        if given is not None and not isinstance(given, Mapping):
            msg = (
                f"`{name}` must be a dict of model name -> column, such as "
                f'{{"a": {name}_a, "b": {name}_b}}; got {type(given).__name__}.'
            )
            raise InputTypeError(msg)
    if predicted is not None and scores is not None and list(predicted) != list(scores):
        msg = (
            "`predicted` and `scores` must name the same models in the same order; got "
            f"{list(predicted)} and {list(scores)}."
        )
        raise InputError(msg)
    if threshold is not None and (scores is None or predicted is not None):
        msg = "`threshold` turns `scores` into predictions: pass scores and no `predicted`."
        raise InputError(msg)
    names = list(predicted if predicted is not None else scores or {})
    if len(names) < 2:
        msg = f"compare needs at least two models; got {names}."
        raise InputError(msg)
    level = check_level(level)
    replicates = check_count(replicates, "replicates", 2)
    rng = check_seed(seed)
    permutations = check_count(permutations, "permutations", 1)
    correction = check_choice(correction, ("holm", "none"), "correction")
    actual_array = as_vector(actual, "actual")
    if actual_array.shape[0] == 0:
        msg = "`actual` is empty: there are no cases to compare on."
        raise InputError(msg)
    weight_array = check_weights(weights, actual_array.shape[0])
    positive_label = None if positive is None else as_label(positive)

    rankings: dict[str, Ranking] = {}
    points: dict[str, OperatingPoint] = {}
    is_positive: NDArray[np.bool_] | None = None
    if scores is not None:
        if positive_label is None:
            msg = "`scores` need `positive`: which class do high scores point to?"
            raise InputError(msg)
        is_positive = positive_rows(actual_array, positive_label)
        for name in names:
            rankings[name] = Ranking.from_scores(
                actual=is_positive,
                scores=scores[name],
                positive=True,
                negative=False,
                weights=weight_array,
            )
        if threshold is not None:
            predicted, points = cut_scores(
                actual_array, positive_label, scores, rankings, threshold, threshold_measure, alpha
            )
    table_names, ranking_names = _measure_names(measures, predicted is not None, bool(rankings))
    joint = None if predicted is None else joint_outcomes(actual_array, predicted, weight_array)
    if joint is not None and positive_label is not None:
        positive_index(joint.labels, positive_label)  # an InputError naming the labels

    estimates: dict[str, dict[str, float]] = {name: {} for name in names}
    reasons: dict[str, dict[str, str]] = {name: {} for name in names}
    if joint is not None:
        for name in names:
            evaluation = evaluate(joint.table(name), positive=positive_label, alpha=alpha)
            for m in table_names:
                estimates[name][m] = evaluation.measures[m]
                if m in evaluation.reasons:
                    reasons[name][m] = evaluation.reasons[m]
    for name, ranking in rankings.items():
        for m in ranking_names:
            with np.errstate(divide="ignore", invalid="ignore"):
                estimates[name][m] = float(RANKING_SUMMARIES[m](ranking))
            why = ranking_reason(ranking, m)
            if why is not None and math.isnan(estimates[name][m]):
                reasons[name][m] = why
    sort_by = "informedness" if "informedness" in table_names else (table_names + ranking_names)[0]
    order = sorted(names, key=lambda x: _sort_key(estimates[x][sort_by], names.index(x)))
    reference = order[0]

    distribution: dict[str, dict[str, Floats]] = {name: {} for name in names}
    if joint is not None and table_names:
        cells = joint.cells

        def tables(draws: Floats) -> dict[str, dict[str, Floats]]:
            assert joint is not None
            return paired_replicates(joint, draws, table_names, positive_label, alpha, "propagate")

        _replicate(rng, cells, replicates, tables, distribution)
    if rankings and ranking_names:
        assert is_positive is not None
        ranked = joint_scores(is_positive, rankings, scores or {}, weight_array)

        def summaries(draws: Floats) -> dict[str, dict[str, Floats]]:
            return ranking_replicates(ranked, draws, ranking_names)

        _replicate(rng, ranked.cells, replicates, summaries, distribution)
    for by_measure in distribution.values():
        for array in by_measure.values():
            readonly(array)

    compared = (*table_names, *ranking_names)
    differences = {
        name: {
            m: _difference(estimates, distribution, reasons, name, reference, m, level)
            for m in compared
        }
        for name in order[1:]
    }
    tests = _tests(
        joint,
        rankings,
        is_positive,
        scores,
        weight_array,
        order,
        positive_label,
        permutations,
        alpha,
        rng,
        level,
    )
    adjusted = _adjust(tests, correction)
    net_benefit, why_not = _net_benefit(
        rankings, is_positive, scores, weight_array, order, replicates, level, rng
    )
    models = {
        name: ModelResult(
            name=name,
            rank=rank,
            measures=estimates[name],
            intervals={
                m: _interval(estimates[name][m], distribution[name][m], level, reasons[name].get(m))
                for m in compared
            },
            reasons=reasons[name],
            table=None if joint is None else joint.table(name),
            ranking=rankings.get(name),
            threshold=points.get(name),
        )
        for rank, name in enumerate(order, start=1)
    }
    n = float(weight_array.sum()) if weight_array is not None else float(actual_array.shape[0])
    return Comparison(
        models=models,
        reference=reference,
        sort_by=sort_by,
        measures=compared,
        differences=differences,
        tests=tests,
        adjusted=adjusted,
        correction=correction,
        level=level,
        replicates=replicates,
        permutations=permutations,
        positive=positive_label,
        n=n,
        weighted=weight_array is not None,
        distribution=distribution,
        net_benefit=net_benefit,
        net_benefit_reason=why_not,
    )


# replicates are drawn in blocks of at most this many (replicate, cell) draws
_BLOCK_DRAWS = 20_000_000


def _replicate(
    rng: np.random.Generator,
    cells: JointCells,
    replicates: int,
    measure: Callable[[Floats], dict[str, dict[str, Floats]]],
    out: dict[str, dict[str, Floats]],
) -> None:
    """Draw the paired replicates of `cells` in blocks of bounded memory, measure each
    block, and append the values to `out` (model -> measure -> values)."""
    step = max(1, _BLOCK_DRAWS // max(cells.counts.size, 1))
    parts: dict[str, dict[str, list[Floats]]] = {}
    for start in range(0, replicates, step):
        values = measure(draw_cells(rng, cells, min(step, replicates - start)))
        for model, block in values.items():
            for name, array in block.items():
                parts.setdefault(model, {}).setdefault(name, []).append(array)
    for model, pieces in parts.items():
        for name, arrays in pieces.items():
            out[model][name] = np.concatenate(arrays)


def _net_benefit(
    rankings: Mapping[str, Ranking],
    is_positive: NDArray[np.bool_] | None,
    scores: Mapping[str, Any] | None,
    weights: Floats | None,
    order: Sequence[str],
    replicates: int,
    level: float,
    rng: np.random.Generator,
) -> tuple[dict[str, NetBenefitDifference], str | None]:
    """Each model's net benefit against the reference's, when every model's scores are
    probabilities (drawn after the tests, so their seeded values do not move); else why
    there is none."""
    if not rankings or is_positive is None or scores is None:
        return {}, "the models have no scores: net benefit reads probabilities"
    if not all(ranking.n > 0 for ranking in rankings.values()):
        return {}, "no cases: every weight is 0"
    for name, ranking in rankings.items():
        if not is_probability_ranking(ranking):
            outside = ranking.scores[0] if ranking.scores[0] > 1 else ranking.scores[-1]
            return {}, (
                f"the scores of {name!r} are not probabilities: {float(outside)!r} lies "
                "outside [0, 1]"
            )
    joint = joint_scores(is_positive, rankings, scores, weights)
    return {
        name: paired_net_benefit(
            joint, name, order[0], replicates=replicates, level=level, seed=rng
        )
        for name in order[1:]
    }, None


def _measure_names(
    measures: Sequence[str] | None, tables: bool, rankings: bool
) -> tuple[list[str], list[str]]:
    if measures is None:
        return (list(TABLE_COMPARED) if tables else []), (
            list(RANKING_COMPARED) if rankings else []
        )
    # any name of a measure: "tpr", "Youden's J", "AUROC"
    names = measure_names(measures, ANY_MEASURE_NAMES, (*MEASURES, *RANKING_SUMMARIES))
    table_names = [m for m in names if m in MEASURES]
    ranking_names = [m for m in names if m in RANKING_SUMMARIES]
    if table_names and not tables:
        msg = f"{table_names} are table measures: they need `predicted` or a `threshold`."
        raise InputError(msg)
    if ranking_names and not rankings:
        msg = f"{ranking_names} are ranking measures: they need `scores`."
        raise InputError(msg)
    if not table_names and not ranking_names:
        msg = "`measures` is empty: name at least one measure to compare."
        raise InputError(msg)
    return table_names, ranking_names


def _sort_key(value: float, position: int) -> tuple[int, float, int]:
    return (1, 0.0, position) if math.isnan(value) else (0, -value, position)


def _interval(estimate: float, values: Floats | None, level: float, reason: str | None) -> Interval:
    if values is None or math.isnan(estimate):
        return nan_interval(estimate, level, "percentile", reason or "undefined")
    return replicate_interval(estimate, values, level, "percentile", math.nan)


def _difference(
    estimates: dict[str, dict[str, float]],
    distribution: dict[str, dict[str, Floats]],
    reasons: dict[str, dict[str, str]],
    model: str,
    reference: str,
    measure: str,
    level: float,
) -> Interval:
    estimate = estimates[model][measure] - estimates[reference][measure]
    if math.isnan(estimate):
        which = model if math.isnan(estimates[model][measure]) else reference
        why = f"{measure} of {which!r} is undefined: {reasons[which].get(measure, 'undefined')}"
        return nan_interval(estimate, level, "percentile", why)
    values = distribution[model][measure] - distribution[reference][measure]
    return replicate_interval(estimate, values, level, "percentile", math.nan)


def _tests(
    joint: JointOutcomes | None,
    rankings: Mapping[str, Ranking],
    is_positive: NDArray[np.bool_] | None,
    scores: Mapping[str, Any] | None,
    weights: Floats | None,
    order: Sequence[str],
    positive: Label | None,
    permutations: int,
    alpha: float,
    rng: np.random.Generator,
    level: float,
) -> dict[str, dict[str, Any]]:
    reference = order[0]
    out: dict[str, dict[str, Any]] = {}
    for name in order[1:]:
        tests: dict[str, Any] = {}
        if joint is not None:
            tests["mcnemar"] = paired_mcnemar(joint, name, reference)
            tests["permutation"] = paired_permutation(
                joint,
                name,
                reference,
                "informedness",
                permutations=permutations,
                positive=positive,
                alpha=alpha,
                seed=rng,
            )
        if rankings and scores is not None and is_positive is not None:
            if weights is None:
                tests["delong"] = delong_test(
                    is_positive, scores[name], scores[reference], level=level
                )
            else:
                tests["delong"] = Significance(
                    math.nan,
                    math.nan,
                    "delong",
                    "the two classifiers have the same AUC",
                    reason="DeLong's test reads unweighted cases; these rows are weighted",
                )
        out[name] = tests
    return out


def _adjust(tests: dict[str, dict[str, Any]], correction: str) -> dict[str, dict[str, float]]:
    adjusted: dict[str, dict[str, float]] = {name: {} for name in tests}
    keys = sorted({key for by_test in tests.values() for key in by_test})
    for key in keys:
        models = [name for name in tests if key in tests[name]]
        raw = [float(tests[name][key].pvalue) for name in models]
        values = holm(raw) if correction == "holm" else raw
        for name, value in zip(models, values, strict=True):
            adjusted[name][key] = value
    return adjusted
