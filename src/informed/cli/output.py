"""What a command produced, and writing it: stdout in the chosen format, the HTML page.

A command computes its typed results once (an `Evaluation` and its `Payoff`, a
`RankingSummary`, a `Bootstrap`, a `TallySummary`); `emit` formats only the one output
asked for, and `write_html` hands the same objects to the HTML page.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from informed.errors import InputError

if TYPE_CHECKING:
    from informed.inference import Bootstrap, Interval
    from informed.ranking import OperatingPoint, Ranking, RankingSummary
    from informed.report.calibration import CalibrationReport
    from informed.table import Evaluation, Payoff
    from informed.tally import TallySummary

__all__ = [
    "COMPACT_LABELS",
    "FORMATS",
    "OUTPUT_FILE",
    "Output",
    "add_dvc_option",
    "add_output_options",
    "check_dvc_path",
    "check_html_path",
    "coverage_line",
    "emit",
    "input_path",
    "output_document",
    "print_document",
    "seed_option",
    "terminal_width",
    "write_dvc",
    "write_html",
]

FORMATS = {
    "text": "a report for people (the default)",
    "json": "one JSON object, registry names as keys, null for nan",
    "csv": "one row per label and one overall, a column per measure",
}
"""The output formats and what each is."""

OUTPUT_FILE = (
    " (a file is replaced whole, never left half written; a link is followed; a device or "
    "FIFO such as /dev/stdout is written through)"
)
"""What every output option's help says of its FILE (`informed.io.output_files`)."""

COMPACT_LABELS = 1000
"""With more labels than this, the JSON document is written on one line (not indented)."""


@dataclass
class Output:
    """The typed results of a command, each computed once."""

    source: str
    evaluation: Evaluation | None = None
    pay: Payoff | None = None
    ranking: Ranking | None = None
    summary: RankingSummary | None = None
    calibration: CalibrationReport | None = None
    intervals: Bootstrap | None = None
    tally: TallySummary | None = None
    positive: Any = None
    all_labels: bool = False
    csv_raw: bool = False
    preamble: str = ""
    threshold: OperatingPoint | None = None
    threshold_interval: Interval | None = None
    coverage: dict[str, Any] | None = None
    exact: bool = False


def print_document(document: dict[str, Any], kind: str) -> None:
    """Print a result document of `kind` as indented JSON, stamped with the result schema
    and its version (`informed.report.result_schema`)."""
    from informed.report.result_schema import stamp

    print(json.dumps(stamp(document, kind), indent=1, allow_nan=False))


def terminal_width() -> int:
    """The width of the terminal on stdout (rich's detection), or 100 when not a terminal."""
    from informed._terminal import WIDTH

    if not sys.stdout.isatty():
        return WIDTH
    from rich.console import Console

    return Console(file=sys.stdout).width


def output_document(output: Output, lazy: bool = False) -> dict[str, Any]:
    """The result document of `output`, stamped: what --format json prints (`lazy`: the
    per-label entries made as they are written)."""
    from informed.report.result_schema import stamp

    if output.tally is not None:
        tallied = output.tally.to_dict()
        if output.coverage is not None:
            tallied["coverage"] = output.coverage
        return stamp(tallied, "informed.tally_summary")
    from informed.report import results_document

    exact = None
    if output.exact:  # --summary: the summaries themselves, mergeable and exact
        table = None if output.evaluation is None else output.evaluation.table.to_dict()
        ranking = None if output.ranking is None else output.ranking.to_dict()
        exact = {"table": table, "ranking": ranking}
    document = results_document(
        output.evaluation,
        output.pay,
        output.summary,
        output.intervals,
        output.positive,
        lazy=lazy,
        summary=exact,
    )
    if output.ranking is not None and output.summary is not None:
        from informed.report.calibration import calibration_section

        document["calibration"] = calibration_section(output.ranking, output.calibration)
    if output.threshold is not None:
        document["threshold"] = output.threshold.to_dict()
        if output.threshold_interval is not None:
            document["threshold"]["interval"] = output.threshold_interval.as_list()
    if output.coverage is not None:
        document["coverage"] = output.coverage
    return stamp(document, "informed.evaluation")


