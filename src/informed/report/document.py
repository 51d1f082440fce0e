"""JSON and CSV documents of results: registry names as keys, nan written as null.

Presentation only: each document is formatted from typed results computed before (an
`Evaluation` and its `Payoff`, a `RankingSummary`, a `Bootstrap`).

CSV cells are quoted when they hold a comma, a quote, a carriage return or a line feed,
so every row parses back to the same number of fields. A text cell that a spreadsheet
would run as a formula (it starts with =, +, -, @, a tab or a carriage return) is written
with one ' in front; so that this stays reversible, a text cell starting with ' gets one
too. To get a label back, remove the first character of any text cell that starts with
'; or write the labels unchanged with ``raw=True`` (``--csv-raw``). Numbers, and labels
that are numbers such as -1 or +2.5, are never changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

from informed._common import json_float
from informed.measures import MEASURES
from informed.ranking.document import SUMMARIES, RankingSummary
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff, payoff
from informed.table.per_label import LabelValues

if TYPE_CHECKING:  # types only: a report without intervals loads no bootstrap
    from informed.inference.ranking_bootstrap import RankingBootstrap
    from informed.inference.table_bootstrap import Bootstrap

__all__ = [
    "FORMULA_STARTS",
    "bootstrap_document",
    "cells_text",
    "csv_text",
    "evaluation_document",
    "intervals_document",
    "measures_csv",
    "results_document",
    "write_json",
]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""Leading characters that make a spreadsheet read a text cell as a formula."""

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_NEEDS_QUOTES = re.compile(r'[",\r\n]')


def evaluation_document(
    result: Evaluation, pay: Payoff | None = None, *, lazy: bool = False
) -> dict[str, Any]:
    """The JSON document of an evaluation.

    Keys: ``n``, ``positive`` (a label, of the labels' type), ``labels`` {``predicted``,
    ``actual``}, ``table`` (rows predicted; for a sparse table its non-zero cells, as
    `informed.Table.to_dict` writes them), ``measures`` {name: value}, ``undefined``
    {name: reason}, ``per_label`` {label: {name: value}}, ``payoff`` (see
    `informed.table.Payoff.to_dict`). `pay` is the table's payoff (computed here only
    when not given). With `lazy`, ``per_label`` is a `PerLabelEntries`, made one label
    at a time as `write_json` writes it.
    """
    table = result.table
    pay = payoff(table) if pay is None else pay
    return {
        "n": table.n,
        "positive": result.positive,
        "labels": {"predicted": list(table.predicted), "actual": list(table.actual)},
        "table": table.to_dict()["counts"],
        "measures": {name: json_float(v) for name, v in result.measures.items()},
        "undefined": dict(result.reasons),
        "per_label": PerLabelEntries(result) if lazy else dict(per_label_items(result)),
        "payoff": pay.to_dict(),
    }


def per_label_items(result: Evaluation) -> Iterator[tuple[str, dict[str, float | None]]]:
    """(label, {name: value}) for each label, from a measure's column at a time (nan as
    None)."""
    per_label = result.per_label
    if not isinstance(per_label, LabelValues):
        for label, values in per_label.items():
            yield str(label), {name: json_float(v) for name, v in values.items()}
        return
    names = per_label.names
    columns = [[None if v != v else v for v in per_label.column(name).tolist()] for name in names]
    for label, values in zip(per_label.labels, zip(*columns, strict=True), strict=True):
        yield str(label), dict(zip(names, values, strict=True))


class PerLabelEntries:
    """The ``per_label`` entry of a JSON document, made one label at a time as
    `write_json` writes it: 200,000 labels x 26 measures never sit in memory as Python
    objects all at once."""

    def __init__(self, result: Evaluation) -> None:
        self.result = result

    def __len__(self) -> int:
        return len(self.result.per_label)

    def __iter__(self) -> Iterator[tuple[str, dict[str, float | None]]]:
        return per_label_items(self.result)


def write_json(document: dict[str, Any], write: Callable[[str], Any], chunk: int = 1000) -> None:
    """Write `document` as one line of JSON, the text `json.dumps(document)` gives, with a
    `PerLabelEntries` value written `chunk` labels at a time (nan refused, as ever).

    >>> import io
    >>> out = io.StringIO()
    >>> write_json({"n": 3, "per_label": {"a": {"recall": None}}}, out.write)
    >>> out.getvalue()
    '{"n": 3, "per_label": {"a": {"recall": null}}}'
    """
    encode = json.JSONEncoder(allow_nan=False).encode
    write("{")
    for k, (key, value) in enumerate(document.items()):
        write((", " if k else "") + encode(key) + ": ")
        if not isinstance(value, PerLabelEntries):
            write(encode(value))
            continue
        write("{")
        items, first = iter(value), True
        while part := dict(islice(items, chunk)):
            write(("" if first else ", ") + encode(part)[1:-1])
            first = False
        write("}")
    write("}")


def intervals_document(intervals: Bootstrap) -> dict[str, list[float | str | None]]:
    """{measure name: [low, high]} (None where undefined, "Infinity" where infinite): the
    JSON "intervals" entry."""
    return {name: interval.as_list() for name, interval in intervals.intervals.items()}


