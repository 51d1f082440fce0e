"""The search: every conjunction of `column = value` up to `depth`, counted level by
level, tested against the rest of the rows with simultaneous intervals, reported
without redundancy.

The levels (`informed.disparity.counting`) give each adequate slice's summary; its gap
and interval come from `informed.disparity.gaps`. Then:

1. a slice is a candidate where its simultaneous interval excludes 0 on the side of a
   positive gap (the model less informed there than on the rest);
2. candidates are taken by depth, shallowest first; one that lies inside a slice
   already reported (its conditions include that slice's) is reported only where it is
   significantly less informed than the rest of that slice's rows (its `within`
   interval, from the same Bonferroni family, excludes 0): a more specific cause;
3. the slices reported are ranked by the lower bound of their gap's interval, and
   overlapping ones are grouped under the condition they share (the one most of them
   share).

A slice that differs from the rest only in prevalence (the same TPR and FPR) has a gap
of 0 in informedness: it is reported no more often than the search's error rate allows,
however different its error rate.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from informed.disparity.columns import SearchColumn
from informed.disparity.counting import Counted, key_codes
from informed.disparity.gaps import (
    AUC_METHOD,
    TABLE_METHOD,
    critical_value,
    ranking_gap,
    table_gaps,
)
from informed.disparity.result import Condition, FoundSlice, LevelFigures, SliceSearch
from informed.inference.auc_differences import auc_differences
from informed.inference.interval import Interval
from informed.measures import MARGIN_REASONS, MEASURES
from informed.ranking import Ranking
from informed.slices.slices import Slices

__all__ = ["Counter", "Searched", "run_search"]

Floats = NDArray[np.float64]
Progress = Callable[[int, int, int], None]


class Counter(Protocol):
    """Counts one combination of columns: the slices whose every parent is adequate
    (`parents` maps each parent combination to its adequate slices' crossed keys)."""

    def __call__(
        self, combination: tuple[int, ...], parents: dict[tuple[int, ...], NDArray[np.int64]]
    ) -> Counted: ...


@dataclass(frozen=True)
class Searched:
    """What the search needs besides the counts: the columns, the overall summary, the
    positive label's position among the M labels (None: multiclass)."""

    columns: list[SearchColumn]
    overall: NDArray[np.int64] | None
    index: int | None
    overall_ranking: Ranking | None
    positive: Any
    measure: str = "informedness"
    classes: tuple[Any, ...] = ()


@dataclass
class _Tested:
    """The tested slices of one combination: keys, summaries, gaps, intervals."""

    counted: Counted
    at: NDArray[np.intp]  # positions of the tested slices in `counted`
    n: NDArray[np.int64]
    positives: Floats
    negatives: Floats
    value: Floats
    rest: Floats
    gap: Floats
    centre: Floats
    se: Floats
    codes: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))


def _class_counts(counted: Counted, searched: Searched) -> tuple[Floats, Floats, Floats]:
    """(rows, positives, negatives, smallest class) of each slice: with scores its
    Ranking's classes; with a table the positive column (multiclass: the rarest class
    of those in the data, for positives, and nan negatives)."""
    if counted.rankings is not None:
        pos = np.array([float(np.sum(r.positives)) for r in counted.rankings])
        neg = np.array([float(np.sum(r.negatives)) for r in counted.rankings])
        return pos + neg, pos, neg
    assert counted.counts is not None
    assert searched.overall is not None
    real = counted.counts.sum(axis=1).astype(np.float64)  # [S, M] actual classes
    n = real.sum(axis=1)
    if searched.index is not None:
        pos = real[:, searched.index]
        return n, pos, n - pos
    present = searched.overall.sum(axis=0) > 0
    smallest = real[:, present].min(axis=1) if present.any() else np.zeros(n.size)
    return n, smallest, np.full(n.size, np.nan)


