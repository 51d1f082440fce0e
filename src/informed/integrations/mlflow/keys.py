"""A result's values as MLflow metrics: one key per value, interval and denominator.

MLflow's metric keys may hold only letters, digits, underscores, dashes, periods, spaces
and slashes, and a key must not change when read as a path. Labels and slice names hold
anything. The rule: a record's key is `MeasureRecord.key` (``per_label.<label>.recall``,
``slice.<name>.informedness``, ``model.<name>.auc``) after the prefix, with each character
of a label, slice (or window, or fold) name or model name that is not a letter, a
digit, an underscore, a dash, a period or a space written as ``_`` (``"a/b"`` becomes
``a_b``, ``"1+1"`` becomes ``1_1``). Two values that would then share a key are refused,
naming both labels: nothing is overwritten unseen. The full labels stay in the logged
result document.

Every defined value `v` of a record is logged under its key, with ``<key>_ci_low`` and
``<key>_ci_high`` when it has an interval and ``<key>_n`` (the cases, or the total weight,
it was computed on). An undefined value (NaN) is not logged as a metric (a NaN metric
would read as a number in MLflow's charts): `metric_values` returns its key and reason,
which `informed.mlflow.log` writes to the ``undefined.json`` artifact. Nor is an
infinite value or interval end (a log score with a case given probability 0 of its
outcome): MLflow's database stores inf as the largest float, 1.8e308, a wrong number; its
key goes to ``undefined.json`` with ``INFINITE`` (the logged ``result.json`` holds it as
"Infinity").
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable

from informed.errors import InputError
from informed.report.records import MeasureRecord

__all__ = ["INFINITE", "MAX_KEY", "check_prefix", "metric_values", "safe_name"]

INFINITE = (
    "{}: not logged as a metric, as MLflow stores an infinite value as the largest float "
    "(result.json holds it)"
)
"""The reason ``undefined.json`` gives for an infinite value or interval end ({} is inf
or -inf)."""

MAX_KEY = 250
"""The longest metric key MLflow stores (`mlflow.utils.validation.MAX_ENTITY_KEY_LENGTH`)."""

_UNSAFE = re.compile(r"[^\w\-. ]")
_KEY = re.compile(r"[\w\-. /]*")
SUFFIXES = ("_ci_low", "_ci_high", "_n")


def safe_name(name: str) -> str:
    """A label or slice name as a part of a metric key: every character that is not a
    letter, a digit, ``_``, ``-``, ``.`` or a space becomes ``_``.

    >>> safe_name("a/b"), safe_name("1+1"), safe_name("non-spam"), safe_name("café")
    ('a_b', '1_1', 'non-spam', 'café')
    """
    return _UNSAFE.sub("_", name)


def check_prefix(prefix: str) -> str:
    """`prefix` if it can begin a metric key (letters, digits, ``_ - . /`` and spaces,
    unchanged as a path); an InputError naming it otherwise."""
    if not isinstance(prefix, str):
        msg = f"prefix must be text, got {type(prefix).__name__}."
        raise InputError(msg)
    # each whole part before the key's own (before the last '/') must name a folder:
    # not empty (a leading '/' or '//'), not '.' or '..'
    folders = prefix.split("/")[:-1]
    if not _KEY.fullmatch(prefix) or any(part in ("", ".", "..") for part in folders):
        msg = (
            f"prefix {prefix!r} cannot begin an MLflow metric key: use letters, digits, "
            "'_', '-', '.', ' ' and '/' (no leading '/', no '//', no '..' part)."
        )
        raise InputError(msg)
    return prefix


def _key(record: MeasureRecord, prefix: str) -> str:
    names = (record.label, record.group, record.model)
    label, group, model = (None if name is None else safe_name(name) for name in names)
    if (label, group, model) != names:
        record = dataclasses.replace(record, label=label, group=group, model=model)
    return prefix + record.key(".")


def _describe(record: MeasureRecord) -> str:
    parts = [record.measure]
    if record.label is not None:
        parts.append(f"label {record.label!r}")
    if record.group is not None:
        parts.append(f"slice {record.group!r}")
    if record.model is not None:
        parts.append(f"model {record.model!r}")
    return " of ".join(parts)


def metric_values(
    records: Iterable[MeasureRecord], prefix: str = ""
) -> tuple[dict[str, float], dict[str, str]]:
    """The metrics to log (key -> value) and the values not logged (key -> reason): the
    undefined ones and the infinite ones (`INFINITE`).

    Raises an InputError when two values share a key once their labels are made safe
    (`safe_name`), or when a key is longer than MLflow stores (`MAX_KEY`).
    """
    check_prefix(prefix)
    metrics: dict[str, float] = {}
    undefined: dict[str, str] = {}
    owner: dict[str, MeasureRecord] = {}
    for record in records:
        key = _key(record, prefix)
        if len(key) + len("_ci_high") > MAX_KEY:
            msg = (
                f"the metric key of {_describe(record)} would be {len(key)} characters; "
                f"MLflow stores keys of at most {MAX_KEY} (with its suffixes): shorten the "
                "label or the prefix."
            )
            raise InputError(msg)
        names = [key, *(key + suffix for suffix in SUFFIXES)]
        for name in names:
            earlier = owner.get(name)
            if earlier is not None:
                msg = (
                    f"{_describe(earlier)} and {_describe(record)} would both be logged as "
                    f"the MLflow metric {name!r} (a label's characters other than letters, "
                    "digits, '_', '-', '.' and ' ' become '_'): rename one of the labels."
                )
                raise InputError(msg)
            owner[name] = record
        if math.isnan(record.value):
            undefined[key] = record.reason or "undefined"
            continue
        if math.isinf(record.value):
            undefined[key] = INFINITE.format(record.value)
        else:
            metrics[key] = record.value
        if not (math.isnan(record.low) or math.isnan(record.high)):
            for suffix, end in (("_ci_low", record.low), ("_ci_high", record.high)):
                if math.isinf(end):
                    undefined[key + suffix] = INFINITE.format(end)
                else:
                    metrics[key + suffix] = end
        if not math.isnan(record.n):
            metrics[key + "_n"] = record.n
    return metrics, undefined