def coverage_line(coverage: dict[str, Any]) -> str:
    """The sentence that says no row was lost or counted twice."""
    return (
        f"Coverage: {coverage['rows_read']:,} rows read from {coverage['partitions']:,} "
        f"partitions, {coverage['rows_counted']:,} counted, none twice "
        f"({coverage['engine']})."
    )


def _text(output: Output, color: bool, width: int) -> Iterator[str]:
    """The text report in pieces, to print one after another; with --all-labels on many
    labels, the per-label rows come one line at a time (`informed.report.rows`)."""
    import textwrap

    from informed._terminal import MIN_WIDTH

    def wrapped(text: str) -> str:  # each line of it wrapped at the report's width
        lines = text.split("\n")  # a last "" keeps a final newline
        fill = max(width, MIN_WIDTH)
        return "\n".join(textwrap.fill(x, fill, break_on_hyphens=False) for x in lines)

    texts = [wrapped(output.preamble)] if output.preamble else []
    if output.coverage is not None:
        texts.append(wrapped(coverage_line(output.coverage)))
    if output.tally is not None:  # its own light module: the others' are not loaded
        from informed.report.tally_text import render_tally

        yield "\n\n".join([*texts, render_tally(output.tally, color=color, width=width)])
        return
    from informed._common import printable
    from informed.report import render_evaluation, render_ranking
    from informed.report.rows import STREAMED_LABELS, per_label_lines

    evaluation = output.evaluation
    streamed = False
    if evaluation is not None:
        streamed = output.all_labels and len(evaluation.table.labels) > STREAMED_LABELS
        texts.append(
            render_evaluation(
                evaluation,
                output.source,
                output.intervals,
                pay=output.pay,
                all_labels=output.all_labels,
                color=color,
                width=width,
                per_label=not streamed,
            )
        )
        if streamed:
            yield "\n\n".join(texts)
            yield from per_label_lines(evaluation, width)
            texts = []
    if output.summary is not None:
        if evaluation is None:
            texts.append(f"{printable(output.source)}: N = {output.summary.n:g}")
        texts.append(render_ranking(output.summary, output.positive, color=color, width=width))
    if output.calibration is not None:
        from informed.report.calibration import render_calibration

        texts.append(
            render_calibration(output.calibration, output.positive, color=color, width=width)
        )
    if output.threshold is not None:
        from informed.report.operating import render_operating_point

        texts.append(
            render_operating_point(
                output.threshold, output.threshold_interval, color=color, width=width
            )
        )
    if texts:
        yield ("\n" if streamed else "") + "\n\n".join(texts)


def emit(output: Output, fmt: str, *, width: int | None = None) -> None:
    """Print the output on stdout as JSON, CSV or text (`width` columns; by default the
    terminal's, or 100 when stdout is not a terminal)."""
    if fmt == "json":
        # indented for people; for thousands of labels one line, whose per-label entries
        # are made and written a thousand labels at a time (indentation would take most
        # of the time and the bytes, and no one reads it by eye)
        many = output.evaluation is not None and len(output.evaluation.per_label) > COMPACT_LABELS
        document = output_document(output, lazy=many)
        if many:
            from informed.report import write_json

            write_json(document, sys.stdout.write)
            sys.stdout.write("\n")
        else:
            print(json.dumps(document, indent=1, allow_nan=False))
    elif fmt == "csv":
        from informed.report import measures_csv

        print(measures_csv(output.evaluation, output.summary, raw=output.csv_raw), end="")
        if output.coverage is not None:
            print(f"informed: {coverage_line(output.coverage)}", file=sys.stderr)
    else:
        color = sys.stdout.isatty()
        pieces = _text(output, color, terminal_width() if width is None else width)
        first = True
        for piece in pieces:
            if not first:
                sys.stdout.write("\n")
            sys.stdout.write(piece)
            first = False
        sys.stdout.write("\n")


