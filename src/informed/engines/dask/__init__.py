"""Exact evaluation on a Dask cluster: each partition summarised where it lies, the
summaries merged in a tree, and the ordinary Table, Ranking, Tally or Slices handed back
(`informed.engines.dask.summaries`, `informed.engines.dask.slices`). dask is imported
only when one of these functions is called: ``pip install 'informed[dask]'``.
"""

from __future__ import annotations

from informed.engines.dask.slices import slices
from informed.engines.dask.summaries import evaluate, rank, summarise, summarise_tally, table, tally

__all__ = ["evaluate", "rank", "slices", "summarise", "summarise_tally", "table", "tally"]
