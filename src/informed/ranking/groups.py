"""Tie groups as float64 arrays, and where a quota of positions falls among them.

A Ranking's groups, in descending order of score, occupy consecutive positions: group g
holds m1 = (positives + negatives) positions after the c positions of the groups above
it. The curves and summaries share these arrays (`Groups`, built once per Ranking from
its counts) and the location of any real quota 0 <= x <= n in them (`locate`), with the
tie correction of Arbel & Rokach (2006), eq. 5: each position of a group of m1 rows with
m2 positives holds t[k] = m2/m1, so every cumulative count is linear inside a group.

Nothing here knows the Ranking class: it works on plain arrays, and the Ranking builds
its `Groups` with `build_groups`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, NamedTuple, Protocol, overload

import numpy as np
from numpy.typing import NDArray

from informed._common import check_float_total
from informed.errors import InputError, InputTypeError
from informed.ranking.blocks import BLOCK, blocks

__all__ = [
    "CountArray",
    "FloatArray",
    "Grouped",
    "Groups",
    "Located",
    "Quotas",
    "as_result",
    "build_groups",
    "cumulative_positives",
    "cut_counts",
    "groups_of",
    "locate",
    "positives_between",
    "quota_array",
]

FloatArray = NDArray[np.float64]
CountArray = NDArray[np.int64] | NDArray[np.float64]
Quotas = Sequence[float] | NDArray[Any]


@dataclass(frozen=True, eq=False)
class Groups:
    """Per-group arrays (length U), cumulative counts (length U + 1) and totals of a Ranking.

    Cumulative sums are float64: exact for integer counts below 2**53 rows, so the curves
    share these arrays whatever the weight mode. Weights summing past the largest float
    are refused (`informed._common.check_float_total`).
    """

    positives: CountArray  # m2 (the Ranking's own array: int64 or float64)
    negatives: CountArray  # m1 - m2
    size: FloatArray  # m1
    positives_before: FloatArray  # P: positives before the group
    cumulative_positives: FloatArray  # length U + 1, from 0
    n: float
    n_positive: float
    n_negative: float
    # Every group is one unweighted row (integer counts, no tied scores): m1 = 1 and
    # m2 is 0 or 1, which the summaries' shortcuts use.
    unit: bool = False
    # (cumulative_negatives, cumulative_total) as built; None for integer counts of one
    # row per group, whose positions are 0, 1, 2, ...: each array is made on first use
    # only, and `total_at`, `ends_reached` and `negatives_at` need neither.
    built: tuple[FloatArray, FloatArray] | None = None

    @cached_property
    def cumulative_total(self) -> FloatArray:
        """Positions before each group and n: length U + 1, from 0; group ends are [1:]."""
        if self.built is not None:
            return self.built[1]
        return np.arange(self.size.size + 1, dtype=np.float64)

    @cached_property
    def cumulative_negatives(self) -> FloatArray:
        """Negatives before each group and n-: length U + 1, from 0."""
        if self.built is not None:
            return self.built[0]
        negatives = np.arange(self.size.size + 1, dtype=np.float64)
        negatives -= self.cumulative_positives
        return negatives

    @property
    def start(self) -> FloatArray:
        """c: the positions before each group (length U)."""
        return self.cumulative_total[:-1]

    def total_at(self, index: int | NDArray[np.intp]) -> FloatArray:
        """``cumulative_total[index]``, without making that array for one row per group."""
        if self.built is None:
            return np.asarray(index, dtype=np.float64)
        return np.asarray(self.cumulative_total[index])

    def negatives_at(self, index: int | NDArray[np.intp]) -> FloatArray:
        """``cumulative_negatives[index]``; for one row per group the position less the
        positives before it (exact), without making the whole array."""
        if self.built is None:
            return np.subtract(index, self.cumulative_positives[index])
        return np.asarray(self.cumulative_negatives[index])

    def ends_reached(self, x: FloatArray, side: Literal["left", "right"]) -> NDArray[np.intp]:
        """``np.searchsorted(cumulative_total[1:], x, side)`` for quotas 0 <= x <= n: the
        number of groups ending before x ("left") or at most at x ("right"). For one row
        per group the ends are 1, 2, ..., U: counted without a search."""
        if self.built is not None:
            return np.searchsorted(self.cumulative_total[1:], x, side=side)
        reached = np.ceil(x) - 1.0 if side == "left" else np.floor(x)
        return np.clip(reached, 0, self.size.size).astype(np.intp)

    @cached_property
    def found(self) -> dict[str, float]:
        """Summaries already computed of these groups, by name, for the next to ask: the
        AUC, which PEM of fractional weights (2 AUC - 1) and DeLong's interval read too."""
        return {}

    @cached_property
    def running_positives_sum(self) -> int:
        """P_1 + ... + P_U, the running count of positives summed over every group end:
        the summaries that read the positions of the positives share it
        (`informed.ranking.sums.positions_of_positives`); exact under `exact_integers`."""
        return int(np.sum(self.cumulative_positives[1:]))

    @cached_property
    def exact_integers(self) -> bool:
        """Whether sums of products of two counts or positions are exact in float64:
        whole counts (integers, or integer-valued weights, which must give exactly the
        results of repeated rows) with 2 (n + 1)**2 below 2**53."""
        if not self.n + 1.0 < _FLOAT_EXACT_ROOT:  # 2 (n + 1)**2 < 2**53
            return False
        if self.positives.dtype.kind != "f":
            return True
        return all(np.array_equal(np.floor(c), c) for c in (self.positives, self.negatives))


