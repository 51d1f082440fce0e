"""Model cards: a result as the ``model-index`` entries of a Hugging Face model card.

A model card's metadata (the YAML block at the top of its README.md) lists evaluation
results under ``model-index``: per model, per task and dataset, metrics of the form
``{"type", "name", "value", "args"}``. The format has no field for an interval, so the
value stays the number it is and the interval, its level, method and replicates, and the
number of cases go into the metric's ``args``, where `huggingface_hub` reads them back
(`huggingface_hub.repocard_data.model_index_to_eval_results`: ``metric_args``).

`to_model_index` builds the entries from the result's document
(`informed.report.records`); writing them into a README.md is `huggingface_hub`'s
``metadata_save`` (or ``metadata_update``, ``ModelCard``), which informed does not need:
the entries are plain lists and dicts.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from informed._common import json_float
from informed.errors import InputError, InputTypeError, UndefinedMeasureWarning
from informed.measures.registry import MEASURES
from informed.ranking.registry import ANY_MEASURE_NAMES, RANKING_MEASURES
from informed.report.contents import HEADLINE
from informed.report.records import MeasureRecord, measure_records, result_document

__all__ = ["DEFAULT_MEASURES", "metric_entry", "to_model_index"]

DEFAULT_MEASURES = (*HEADLINE, "auc")
"""The measures a card lists unless told: what was got right beyond chance, and the AUC
when there are scores (each one the result has)."""


def _title(name: str) -> str:
    found = MEASURES.get(name) or RANKING_MEASURES.get(name)
    return found.title if found is not None else name


def metric_entry(record: MeasureRecord) -> dict[str, Any]:
    """One ``model-index`` metric: ``{"type": registry name, "name": title, "value",
    "args": {"ci_low", "ci_high", "level", "method", "replicates" (with an interval),
    "n"}}``.

    >>> from informed import Table
    >>> doc = result_document(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+")
    >>> record = next(r for r in measure_records(doc) if r.key() == "recall")
    >>> metric_entry(record)
    {'type': 'recall', 'name': 'Recall', 'value': 0.4, 'args': {'n': 100.0}}
    """
    args: dict[str, Any] = {}
    if record.level is not None:
        args = {
            "ci_low": json_float(record.low),
            "ci_high": json_float(record.high),
            "level": record.level,
            "method": record.method,
            "replicates": record.replicates,
        }
    args["n"] = json_float(record.n)
    return {"type": record.measure, "name": _title(record.measure), "value": record.value,
            "args": args}  # fmt: skip


def _chosen(measures: Any) -> tuple[str, ...] | None:
    if measures is None:
        return None
    if isinstance(measures, str):
        measures = (measures,)
    if not isinstance(measures, Sequence):
        raise InputTypeError(f"measures must be names of measures; got {measures!r}.")
    return tuple(ANY_MEASURE_NAMES.resolve(name) for name in measures)


def to_model_index(
    result: Any,
    *,
    model_name: str,
    dataset_name: str,
    dataset_type: str,
    task_type: str = "text-classification",
    task_name: str | None = None,
    dataset_config: str | None = None,
    dataset_split: str | None = None,
    dataset_revision: str | None = None,
    measures: Any = None,
    positive: Any = None,
) -> list[dict[str, Any]]:
    """The ``model-index`` of a model card for `result`.

    Parameters
    ----------
    result : result or sequence of results
        A Table, Evaluation, Bootstrap (whose intervals go into ``args``), Ranking,
        RankingSummary or result document, or several (at most one of each kind).
    model_name, dataset_name, dataset_type : str
        The model's name; the dataset's name and its Hub id (``dataset_type``).
    task_type : str
        The Hub's task id (default ``text-classification``); `task_name` its title
        (default: the id in words).
    dataset_config, dataset_split, dataset_revision : str, optional
        Which configuration, split and revision of the dataset was evaluated.
    measures : name or sequence of names, optional
        The measures to list, by any of their names (registry name, title, alias);
        default `DEFAULT_MEASURES`, those the result has.
    positive : label, optional
        With a Table: the positive class whose one-vs-rest measures are listed.

    Returns
    -------
    list of dict
        ``[{"name": model_name, "results": [{"task", "dataset", "metrics"}]}]``: each
        metric's value a number, its interval, level, method, replicates and n in
        ``args``. A measure whose value is undefined is left out (the format has no
        number for it), with an `UndefinedMeasureWarning` giving the reason.

    >>> from informed import Table
    >>> index = to_model_index(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+",
    ...     model_name="m", dataset_name="Reviews", dataset_type="reviews")
    >>> [(m["type"], m["value"]) for m in index[0]["results"][0]["metrics"]]
    [('informedness', 0.0), ('markedness', 0.0), ('correlation', 0.0)]
    """
    for name, value in (("model_name", model_name), ("dataset_name", dataset_name),
                        ("dataset_type", dataset_type), ("task_type", task_type)):  # fmt: skip
        if not isinstance(value, str) or not value:
            raise InputTypeError(f"{name} must be a non-empty string; got {value!r}.")
    given = tuple(result) if isinstance(result, list | tuple) else (result,)
    records = {
        r.measure: r
        for r in measure_records(result_document(*given, positive=positive))
        if r.label is None and r.group is None
    }
    chosen = _chosen(measures)
    if chosen is not None:
        missing = [name for name in chosen if name not in records]
        if missing:
            raise InputError(
                f"the result has no value of {missing[0]!r}; it has {sorted(records)}."
            )
    names = chosen if chosen is not None else [m for m in DEFAULT_MEASURES if m in records]
    metrics = []
    for name in names:
        record = records[name]
        if record.reason is not None or record.value != record.value:
            warnings.warn(
                f"{name} is left out of the model card: it is undefined "
                f"({record.reason or 'no value'}).",
                UndefinedMeasureWarning,
                stacklevel=2,
            )
            continue
        metrics.append(metric_entry(record))
    task = {"type": task_type, "name": task_name or task_type.replace("-", " ").title()}
    dataset = {"type": dataset_type, "name": dataset_name}
    for key, optional in (("config", dataset_config), ("split", dataset_split),
                          ("revision", dataset_revision)):  # fmt: skip
        if optional is not None:
            dataset[key] = optional
    found = {"task": task, "dataset": dataset, "metrics": metrics}
    return [{"name": model_name, "results": [found]}]
