"""Which files an input names: one path, a glob pattern, or a list of either.

A pattern (a path holding ``*``, ``?`` or ``[``) is expanded in sorted order; a pattern
that matches no file is an error, as is a file named twice (it would be counted twice).
Each file is known by its absolute path (`part_id`): the partition id a summary of that
file records, so that summaries written by separate processes can tell whether they
overlap.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from pathlib import Path

from informed.errors import InputError, InputTypeError

__all__ = ["expand_paths", "is_pattern", "part_id"]

_MAGIC = frozenset("*?[")


def is_pattern(path: str | os.PathLike[str]) -> bool:
    """True when `path` holds a glob character (``*``, ``?`` or ``[``)."""
    return any(character in _MAGIC for character in os.fspath(path))


def part_id(path: str | os.PathLike[str]) -> str:
    """The partition id of a file: its absolute path, symbolic links resolved (a loop of
    links is an InputError naming the path)."""
    try:
        return str(Path(path).resolve())
    except RuntimeError:  # before Python 3.13, resolve() reports a loop of links so
        msg = f"{os.fspath(path)}: cannot be read: it is a loop of symbolic links."
        raise InputError(msg) from None


def expand_paths(source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The files `source` names, in order: a path, a glob pattern, or a list of either.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("b.csv", "a.csv"):
    ...     _ = (folder / name).write_text("y\\n1\\n")
    >>> [p.name for p in expand_paths(folder / "*.csv")]
    ['a.csv', 'b.csv']
    """
    if isinstance(source, str | os.PathLike):
        items: list[str | os.PathLike[str]] = [source]
    elif isinstance(source, bytes) or not isinstance(source, Iterable):
        msg = f"expected a path, a glob pattern or a list of them; got {type(source).__name__}."
        raise InputTypeError(msg)
    else:
        items = list(source)
    files: list[Path] = []
    for item in items:
        if not isinstance(item, str | os.PathLike):
            msg = f"a list of files must hold paths (str); got {type(item).__name__} {item!r}."
            raise InputTypeError(msg)
        if is_pattern(item) and not Path(item).exists():
            found = sorted(glob.glob(os.fspath(item), recursive=True))
            if not found:
                msg = f"no file matches {os.fspath(item)!r}."
                raise InputError(msg)
            files.extend(Path(name) for name in found if not Path(name).is_dir())
        else:
            files.append(Path(item))
    if not files:
        msg = "no files given: name at least one file or a pattern that matches some."
        raise InputError(msg)
    seen: dict[str, Path] = {}
    for file in files:
        key = part_id(file)
        if key in seen:
            msg = (
                f"{file} is named twice (also as {seen[key]}): its rows would be counted "
                "twice; name each file once."
            )
            raise InputError(msg)
        seen[key] = file
    return files
