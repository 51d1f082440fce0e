"""Paired inference for classifiers scored on the same cases, from their joint table.

* `paired_replicates`: every model's table measures in the same bootstrap replicates
  (one multinomial draw over the joint cells per replicate), so the difference of two
  models is resampled with its pairing: O(B x cells).
* `ranking_replicates`: the same for ranking measures (AUC, PEM, average Qrecall), whose
  joint cells are (actual class, tie group of each model's score).
* `paired_permutation`: the permutation test of the difference of a measure
  (informedness by default) between two models: under the null the two models'
  predictions are exchangeable case by case, so each case's pair of predictions is
  swapped with probability 1/2. A joint cell of n cases whose two predictions differ
  swaps Binomial(n, 1/2) of them: O(R x cells), the same distribution as swapping rows.
* `paired_mcnemar`: McNemar's test of accuracy from the joint cells.

References
----------
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand. J.
Statist. 6(2):65-70.
Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be zero. Stat. Appl.
Genet. Mol. Biol. 9(1):39.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import readonly
from informed.coding.labels import Label, code_labels, keyed, sort_labels
from informed.comparison.joint import JointCells, JointOutcomes, joint_cells, reduce_cells
from informed.errors import InputError
from informed.inference.checks import check_cases, check_seed
from informed.inference.mcnemar import mcnemar
from informed.inference.ranking_bootstrap import RANKING_SUMMARIES
from informed.inference.significance import Significance
from informed.measures import measure_name
from informed.ranking import Ranking
from informed.table.evaluation import measure_values

__all__ = [
    "JointScores",
    "joint_scores",
    "paired_mcnemar",
    "paired_permutation",
    "paired_replicates",
    "positive_index",
    "positive_rows",
    "ranking_replicates",
]

Floats = NDArray[np.float64]


# replicates are evaluated in blocks of about this many table cells
_BLOCK_CELLS = 2_000_000


def positive_index(labels: tuple[Label, ...], positive: Label | None) -> int | None:
    """Position of `positive` among `labels` (kind-aware), None for None; an InputError if
    it is not one of them."""
    if positive is None:
        return None
    keys = [keyed(x) for x in labels]
    key = keyed(positive)
    if key not in keys:
        msg = f"positive={positive!r} is not a label of the data; labels are {list(labels)}."
        raise InputError(msg)
    return keys.index(key)


def positive_rows(actual: NDArray[Any], positive: Label) -> NDArray[np.bool_]:
    """Whether each case's actual class is `positive`; an InputError naming the classes
    when it is none of them."""
    labels, codes = code_labels(actual, "actual")
    keys = [keyed(x) for x in labels]
    if keyed(positive) not in keys:
        msg = f"positive={positive!r} is not a class of `actual`; classes are {list(labels)}."
        raise InputError(msg)
    return np.asarray(codes == keys.index(keyed(positive)))


def paired_replicates(
    joint: JointOutcomes,
    draws: Floats,
    names: Sequence[str],
    positive: Label | None,
    alpha: float,
    undefined: str,
) -> dict[str, dict[str, Floats]]:
    """Model -> measure -> its value in each replicate of `draws[B, cells]`."""
    out: dict[str, dict[str, Floats]] = {}
    for model in joint.models:
        labels = joint.model_labels[model]
        index = positive_index(labels, positive)
        size = len(labels) ** 2
        step = max(1, _BLOCK_CELLS // max(size * 4, draws.shape[1]))
        parts: dict[str, list[Floats]] = {name: [] for name in names}
        for start in range(0, draws.shape[0], step):
            squares = joint.squares(model, draws[start : start + step])
            values, _ = measure_values(squares, list(names), index, alpha, undefined)
            for name in names:
                parts[name].append(np.asarray(values[name], dtype=np.float64))
        out[model] = {name: np.concatenate(parts[name]) for name in names}
    return out


@dataclass(frozen=True)
class JointScores:
    """Several models' scores on the same cases, as joint cells.

    Column 0 of `cells` is 1 for an actual positive, 0 for a negative; column 1 + m the
    tie group of model m's score (0 = its highest score). `rankings` holds each model's
    Ranking, whose `scores` name the groups.
    """

    models: tuple[str, ...]
    cells: JointCells
    rankings: dict[str, Ranking]


def joint_scores(
    is_positive: NDArray[np.bool_],
    rankings: Mapping[str, Ranking],
    scores: Mapping[str, Floats],
    weights: Floats | None,
) -> JointScores:
    """Joint cells of (actual positive?, each model's tie group) from the rows. O(n log n)."""
    columns = [is_positive.astype(np.intp)]
    sizes = [2]
    for model, ranking in rankings.items():
        values = np.asarray(scores[model], dtype=np.float64)
        columns.append(np.searchsorted(-ranking.scores, -values, side="left").astype(np.intp))
        sizes.append(max(ranking.n_groups, 1))
    return JointScores(
        models=tuple(rankings), cells=joint_cells(columns, sizes, weights), rankings=dict(rankings)
    )


def ranking_replicates(
    joint: JointScores, draws: Floats, names: Sequence[str]
) -> dict[str, dict[str, Floats]]:
    """Model -> ranking measure -> its value in each replicate of `draws[B, cells]`.

    Each replicate's Ranking keeps the model's scores with the resampled positives and
    negatives of each group (groups drawn empty are dropped); the measures are the
    functions of `informed.ranking`, one Ranking per replicate and model.
    """
    positive = joint.cells.codes[:, 0] == 1
    out: dict[str, dict[str, Floats]] = {}
    for m, model in enumerate(joint.models):
        ranking = joint.rankings[model]
        group = joint.cells.codes[:, 1 + m]
        size = max(ranking.n_groups, 1)
        pos = reduce_cells(np.where(positive, draws, 0.0), group, size)
        neg = reduce_cells(np.where(positive, 0.0, draws), group, size)
        values = {name: np.full(draws.shape[0], np.nan) for name in names}
        for b in range(draws.shape[0]):
            keep = (pos[b] + neg[b]) > 0
            if not keep.any():
                continue
            p, q = pos[b][keep], neg[b][keep]
            if not ranking.weighted:
                p, q = np.rint(p).astype(np.int64), np.rint(q).astype(np.int64)
            replicate = Ranking(scores=ranking.scores[keep], positives=p, negatives=q)
            with np.errstate(divide="ignore", invalid="ignore"):
                for name in names:
                    values[name][b] = RANKING_SUMMARIES[name](replicate)
        out[model] = values
    return out


def paired_mcnemar(joint: JointOutcomes, model: str, reference: str) -> Significance:
    """McNemar's exact test of accuracy: b = cases only `model` gets right, c = cases only
    `reference` gets right (counted from the joint cells)."""
    right_model = joint.correct(model)
    right_reference = joint.correct(reference)
    counts = joint.cells.counts
    b = float(counts[right_model & ~right_reference].sum())
    c = float(counts[~right_model & right_reference].sum())
    if not (b.is_integer() and c.is_integer()):
        null = "both classifiers are equally often right (b and c equally likely)"
        why = "McNemar's exact test counts cases; these weights are not whole numbers"
        return Significance(math.nan, math.nan, "mcnemar-exact", null, reason=why)
    return mcnemar(b=b, c=c)


def paired_permutation(
    joint: JointOutcomes,
    model: str,
    reference: str,
    measure: str = "informedness",
    *,
    permutations: int = 9999,
    positive: Label | None = None,
    alpha: float = 0.5,
    seed: int | np.random.Generator | None = None,
) -> Significance:
    """Permutation test that `model` and `reference` have the same `measure` on these cases.

    Under the null the two predictions of each case are exchangeable: each case's pair is
    swapped with probability 1/2, and the statistic is the difference
    measure(model) - measure(reference). A joint cell of n cases whose two predictions
    differ swaps Binomial(n, 1/2) of them, so a permutation costs O(cells), not O(n).
    Both tables are measured over the labels of either model and the actual classes.
    Two-sided: p = (1 + #{|d*| >= |d|}) / (1 + R), never 0 (Phipson & Smyth 2010).
    """
    measure = measure_name(measure)  # any name of the measure: "youden", "MCC"
    rng = check_seed(seed)
    null = f"the two classifiers' predictions are exchangeable case by case (equal {measure})"
    counts = joint.cells.counts
    if not np.all(np.equal(np.mod(counts, 1.0), 0.0)):
        why = "a permutation test swaps cases; these weights are not whole numbers"
        return Significance(math.nan, math.nan, "paired-permutation", null, reason=why)
    heavy = "weights so heavy are not counts of cases"
    check_cases(float(counts.sum()), heavy, "the permutation test swaps")
    m, r = 1 + joint.models.index(model), 1 + joint.models.index(reference)
    labels = sort_labels((*joint.model_labels[model], *joint.model_labels[reference]))
    position = np.array(
        [labels.index(x) if x in labels else -1 for x in joint.labels], dtype=np.intp
    )
    a = position[joint.cells.codes[:, 0]]
    p = position[joint.cells.codes[:, m]]
    q = position[joint.cells.codes[:, r]]
    size = len(labels)
    model_square = reduce_cells(counts, p * size + a, size * size)
    reference_square = reduce_cells(counts, q * size + a, size * size)
    index = positive_index(labels, positive)
    observed = _difference(model_square, reference_square, size, measure, index, alpha)
    observed_value = float(observed[0])
    if math.isnan(observed_value):
        why = f"{measure} is undefined for one of the two tables"
        return Significance(math.nan, math.nan, "paired-permutation", null, reason=why)
    apart = p != q
    stats = np.empty(permutations)
    step = max(1, _BLOCK_CELLS // (size * size * 4 + int(apart.sum())))
    for start in range(0, permutations, step):
        count = min(step, permutations - start)
        swapped = rng.binomial(counts[apart].astype(np.int64), 0.5, size=(count, int(apart.sum())))
        moved = swapped.astype(np.float64)
        delta = reduce_cells(moved, q[apart] * size + a[apart], size * size) - reduce_cells(
            moved, p[apart] * size + a[apart], size * size
        )
        stats[start : start + count] = _difference(
            model_square + delta, reference_square - delta, size, measure, index, alpha
        )
    defined = stats[~np.isnan(stats)]
    tolerance = 1e-12 * max(1.0, abs(observed_value))
    extreme = np.count_nonzero(np.abs(defined) >= abs(observed_value) - tolerance)
    pvalue = (1.0 + float(extreme)) / (1.0 + defined.size)
    readonly(stats)
    return Significance(
        observed_value,
        min(1.0, pvalue),
        "paired-permutation",
        null,
        estimate=observed_value,
        details={
            "permutations": float(permutations),
            "undefined": float(stats.size - defined.size),
        },
        null_distribution=stats,
    )


def _difference(
    model: Floats, reference: Floats, size: int, measure: str, index: int | None, alpha: float
) -> Floats:
    shape = (*model.shape[:-1], size, size)
    both = np.stack([model.reshape(shape), reference.reshape(shape)])
    values, _ = measure_values(both, [measure], index, alpha, "propagate")
    result = np.asarray(values[measure], dtype=np.float64)
    return np.atleast_1d(result[0] - result[1])
