"""Between slices: each slice against the rest and against a reference, with intervals.

For each slice: the difference in informedness B, markedness M, recall (TPR), fallout
(FPR) and bias pP (the selection rate) from the rest of the rows (all slices but it)
and from a reference slice; and across slices the equalized-odds difference (Hardt et
al. 2016: max(max-min TPR, max-min FPR), as fairlearn's `equalized_odds_difference`), the
demographic-parity difference (max-min pP) and the spread of informedness (max-min B).
Every one has a percentile interval from the same stratified replicates as
`informed.inference.slice_bootstrap` (the rest's replicate is the sum of the other
slices' replicates), and each family of slice differences a bootstrap p-value with
Holm's (1979) adjustment across slices. With scores, each slice's AUC minus the rest's
and the reference's, with DeLong intervals for independent samples
(`informed.inference.auc_differences`).

The three summaries are ranges, and a range is as large as its most extreme slice: a
perfect slice of 3 rows would make the spread of informedness look huge. Each range is
taken over the slices whose value rests on at least `min_count` cases of its own
denominator (the TPR range over slices of at least 30 real positives, the FPR range over
slices of at least 30 real negatives, the range of pP over slices of at least 30 cases,
the spread of B over slices of at least 30 real positives and 30 real negatives: the
slices not flagged too small), the slices left out are named with their counts, and the
range over every slice is kept beside it (`summary_all`).

With two classes informedness is TPR - FPR (Powers 2011), so a slice's gap in
informedness is its TPR gap minus its FPR gap: B measures how far a slice's
predictions are informed beyond chance, and equal B across slices is what is left of
equalized odds once the gaps may offset. With more classes, where fairlearn refuses
(fairlearn#1212), each label's one-vs-rest TPR and FPR gaps are taken and the
equalized-odds difference is the largest of them; B and M are Powers' multiclass ones.

References
----------
Powers, D. M. W. (2011). Evaluation: from precision, recall and F-measure to ROC,
informedness, markedness and correlation. J. Mach. Learn. Technol. 2(1):37-63.
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand. J.
Statist. 6(2):65-70.
Davison, A. C. & Hinkley, D. V. (1997). Bootstrap Methods and their Application.
Cambridge University Press.
Hardt, M., Price, E. & Srebro, N. (2016). Equality of opportunity in supervised
learning. Advances in Neural Information Processing Systems 29.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 4 + ["b"] * 4, actual=[1, 1, 0, 0] * 2,
...                        predicted=[1, 1, 0, 0, 1, 0, 1, 0])
>>> d = disparities(s, positive=1, replicates=50, seed=0)
>>> d.vs_rest["informedness"][1].estimate, d.summary_all["informedness_spread"].estimate
(-1.0, 1.0)
>>> d.summary_all["equalized_odds_difference"].estimate
0.5
>>> d.summary["informedness_spread"].reason  # 4 cases a slice: too few to range over
'defined in fewer than two slices of at least 30 real positives and 30 real negatives'
>>> d.left_out["informedness_spread"][1]
(1, '2 real positives, 2 real negatives')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed._common import check_memory, readonly
from informed.coding.labels import as_label, keyed
from informed.errors import InputError
from informed.inference.checks import check_count, check_level, check_number, check_seed
from informed.inference.interval import Interval, nan_interval
from informed.inference.replicates import replicate_interval, replicate_intervals
from informed.inference.significance import holm
from informed.inference.slice_bootstrap import case_draws, no_cases_reason, slice_replicates
from informed.inference.slice_ranges import (
    SUMMARIES,
    adequate_slices,
    kept_range,
    largest,
    left_out,
    range_rules,
    value_range,
)
from informed.measures import Cells
from informed.ranking import ByAnyMeasure
from informed.slices.evaluation import present_labels, slice_values
from informed.slices.keys import keyed_key
from informed.slices.slices import Slices

__all__ = ["COMPARED", "SUMMARIES", "Disparities", "differs", "disparities"]

Floats = NDArray[np.float64]

COMPARED = ("informedness", "markedness", "recall", "fallout", "bias")
"""The measures compared between slices: B, M, TPR, FPR and the selection rate pP."""


@dataclass(frozen=True, eq=False)
class Disparities:
    """Differences between slices, with intervals and Holm-adjusted p-values.

    Attributes
    ----------
    slices : Slices
    positive : label or None
    reference : tuple or None
        The key of the reference slice.
    vs_rest, vs_reference : dict
        Measure -> one Interval per slice: the slice's value minus the rest's (the
        reference's); the reference itself gets nan with the reason. With scores also
        "auc": DeLong intervals for independent samples (method "delong-independent").
    p_rest, p_reference : dict
        Measure -> Holm-adjusted p-values per slice (nan where undefined): bootstrap
        ones, and for "auc" DeLong's normal ones.
    summary : dict
        "equalized_odds_difference", "demographic_parity_difference",
        "informedness_spread": one Interval each, over the slices of adequate size
        (`rules`); nan with the reason where fewer than two have a value.
    summary_all : dict
        The same ranges over every slice whose value is defined.
    left_out : dict
        Summary -> (slice position, why) of each slice left out of its range as too
        small ("6 real positives").
    rules : dict
        Summary -> which slices its range is over ("of at least 30 cases").
    min_count : float
    own_replicates : dict
        Measure -> its replicates [B, S] of each slice's own value, for the measures
        `disparities(keep=...)` names (none by default): `bootstrap_slices(values=...)`
        reads its intervals from them rather than draw the same cases again.
    auc_components : ndarray or None
        With scores, each slice's own DeLong components (`AucDifferences.components`),
        for `slice_rankings(components=...)`.
    """

    slices: Slices
    positive: Any
    reference: tuple[Any, ...] | None
    level: float
    replicates: int
    vs_rest: dict[str, list[Interval]]
    vs_reference: dict[str, list[Interval]]
    p_rest: dict[str, list[float]] = field(repr=False)
    p_reference: dict[str, list[float]] = field(repr=False)
    summary: dict[str, Interval] = field(default_factory=dict)
    summary_all: dict[str, Interval] = field(default_factory=dict)
    left_out: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
    min_count: float = 30.0
    own_replicates: dict[str, Floats] = field(default_factory=dict, repr=False)
    auc_components: Floats | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # any name of a measure finds it: vs_rest["tpr"] is the recall's, ["AUROC"] the AUC's
        for name in ("vs_rest", "vs_reference", "p_rest", "p_reference"):
            object.__setattr__(self, name, ByAnyMeasure(getattr(self, name)))


def _statistics(
    cells: Cells,
    present: NDArray[np.bool_],
    index: int | None,
    reference: int | None,
    adequate: dict[str, NDArray[np.bool_]],
) -> dict[str, Floats]:
    """Every compared quantity of tables values[..., S, M]: per slice, the slice minus
    the rest and minus the reference, and the three summaries over the slices (and
    labels) `adequate` for each measure ("all:" over every slice)."""
    values = cells.values
    rest = Cells(values.sum(axis=-2, keepdims=True) - values, cells.rows, cells.cols, cells.shape)
    names = list(COMPARED)
    # with a positive label its view alone is computed: the labels' values go unused
    each = index is None
    mine, mine_labels = slice_values(cells, names, index, 0.5, "propagate", present, each)
    theirs, _ = slice_values(rest, names, index, 0.5, "propagate", None, each)
    out: dict[str, Floats] = {}
    with np.errstate(invalid="ignore"):
        for name in names:
            out[f"own:{name}"] = mine[name]
            out[f"rest:{name}"] = mine[name] - theirs[name]
            if reference is not None:
                out[f"reference:{name}"] = mine[name] - mine[name][..., reference : reference + 1]
        rates = ("recall", "fallout", "bias")
        if index is not None:
            gaps = {name: value_range(mine[name]) for name in rates}
            kept = {name: kept_range(mine[name], adequate[name], gaps[name]) for name in rates}
            odds = np.maximum(kept["recall"], kept["fallout"])  # nan unless both are defined
            parity = kept["bias"]
        else:  # each label's gap, the largest over labels
            labelled = {name: value_range(mine_labels[name], axis=-2) for name in rates}
            gaps = {name: largest(labelled[name]) for name in rates}
            kept = {
                name: kept_range(mine_labels[name], adequate[name], labelled[name], axis=-2)
                for name in rates
            }
            odds = largest(np.maximum(kept["recall"], kept["fallout"]))
            parity = largest(kept["bias"])
        spread = value_range(mine["informedness"])
        out["all:equalized_odds_difference"] = np.fmax(gaps["recall"], gaps["fallout"])
        out["all:demographic_parity_difference"] = gaps["bias"]
        out["all:informedness_spread"] = spread
        out["equalized_odds_difference"] = odds
        out["demographic_parity_difference"] = parity
        out["informedness_spread"] = kept_range(
            mine["informedness"], adequate["informedness"], spread
        )
    return out


def disparities(
    slices: Slices,
    *,
    positive: Any = None,
    reference: Any = None,
    replicates: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    min_count: float = 30.0,
    keep: Sequence[str] = (),
) -> Disparities:
    """Each slice against the rest and against `reference`, and the spread across slices.

    Parameters
    ----------
    slices : Slices
        With a Table per slice.
    positive : label, optional
        Compare each slice's one-vs-rest view of this label (the favourable outcome);
        without it, multiclass B and M and each label's TPR and FPR.
    reference : key, optional
        The slice the others are compared with (a value, or a tuple for crossed keys;
        ``(None,)`` is the missing slice); default the largest slice. Slices of no rows
        have none, and give differences of no rows and undefined ranges.
    replicates, level, seed
        As in `informed.inference.bootstrap`.
    min_count : float
        The ranges across slices are over the slices with at least this many cases in
        each rate's denominator (the threshold of the slices' small-slice flags); those
        left out are named in `left_out`, and `summary_all` holds the ranges over all.
    keep : sequence of str
        Measures of `COMPARED` whose replicates of each slice's own value are kept in
        `Disparities.own_replicates`: with the same `seed` and `replicates` they are the
        values `bootstrap_slices` draws, and `bootstrap_slices(values=...)` takes them
        (a slices report draws every replicate once).
    """
    if slices.cells is None:
        msg = "disparities need a Table per slice: build the slices with `predicted`."
        raise InputError(msg)
    replicates = check_count(replicates, "replicates", 2)
    level = check_level(level)
    min_count = check_number(min_count, "min_count", 0)
    seed = check_seed(seed)
    unknown = [name for name in keep if name not in COMPARED]
    if unknown:
        msg = f"`keep` takes measures of {list(COMPARED)}; got {unknown[0]!r}."
        raise InputError(msg)
    S = len(slices.keys)
    # the largest slice by default; with no slice, a result with no rows (0 stands in)
    largest_slice = int(np.argmax(slices.n)) if S else 0
    ref = largest_slice if reference is None else slices.index(reference)
    original, batches = slice_replicates(slices, replicates, seed)
    present = present_labels(original)
    labels = slices.square_cells(0, 0)[0] if S else ()
    index = None
    if positive is not None:
        wanted = keyed(as_label(positive))
        index = next((i for i, x in enumerate(labels) if keyed(x) == wanted), None)
        if index is None:
            msg = f"positive={positive!r} is not a label of the slices; labels: {list(labels)}."
            raise InputError(msg)
    adequate, counts = adequate_slices(original, index, min_count)
    estimates = _statistics(
        Cells(original.values[None], original.rows, original.cols, original.shape),
        present,
        index,
        ref,
        adequate,
    )
    # every replicate of each difference is kept (its interval needs them all): checked
    # before they are allocated; of each slice's own values only the range is kept
    kept = [key for key in estimates if not key.startswith("own:")]
    width = sum(int(np.prod(estimates[key].shape[1:], dtype=np.int64)) for key in kept)
    check_memory(
        8 * replicates * width,
        f"the {replicates:,} replicates of {len(kept)} differences of {S:,} slices",
        "slice by fewer keys, or compare fewer replicates",
    )
    draws = {
        key: np.empty((replicates, *estimates[key].shape[1:]), dtype=np.float64) for key in kept
    }
    own = {name: np.empty((replicates, S), dtype=np.float64) for name in keep}
    high = {name: np.full(S, -np.inf) for name in COMPARED}
    low = {name: np.full(S, np.inf) for name in COMPARED}
    for part, cells in batches:
        for key, value in _statistics(cells, present, index, ref, adequate).items():
            if key.startswith("own:"):
                name = key[4:]
                defined = ~np.isnan(value)
                np.fmax(
                    high[name], np.max(np.where(defined, value, -np.inf), axis=0), out=high[name]
                )
                np.fmin(low[name], np.min(np.where(defined, value, np.inf), axis=0), out=low[name])
                if name in own:
                    own[name][part] = value
            else:
                draws[key][part] = value
    # a slice whose every replicate agrees has no estimate of its own variation (a
    # perfect slice of 15 positives gives 1 every time): its differences say so
    fixed = {name: np.isfinite(high[name]) & (high[name] == low[name]) for name in COMPARED}
    unresampled = _unresampled(slices, ref)
    vs_rest: dict[str, list[Interval]] = {}
    vs_reference: dict[str, list[Interval]] = {}
    p_rest: dict[str, list[float]] = {}
    p_reference: dict[str, list[float]] = {}
    for name in COMPARED:
        for family, out, pvalues in (
            ("rest", vs_rest, p_rest),
            ("reference", vs_reference, p_reference),
        ):
            key = f"{family}:{name}"
            found = []
            raw = []
            computed = replicate_intervals(estimates[key][0], draws[key], level, "percentile")
            p_values = _p_values(estimates[key][0], draws[key])
            for s in range(S):
                if family == "reference" and s == ref:
                    why = "the reference slice itself"
                    found.append(nan_interval(math.nan, level, "percentile", why))
                    raw.append(math.nan)
                    continue
                estimate = float(estimates[key][0, s])
                held = unresampled[family][s]
                if held is not None and not math.isnan(estimate):
                    found.append(nan_interval(estimate, level, "percentile", held))
                    raw.append(math.nan)
                    continue
                alone = [k for k in (s, ref if family == "reference" else s) if fixed[name][k]]
                if alone and not math.isnan(estimate):
                    k = alone[0]
                    agreed = float(high[name][k])
                    why = (
                        f"every replicate of slice {slices.name(slices.keys[k])!r} gives "
                        f"{agreed:.4g}: its own variation is not estimated, too few to say"
                    )
                    found.append(nan_interval(estimate, level, "percentile", why))
                    raw.append(math.nan)
                    continue
                found.append(_checked(estimate, computed[s], level))
                raw.append(float(p_values[s]))
            out[name] = found
            pvalues[name] = holm(raw)
    rules = range_rules(index is not None, min_count)
    summary = {
        key: _interval(float(estimates[key][0]), draws[key], level, f"slices {rules[key]}")
        for key in SUMMARIES
    }
    summary_all = {
        key: _interval(float(estimates[f"all:{key}"][0]), draws[f"all:{key}"], level, "slices")
        for key in SUMMARIES
    }
    aucs = None
    if slices.rankings is not None:  # imported with scores only: labels need no DeLong
        from informed.inference.auc_differences import auc_differences

        aucs = auc_differences(slices, reference=ref, level=level)
        vs_rest["auc"], vs_reference["auc"] = aucs.vs_rest, aucs.vs_reference
        p_rest["auc"], p_reference["auc"] = aucs.p_rest, aucs.p_reference
    return Disparities(
        slices,
        labels[index] if index is not None else None,
        slices.keys[ref] if S else None,
        level,
        replicates,
        vs_rest,
        vs_reference,
        p_rest,
        p_reference,
        summary,
        summary_all,
        left_out(adequate, counts, index, labels, present),
        rules,
        min_count,
        {name: readonly(values) for name, values in own.items()},
        None if aucs is None else aucs.components,
    )


def _unresampled(slices: Slices, reference: int) -> dict[str, list[str | None]]:
    """Why each slice's difference from the rest ("rest") or from the reference
    ("reference") has no interval when one side's weights round to no case, or None;
    every slice at once (whole counts always draw their cases)."""
    S = len(slices.keys)
    if not slices.weighted:
        return {"rest": [None] * S, "reference": [None] * S}
    n, cases = slices.n, case_draws(slices)
    own = [no_cases_reason(slices, s, n) for s in range(S)]
    theirs = own[reference] if S else None
    rest: list[str | None] = []
    for s in range(S):
        found = own[s]
        weight = float(n.sum() - n[s])
        if found is None and weight > 0 and int(cases.sum() - cases[s]) == 0:
            found = (
                f"the weights of the rest of the rows sum to {weight:.6g}, read as 0 cases "
                "(frequency weights): there is no case to resample"
            )
        rest.append(found)
    return {"rest": rest, "reference": [found or theirs for found in own]}


def _interval(estimate: float, values: Floats, level: float, over: str) -> Interval:
    """A range's interval, never silently degenerate; nan where fewer than two of the
    slices it is `over` have a value."""
    if math.isnan(estimate):
        why = f"defined in fewer than two {over}"
        return nan_interval(estimate, level, "percentile", why)
    return _checked(
        estimate, replicate_interval(estimate, values, level, "percentile", math.nan), level
    )


def _checked(estimate: float, found: Interval, level: float) -> Interval:
    """A difference's interval as computed, or nan with the reason: undefined, or every
    replicate the same."""
    if math.isnan(estimate):
        why = "undefined in a slice compared (see its flag)"
        return nan_interval(estimate, level, "percentile", why)
    if found.low == found.high:
        why = f"every replicate gives {found.low:.4g}: the slices are too small to say"
        return nan_interval(estimate, level, "percentile", why)
    return found


def _p_values(estimates: Floats, values: Floats) -> Floats:
    """Two-sided bootstrap p-values of no difference, every column of values[B, S]
    (estimates[S]) at once: twice the smaller share of defined replicates on either side
    of 0, counting the estimate itself (Davison & Hinkley 1997); nan where the estimate
    or every replicate is undefined."""
    defined = ~np.isnan(values)
    count = defined.sum(axis=0)
    below = (np.count_nonzero(defined & (values <= 0), axis=0) + 1) / (count + 1)
    above = (np.count_nonzero(defined & (values >= 0), axis=0) + 1) / (count + 1)
    found = np.minimum(1.0, 2.0 * np.minimum(below, above))
    return np.where(np.isnan(estimates) | (count == 0), np.nan, found)


def differs(disparities: Disparities | None, s: int) -> str:
    """'differs' where the slice's informedness minus the reference's has an interval
    that excludes 0; 'reference' for the reference itself; nothing without disparities."""
    if disparities is None:
        return ""
    found = disparities.vs_reference["informedness"][s]
    reference = disparities.reference
    if reference is not None and keyed_key(reference) == keyed_key(disparities.slices.keys[s]):
        return "reference"
    if math.isnan(found.low) or found.low <= 0 <= found.high:
        return ""
    return "differs"
