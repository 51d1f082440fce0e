"""`informed merge A.json B.json ...`: summaries written by separate processes, merged.

The files hold summaries with their coverage (`informed evaluate --partial`,
`Summaries.to_json`), bare `Table`, `Ranking` or `Tally` JSON (`to_json()`), the
result documents of `informed evaluate --format json --summary` (their exact summaries;
a document without them is refused, with the reason), or sliced ones: the slices reports
of `evaluate --by` / `--by-time` written with --summary and the folds reports of
`--folds`, reported as `evaluate` reports all their rows (`informed.cli.merge_slices`).
The merge is exact; summaries that record their partitions refuse a partition covered
twice and report the rows they cover.
The report of the merged result is printed as `informed evaluate` (or `informed tally`)
prints it; --output also writes the merged JSON (for result documents: the merged result
document with its summaries), --dvc the files of DVC.
"""

from __future__ import annotations

import argparse
from typing import Any

from informed.cli.output import (
    FORMATS,
    OUTPUT_FILE,
    Output,
    add_dvc_option,
    check_dvc_path,
    emit,
    input_path,
    output_document,
    seed_option,
    write_dvc,
)
from informed.errors import InputError

__all__ = ["add_parser", "merge_output", "run", "write_merged"]


def add_parser(commands: Any) -> None:
    """The `merge` subcommand and its options."""
    me = commands.add_parser(
        "merge",
        help="merge summaries written separately (JSON) and report the result",
        description="Merge the summaries of parts of one data set, written by separate "
        "processes (informed evaluate --partial, informed evaluate --format json "
        "--summary, with --by too, informed evaluate --folds --format json, or "
        "Table/Ranking/Tally to_json), exactly; a partition covered twice is refused.",
    )
    me.add_argument(
        "files",
        type=input_path,
        nargs="+",
        metavar="FILE",
        help="summary JSON files, or result documents written with --summary (slices "
        "reports too; folds reports as they are)",
    )
    me.add_argument(
        "--output",
        metavar="FILE",
        help="also write the merged summaries to FILE (JSON; for result documents, the "
        "merged document with its summaries)" + OUTPUT_FILE,
    )
    me.add_argument(
        "--positive",
        metavar="LABEL",
        help="the positive class: its one-vs-rest view, and the name of the ranked class",
    )
    me.add_argument(
        "--alpha", type=float, default=0.5, help="F-measure weight, 1/(1+beta^2) (default 0.5)"
    )
    me.add_argument(
        "--format",
        choices=list(FORMATS),
        default="text",
        help="what to print: " + "; ".join(f"{k}, {v}" for k, v in FORMATS.items()),
    )
    me.add_argument("--all-labels", action="store_true", help="list every label, however many")
    me.add_argument(
        "--csv-raw",
        action="store_true",
        help="with --format csv, write labels exactly as they are (no formula guard)",
    )
    me.add_argument(
        "--summary",
        action="store_true",
        help='with --format json, add the merged exact summaries under "summary": the '
        "document can be merged again",
    )
    me.add_argument(
        "--ci",
        type=float,
        metavar="LEVEL",
        help="add bootstrap confidence intervals at this level, e.g. 0.95, as informed "
        "evaluate --ci does (slices and folds: the level of their intervals, default 0.95)",
    )
    me.add_argument(
        "--seed", type=seed_option, default=0, help="random seed of the bootstrap (default 0)"
    )
    me.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    me.add_argument(
        "--html",
        metavar="FILE",
        help="also write the merged report's self-contained HTML page, as informed evaluate "
        "(--by, --folds) or informed tally writes it for all the rows" + OUTPUT_FILE,
    )
    me.add_argument(
        "--reference",
        metavar="SLICE",
        help="for slices reports: the slice the others are compared with, as informed "
        "evaluate --by --reference names it (default: the largest slice; over time, the "
        "first window)",
    )
    add_dvc_option(me, sliced=False)


