"""`informed evaluate FILE --by COL [COL ...]` and `--by-time COL --every SPAN`: every
slice's (or time window's) measures and disparities; with --dvc and --mlflow, kept there
too."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any

from informed.cli.output import print_document
from informed.errors import InputError

if TYPE_CHECKING:
    from informed.inference.slice_calibration import SliceCalibration
    from informed.slices import Slices

__all__ = [
    "check_slice_options",
    "report_scored",
    "report_slices",
    "run_slices",
    "sliced_summary",
]

_NOT_YET = (
    ("--threshold", "threshold"),
    ("--partial", "partial"),
)


def check_slice_options(args: argparse.Namespace) -> None:
    """Refuse, before reading, the options that do not apply to slices yet."""
    if (args.by_time is None) != (args.every is None):
        msg = "--by-time COL and --every SPAN go together: the timestamps and the window."
        raise InputError(msg)
    if not args.by and args.by_time is None:
        msg = "--reference, --rolling and --cumulative compare slices: give --by or --by-time."
        raise InputError(msg)
    if (args.rolling is not None or args.cumulative) and args.by_time is None:
        msg = "--rolling and --cumulative merge time windows: give --by-time COL --every SPAN."
        raise InputError(msg)
    if args.reference is not None and (args.rolling is not None or args.cumulative):
        msg = (
            "--reference compares windows; merged by --cumulative or --rolling they overlap "
            "and are not compared: drop one of them."
        )
        raise InputError(msg)
    if args.rolling is not None and (args.cumulative or args.rolling < 1):
        msg = "--rolling K takes a whole number of windows >= 1, without --cumulative."
        raise InputError(msg)
    if args.summary and (args.rolling is not None or args.cumulative):
        msg = (
            "--summary keeps the windows for informed merge; merged by --rolling or "
            "--cumulative they overlap and cannot be merged again: drop one of them."
        )
        raise InputError(msg)
    if getattr(args, "dvc", None) is not None:
        from informed.cli.output import check_dvc_path

        check_dvc_path(args.dvc)
    for option, name in _NOT_YET:
        if getattr(args, name, None) is not None:
            msg = f"{option} is not available with --by yet; run it without --by."
            raise InputError(msg)
    unused = [
        option
        for option, given in (
            ("--quota", bool(args.quota)),
            ("--weights-are", args.weights_are is not None),
            ("--storage", args.storage != "auto"),
            ("--all-labels", args.all_labels),
            ("--bins", args.bins != 10),
        )
        if given
    ]
    if unused:
        msg = f"{unused[0]} is not available with --by yet; run it without --by."
        raise InputError(msg)


def _read_on_dask(args: argparse.Namespace) -> Slices:
    """The files' Slices on the cluster --dask names (`informed.engines.dask.slices`)."""
    from informed.cli.scale import dask_client
    from informed.engines.dask.slices import slices

    with dask_client(args.dask) as client:
        return slices(
            args.file[0] if len(args.file) == 1 else args.file,
            by=args.by,
            actual=args.actual,
            predicted=args.predicted,
            scores=args.score,
            weights=args.weight,
            positive=args.positive,
            scheduler=client,
            time=args.by_time,
            every=args.every,
        )


def _calibration(
    found: Slices, level: float, seed: int, resample: bool
) -> SliceCalibration | str | None:
    """Each slice's calibration (`informed.inference.slice_calibration`) when the slices
    have scores, with the intervals of 1,000 replicates of each slice when `resample`
    (--ci), as the calibration numbers of all the rows have theirs only with --ci: the
    bootstrap refits every slice's isotonic curve a thousand times, O(replicates x
    distinct scores), many times the cost of the rest of the report for continuous
    scores; the reason there is none when they are not probabilities; None without
    scores."""
    if found.rankings is None:
        return None
    from informed.inference.slice_calibration import slice_calibration

    try:
        replicates = 1000 if resample else 0
        return slice_calibration(found, level=level, seed=seed, replicates=replicates)
    except InputError as error:
        return str(error)


