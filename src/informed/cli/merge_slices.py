"""`informed merge` of sliced result documents: the slices reports of ``informed evaluate
--by`` (and ``--by-time``) written with ``--summary``, and the folds reports of
``--folds``, merged exactly (`informed.io.sliced_documents`) and reported as ``evaluate``
reports all their rows at once, by the same code (`informed.cli.slices.report_slices`,
`informed.cli.folds.report_folds`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from informed.errors import InputError
from informed.io.sliced_documents import DocumentSlices

__all__ = ["ranked_class", "report_merged"]


def _refused(args: argparse.Namespace, folds: bool) -> None:
    """Refuse what the report of slices (or of folds) does not take, as evaluate does."""
    what = "--folds" if folds else "--by"
    given = [
        ("--all-labels", args.all_labels),
        ("--alpha", folds and args.alpha != 0.5),
        ("--reference", folds and args.reference is not None),
        ("--dvc", folds and args.dvc is not None),
    ]
    refused = [option for option, on in given if on]
    if refused:
        msg = (
            f"{refused[0]} is not available for the report of informed evaluate {what}, "
            "which merge prints for these documents; run merge without it."
        )
        raise InputError(msg)


def ranked_class(args: argparse.Namespace, ranking: Any, *, name_it: bool) -> argparse.Namespace:
    """--positive checked against the class the merged Ranking ranks (the files record it);
    when not given and no Table needs a view (`name_it`), the report names that class."""
    from informed.coding.labels import keyed

    known = ranking.positive
    if known is None:
        return args
    if args.positive is None:
        return argparse.Namespace(**{**vars(args), "positive": known}) if name_it else args
    if keyed(args.positive) != keyed(known) and args.positive != str(known):
        msg = (
            f"--positive {args.positive!r} but the merged Ranking ranks the class {known!r}; "
            f"give --positive {str(known)!r} or leave it out."
        )
        raise InputError(msg)
    return args


def _positive(args: argparse.Namespace, merged: DocumentSlices) -> Any:
    """The class the report is of: --positive, else the one the documents reported; with
    scores, --positive must be the class they point to (the slices count no other)."""
    slices = merged.slices
    if slices.overall_ranking is not None:
        args = ranked_class(args, slices.overall_ranking, name_it=False)
    return merged.positive if args.positive is None else args.positive


def report_merged(args: argparse.Namespace, merged: DocumentSlices) -> None:
    """Print the report of the merged slices (or folds) as ``informed evaluate --by``
    (``--by-time``, ``--folds``) prints it for all the rows; --output writes the merged
    document with its exact summary, which merge reads again."""
    from informed.cli.evaluate import source_name
    from informed.report.result_schema import stamp

    folds = merged.kind == "informed.folds_report"
    _refused(args, folds)
    source = source_name(args.files)
    slices = merged.slices
    report = argparse.Namespace(
        **{
            **vars(args),
            "positive": _positive(args, merged),
            "file": args.files,
            "mlflow": None,
            "rolling": None,
            "cumulative": False,
            "every": merged.every,
            "by_time": slices.by[0] if merged.every is not None else None,
        }
    )
    document: dict[str, Any] | None
    if folds:
        from informed.cli.folds import report_folds
        from informed.slices import Folds

        assert isinstance(merged.summary, Folds)
        document = report_folds(report, merged.summary, source, keep=args.output is not None)
    else:
        from informed.cli.slices import report_slices, sliced_summary

        document = report_slices(report, slices, source)
        if args.output is not None:
            document = {**document, "summary": sliced_summary(slices, merged.every)}
    if args.output is not None:
        from informed.cli.scale import write_json

        assert document is not None
        text = json.dumps(stamp(document, merged.kind), allow_nan=False)
        write_json(text, args.output, "--output")
