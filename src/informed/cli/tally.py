"""`informed tally FILE.jsonl`: multi-label results scored as Statistics::Contingency does."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from informed.cli.output import (
    OUTPUT_FILE,
    Output,
    emit,
    input_path,
    print_document,
    seed_option,
    terminal_width,
)

if TYPE_CHECKING:
    from informed.tally import Tally

__all__ = ["add_parser", "read_tally", "run", "tally_file"]


def add_parser(commands: Any) -> None:
    """The `tally` subcommand and its options."""
    ta = commands.add_parser(
        "tally",
        help="score multi-label assignments (Statistics::Contingency)",
        description="Micro, macro and per-category measures of multi-label assignments, "
        "as Williams's Perl module Statistics::Contingency 0.09 computes them.",
    )
    ta.add_argument(
        "file",
        type=input_path,
        help='JSON lines: {"assigned": [...], "correct": [...]} per document; optionally '
        '{"categories": [...]} first and {"set_entries": [a, b, c, d]} lines',
    )
    ta.add_argument(
        "--categories",
        action="append",
        metavar="A,B,C",
        help="comma-separated categories (else the file's first line); repeat the flag to add more",
    )
    ta.add_argument(
        "--conventions",
        choices=["default", "statistics-contingency"],
        default="default",
        help="default: an undefined measure is nan, with the reason; statistics-contingency: "
        "the Perl module's fixed values (0 or 1) where it would divide by zero",
    )
    ta.add_argument(
        "--unknown",
        choices=["error", "ignore"],
        default=None,
        help="a document naming an undeclared category: stop with an error, or skip it "
        "and count it, as Statistics::Contingency skips it (default: error under the "
        "default conventions, ignore under statistics-contingency)",
    )
    ta.add_argument(
        "--by",
        nargs="+",
        action="extend",
        default=[],
        metavar="FIELD",
        help="report every slice of the documents by this field of each line (several: "
        "crossed), one Tally per slice; a document without it (or null) is in the slice "
        "'missing' (docs/slices.md)",
    )
    ta.add_argument(
        "--format",
        choices=["text", "json"],
        default="text",
        help="what to print: text, the Perl module's statistics table and each category; "
        "json, one JSON object with every measure (null for nan)",
    )
    ta.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML page: micro and macro values with "
        "intervals, every category, their informedness plotted" + OUTPUT_FILE,
    )
    ta.add_argument(
        "--ci",
        type=float,
        metavar="LEVEL",
        help="the level of the page's intervals (default 0.95); needs --html",
    )
    ta.add_argument(
        "--seed",
        type=seed_option,
        default=0,
        help="random seed of the page's bootstraps (default 0)",
    )


def read_tally(args: argparse.Namespace) -> Tally:
    """Read the JSON lines into a Tally."""
    from informed.io import read_jsonl
    from informed.io.files import check_file

    path = Path(args.file)
    check_file(path, empty=True)
    return read_jsonl(
        path, categories=_categories(args), unknown=args.unknown, conventions=args.conventions
    )


def tally_file(args: argparse.Namespace) -> Output:
    """Read the JSON lines into a Tally and report every measure of it."""
    from informed.tally import summarize_tally

    return Output(source=args.file, tally=summarize_tally(read_tally(args)))


def _categories(args: argparse.Namespace) -> list[str] | None:
    """The categories of --categories (comma-separated, the flag repeatable), or None."""
    given = ",".join(args.categories or [])
    return [c for c in given.split(",") if c] if args.categories else None


def run(args: argparse.Namespace) -> None:
    """`informed tally`: print the report in the chosen format; with --html, also write
    the page (its path checked before any work); with --by, every slice's Tally."""
    from informed.errors import InputError

    if args.by and args.html is not None:
        msg = "--html reports one Tally; with --by, print the slices (--format text|json)."
        raise InputError(msg)
    if args.by:
        _run_slices(args)
        return
    if args.ci is not None and args.html is None:
        msg = "--ci sets the level of the HTML page's intervals: give --html FILE too."
        raise InputError(msg)
    if args.html is not None:  # '' is refused by name, never taken for none
        from informed.cli.output import check_html_path
        from informed.cli.scale import check_not_input

        check_html_path(args.html)
        check_not_input(args.html, [args.file], "--html")
    from informed.tally import summarize_tally

    tally = read_tally(args)
    summary = summarize_tally(tally)
    emit(Output(source=args.file, tally=summary), args.format)
    if args.html is not None:
        from informed.inference.tally_intervals import tally_intervals
        from informed.report.html.tally import write_tally_page

        intervals = tally_intervals(
            tally, level=0.95 if args.ci is None else args.ci, seed=args.seed
        )
        write_tally_page(args.html, summary, intervals, source=args.file)


def _run_slices(args: argparse.Namespace) -> None:
    """`informed tally FILE --by FIELD`: every slice's Tally, reported."""
    import sys

    from informed.io.files import check_file
    from informed.io.sliced_tallies import read_tally_slices
    from informed.report.tally_slices import tally_slices_document, tally_slices_text

    path = Path(args.file)
    check_file(path, empty=True)
    found = read_tally_slices(
        path,
        by=args.by,
        categories=_categories(args),
        unknown=args.unknown,
        conventions=args.conventions,
    )
    if args.format == "json":
        document = tally_slices_document(found, args.by, args.file)
        print_document(document, "informed.tally_slices")
    else:
        # a terminal's width: its table split to fit; redirected, as wide as it is
        width = terminal_width() if sys.stdout.isatty() else None
        sys.stdout.write(tally_slices_text(found, args.by, args.file, width=width))
