"""Exception and warning classes of `informed`.

Every error says what is wrong, what was expected, what was received and, where it can,
how to fix it. Bad values raise subclasses of `ValueError`, bad types subclasses of
`TypeError`, so callers that catch the built-in classes keep working.
"""

from __future__ import annotations

__all__ = [
    "InputError",
    "InputTypeError",
    "MemoryLimitError",
    "UndefinedMeasureWarning",
    "UnknownMeasureError",
    "at_row",
]


class InputError(ValueError):
    """A value given to `informed` cannot be used (negative count, NaN label, ...)."""


class InputTypeError(TypeError):
    """An input has the wrong type (a set where a sequence is needed, mixed label types)."""


class MemoryLimitError(InputError, MemoryError):
    """A computation would need more memory than there is; the message names the sizes
    and the way out. Both an `InputError` (the command line prints it in one line) and a
    `MemoryError`."""


class UnknownMeasureError(InputError, KeyError):
    """A name that is no measure's, or no measure's of those at hand: bad input (an
    `InputError`: the command line prints it in one line) and a missing key of a
    mapping by measure (a `KeyError`: ``result.measures["nonsense"]``)."""

    def __str__(self) -> str:  # a KeyError's str is the repr of its key: say the message
        return str(self.args[0]) if self.args else ""


class UndefinedMeasureWarning(UserWarning):
    """A measure was asked for where it is undefined; it is reported as NaN."""


def at_row(index: int) -> str:
    """Where a bad value of an array is, as every message says it: rows count from 1.

    Row 1 is the first element (index 0), as data row 1 of a file is the first row below
    its header; the 0-based index is given too, for code that indexes the array.

    >>> at_row(0)
    'row 1 (index 0)'
    """
    return f"row {index + 1} (index {index})"
