"""`informed evaluate ... --mlflow [EXPERIMENT]`: the evaluation logged to an MLflow run.

The run is the one ``MLFLOW_RUN_ID`` names (left open, as its owner started it) or a new
one in EXPERIMENT (created when missing; by default MLflow's active experiment, which
``MLFLOW_EXPERIMENT_NAME`` may set), on the tracking server of ``MLFLOW_TRACKING_URI``
(MLflow's default without it: ``sqlite:///mlflow.db`` in the current folder). What is
logged is `informed.mlflow.log`'s: the values with their intervals and denominators, the
result document, the exact summaries and the HTML report; with --by or --by-time, the
slices report's values (``slice.<name>.<measure>``) and its document. The run's id is
printed on stderr. mlflow is imported only when the option is given.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from informed.cli.output import Output
from informed.errors import InputError

__all__ = ["add_options", "check_options", "log_document", "log_output"]


def add_options(parser: Any) -> None:
    """The --mlflow option of `informed evaluate`."""
    parser.add_argument(
        "--mlflow",
        nargs="?",
        const="",
        default=None,
        metavar="EXPERIMENT",
        help="also log the evaluation to MLflow: each value with its _ci_low, _ci_high "
        "and _n (with --by: each slice's, slice.NAME.MEASURE), the result JSON, the exact "
        "Table and Ranking and the HTML report, in a new "
        "run of EXPERIMENT (default: MLflow's active one) or the run MLFLOW_RUN_ID names, on "
        "MLFLOW_TRACKING_URI; the run id is printed on stderr; needs informed[mlflow] "
        "(write the files before it, or --mlflow=EXPERIMENT)",
    )


def check_options(args: argparse.Namespace, other: list[str]) -> None:
    """Refuse --mlflow where it cannot work, before any file is read: with an option whose
    report it does not log (`other`, the options given), a file name taken for the
    experiment's, or without mlflow installed."""
    if args.mlflow is None:
        return
    if other:
        msg = (
            f"--mlflow logs the evaluation of the rows, or of their slices (--by, --by-time); "
            f"{other[0]} makes another report: run it without --mlflow."
        )
        raise InputError(msg)
    if args.mlflow and Path(args.mlflow).exists():
        msg = (
            f"--mlflow took {args.mlflow!r} as the experiment's name, but it is a file: "
            "write the files before --mlflow, or --mlflow=EXPERIMENT."
        )
        raise InputError(msg)
    if importlib.util.find_spec("mlflow") is None:
        msg = "--mlflow needs mlflow: pip install 'informed[mlflow]'."
        raise InputError(msg)


def log_output(output: Output, args: argparse.Namespace, source: str) -> str:
    """Log `output` to MLflow as --mlflow asks; print and return the run's id."""
    results = [x for x in (output.evaluation, output.intervals, output.ranking) if x is not None]
    return _log(args, *results, positive=output.positive, source=source)


def log_document(document: dict[str, Any], args: argparse.Namespace) -> str:
    """Log a result document (the slices report of --by, --by-time) to MLflow as --mlflow
    asks: its values (a slice's under ``slice.<name>.<measure>``) and the document; print
    and return the run's id."""
    return _log(args, document)


def _log(args: argparse.Namespace, *results: Any, **options: Any) -> str:
    """`informed.mlflow.log` of `results` in the run --mlflow and MLFLOW_RUN_ID name."""
    import mlflow

    from informed.integrations.mlflow.tracking import log

    if args.mlflow:
        mlflow.set_experiment(args.mlflow)
    given = os.environ.get("MLFLOW_RUN_ID")
    if given:
        run = log(*results, run_id=given, **options)
    else:
        with mlflow.start_run() as started:
            run = log(*results, run_id=started.info.run_id, **options)
    print(f"informed: logged to MLflow run {run} ({mlflow.get_tracking_uri()})", file=sys.stderr)
    return run
