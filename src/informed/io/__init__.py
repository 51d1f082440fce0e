"""Reading inputs: CSV, Parquet and Arrow IPC files in batches (into summaries), one file,
a glob pattern or a list of files, and tally JSON lines; summaries that record the
partitions they cover, merged exactly (`informed.io.coverage`).

The names load on first use (PEP 562): reading a CSV file into a Table does not load the
Tally's modules (and scipy.sparse with them), nor the reverse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from informed._lazy import lazy_names

if TYPE_CHECKING:
    from informed.io.batches import FORMATS, Batch, Columns, iter_batches, read_columns
    from informed.io.coverage import Summaries, check_complete
    from informed.io.jsonl import read_jsonl
    from informed.io.paths import expand_paths
    from informed.io.summaries import read_summaries, summarise_file, summarise_frame
    from informed.io.summary_files import merge_files
    from informed.io.tallies import summarise_documents, summarise_jsonl

_SOURCES = {
    "FORMATS": "informed.io.batches",
    "Batch": "informed.io.batches",
    "Columns": "informed.io.batches",
    "iter_batches": "informed.io.batches",
    "read_columns": "informed.io.batches",
    "read_jsonl": "informed.io.jsonl",
    "check_complete": "informed.io.coverage",
    "merge_files": "informed.io.summary_files",
    "expand_paths": "informed.io.paths",
    "Summaries": "informed.io.coverage",
    "read_summaries": "informed.io.summaries",
    "summarise_file": "informed.io.summaries",
    "summarise_frame": "informed.io.summaries",
    "summarise_documents": "informed.io.tallies",
    "summarise_jsonl": "informed.io.tallies",
}

__all__ = [
    "FORMATS",
    "Batch",
    "Columns",
    "Summaries",
    "check_complete",
    "expand_paths",
    "iter_batches",
    "merge_files",
    "read_columns",
    "read_jsonl",
    "read_summaries",
    "summarise_documents",
    "summarise_file",
    "summarise_frame",
    "summarise_jsonl",
]


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
