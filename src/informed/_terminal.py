"""The pieces every terminal report is drawn with (rich): a console as wide as asked,
borderless tables, titles, user text escaped and never read as markup, numbers; and for
the reports written as plain lines (the slices'), their tables (`plain_table`) and
sentences (`report_lines`). A table too wide for the terminal, rich (`narrow`) or plain,
is split into tables of its columns that fit, each repeating the key column.

It sits low in the layers (it imports only `informed._common` and rich), so that every
unit that prints a report (the evaluation's, a comparison's, an operating point's) draws
it alike without importing another's report.
"""

from __future__ import annotations

import copy
import io
import math
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    "PlainColumn",
    "console",
    "fits",
    "grid",
    "narrow",
    "plain_table",
    "render",
    "report_lines",
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


@dataclass(frozen=True)
class PlainColumn:
    """A column of a table written as plain lines (`plain_table`).

    Attributes
    ----------
    heading : str
        Its heading.
    width : int
        The width its cells are padded to in the table drawn whole (0: not padded).
    align : str
        ">" (right: numbers) or "<" (left: names, intervals, prose).
    gap : int
        The spaces before it (none before the first, key, column).
    wraps : bool
        Whether its text (a name, prose) may wrap when the table is split; a number or
        an interval never does.
    """

    heading: str
    width: int = 0
    align: str = ">"
    gap: int = 2
    wraps: bool = False


def _padded(text: str, width: int, align: str) -> str:
    return text.rjust(width) if align == ">" else text.ljust(width)


