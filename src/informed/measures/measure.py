"""What the registry records of a measure, and why a measure is undefined on a table.

A `Measure` holds one definition with everything a report needs to know of it (title,
formula, aliases, range, chance value, dual, the margins it needs, its source);
`undefined_reason` names the margin whose vanishing made a value nan.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from informed.measures.counts import cells
from informed.measures.overall import Average, SignedGeometric

__all__ = [
    "LABEL_MARGINS",
    "MARGIN_REASONS",
    "Measure",
    "OverallRule",
    "label_margin",
    "undefined_reason",
    "undefined_reasons",
]

Floats = NDArray[np.float64]

OverallRule = Average | SignedGeometric | Callable[..., Floats]


@dataclass(frozen=True)
class Measure:
    """One registered measure: its definition and what the reports need to know of it.

    Attributes
    ----------
    name : str
        The registry name, used as JSON key and CLI column.
    function : callable
        The binary measure on counts[..., 2, 2].
    overall : Average, SignedGeometric or callable
        How the measure of a table with any number of labels is formed: an `Average` of
        per-label values (which measure, which weights, which mean), the signed geometric
        mean of two averages, or a function of the square counts[..., L, L].
    title : str
        A human heading.
    formula : str
        The definition, as in the docstring.
    aliases : tuple of str
        Other names for the same quantity.
    low, high : float
        The range.
    chance : float or None
        The value under pure chance (independent rows and columns), when it is a constant.
    dual : str or None
        The measure it becomes under transpose (prediction <-> reality).
    symmetric : bool
        Unchanged when prediction and reality are swapped.
    requires : tuple of str
        Margins whose vanishing makes it undefined: "+R", "-R", "+P", "-P", "N", "tp+fp+fn",
        "fp+fn+tn".
    source : str
        The short author-year citation of the work that defines it ("Powers (2003)"),
        given in full in the References of the documentation.
    takes_alpha : bool
        Whether it takes the F-measure weight `alpha`.
    proportion : tuple or None
        (numerator cells, denominator cells) when it is a binomial proportion of the
        2x2 cells, such as recall = tp / (tp + fn): `informed.inference.proportion_interval`
        gives it Wilson and Clopper-Pearson intervals.
    undefined_otherwise : str
        Why it is undefined on a 2x2 table where no margin of `requires` vanished.
    undefined_overall : str or None
        Why the value of a whole table is undefined when no single label is to blame.
    """

    name: str
    function: Callable[..., Floats]
    overall: OverallRule
    title: str
    formula: str
    aliases: tuple[str, ...]
    low: float
    high: float
    chance: float | None
    dual: str | None
    symmetric: bool
    requires: tuple[str, ...]
    source: str
    takes_alpha: bool = False
    proportion: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    undefined_otherwise: str = "undefined for this table"
    undefined_overall: str | None = None

    def __call__(self, counts: Any, **params: float) -> Floats:
        return self.function(counts, **params)


MARGIN_REASONS: dict[str, tuple[Callable[[Floats, Floats, Floats, Floats], Floats], str]] = {
    "N": (lambda tp, fp, fn, tn: tp + fp + fn + tn, "no data (N = 0)"),
    "+R": (lambda tp, fp, fn, tn: tp + fn, "no real positives (+R is empty)"),
    "-R": (lambda tp, fp, fn, tn: fp + tn, "no real negatives (-R is empty)"),
    "+P": (lambda tp, fp, fn, tn: tp + fp, "no +P predictions"),
    "-P": (lambda tp, fp, fn, tn: fn + tn, "no -P predictions"),
    "tp+fp+fn": (
        lambda tp, fp, fn, tn: tp + fp + fn,
        "no positive predictions or cases (tp + fp + fn = 0)",
    ),
    "fp+fn+tn": (
        lambda tp, fp, fn, tn: fp + fn + tn,
        "no negative predictions or cases (fp + fn + tn = 0)",
    ),
}


LABEL_MARGINS: dict[str, str] = {
    "N": "is in an empty table (N = 0)",
    "+R": "never occurs (its +R margin is empty)",
    "-R": "is the actual label of every case (its -R margin is empty)",
    "+P": "is never predicted (its +P margin is empty)",
    "-P": "is predicted for every case (its -P margin is empty)",
    "tp+fp+fn": "is never predicted and never occurs (tp + fp + fn = 0)",
    "fp+fn+tn": "is predicted for every case and is the actual label of every case "
    "(fp + fn + tn = 0)",
}
"""The margins of `Measure.requires` seen from one label of a larger table (its
one-vs-rest view): what the label does when that margin is empty."""


def label_margin(measure: Measure, counts: Any) -> str | None:
    """What one label does that leaves a margin `measure` requires empty, from the label's
    one-vs-rest `counts` [[tp, fp], [fn, tn]]; None when every required margin is filled.

    >>> from informed.measures import MEASURES
    >>> label_margin(MEASURES["markedness"], np.array([[0, 0], [3, 20]]))
    'is never predicted (its +P margin is empty)'
    """
    tp, fp, fn, tn = cells(counts)
    for key in measure.requires:
        margin, _ = MARGIN_REASONS[key]
        if float(margin(tp, fp, fn, tn)) == 0:
            return LABEL_MARGINS[key]
    return None


def undefined_reasons(
    measure: Measure, counts: Any, values: Any = None
) -> tuple[NDArray[np.intp], tuple[str, ...]]:
    """Why `measure` is nan on each 2x2 table of `counts[..., 2, 2]`, as codes: -1 where
    it is defined, else the position in the returned texts of the reason: "no data
    (N = 0)" for an empty table, else the first required margin that vanished (or
    `undefined_otherwise`). `values` are the measure's values, when computed already.

    >>> from informed.measures import MEASURES
    >>> tables = np.array([[[1, 0], [0, 1]], [[0, 0], [3, 2]], [[0, 0], [0, 0]]])
    >>> codes, texts = undefined_reasons(MEASURES["precision"], tables)
    >>> codes.tolist(), [texts[code] for code in codes[1:]]
    ([-1, 1, 0], ['no +P predictions', 'no data (N = 0)'])
    """
    values = measure(counts) if values is None else np.asarray(values)
    tp, fp, fn, tn = cells(counts)
    codes = np.full(np.shape(values), -1, dtype=np.intp)
    undecided = np.isnan(values)
    # an empty table (N = 0) first: every margin is empty with it, and no data is the reason
    keys = ("N", *(key for key in measure.requires if key != "N"))
    for k, key in enumerate(keys):
        margin, _ = MARGIN_REASONS[key]
        empty = undecided & (margin(tp, fp, fn, tn) == 0)
        codes[empty] = k
        undecided &= ~empty
    codes[undecided] = len(keys)
    texts = (*(MARGIN_REASONS[key][1] for key in keys), measure.undefined_otherwise)
    return codes, texts


def undefined_reason(measure: Measure, counts: Any) -> str | None:
    """Why `measure` is nan on one 2x2 table, naming the vanished margin; None if defined.

    >>> from informed.measures import MEASURES
    >>> undefined_reason(MEASURES["inverse_precision"], np.array([[90, 10], [0, 0]]))
    'no -P predictions'
    """
    codes, texts = undefined_reasons(measure, counts)
    found = codes[codes >= 0]
    return texts[int(found.flat[0])] if found.size else None
