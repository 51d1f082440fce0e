"""Reading inputs: CSV, Parquet and Arrow IPC files in batches (into summaries), and tally
JSON lines."""

from __future__ import annotations

from informed.io.batches import (
    FORMATS,
    Batch,
    Columns,
    iter_batches,
    read_columns,
)
from informed.io.jsonl import (
    read_jsonl,
)
from informed.io.summaries import Summaries, read_summaries

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