def run_slices(args: argparse.Namespace, source: str) -> None:
    """Read the files by slice (on a Dask cluster with --dask), then report them."""
    from informed.io.sliced import read_slices

    check_slice_options(args)
    if args.html:
        from informed.report.html.page import check_output_path

        check_output_path(args.html)
    if getattr(args, "dask", None) is not None:
        report_slices(args, _read_on_dask(args), source)
        return
    found = read_slices(
        args.file[0] if len(args.file) == 1 else args.file,
        by=args.by,
        time=args.by_time,
        every=args.every,
        actual=args.actual,
        predicted=args.predicted,
        scores=args.score,
        weights=args.weight,
        positive=args.positive,
        encoding=args.encoding,
        positive_option="--positive",
    )
    report_slices(args, found, source)


def _keep(args: argparse.Namespace, document: dict[str, Any]) -> None:
    """The slices report where --dvc and --mlflow keep it: each slice's values in DVC's
    ``metrics.json`` (nested under ``slice.<name>``; no plot is drawn per slice) and in an
    MLflow run (``slice.<name>.<measure>``), with the report's document."""
    if getattr(args, "dvc", None) is None and getattr(args, "mlflow", None) is None:
        return
    from informed.report.result_schema import stamp

    stamped = stamp(document, "informed.slices_report")
    if args.dvc is not None:
        from informed.integrations.dvc import write_files

        write_files(args.dvc, stamped, None, None)
    if getattr(args, "mlflow", None) is not None:
        from informed.cli.tracking import log_document

        log_document(stamped, args)


def sliced_summary(found: Slices, every: str | None) -> dict[str, Any]:
    """The exact summary of a slices report (--summary): the Slices, exact and mergeable
    (`Slices.from_dict`), and the span of the time windows (None for slices by columns),
    which `informed merge` reads (`informed.io.sliced_documents`)."""
    return {"slices": found.to_dict(), "every": every}


def report_slices(args: argparse.Namespace, found: Slices, source: str) -> dict[str, Any]:
    """Evaluate, bootstrap and compare the slices read, and print (and write --html); the
    report's document (with --summary, the exact Slices under "summary")."""
    from informed.cli.output import terminal_width
    from informed.inference.disparities import disparities
    from informed.inference.slice_bootstrap import bootstrap_slices
    from informed.report.slices import slices_document, slices_text
    from informed.report.slices_csv import slices_csv

    if found.cells is None:  # scores without predicted labels: rankings only
        return report_scored(args, found, source)
    found, exact, rows, merged = _windows_merged(args, found)
    level = 0.95 if args.ci is None else args.ci
    order = "key" if args.by_time is not None else "informedness"
    # over time the first window is the reference; across groups, the largest slice
    reference = found.keys[0] if args.by_time is not None and found.keys else None
    if args.reference is not None:  # as the report names it: missing, or "missing"
        try:
            reference = found.named(args.reference)
        except InputError as exc:
            raise InputError(f"--reference {exc}") from None
    # merged windows overlap: no difference between them is reported (merged_note)
    measures = ["informedness", "markedness"]
    differences = (
        None
        if merged is not None
        else disparities(
            found,
            positive=args.positive,
            reference=reference,
            level=level,
            seed=args.seed,
            keep=measures,
        )
    )
    # the differences drew every slice's cases with the same seed: their replicates of
    # each slice's own B and M are the bootstrap's, read rather than drawn again
    result = bootstrap_slices(
        found,
        measures,
        positive=args.positive,
        level=level,
        seed=args.seed,
        alpha=args.alpha,
        values=None if differences is None else differences.own_replicates,
    )
    # each slice's ranking summaries, computed for the slices a report shows (DeLong's
    # components of each slice's AUC read with the differences, every slice at once)
    own = None if differences is None else differences.auc_components
    rankings = None
    if found.rankings is not None:  # imported with scores only
        from informed.inference.slice_rankings import slice_rankings

        rankings = slice_rankings(found, level=level, components=own)
    calibration = _calibration(found, level, args.seed, args.ci is not None)
    document = slices_document(
        result, differences, source, rankings=rankings, merged=merged, calibration=calibration
    )
    if exact is not None:
        document["summary"] = exact
    if args.format == "json":
        print_document(document, "informed.slices_report")
    elif args.format == "csv":
        sys.stdout.write(slices_csv(result, differences, raw=args.csv_raw, rankings=rankings))
    else:
        sys.stdout.write(
            slices_text(
                result,
                differences,
                source,
                order=order,
                rankings=rankings,
                merged=merged,
                rows=rows,
                width=terminal_width() if sys.stdout.isatty() else None,
                calibration=calibration,
            )
        )
    _keep(args, document)
    if args.html:
        from informed.report.html.page import write_slices_report
        from informed.table import evaluate

        overall = math.nan
        if found.overall is not None:
            overall = evaluate(found.overall, positive=args.positive).measures["informedness"]
        write_slices_report(
            args.html,
            result,
            differences,
            overall=overall,
            order=order,
            source=source,
            rankings=rankings,
            merged=merged,
            calibration=calibration,
        )
    return document


