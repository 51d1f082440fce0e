"""Inputs beyond one file: reading on a Dask cluster (`informed evaluate --dask`), what a
report says about the rows it covers, and summaries written for `informed merge`."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from informed.errors import InputError

if TYPE_CHECKING:
    from informed.io import Summaries

__all__ = [
    "check_not_input",
    "check_save_path",
    "coverage",
    "dask_client",
    "read_on_dask",
    "source_text",
    "write_json",
    "write_partial",
]


def dask_client(address: str) -> tuple[Any, Any]:
    """(client, cluster or None) for --dask: a LocalCluster of one single-threaded worker
    process per core for 'local', else a client of the scheduler at `address`."""
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        msg = "--dask needs dask and distributed: pip install 'informed[dask]'."
        raise InputError(msg) from None
    if address == "local":
        cluster = distributed.LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: never "8787 is already in use"
            silence_logs=logging.CRITICAL,
        )
        return distributed.Client(cluster), cluster
    try:
        return distributed.Client(address, timeout="10s"), None
    except (OSError, TimeoutError, ValueError) as exc:
        msg = f"--dask {address}: cannot reach a Dask scheduler there ({exc})."
        raise InputError(msg) from None


def read_on_dask(args: argparse.Namespace, source: str | list[str]) -> Summaries:
    """The files' summaries computed on the cluster --dask names (one task per file), the
    cluster closed afterwards whatever happens."""
    from informed.engines.dask import summarise

    client, cluster = dask_client(args.dask)
    try:
        found = summarise(
            source,
            actual=args.actual,
            predicted=args.predicted,
            scores=args.score,
            weights=args.weight,
            positive=args.positive,
            scheduler=client,
            partial=args.partial is not None,
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if found.rows == 0 and args.partial is None:
        msg = f"{source_text(source)}: the files hold no data rows: nothing to evaluate."
        raise InputError(msg)
    return found


def source_text(source: str | list[str]) -> str:
    """A pattern or file as it was given, or how many files a list holds."""
    return source if isinstance(source, str) else f"{len(source)} files"


def coverage(found: Summaries, engine: str) -> dict[str, Any]:
    """What the report says of the rows: read, counted, from how many partitions, by what
    (the counted rows are the summaries' own count, checked equal to the rows read)."""
    from informed.io.coverage import counted_rows

    return {
        "rows_read": found.rows,
        "rows_counted": counted_rows(found),
        "partitions": len(found.parts),
        "engine": engine,
    }


def write_partial(args: argparse.Namespace, found: Summaries) -> None:
    """`informed evaluate --partial FILE`: the summaries written, a line on stderr."""
    from informed._common import printable

    write_json(found.to_json(), args.partial, "--partial")
    if not args.quiet:
        print(
            f"informed: wrote the summaries of {found.rows:,} rows from "
            f"{len(found.parts):,} files to {printable(args.partial)}",
            file=sys.stderr,
        )


def check_save_path(path: str, option: str) -> None:
    """Refuse a path that cannot be written, before any work, naming the option
    (`informed.io.output_files`: a device or FIFO is written through, a link followed)."""
    from informed.io.output_files import check_output

    check_output(path, _WHAT.get(option, option))


def check_not_input(path: str, files: list[str], option: str) -> None:
    """Refuse an output path that names one of the input files (through a link too):
    `--partial data.csv` would replace the data with its summary."""
    from informed.io import expand_paths

    try:
        inputs = expand_paths(files)
    except InputError:  # no such input: reading it says so
        return
    target = os.path.realpath(path)
    for file in inputs:
        if os.path.realpath(file) == target:
            msg = (
                f"{option} {path}: it is the input file {str(file)!r}, which writing would "
                "replace; give another file name."
            )
            raise InputError(msg)


_WHAT = {"--partial": "the summaries (--partial)", "--output": "the merged summaries (--output)"}


def write_json(text: str, path: str, option: str) -> None:
    """Write JSON text for `option`: atomically to a file (a reader never sees half of
    it), through a device or FIFO."""
    from informed.io.output_files import write_output

    write_output(path, text, _WHAT.get(option, option))