def _adequate(counted: Counted, searched: Searched, min_size: int) -> NDArray[np.bool_]:
    """The slices whose every margin the measure divides by holds `min_size` cases: the
    margins its registry entry `requires` (informedness the real positives and
    negatives, markedness the predicted ones, Powers 2011); with more labels, the
    margin of each label the whole table has ("+R" real classes, "+P" predicted
    labels); with scores (AUC) the real positives and negatives. Each is a count of
    rows, so a child has at most its parent's: a slice not adequate has no adequate
    child, and pruning it loses none."""
    if counted.rankings is not None:
        _, pos, neg = _class_counts(counted, searched)
        return np.asarray((pos >= min_size) & (neg >= min_size))
    assert counted.counts is not None
    assert searched.overall is not None
    counts = counted.counts.astype(np.float64)
    requires = MEASURES[searched.measure].requires
    if searched.index is None:  # per label: its real class or its predicted label
        ok = np.ones(len(counted), dtype=bool)
        for key, axis in (("+R", 0), ("+P", 1)):
            if key in requires:
                present = searched.overall.sum(axis=axis) > 0
                margin = counts.sum(axis=axis + 1)[:, present]
                ok &= (margin >= min_size).all(axis=1) if present.any() else False
        return ok
    i = searched.index
    total = counts.sum(axis=(1, 2))
    tp = counts[:, i, i]
    fp = counts[:, i, :].sum(axis=1) - tp  # rows predicted, columns actual
    fn = counts[:, :, i].sum(axis=1) - tp
    tn = total - tp - fp - fn
    ok = np.ones(len(counted), dtype=bool)
    for key in requires:
        margin, _ = MARGIN_REASONS[key]
        ok &= margin(tp, fp, fn, tn) >= min_size
    return ok


def _gaps(
    counted: Counted, at: NDArray[np.intp], searched: Searched, measure: str
) -> tuple[Floats, Floats, Floats, Floats, Floats]:
    """(value, rest, gap, adjusted gap, standard error) of the tested slices `at`."""
    if counted.counts is not None:
        assert searched.overall is not None
        mine = counted.counts[at]
        found = table_gaps(mine, searched.overall[None] - mine, searched.index, measure)
        with np.errstate(invalid="ignore"):
            se = np.sqrt(found.variance)
        return found.value, found.rest, found.gap, found.centre, se
    assert counted.rankings is not None
    assert searched.overall_ranking is not None
    rankings = tuple(counted.rankings[i] for i in at.tolist())
    if not rankings:
        empty = np.zeros(0)
        return empty, empty, empty, empty, empty
    sliced = Slices(
        ("search",),
        tuple((i,) for i in range(len(rankings))),
        np.zeros(len(rankings), dtype=np.int64),
        None,
        None,
        searched.positive,
        rankings,
        searched.overall_ranking,
    )
    differences = auc_differences(sliced, reference=0).vs_rest
    value = np.array([_auc(r) for r in rankings])
    diff = np.array([x.estimate for x in differences])  # the slice's AUC - the rest's
    se = np.array([x.standard_error if x.reason is None else math.nan for x in differences])
    with np.errstate(invalid="ignore"):
        return value, value - diff, -diff, -diff, se


def _auc(ranking: Ranking) -> float:
    return float(ranking.auc()) if ranking.n_positive and ranking.n_negative else math.nan


