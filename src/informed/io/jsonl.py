"""The JSON-lines reader of `informed tally`: one document per line, into a Tally.

The file format of `informed tally`: an optional first line ``{"categories": [...]}``,
then one document per line, ``{"assigned": [...], "correct": [...]}`` with an optional
``"name"``, or ``{"set_entries": [a, b, c, d]}`` to set the pooled table. A malformed
line is an error naming its line number, and a document is added only once its line has
been checked whole, so nothing is half-counted. Lines given as such are read by the
exact reader (`informed.io.jsonl_reader`); a file is read region by region, by pyarrow's
JSON parser where that gives the same result (`informed.io.jsonl_arrow`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from informed._common import check_choice
from informed.errors import InputTypeError
from informed.io.jsonl_arrow import read_file
from informed.io.jsonl_reader import Reader, parse_line, read_lines
from informed.tally.conventions import CONVENTIONS, Conventions
from informed.tally.state import Unknown, unknown_policy
from informed.tally.tally import Tally

__all__ = ["parse_line", "read_jsonl", "read_numbered"]


def read_jsonl(
    path_or_lines: str | os.PathLike[str] | Iterable[str | bytes],
    categories: Iterable[str] | None = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> Tally:
    """Read a Tally from JSON lines: one document per line.

    Format: an optional first line ``{"categories": [...]}`` declares the categories;
    every other line is a document ``{"assigned": ..., "correct": ..., "name": ...}``
    ("name" optional), each side a list of category names, a single name, or an object
    whose keys with true values are the names (Statistics::Contingency's add_result), or
    ``{"set_entries": [a, b, c, d]}``, which sets the pooled table there as the Perl
    module's ``set_entries`` does (documents after it add to the cells it set).
    Blank lines are skipped. When neither the file nor `categories` declares the
    categories, they are all the categories the file names, in code-point order.

    Parameters
    ----------
    path_or_lines : str, path or iterable of str
        A file path (read as UTF-8, a BOM allowed; with pyarrow installed, its regions
        of well-formed documents are parsed by pyarrow and counted in bulk, with the
        same result), or the lines themselves.
    categories : sequence of str, optional
        The categories; if the file declares them too, the two must be the same set.
    unknown, conventions
        As for `Tally` (by default unknown categories are an error under the default
        conventions, ignored and counted under "statistics-contingency").

    Returns
    -------
    Tally

    Raises
    ------
    InputError, InputTypeError
        For a malformed line, naming its 1-based line number (and the document name).
        Each line is validated completely before it is counted, so nothing is
        half-counted; the reader stops at the first bad line.

    References
    ----------
    Statistics::Contingency 0.09 (Williams), ``add_result`` and ``set_entries``.

    >>> t = read_jsonl(['{"categories": ["x", "y"]}', '{"assigned": ["x"], "correct": "y"}'])
    >>> t.counts.tolist()
    [[[0, 1], [0, 0]], [[0, 0], [1, 0]]]
    """
    check_choice(conventions, CONVENTIONS, "conventions")
    unknown = unknown_policy(unknown, conventions)
    if isinstance(path_or_lines, str | os.PathLike):
        path = Path(path_or_lines)
        reader = Reader(f"{path}, ", categories, unknown, conventions)
        read_file(path, reader)
        return reader.tally()
    if isinstance(path_or_lines, bytes):
        msg = "`path_or_lines` must be a path or an iterable of lines, not bytes."
        raise InputTypeError(msg)
    return read_lines(path_or_lines, "", categories, unknown, conventions)


def read_numbered(
    numbered: Iterable[tuple[int, str]],
    source: str,
    categories: Iterable[str] | None = None,
    unknown: Unknown | None = None,
    conventions: Conventions = "default",
) -> Tally:
    """`read_jsonl` of lines given with their line numbers (some lines of a file, such
    as one slice's: `informed.io.sliced_tallies`), every message naming the file's line;
    `source` is the file's name followed by ", "."""
    check_choice(conventions, CONVENTIONS, "conventions")
    reader = Reader(source, categories, unknown_policy(unknown, conventions), conventions)
    for number, raw in numbered:
        reader.line(number, raw)
    return reader.tally()
