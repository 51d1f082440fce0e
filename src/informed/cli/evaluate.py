"""`informed evaluate FILE...`: contingency and ranking measures of predictions in files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from informed.cli import engine_options, find, folds, tracking
from informed.cli.output import (
    OUTPUT_FILE,
    Output,
    add_output_options,
    check_dvc_path,
    check_html_path,
    emit,
    input_path,
    measure_option,
    seed_option,
    write_dvc,
    write_html,
)
from informed.errors import InputError

if TYPE_CHECKING:
    from informed.inference import Interval
    from informed.io import Summaries
    from informed.ranking import OperatingPoint, Ranking
    from informed.report.calibration import CalibrationReport
    from informed.table import Table

__all__ = [
    "add_parser",
    "check_options",
    "evaluate_file",
    "report_summaries",
    "run",
    "source_name",
]


def add_parser(commands: Any) -> None:
    """The `evaluate` subcommand and its options (a list option may be repeated: its
    values accumulate)."""
    ev = commands.add_parser(
        "evaluate",
        help="evaluate predictions and/or scores in a CSV, Parquet or Arrow file",
        description="Contingency measures of predicted labels (--predicted) and ranking "
        "measures of scores (--score) in a file, beyond chance.",
    )
    ev.add_argument(
        "file",
        type=input_path,
        nargs="*",
        metavar="FILE",
        help="CSV (with a header line), Parquet or Arrow IPC files, or a quoted glob pattern "
        "such as 'data/*.parquet': read one batch at a time, memory flat (or --database, "
        "--sql: a database's rows, counted where they live)",
    )
    ev.add_argument("--actual", required=True, metavar="COL", help="column of actual classes")
    ev.add_argument(
        "--predicted", metavar="COL", help="column of predicted labels (contingency measures)"
    )
    ev.add_argument(
        "--score", metavar="COL", help="column of scores, higher = more positive (ranking measures)"
    )
    ev.add_argument("--weight", metavar="COL", help="column of non-negative case weights")
    ev.add_argument(
        "--positive",
        metavar="LABEL",
        help="the positive class: its one-vs-rest view, and what scores rank",
    )
    ev.add_argument(
        "--quota",
        type=int,
        nargs="+",
        action="extend",
        default=[],
        metavar="J",
        help="quotas (numbers of top-scored cases) to report the ranking at; "
        "repeat the flag or list several",
    )
    ev.add_argument(
        "--bins", type=int, default=10, help="bins of the lift table (default 10: deciles)"
    )
    ev.add_argument(
        "--threshold",
        metavar="T|best",
        help="with --score: the operating point at score >= T, or at the best for --optimise",
    )
    criteria = ["informedness", "markedness", "correlation", "f_measure", "accuracy", "kappa"]
    ev.add_argument(
        "--optimise",
        choices=criteria,
        type=measure_option(criteria),
        default="informedness",
        help="what --threshold best maximises (default informedness, Youden's J; any "
        "name of the measure, such as youden or F1)",
    )
    ev.add_argument(
        "--alpha", type=float, default=0.5, help="F-measure weight, 1/(1+beta^2) (default 0.5)"
    )
    ev.add_argument(
        "--ci",
        type=float,
        metavar="LEVEL",
        help="add bootstrap confidence intervals at this level, e.g. 0.95",
    )
    ev.add_argument(
        "--seed", type=seed_option, default=0, help="random seed of the bootstrap (default 0)"
    )
    ev.add_argument(
        "--weights-are",
        choices=["frequency", "normalised"],
        default=None,
        help="how --ci reads --weight: frequency (a weight w is w cases, so N = the total "
        "weight; the default) or normalised (each row is one case of the sample, counting "
        "as its weight)",
    )
    add_output_options(ev)
    ev.add_argument(
        "--storage",
        choices=["auto", "dense", "sparse"],
        default="auto",
        help="how the table holds its counts: every cell, or only the non-zero ones; auto "
        "(the default) is sparse for many labels with few cells filled",
    )
    ev.add_argument(
        "--encoding", default="utf-8", help="text encoding of a CSV file (default utf-8)"
    )
    ev.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    ev.add_argument(
        "--dask",
        metavar="local|ADDRESS",
        help="read the files on a Dask cluster, one task per file: 'local' starts one "
        "worker per core of this machine, tcp://HOST:8786 uses a running scheduler (its "
        "workers must see the files at the same paths); needs informed[dask]",
    )
    ev.add_argument(
        "--by",
        nargs="+",
        action="extend",
        default=[],
        metavar="COL",
        help="evaluate every slice of the rows by this column (several: crossed): "
        "informedness with its interval, markedness, label bias, small slices flagged, "
        "and each slice against the rest (docs/slices.md); a blank or null value is the "
        "slice 'missing'",
    )
    ev.add_argument(
        "--by-time",
        metavar="COL",
        help="slice by time window of this column of timestamps (with --every), crossed "
        "with --by when given: Parquet or Arrow timestamps or dates, or ISO-8601 text; a "
        "blank or null one is the window 'missing'",
    )
    ev.add_argument(
        "--every",
        metavar="SPAN",
        help="the window of --by-time: 30min, 1h, 6h, 1d, 7d (weeks from Monday), 1mo "
        "(calendar months), 3mo or 1q (quarters), 1y (years), in the time zone the "
        "timestamps are stored or written in",
    )
    ev.add_argument(
        "--reference",
        metavar="SLICE",
        help="with --by or --by-time: the slice the others are compared with, as the report "
        "names it: missing is the slice of blank or null values, '\"missing\"' (quoted) "
        "the text missing (default: the largest slice; over time, the first window)",
    )
    ev.add_argument(
        "--rolling",
        type=int,
        metavar="K",
        help="with --by-time: each window with the K-1 windows of the calendar before it "
        "(windows merged, no rescan)",
    )
    ev.add_argument(
        "--cumulative",
        action="store_true",
        help="with --by-time: each window with every window before it",
    )
    ev.add_argument(
        "--partial",
        metavar="FILE",
        help="instead of a report, write the summaries of these files (Table, Ranking, the "
        "files they cover) to FILE as JSON, for `informed merge` to join with the other "
        "parts of the data; a part may hold no rows or lack the positive class" + OUTPUT_FILE,
    )
    engine_options.add_options(ev)
    tracking.add_options(ev)
    find.add_options(ev)
    folds.add_options(
        ev,
        "each fold's measures, the pooled measure, their mean and standard deviation; "
        "--ci adds each fold's and the pooled interval, --html writes the page "
        "(docs/cross_validation.md)",
    )


QUOTA_RULE = "--quota must be a whole number of cases from 1 to the number of scored rows"


def check_options(args: argparse.Namespace) -> None:
    """Refuse option values that cannot work, before any file is read."""
    if args.predicted is None and args.score is None:
        msg = "give --predicted COL, --score COL, or both."
        raise InputError(msg)
    if not 0.0 <= args.alpha <= 1.0:
        msg = f"--alpha must lie in [0, 1]; got {args.alpha}."
        raise InputError(msg)
    if args.ci is not None and not 0.0 < args.ci < 1.0:
        msg = f"--ci must lie strictly between 0 and 1, e.g. 0.95; got {args.ci}."
        raise InputError(msg)
    if args.summary and (args.format != "json" or args.partial is not None):
        msg = "--summary adds the summaries to --format json (--partial writes them alone)."
        raise InputError(msg)
    if args.weights_are is not None and (args.weight is None or args.ci is None):
        msg = (
            f"--weights-are {args.weights_are} says how the bootstrap intervals read the "
            "weights: it needs --weight COL and --ci LEVEL."
        )
        raise InputError(msg)
    if args.score is not None and args.positive is None:
        msg = "--score needs --positive LABEL: which class do high scores point to?"
        raise InputError(msg)
    if args.bins < 1:
        msg = f"--bins must be at least 1; got {args.bins}."
        raise InputError(msg)
    if args.threshold is not None:
        if args.score is None:
            msg = "--threshold cuts the scores: give --score COL."
            raise InputError(msg)
        if args.threshold != "best":
            try:
                float(args.threshold)
            except ValueError:
                msg = f"--threshold must be a number or 'best'; got {args.threshold!r}."
                raise InputError(msg) from None
    if getattr(args, "partial", None) is not None:
        report = [
            option
            for option, given in (
                ("--html", args.html is not None),
                ("--ci", args.ci is not None),
                ("--threshold", args.threshold is not None),
                ("--quota", args.quota),
            )
            if given
        ]
        if report:
            msg = (
                f"--partial writes summaries, not a report: {report[0]} belongs to the "
                "report of the merged parts (informed merge)."
            )
            raise InputError(msg)
    other = _other_reports(args)
    if getattr(args, "dvc", None) is not None and other:
        msg = f"--dvc writes the report of all rows or of slices; not with {other[0]}."
        raise InputError(msg)
    bad = [q for q in args.quota if q < 1]
    if bad:
        msg = f"{QUOTA_RULE}; got {bad[0]}."
        raise InputError(msg)
    if args.quota and args.score is None:
        msg = "--quota needs --score COL: a quota is a number of top-scored cases."
        raise InputError(msg)


def _check_quotas(quotas: list[int], n: float) -> None:
    """Every quota within the scored rows (known once the file is read)."""
    bad = [q for q in quotas if q > n]
    if bad:
        msg = f"{QUOTA_RULE}, N = {n:g}; got {bad[0]}."
        raise InputError(msg)


def _read(args: argparse.Namespace) -> Summaries:
    """Read the files into their summaries (`informed.io.read_summaries`: batch by batch,
    file by file, memory flat in the number of rows), with a progress line on stderr; or
    on a Dask cluster with --dask (`informed.cli.scale.read_on_dask`)."""
    from informed.io import expand_paths, read_summaries
    from informed.report.progress import Progress

    source = args.file[0] if len(args.file) == 1 else args.file
    if args.dask is not None:
        from informed.cli.scale import read_on_dask

        return read_on_dask(args, source)
    files = expand_paths(source)
    size = sum(f.stat().st_size for f in files if f.suffix.lower() == ".csv" and f.is_file())
    label = Path(args.file[0]).name if len(args.file) == 1 else source_name(args.file)
    progress = Progress(label, size, enabled=not args.quiet)
    try:
        return read_summaries(
            source,
            actual=args.actual,
            predicted=args.predicted,
            scores=args.score,
            weights=args.weight,
            positive=args.positive,
            encoding=args.encoding,
            progress=progress.update,
            positive_option="--positive",
            partial=args.partial is not None,
            storage=args.storage,
        )
    finally:
        progress.close()


def source_name(files: list[str]) -> str:
    """How a report names its input: the file or pattern, or the first of several files."""
    if len(files) == 1:
        return files[0]
    return f"{files[0]} and {len(files) - 1} more files"


def evaluate_file(args: argparse.Namespace, source: str) -> Output:
    """Run `evaluate` on files: every typed result, each computed once."""
    found = _read(args)
    output = report_summaries(args, found.table, found.ranking, found.weighted_rows, source)
    if len(found.parts) > 1 or args.dask is not None:
        from informed.cli.scale import coverage

        engine = f"Dask, {args.dask}" if args.dask is not None else "one process"
        output.coverage = coverage(found, engine)
    return output


def report_summaries(
    args: argparse.Namespace,
    table: Table | None,
    ranking: Ranking | None,
    weighted_rows: int,
    source: str,
) -> Output:
    """Every typed result of a Table and a Ranking, as `args` asks (`evaluate`, `merge`)."""
    from informed.table import evaluate, payoff

    output = Output(
        source=source,
        ranking=ranking,
        positive=args.positive,
        all_labels=args.all_labels,
        csv_raw=args.csv_raw,
        exact=getattr(args, "summary", False),
    )
    if table is not None:
        output.evaluation = evaluate(table, positive=args.positive, alpha=args.alpha)
        output.positive = output.evaluation.positive
        output.pay = payoff(table)
        if args.ci is not None:
            from informed.inference import bootstrap

            # normalised weights: the rows that carry weight are the sample
            normalised = args.weights_are == "normalised"
            output.intervals = bootstrap(
                table,
                positive=args.positive,
                replicates=1000,
                level=args.ci,
                seed=args.seed,
                weights_are="normalised" if normalised else "frequency",
                size=weighted_rows if normalised else None,
            )
    if ranking is not None:
        from informed.ranking import summarize_ranking

        _check_quotas(args.quota, ranking.n)
        output.summary = summarize_ranking(ranking, quotas=tuple(args.quota), bins=args.bins)
        # scores that are probabilities: their calibration and decision curve (else none);
        # with --ci, the intervals of the calibration numbers from the tie groups resampled,
        # with a progress line (seconds for a million distinct scores)
        output.calibration = _calibration_with_progress(args, ranking)
        if args.threshold is not None:
            output.threshold, output.threshold_interval = _operating_point(args, ranking)
    return output


def _calibration_with_progress(
    args: argparse.Namespace, ranking: Ranking
) -> CalibrationReport | None:
    """`calibration_report` of the ranking; with --ci, its bootstrap's progress line."""
    from informed.report.calibration import REPLICATES, calibration_report

    if args.ci is None:
        return calibration_report(ranking)
    from informed.report.progress import Progress

    line = Progress(
        "the calibration", REPLICATES, enabled=not args.quiet, verb="bootstrapping",
        unit="replicates",
    )  # fmt: skip
    try:
        return calibration_report(
            ranking, level=args.ci, seed=args.seed, progress=lambda done: line.update(done, done)
        )
    finally:
        line.close()