# 2 (n + 1)**2 is below 2**53 (integers below which are exact in float64, whatever
# order they are summed in) for n + 1 below 2**26.
_FLOAT_EXACT_ROOT = float(1 << 26)


def build_groups(
    positives: CountArray, negatives: CountArray, n_negative: int | None = None
) -> Groups:
    """The float64 group arrays of the counts per group (descending order of score).

    Integer counts are summed in int64 (exact, and faster than a float64 running sum)
    and converted once; groups of one unweighted row each (no ties) need no sum of sizes
    at all: their positions are 0, 1, 2, ... and every size is 1 (a read-only view).
    `n_negative`: the sum of integer `negatives`, when known (not read again).

    >>> groups = build_groups(np.array([1, 0, 2]), np.array([1, 3, 0]))
    >>> groups.size.tolist(), groups.start.tolist(), groups.n_positive, groups.unit
    ([2.0, 3.0, 2.0], [0.0, 2.0, 5.0], 3.0, False)
    """
    groups = positives.size
    cumulative_positives = np.empty(groups + 1)
    if positives.dtype.kind != "f" and negatives.dtype.kind != "f":
        n_positive = _running_sum(positives, cumulative_positives)
        if n_negative is None:
            n_negative = int(np.sum(negatives))
        if n_positive + n_negative == groups:  # every group holds one row
            return Groups(
                positives=positives,
                negatives=negatives,
                size=np.broadcast_to(np.float64(1.0), (groups,)),  # read-only, never allocated
                positives_before=cumulative_positives[:-1],
                cumulative_positives=cumulative_positives,
                n=float(groups),
                n_positive=float(n_positive),
                n_negative=float(n_negative),
                unit=True,
            )
        cumulative_negatives = np.empty(groups + 1)
        _running_sum(negatives, cumulative_negatives)
        total = cumulative_positives + cumulative_negatives
        return _groups(
            positives,
            negatives,
            np.diff(total),
            total,
            cumulative_positives,
            cumulative_negatives,
            unit=False,
        )
    cumulative_positives[0] = 0.0
    cumulative_negatives = np.zeros(groups + 1)
    with np.errstate(over="ignore"):  # an inf total is refused below
        np.cumsum(positives, dtype=np.float64, out=cumulative_positives[1:])
        np.cumsum(negatives, dtype=np.float64, out=cumulative_negatives[1:])
        total = cumulative_positives + cumulative_negatives
    if not np.isfinite(total[-1]):  # refused, not an inf n that makes every summary nan
        check_float_total(np.concatenate([positives, negatives]).astype(np.float64))
    size = np.diff(total)
    # Weights of 1 on rows of distinct scores are the unweighted rows: the same shortcuts,
    # so the summaries equal those of the rows unweighted bit for bit.
    unit = (
        total[-1] == groups
        and bool(np.all(size == 1.0))
        and bool(np.all((positives == 0.0) | (positives == 1.0)))
    )
    return _groups(
        positives,
        negatives,
        size,
        total,
        cumulative_positives,
        cumulative_negatives,
        unit=unit,
    )


def _running_sum(counts: CountArray, out: FloatArray) -> int:
    """out = 0 followed by the running sum of integer `counts` (exact in int64, each value
    converted once), summed block by block in a cache-sized buffer; returns the total."""
    out[0] = 0.0
    buffer = np.empty(min(BLOCK, counts.size), dtype=np.int64)
    total = 0
    for low, high in blocks(counts.size):
        part = np.cumsum(counts[low:high], out=buffer[: high - low])
        part += total
        out[low + 1 : high + 1] = part
        total = int(part[-1])
    return total