def run_search(
    searched: Searched,
    counter: Counter,
    *,
    depth: int,
    min_size: int,
    level: float,
    bins: int,
    rows: int,
    progress: Progress | None = None,
    prepare: Callable[[list[tuple[int, ...]]], None] | None = None,
) -> SliceSearch:
    """Count, test and report, level by level (see the module's docstring); `prepare`,
    when given, is told each level's combinations before the counter is called for
    them (an engine counts them all in one query)."""
    columns = searched.columns
    measure = searched.measure
    tested: dict[tuple[int, ...], _Tested] = {}
    adequate: dict[tuple[int, ...], NDArray[np.int64]] = {}
    figures: list[tuple[int, int, int, int]] = []
    for L in range(1, min(depth, len(columns)) + 1):
        combinations = [
            c
            for c in itertools.combinations(range(len(columns)), L)
            if L == 1 or all(adequate.get(c[:i] + c[i + 1 :], _NONE).size for i in range(L))
        ]
        counted_n = tested_n = pruned_n = 0
        if prepare is not None and combinations:
            prepare(combinations)
        for done, combination in enumerate(combinations):
            if progress is not None:
                progress(L, done, len(combinations))
            counted = counter(combination, adequate)
            n, pos, neg = _class_counts(counted, searched)
            ok = _adequate(counted, searched, min_size)
            at = np.flatnonzero(ok).astype(np.intp)
            codes = key_codes(columns, combination, counted.keys[at]) if at.size else _NONE
            adequate[combination] = np.sort(codes)
            counted_n += len(counted)
            tested_n += int(at.size)
            pruned_n += len(counted) - int(at.size)
            if at.size:
                value, rest, gap, centre, se = _gaps(counted, at, searched, measure)
                tested[combination] = _Tested(
                    counted, at, n[at].astype(np.int64), pos[at], neg[at],
                    value, rest, gap, centre, se, codes,
                )  # fmt: skip
        figures.append((L, counted_n, tested_n, pruned_n))
    total_tested = sum(t.at.size for t in tested.values())
    hypotheses = total_tested + _nested_pairs(columns, tested, adequate)
    z = critical_value(level, hypotheses)
    method = AUC_METHOD if searched.overall_ranking is not None else TABLE_METHOD
    bound = 1.0 if method == AUC_METHOD else 2.0
    found, untestable = _report(searched, tested, z, level, method, bound, measure)
    per_depth = [sum(1 for f in found if len(f.slice) == L) for L, *_ in figures]
    overall = _overall_value(searched, measure)
    return SliceSearch(
        found=tuple(found),
        columns=tuple(c.name for c in columns),
        cuts={c.name: c.edges for c in columns if c.edges is not None},
        depth=depth,
        min_size=min_size,
        bins=bins,
        measure=measure,
        level=level,
        method=method,
        tested=total_tested,
        pruned=sum(f[3] for f in figures),
        hypotheses=hypotheses,
        levels=tuple(
            LevelFigures(L, c, t, p, k) for (L, c, t, p), k in zip(figures, per_depth, strict=True)
        ),
        overall=overall,
        rows=rows,
        positive=searched.positive,
        untestable=untestable,
        classes=searched.classes,
    )


_NONE = np.zeros(0, dtype=np.int64)


def _overall_value(searched: Searched, measure: str) -> float:
    if searched.overall_ranking is not None:
        r = searched.overall_ranking
        return float(r.auc()) if r.n_positive and r.n_negative else math.nan
    assert searched.overall is not None
    whole = searched.overall[None]
    return float(table_gaps(whole, whole, searched.index, measure).value[0])


def _subsets(combination: tuple[int, ...]) -> list[tuple[tuple[int, ...], list[int]]]:
    """Every proper, non-empty sub-combination, with the positions it keeps."""
    out = []
    for size in range(1, len(combination)):
        for kept in itertools.combinations(range(len(combination)), size):
            out.append((tuple(combination[i] for i in kept), list(kept)))
    return out


def _nested_pairs(
    columns: Sequence[SearchColumn],
    tested: dict[tuple[int, ...], _Tested],
    adequate: dict[tuple[int, ...], NDArray[np.int64]],
) -> int:
    """The (tested slice, tested slice enclosing it) pairs: the nested hypotheses."""
    pairs = 0
    for combination, found in tested.items():
        keys = found.counted.keys[found.at]
        for sub, kept in _subsets(combination):
            codes = adequate.get(sub, _NONE)
            if not codes.size:
                continue
            mine = key_codes(columns, sub, keys[:, kept])
            at = np.minimum(np.searchsorted(codes, mine), codes.size - 1)
            pairs += int(np.count_nonzero(codes[at] == mine))
    return pairs


def _interval(centre: float, se: float, estimate: float, z: float, level: float, method: str,
              bound: float) -> Interval:  # fmt: skip
    if not math.isfinite(estimate):  # the pseudo-counts' centre is defined; the gap is not
        why = "the measure is undefined in the slice or in the rest (no gap to bound)"
        return Interval(estimate, math.nan, math.nan, level, method, reason=why)
    if not math.isfinite(se) or not math.isfinite(centre):
        why = "no variance can be estimated (a class too small, or scores tied or separated)"
        return Interval(estimate, math.nan, math.nan, level, method, reason=why)
    low = max(centre - z * se, -bound)
    high = min(centre + z * se, bound)
    return Interval(estimate, low, high, level, method, standard_error=se)