def bootstrap_document(intervals: Bootstrap) -> dict[str, Any]:
    """How the intervals were made (level, method, replicates, cases per replicate, how a
    weighted table's weights were read): the JSON "bootstrap" entry, read from the
    `Bootstrap` (`informed.inference.bootstrap_design`; `design_note` says it in words)."""
    from informed.inference.design import bootstrap_design  # with intervals only

    return bootstrap_design(
        intervals.table,
        intervals.level,
        replicates=intervals.replicates,
        method=intervals.method,
        weights_are=intervals.weights_are or "frequency",
        size=intervals.size,
    )


def results_document(
    evaluation: Evaluation | None = None,
    pay: Payoff | None = None,
    ranking: RankingSummary | None = None,
    intervals: Bootstrap | None = None,
    positive: Any = None,
    *,
    lazy: bool = False,
    ranking_intervals: RankingBootstrap | None = None,
    summary: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON document of `informed evaluate`: the evaluation's keys (with `pay`; `lazy`
    as in `evaluation_document`), then
    ``"intervals"``, ``"intervals_undefined_replicates"`` (how many replicates were
    undefined and left out of an interval, where any was), ``"ci_level"`` and
    ``"bootstrap"`` from `intervals`, ``"ranking"``
    from `ranking` (with its ``n``, ``n_positive`` and ``n_negative``, and the
    ``"intervals"`` and ``"bootstrap"`` of `ranking_intervals`), and `summary` (the exact
    summaries, ``{"table": Table.to_dict(), "ranking": Ranking.to_dict()}``) as
    ``"summary"``.

    Without an evaluation, ``"n"`` is the ranking's and ``"positive"`` is `positive`.
    """
    document: dict[str, Any] = {}
    if evaluation is not None:
        document.update(evaluation_document(evaluation, pay, lazy=lazy))
        if intervals is not None:
            document["intervals"] = intervals_document(intervals)
            from informed.inference.interval import undefined_counts

            dropped = undefined_counts(intervals.intervals)
            if dropped:  # replicates left out of an interval where the measure was nan
                document["intervals_undefined_replicates"] = dropped
            document["ci_level"] = intervals.level
            document["bootstrap"] = bootstrap_document(intervals)
    if ranking is not None:
        if evaluation is None:
            number = ranking.n
            document["n"] = int(number) if number.is_integer() else number
            document["positive"] = positive
        section = ranking.to_dict()
        section.update(n=ranking.n, n_positive=ranking.n_positive, n_negative=ranking.n_negative)
        if ranking_intervals is not None:
            section["intervals"] = {
                name: found.as_list() for name, found in ranking_intervals.intervals.items()
            }
            section["bootstrap"] = {
                "level": ranking_intervals.level,
                "method": ranking_intervals.method,
                "replicates": ranking_intervals.replicates,
                "stratified": ranking_intervals.stratified,
            }
            from informed.inference.interval import undefined_counts

            dropped = undefined_counts(ranking_intervals.intervals)
            if dropped:  # replicates left out of an interval where the summary was nan
                section["intervals_undefined_replicates"] = dropped
        document["ranking"] = section
    if summary is not None:
        document["summary"] = summary
    return document


def _number_cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value)


def _text_cell(text: str, raw: bool) -> str:
    """A text cell, guarded against formula injection unless `raw`."""
    if raw or _NUMBER.fullmatch(text):
        return text
    return "'" + text if text[:1] in (*FORMULA_STARTS, "'") else text


def _label_cell(label: Any, raw: bool) -> str:
    if label is None:
        return ""
    if isinstance(label, bool):
        return str(label).lower()
    if isinstance(label, int | float):
        return repr(label)
    return _text_cell(str(label), raw)


def cells_text(rows: list[list[Any]], raw: bool = False) -> str:
    """Rows of values (labels, numbers, None) as CSV text, text cells guarded against
    formula injection unless `raw`, as every CSV document of informed writes them."""
    return csv_text([[_label_cell(cell, raw) for cell in row] for row in rows])


def csv_text(rows: list[list[str]]) -> str:
    """Rows of cells as CSV text, one line each ("\\n"), every cell that needs quotes quoted
    (a comma, a double quote, a carriage return or a line feed in it)."""

    def quoted(cell: str) -> str:
        return '"' + cell.replace('"', '""') + '"' if _NEEDS_QUOTES.search(cell) else cell

    return "".join(",".join(quoted(cell) for cell in row) + "\n" for row in rows)


def measures_csv(
    result: Evaluation | None, ranking: RankingSummary | None = None, *, raw: bool = False
) -> str:
    """The measures as CSV: one row for the whole table (``scope`` = overall) and one per
    label, a column per registry measure; ranking summaries as extra columns of the
    overall row. Labels are guarded against formula injection unless `raw` (see the
    module's docstring for how to read a guarded label back)."""
    names = list(MEASURES) if result is not None else []
    extra = list(SUMMARIES) if ranking is not None else []
    rows = [["scope", "label", *names, *extra]]
    overall = [result.measures[n] for n in names] if result is not None else []
    summaries = [ranking.values[k] for k in extra] if ranking is not None else []
    positive = result.positive if result is not None else None
    rows.append(
        [
            "overall",
            _label_cell(positive, raw),
            *map(_number_cell, overall),
            *map(_number_cell, summaries),
        ]
    )
    if result is not None:
        for label, values in result.per_label.items():
            cells = [_number_cell(values[n]) for n in names]
            rows.append(["label", _label_cell(label, raw), *cells, *[""] * len(extra)])
    return csv_text(rows)