def _reference(args: argparse.Namespace, found: Slices) -> int | None:
    """The reference slice's position: --reference, else the first window over time and
    the largest slice across groups; None without slices."""
    if not found.keys:
        return None
    if args.reference is not None:  # as the report names it: missing, or "missing"
        try:
            return found.keys.index(found.named(args.reference))
        except InputError as exc:
            raise InputError(f"--reference {exc}") from None
    return 0 if args.by_time is not None else int(found.n.argmax())


def report_scored(args: argparse.Namespace, found: Slices, source: str) -> dict[str, Any]:
    """The slices read with scores and no predicted labels: each slice's ranking (AUC
    with its interval, its difference from the rest and the reference, the spread of
    AUC) and calibration within slices (`informed.report.slice_scores`); the report's
    document (with --summary, the exact Slices under "summary")."""
    from informed.cli.output import terminal_width
    from informed.inference.auc_differences import auc_differences
    from informed.inference.slice_auc import auc_spread
    from informed.inference.slice_rankings import slice_rankings
    from informed.report.slice_scores import (
        ScoredSlices,
        scored_csv,
        scored_document,
        scored_text,
    )

    found, exact, rows, merged = _windows_merged(args, found)
    level = 0.95 if args.ci is None else args.ci
    reference = _reference(args, found)
    differences = None
    if merged is None and reference is not None:
        differences = auc_differences(found, reference=reference, level=level)
    scored = ScoredSlices(
        slices=found,
        rankings=slice_rankings(
            found, level=level, components=None if differences is None else differences.components
        ),
        spread=auc_spread(found, level=level, seed=args.seed),
        differences=differences,
        reference=reference,
        calibration=_calibration(found, level, args.seed, args.ci is not None),
        merged=merged,
    )
    order = "key" if args.by_time is not None else "auc"
    document = scored_document(scored, source)
    if exact is not None:
        document["summary"] = exact
    if args.format == "json":
        print_document(document, "informed.slices_report")
    elif args.format == "csv":
        sys.stdout.write(scored_csv(scored, raw=args.csv_raw))
    else:
        width = terminal_width() if sys.stdout.isatty() else None
        sys.stdout.write(scored_text(scored, source, order=order, rows=rows, width=width))
    _keep(args, document)
    if args.html:
        from informed.report.html.page import write_scored_slices_report

        write_scored_slices_report(args.html, scored, order=order, source=source)
    return document


def _windows_merged(
    args: argparse.Namespace, found: Slices
) -> tuple[Slices, dict[str, Any] | None, int, str | None]:
    """The Slices a report reads (windows merged by --rolling or --cumulative), the exact
    summary of the slices as read (with --summary), the rows read, and how the windows
    were merged (None if they were not)."""
    exact = sliced_summary(found, args.every) if getattr(args, "summary", False) else None
    rows = int(found.rows.sum())
    if args.rolling is None and not args.cumulative:
        return found, exact, rows, None
    from informed.slices.rolling import accumulate

    merged = "cumulative" if args.cumulative else f"rolling, {args.rolling} of {args.every} each"
    return accumulate(found, last=args.rolling, every=args.every), exact, rows, merged
