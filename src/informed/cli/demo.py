"""`informed demo`: evaluate the example shipped with the package and write its HTML."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from informed.cli import evaluate
from informed.cli.output import FORMATS, OUTPUT_FILE, check_html_path, emit, write_html

__all__ = ["DEMO_FILE", "DEMO_QUOTAS", "add_parser", "run"]

DEMO_FILE = "breast_cancer_cv.csv"
DEMO_QUOTAS = (50, 100, 212)


def add_parser(commands: Any) -> None:
    """The `demo` subcommand and its options."""
    demo = commands.add_parser(
        "demo",
        help="evaluate the example shipped with the package",
        description="Evaluate 10-fold cross-validated logistic regression on the UCI "
        "breast-cancer data, shipped with informed, and write its HTML report.",
    )
    demo.add_argument(
        "--format",
        choices=list(FORMATS),
        default="text",
        help="what to print: " + "; ".join(f"{k}, {v}" for k, v in FORMATS.items()),
    )
    demo.add_argument(
        "--html",
        metavar="FILE",
        default="informed-demo.html",
        help="where to write the HTML report (default informed-demo.html; '' for none)"
        + OUTPUT_FILE,
    )


def _evaluate_arguments(path: Path, fmt: str) -> argparse.Namespace:
    """The arguments of `informed evaluate` that the demo runs, parsed as the CLI would."""
    parser = argparse.ArgumentParser(prog="informed")
    evaluate.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(
        [
            "evaluate",
            str(path),
            "--actual",
            "actual",
            "--predicted",
            "predicted",
            "--score",
            "score",
            "--positive",
            "malignant",
            "--quota",
            *map(str, DEMO_QUOTAS),
            "--ci",
            "0.95",
            "--quiet",
            "--format",
            fmt,
        ]
    )


def run(args: argparse.Namespace) -> None:
    """Evaluate the shipped breast-cancer predictions, print them, write the HTML."""
    if args.html:
        check_html_path(args.html)
    with resources.as_file(resources.files("informed") / "data" / DEMO_FILE) as path:
        output = evaluate.evaluate_file(_evaluate_arguments(path, args.format), Path(path).name)
    output.preamble = (
        "Example: 10-fold cross-validated logistic regression on the UCI breast-cancer data\n"
        "(569 tumours, 212 malignant; the positive class is malignant)\n"
    )
    emit(output, args.format)
    if args.html:
        from informed._common import printable

        written = write_html(output, args.html, DEMO_FILE)
        print(f"\nHTML report written to {printable(written.resolve())}", file=sys.stderr)
