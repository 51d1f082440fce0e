"""Which classes a Ranking ranks: its positive class, and its negative class when there is one.

A Ranking counts the rows of one class (the positive) against the others. Summaries built
for different positives must not merge: the counts would add up to a number that means
nothing. So a Ranking carries its `positive` and its `negative` label, each a label of
`informed.coding.labels` (str, int, float or bool) or None:

- `positive` is None only for a Ranking whose class nobody named: one built from counts
  given directly, or read from a version 1 JSON document (informed before the Ranking knew
  its classes).
- `negative` is the one other class of `Ranking.from_scores` (named with `negative=`, or
  the one seen in `actual`). It is None when the rows held no negative (a chunk of a larger
  data set may see only positives), and for a Ranking of the positive class against all the
  others (`Ranking.one_vs_rest`, `informed.io.summarise_frame`, files, Dask).

Labels compare as everywhere in informed (`informed.coding.labels.keyed`): True is not 1, and
1 is not "1"; 1 and 1.0 are one label. Merging two Rankings keeps a label both agree on;
None gives way to a known label (the negative unseen in one chunk is the one seen in
another), and two different known labels are an error naming both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from informed.coding.labels import Label, as_label, keyed, label_kind
from informed.errors import InputError

__all__ = [
    "check_classes",
    "class_label",
    "merged_classes",
    "negative_of",
    "same_label",
    "table_labels",
]


def class_label(value: Any, name: str) -> Label | None:
    """`value` as a plain label (numpy scalars as Python values), or None; else an error
    naming the argument."""
    if value is None:
        return None
    try:
        return as_label(value)
    except (InputError, TypeError) as error:
        msg = f"`{name}` of a Ranking: {error}"
        raise type(error)(msg) from None


def check_classes(positive: Any, negative: Any) -> tuple[Label | None, Label | None]:
    """The positive and negative labels, checked: plain labels (or None), of one kind, and
    different from each other."""
    pos = class_label(positive, "positive")
    neg = class_label(negative, "negative")
    if pos is not None and neg is not None:
        if same_label(pos, neg):
            msg = f"`positive` and `negative` must differ; both are {pos!r}."
            raise InputError(msg)
        if label_kind(pos) != label_kind(neg):
            msg = (
                f"`positive` {pos!r} and `negative` {neg!r} are labels of different kinds "
                f"({label_kind(pos)} and {label_kind(neg)}); the classes of one column are "
                "of one kind."
            )
            raise InputError(msg)
    return pos, neg


def same_label(a: Label | None, b: Label | None) -> bool:
    """Two labels (or two Nones) are one: by kind and value, so True is not 1."""
    if a is None or b is None:
        return a is None and b is None
    return keyed(a) == keyed(b)


def _merged(name: str, a: Label | None, b: Label | None) -> Label | None:
    if a is None:
        return b
    if b is None or same_label(a, b):
        return a
    msg = (
        f"Cannot merge a Ranking of {name} class {a!r} with one of {name} class {b!r}: "
        f"they count different classes (mind 1, '1' and True, three labels); build every "
        f"part with the same `{name}=`."
    )
    raise InputError(msg)


def merged_classes(
    left: tuple[Label | None, Label | None], right: tuple[Label | None, Label | None]
) -> tuple[Label | None, Label | None]:
    """The (positive, negative) of a merge of two Rankings, or an InputError naming both
    labels where they differ."""
    positive = _merged("positive", left[0], right[0])
    negative = _merged("negative", left[1], right[1])
    return check_classes(positive, negative)


def table_labels(positive: Label | None, negative: Label | None) -> tuple[Label, Label]:
    """The labels of a 2x2 table cut from a Ranking: its own classes where it knows them.

    Both known: (positive, negative). A bool positive alone: (p, not p). A str positive
    alone (the negative unseen, or all the other classes): (p, "not p"). Otherwise
    ("+", "-").

    >>> table_labels("spam", "ham"), table_labels("spam", None), table_labels(True, None)
    (('spam', 'ham'), ('spam', 'not spam'), (True, False))
    >>> table_labels(1, None), table_labels(None, None)
    (('+', '-'), ('+', '-'))
    """
    if positive is not None and negative is not None:
        return positive, negative
    if isinstance(positive, bool):
        return positive, not positive
    if isinstance(positive, str):
        return positive, f"not {positive}"
    return "+", "-"


def negative_of(classes: Sequence[Label], positive: Label | None) -> Label | None:
    """The one class of `classes` other than `positive`; None when there is none or several.

    >>> negative_of([0, 1], 1), negative_of([1], 1), negative_of(["a", "b", "c"], "a")
    (0, None, None)
    """
    wanted = None if positive is None else keyed(positive)
    others = [x for x in classes if keyed(x) != wanted]
    return others[0] if len(others) == 1 else None
