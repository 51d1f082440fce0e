"""`informed.dask`, as in earlier releases: exact evaluation on a Dask cluster.

The adapter lives in `informed.engines.dask`, beside the other engines; this package
re-exports its functions, and `informed.dask.summaries` still names its module, so code
written for earlier releases keeps working. dask is imported only when one of them runs.
"""

from __future__ import annotations

import sys

from informed.engines.dask import summaries
from informed.engines.dask.slices import slices
from informed.engines.dask.summaries import (
    evaluate,
    rank,
    summarise,
    summarise_tally,
    table,
    tally,
)

__all__ = ["evaluate", "rank", "slices", "summarise", "summarise_tally", "table", "tally"]

# `import informed.dask.summaries` (the module, as earlier releases had it) finds the moved one
sys.modules.setdefault(f"{__name__}.summaries", summaries)
