"""Small helpers every unit shares: read-only arrays, nan as JSON null, strict JSON, choices,
and text made safe for a terminal.

Each is written once here so that the summaries, inference and reports agree on them.
"""

from __future__ import annotations

import json
import math
from typing import Any, TypeVar

from numpy.typing import NDArray

from informed.errors import InputError

__all__ = ["check_choice", "json_float", "loads_strict", "printable", "readonly"]

Array = TypeVar("Array", bound=NDArray[Any])


def readonly(array: Array) -> Array:
    """`array` with its write flag cleared (in place), so a frozen summary stays frozen."""
    array.setflags(write=False)
    return array


def json_float(value: Any) -> float | None:
    """A float for JSON: nan becomes None (JSON null); +-inf and numbers pass through.

    >>> json_float(float("nan")) is None, json_float(0.25)
    (True, 0.25)
    """
    number = float(value)
    return None if math.isnan(number) else number


def loads_strict(text: str | bytes, what: str) -> Any:
    """Parse JSON, refusing the NaN, Infinity and -Infinity tokens Python would accept.

    `what` names the document in the error ("a Table JSON document").
    """

    def refuse(token: str) -> Any:
        msg = f"{what} must not hold {token}."
        raise InputError(msg)

    return json.loads(text, parse_constant=refuse)


def check_choice(value: Any, choices: tuple[str, ...], name: str) -> Any:
    """`value` if it is one of `choices`; an InputError otherwise (no prefix matching)."""
    if not isinstance(value, str) or value not in choices:
        msg = f"`{name}` must be one of {list(choices)}; got {value!r}."
        raise InputError(msg)
    return value


_UNPRINTABLE = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, *range(0x80, 0xA0))} | {
    code: f"\\u{code:04x}"
    for code in (0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
}


def printable(text: object) -> str:
    r"""`text` as a string safe to show on a terminal: control characters escaped.

    C0 controls (ESC, CR, LF, TAB, BEL, ...), DEL and the C1 controls are shown as
    ``\xNN``; the line and paragraph separators and the bidirectional overrides as
    ``\uNNNN``. A label holding ESC [2J then reads as written instead of clearing the
    screen. Everything else, backslashes included, is left as it is.

    >>> print(printable("a\x1b[2Jb\rc\td"))
    a\x1b[2Jb\x0dc\x09d
    """
    return str(text).translate(_UNPRINTABLE)
