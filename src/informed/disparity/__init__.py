"""Where is the model less informed than elsewhere? The search for such slices.

One home for the question, in the order of the layers inside it: `columns` codes the
columns searched (numbers cut into quantile ranges), `counting` counts each level's
candidates in one grouped count per combination of columns and prunes them from their
counts, `gaps` measures each slice's gap from the rest with an interval that holds over
the whole search, `search` tests, dedupes and ranks, `finding` is `informed.find_slices`
on every input (arrays, frames, files, engines), `result` its result (`SliceSearch`,
with its JSON form and CSV rows), `text` its terminal table, `plots` its forest plot
(`informed.plot_found_slices`) and `html` its section of the HTML report.

The names load on first use (PEP 562): `informed.find_slices` does not load matplotlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names

if TYPE_CHECKING:
    from informed.disparity.finding import find_slices
    from informed.disparity.plots import plot_found_slices
    from informed.disparity.result import FoundSlice, SliceSearch

_SOURCES = {
    "find_slices": "informed.disparity.finding",
    "FoundSlice": "informed.disparity.result",
    "SliceSearch": "informed.disparity.result",
    "plot_found_slices": "informed.disparity.plots",
}

__all__ = ["FoundSlice", "SliceSearch", "find_slices", "plot_found_slices"]

__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
