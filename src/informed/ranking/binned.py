"""Binned calibration of a Ranking of probabilities: the reliability table of scikit-learn's
`calibration_curve` and the expected calibration error, from the tie groups.

Binned calibration is here for comparison with the peers; the CORP curve
(`informed.ranking.calibration`) is preferred, since it needs no bins: the binned curve
and the ECE move with the number of bins and with where their edges fall (the ECE of
calibrated scores is not 0 in a finite sample and grows with the number of bins), and a
tie group is never split, so equal-mass bins hold equal mass only where the ties allow.

Bins are those of `sklearn.calibration.calibration_curve`: "uniform" cuts [0, 1] into
`bins` equal widths, "quantile" at the quantiles of the rows' scores (numpy's linear
rule, read from the Ranking's cumulative counts without a row); a score equal to an inner
edge falls in the bin below it. Empty bins are dropped.

References
----------
Naeini, M. P., Cooper, G. F. & Hauskrecht, M. (2015). Obtaining well calibrated
probabilities using Bayesian binning. Proceedings of AAAI 29:2901-2907.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from informed._common import json_floats
from informed.errors import InputError, InputTypeError
from informed.ranking.calibration import ascending, check_probabilities, dot
from informed.ranking.groups import FloatArray
from informed.ranking.pav import Cumulative
from informed.ranking.ranking import Ranking

__all__ = [
    "BINNINGS",
    "BinnedCalibration",
    "binned_calibration",
    "binned_of_groups",
    "check_bins",
    "quantiles_of_groups",
    "row_quantiles",
]

BINNINGS = {
    "uniform": "equal-width bins of [0, 1]",
    "quantile": "equal-mass bins, edges at the quantiles of the scores",
}
"""The binnings of `binned_calibration` (scikit-learn's `strategy`), and what each is."""

Binning = Literal["uniform", "quantile"]


@dataclass(frozen=True, eq=False)
class BinnedCalibration:
    """The reliability table of a binning and its expected calibration error.

    Attributes
    ----------
    strategy : str
        "uniform" or "quantile" (`BINNINGS`).
    edges : array
        The bins' `bins` + 1 edges.
    mean_score, observed, rows : array
        For each non-empty bin: the mean score (scikit-learn's `prob_pred`), the observed
        rate of positives (`prob_true`) and the (weighted) rows.
    expected_error : float
        ECE = sum over bins of rows/n * |observed - mean score|; NaN without rows.
    maximum_error : float
        MCE = the largest |observed - mean score| over the non-empty bins.
    """

    strategy: str
    edges: FloatArray
    mean_score: FloatArray
    observed: FloatArray
    rows: FloatArray
    expected_error: float
    maximum_error: float

    def to_dict(self) -> dict[str, object]:
        """The table and the errors as JSON."""
        return {
            "strategy": self.strategy,
            "bins": int(self.edges.size - 1),
            "expected_calibration_error": json_floats([self.expected_error])[0],
            "maximum_calibration_error": json_floats([self.maximum_error])[0],
            "edges": json_floats(self.edges),
            "mean_score": json_floats(self.mean_score),
            "observed": json_floats(self.observed),
            "rows": json_floats(self.rows),
        }


def _value_at(scores: FloatArray, ends: FloatArray, position: FloatArray) -> FloatArray:
    """The score at each 0-based row position of the rows sorted ascending."""
    index = np.searchsorted(ends, position, side="right")
    return scores[np.minimum(index, scores.size - 1)]


def _value_after(scores: FloatArray, after: FloatArray, position: FloatArray) -> FloatArray:
    """`_value_at` with the rows up to each group read off the rows after it (`after`,
    whole counts: `Cumulative`'s second), n - after[k + 1] at group k, by bisection (no
    array of the groups' size)."""
    n = after[0]
    found = [
        bisect.bisect_right(range(scores.size), p, key=lambda k: n - after[k + 1])
        for p in position.tolist()
    ]
    return scores[np.minimum(found, scores.size - 1)]


def row_quantiles(ranking: Ranking, probabilities: FloatArray) -> FloatArray:
    """`numpy.percentile(rows' scores, 100 * probabilities)` (the linear rule) without a
    row: positions read from the cumulative counts, numpy's own arithmetic replicated
    (for whole counts the very same floats). Weights count as repeated rows."""
    scores, _, rows = ascending(ranking)
    return quantiles_of_groups(scores, rows, probabilities)


def quantiles_of_groups(
    scores: FloatArray,
    rows: FloatArray,
    probabilities: FloatArray,
    cumulative: Cumulative | None = None,
) -> FloatArray:
    """`row_quantiles` of tie groups in ascending order of score (`ascending`); with
    `cumulative`, whole counts summed after each group, the rows up to each group are
    read off them (exact, so the same floats as summing the rows)."""
    if cumulative is None:
        ends = np.cumsum(rows)
        n = float(ends[-1])
    else:
        n = float(cumulative[1][0])
    q = np.true_divide(np.asarray(probabilities, dtype=np.float64) * 100, 100)
    virtual = (n - 1) * q  # numpy's virtual index of the linear rule
    previous = np.clip(np.floor(virtual), 0, n - 1)
    following = np.clip(previous + 1, 0, n - 1)
    gamma = virtual - previous
    if cumulative is None:
        below, above = _value_at(scores, ends, previous), _value_at(scores, ends, following)
    else:
        below, above = (_value_after(scores, cumulative[1], p) for p in (previous, following))
    difference = above - below
    values = below + difference * gamma
    upper = gamma >= 0.5
    values[upper] = (above - difference * (1 - gamma))[upper]
    return np.asarray(values)


def _after(scores: FloatArray, edges: FloatArray) -> NDArray[np.intp]:
    """`np.searchsorted(scores, edges, side="right")` (`scores` ascending); over a strided
    view (a Ranking's scores reversed), a bisection a value, as numpy copies it whole."""
    if scores.flags.c_contiguous:
        return np.searchsorted(scores, edges, side="right")
    # the scores as floats: compared as numpy compares them with float64 edges
    found = [bisect.bisect_right(scores, edge, key=float) for edge in edges.tolist()]
    return np.array(found, dtype=np.intp)


def check_bins(bins: int) -> None:
    """Refuse a number of bins that is not a whole number of at least 1."""
    if isinstance(bins, bool) or not isinstance(bins, int | np.integer):
        msg = f"`bins` must be a whole number of bins; got {bins!r}."
        raise InputTypeError(msg)
    if bins < 1:
        msg = f"`bins` must be at least 1; got {bins}."
        raise InputError(msg)


def binned_calibration(
    ranking: Ranking, bins: int = 10, strategy: Binning = "uniform"
) -> BinnedCalibration:
    """The binned reliability table and expected calibration error (ECE) of a Ranking of
    probabilities, with the bins of scikit-learn's `calibration_curve`.

    >>> r = Ranking.from_scores([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8], positive=1)
    >>> table = binned_calibration(r, bins=2)
    >>> table.observed.tolist(), table.mean_score.tolist(), round(table.expected_error, 12)
    ([0.0, 1.0], [0.2, 0.7], 0.25)
    """
    check_probabilities(ranking, "binned_calibration")
    check_bins(bins)
    if strategy not in BINNINGS:
        msg = f"`strategy` must be one of {sorted(BINNINGS)}; got {strategy!r}."
        raise InputError(msg)
    if ranking.n == 0:
        empty = np.empty(0)
        edges = np.linspace(0.0, 1.0, int(bins) + 1)
        return BinnedCalibration(strategy, edges, empty, empty, empty, math.nan, math.nan)
    return binned_of_groups(*ascending(ranking), float(ranking.n), int(bins), strategy)


def binned_of_groups(
    scores: FloatArray,
    positives: FloatArray,
    rows: FloatArray,
    n: float,
    bins: int,
    strategy: str,
    scored: FloatArray | None = None,
    cumulative: Cumulative | None = None,
) -> BinnedCalibration:
    """`binned_calibration` of tie groups in ascending order of score (`ascending`), with
    rows: the scores ascend, so each bin is a run of consecutive groups, summed in place.
    `scored` is rows * scores, when already computed; `cumulative`, whole counts summed
    after each group (`informed.ranking.pav.Cumulative`): each bin's rows and positives
    are read off them (exact), with no pass over the groups."""
    fractions = np.linspace(0.0, 1.0, bins + 1)
    edges = (
        fractions
        if strategy == "uniform"
        else quantiles_of_groups(scores, rows, fractions, cumulative)
    )
    # a score on an inner edge falls in the bin below: bin j holds edge_j < score <= edge_j+1
    cuts = _after(scores, edges[1:-1])
    starts = np.concatenate(([0], cuts)).astype(np.intp)
    kept = np.concatenate((cuts, [scores.size])) > starts
    first = starts[kept]
    if cumulative is None:
        total, hits = np.add.reduceat(rows, first), np.add.reduceat(positives, first)
    else:
        bounds = np.append(first, scores.size)
        after_positives, after_rows = cumulative[0][bounds], cumulative[1][bounds]
        total, hits = after_rows[:-1] - after_rows[1:], after_positives[:-1] - after_positives[1:]
    scored = np.add.reduceat(rows * scores if scored is None else scored, first)
    observed = hits / total
    mean_score = scored / total
    gaps = np.abs(observed - mean_score)
    expected = dot(total, gaps) / n
    return BinnedCalibration(
        strategy, edges, mean_score, observed, total, expected, float(gaps.max())
    )
