"""How a Tally shows itself in a notebook: each category's cells and measures, then the
micro (pooled) and macro (mean over categories) rows.

Built from the escaped pieces of `informed._markup`; it reads a `TallyState` through the
measures of `informed.tally.measures`, so the Tally class calls it without an import cycle.
"""

from __future__ import annotations

from informed._markup import count_cell, fragment, header_cell, html_table, value_cell
from informed.tally import measures
from informed.tally.state import TallyState
from informed.tally.stats_table import stats_table

__all__ = ["SHOWN_CATEGORIES", "TallyView", "tally_html", "tally_repr"]

SHOWN_CATEGORIES = 30
"""Categories a notebook lists; the micro and macro rows cover every one."""
_MEASURES = ("precision", "recall", "f_measure", "informedness")


def tally_html(tally: TallyState) -> str:
    """The categories' a, b, c, d and measures, then micro and macro (escaped).

    >>> from informed import Tally
    >>> t = Tally(["<i>", "b"])
    >>> t.add_result(["<i>"], ["<i>", "b"])
    >>> html = t._repr_html_()
    >>> "&lt;i&gt;" in html and "<i>" not in html
    True
    """
    counts = tally.counts
    per = {name: measures.per_category(tally, name) for name in _MEASURES}
    rows = []
    for k, category in enumerate(tally.categories[:SHOWN_CATEGORIES]):
        cells = [count_cell(int(v)) for v in counts[k].ravel()]
        rows.append(
            [header_cell(category, row=True), *cells]
            + [value_cell(per[name][category]) for name in _MEASURES]
        )
    pooled = tally.pooled
    rows.append(
        [header_cell("micro", row=True), *(count_cell(int(v)) for v in pooled.ravel())]
        + [value_cell(measures.micro(tally, name)) for name in _MEASURES]
    )
    rows.append(
        [header_cell("macro", row=True), *("<td></td>" for _ in range(4))]
        + [value_cell(measures.macro(tally, name)) for name in _MEASURES]
    )
    hidden = len(tally.categories) - SHOWN_CATEGORIES
    title = (
        f"Tally: {tally.documents:,} documents, {len(tally.categories)} categories "
        f"({tally.conventions} conventions)"
    )
    grid = html_table(
        ["category", "a", "b", "c", "d", "precision", "recall", "F", "informedness"],
        rows,
        styled=True,
    )
    note = f"{hidden} more categories not listed" if hidden > 0 else None
    return fragment(title, [grid], note=note)


def tally_repr(tally: TallyState, shown: int = 20) -> str:
    """One line: the first `shown` categories, the documents, the policy and conventions.

    >>> from informed import Tally
    >>> tally_repr(Tally([str(k) for k in range(30)]), 3)[:57]
    "Tally(categories=['0', '1', '2'] and 27 more, documents=0"
    """
    categories = list(tally.categories)
    listed = f"{categories[:shown]!r}" + (
        f" and {len(categories) - shown:,} more" if len(categories) > shown else ""
    )
    return (
        f"Tally(categories={listed}, documents={tally.documents}, "
        f"unknown={tally.unknown!r}, conventions={tally.conventions!r})"
    )


class TallyView(TallyState):
    """The notebook view of a Tally, its one-line repr and its printed statistics table
    (`Tally` inherits them)."""

    def __repr__(self) -> str:
        return tally_repr(self)

    def __str__(self) -> str:
        """``print(tally)`` prints the statistics table, as the Perl module's
        ``stats_table`` prints it."""
        return stats_table(self)

    def _repr_html_(self) -> str:
        """A notebook's view: every category's cells and measures, micro and macro."""
        return tally_html(self)
