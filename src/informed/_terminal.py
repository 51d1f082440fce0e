"""The pieces every terminal report is drawn with (rich): a console as wide as asked,
borderless tables, titles, user text escaped and never read as markup, numbers.

It sits low in the layers (it imports only `informed._common` and rich), so that every
unit that prints a report (the evaluation's, a comparison's, an operating point's) draws
it alike without importing another's report.
"""

from __future__ import annotations

import copy
import io
import math
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Column
from rich.table import Table as RichTable
from rich.text import Text

from informed._common import printable

__all__ = [
    "MIN_WIDTH",
    "PROSE",
    "WIDTH",
    "console",
    "fits",
    "grid",
    "narrow",
    "render",
    "split",
    "titled",
    "user",
    "value",
]

WIDTH = 100
"""Columns of the report when it does not go to a terminal."""
MIN_WIDTH = 40
"""The narrowest report drawn: below, the terminal wraps the lines. Down to it a table too
wide for the report is drawn as several (`narrow`), so no number is cut or wrapped."""


def console(color: bool, width: int) -> Console:
    """A console writing to a string, `width` columns wide (at least `MIN_WIDTH`), with
    ANSI colours only when `color`; no markup, emoji or highlighting of user text."""
    return Console(
        file=io.StringIO(),
        width=max(int(width), MIN_WIDTH),
        force_terminal=color,
        color_system="standard" if color else None,
        highlight=False,
        soft_wrap=False,
        emoji=False,
        markup=False,
    )


def grid(*, header: bool = True, expand: bool = False) -> RichTable:
    """A borderless table; with `expand`, as wide as the report (a column with ratio=1
    takes the room left)."""
    return RichTable(
        box=box.SIMPLE_HEAD if header else None,
        pad_edge=False,
        show_header=header,
        expand=expand,
    )


def titled(title: str, table: RichTable) -> Group:
    """A table under its title, which wraps at the report's width (the table need not)."""
    return Group(Text(title, style="bold"), table)


def render(parts: Sequence[Any], color: bool, width: int) -> str:
    """`parts` printed one under another, as text `width` columns wide."""
    out = console(color, width)
    for part in parts:
        out.print(_fitted(part, out.width))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    return str(text).rstrip("\n")


def user(text: object, limit: int | None = None) -> Text:
    """Text given by the user, control characters escaped, never markup; cut to `limit`."""
    shown = printable(text)
    if limit is not None and len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return Text(shown)


def value(number: float | None, digits: int = 4) -> str:
    """`number` with `digits` decimals; "undefined" for None or nan, "inf" or "-inf"."""
    if number is None or (isinstance(number, float) and math.isnan(number)):
        return "undefined"
    if isinstance(number, float) and math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return f"{number:.{digits}f}"


def _fitted(part: Any, width: int) -> Any:
    """`part` with every table in it (in groups too) narrowed to `width` columns."""
    if isinstance(part, RichTable):
        tables = narrow(part, width)
        return tables[0] if len(tables) == 1 else Group(*tables)
    if isinstance(part, Group):
        return Group(*(_fitted(x, width) for x in part.renderables))
    return part


def _natural(table: RichTable) -> int:
    """The columns `table` takes at its natural width (no cell cut or wrapped)."""
    wide = console(False, 100_000)
    return Measurement.get(wide, wide.options, table).maximum


def _with_columns(table: RichTable, columns: Sequence[Column], keys: int) -> RichTable:
    """`table` with only `columns`; the text of the first `keys` (its key columns) wraps
    when the room is short, so that the other columns keep their width."""
    out = copy.copy(table)
    out.columns = []
    for index, column in enumerate(columns):
        kept = copy.copy(column)
        kept._index = index
        if index < keys:
            kept.no_wrap, kept.overflow = False, "fold"
        out.columns.append(kept)
    return out


PROSE = 20
"""The columns a column of prose (a note, a formula) needs beside the numbers to be read."""


def _prose(table: RichTable, column: Column) -> bool:
    """Whether `column` holds prose that takes the room left (`ratio` in an expanded table)
    or wraps (folded and not aligned right), rather than values to keep whole."""
    folds = not column.no_wrap and column.overflow == "fold" and column.justify != "right"
    return bool(table.expand and column.ratio) or folds


def narrow(table: RichTable, width: int) -> list[RichTable]:
    """`table` if its columns fit in `width` at their natural width, else its columns
    packed in order into as few tables as fit, each repeating the key columns (the
    leading ones not aligned right: labels, names), whose text wraps if they and one
    column are still too wide: numbers are never cut. Columns of prose, which take the
    room left (`ratio`, in an expanded table) or wrap (folded, not aligned right), are not
    measured: they keep their place while `PROSE` columns are left for each; else they
    come last, in a table of their own where their text wraps.

    >>> t = grid()
    >>> for name in ("measure", "value", "interval"):
    ...     t.add_column(name, justify="left" if name == "measure" else "right")
    >>> t.add_row("Informedness", "0.9312", "[0.8984, 0.9626]")
    >>> [len(x.columns) for x in narrow(t, 42)], [len(x.columns) for x in narrow(t, 41)]
    ([3], [2, 2])
    """
    columns = table.columns
    keys = 1
    while keys < len(columns) - 1 and columns[keys].justify != "right":
        keys += 1
    key, rest = columns[:keys], columns[keys:]
    flexible = [c for c in rest if _prose(table, c)]
    fixed = [c for c in rest if not _prose(table, c)]
    room = width - PROSE * len(flexible)
    if not rest or _natural(_with_columns(table, [*key, *fixed], 0)) <= room:
        return [table]
    groups: list[list[Column]] = [[]]
    for column in fixed:
        trial = _with_columns(table, [*key, *groups[-1], column], 0)
        if groups[-1] and _natural(trial) > width:
            groups.append([])
        groups[-1].append(column)
    tables = [_with_columns(table, [*key, *group], keys) for group in groups if group]
    if flexible:  # their text wraps too, whole, rather than cut to the room left
        tables.append(_with_columns(table, [*key, *flexible], keys + len(flexible)))
        tables[-1].expand = False  # the widest column is narrowed first: theirs
    return tables


def fits(table: RichTable, width: int) -> bool:
    """Whether `table` fits in `width` columns at its natural width, so that no cell has to
    be cut or wrapped."""
    return _natural(table) <= max(int(width), MIN_WIDTH)


def split(
    build: Callable[[Sequence[str]], RichTable], names: Sequence[str], width: int
) -> list[RichTable]:
    """`build(names)` as one table if it fits in `width` columns, else its columns shared
    out over two or more tables (each repeats the first, key column)."""
    table = build(names)
    if len(names) < 2 or fits(table, width):
        return [table]
    half = (len(names) + 1) // 2
    return split(build, names[:half], width) + split(build, names[half:], width)
