"""The command line: `informed evaluate`, `informed tally` and `informed demo`.

Parses arguments, calls the modules that do the work and hands their results to
`informed.report`; no arithmetic happens here. Any error exits with status 2 and a
one-line message naming the file, line, column and value; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from informed.errors import InputError, InputTypeError
from informed.io.batches import iter_batches
from informed.report import (
    evaluation_document,
    measures_csv,
    render_evaluation,
    render_ranking,
    render_tally,
)
from informed.report.progress import Progress
from informed.table.evaluation import Evaluation, evaluate
from informed.table.table import Table

__all__ = ["main"]

DEMO_FILE = "breast_cancer_cv.csv"
DEMO_QUOTAS = (50, 100, 212)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="informed", description="Evaluate classifiers by what they got right beyond chance."
    )
    commands = parser.add_subparsers(dest="command", required=True)

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
    ev.add_argument("--format", choices=["text", "json", "csv"], default="text")
    ev.add_argument(
        "--html", metavar="FILE", help="also write a self-contained HTML report with plots"
    )
    ev.add_argument("--all-labels", action="store_true", help="list every label, however many")
    ev.add_argument(
        "--encoding", default="utf-8", help="text encoding of a CSV file (default utf-8)"
    )
    ev.add_argument("--quiet", action="store_true", help="no progress line on stderr")

    ta = commands.add_parser(
        "tally", help="score multi-label assignments (Statistics::Contingency)"
    )
    ta.add_argument("file", help='JSON lines: {"assigned": [...], "correct": [...]} per document')
    ta.add_argument("--categories", help="comma-separated categories (else the file's first line)")
    ta.add_argument(
        "--conventions", choices=["default", "statistics-contingency"], default="default"
    )
    ta.add_argument("--format", choices=["text", "json"], default="text")

    demo = commands.add_parser("demo", help="evaluate the example shipped with the package")
    demo.add_argument("--format", choices=["text", "json", "csv"], default="text")
    demo.add_argument(
        "--html",
        metavar="FILE",
        default="informed-demo.html",
        help="where to write the HTML report (default informed-demo.html; '' for none)",
    )
    return parser


def _check_options(args: argparse.Namespace) -> None:
    if args.predicted is None and args.score is None:
        msg = "give --predicted COL, --score COL, or both."
        raise InputError(msg)
    if not 0.0 <= args.alpha <= 1.0:
        msg = f"--alpha must lie in [0, 1]; got {args.alpha}."
        raise InputError(msg)
    if args.ci is not None and not 0.0 < args.ci < 1.0:
        msg = f"--ci must lie strictly between 0 and 1, e.g. 0.95; got {args.ci}."
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


def _read(args: argparse.Namespace) -> tuple[Table | None, Any, int]:
    """Stream the file in batches: the Table is merged batch by batch (memory flat in the
    number of rows); scores are gathered for the Ranking. Returns (table, ranking, rows)."""
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
    rows = 0
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
        from informed.ranking.ranking import Ranking

        # scores rank the positive class against all the others (one-vs-rest)
        ranking = Ranking.from_scores(
            actual=np.concatenate(actual_parts) == args.positive,
            scores=np.concatenate(score_parts),
            positive=True,
            weights=np.concatenate(weight_parts) if weight_parts else None,
        )
    return table, ranking, rows


@dataclass
class Output:
    """What a command produced, in every format it can be written in."""

    document: dict[str, Any]
    text: str
    csv: str | None = None
    evaluation: Evaluation | None = None
    ranking: Any = None
    intervals: dict[str, list[float | None]] | None = None
    positive: str | None = None
    quotas: tuple[int, ...] = ()
    bins: int = 10


def _evaluate(args: argparse.Namespace, source: str) -> Output:
    """Run `evaluate` on a file: the JSON document, the text report and the CSV."""
    table, ranking, _ = _read(args)
    color = args.format == "text" and sys.stdout.isatty()
    document: dict[str, Any] = {}
    texts: list[str] = []
    result = None
    intervals = None
    report = None
    if table is not None:
        result = evaluate(table, positive=args.positive, alpha=args.alpha)
        document.update(evaluation_document(result))
        if args.ci is not None:
            from informed.inference.bootstrap import intervals_report

            intervals = intervals_report(table, args.ci, positive=args.positive, seed=args.seed)
            document["intervals"] = intervals
            document["ci_level"] = args.ci
        texts.append(
            render_evaluation(
                result, source, intervals, args.ci, all_labels=args.all_labels, color=color
            )
        )
    if ranking is not None:
        from informed.ranking.document import ranking_report

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
    )


def _tally(args: argparse.Namespace) -> Output:
    from informed.io.jsonl import read_jsonl
    from informed.tally.document import tally_report

    path = Path(args.file)
    if not path.is_file():
        msg = f"{args.file}: no such file."
        raise InputError(msg)
    categories = [c for c in args.categories.split(",") if c] if args.categories else None
    tally = read_jsonl(path, categories=categories, conventions=args.conventions)
    document = tally_report(tally)
    return Output(document=document, text=render_tally(document, color=sys.stdout.isatty()))


def _emit(output: Output, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps(output.document, indent=1, allow_nan=False))
    elif fmt == "csv":
        print(output.csv or "", end="")
    else:
        print(output.text)


def _write_html(output: Output, path: str, source: str, level: float | None) -> None:
    from informed.report.html import write_html_report

    write_html_report(
        path,
        output.evaluation,
        output.ranking,
        intervals=output.intervals,
        level=level,
        source=source,
        ranking_positive=output.positive,
        quotas=output.quotas,
        bins=output.bins,
    )


def _demo(args: argparse.Namespace) -> None:
    with resources.as_file(resources.files("informed") / "data" / DEMO_FILE) as path:
        demo_args = _parser().parse_args(
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
                args.format,
            ]
        )
        output = _evaluate(demo_args, Path(path).name)
    if args.format == "text":
        print(
            "Example: 10-fold cross-validated logistic regression on the UCI breast-cancer data\n"
            "(569 tumours, 212 malignant; the positive class is malignant)\n"
        )
    _emit(output, args.format)
    if args.html:
        _write_html(output, args.html, DEMO_FILE, 0.95)
        print(f"\nHTML report written to {Path(args.html).resolve()}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            _demo(args)
        elif args.command == "tally":
            _emit(_tally(args), args.format)
        else:
            _check_options(args)
            output = _evaluate(args, args.file)
            _emit(output, args.format)
            if args.html:
                _write_html(output, args.html, Path(args.file).name, args.ci)
    except (InputError, InputTypeError, OSError) as exc:
        print(f"informed: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
