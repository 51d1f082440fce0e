"""Every registry measure of every slice in one vectorised call, with honest small slices.

The slices' square tables are one array with a leading slice axis, so every measure of
every slice is one call of `informed.table.evaluation.measure_values`, as bootstrap
replicates are. A label absent from a slice (never predicted and never occurring there)
is left out of that slice's averages, so each slice's values equal those of
`evaluate(Table.from_labels(...))` on its rows alone.

Each value carries its own denominator (recall: the slice's real positives; precision:
its +P predictions; a multiclass average: the slice's cases), and a slice whose
denominator is below `min_count` (or whose value is undefined) is flagged with the
reason, so a report never shows a bare number for a two-row slice.

>>> from informed.slices import Slices
>>> s = Slices.from_labels(by=["a"] * 4 + ["b"] * 2, actual=[1, 1, 0, 0, 1, 1],
...                        predicted=[1, 0, 0, 0, 1, 1])
>>> result = evaluate_slices(s, positive=1, min_count=3)
>>> result.values["informedness"].tolist()
[0.5, nan]
>>> result.flags[1]
'informedness undefined: no real negatives (-R is empty)'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Label, as_label, keyed
from informed.errors import InputError
from informed.measures import (
    MEANS,
    MEASURES,
    Average,
    ByMeasure,
    SignedGeometric,
    clip,
    margins,
    measure_name,
    one_vs_rest_counts,
    undefined_reasons,
)
from informed.measures.measure import MARGIN_REASONS
from informed.slices.slices import Slices
from informed.table.evaluation import evaluate, measure_values

__all__ = [
    "DENOMINATOR_NAMES",
    "SHOWN_SLICES",
    "SliceEvaluation",
    "evaluate_slices",
    "label_position",
    "present_labels",
    "shown_slices",
    "slice_values",
]

Floats = NDArray[np.float64]

DENOMINATOR_NAMES = {
    "N": "cases",
    "+R": "real positives",
    "-R": "real negatives",
    "+P": "+P predictions",
    "-P": "-P predictions",
    "tp+fp+fn": "positive predictions or cases",
    "fp+fn+tn": "negative predictions or cases",
}
"""What each margin a measure requires counts, as a report names its denominator."""

SHOWN_SLICES = 30
"""At most this many slices are listed by a report (the largest, then the extremes)."""


@dataclass(frozen=True, eq=False)
class SliceEvaluation:
    """Every measure of every slice.

    Attributes
    ----------
    slices : Slices
    positive : label or None
        With a positive label, each slice's measures are those of its one-vs-rest view.
    labels : tuple
        The labels of `per_label`'s last axis (the union over slices).
    n : ndarray [S]
        Each slice's total count (or weight).
    values : dict
        Registry name -> value of each slice [S] (nan where undefined).
    per_label : dict
        Registry name -> [S, L] one-vs-rest values; nan for a label absent from a slice.
    denominators : dict
        Registry name -> [S]: the count the value rests on (its smallest required margin;
        the slice's cases for a multiclass average).
    denominator_kinds : dict
        Registry name -> [S]: the margin each denominator is ("+R", "-R", "N", ...; the
        smallest of those the measure requires), named by `denominator_name`.
    min_count : float
        A value whose denominator is below it is flagged as too small.
    flags : list
        Per slice: why it is too small or undefined to say anything, or None.
    """

    slices: Slices
    positive: Label | None
    labels: tuple[Label, ...]
    n: Floats
    values: dict[str, Floats]
    per_label: dict[str, Floats] = field(repr=False)
    denominators: dict[str, Floats] = field(repr=False)
    denominator_kinds: dict[str, NDArray[np.str_]] = field(repr=False)
    min_count: float = 30.0
    flags: list[str | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        # any name of a measure finds its values: values["tpr"], denominators["F1"]
        for name in ("values", "per_label", "denominators", "denominator_kinds"):
            object.__setattr__(self, name, ByMeasure(getattr(self, name)))

    def flag(self, name: str, s: int) -> str | None:
        """Why measure `name` (any of its names) of slice `s` says nothing (undefined or
        too small), or None."""
        name = measure_name(name)
        value = float(self.values[name][s])
        if math.isnan(value):
            return f"{MEASURES[name].title.lower()} undefined: {self.reason(name, s)}"
        count = float(self.denominators[name][s])
        if count < self.min_count:
            what = self.denominator_name(name, s)
            where = self.slices.name(self.slices.keys[s])
            return f"{name}: {_count(count)} {what} in slice {where!r}"
        return None

    def row_flag(self, s: int) -> str:
        """The slice's flag as a table row shows it: without the slice's name."""
        flag = self.flags[s]
        if flag is None:
            return ""
        return flag.replace(f" in slice {self.slices.name(self.slices.keys[s])!r}", "")

    def denominator_name(self, name: str, s: int) -> str:
        """What the denominator of measure `name` in slice `s` counts ("real positives")."""
        return DENOMINATOR_NAMES[str(self.denominator_kinds[name][s])]

    def reason(self, name: str, s: int) -> str:
        """Why measure `name` (any of its names) is nan in slice `s` (the margin that
        vanished)."""
        name = measure_name(name)
        if self.positive is not None:
            index = _position(self.labels, self.positive)
            if index is None:
                return "the positive label occurs in no slice"
            measure = MEASURES[name]
            ovr = _positive_view(self, s, index)
            codes, texts = undefined_reasons(measure, ovr)
            code = int(codes.reshape(-1)[0])
            return texts[code] if code >= 0 else "defined"
        if self.n[s] == 0:
            return "no data (N = 0)"
        found = evaluate(self.slices.table(self.slices.keys[s])).reasons
        return found.get(name, "undefined for this slice")

    def bias_diagnosis(self, s: int) -> str:
        """The label bias of slice `s` (Powers 2003): the positive label's pP / pR, or the
        most over- or under-predicted label's."""
        ratios = self.per_label["bias_ratio"][s]
        if self.positive is not None:
            index = _position(self.labels, self.positive)
            return _bias_text(float(ratios[index]) if index is not None else math.nan, None)
        finite = np.isfinite(ratios) & (ratios > 0)
        if not finite.any():
            return "no label both predicted and occurring"
        distance = np.where(finite, np.abs(np.log(np.where(finite, ratios, 1.0))), -1.0)
        k = int(np.argmax(distance))
        return _bias_text(float(ratios[k]), self.labels[k])


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


def _bias_text(ratio: float, label: Label | None) -> str:
    who = "" if label is None else f"{label!r} "
    if math.isnan(ratio):
        return f"{who}never occurs".strip()
    if math.isinf(ratio):
        return f"{who}predicted, never occurs"
    if ratio == 0:
        return f"{who}never predicted"
    if ratio > 1:
        return f"{who}over-predicted ×{ratio:.2f}"
    if ratio < 1:
        return f"{who}under-predicted ×{ratio:.2f}"
    return f"{who}predicted as often as it occurs"


def label_position(labels: tuple[Label, ...], label: Label) -> int | None:
    """Where `label` is among `labels` (True is not 1), or None."""
    return _position(labels, label)


def _position(labels: tuple[Label, ...], label: Label) -> int | None:
    wanted = keyed(label)
    return next((i for i, x in enumerate(labels) if keyed(x) == wanted), None)


def _positive_view(result: SliceEvaluation, s: int, index: int) -> NDArray[np.float64]:
    start = s
    labels, square = result.slices.square_cells(start, start + 1)
    ovr = one_vs_rest_counts(square)
    at = _position(labels, result.labels[index])
    assert at is not None
    return np.asarray(ovr[0, at], dtype=np.float64)


def present_labels(square: Any) -> NDArray[np.bool_]:
    """[..., L]: whether each label is predicted or occurs in each table of `square`."""
    m = margins(square)
    return np.asarray((m.rows > 0) | (m.cols > 0))


def slice_values(
    square: Any,
    names: list[str],
    index: int | None,
    alpha: float,
    undefined: str,
    present: NDArray[np.bool_] | None = None,
    labelled: bool = True,
) -> tuple[dict[str, Floats], dict[str, Floats]]:
    """`measure_values` of square tables [..., S, L, L] whose absent labels (no row, no
    column in a slice; or not in `present[S, L]`, the labels of the slices resampled)
    are left out of that slice's averages and per-label values; with `index` and not
    `labelled`, no per-label values (`measure_values`)."""
    overall, per_label = measure_values(square, names, index, alpha, undefined, labelled)
    if index is not None and not labelled:
        return {name: np.asarray(overall[name], dtype=np.float64) for name in names}, {}
    if present is None:
        present = present_labels(square)
    out: dict[str, Floats] = {}
    for name in names:
        rule = MEASURES[name].overall
        values = np.asarray(overall[name], dtype=np.float64)
        if index is None and isinstance(rule, Average) and rule.weights == "macro":
            with np.errstate(divide="ignore", invalid="ignore"):
                mean = MEANS[rule.mean](per_label[rule.of], present.astype(np.float64), undefined)
            values = clip(mean, *rule.bounds) if rule.bounds is not None else mean
        elif index is None and isinstance(rule, SignedGeometric):
            assert rule.first.weights != "macro"
            assert rule.second.weights != "macro"
        out[name] = values
        per_label[name] = np.where(present, per_label[name], np.nan)
    return out, per_label


def evaluate_slices(
    slices: Slices,
    *,
    positive: Any = None,
    alpha: float = 0.5,
    undefined: str = "propagate",
    min_count: float = 30.0,
    headline: str = "informedness",
) -> SliceEvaluation:
    """Every registry measure of every slice, with denominators and small-slice flags.

    Parameters
    ----------
    slices : Slices
        Sliced summaries with a Table (`predicted` given).
    positive : label, optional
        Evaluate each slice's one-vs-rest view of this label (as `evaluate` does).
    alpha, undefined
        As in `informed.evaluate`.
    min_count : float
        A measure resting on fewer cases than this (its own denominator) is flagged.
    headline : str
        The measure whose flag is the slice's flag.
    """
    if slices.cells is None:
        msg = "evaluate_slices needs a Table per slice: build the slices with `predicted`."
        raise InputError(msg)
    names = list(MEASURES)
    labels: tuple[Label, ...] = ()
    index: int | None = None
    values: dict[str, list[Floats]] = {name: [] for name in names}
    per: dict[str, list[Floats]] = {name: [] for name in names}
    denominators: dict[str, list[Floats]] = {name: [] for name in names}
    kinds: dict[str, list[NDArray[np.str_]]] = {name: [] for name in names}
    for start, stop in slices.batches():
        labels, square = slices.square_cells(start, stop)
        if positive is not None:
            index = _position(labels, as_label(positive))
            if index is None:
                msg = f"positive={positive!r} is not a label of the slices; labels: {list(labels)}."
                raise InputError(msg)
        found, labelled = slice_values(square, names, index, alpha, undefined)
        ovr = one_vs_rest_counts(square)
        total = margins(square).total
        for name in names:
            values[name].append(found[name])
            per[name].append(labelled[name])
            if index is None:
                denominators[name].append(np.asarray(total, dtype=np.float64))
                kinds[name].append(np.full(np.shape(total), "N"))
            else:
                tp, fp, fn, tn = (ovr[:, index, i, j] for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
                requires = MEASURES[name].requires or ("N",)
                stacked = np.stack(
                    [np.asarray(MARGIN_REASONS[key][0](tp, fp, fn, tn)) for key in requires]
                )
                which = np.argmin(stacked, axis=0)
                denominators[name].append(
                    np.take_along_axis(stacked, which[None], axis=0)[0].astype(np.float64)
                )
                kinds[name].append(np.asarray(requires)[which])

    if positive is not None and index is None:  # no slice, so no label to find it among
        msg = f"positive={positive!r} is not a label of the slices; labels: []."
        raise ValueError(msg)

    def joined_of(parts: list[Any]) -> Any:
        return np.concatenate(parts) if parts else np.zeros(0)

    joined = {name: joined_of(values[name]) for name in names}
    result = SliceEvaluation(
        slices=slices,
        positive=labels[index] if index is not None else None,
        labels=labels,
        n=slices.n,
        values=joined,
        per_label={name: joined_of(per[name]) for name in names},
        denominators={name: joined_of(denominators[name]) for name in names},
        denominator_kinds={name: joined_of(kinds[name]) for name in names},
        min_count=min_count,
    )
    result.flags.extend(result.flag(headline, s) for s in range(len(slices.keys)))
    return result


def shown_slices(
    evaluation: SliceEvaluation, limit: int = SHOWN_SLICES, order: str = "informedness"
) -> list[int]:
    """Positions of the slices a report lists: all when few; else the largest and the
    extremes of informedness; sorted by informedness (undefined last) or, for time
    (`order="key"`), by key."""
    S = len(evaluation.n)
    values = evaluation.values["informedness"]
    chosen: list[int]
    if limit >= S:
        chosen = list(range(S))
    else:
        by_size = np.argsort(-evaluation.n, kind="stable")[: limit // 2].tolist()
        defined = np.flatnonzero(~np.isnan(values))
        ordered = defined[np.argsort(values[defined], kind="stable")].tolist()
        tail = limit // 4
        chosen = list(dict.fromkeys([*by_size, *ordered[:tail], *ordered[-tail:]]))
    if order == "key":
        return sorted(chosen)
    return sorted(chosen, key=lambda s: (math.isnan(values[s]), -np.nan_to_num(values[s])))
