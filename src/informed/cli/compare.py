"""`informed compare FILE`: several models on the same cases, with paired inference."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any, Literal

from informed.cli.output import (
    OUTPUT_FILE,
    input_path,
    measure_option,
    print_document,
    seed_option,
)
from informed.errors import InputError

if TYPE_CHECKING:
    from informed.comparison.result import Comparison

__all__ = ["add_parser", "check_options", "compare_file", "run"]

# what --threshold best can optimise (a cost needs a ratio: use the API for it)
_CRITERIA = (
    "informedness",
    "markedness",
    "correlation",
    "matthews_correlation",
    "f_measure",
    "accuracy",
    "kappa",
)


def add_parser(commands: Any) -> None:
    """The `compare` subcommand and its options."""
    co = commands.add_parser(
        "compare",
        help="compare models on the same cases: leaderboard, paired intervals and tests",
    )
    co.add_argument(
        "file", type=input_path, help="a CSV (with a header line), Parquet or Arrow IPC file"
    )
    co.add_argument("--actual", required=True, metavar="COL", help="column of actual classes")
    co.add_argument(
        "--predicted",
        nargs="+",
        action="extend",
        default=[],
        metavar="COL",
        help="columns of predicted labels, one per model (may be repeated)",
    )
    co.add_argument(
        "--score",
        nargs="+",
        action="extend",
        default=[],
        metavar="COL",
        help="columns of scores, higher = more positive (with --predicted: one per model, "
        "in the same order)",
    )
    co.add_argument(
        "--positive",
        metavar="LABEL",
        help="the positive class: its one-vs-rest view, and what scores rank",
    )
    co.add_argument(
        "--threshold",
        metavar="T|best",
        help="cut the scores into predictions: a number, or 'best' for each model's best",
    )
    co.add_argument(
        "--optimise",
        choices=_CRITERIA,
        type=measure_option(_CRITERIA),
        default="informedness",
        help="what --threshold best maximises (default informedness, Youden's J; any "
        "name of the measure, such as youden, MCC or F1)",
    )
    co.add_argument("--weight", metavar="COL", help="column of non-negative case weights")
    co.add_argument(
        "--ci", type=float, default=0.95, metavar="LEVEL", help="interval level (default 0.95)"
    )
    co.add_argument(
        "--replicates", type=int, default=1000, help="paired bootstrap replicates (default 1000)"
    )
    co.add_argument(
        "--permutations", type=int, default=9999, help="paired permutations (default 9999)"
    )
    co.add_argument(
        "--correction",
        choices=["holm", "none"],
        default="holm",
        help="adjust p-values for the number of models compared (default holm)",
    )
    co.add_argument(
        "--alpha", type=float, default=0.5, help="F-measure weight, 1/(1+beta^2) (default 0.5)"
    )
    co.add_argument("--seed", type=seed_option, default=0, help="random seed (default 0)")
    co.add_argument(
        "--format", choices=["text", "json"], default="text", help="text (default) or JSON"
    )
    co.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML report with plots" + OUTPUT_FILE,
    )
    co.add_argument(
        "--encoding", default="utf-8", help="text encoding of a CSV file (default utf-8)"
    )
    from informed.cli.folds import add_options

    add_options(
        co,
        "the models compared pair by pair across the folds by the corrected resampled "
        "t-test (and the 5x2cv tests for repeats of two folds), Holm over the pairs and "
        "measures; --ci, --correction and --html apply (docs/cross_validation.md)",
    )


def check_options(args: argparse.Namespace) -> float | Literal["best"] | None:
    """Refuse option values that cannot work, before any file is read; return the
    threshold (a number, "best" or None)."""
    models = args.predicted or args.score
    if not models:
        msg = "give --predicted COL COL ..., --score COL COL ..., or both."
        raise InputError(msg)
    if args.predicted and args.score and len(args.predicted) != len(args.score):
        msg = (
            f"--predicted names {len(args.predicted)} models and --score {len(args.score)}; "
            "give one score column per predicted column, in the same order."
        )
        raise InputError(msg)
    if len(models) < 2:
        msg = f"compare needs at least two models; got {models}."
        raise InputError(msg)
    for option in (args.predicted, args.score):
        repeated = sorted({c for c in option if option.count(c) > 1})
        if repeated:
            msg = f"column {repeated[0]!r} is named twice; each model needs its own column."
            raise InputError(msg)
    if args.actual in (*args.predicted, *args.score):
        msg = f"--actual {args.actual!r} is also a model's column."
        raise InputError(msg)
    if args.score and args.positive is None:
        msg = "--score needs --positive LABEL: which class do high scores point to?"
        raise InputError(msg)
    if not 0.0 < args.ci < 1.0:
        msg = f"--ci must lie strictly between 0 and 1, e.g. 0.95; got {args.ci}."
        raise InputError(msg)
    if args.replicates < 2:
        msg = f"--replicates must be at least 2; got {args.replicates}."
        raise InputError(msg)
    if args.permutations < 1:
        msg = f"--permutations must be at least 1; got {args.permutations}."
        raise InputError(msg)
    if not 0.0 <= args.alpha <= 1.0:
        msg = f"--alpha must lie in [0, 1]; got {args.alpha}."
        raise InputError(msg)
    if args.threshold is None:
        return None
    if not args.score or args.predicted:
        msg = "--threshold cuts scores into predictions: give --score columns and no --predicted."
        raise InputError(msg)
    if args.threshold == "best":
        return "best"
    try:
        value = float(args.threshold)
    except ValueError:
        msg = f"--threshold must be a number or 'best'; got {args.threshold!r}."
        raise InputError(msg) from None
    if math.isnan(value):
        msg = "--threshold must be a number or 'best'; got nan."
        raise InputError(msg)
    return value


def compare_file(args: argparse.Namespace) -> Comparison:
    """Read the named columns of the file and compare the models."""
    from informed.comparison.comparing import compare
    from informed.io import read_columns

    threshold = check_options(args)
    columns = read_columns(
        args.file,
        labels=[args.actual, *args.predicted],
        numbers=[*args.score, *([args.weight] if args.weight else [])],
        nonnegative=[args.weight] if args.weight else [],
        encoding=args.encoding,
    )
    if columns.rows == 0:
        msg = f"{args.file} has a header but no data rows: nothing to compare."
        raise InputError(msg)
    names = args.predicted or args.score
    predicted = {c: columns.labels[c] for c in args.predicted} or None
    scores = (
        {name: columns.numbers[c] for name, c in zip(names, args.score, strict=True)}
        if args.score
        else None
    )
    return compare(
        columns.labels[args.actual],
        predicted,
        scores=scores,
        positive=args.positive,
        threshold=threshold,
        threshold_measure=args.optimise,
        weights=columns.numbers[args.weight] if args.weight else None,
        level=args.ci,
        replicates=args.replicates,
        permutations=args.permutations,
        correction=args.correction,
        alpha=args.alpha,
        seed=args.seed,
    )


def run(args: argparse.Namespace) -> None:
    """`informed compare`: compare the models, print the report in the chosen format, and
    write the HTML page."""
    from pathlib import Path

    from informed.cli.output import check_html_path, terminal_width

    if args.html is not None:  # '' is refused by name, never taken for none
        from informed.cli.scale import check_not_input

        check_html_path(args.html)
        check_not_input(args.html, [args.file], "--html")
    from informed.cli import folds

    if folds.requested(args):  # models compared pair by pair across cross-validation folds
        check_options(args)
        folds.run_compare_folds(args)
        return
    comparison = compare_file(args)
    source = Path(args.file).name
    if args.format == "json":
        print_document(comparison.to_dict(), "informed.comparison")
    else:
        from informed.comparison.text import render_comparison

        color = sys.stdout.isatty()
        print(render_comparison(comparison, source, color=color, width=terminal_width()))
    if args.html is not None:
        from informed.report.html import write_comparison_report

        write_comparison_report(args.html, comparison, source=source)
