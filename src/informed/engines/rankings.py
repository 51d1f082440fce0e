"""Grouped counts of (score, actual) become Rankings, with the checks of `from_scores`.

A group holds the rows (or the exact weight sum) of one score and one actual class; the
groups of one score are added into a tie group (0.0 and -0.0 are one score, as in
`Ranking.from_scores`; an engine may keep them apart), positives and negatives apart,
exactly: int64 counts, or exact limb sums rounded once per tie group. Weighted tie groups
whose positives and negatives both weigh 0 are left out, as rows of weight 0 add no group.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.coding.labels import Coded, Label, as_label, keyed
from informed.engines.query import LIMBS, Grouped, weight_sums
from informed.errors import InputError
from informed.ranking import Ranking
from informed.ranking.classes import check_classes
from informed.ranking.grouping import NOT_GIVEN, shown

__all__ = ["classes_of", "rank_groups"]


def _position(coded: Coded, label: Any) -> int:
    wanted = keyed(as_label(label))
    return next((i for i, x in enumerate(coded.labels) if keyed(x) == wanted), -1)


def classes_of(
    a: Coded, positive: Any, negative: Any, rows: NDArray[np.int64], two_class: bool
) -> tuple[NDArray[np.bool_], tuple[Label | None, Label | None]]:
    """Which groups are positive, and the Ranking's (positive, negative) classes.

    `two_class` (`Ranking.from_frame`): `positive` against one other class, `negative` if
    given, else the one other label seen (the rules of `Ranking.from_scores`). Otherwise
    (the summaries of a frame) `positive` against all the other classes.
    """
    index = _position(a, positive)
    is_positive = a.codes == index
    if not two_class:
        return is_positive, check_classes(positive, None)
    seen = [a.labels[i] for i in np.unique(a.codes).tolist()]
    if negative is not NOT_GIVEN:
        other = _position(a, negative)
        if keyed(as_label(negative)) == keyed(as_label(positive)):
            msg = f"`positive` and `negative` must differ; both are {shown(positive)}."
            raise InputError(msg)
        outside = ~is_positive & (a.codes != other)
        if outside.any():
            label = a.labels[int(a.codes[np.flatnonzero(outside)[0]])]
            msg = (
                f"`actual` holds {shown(label)} in {int(rows[outside].sum()):,} rows, which is "
                f"neither positive={shown(positive)} nor negative={shown(negative)}."
            )
            raise InputError(msg)
        return is_positive, check_classes(positive, negative)
    if seen and index < 0:
        msg = (
            f"positive={shown(positive)} does not occur in `actual`, which holds "
            f"{seen[:10]}. Pass the positive label as it appears in `actual` (1, '1' and "
            "True are three labels), or pass `negative=` for data with no positives."
        )
        raise InputError(msg)
    others = [x for x in seen if keyed(x) != keyed(as_label(positive))]
    if len(others) > 1:
        msg = (
            f"`actual` must hold two classes, positive={shown(positive)} and one other; it "
            f"holds {others[:10]} besides. Use `Ranking.one_vs_rest` for more classes, or "
            "evaluate the frame's summaries (one class against all the others)."
        )
        raise InputError(msg)
    return is_positive, check_classes(positive, others[0] if others else None)


def rank_groups(
    scores: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    grouped: Grouped,
    slices: NDArray[np.intp] | None = None,
    n_slices: int = 1,
    classes: tuple[Label | None, Label | None] = (None, None),
) -> list[Ranking]:
    """One Ranking per slice (all groups in one slice when `slices` is None), and the
    Ranking of all the groups last, each counting `classes`."""
    slice_codes = np.zeros(scores.size, dtype=np.intp) if slices is None else slices
    values = np.add(scores, 0.0)  # -0.0 -> 0.0
    found = []
    for s in [*range(n_slices), None]:
        mask = np.ones(scores.size, dtype=bool) if s is None else slice_codes == s
        found.append(_ranking(values[mask], is_positive[mask], grouped, mask, classes))
    if slices is None:
        return found[:1]
    return found


def _ranking(
    values: NDArray[np.float64],
    is_positive: NDArray[np.bool_],
    grouped: Grouped,
    mask: NDArray[np.bool_],
    classes: tuple[Label | None, Label | None],
) -> Ranking:
    distinct, inverse = np.unique(-values, return_inverse=True)  # descending scores
    inverse = inverse.reshape(-1)
    size = distinct.size
    side = np.where(is_positive, 0, 1)
    if grouped.limbs is None:
        counts = np.zeros((size, 2), dtype=np.int64)
        np.add.at(counts, (inverse, side), grouped.rows[mask])
        positives: NDArray[Any] = counts[:, 0]
        negatives: NDArray[Any] = counts[:, 1]
        kept = np.ones(size, dtype=bool)
    else:
        limbs = np.zeros((size, 2, LIMBS), dtype=np.int64)
        np.add.at(limbs, (inverse, side), grouped.limbs[mask])
        positives = weight_sums(limbs[:, 0])
        negatives = weight_sums(limbs[:, 1])
        kept = (limbs[:, 0] != 0).any(axis=1) | (limbs[:, 1] != 0).any(axis=1)
    return Ranking(
        np.negative(distinct[kept]) + 0.0,
        positives[kept],
        negatives[kept],
        positive=classes[0],
        negative=classes[1],
    )
