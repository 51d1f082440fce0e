"""The terminal report of a multi-label tally (`informed tally`): the statistics table of
Williams's Perl module Statistics::Contingency 0.09, then per category.

Presentation only, of a `TallySummary`; it loads only rich and the drawing pieces
(`informed._terminal`), so that `informed tally` starts without the modules of
the other reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text

from informed._common import printable
from informed._terminal import WIDTH, grid, render, split, user, value
from informed.measures import MEASURES

if TYPE_CHECKING:  # a Tally's modules load scipy.sparse: only `informed tally` needs them
    from informed.tally.document import TallySummary

__all__ = ["render_tally"]


def render_tally(summary: TallySummary, *, color: bool = False, width: int = WIDTH) -> str:
    """A multi-label tally: the one-glance statistics table of Williams's Perl module
    Statistics::Contingency 0.09, then per category."""
    head = Text(f"Documents: {summary.documents}", style="bold")
    parts: list[Any] = [head]
    if summary.ignored:  # unknown categories skipped, as Statistics::Contingency skips them
        count = len(summary.ignored)
        named = ", ".join(f"{printable(repr(c))} ({n})" for c, n in summary.ignored.items())
        parts.append(
            Text(
                f"Ignored {count} undeclared categor{'y' if count == 1 else 'ies'} "
                f"(documents naming each): {named}",
                style="yellow",
            )
        )
    table = "\n".join(printable(line) for line in summary.stats_table.rstrip().split("\n"))
    parts.append(Text(table))
    names = ("precision", "recall", "f_measure", "informedness", "markedness")

    def category_grid(shown: Sequence[str]) -> RichTable:
        table = grid()
        table.add_column("category", max_width=20, overflow="ellipsis", no_wrap=True)
        for name in shown:
            table.add_column(MEASURES[name].title, justify="right")
        for category, values in summary.per_category.items():
            table.add_row(user(category), *(value(values[n]) for n in shown))
        return table

    grids = split(category_grid, names, width)
    parts.append(Group(Text("Per category", style="bold"), *grids))
    return render(parts, color, width)
