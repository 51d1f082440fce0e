"""More than two models across the same cross-validation folds: every pair compared.

`compare_fold_pairs` compares every pair of models as `compare_folds` compares two
(the later-named model minus the earlier: with models a, b, c the pairs b - a, c - a and
c - b), and adjusts each test's p-values over all the pairs and measures together (Holm
1979), so that the family-wise error rate holds across every difference reported. With
two models it is `compare_folds` of the two. Every pair, rather than each model against
the best (as `informed.compare` reads one test set), because the best by mean across
folds is itself chosen from these folds, and a pair named in the order given keeps the
sign the user reads: the pairs against the best are among those reported.

References
----------
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
Journal of Statistics 6(2):65-70.
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine
Learning 52(3):239-281.

>>> from informed.slices import Folds
>>> fold, y = [1, 1, 2, 2, 3, 3] * 4, [1, 0] * 12
>>> models = {name: Folds.from_labels(folds=fold, actual=y, predicted=p) for name, p in
...           (("a", [1, 1, 1, 0] * 6), ("b", [1, 0, 1, 0, 0, 0] * 4), ("c", [1, 0] * 12))}
>>> result = compare_fold_pairs(models, measures=["informedness"], positive=1)
>>> [pair.names for pair in result.pairs], result.pairs[0].family
([('a', 'b'), ('a', 'c'), ('b', 'c')], '3 pairs x 1 measure')
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from informed._common import check_choice
from informed.comparison.folds import FoldComparison, compare_folds
from informed.errors import InputError, InputTypeError
from informed.inference.significance import holm
from informed.slices.folds import Folds

__all__ = ["FoldPairs", "compare_fold_pairs"]


@dataclass(frozen=True, eq=False)
class FoldPairs:
    """Every pair of models compared across the same folds.

    Attributes
    ----------
    names : tuple of str
        The models, in the order given.
    pairs : tuple of FoldComparison
        One per pair (a, b), a named before b, the difference b - a; each pair's
        `adjusted` p-values are adjusted over every pair and measure together.
    correction : str
    """

    names: tuple[str, ...]
    pairs: tuple[FoldComparison, ...]
    correction: str = "holm"

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: the models, the family adjusted over, and every pair."""
        return {
            "models": list(self.names),
            "correction": self.correction,
            "adjusted_over": self.pairs[0].family,
            "pairs": [pair.to_dict() for pair in self.pairs],
        }

    def __repr__(self) -> str:
        return "\n".join(repr(pair) for pair in self.pairs)


def compare_fold_pairs(
    models: Mapping[str, Folds],
    *,
    measures: Sequence[str] | str = ("informedness", "markedness"),
    positive: Any = None,
    level: float = 0.95,
    correction: Literal["holm", "none"] = "holm",
) -> FoldPairs:
    """Compare every pair of models on the same cross-validation folds.

    Parameters
    ----------
    models : mapping of str to Folds
        Two or more models' folds, by name, in the order the pairs are formed.
    measures, positive, level
        As in `compare_folds`.
    correction : {"holm", "none"}
        Holm's adjustment of each test's p-values over every pair and measure together.

    Returns
    -------
    FoldPairs
        One `FoldComparison` per pair.
    """
    if not isinstance(models, Mapping):
        msg = f"`models` must map names to Folds; got {type(models).__name__}."
        raise InputTypeError(msg)
    names = tuple(models)
    if len(names) < 2:
        msg = f"compare needs at least two models' folds; got {len(names)}."
        raise InputError(msg)
    correction = check_choice(correction, ("holm", "none"), "correction")
    if len(names) == 2:  # one pair: Holm over its measures alone
        a, b = names
        one = compare_folds(
            models[a],
            models[b],
            measures=measures,
            positive=positive,
            names=(a, b),
            level=level,
            correction=correction,
        )
        return FoldPairs(names, (one,), correction)
    pairs = [
        compare_folds(
            models[a],
            models[b],
            measures=measures,
            positive=positive,
            names=(a, b),
            level=level,
            correction="none",
        )
        for a, b in itertools.combinations(names, 2)
    ]
    count = len(pairs[0].measures)
    family = f"{len(pairs)} pairs x {count} measure{'' if count == 1 else 's'}"
    adjusted = [{m: dict(pair.adjusted[m]) for m in pair.measures} for pair in pairs]
    if correction == "holm":
        for key in pairs[0].tests[pairs[0].measures[0]]:
            where = [(i, m) for i, pair in enumerate(pairs) for m in pair.measures]
            raw = [float(pairs[i].tests[m][key].pvalue) for i, m in where]
            for (i, m), value in zip(where, holm(raw), strict=True):
                adjusted[i][m][key] = value
    found = tuple(
        dataclasses.replace(pair, adjusted=adjusted[i], correction=correction, adjusted_over=family)
        for i, pair in enumerate(pairs)
    )
    return FoldPairs(names, found, correction)