def _folded(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` characters, broken between words where it can."""
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, max(width, 1), break_on_hyphens=False) or [""]


def _spans(row: Sequence[str], j: int, columns: int) -> bool:
    """Whether cell `j` of `row` spans the rest of the line: the last of a row short of
    cells."""
    return j == len(row) - 1 < columns - 1


def _gap(columns: Sequence[PlainColumn], j: int, first: bool) -> int:
    """The spaces before column `j` in a split table: at least two after the key."""
    return max(columns[j].gap, 2) if first else columns[j].gap


def _block_lines(
    columns: Sequence[PlainColumn],
    table: Sequence[Sequence[str]],
    natural: list[int],
    block: list[int],
    width: int,
) -> list[str]:
    """The key column and the columns `block` of `table` (headings first), each as wide
    as its widest cell; when that is wider than `width`, the text of the columns that
    wrap folds: the prose first, down to `PROSE` characters, then the key, down to
    `PLAIN_FOLD`."""
    shown = [0, *block]
    widths = {j: natural[j] for j in shown}
    gaps = {j: _gap(columns, j, j == block[0]) for j in block}
    excess = widths[0] + sum(gaps[j] + widths[j] for j in block) - width
    for j in [*reversed(block), 0]:  # prose keeps PROSE columns, a name PLAIN_FOLD
        cut = min(excess, widths[j] - (PLAIN_FOLD if j == 0 else PROSE)) if columns[j].wraps else 0
        if cut > 0:
            widths[j] -= cut
            excess -= cut
    lines: list[str] = []
    for row in table:
        cells: list[tuple[int, int, list[str]]] = []  # column, start, its lines
        under: list[str] = []  # a note with too little room beside the row: under it
        offset = 0
        for j in shown:
            offset += gaps[j] if j else 0
            text = row[j] if j < len(row) else ""
            if _spans(row, j, len(columns)):
                if width - offset >= min(len(text), PROSE):
                    cells.append((j, offset, _folded(text, width - offset)))
                else:
                    under = ["  " + x for x in _folded(text, width - 2)]
                break
            cells.append((j, offset, _folded(text, widths[j]) if columns[j].wraps else [text]))
            offset += widths[j]
        for k in range(max(len(found) for _, _, found in cells)):
            line = ""
            for j, start, found in cells:
                cell = found[k] if k < len(found) else ""
                line = line.ljust(start) + _padded(cell, widths[j], columns[j].align)
            lines.append(line.rstrip())
        lines += under
    return lines


PLAIN_FOLD = 8
"""The fewest columns the key (a name) is folded to in a split plain table."""


def plain_table(
    columns: Sequence[PlainColumn], rows: Sequence[Sequence[str]], width: int | None
) -> list[str]:
    """The heading line and a line per row of a plain-text table: each cell padded to its
    column's width after its gap, the lines' trailing spaces dropped. A row with fewer
    cells than columns ends in a cell that spans the rest of the line (a note). When the
    lines run past `width` columns (at least `MIN_WIDTH`; None: never), the columns are
    packed in order, each as wide as its widest cell, into blocks that fit, one under
    another with a blank line between, each repeating the first (key) column, as
    `narrow` does for a rich table; names and prose fold when a block is still too wide,
    numbers never.

    >>> columns = [PlainColumn("slice", 6, "<", 0), PlainColumn("informedness", 12),
    ...            PlainColumn("95% interval", 18, "<", 1), PlainColumn("markedness", 10),
    ...            PlainColumn("flag", 0, "<", wraps=True)]
    >>> rows = [["alpha", "0.516", "[0.427, 0.598]", "0.501", ""],
    ...         ["gamma", "0.304", "[0.208, 0.385]", "0.296", "12 real positives"]]
    >>> print("\\n".join(plain_table(columns, rows, 80)))
    slice   informedness 95% interval        markedness  flag
    alpha          0.516 [0.427, 0.598]           0.501
    gamma          0.304 [0.208, 0.385]           0.296  12 real positives
    >>> print("\\n".join(plain_table(columns, rows, 40)))
    slice  informedness 95% interval
    alpha         0.516 [0.427, 0.598]
    gamma         0.304 [0.208, 0.385]
    <BLANKLINE>
    slice  markedness  flag
    alpha       0.501
    gamma       0.296  12 real positives
    """
    table = [[c.heading for c in columns], *rows]
    lines = [
        "".join(
            (" " * c.gap if j else "")
            + (cell if _spans(row, j, len(columns)) else _padded(cell, c.width, c.align))
            for j, (c, cell) in enumerate(zip(columns, row, strict=False))
        ).rstrip()
        for row in table
    ]
    if width is None or max(len(line) for line in lines) <= max(width, MIN_WIDTH):
        return lines
    width = max(width, MIN_WIDTH)
    natural = [0] * len(columns)
    for row in table:
        for j, cell in enumerate(row):
            if not _spans(row, j, len(columns)):
                natural[j] = max(natural[j], len(cell))
    blocks: list[list[int]] = [[]]
    used = natural[0]
    for j in range(1, len(columns)):
        if rows and not any(j < len(row) and row[j] for row in rows):
            continue  # no cell to show: a column of flags that no row has
        need = _gap(columns, j, not blocks[-1]) + natural[j]
        if blocks[-1] and used + need > width:
            blocks.append([])
            used = natural[0]
            need = _gap(columns, j, True) + natural[j]
        blocks[-1].append(j)
        used += need
    out: list[str] = []
    for block in blocks:
        out += ([""] if out else []) + _block_lines(columns, table, natural, block, width)
    return out


def report_lines(lines: list[str], width: int | None) -> str:
    """The report's lines: a table row as it is (its columns stay aligned), a sentence
    (a line with no run of two spaces after its indent) wrapped to `width` columns, its
    continuation indented as it is, two more spaces; an interval "[low, high]" is never
    split over two lines.

    >>> print(report_lines(["spread (max - min) is 0.096 [0.052, 0.242] here"], 40), end="")
    spread (max - min) is 0.096
      [0.052, 0.242] here
    """
    out: list[str] = []
    for line in lines:
        indent = line[: len(line) - len(line.lstrip())]
        if width is None or len(line) <= width or "  " in line.strip():
            out.append(line.rstrip())
            continue
        whole = _INTERVAL.sub("\\1,\x00", line.strip())  # an interval is never wrapped
        out += [
            wrapped.replace("\x00", " ")
            for wrapped in textwrap.wrap(
                whole,
                width=max(width, MIN_WIDTH),
                initial_indent=indent,
                subsequent_indent=indent + "  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        ]
    return "\n".join(out) + "\n"


_INTERVAL = re.compile(r"(\[[^\]\s,]*), (?=[^\]\s]*\])")
"""The space inside an interval "[low, high]", kept from wrapping."""
