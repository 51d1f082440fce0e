"""`informed tally FILE.jsonl`: multi-label results scored as Statistics::Contingency does."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from informed.cli.output import Output, emit, input_path

__all__ = ["add_parser", "run"]


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


def tally_file(args: argparse.Namespace) -> Output:
    """Read the JSON lines into a Tally and report every measure of it."""
    from informed.io import read_jsonl
    from informed.io.files import check_file
    from informed.tally import summarize_tally

    path = Path(args.file)
    check_file(path, empty=True)
    given = ",".join(args.categories or [])
    categories = [c for c in given.split(",") if c] if args.categories else None
    tally = read_jsonl(
        path, categories=categories, unknown=args.unknown, conventions=args.conventions
    )
    return Output(source=args.file, tally=summarize_tally(tally))


def run(args: argparse.Namespace) -> None:
    """`informed tally`: print the report in the chosen format."""
    if args.by:
        _run_slices(args)
        return
    emit(tally_file(args), args.format)


def _run_slices(args: argparse.Namespace) -> None:
    """`informed tally FILE --by FIELD`: every slice's Tally, reported."""
    import json
    import sys

    from informed.io.files import check_file
    from informed.io.sliced_tallies import read_tally_slices
    from informed.report.tally_slices import tally_slices_document, tally_slices_text

    path = Path(args.file)
    check_file(path, empty=True)
    given = ",".join(args.categories or [])
    categories = [c for c in given.split(",") if c] if args.categories else None
    found = read_tally_slices(
        path,
        by=args.by,
        categories=categories,
        unknown=args.unknown,
        conventions=args.conventions,
    )
    if args.format == "json":
        document = tally_slices_document(found, args.by, args.file)
        print(json.dumps(document, indent=1, allow_nan=False))
    else:
        sys.stdout.write(tally_slices_text(found, args.by, args.file))
