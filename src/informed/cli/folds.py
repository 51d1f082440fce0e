"""`informed evaluate FILE --folds COL [--repeats COL]` and `informed compare FILE ...
--folds COL`: cross-validation folds read from a fold column, each fold's measures with
the pooled one, their mean and spread (with --ci their intervals); two or more models
compared pair by pair across the same folds with the corrected resampled t-test (and the
5x2cv tests for repeats of two folds), Holm over the measures (and the pairs).

The rows are counted as `Folds.from_labels` counts them (`informed.io.sliced.read_slices`
by the fold column, or the repeat and fold columns crossed); a row without a fold is an
error naming its file, line and column.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from informed.cli.output import print_document
from informed.errors import InputError

if TYPE_CHECKING:
    from informed.comparison.fold_pairs import FoldPairs
    from informed.slices import Folds

__all__ = [
    "add_options",
    "check_compare_fold_options",
    "check_fold_options",
    "compare_folds_file",
    "fold_measures",
    "read_folds",
    "report_folds",
    "requested",
    "run_compare_folds",
    "run_folds",
]


def add_options(parser: argparse.ArgumentParser, what: str) -> None:
    """--folds COL and --repeats COL, for `evaluate` or `compare` (`what` says which)."""
    parser.add_argument(
        "--folds",
        metavar="COL",
        help="column of the cross-validation fold that tested each row: " + what,
    )
    parser.add_argument(
        "--repeats",
        metavar="COL",
        help="with --folds: column of the repeat of repeated cross-validation (a case "
        "appears once per repeat; folds are keyed by repeat and fold)",
    )


def requested(args: argparse.Namespace) -> bool:
    """Whether the command was asked about folds."""
    return getattr(args, "folds", None) is not None or getattr(args, "repeats", None) is not None


def _columns(args: argparse.Namespace) -> list[str]:
    if args.folds is None:
        msg = "--repeats COL needs --folds COL: the fold of each row within its repeat."
        raise InputError(msg)
    if args.repeats == args.folds:
        msg = f"--repeats and --folds name the same column {args.folds!r}."
        raise InputError(msg)
    return [args.folds] if args.repeats is None else [args.repeats, args.folds]


def check_fold_options(args: argparse.Namespace) -> None:
    """Refuse, before reading, what `evaluate --folds` does not do."""
    _columns(args)
    given = (
        ("--by", bool(args.by)),
        ("--by-time", args.by_time is not None),
        ("--find-slices", bool(getattr(args, "find_slices", False))),
        ("--threshold", args.threshold is not None),
        ("--partial", args.partial is not None),
        ("--dask", args.dask is not None),
        ("--quota", bool(args.quota)),
        ("--all-labels", args.all_labels),
        ("--storage", args.storage != "auto"),
        ("--bins", args.bins != 10),
        ("--alpha", args.alpha != 0.5),
        ("--weights-are", args.weights_are is not None),
        ("--summary", getattr(args, "summary", False)),
    )
    refused = [option for option, on in given if on]
    if refused:
        msg = f"{refused[0]} is not available with --folds yet; run it without --folds."
        raise InputError(msg)
    from informed.cli import engine_options

    if engine_options.requested(args):
        engine_options.check_engine_options(args)
    elif not args.file:
        msg = "give FILE... with the fold column to evaluate."
        raise InputError(msg)
    if args.html is not None:  # '' is refused by name, never taken for none
        from informed.cli.output import check_html_path
        from informed.cli.scale import check_not_input

        check_html_path(args.html)
        check_not_input(args.html, args.file, "--html")
    taken = {args.actual, args.predicted, args.score, args.weight} - {None}
    if any(column in taken for column in _columns(args)):
        msg = "--folds and --repeats need columns of their own, not --actual's or a model's."
        raise InputError(msg)


def read_folds(
    path: Any,
    by: list[str],
    *,
    actual: str,
    predicted: str | None,
    scores: str | None,
    weights: str | None,
    positive: Any,
    encoding: str,
) -> Folds:
    """The Folds of the files' rows by their fold (and repeat) column; a row without a
    fold is an error naming its file, line and column."""
    from informed.io.sliced import read_slices
    from informed.slices import Folds

    found = read_slices(
        path,
        by=by,
        actual=actual,
        predicted=predicted,
        scores=scores,
        weights=weights,
        positive=positive,
        encoding=encoding,
        positive_option="--positive",
    )
    if any(None in key for key in found.keys):
        _blank_fold(path, by, encoding)
    return Folds(found)


def _blank_fold(path: Any, by: list[str], encoding: str) -> None:
    """Read the fold columns again as labels, which names the first blank cell (only
    when some row has none: the slices read first know that a row lacks its fold, not
    which)."""
    from informed.io import expand_paths, iter_batches

    for file in expand_paths(path):
        for _ in iter_batches(file, labels=by, encoding=encoding):
            pass
    msg = "some row has no fold (or repeat): give every row its fold."  # pragma: no cover
    raise InputError(msg)  # pragma: no cover


def fold_measures(predicted: bool, scores: bool) -> list[str]:
    """The measures reported per fold: those `compare` reports by default (the table
    measures with predictions, the ranking measures with scores)."""
    from informed.comparison.comparing import RANKING_COMPARED, TABLE_COMPARED

    return [*(TABLE_COMPARED if predicted else ()), *(RANKING_COMPARED if scores else ())]


def run_folds(args: argparse.Namespace, source: str) -> None:
    """`informed evaluate --folds`: read the folds, print each fold's measures, pooled,
    mean and spread as text, JSON or CSV (with --ci each fold's and the pooled interval,
    `informed.inference.fold_intervals`), and write the HTML page with --html."""
    check_fold_options(args)
    from informed.cli import engine_options

    if engine_options.requested(args):
        folds, source = _engine_folds(args, _columns(args))
    else:
        folds = read_folds(
            args.file[0] if len(args.file) == 1 else args.file,
            _columns(args),
            actual=args.actual,
            predicted=args.predicted,
            scores=args.score,
            weights=args.weight,
            positive=args.positive,
            encoding=args.encoding,
        )
    _check_two(folds)
    report_folds(args, folds, source)


def report_folds(
    args: argparse.Namespace, folds: Folds, source: str, *, keep: bool = False
) -> dict[str, Any] | None:
    """Print the folds' report as text, JSON or CSV (with --ci each fold's and the pooled
    interval, `informed.inference.fold_intervals`) and write the HTML page with --html;
    the report's document when printed as JSON or asked for (`keep`: `informed merge
    --output`), else None (it holds every fold's exact summary, long for many scores)."""
    from informed.cli import engine_options

    measures = fold_measures(folds.slices.cells is not None, folds.slices.rankings is not None)
    summaries = {m: folds.measure(m, positive=args.positive) for m in measures}
    intervals = None
    if args.ci is not None:
        from informed.inference.fold_intervals import fold_intervals

        intervals = fold_intervals(
            folds, measures, positive=args.positive, level=args.ci, seed=args.seed
        )
    from informed.report.folds import folds_csv, folds_document, folds_text

    document = None
    if args.format == "json" or keep:
        document = folds_document(folds, summaries, source, intervals, positive=args.positive)
    if document is not None and args.format == "json":
        print_document(document, "informed.folds_report")
    elif args.format == "csv":
        sys.stdout.write(folds_csv(folds, summaries, raw=args.csv_raw, intervals=intervals))
    else:
        from informed.cli.output import terminal_width

        color = sys.stdout.isatty()
        width = terminal_width()
        print(folds_text(folds, summaries, source, color=color, width=width, intervals=intervals))
    if args.html is not None:
        from pathlib import Path

        from informed.report.html.folds import write_folds_report

        # a file by its name; several files, or a source an engine names, as the text says
        engine = engine_options.requested(args)
        name = Path(source).name if len(args.file) == 1 and not engine else source
        write_folds_report(args.html, folds, summaries, intervals=intervals, source=name)
    return document


def _engine_folds(args: argparse.Namespace, by: list[str]) -> tuple[Folds, str]:
    """The Folds of a database's table or query, or of files DuckDB reads, counted there
    by ``GROUP BY`` the repeat and fold columns (`informed.engines.route.slices`), with
    the source's name. A row without a fold is refused: the engine's grouped count
    cannot name its row, so the message names the column."""
    from informed.cli import engine_options
    from informed.coding.labels import as_label, keyed, sort_labels
    from informed.engines.route import slices
    from informed.slices import Folds

    def count(opened: Any) -> Any:
        return slices(
            opened.frame,
            by=by,
            actual=args.actual,
            predicted=args.predicted,
            scores=args.score,
            positive=args.positive,
            weights=args.weight,
        )

    found, name = engine_options.count_on_engine(args, count, by)
    if int(found.rows.sum()) == 0:
        msg = f"{name}: no rows: nothing to evaluate."
        raise InputError(msg)
    if found.overall is not None and args.positive is not None:
        labels = sort_labels((*found.overall.predicted, *found.overall.actual))
        if keyed(as_label(args.positive)) not in {keyed(x) for x in labels}:
            msg = f"--positive {args.positive!r} is not a label in {name}."
            raise InputError(msg)
    blank = [c for j, c in enumerate(by) if any(key[j] is None for key in found.keys)]
    if blank:
        msg = f"{name}: some row has no value in column {blank[0]!r}: give every row its fold."
        raise InputError(msg)
    return Folds(found), name


def _check_two(folds: Folds) -> None:
    if len(folds.keys) < 2:
        name = folds.names[0] if folds.names else "none"
        msg = (
            f"the fold column holds one fold ({name}): cross-validation needs at least two "
            "folds; check --folds."
        )
        raise InputError(msg)


def check_compare_fold_options(args: argparse.Namespace) -> None:
    """Refuse, before reading, what `compare --folds` does not do."""
    columns = _columns(args)
    given = (
        ("--threshold", args.threshold is not None),
        ("--replicates", args.replicates != 1000),
        ("--permutations", args.permutations != 9999),
        ("--seed", args.seed != 0),
        ("--alpha", args.alpha != 0.5),
        ("--optimise", args.optimise != "informedness"),
    )
    refused = [option for option, on in given if on]
    if refused:  # none of these is read across folds: never accepted and then ignored
        msg = f"{refused[0]} is not available with --folds; run it without --folds."
        raise InputError(msg)
    taken = {args.actual, *args.predicted, *args.score, *([args.weight] if args.weight else [])}
    if any(c in taken for c in columns):
        msg = "--folds and --repeats need columns of their own, not --actual's or a model's."
        raise InputError(msg)


def compare_folds_file(args: argparse.Namespace) -> FoldPairs:
    """Read each model's Folds from the file and compare every pair (of two models, b -
    a with b the second; of more, each later-named model minus each earlier one, Holm
    over every pair and measure)."""
    from informed.comparison.fold_pairs import compare_fold_pairs

    check_compare_fold_options(args)
    by = _columns(args)
    count = len(args.predicted or args.score)
    names = args.predicted or args.score
    models = {}
    for i in range(count):
        folds = read_folds(
            args.file,
            by,
            actual=args.actual,
            predicted=args.predicted[i] if args.predicted else None,
            scores=args.score[i] if args.score else None,
            weights=args.weight,
            positive=args.positive,
            encoding=args.encoding,
        )
        _check_two(folds)
        models[names[i]] = folds
    return compare_fold_pairs(
        models,
        measures=fold_measures(bool(args.predicted), bool(args.score)),
        positive=args.positive,
        level=args.ci,
        correction=args.correction,
    )


def run_compare_folds(args: argparse.Namespace) -> None:
    """`informed compare --folds`: the comparison across folds as text or JSON, and its
    HTML page with --html."""
    from pathlib import Path

    result = compare_folds_file(args)
    source = Path(args.file).name
    if args.format == "json":  # two models: the one pair's document, as it always was
        found = result.pairs[0].to_dict() if len(result.pairs) == 1 else result.to_dict()
        print_document({"source": source, **found}, "informed.fold_comparison")
    else:
        from informed.cli.output import terminal_width
        from informed.comparison.fold_text import render_fold_pairs

        color = sys.stdout.isatty()
        print(render_fold_pairs(result, source, color=color, width=terminal_width()))
    if args.html is not None:
        from informed.report.html.folds import write_fold_pairs_report

        write_fold_pairs_report(args.html, result, source=source)
