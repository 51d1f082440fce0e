"""The calls a user types to build or evaluate a Table, read into one form.

A scikit-learn user types ``evaluate(y_true, y_pred)``, ``Table.from_labels(y, p)`` or
``evaluate(frame, actual="y", predicted="p")``; informed's own spelling is
``actual=``, ``predicted=``, ``weights=``. This module reads every such call into the
labels to count (`LabelColumns`): positional labels come in scikit-learn's order, actual
(y_true) first, and every alias is renamed by `informed.coding.arguments.canonical_arguments`.
A call that cannot be read is an `InputTypeError` whose message shows the call to write.

>>> columns = label_columns("evaluate", ([1, 0], [1, 1]), {"sample_weight": [2, 1]})
>>> columns.actual, columns.predicted, columns.weights
([1, 0], [1, 1], [2, 1])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from informed._routes import engine_route
from informed.coding.arguments import canonical_arguments
from informed.coding.columns import collected, column_names, engine_of, frame_column
from informed.errors import InputTypeError

__all__ = [
    "LabelColumns",
    "engine_table",
    "frame_label_columns",
    "is_frame",
    "label_columns",
    "shown_call",
]

_NAMES = ("actual", "predicted", "weights")
# the other keywords of Table.from_labels and from_frame, for the message naming them
_LABEL_OPTIONS = ("labels", "clusters", "storage")


class LabelColumns(NamedTuple):
    """The columns of labels (and weights) a call gave, by informed's names."""

    actual: Any
    predicted: Any
    weights: Any


def is_frame(value: Any) -> bool:
    """Whether `value` is a table of named columns (pandas or polars DataFrame, pyarrow
    Table or RecordBatch, a mapping of names to columns) rather than one column."""
    # a Series or an array has neither `columns` (pandas, polars) nor `column_names` (Arrow)
    if isinstance(value, Mapping) or engine_of(value) is not None:  # a LazyFrame's `columns`
        return True  # would resolve its schema (polars warns): no attribute is read
    return hasattr(value, "columns") or hasattr(value, "column_names")


def shown_call(call: str, frame: Any) -> str:
    """The call that names a frame's columns, with the frame's first column names.

    >>> shown_call("evaluate", {"y": [1], "p": [1]})
    "name the columns: evaluate(frame, actual='...', predicted='...'); its columns are ['y', 'p']"
    """
    try:
        names = column_names(frame)
    except InputTypeError:  # pragma: no cover - is_frame said it has names
        names = []
    shown = f"{names[:20]}" + (f" and {len(names) - 20} more" if len(names) > 20 else "")
    return (
        f"name the columns: {call}(frame, actual='...', predicted='...'); its columns are {shown}"
    )


def _given(
    positional: tuple[Any, ...], keywords: Mapping[str, Any], call: str, others: Sequence[str]
) -> dict[str, Any]:
    """Positional labels (actual, then predicted) and keywords, under informed's names."""
    if len(positional) > 2:
        msg = (
            f"{call}() takes at most two labels by position, actual then predicted "
            f"(scikit-learn's y_true, y_pred); got {len(positional)} by position. Give the rest by "
            f"name: {call}(actual, predicted, weights=...)."
        )
        raise InputTypeError(msg)
    found = canonical_arguments(call, keywords, _NAMES, others)
    for name, value in zip(("actual", "predicted"), positional, strict=False):
        if value is None:
            continue
        if name in found:
            msg = (
                f"{call}() got {name!r} twice, by position and by name; "
                f"give it once: {call}(actual, predicted) or {call}(actual=..., predicted=...)."
            )
            raise InputTypeError(msg)
        found[name] = value
    return found


def label_columns(
    call: str,
    positional: tuple[Any, ...],
    keywords: Mapping[str, Any],
    others: Sequence[str] = _LABEL_OPTIONS,
) -> LabelColumns:
    """The actual and predicted labels (and weights) of a call such as
    ``Table.from_labels(y, p, sample_weight=w)``: positional labels in scikit-learn's
    order (actual first), keywords and their aliases by name.

    A frame, a Table or a missing column is an `InputTypeError` showing the call to write.
    """
    found = _given(positional, keywords, call, others)
    for value in (found.get("actual"), found.get("predicted")):
        if value is not None and is_frame(value):
            frame_call = "Table.from_frame" if call.startswith("Table") else call
            msg = f"{call}() got a frame where it counts labels; {shown_call(frame_call, value)}."
            raise InputTypeError(msg)
        if hasattr(value, "square_cells"):  # a Table (whose module imports this one)
            msg = (
                f"{call}() got a Table where it counts labels; a Table is counted "
                "already: evaluate(table)."
            )
            raise InputTypeError(msg)
    missing = [name for name in ("actual", "predicted") if found.get(name) is None]
    if missing:
        msg = (
            f"{call}() needs the {' and the '.join(missing)} labels: {call}(actual, predicted) "
            f"(scikit-learn's order, y_true first) or {call}(actual=..., predicted=...)."
        )
        raise InputTypeError(msg)
    return LabelColumns(found["actual"], found["predicted"], found.get("weights"))


def frame_label_columns(
    call: str,
    frame: Any,
    keywords: Mapping[str, Any],
    others: Sequence[str] = _LABEL_OPTIONS,
) -> LabelColumns:
    """The columns a call such as ``evaluate(frame, actual="y", predicted="p")`` names;
    without both names, an `InputTypeError` showing the call to write. For an engine's
    lazy frame (`informed.coding.columns.engine_of`), the names of the columns, which the engine
    route counts where they live."""
    found = canonical_arguments(call, keywords, _NAMES, others)
    arrays = "Table.from_labels" if call.startswith("Table") else call
    if found.get("actual") is None or found.get("predicted") is None:
        msg = f"{call}(frame) counts two columns of the frame; {shown_call(call, frame)}."
        raise InputTypeError(msg)
    for name, value in found.items():
        if value is not None and not isinstance(value, str):
            msg = (
                f"{call}(frame, {name}=...) names a column of the frame; got "
                f"{type(value).__name__}. Write {call}(frame, actual='y', predicted='p'), "
                f"or pass the arrays alone: {arrays}(actual, predicted)."
            )
            raise InputTypeError(msg)
    weights = found.get("weights")
    names = LabelColumns(found["actual"], found["predicted"], weights)
    if engine_of(frame) is not None:  # counted on its engine: the columns' names
        return names
    frame = collected(frame, actual=found["actual"], predicted=found["predicted"], weights=weights)
    return LabelColumns(
        frame_column(frame, found["actual"], "actual"),
        frame_column(frame, found["predicted"], "predicted"),
        None if weights is None else frame_column(frame, weights, "weights"),
    )


def engine_table(
    frame: Any,
    columns: Any,
    labels: Sequence[Any] | None,
    clusters: bool,
    storage: str,
) -> Any:
    """The Table of an engine's lazy frame, counted on the engine (`informed.engines`)."""
    return engine_route().table(
        frame,
        actual=columns.actual,
        predicted=columns.predicted,
        weights=columns.weights,
        labels=labels,
        clusters=clusters,
        storage=storage,
    )
