"""The pieces every terminal report is drawn with (rich): a console as wide as asked,
borderless tables, titles, user text escaped and never read as markup, numbers.

It sits low in the layers (it imports only `informed._common` and rich), so that every
unit that prints a report (the evaluation's, a comparison's, an operating point's) draws
it alike without importing another's report.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table as RichTable
from rich.text import Text

from informed._common import printable

__all__ = [
    "MIN_WIDTH",
    "WIDTH",
    "console",
    "fits",
    "grid",
    "render",
    "split",
    "titled",
    "user",
    "value",
]

WIDTH = 100
"""Columns of the report when it does not go to a terminal."""
MIN_WIDTH = 64
"""The narrowest report drawn: below, the terminal wraps the lines."""


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
        out.print(part)
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


def fits(table: RichTable, width: int) -> bool:
    """Whether `table` fits in `width` columns at its natural width, so that no cell has to
    be cut or wrapped."""
    wide = console(False, 100_000)
    natural = Measurement.get(wide, wide.options, table).maximum
    return natural <= max(int(width), MIN_WIDTH)


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
