"""The terminal report of a slice search: the slices found, then the search's figures.

Presentation only: every number is read from the `SliceSearch`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.text import Text

from informed._common import printable
from informed._terminal import WIDTH, grid, render, split, titled, user, value
from informed.disparity.result import MEASURE_TITLES, SliceSearch, condition_name

__all__ = ["render_search"]


def render_search(
    search: SliceSearch, source: str, *, color: bool = False, width: int = WIDTH
) -> str:
    """The search as text, `width` columns wide (ANSI colours only when `color`)."""
    title = MEASURE_TITLES[search.measure]
    positive = (
        f", positive class {printable(repr(search.positive))}"
        if search.positive is not None
        else ""
    )
    head = Text(
        f"{printable(source)}: N = {search.rows:,}{positive}; {title} overall "
        f"{value(search.overall)}\nSlices least informed: by {', '.join(search.columns)}, "
        f"up to {min(search.depth, len(search.columns))} conditions, at least "
        f"{search.min_size} {search.margins} positives and negatives",
        style="bold",
    )
    parts: list[Any] = [head, ""]
    if search.found:
        parts.append(_found(search, title, width))
    else:
        parts.append(
            Text(
                f"No slice is less informed than the rest of the rows: no simultaneous "
                f"{100 * search.level:g} % interval of a gap excludes 0."
                if not search.tested or search.untestable < search.tested
                else f"No slice could be tested: no gap has an interval ({search.measure} "
                "undefined, or no variance, in every slice tested or its rest)."
            )
        )
    parts.append(Text(_figures(search), style="dim"))
    return render(parts, color, width)


def _found(search: SliceSearch, title: str, width: int) -> Any:
    """The found slices' table under its title; on a narrow terminal its value columns
    shared out over two or more tables, each repeating the rank and the slice."""
    cells: dict[str, Any] = {
        "n": lambda f: f"{f.n:,}",
        "+R": lambda f: "" if f.positives is None else f"{f.positives:,}",
        "-R": lambda f: "" if f.negatives is None else f"{f.negatives:,}",
        "slice": lambda f: value(f.value),
        "rest": lambda f: value(f.rest),
        "gap": lambda f: value(f.gap),
        "low": lambda f: value(f.interval.low),
        "high": lambda f: value(f.interval.high),
    }
    longest = max(len(f.name) for f in search.found)

    def build(headings: Sequence[str]) -> Any:
        table = grid()
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("slice", no_wrap=True, min_width=min(longest, 40))
        for heading in headings:
            table.add_column(heading, justify="right", no_wrap=True)
        for rank, f in enumerate(search.found, start=1):
            table.add_row(str(rank), user(f.name, 60), *(cells[h](f) for h in headings))
        return table

    tables = split(build, list(cells), width)
    shown = f"{100 * search.level:g} %"
    first = titled(
        f"{len(search.found)} slices less informed than the rest: {title} of the slice and "
        f"of the rest, the gap (rest - slice) and its {shown} simultaneous interval (low, high), "
        "ranked by its lower bound",
        tables[0],
    )
    return Group(first, *tables[1:])


def _groups(search: SliceSearch) -> list[str]:
    """One line per group of overlapping slices: the condition and the ranks under it."""
    groups: dict[str, list[int]] = {}
    for rank, f in enumerate(search.found, start=1):
        if f.group is not None:
            groups.setdefault(condition_name(f.group), []).append(rank)
    return [
        f"overlapping, grouped under {printable(name)}: " + ", ".join(f"#{r}" for r in ranks)
        for name, ranks in groups.items()
    ]


def _figures(search: SliceSearch) -> str:
    lines = [
        *_groups(search),
        f"tested {search.tested:,} slices; pruned {search.pruned:,} (too few "
        f"{search.margins} cases of a {_kind(search)} to test or to extend); "
        f"{search.hypotheses:,} hypotheses in the family"
        + (
            f"; {search.untestable:,} without an interval (no variance, or the measure undefined)"
            if search.untestable
            else ""
        ),
    ]
    for level in search.levels:
        lines.append(
            f"  depth {level.depth}: counted {level.counted:,}, tested {level.tested:,}, "
            f"pruned {level.pruned:,}, found {level.found:,}"
        )
    for name, edges in search.cuts.items():
        lines.append(
            f"  {printable(name)} cut into {len(edges) - 1} quantile ranges at "
            + ", ".join(f"{x:.6g}" for x in edges)
        )
    lines.append(f"method: {search.method_text}")
    nested = [f for f in search.found if f.within is not None]
    if nested:
        lines.append(
            "a slice inside another slice found is reported only where it is less informed "
            "than the rest of that slice's rows (its interval there excludes 0 too)"
        )
    return "\n".join(lines)


def _kind(search: SliceSearch) -> str:
    """What a margin `min_size` counts is of: a real class, or a predicted label."""
    return "label" if search.margins == "predicted" else "class"
