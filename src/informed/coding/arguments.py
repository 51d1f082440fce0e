"""One spelling of each argument on every call, and the other spellings people type.

The library names the columns of a prediction the same way everywhere, for arrays and for
the names of a frame's columns alike: ``actual``, ``predicted``, ``scores``, ``weights``
(plural, as the rows they hold). scikit-learn users type ``y_true``, ``y_pred``,
``y_score`` and ``sample_weight``, and earlier releases of informed had ``score=`` and
``weight=`` in places: those spellings are accepted as aliases, and giving a name twice
(``weights=`` and ``sample_weight=``) is an error naming both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from informed.errors import InputTypeError

__all__ = ["ALIASES", "canonical_arguments"]

#: alias -> the one spelling of informed's calls
ALIASES: Mapping[str, str] = {
    "y_true": "actual",
    "y_pred": "predicted",
    "y_score": "scores",
    "y_prob": "scores",
    "score": "scores",
    "sample_weight": "weights",
    "sample_weights": "weights",
    "weight": "weights",
}


def canonical_arguments(
    call: str, given: Mapping[str, Any], accepted: Iterable[str], others: Iterable[str] = ()
) -> dict[str, Any]:
    """`given` keyword arguments with every alias renamed to informed's spelling.

    `call` names the function in messages; `accepted` lists the canonical names the call
    takes here, `others` the call's other keywords (named in the message only). An alias
    of a name the call does not take, an unknown name, or one name given twice (by itself
    and by an alias) is an `InputTypeError` that says what to write.

    >>> canonical_arguments("Table.from_labels", {"y_true": [1], "sample_weight": [2]},
    ...                     ["actual", "predicted", "weights"])
    {'actual': [1], 'weights': [2]}
    """
    names = tuple(accepted)
    takes = ", ".join(n + "=" for n in (*names, *others))
    found: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for key, value in given.items():
        name = ALIASES.get(key, key)
        if name not in names:
            msg = f"{call}() got an unexpected argument {key!r}; it takes {takes}."
            raise InputTypeError(msg)
        if name in found:
            msg = (
                f"{call}() got {name!r} twice, as {spelled[name]}= and {key}=; "
                f"give it once, as {name}=."
            )
            raise InputTypeError(msg)
        found[name] = value
        spelled[name] = key
    return found
