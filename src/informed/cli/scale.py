"""Inputs beyond one file: reading on a Dask cluster (`informed evaluate --dask`), what a
report says about the rows it covers, and summaries written for `informed merge`."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from informed.errors import InputError

if TYPE_CHECKING:
    from informed.io import Summaries

__all__ = [
    "check_save_path",
    "coverage",
    "read_on_dask",
    "source_text",
    "write_json",
    "write_partial",
]


def _cluster(address: str) -> tuple[Any, Any]:
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
    from informed.dask import summarise

    client, cluster = _cluster(args.dask)
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

    write_json(found.to_json(), args.partial)
    if not args.quiet:
        print(
            f"informed: wrote the summaries of {found.rows:,} rows from "
            f"{len(found.parts):,} files to {printable(args.partial)}",
            file=sys.stderr,
        )


def check_save_path(path: str, option: str) -> None:
    """Refuse a path that cannot be written, before any work, naming the option."""
    target = Path(path)
    if target.is_dir():
        msg = f"{option} {path}: it is a folder; give a file name."
        raise InputError(msg)
    if not target.parent.is_dir():
        msg = f"{option} {path}: the folder {str(target.parent)!r} does not exist."
        raise InputError(msg)


def write_json(text: str, path: str) -> None:
    """Write JSON text atomically: a reader never sees half a file."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".informed-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