@dataclass
class _Candidate:
    combination: tuple[int, ...]
    position: int  # among the tested slices of its combination
    conditions: tuple[Condition, ...]
    found: FoundSlice


def _report(
    searched: Searched,
    tested: dict[tuple[int, ...], _Tested],
    z: float,
    level: float,
    method: str,
    bound: float,
    measure: str,
) -> tuple[list[FoundSlice], int]:
    columns = searched.columns
    candidates: list[_Candidate] = []
    untestable = 0
    for combination, t in tested.items():
        for i in range(t.at.size):
            interval = _interval(
                float(t.centre[i]), float(t.se[i]), float(t.gap[i]), z, level, method, bound
            )
            if math.isnan(interval.low):
                untestable += 1
                continue
            if not interval.low > 0:
                continue
            key = t.counted.keys[t.at[i]]
            conditions = tuple(
                (columns[j].name, columns[j].values[int(k)])
                for j, k in zip(combination, key, strict=True)
            )
            multiclass = searched.index is None and searched.overall_ranking is None
            found = FoundSlice(
                conditions,
                int(t.n[i]),
                None if multiclass else int(t.positives[i]),
                None if multiclass else int(t.negatives[i]),
                float(t.value[i]),
                float(t.rest[i]),
                float(t.gap[i]),
                interval,
            )
            candidates.append(_Candidate(combination, i, conditions, found))
    candidates.sort(key=lambda c: len(c.combination))
    reported: list[_Candidate] = []
    for candidate in candidates:
        enclosing = [r for r in reported if set(r.conditions) < set(candidate.conditions)]
        within: Interval | None = None
        keep = True
        for outer in enclosing:
            inside = _within(searched, tested, candidate, outer, z, level, method, bound)
            if not inside.low > 0:
                keep = False
                break
            if within is None or inside.low < within.low:
                within = inside
        if keep:
            candidate.found = _replace(candidate.found, within=within)
            reported.append(candidate)
    reported.sort(key=lambda c: -c.found.interval.low)
    return _grouped([c.found for c in reported]), untestable


def _replace(found: FoundSlice, **changes: Any) -> FoundSlice:
    from dataclasses import replace

    return replace(found, **changes)


def _within(
    searched: Searched,
    tested: dict[tuple[int, ...], _Tested],
    inner: _Candidate,
    outer: _Candidate,
    z: float,
    level: float,
    method: str,
    bound: float,
) -> Interval:
    """The rest of `outer`'s rows less `inner`'s value, with its simultaneous interval."""
    a = tested[inner.combination]
    b = tested[outer.combination]
    i, j = int(a.at[inner.position]), int(b.at[outer.position])
    if a.counted.counts is not None and b.counted.counts is not None:
        mine = a.counted.counts[i : i + 1]
        rest = b.counted.counts[j : j + 1] - mine
        found = table_gaps(mine, rest, searched.index, searched.measure)
        with np.errstate(invalid="ignore"):
            se = float(np.sqrt(found.variance[0]))
        return _interval(float(found.centre[0]), se, float(found.gap[0]), z, level, method, bound)
    assert a.counted.rankings is not None
    assert b.counted.rankings is not None
    _, _, gap, variance = ranking_gap(a.counted.rankings[i], b.counted.rankings[j])
    se = math.sqrt(variance) if variance > 0 else math.nan
    return _interval(gap, se, gap, z, level, method, bound)


def _grouped(found: list[FoundSlice]) -> list[FoundSlice]:
    """Slices that overlap grouped under the condition they share: each slice joins the
    group of the condition shared by the most slices found (ties: the condition met
    first in the ranking); a group of one slice is no group."""
    shared: dict[Condition, int] = {}
    first: dict[Condition, int] = {}
    for rank, f in enumerate(found):
        for condition in f.slice:
            shared[condition] = shared.get(condition, 0) + 1
            first.setdefault(condition, rank)
    chosen = [min(f.slice, key=lambda c: (-shared[c], first[c])) for f in found]
    members = {c: chosen.count(c) for c in set(chosen)}
    return [
        _replace(f, group=(c,) if members[c] > 1 else None)
        for f, c in zip(found, chosen, strict=True)
    ]
