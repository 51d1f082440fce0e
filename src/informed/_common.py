"""Small helpers every unit shares: read-only arrays, nan as JSON null, strict JSON, choices,
and text made safe for a terminal.

Each is written once here so that the summaries, inference and reports agree on them.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from informed.errors import InputError, InputTypeError, MemoryLimitError

__all__ = [
    "READ_EVERY",
    "byte_size",
    "check_choice",
    "check_float_total",
    "check_json_numbers",
    "check_memory",
    "cut_apart",
    "json_float",
    "json_floats",
    "json_number",
    "json_value",
    "loads_strict",
    "memory_available",
    "memory_budget",
    "printable",
    "readonly",
    "sums_differ",
]

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


def json_number(value: Any) -> float | str | None:
    """A float for strict JSON, which has no NaN or infinity: nan becomes None (null), +-inf
    the string "Infinity" or "-Infinity" (as a Ranking's JSON writes an infinite score,
    and as `float` reads it back), numbers pass through.

    >>> json_number(float("nan")) is None, json_number(float("-inf")), json_number(0.25)
    (True, '-Infinity', 0.25)
    """
    number = float(value)
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    return None if math.isnan(number) else number


def json_floats(values: Any) -> list[float | None]:
    """`json_float` of every value of an array, at the speed of `tolist` (for columns of
    hundreds of thousands of values).

    >>> json_floats([0.5, float("nan")])
    [0.5, None]
    """
    return [None if math.isnan(v) else v for v in np.ravel(np.asarray(values, float)).tolist()]


def loads_strict(text: str | bytes, what: str, constants: bool = False) -> Any:
    """Parse JSON, refusing the NaN, Infinity and -Infinity tokens Python would accept
    (unless `constants`: then the reader's check of the field names them), a document
    nested too deeply to read (Python's parser would exhaust its recursion) and a number
    of more digits than Python converts (4300), each by an InputError.

    `what` names the document in the error ("a Table JSON document").

    >>> loads_strict("[" * 100000 + "]" * 100000, "a Table JSON document")
    Traceback (most recent call last):
    ...
    informed.errors.InputError: a Table JSON document is nested too deeply to read.
    """

    def refuse(token: str) -> Any:
        msg = f"{what} must not hold {token}."
        raise InputError(msg)

    try:
        return json.loads(text) if constants else json.loads(text, parse_constant=refuse)
    except RecursionError:
        msg = f"{what} is nested too deeply to read."
        raise InputError(msg) from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # int("9" * 5000): over sys.get_int_max_str_digits()
        if "digits" not in str(error):
            raise
        msg = f"{what} holds a number of more than {sys.get_int_max_str_digits()} digits."
        raise InputError(msg) from None


def json_value(value: Any) -> str:
    """A value read from a JSON document as a message shows it: named by its JSON type
    where the type may be the fault, and short whatever its size.

    >>> json_value("7"), json_value(10**400), json_value(True), json_value(float("inf"))
    ("the string '7'", 'a number of 401 digits', 'true', 'a number beyond the range of a float')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "..."
        return f"the string {printable(repr(shown))}"
    if isinstance(value, int):
        digits = len(str(abs(value)))
        return str(value) if digits <= 20 else f"a number of {digits} digits"
    if isinstance(value, float):
        return repr(value) if not math.isinf(value) else "a number beyond the range of a float"
    if isinstance(value, list):
        return f"a list of {len(value)} entries"
    if isinstance(value, dict):
        return "an object"
    return printable(type(value).__name__)


_INT64_MAX = 2**63 - 1


def check_json_numbers(values: list[Any], where: Any, whole: bool) -> None:
    """Refuse the first entry of a JSON list that is not a number (a string such as "7",
    true, null) by an InputTypeError, or that no int64 (`whole`) or float holds by an
    InputError; `where(i)` names entry i ("`counts` of predicted 'a', actual 'b'").
    Other checks (signs, whole values) are the reader's.

    >>> check_json_numbers([1, "7"], lambda i: f"count {i}", whole=True)
    Traceback (most recent call last):
    ...
    informed.errors.InputTypeError: count 1 is the string '7', not a number.
    """
    kinds = set(map(type, values))  # bool is its own type: True is not taken for 1
    if not kinds <= {int, float}:
        index = next(i for i, v in enumerate(values) if type(v) not in (int, float))
        msg = f"{where(index)} is {json_value(values[index])}, not a number."
        raise InputTypeError(msg)
    limit = _INT64_MAX if whole else sys.float_info.max
    if not values or (max(values) <= limit and min(values) >= -limit):
        return
    large = next((i for i, v in enumerate(values) if abs(v) > limit), None)
    if large is None:  # a nan: the reader's check of finite values names it
        return
    index, value = large, values[large]
    if isinstance(value, float) and math.isinf(value):  # 1e400 in the JSON text
        msg = f"{where(index)} is a number beyond the range of a float."
    elif whole:
        msg = (
            f"{where(index)} is {json_value(value)}, beyond int64 (pass float weights for "
            "counts this large)."
        )
    else:
        msg = f"{where(index)} is {json_value(value)}, beyond the range of a float."
    raise InputError(msg)


def check_document(data: Any, what: str, keys: frozenset[str], kind: str, version: int) -> None:
    """Refuse a JSON document of a `what` (Table, Tally, ...) that is not an object with
    exactly `keys`, of `kind` and `version` (a version `true` is not 1).

    >>> check_document({"kind": "k", "version": True}, "Thing", frozenset({"kind", "version"}),
    ...                "k", 1)
    Traceback (most recent call last):
    ...
    informed.errors.InputError: expected kind 'k' version 1; got 'k' version True.
    """
    if not isinstance(data, dict):
        msg = f"a {what} JSON document must be an object; got {type(data).__name__}."
        raise InputTypeError(msg)
    if set(data) != keys:
        msg = (
            f"a {what} JSON document has the keys {sorted(keys)}; missing "
            f"{sorted(keys - set(data))}, unknown {sorted(set(data) - keys)}."
        )
        raise InputError(msg)
    found = data["version"]
    if data["kind"] != kind or isinstance(found, bool) or found != version:
        msg = f"expected kind {kind!r} version {version}; got {data['kind']!r} version {found!r}."
        raise InputError(msg)


def check_float_total(values: Any, what: str = "the weights") -> float:
    """The exact sum of non-negative float `values`, rounded once; an InputError naming
    `what` when it is more than the largest float, rather than an inf total (which turns
    every measure into nan for no true reason) or a raw OverflowError.

    >>> try:
    ...     check_float_total(np.array([1e308, 1e308]))
    ... except InputError as error:
    ...     print(error)
    the weights sum to more than the largest float (1.8e308); scale them down.
    """
    array = np.asarray(values, dtype=np.float64)
    if array.size == 0:
        return 0.0
    with np.errstate(over="ignore"):
        quick = float(np.sum(array))  # pairwise: within 1e-13 of the exact sum
    if math.isfinite(quick) and quick < 1e307:
        return quick
    try:
        total = math.fsum(np.ravel(array).tolist())
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        msg = f"{what} sum to more than the largest float (1.8e308); scale them down."
        raise InputError(msg)
    return total


def sums_differ(found: Any, expected: Any, terms: Any) -> NDArray[np.bool_]:
    """Where two sums of the same non-negative values, added in different orders (a
    document's overall and the sum of its slices, a Table's column and a Ranking's
    positives), cannot be equal: integers must agree exactly; floats within the rounding
    of a sum of `terms` values, 2 * terms * eps * the larger sum: more than the two
    sums' errors together (each at most (terms - 1) * eps / 2 * the exact sum, in any
    order of addition: Higham, N. J. (2002), Accuracy and Stability of Numerical
    Algorithms, 2nd ed., section 4.2), so another order of addition is never taken for
    an edited value, and any edit larger than that rounding is found.

    >>> sums_differ(np.array([3, 4]), np.array([3, 5]), 2).tolist()
    [False, True]
    >>> sums_differ(np.array([0.1 + 0.2 + 0.3]), np.array([0.1 + (0.2 + 0.3)]), 3).tolist()
    [False]
    """
    a, b = np.asarray(found), np.asarray(expected)
    if a.dtype.kind in "iu" and b.dtype.kind in "iu":
        return np.asarray(a != b)
    a, b = a.astype(np.float64), b.astype(np.float64)
    tolerance = 2.0 * np.asarray(terms, dtype=np.float64) * np.finfo(np.float64).eps
    return np.asarray(np.abs(a - b) > tolerance * np.maximum(np.abs(a), np.abs(b)))


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


def cut_apart(texts: Iterable[object], width: int) -> list[str]:
    """`texts` made printable (`printable`) and cut to `width` characters, distinct texts
    kept distinct: a longer text keeps its start and an ellipsis; texts whose starts are
    the same keep their start and their end around the ellipsis instead; texts that still
    read alike are shown whole (a table's column then wraps or widens). Labels, slices
    and models are told apart by what a reader sees.

    >>> cut_apart(["north", "region=north-east-1", "region=north-east-2"], 12)
    ['north', 'region…ast-1', 'region…ast-2']
    >>> cut_apart(["a-long-one-x", "a-long-one-x ", "b-long-one"], 6)
    ['a-l…-x', 'a-l…x ', 'b-lon…']
    >>> cut_apart(["ab-1-yz", "ab-2-yz"], 4)
    ['ab-1-yz', 'ab-2-yz']
    """
    shown = [printable(text) for text in texts]
    if width < 3:
        return shown
    head = [t if len(t) <= width else t[: width - 1] + "…" for t in shown]
    alike = Counter(head)
    tail = (width - 1) // 2
    ends = [
        h if alike[h] == 1 or len(t) <= width else t[: width - 1 - tail] + "…" + t[-tail:]
        for t, h in zip(shown, head, strict=True)
    ]
    alike = Counter(ends)
    return [e if alike[e] == 1 else t for t, e in zip(shown, ends, strict=True)]


def _read_number(path: Path, key: str | None = None) -> int | None:
    """An integer from a /proc or /sys file (a `key:` line of it, in kB), None if absent."""
    try:
        text = path.read_text()
    except OSError:
        return None
    if key is None:
        word = text.strip()
        return int(word) if word.isdigit() else None
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    return None


def memory_available() -> int | None:
    """Bytes this process may still allocate, as far as the system says: the least of the
    memory the kernel reports available, the room left under the control group's limit,
    and under the address-space and data limits (`ulimit -v`); None where none is known.
    """
    room: list[int] = []
    available = _read_number(Path("/proc/meminfo"), "MemAvailable")
    if available is not None:
        room.append(available)
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        if line.startswith("0::"):  # cgroup v2
            group = Path("/sys/fs/cgroup") / line[3:].lstrip("/")
            limit = _read_number(group / "memory.max")
            used = _read_number(group / "memory.current")
            if limit is not None and used is not None:
                room.append(max(limit - used, 0))
    try:
        import resource
    except ImportError:  # pragma: no cover - not a Unix
        return min(room) if room else None
    status = Path("/proc/self/status")
    for limit_name, key in (("RLIMIT_AS", "VmSize"), ("RLIMIT_DATA", "VmData")):
        soft = resource.getrlimit(getattr(resource, limit_name))[0]
        if soft != resource.RLIM_INFINITY:
            used = _read_number(status, key)
            room.append(max(soft - (used or 0), 0))
    return min(room) if room else None


READ_EVERY = 1.0
"""Seconds a reading of `memory_available` serves `memory_budget`: reading the system
(/proc/meminfo, the control group, /proc/self/status) costs about 0.3 ms, so calls in a
burst share one reading; a process that runs for hours still sees the memory freed or
taken since, where a reading kept for the whole process would refuse, or allow, on what
was true when it was taken."""

_reading: list[tuple[float, int | None]] = []  # (time.monotonic(), bytes) of the last read


def memory_budget() -> int | None:
    """The bytes `check_memory` allows: the memory available (read at most once every
    `READ_EVERY` seconds), or INFORMED_MEMORY_LIMIT (bytes, read at every call) when that
    is smaller; None where neither is known."""
    now = time.monotonic()
    if not _reading or not 0 <= now - _reading[0][0] < READ_EVERY:
        _reading[:] = [(now, memory_available())]
    budget = _reading[0][1]
    override = os.environ.get("INFORMED_MEMORY_LIMIT", "")
    if override.isdigit():
        budget = int(override) if budget is None else min(budget, int(override))
    return budget


def check_memory(nbytes: int, what: str, way_out: str) -> None:
    """Refuse, before allocating, `nbytes` that exceed the memory available: a
    MemoryLimitError saying `what` needs how much, what there is, and `way_out`.

    Set INFORMED_MEMORY_LIMIT (bytes) to use a smaller budget than the system's.

    >>> try:
    ...     check_memory(1 << 60, "a table of 2^57 cells", "keep it sparse")
    ... except MemoryError as error:
    ...     print(str(error).split(",")[0])
    a table of 2^57 cells needs 1 EiB
    """
    budget = memory_budget()
    if budget is not None and nbytes > budget:
        msg = (
            f"{what} needs {byte_size(nbytes)}, more than the {byte_size(budget)} of memory "
            f"available; {way_out}."
        )
        raise MemoryLimitError(msg)


def byte_size(nbytes: float) -> str:
    """A number of bytes in words.

    >>> byte_size(3_200_000_000), byte_size(512)
    ('2.98 GiB', '512 bytes')
    """
    if nbytes < 1024:
        return f"{int(nbytes)} bytes"
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        nbytes /= 1024
        if nbytes < 1024:
            return f"{nbytes:.3g} {unit}"
    return f"{nbytes / 1024:.3g} EiB"
