"""Category names of a Tally: the forms a document's categories may take, and the checks.

A document's assigned and correct categories come as the Perl module's ``add_result``
takes them (a list, a hash, a single string); the declared categories of a Tally are a
list of distinct str. `preview` shows a few names in an error message.

References
----------
Williams, K. (2002-2008). Statistics::Contingency 0.09, Perl module.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from informed.coding.label_text import first_bad_text, text_problem
from informed.errors import InputError, InputTypeError

__all__ = ["category_names", "check_categories", "preview", "shown"]

# a value shown in a message: a few levels and items of it, however deep or long it is
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 3, 4, 4
_SHORT.maxstring = _SHORT.maxother = 60


def shown(value: Any) -> str:
    """`value` for an error message: its repr cut to a few levels and items, so a deeply
    nested or huge value cannot flood the message (or exhaust the recursion limit).

    >>> shown([[[[[["deep"]]]]]])
    '[[[[...]]]]'
    """
    return _SHORT.repr(value)


def category_names(given: Any, side: str, where: str) -> list[str]:
    """The category names of one side of a document, in any form the Perl module allows.

    A list, tuple or set of names; a dict (Perl's hash) whose keys with true values are the
    names (Python truthiness: keys with false values are not mentions); a single str for
    one category; or a one-dimensional numpy array of str. Repeats are kept here; the
    caller treats the result as a set, as the Perl module's hash does.

    Parameters
    ----------
    given : list, tuple, set, dict, str or ndarray
    side : str
        "assigned" or "correct", for messages.
    where : str
        The document ("document 'doc-7'", "line 3"), for messages.

    Returns
    -------
    list of str

    References
    ----------
    Statistics::Contingency 0.09 (Williams), ``add_result``: "an array of category names
    (strings), ... a hash whose keys are the category names and whose values are anything
    logically true, or ... a single string if there is only one category".

    >>> category_names({"a": True, "b": 0}, "assigned", "document 0")
    ['a']
    """
    names: list[Any]
    if isinstance(given, str):
        names = [given]
    elif isinstance(given, Mapping):
        names = [key for key, value in given.items() if value]
    elif isinstance(given, list | tuple | set | frozenset):
        names = list(given)
    elif isinstance(given, np.ndarray) and given.ndim == 1 and given.dtype.kind in "UO":
        names = given.tolist()
    else:
        msg = (
            f"{where}: `{side}` must be a list, tuple, set, dict or single str of "
            f"category names; got {type(given).__name__}."
        )
        raise InputTypeError(msg)
    for category in names:
        if not isinstance(category, str):
            msg = (
                f"{where}: `{side}` holds {shown(category)} of type "
                f"{type(category).__name__}; category names are str."
            )
            raise InputTypeError(msg)
    _check_text(names, f"{where}: `{side}`")
    return [str(category) for category in names]


def _check_text(names: list[str], what: str) -> None:
    """Refuse a name holding NUL or a lone surrogate (`informed.coding.label_text`), as a label."""
    bad = first_bad_text(names)
    if bad is not None:
        name = names[bad]
        msg = f"{what} holds {name!r}, which cannot be a category name: {text_problem(name)}."
        raise InputError(msg)


def check_categories(
    given: Any, *, name: str = "categories", allow_empty: bool = False, merge: bool = False
) -> tuple[str, ...]:
    """Validate a list of category names: each a str; a set is sorted.

    A repeated name is an error, or with `merge` kept once at its first place (the Perl
    module's category list becomes the keys of a hash, so a repeat counts once).

    >>> check_categories(["a", "b", "a"], merge=True)
    ('a', 'b')
    """
    if isinstance(given, str | bytes):
        msg = f"`{name}` must be a list of category names, not a bare {type(given).__name__}."
        raise InputTypeError(msg)
    if isinstance(given, set | frozenset):
        given = sorted(given, key=lambda x: (not isinstance(x, str), str(x)))
    try:
        out = tuple(given)
    except TypeError:
        msg = f"`{name}` must be a list of category names; got {type(given).__name__}."
        raise InputTypeError(msg) from None
    for category in out:
        if not isinstance(category, str):
            msg = f"`{name}` holds {shown(category)} ({type(category).__name__}); names are str."
            raise InputTypeError(msg)
    out = tuple(str(category) for category in out)  # np.str_ -> str
    _check_text(list(out), f"`{name}`")
    if len(set(out)) != len(out):
        if merge:
            out = tuple(dict.fromkeys(out))
        else:
            seen: set[str] = set()
            repeated = next(c for c in out if c in seen or seen.add(c))  # type: ignore[func-returns-value]
            msg = (
                f"`{name}` must hold distinct names; {repeated!r} appears twice "
                '(conventions="statistics-contingency" keeps one, as the Perl module does).'
            )
            raise InputError(msg)
    if not out and not allow_empty:
        msg = f"`{name}` is empty; a Tally needs at least one category."
        raise InputError(msg)
    return out


def preview(names: Iterable[str], limit: int = 8) -> str:
    """The first `limit` names as a list literal, for error messages."""
    names = list(names)
    text = repr(names[:limit])
    return text if len(names) <= limit else text[:-1] + f", ... ({len(names)} in all)]"
