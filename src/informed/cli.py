"""The command line: `informed evaluate FILE ...` and `informed demo`.

Parses arguments, calls the modules that do the work, and presents their results; no
arithmetic happens here. Any error exits non-zero with a one-line message, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from informed.errors import InputError, InputTypeError
from informed.evaluation import Evaluation, evaluate
from informed.io import read_csv_columns
from informed.measures import MEASURES
from informed.payoff import payoff
from informed.table import Table

__all__ = ["evaluation_report", "main"]

DEMO_FILE = "breast_cancer_cv.csv"


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def evaluation_report(result: Evaluation) -> dict[str, Any]:
    """The JSON document of an evaluation; every key is a registry name, nan is null."""
    table = result.table
    return {
        "n": table.n,
        "positive": result.positive,
        "labels": {"predicted": list(table.predicted), "actual": list(table.actual)},
        "table": table.counts.tolist(),
        "measures": {name: _number(v) for name, v in result.measures.items()},
        "undefined": dict(result.reasons),
        "per_label": {
            str(label): {name: _number(v) for name, v in values.items()}
            for label, values in result.per_label.items()
        },
        "payoff": payoff(table).to_dict(),
    }


def _format(value: float | None, width: int = 9) -> str:
    if value is None or math.isnan(value):
        return "undefined".rjust(width)
    return f"{value:.4f}".rjust(width)


def render_text(result: Evaluation, source: str) -> str:
    """A readable report: the table, the measures with reasons, per label, the payoff."""
    table = result.table
    out = [
        f"{source}: N = {table.n:g}"
        + (f", positive label {result.positive!r}" if result.positive is not None else "")
    ]
    out += ["", "Contingency table (rows predicted, columns actual)", str(table), ""]
    out.append(
        "Measures"
        + (" (one-vs-rest for the positive label)" if result.positive is not None else "")
    )
    width = max(len(m.title) for m in MEASURES.values())
    for name, measure in MEASURES.items():
        value = result.measures[name]
        note = f"  {result.reasons[name]}" if name in result.reasons else ""
        out.append(f"  {measure.title.ljust(width)} {_format(value)}{note}")
    labels = list(result.per_label)
    if labels:
        out += ["", "Per label (one-vs-rest)"]
        names = [
            "recall",
            "precision",
            "f_measure",
            "informedness",
            "markedness",
            "bias",
            "prevalence",
        ]
        head = "  " + "label".ljust(14) + "".join(n[:11].rjust(12) for n in names)
        out.append(head)
        for label in labels:
            row = "  " + str(label)[:14].ljust(14)
            row += "".join(_format(result.per_label[label][n], 12) for n in names)
            out.append(row)
    pay = payoff(table)
    out += ["", "Fair-odds payoff per unit stake (rows predicted; won = informedness of the label)"]
    out.append(
        "  "
        + "".ljust(14)
        + "".join(str(c)[:11].rjust(12) for c in pay.labels)
        + "won".rjust(12)
        + "weighted".rjust(12)
    )
    for i, label in enumerate(pay.labels):
        cells = "".join(_format(float(v), 12) for v in pay.matrix[i])
        out.append(
            "  "
            + str(label)[:14].ljust(14)
            + cells
            + _format(float(pay.won[i]), 12)
            + _format(float(pay.weighted[i]), 12)
        )
    out.append(f"  Bookmaker informedness: {_format(pay.informedness).strip()}")
    return "\n".join(out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="informed", description="Evaluate classifiers by what they got right beyond chance."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    ev = commands.add_parser("evaluate", help="evaluate predictions in a CSV file")
    ev.add_argument("file", help="a CSV file with a header line")
    ev.add_argument("--actual", required=True, help="column of actual classes")
    ev.add_argument("--predicted", required=True, help="column of predicted labels")
    ev.add_argument("--weight", help="column of non-negative case weights")
    ev.add_argument("--positive", help="evaluate this label against the rest")
    ev.add_argument(
        "--alpha", type=float, default=0.5, help="F-measure weight, 1/(1+beta^2) (default 0.5)"
    )
    ev.add_argument("--format", choices=["text", "json"], default="text")
    ev.add_argument("--encoding", default="utf-8", help="text encoding of the file (default utf-8)")
    demo = commands.add_parser("demo", help="evaluate the example shipped with the package")
    demo.add_argument("--format", choices=["text", "json"], default="text")
    return parser


def _evaluate_file(
    path: str,
    actual: str,
    predicted: str,
    weight: str | None,
    positive: str | None,
    alpha: float,
    encoding: str,
) -> Evaluation:
    columns = read_csv_columns(
        path,
        labels=[actual, predicted] if actual != predicted else [actual],
        numbers=[weight] if weight else [],
        nonnegative=[weight] if weight else [],
        encoding=encoding,
    )
    if columns.rows == 0:
        msg = f"{path} has a header but no data rows: nothing to evaluate."
        raise InputError(msg)
    table = Table.from_labels(
        actual=columns.labels[actual],
        predicted=columns.labels[predicted],
        weights=columns.numbers[weight] if weight else None,
    )
    if positive is not None and positive not in table.labels:
        msg = f"--positive {positive!r} is not a label in {path}; labels are {list(table.labels)}."
        raise InputError(msg)
    return evaluate(table, positive=positive, alpha=alpha)


def _emit(result: Evaluation, source: str, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps(evaluation_report(result), indent=1, allow_nan=False))
    else:
        print(render_text(result, source))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 success, 2 bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            with resources.as_file(resources.files("informed") / "data" / DEMO_FILE) as path:
                result = _evaluate_file(
                    str(path), "actual", "predicted", None, "malignant", 0.5, "utf-8"
                )
                print(
                    "Example: 10-fold cross-validated logistic regression on the UCI breast-cancer "
                    "data (positive class: malignant)\n"
                    if args.format == "text"
                    else "",
                    end="",
                )
                _emit(result, Path(path).name, args.format)
        else:
            if not 0.0 <= args.alpha <= 1.0:
                msg = f"--alpha must lie in [0, 1]; got {args.alpha}."
                raise InputError(msg)
            result = _evaluate_file(
                args.file,
                args.actual,
                args.predicted,
                args.weight,
                args.positive,
                args.alpha,
                args.encoding,
            )
            _emit(result, args.file, args.format)
    except (InputError, InputTypeError, OSError) as exc:
        print(f"informed: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