def _operating_point(
    args: argparse.Namespace, ranking: Ranking
) -> tuple[OperatingPoint, Interval | None]:
    """The --threshold operating point, and with --ci the interval of its value."""
    import math

    from informed.inference import threshold_interval

    labels = (args.positive, f"not {args.positive}")
    if args.threshold == "best":
        point = ranking.best_threshold(args.optimise, alpha=args.alpha, labels=labels)
        fixed = None
    else:
        fixed = float(args.threshold)
        point = ranking.at_threshold(fixed, args.optimise, alpha=args.alpha, labels=labels)
    interval = None
    if args.ci is not None and not math.isnan(point.value):
        interval = threshold_interval(
            ranking,
            args.optimise,
            alpha=args.alpha,
            threshold=fixed,
            level=args.ci,
            seed=args.seed,
        )
    return point, interval


def run(args: argparse.Namespace) -> None:
    """`informed evaluate`: check the options and paths, evaluate, print, write the files."""
    from informed.cli.scale import check_not_input

    check_options(args)
    tracking.check_options(args, _other_reports(args))
    if folds.requested(args):  # cross-validation folds (informed.slices.Folds)
        folds.run_folds(args, source_name(args.file) if args.file else "")
        return
    if args.find_slices:  # where is the model least informed (informed.find_slices)
        find.run_find(args, source_name(args.file) if args.file else "")
        return
    if engine_options.requested(args):  # a database, a query or --engine: counted there
        made: list[Output] = []

        def report(*given: Any) -> Output:
            made.append(report_summaries(*given))
            return made[-1]

        engine_options.run_engine(args, report)
        if args.mlflow is not None and made:
            tracking.log_output(made[-1], args, made[-1].source)
        return
    if not args.file:
        msg = "give FILE... to evaluate (or --database PATH|URL with --table or --sql)."
        raise InputError(msg)
    slicing = (args.by, args.by_time, args.every, args.rolling, args.reference)
    if any(x not in (None, []) for x in slicing) or args.cumulative:
        from informed.cli.slices import run_slices

        run_slices(args, source_name(args.file))
        return
    if args.html is not None:  # '' is refused by name, never taken for none
        check_html_path(args.html)
        check_not_input(args.html, args.file, "--html")
    if args.dvc is not None:
        check_dvc_path(args.dvc)
    if args.partial is not None:
        from informed.cli.scale import check_save_path, write_partial

        check_save_path(args.partial, "--partial")
        check_not_input(args.partial, args.file, "--partial")
        write_partial(args, _read(args))
        return
    source = source_name(args.file)
    output = evaluate_file(args, source)
    emit(output, args.format)
    if args.html is not None:
        write_html(output, args.html, Path(source).name)
    if args.dvc is not None:
        write_dvc(output, args.dvc)
    if args.mlflow is not None:
        tracking.log_output(output, args, Path(source).name)


def _other_reports(args: argparse.Namespace) -> list[str]:
    """The options given that make another report than those --dvc and --mlflow write
    (of all rows, or of slices and windows): folds, a search, a partial summary."""
    given = {
        "--partial": getattr(args, "partial", None) is not None,
        "--folds": folds.requested(args),
        "--find-slices": bool(getattr(args, "find_slices", None)),
    }
    return [option for option, present in given.items() if present]
