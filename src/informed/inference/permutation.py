"""The permutation test of a measure of a Table (informedness by default) against chance.

References
----------
Patefield, W. M. (1981). Algorithm AS 159: an efficient method of generating random
R x C tables with given row and column totals. Appl. Statist. 30(1):91-97.
Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be zero.
Stat. Appl. Genet. Mol. Biol. 9(1):39.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from scipy import stats

from informed._common import check_choice, check_memory, readonly
from informed.errors import InputError
from informed.inference.checks import check_count, check_seed, check_table, label_index
from informed.inference.significance import Significance
from informed.measures import measure_name
from informed.table.evaluation import evaluate, measure_values
from informed.table.table import Table

__all__ = ["permutation_test"]

ALTERNATIVES = ("two-sided", "greater", "less")


def permutation_test(
    table: Table,
    measure: str = "informedness",
    *,
    permutations: int = 9999,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    positive: Any = None,
    seed: int | np.random.Generator | None = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
) -> Significance:
    r"""Permutation test of a measure (informedness by default) against pure chance.

    The null hypothesis is that the predictions carry no information about the actual
    classes: any pairing of the n predictions with the n actual classes is as likely as
    the observed one. Each permutation keeps both margins (how often each label was
    predicted, how often each class occurs), so the permuted tables are exactly the
    tables with the observed margins, drawn with their multivariate hypergeometric
    probabilities. They are sampled directly (Patefield's algorithm, via
    `scipy.stats.random_table`) in O(K C) each, the same distribution as shuffling the
    actual column of n rows at O(n) each.

    Parameters
    ----------
    table : Table
        Integer counts (a weighted table must hold whole numbers).
    measure : str
        A registry measure by any of its names ("informedness", "youden", "MCC");
        evaluated as `evaluate` does (overall, or the one-vs-rest view of `positive`).
    permutations : int
        Number of permuted tables R.
    alternative : {"two-sided", "greater", "less"}
        "greater": the measure is larger than chance would make it. "two-sided" (the
        default) also counts informed but contrary predictions (negative informedness)
        as departures from chance: p = min(1, 2 min(p_greater, p_less)).
    seed : int or numpy.random.Generator, optional
    alpha : float
        Weight of the F family, as in `evaluate`.
    undefined : {"propagate", "omit"}
        How averages treat a label whose value is nan, as in `evaluate`; the observed
        and the permuted tables are measured alike.

    Returns
    -------
    Significance
        statistic = estimate = the measure of the table; the p-value counts the
        permuted tables at least as extreme, p = (1 + #extreme) / (1 + R), so it is
        never 0 (Phipson & Smyth 2010). `null_distribution` holds the R permuted values
        (nan where the measure is undefined; those are left out).

    Notes
    -----
    Under these margins informedness has expectation exactly 0 (B of each label is
    linear in its tp, whose expectation is ``n_l. n_.l`` / N), so its null distribution is
    centred on the chance value.

    References
    ----------
    Patefield, W. M. (1981). Algorithm AS 159: an efficient method of generating random
    R x C tables with given row and column totals. Appl. Statist. 30(1):91-97.
    Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be zero.
    Stat. Appl. Genet. Mol. Biol. 9(1):39.

    >>> table = Table.binary(tp=21, fp=14, fn=9, tn=56)
    >>> result = permutation_test(table, permutations=999, seed=0)
    >>> round(result.estimate, 12), result.pvalue  # no permuted table is as extreme
    (0.5, 0.002)
    """
    table = check_table(table)
    measure = measure_name(measure)  # any name of the measure: "youden", "MCC"
    permutations = check_count(permutations, "permutations", 1)
    rng = check_seed(seed)
    check_choice(alternative, ALTERNATIVES, "alternative")
    check_choice(undefined, ("propagate", "omit"), "undefined")
    counts = table.counts
    if table.weighted and not np.all(np.equal(np.mod(counts, 1.0), 0.0)):
        msg = (
            "a permutation test permutes cases, so it needs whole-number counts; this "
            "weighted table holds fractional weights. Test the unweighted table."
        )
        raise InputError(msg)
    null = f"the predictions carry no information about the actual classes ({measure} at chance)"
    evaluation = evaluate(table, positive=positive, alpha=alpha, undefined=undefined)
    observed = float(evaluation.measures[measure])
    if math.isnan(observed):
        why = evaluation.reasons.get(measure, "undefined for this table")
        return Significance(math.nan, math.nan, "permutation", null, reason=why)
    labels, square = table.square()
    size = len(labels)
    check_memory(
        2 * permutations * size * size * 8,
        f"{permutations:,} permuted tables of {size:,} x {size:,} labels",
        "use fewer permutations, or bootstrap() (which resamples only the non-zero cells)",
    )
    index = label_index(labels, evaluation.positive)
    square_int = np.rint(square).astype(np.int64)
    tables = stats.random_table.rvs(
        square_int.sum(axis=1),
        square_int.sum(axis=0),
        size=permutations,
        method="patefield",
        random_state=rng,
    )
    tables = np.asarray(tables, dtype=np.float64).reshape(permutations, *square.shape)
    values, _ = measure_values(tables, [measure], index, alpha, undefined)
    null_values = values[measure]
    defined = null_values[~np.isnan(null_values)]
    # ties of the observed table with a permuted one must count as "as extreme" although
    # the two were computed in different orders: allow a few units in the last place
    tolerance = 1e-12 * max(1.0, abs(observed))
    greater = (1.0 + float(np.count_nonzero(defined >= observed - tolerance))) / (
        1.0 + defined.size
    )
    less = (1.0 + float(np.count_nonzero(defined <= observed + tolerance))) / (1.0 + defined.size)
    pvalue: float
    if alternative == "greater":
        pvalue = greater
    elif alternative == "less":
        pvalue = less
    else:
        pvalue = min(1.0, 2.0 * min(greater, less))
    readonly(null_values)
    return Significance(
        observed,
        float(pvalue),
        "permutation",
        null,
        estimate=observed,
        details={
            "permutations": float(permutations),
            "undefined": float(null_values.size - defined.size),
        },
        null_distribution=null_values,
    )
