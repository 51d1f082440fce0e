"""The arguments of the Ranking's calls: one spelling, the order that is unambiguous, and
a message showing the call to write when an argument is wrong.

Every Ranking call spells its columns `actual`, `scores` and `weights` (for arrays and for
a frame's column names alike), and takes `actual` and `scores` by position too, in that
order: ``Ranking.from_scores(y, s, positive=1)``. The spellings of scikit-learn and of
earlier releases (``y_true``, ``y_score``, ``score=``, ``sample_weight``, ``weight=``)
are renamed by `informed.coding.arguments.canonical_arguments`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from informed._routes import engine_route
from informed.coding.arguments import canonical_arguments
from informed.coding.columns import collected, engine_of, frame_column
from informed.errors import InputTypeError

__all__ = ["MISSING", "call_arguments", "frame_arguments"]


class _Missing:
    """Marker for an argument not given (None may be a value)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


def call_arguments(
    call: str,
    example: str,
    args: Sequence[Any],
    named: Mapping[str, Any],
    *,
    positional: Sequence[str],
    accepted: Sequence[str],
    required: Sequence[str],
) -> dict[str, Any]:
    """The arguments of a call by their one name, every mistake an `InputTypeError` that
    ends with the call to write (`example`).

    >>> call_arguments("f", "f(actual, scores)", ([1], [2]), {"sample_weight": [3]},
    ...                positional=("actual", "scores"), accepted=("actual", "scores", "weights"),
    ...                required=("actual", "scores")) == {"actual": [1], "scores": [2],
    ...                                                   "weights": [3]}
    True
    >>> call_arguments("f", "f(actual, scores)", ([1], [2], [3]), {},
    ...                positional=("actual", "scores"), accepted=("actual", "scores"),
    ...                required=())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    informed.errors.InputTypeError: f() takes 2 arguments by position (actual, scores), ...
    """
    if len(args) > len(positional):
        msg = (
            f"{call}() takes {len(positional)} arguments by position "
            f"({', '.join(positional)}), got {len(args)}; name the others: {example}."
        )
        raise InputTypeError(msg)
    try:
        found = canonical_arguments(call, named, accepted)
    except InputTypeError as error:
        msg = f"{str(error).rstrip('.')}. Write {example}."
        raise InputTypeError(msg) from None
    for name, value in zip(positional, args, strict=False):
        if name in found:
            msg = (
                f"{call}() got {name!r} twice, by position and as a keyword; give it once: "
                f"{example}."
            )
            raise InputTypeError(msg)
        found[name] = value
    missing = [name for name in required if found.get(name, MISSING) is MISSING]
    if missing:
        names = " and ".join(f"`{name}`" for name in missing)
        msg = f"{call}() needs {names}: write {example}."
        raise InputTypeError(msg)
    return found


def frame_arguments(frame: Any, args: Sequence[Any], named: dict[str, Any]) -> Any:
    """The arguments of `Ranking.from_scores` for `Ranking.from_frame(frame, ...)`: the
    columns `actual`, `scores` (and `weights`) that the names given pick out of `frame`;
    for an engine's lazy frame, its Ranking, counted where it lives."""
    options: dict[str, Any] = {
        k: named.pop(k) for k in ("negative", "allow_infinite") if k in named
    }
    found = call_arguments(
        "Ranking.from_frame",
        'Ranking.from_frame(frame, actual="y", scores="s", positive=...)',
        args,
        named,
        positional=("actual", "scores"),
        accepted=("actual", "scores", "weights", "positive"),
        required=("actual", "scores", "positive"),
    )
    weights = found.get("weights")
    if engine_of(frame) is not None:  # its Ranking, counted on its engine (informed.engines)
        return engine_route().ranking(frame, **found, **options)
    frame = collected(frame, actual=found["actual"], scores=found["scores"], weights=weights)
    return {
        "actual": frame_column(frame, found["actual"], "actual"),
        "scores": frame_column(frame, found["scores"], "scores"),
        "weights": None if weights is None else frame_column(frame, weights, "weights"),
        "positive": found["positive"],
        **options,
    }
