"""Inputs beyond one file: reading on a Dask cluster (`informed evaluate --dask`), what a
report says about the rows it covers, and summaries written for `informed merge`."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from informed.errors import InputError

if TYPE_CHECKING:
    from informed.io import Summaries

__all__ = [
    "check_not_input",
    "check_save_path",
    "construct",
    "coverage",
    "dask_client",
    "read_on_dask",
    "source_text",
    "write_json",
    "write_partial",
]


CONNECT_TIMEOUT = "10s"
"""How long `--dask ADDRESS` waits for a scheduler that does not answer."""


@contextlib.contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """The client for --dask, closed when the block ends: a client of a LocalCluster of one
    single-threaded worker process per core for 'local' (the cluster closed after it),
    else a client of the scheduler at `address`. Nothing is left half made (`construct`)."""
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        msg = "--dask needs dask and distributed: pip install 'informed[dask]'."
        raise InputError(msg) from None
    with contextlib.ExitStack() as stack:  # closed last made first, each whatever happens
        if address == "local":
            cluster = construct(
                distributed.LocalCluster,
                n_workers=os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # a free port: never "8787 is already in use"
                silence_logs=logging.CRITICAL,
            )
            stack.callback(cluster.close)
            client = construct(distributed.Client, cluster)
        else:
            try:
                client = construct(distributed.Client, address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                msg = f"--dask {address}: cannot reach a Dask scheduler there ({exc})."
                raise InputError(msg) from None
        stack.callback(client.close)
        yield client


def construct(cls: Any, *args: Any, **kwargs: Any) -> Any:
    """`cls(*args, **kwargs)` for a distributed Client or LocalCluster; if the constructor
    raises, the half-made object is closed before its error goes on.

    A constructor of distributed that raises has already started an IO loop thread (and
    a Client has made itself dask's default scheduler). Held by its traceback's frames in
    a reference cycle, the half-made object would be closed by the garbage collector at a
    moment of its choosing: inside the next LocalCluster's start, which holds the lock
    that closing takes, its `__del__` waited for that lock for ever (issue 27: the test
    suite hung). So it is made in two steps, to keep hold of it, and closed at once.
    """
    made = cls.__new__(cls)
    try:
        made.__init__(*args, **kwargs)
    except BaseException:
        _release(made)
        raise
    return made


def _release(made: Any) -> None:
    """Close a half-made Client or LocalCluster and stop its IO loop thread. Errors are
    passed over: the constructor's is the one to report (and an object that failed before
    it made its loop has nothing to close)."""
    with contextlib.suppress(Exception):
        made.close()
    # A Client that could not connect closed itself (its _start calls _close), which keeps
    # its loop running and makes close() do nothing: the loop is stopped here. Idempotent.
    runner = getattr(made, "_loop_runner", None)
    if runner is not None:
        with contextlib.suppress(Exception):
            runner.stop()


def read_on_dask(args: argparse.Namespace, source: str | list[str]) -> Summaries:
    """The files' summaries computed on the cluster --dask names (one task per file), the
    cluster closed afterwards whatever happens."""
    from informed.engines.dask import summarise

    with dask_client(args.dask) as client:
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
