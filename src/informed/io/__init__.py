"""Reading inputs: CSV, Parquet and Arrow IPC files in batches (into summaries), and tally
JSON lines.

The names load on first use (PEP 562): reading a CSV file into a Table does not load the
Tally's modules (and scipy.sparse with them), nor the reverse.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from informed.io.batches import FORMATS, Batch, Columns, iter_batches, read_columns
    from informed.io.jsonl import read_jsonl
    from informed.io.summaries import Summaries, read_summaries

_SOURCES = {
    "FORMATS": "informed.io.batches",
    "Batch": "informed.io.batches",
    "Columns": "informed.io.batches",
    "iter_batches": "informed.io.batches",
    "read_columns": "informed.io.batches",
    "read_jsonl": "informed.io.jsonl",
    "Summaries": "informed.io.summaries",
    "read_summaries": "informed.io.summaries",
}

__all__ = [
    "FORMATS",
    "Batch",
    "Columns",
    "Summaries",
    "iter_batches",
    "read_columns",
    "read_jsonl",
    "read_summaries",
]


def __getattr__(name: str) -> Any:
    source = _SOURCES.get(name)
    if source is None:
        msg = f"module 'informed.io' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