def _groups(
    positives: CountArray,
    negatives: CountArray,
    size: FloatArray,
    total: FloatArray,
    cumulative_positives: FloatArray,
    cumulative_negatives: FloatArray,
    *,
    unit: bool,
) -> Groups:
    return Groups(
        positives=positives,
        negatives=negatives,
        size=size,
        positives_before=cumulative_positives[:-1],
        cumulative_positives=cumulative_positives,
        n=float(total[-1]),
        n_positive=float(cumulative_positives[-1]),
        n_negative=float(cumulative_negatives[-1]),
        unit=unit,
        built=(cumulative_negatives, total),
    )


def quota_array(quota: float | Quotas, n: int | float) -> tuple[FloatArray, bool]:
    """Quotas as a float64 array, each checked to lie in [0, n]; and whether a scalar came."""
    if isinstance(quota, str | bytes):
        msg = f"`quota` must be a number of instances or an array of them; got {quota!r}."
        raise InputTypeError(msg)
    try:
        values = np.asarray(quota, dtype=np.float64)
    except (TypeError, ValueError) as error:
        msg = f"`quota` must be a number of instances or an array of them; got {quota!r}."
        raise InputTypeError(msg) from error
    bad = ~((values >= 0) & (values <= float(n)))
    if bad.any():
        value = float(values[bad].flat[0])
        msg = f"`quota` must lie between 0 and n = {float(n):g}; got {value:g}."
        raise InputError(msg)
    return values, values.ndim == 0


@overload
def as_result(values: FloatArray, scalar: Literal[True]) -> float: ...
@overload
def as_result(values: FloatArray, scalar: bool) -> float | FloatArray: ...
def as_result(values: FloatArray, scalar: bool) -> float | FloatArray:
    """A float when the caller passed one value, else the array."""
    return float(values) if scalar else values


class Located(NamedTuple):
    """Where quotas x fall: group index g (clipped), c = start of g, q = x - c in [0, m1]."""

    group: NDArray[np.intp]
    start: FloatArray
    inside: FloatArray


def locate(groups: Groups, x: FloatArray) -> Located:
    """The group each quota falls in, its start, and how far into it the quota reaches."""
    group = np.minimum(groups.ends_reached(x, "left"), max(groups.size.size - 1, 0))
    start = groups.total_at(group)
    return Located(group, start, x - start)


def cumulative_positives(groups: Groups, x: FloatArray) -> FloatArray:
    """C(x) = sum_{k<=x} t[k]: positives before the group plus its pro-rata share."""
    if groups.size.size == 0:
        return np.zeros_like(x)
    where = locate(groups, x)
    share = where.inside / groups.size[where.group]
    return groups.positives_before[where.group] + groups.positives[where.group] * share


def positives_between(groups: Groups, low: FloatArray, high: FloatArray) -> FloatArray:
    """sum_{low < k <= high} t[k], summed part by part (not as a difference of C)."""
    if groups.size.size == 0:
        return np.zeros_like(high)
    first = locate(groups, low)
    last = locate(groups, high)
    positives, size = groups.positives, groups.size
    head = positives[first.group] * (groups.total_at(first.group + 1) - low) / size[first.group]
    middle = groups.cumulative_positives[last.group] - groups.cumulative_positives[first.group + 1]
    tail = positives[last.group] * last.inside / size[last.group]
    within = positives[last.group] * (high - low) / size[last.group]
    return np.where(first.group == last.group, within, head + middle + tail)


class Grouped(Protocol):
    """What holds its group arrays: a Ranking (`informed.ranking.ranking`)."""

    @property
    def _groups(self) -> Groups: ...


def groups_of(ranking: Grouped) -> Groups:
    """The float64 group arrays the curves and summaries share (built once per Ranking)."""
    return ranking._groups


def cut_counts(groups: Groups) -> FloatArray:
    """The 2x2 counts [[tp, fp], [fn, tn]] at every cut k = 0..U: shape (U + 1, 2, 2).

    >>> from informed.ranking.groups import build_groups
    >>> cut_counts(build_groups(np.array([1, 0]), np.array([0, 1])))[:, 0].tolist()
    [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]
    """
    tp = groups.cumulative_positives
    fp = groups.cumulative_negatives
    out = np.empty((tp.size, 2, 2))
    out[:, 0, 0] = tp
    out[:, 0, 1] = fp
    out[:, 1, 0] = groups.n_positive - tp
    out[:, 1, 1] = groups.n_negative - fp
    return out
