"""Exception and warning classes of `informed`.

Every error says what is wrong, what was expected, what was received and, where it can,
how to fix it. Bad values raise subclasses of `ValueError`, bad types subclasses of
`TypeError`, so callers that catch the built-in classes keep working.
"""

from __future__ import annotations

__all__ = ["InputError", "InputTypeError", "UndefinedMeasureWarning"]


class InputError(ValueError):
    """A value given to `informed` cannot be used (negative count, NaN label, ...)."""


class InputTypeError(TypeError):
    """An input has the wrong type (a set where a sequence is needed, mixed label types)."""


class UndefinedMeasureWarning(UserWarning):
    """A measure was asked for where it is undefined; it is reported as NaN."""