def merge_output(args: argparse.Namespace, merged: Any) -> Output:
    """The report of merged summaries: a Table's and a Ranking's as `evaluate` gives it,
    a Tally's as `tally` gives it."""
    from informed.cli.evaluate import report_summaries, source_name
    from informed.cli.merge_slices import ranked_class
    from informed.io import Summaries
    from informed.io.result_documents import DocumentSummaries
    from informed.ranking import Ranking
    from informed.table import Table

    source = source_name(args.files)
    if isinstance(merged, DocumentSummaries) and args.positive is None:
        # the class the documents reported, unless they differ
        args = argparse.Namespace(**{**vars(args), "positive": merged.positive})
    paired = isinstance(merged, Summaries | DocumentSummaries)
    ranking = merged.ranking if paired else merged
    if isinstance(ranking, Ranking):
        table = merged.table if paired else None
        args = ranked_class(args, ranking, name_it=table is None)
    report = argparse.Namespace(
        **{"ci": None, "seed": 0, **vars(args)},
        quota=[],
        bins=10,
        threshold=None,
        weights_are=None,
    )
    if isinstance(merged, Summaries):
        if merged.tally is not None:
            output = _tally_output(args, merged.tally, source)
        else:
            output = report_summaries(
                report, merged.table, merged.ranking, merged.weighted_rows, source
            )
        from informed.cli.scale import coverage

        output.coverage = coverage(merged, f"merged from {len(args.files)} files")
        return output
    if isinstance(merged, DocumentSummaries):
        return report_summaries(report, merged.table, merged.ranking, 0, source)
    if isinstance(merged, Table):
        return report_summaries(report, merged, None, 0, source)
    if isinstance(merged, Ranking):
        return report_summaries(report, None, merged, 0, source)
    return _tally_output(args, merged, source)


def _tally_output(args: argparse.Namespace, tally: Any, source: str) -> Output:
    from informed.tally import summarize_tally

    if args.format == "csv":
        msg = "a Tally's report is text or json; --format csv is for a Table or a Ranking."
        raise InputError(msg)
    for option, given in (
        ("--summary", args.summary),
        ("--dvc", args.dvc is not None),
        ("--ci", args.ci is not None and args.html is None),
    ):
        if given:
            msg = (
                f"{option} is for a Table and a Ranking; the merged Tally's own JSON is "
                "written by --output (with --html, --ci sets the level of its intervals)."
            )
            raise InputError(msg)
    return Output(source=source, tally=summarize_tally(tally))


def run(args: argparse.Namespace) -> None:
    """`informed merge`: merge the files, write --output, print the report."""
    from informed.io import merge_files
    from informed.io.sliced_documents import DocumentSlices

    if not 0.0 <= args.alpha <= 1.0:
        msg = f"--alpha must lie in [0, 1]; got {args.alpha}."
        raise InputError(msg)
    if args.summary and args.format != "json":
        msg = "--summary adds the summaries to --format json (--output writes them alone)."
        raise InputError(msg)
    if args.ci is not None and not 0.0 < args.ci < 1.0:
        msg = f"--ci must lie strictly between 0 and 1, e.g. 0.95; got {args.ci}."
        raise InputError(msg)
    if args.output is not None:  # '' is refused by name, never taken for none
        from informed.cli.scale import check_save_path

        check_save_path(args.output, "--output")
    if args.dvc is not None:
        check_dvc_path(args.dvc)
    if args.html is not None:  # '' is refused by name, never taken for none
        from informed.cli.output import check_html_path
        from informed.cli.scale import check_not_input

        check_html_path(args.html)
        check_not_input(args.html, args.files, "--html")
    merged = merge_files(args.files)
    if isinstance(merged, DocumentSlices):
        from informed.cli.merge_slices import report_merged

        report_merged(args, merged)
        return
    if args.reference is not None:
        msg = "--reference names a slice: it is for slices reports (informed evaluate --by)."
        raise InputError(msg)
    output = merge_output(args, merged)
    if args.output is not None:
        write_merged(merged, output, args.output)
    emit(output, args.format)
    if args.dvc is not None:
        write_dvc(output, args.dvc)
    if args.html is not None:
        _write_page(args, merged, output)


def _write_page(args: argparse.Namespace, merged: Any, output: Output) -> None:
    """--html: the page `evaluate` writes of a Table and a Ranking, or `tally` of a Tally
    (its intervals at --ci, default 0.95, drawn with --seed)."""
    from pathlib import Path

    if output.tally is None:
        from informed.cli.output import write_html

        write_html(output, args.html, Path(output.source).name)
        return
    from informed.inference.tally_intervals import tally_intervals
    from informed.io import Summaries
    from informed.report.html.tally import write_tally_page

    tally = merged.tally if isinstance(merged, Summaries) else merged
    assert tally is not None  # a report of a Tally has one
    level = 0.95 if args.ci is None else args.ci
    intervals = tally_intervals(tally, level=level, seed=args.seed)
    write_tally_page(args.html, output.tally, intervals, source=output.source)


def write_merged(merged: Any, output: Output, path: str) -> None:
    """--output: the merged summaries' JSON; for result documents, the merged result
    document with its exact summaries, which merge reads again."""
    import dataclasses
    import json

    from informed.cli.scale import write_json
    from informed.io.result_documents import DocumentSummaries

    if isinstance(merged, DocumentSummaries):
        document = output_document(dataclasses.replace(output, exact=True))
        text = json.dumps(document, allow_nan=False)
    else:
        text = merged.to_json()
    write_json(text, path, "--output")
