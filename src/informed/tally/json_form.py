"""The JSON form of a Tally: its state as plain JSON values, and that state read back.

The form holds counts only, so a Tally survives the round trip exactly: kind, version,
conventions, unknown, categories (a list, in the declared order), documents, counts (per
category [[a, b], [c, d]]), pooled and ignored ([category, documents] pairs, sorted).
Categories are never object keys, so their declared order survives any JSON tool.
`from_dict` validates every field, so an edited or truncated state is refused rather
than merged. (The JSON report of a Tally's measures is `informed.tally.document`.)
"""

from __future__ import annotations

import json
from typing import Any, Final, TypeVar

import numpy as np
from numpy.typing import NDArray

from informed._common import check_document, json_value, loads_strict
from informed.errors import InputError
from informed.tally.conventions import STATISTICS_CONTINGENCY
from informed.tally.counting import from_fields
from informed.tally.state import INT64_MAX, UNKNOWN, TallyState

__all__ = ["from_dict", "from_json", "json_count", "json_counts", "to_dict", "to_json"]

Ints = NDArray[np.int64]
State = TypeVar("State", bound=TallyState)

_JSON_KIND: Final = "informed.Tally"
_JSON_VERSION: Final = 1
_JSON_KEYS: Final = frozenset(
    {
        "kind",
        "version",
        "conventions",
        "unknown",
        "categories",
        "documents",
        "counts",
        "pooled",
        "ignored",
    }
)


def to_dict(tally: TallyState) -> dict[str, Any]:
    """The JSON form of `tally`: a dict of plain JSON values."""
    return {
        "kind": _JSON_KIND,
        "version": _JSON_VERSION,
        "conventions": tally._conventions,
        "unknown": tally._unknown,
        "categories": list(tally._categories),
        "documents": tally._documents,
        "counts": tally._counts.tolist(),
        "pooled": tally._pooled.tolist(),
        "ignored": [[category, count] for category, count in sorted(tally._ignored.items())],
    }


def from_dict(cls: type[State], data: Any) -> State:
    """A `cls` (a Tally) restored from its JSON form, every field validated."""
    check_document(data, "Tally", _JSON_KEYS, _JSON_KIND, _JSON_VERSION)
    if not isinstance(data["categories"], list):
        msg = f"`categories` must be a list; got {type(data['categories']).__name__}."
        raise InputError(msg)
    if data["unknown"] not in UNKNOWN:  # null would mean "by conventions": not in a state
        msg = f"`unknown` must be one of {list(UNKNOWN)}; got {data['unknown']!r}."
        raise InputError(msg)
    documents = json_count(data["documents"], "documents")
    shape = (len(data["categories"]), 2, 2)
    counts = json_counts(data["counts"], shape, "counts")
    totals = counts.sum(axis=(1, 2), dtype=object) if counts.size else np.zeros(0, dtype=object)
    bad = [i for i, total in enumerate(totals.tolist()) if total != documents]
    if bad:
        msg = (
            f"the table of category {data['categories'][bad[0]]!r} sums to {totals[bad[0]]}, "
            f"but `documents` is {documents}; every document falls in one cell of every table."
        )
        raise InputError(msg)
    pooled = _json_pooled(data["pooled"], data["conventions"])
    raw_ignored = data["ignored"]
    if not isinstance(raw_ignored, list) or any(
        not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str)
        for item in raw_ignored
    ):
        msg = "`ignored` must be a list of [category, documents] pairs."
        raise InputError(msg)
    ignored = {str(item[0]): json_count(item[1], "ignored") for item in raw_ignored}
    if len(ignored) != len(raw_ignored) or list(ignored) != sorted(ignored):
        msg = "`ignored` must name distinct categories that are not declared, in sorted order."
        raise InputError(msg)
    return from_fields(
        cls,
        data["categories"],
        counts,
        pooled,
        ignored,
        unknown=data["unknown"],
        conventions=data["conventions"],
    )


def _json_pooled(value: Any, conventions: Any) -> Any:
    """The pooled table: whole counts, or numbers under the Perl conventions (set_entries
    takes fractional cells there); `from_fields` checks them further."""
    if conventions != STATISTICS_CONTINGENCY:
        return json_counts(value, (2, 2), "pooled")
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(not isinstance(row, list) or len(row) != 2 for row in value)
    ):
        msg = "`pooled` must be nested lists of shape (2, 2)."
        raise InputError(msg)
    return value


def json_count(value: Any, name: str) -> int:
    """A JSON count: an int (not a bool) in [0, 2**63 - 1]."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT64_MAX:
        msg = f"`{name}` must be a whole count in [0, 2**63 - 1]; got {json_value(value)}."
        raise InputError(msg)
    return value


def json_counts(value: Any, shape: tuple[int, ...], name: str) -> Ints:
    """Nested JSON lists of counts of exactly `shape`, as an int64 array."""

    def check(item: Any, depth: int) -> Any:
        if depth == len(shape):
            return json_count(item, name)
        if not isinstance(item, list) or len(item) != shape[depth]:
            msg = f"`{name}` must be nested lists of shape {shape}."
            raise InputError(msg)
        return [check(x, depth + 1) for x in item]

    return np.array(check(value, 0), dtype=np.int64).reshape(shape)


def to_json(tally: TallyState) -> str:
    """The JSON form of `tally` as text; NaN and Infinity never occur in it."""
    return json.dumps(to_dict(tally), allow_nan=False)


def from_json(cls: type[State], text: str) -> State:
    """A `cls` (a Tally) restored from `to_json` text; NaN and Infinity tokens are refused."""
    try:
        data = loads_strict(text, "a Tally JSON document")
    except json.JSONDecodeError as exc:
        msg = f"not a Tally JSON document: {exc}."
        raise InputError(msg) from None
    except RecursionError:
        msg = "not a Tally JSON document: it is nested too deeply to read."
        raise InputError(msg) from None
    return from_dict(cls, data)