def input_path(text: str) -> str:
    """The argparse type of a FILE argument: an empty one is refused (as a path, "" would
    be read as the current folder, ".")."""
    if not text:
        msg = "an empty path names no file; give a file name"
        raise argparse.ArgumentTypeError(msg)
    return text


def seed_option(text: str) -> int:
    """The argparse type of --seed: a non-negative integer (what numpy's generators take),
    refused in one line naming the value rather than with numpy's error after the work."""
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        msg = f"the seed must be a non-negative integer, such as 0; got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return seed


def measure_option(choices: Sequence[str]) -> Callable[[str], str]:
    """The argparse type of an option naming a measure (--optimise): any name of it
    (registry name, title, alias; any case: "youden", "MCC", "F1") as its registry name,
    which argparse's `choices` then check. The registry is read only for another name."""

    def measure(text: str) -> str:
        if text in choices:
            return text
        from informed.measures import MEASURE_NAMES

        return MEASURE_NAMES.find(text) or text

    return measure


def check_html_path(path: str) -> None:
    """Refuse an --html path that cannot be written, before any work, naming it."""
    try:
        from informed.report.html import check_output_path
    except ImportError as error:  # pragma: no cover - matplotlib is missing
        msg = f"--html needs matplotlib: pip install 'informed[report]' ({error})."
        raise InputError(msg) from None
    check_output_path(path)


def write_html(output: Output, path: str, source: str) -> Path:
    """Write the self-contained HTML report of an evaluation; return the path written."""
    from informed.report.html import write_html_report

    return write_html_report(
        path,
        output.evaluation,
        output.ranking,
        intervals=output.intervals,
        pay=output.pay,
        summary=output.summary,
        source=source,
        ranking_positive=output.positive,
        threshold=output.threshold,
        calibration=output.calibration,
    )


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """What `informed evaluate` prints and writes: --format, --csv-raw, --html, --dvc,
    --all-labels, --summary."""
    parser.add_argument(
        "--format",
        choices=list(FORMATS),
        default="text",
        help="what to print: " + "; ".join(f"{k}, {v}" for k, v in FORMATS.items()),
    )
    parser.add_argument(
        "--csv-raw",
        action="store_true",
        help="with --format csv, write labels exactly as they are, without the ' that "
        "keeps a spreadsheet from running a label such as =1+2 as a formula",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML report with plots" + OUTPUT_FILE,
    )
    add_dvc_option(parser)
    parser.add_argument(
        "--all-labels",
        action="store_true",
        help="list every label, however many (beyond 200, the per-label rows are streamed)",
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help='with --format json, add the exact summaries under "summary", as `informed '
        "merge` reads them: the document can be merged and evaluated again (a line per "
        "distinct score: 32 MB and 7 s for a million)",
    )


def add_dvc_option(parser: argparse.ArgumentParser, *, sliced: bool = True) -> None:
    """The --dvc DIR option of `informed evaluate` (`sliced`: it has --by) and `informed
    merge`."""
    by = "; with --by, each slice's under slice.NAME" if sliced else ""
    parser.add_argument(
        "--dvc",
        metavar="DIR",
        help="also write DVC's files into the folder DIR (made if missing): metrics.json "
        f"(every value with its interval and n, for dvc metrics diff{by}) and plots for "
        "DVC's templates: confusion.json, roc.json, decision_curve.json (docs/dvc.md)"
        + OUTPUT_FILE.replace("a file is", "each file is"),
    )


def check_dvc_path(directory: str) -> None:
    """Refuse a --dvc folder that cannot be written, before any work, naming it."""
    from informed.integrations.dvc import check_directory

    check_directory(directory, "--dvc")


def write_dvc(output: Output, directory: str) -> None:
    """Write the metrics of the JSON document and the plots of the Table and Ranking
    into `directory` for DVC (`informed.integrations.dvc`); a file left out (no scores,
    too many cases for one confusion row each) is said on stderr."""
    from informed.integrations.dvc import write_files

    table = output.evaluation.table if output.evaluation is not None else None
    files = write_files(directory, output_document(output), table, output.ranking)
    for name, why in files.left_out.items():
        print(f"informed: --dvc: {name} not written: {why}.", file=sys.stderr)
