"""`informed evaluate FILE --find-slices COL[,COL...] [--depth N] [--min-size N]`: the
slices where the model is least informed (`informed.find_slices`), in memory or where
the rows live (--database, --sql, --engine); with --html, also its page."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from informed.cli.output import print_document
from informed.errors import InputError

__all__ = ["add_options", "run_find"]


def add_options(parser: Any) -> None:
    """The options of the search."""
    parser.add_argument(
        "--find-slices",
        metavar="COL[,COL...]",
        action="append",
        default=[],
        help="find the slices (column=value, crossed up to --depth) where the model is "
        "significantly less informed than on the rest of the rows, with intervals that "
        "hold over the whole search (docs/slice_search.md)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=3,
        metavar="N",
        help="with --find-slices: the most conditions in one slice (1 to 6, default 3)",
    )
    parser.add_argument(
        "--min-size",
        type=int,
        default=30,
        metavar="N",
        help="with --find-slices: test only slices of at least N real positives and N real "
        "negatives (with more classes: N cases of every class; with --find-by markedness: "
        "predicted positives and negatives, or predictions of every label); smaller ones "
        "and their children are pruned (default 30, at least 10)",
    )
    parser.add_argument(
        "--ranges",
        type=int,
        default=4,
        metavar="N",
        help="with --find-slices: a numeric column of more than N values is cut into N "
        "quantile ranges (default 4: quartiles)",
    )
    parser.add_argument(
        "--find-by",
        choices=["informedness", "markedness"],
        default="informedness",
        help="with --find-slices and --predicted: the measure whose gap ranks the slices "
        "(with --score: the AUC)",
    )


def _columns(args: argparse.Namespace) -> list[str]:
    names = [n.strip() for given in args.find_slices for n in given.split(",")]
    if not names or any(not n for n in names):
        msg = f"--find-slices takes column names separated by commas; got {args.find_slices}."
        raise InputError(msg)
    return names


def _check(args: argparse.Namespace) -> None:
    given = [
        option
        for option, on in (
            ("--by", bool(args.by)),
            ("--by-time", args.by_time is not None),
            ("--threshold", args.threshold is not None),
            ("--partial", args.partial is not None),
            ("--dask", args.dask is not None),
            ("--weight", args.weight is not None),
            ("--quota", bool(args.quota)),
            ("--summary", args.summary),
        )
        if on
    ]
    if given:
        msg = f"{given[0]} is not available with --find-slices; run it without --find-slices."
        raise InputError(msg)
    if args.predicted is not None and args.score is not None:
        msg = "--find-slices ranks by one measure: give --predicted COL or --score COL, not both."
        raise InputError(msg)


def run_find(args: argparse.Namespace, source: str) -> None:
    """Search, then print the slices found in the chosen format."""
    from informed.cli import engine_options
    from informed.disparity.finding import find_slices

    _check(args)
    names = _columns(args)
    if args.html is not None:  # checked before any work; '' is refused by name
        from informed.cli.output import check_html_path
        from informed.cli.scale import check_not_input

        check_html_path(args.html)
        check_not_input(args.html, args.file, "--html")
    level = 0.95 if args.ci is None else args.ci
    options: dict[str, Any] = {
        "actual": args.actual,
        "predicted": args.predicted,
        "scores": args.score,
        "columns": names,
        "positive": args.positive,
        "depth": args.depth,
        "min_size": args.min_size,
        "bins": args.ranges,
        "level": level,
        "measure": args.find_by,
    }
    progress = _Levels(quiet=args.quiet)
    try:
        if engine_options.requested(args):
            engine_options.check_engine_options(args)
            opened = engine_options.open_source(args, names, args.ranges)
            options["positive"] = args.positive  # `--positive 1` read as the file route does
            try:
                found = find_slices(opened.frame, progress=progress, **options)
            finally:
                engine_options.close(opened.connection)
            source = opened.name
        else:
            data = args.file[0] if len(args.file) == 1 else args.file
            found = find_slices(data, encoding=args.encoding, progress=progress, **options)
    finally:
        progress.close()
    if args.format == "json":
        document = {"source": source, **found.to_dict()}
        print_document(document, "informed.slice_search")
    elif args.format == "csv":
        from informed.report.document import cells_text

        sys.stdout.write(cells_text(found.csv_rows(), raw=args.csv_raw))
    else:
        from informed.cli.output import terminal_width
        from informed.disparity.text import render_search

        sys.stdout.write(render_search(found, source, width=terminal_width()) + "\n")
    if args.html is not None:
        from pathlib import Path

        from informed.report.html.page import write_search_report

        write_search_report(args.html, found, source=Path(source).name if source else "")


class _Levels:
    """The progress line of a search: the depth, and how many of its combinations of
    columns are counted (on a terminal only, after a second)."""

    def __init__(self, *, quiet: bool) -> None:
        self.quiet = quiet
        self.line: Any = None
        self.depth = 0

    def __call__(self, depth: int, done: int, total: int) -> None:
        from informed.report.progress import Progress

        if depth != self.depth:
            if self.line is not None:
                self.line.close()
            self.depth = depth
            self.line = Progress(
                f"depth {depth}", total, enabled=not self.quiet, verb="searching",
                unit="combinations of columns counted",
            )  # fmt: skip
        self.line.update(done, done)

    def close(self) -> None:
        if self.line is not None:
            self.line.close()
