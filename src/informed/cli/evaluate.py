"""`informed evaluate FILE`: contingency and ranking measures of predictions in a file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from informed.cli.output import Output, emit, write_html
from informed.errors import InputError

if TYPE_CHECKING:
    from informed.ranking import Ranking
    from informed.table import Table

__all__ = ["add_parser", "check_options", "evaluate_file", "run"]


def add_parser(commands: Any) -> None:
    """The `evaluate` subcommand and its options."""
    ev = commands.add_parser("evaluate", help="evaluate predictions and/or scores in a CSV file")
    ev.add_argument("file", help="a CSV (with a header line), Parquet or Arrow IPC file")
    ev.add_argument("--actual", required=True, help="column of actual classes")
    ev.add_argument("--predicted", help="column of predicted labels (contingency measures)")
    ev.add_argument("--score", help="column of scores, higher = more positive (ranking measures)")
    ev.add_argument("--weight", help="column of non-negative case weights")
    ev.add_argument(
        "--positive", help="the positive class: its one-vs-rest view, and what scores rank"
    )
    ev.add_argument(
        "--quota",
        type=int,
        nargs="+",
        default=[],
        metavar="J",
        help="quotas (numbers of top-scored cases) to report the ranking at",
    )
    ev.add_argument(
        "--bins", type=int, default=10, help="bins of the lift table (default 10: deciles)"
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
    ev.add_argument("--seed", type=int, default=0, help="random seed of the bootstrap (default 0)")
    ev.add_argument(
        "--weights-are",
        choices=["frequency", "normalised"],
        default=None,
        help="how --ci reads --weight: frequency (a weight w is w cases, so N = the total "
        "weight; the default) or normalised (each row is one case of the sample, counting "
        "as its weight)",
    )
    ev.add_argument("--format", choices=["text", "json", "csv"], default="text")
    ev.add_argument(
        "--html", metavar="FILE", help="also write a self-contained HTML report with plots"
    )
    ev.add_argument("--all-labels", action="store_true", help="list every label, however many")
    ev.add_argument(
        "--encoding", default="utf-8", help="text encoding of a CSV file (default utf-8)"
    )
    ev.add_argument("--quiet", action="store_true", help="no progress line on stderr")


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
    bad = [q for q in args.quota if q < 1]
    if bad:
        msg = f"--quota must be positive numbers of cases; got {bad[0]}."
        raise InputError(msg)


def _read(args: argparse.Namespace) -> tuple[Table | None, Ranking | None, int, int]:
    """Stream the file in batches: the Table is merged batch by batch (memory flat in the
    number of rows); scores are gathered for the Ranking. Returns (table, ranking, rows,
    rows with a positive weight)."""
    import numpy as np

    from informed.io import iter_batches
    from informed.report.progress import Progress
    from informed.table import Table

    labels = [args.actual] + (
        [args.predicted] if args.predicted and args.predicted != args.actual else []
    )
    numbers = [c for c in (args.score, args.weight) if c]
    path = Path(args.file)
    size = path.stat().st_size if path.is_file() else 0
    progress = Progress(
        path.name, size if path.suffix.lower() == ".csv" else 0, enabled=not args.quiet
    )
    table: Table | None = None
    actual_parts: list[Any] = []
    score_parts: list[Any] = []
    weight_parts: list[Any] = []
    rows = weighted_rows = 0
    try:
        for batch in iter_batches(
            path,
            labels=labels,
            numbers=numbers,
            nonnegative=[args.weight] if args.weight else [],
            encoding=args.encoding,
        ):
            rows += batch.rows
            weights = batch.numbers[args.weight] if args.weight else None
            weighted_rows += batch.rows if weights is None else int(np.count_nonzero(weights))
            if args.predicted:
                part = Table.from_labels(
                    actual=batch.labels[args.actual],
                    predicted=batch.labels[args.predicted],
                    weights=weights,
                )
                table = part if table is None else table + part
            if args.score:
                actual_parts.append(batch.labels[args.actual])
                score_parts.append(batch.numbers[args.score])
                if weights is not None:
                    weight_parts.append(weights)
            progress.update(batch.bytes_read, rows)
    finally:
        progress.close()
    if rows == 0:
        msg = f"{args.file} has a header but no data rows: nothing to evaluate."
        raise InputError(msg)
    seen = set(table.labels) if table is not None else set()
    for part in actual_parts:
        seen.update(np.unique(part).tolist())
    if args.positive is not None and args.positive not in seen:
        msg = (
            f"--positive {args.positive!r} is not a label in {args.file}; "
            f"labels are {sorted(seen)[:20]}."
        )
        raise InputError(msg)
    ranking = None
    if args.score:
        from informed.ranking import Ranking

        # scores rank the positive class against all the others (one-vs-rest)
        ranking = Ranking.from_scores(
            actual=np.concatenate(actual_parts) == args.positive,
            scores=np.concatenate(score_parts),
            positive=True,
            weights=np.concatenate(weight_parts) if weight_parts else None,
        )
    return table, ranking, rows, weighted_rows


def evaluate_file(args: argparse.Namespace, source: str) -> Output:
    """Run `evaluate` on a file: the JSON document, the text report and the CSV."""
    from informed.report import (
        evaluation_document,
        measures_csv,
        render_evaluation,
        render_ranking,
    )
    from informed.table import evaluate

    table, ranking, _, weighted_rows = _read(args)
    color = args.format == "text" and sys.stdout.isatty()
    document: dict[str, Any] = {}
    texts: list[str] = []
    result = None
    intervals = None
    note = None
    report = None
    if table is not None:
        result = evaluate(table, positive=args.positive, alpha=args.alpha)
        document.update(evaluation_document(result))
        if args.ci is not None:
            from informed.inference import bootstrap_design, design_note, intervals_report

            # normalised weights: the rows that carry weight are the sample
            weights_are: Literal["frequency", "normalised"] = (
                "normalised" if args.weights_are == "normalised" else "frequency"
            )
            size = weighted_rows if weights_are == "normalised" else None
            intervals = intervals_report(
                table,
                args.ci,
                positive=args.positive,
                seed=args.seed,
                weights_are=weights_are,
                size=size,
            )
            design = bootstrap_design(table, args.ci, weights_are=weights_are, size=size)
            note = design_note(design)
            document["intervals"] = intervals
            document["ci_level"] = args.ci
            document["bootstrap"] = design
        texts.append(
            render_evaluation(
                result,
                source,
                intervals,
                args.ci,
                all_labels=args.all_labels,
                color=color,
                interval_note=note,
            )
        )
    if ranking is not None:
        from informed.ranking import ranking_report

        report = ranking_report(ranking, quotas=tuple(args.quota), bins=args.bins)
        document.setdefault("n", ranking.n)
        document["ranking"] = report
        if table is None:
            texts.append(f"{source}: N = {ranking.n:g}")
        texts.append(render_ranking(report, args.positive, color=color))
    return Output(
        document=document,
        text="\n\n".join(texts),
        csv=measures_csv(result, report),
        evaluation=result,
        ranking=ranking,
        intervals=intervals,
        positive=args.positive,
        quotas=tuple(args.quota),
        bins=args.bins,
        interval_note=note,
    )


def run(args: argparse.Namespace) -> None:
    """`informed evaluate`: check the options, evaluate the file, print, write the HTML."""
    check_options(args)
    output = evaluate_file(args, args.file)
    emit(output, args.format)
    if args.html:
        write_html(output, args.html, Path(args.file).name, args.ci)
