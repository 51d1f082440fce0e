"""One flat record per reported value: what experiment trackers, DVC and model cards keep.

A result document (the JSON that ``informed evaluate --format json`` writes, and that
`result_document` makes from Python results) nests its values by section: the measures,
their intervals and how the intervals were made, the measures per label, the ranking's
summaries. Trackers keep flat keys. `measure_records` reads a document into one
`MeasureRecord` per value, each with everything needed to read it honestly: the registry
name, the value or the reason it is undefined, the interval with its level, method and
replicates, and the number of cases (or the total weight) it was computed on.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from informed.errors import InputError, InputTypeError
from informed.inference.ranking_bootstrap import RankingBootstrap
from informed.inference.table_bootstrap import Bootstrap
from informed.ranking.document import SUMMARIES, RankingSummary, summarize_ranking
from informed.ranking.ranking import Ranking
from informed.report.document import results_document
from informed.report.result_schema import document_kind, document_version, stamp
from informed.table.evaluation import Evaluation, evaluate
from informed.table.table import Table

__all__ = ["MeasureRecord", "gather", "measure_records", "result_document"]


@dataclass(frozen=True)
class MeasureRecord:
    """One reported value, flat.

    Attributes
    ----------
    measure : str
        The registry name (``informedness``, ``auc``).
    value : float
        NaN when undefined (`reason` says why).
    reason : str or None
        Why `value` is undefined; None when it is defined.
    low, high : float
        The confidence interval; NaN when none was asked for or it cannot be computed.
    level : float or None
        The interval's nominal coverage (0.95); None without an interval.
    method : str or None
        How the interval was made (``percentile``, ``bca``); None without one.
    replicates : int or None
        Bootstrap replicates behind the interval; None without one.
    n : float
        The cases (or, for weighted rows, the total weight) of the summary the value is a
        function of: its table or ranking, not the denominator of its own ratio. A value
        of the whole table: every case. A per-label value: every case too, as it is a
        measure of the label's one-vs-rest table, which counts all of them (the label's
        own cases are its ``prevalence`` times n, those predicted as it its ``bias``
        times n). The ranking's summaries: the ranking's cases, the rows with a score. A
        slice's, window's or fold's value: that slice's (fold's test) cases; a slice's
        difference from the rest or the reference (``vs_rest.``, ``vs_reference.``,
        ``gap.``): the slice's own, though the difference rests on the other side's too;
        the rest of a slice search (``rest.``): the other rows; a pooled value, the folds'
        ``mean.`` and ``std.``: every fold's test cases; a comparison: the cases every
        model was evaluated on; a tally: the documents. docs/results.md tabulates it.
    label : str or None
        The label of a per-label value; None for a value over all labels.
    group : str or None
        The slice, time window or fold of the value; None for all rows.
    model : str or None
        The model of a comparison; None for a document of one model.
    """

    measure: str
    value: float
    reason: str | None
    low: float
    high: float
    level: float | None
    method: str | None
    replicates: int | None
    n: float
    label: str | None = None
    group: str | None = None
    model: str | None = None

    def key(self, separator: str = ".") -> str:
        """A flat key: ``informedness``, ``per_label.benign.recall``,
        ``slice.sex=F.informedness``, ``model.forest.difference.auc`` (parts joined by
        `separator`)."""
        parts = [] if self.model is None else ["model", self.model]
        parts += [] if self.group is None else ["slice", self.group]
        if self.label is not None:
            parts += ["per_label", self.label]
        return separator.join([*parts, self.measure])


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


def _record(
    measure: str,
    value: Any,
    n: Any,
    *,
    reason: str | None = None,
    interval: Any = None,
    design: tuple[Any, Any, Any] = (None, None, None),
    label: str | None = None,
    group: str | None = None,
    model: str | None = None,
) -> MeasureRecord:
    """One record; an undefined value always has a reason, an interval its design
    (level, method, replicates), a value without an interval none."""
    low, high = interval if interval else (None, None)
    level, method, replicates = design if interval else (None, None, None)
    if value is None and reason is None:
        reason = "undefined (the document gives no reason)"
    return MeasureRecord(
        measure, _float(value), None if value is not None else reason, _float(low),
        _float(high), level, method, replicates, _float(n), label, group, model,
    )  # fmt: skip


def _evaluation(document: Mapping[str, Any], group: str | None) -> Iterator[MeasureRecord]:
    n = document.get("n")
    design = document.get("bootstrap") or {}
    made = (design.get("level"), design.get("method"), design.get("replicates"))
    intervals = document.get("intervals") or {}
    reasons = document.get("undefined") or {}
    for name, value in (document.get("measures") or {}).items():
        yield _record(name, value, n, reason=reasons.get(name), interval=intervals.get(name),
                      design=made, group=group)  # fmt: skip
    for label, values in (document.get("per_label") or {}).items():
        for name, value in values.items():
            yield _record(name, value, n, reason="undefined for this label", label=str(label),
                          group=group)  # fmt: skip
    ranking = document.get("ranking")
    if ranking:
        yield from _ranking(ranking, document.get("n"), group, None)


def _ranking(
    ranking: Mapping[str, Any], n: Any, group: str | None, made: tuple[Any, Any, Any] | None
) -> Iterator[MeasureRecord]:
    """The ranking's summaries: on the ranking's own n (which differs from the table's
    where rows have a prediction but no score), with their intervals when it has any."""
    reasons = ranking.get("undefined") or {}
    intervals = dict(ranking.get("intervals") or {})
    design = ranking.get("bootstrap") or {}
    if made is None:
        made = (design.get("level"), design.get("method"), design.get("replicates"))
    if "auc_interval" in ranking:  # a slice's: DeLong's, at the report's level
        intervals["auc"] = ranking["auc_interval"]
        made = (made[0], ranking.get("auc_interval_method"), None)
    if "n" in ranking:
        n = ranking["n"]
    elif "n_positive" in ranking:
        n = _float(ranking["n_positive"]) + _float(ranking["n_negative"])
    for name in SUMMARIES:
        if name in ranking:
            yield _record(name, ranking[name], n, reason=reasons.get(name),
                          interval=intervals.get(name), design=made, group=group)  # fmt: skip


def _slices_report(document: Mapping[str, Any]) -> Iterator[MeasureRecord]:
    made = (document.get("level"), document.get("method"), document.get("replicates"))
    for entry in document.get("slices") or []:
        group, n = str(entry["name"]), entry.get("n")
        intervals = entry.get("intervals") or {}
        for name, value in (entry.get("measures") or {}).items():
            yield _record(name, value, n, interval=intervals.get(name), design=made,
                          group=group)  # fmt: skip
        if entry.get("ranking"):
            yield from _ranking(entry["ranking"], n, group, (made[0], None, None))
        for family in ("vs_rest", "vs_reference"):
            for name, found in (entry.get(family) or {}).items():
                if isinstance(found, Mapping) and "estimate" in found:
                    yield _record(f"{family}.{name}", found["estimate"], n,
                                  reason=found.get("reason"), interval=found.get("interval"),
                                  design=made, group=group)  # fmt: skip
    yield from _disparities(document)


def _disparities(document: Mapping[str, Any]) -> Iterator[MeasureRecord]:
    """The disparities between slices (`equalized_odds_difference`, ...: no group, on
    every row the slices hold), their percentile intervals from the report's replicates,
    and the value over every slice (``<name>.every_slice``) beside the headline's, which
    leaves out slices too small for it."""
    design = (document.get("level"), "percentile", document.get("replicates"))
    n = sum(_float(entry.get("n")) for entry in document.get("slices") or [])
    for name, found in (document.get("disparities") or {}).items():
        if not isinstance(found, Mapping) or "estimate" not in found:
            continue
        for key, value in ((name, found), (f"{name}.every_slice", found.get("every_slice"))):
            if isinstance(value, Mapping) and "estimate" in value:
                yield _record(key, value["estimate"], n, reason=value.get("reason"),
                              interval=value.get("interval"), design=design)  # fmt: skip


def _tally(document: Mapping[str, Any], group: str | None) -> Iterator[MeasureRecord]:
    """A tally: the micro average (the pooled table) under the measure's name, the macro
    average as ``macro.<name>``, each category's values under its label."""
    n = document.get("documents")
    undefined = document.get("undefined") or {}
    reasons = undefined.get("micro") or {}
    for name, value in (document.get("micro") or {}).items():
        yield _record(name, value, n, reason=reasons.get(name), group=group)
    for name, value in (document.get("macro") or {}).items():
        yield _record(f"macro.{name}", value, n, reason="undefined in some category",
                      group=group)  # fmt: skip
    per_category = undefined.get("per_category") or {}
    for label, values in (document.get("per_category") or {}).items():
        for name, value in values.items():
            yield _record(name, value, n, reason=(per_category.get(label) or {}).get(name),
                          label=str(label), group=group)  # fmt: skip


def _fold_names(document: Mapping[str, Any]) -> list[str]:
    by = "/".join(document.get("by") or ["fold"])
    return [f"{by}={name}" for name in document.get("folds") or []]


def _folds(
    document: Mapping[str, Any], measures: Mapping[str, Any], model: str | None
) -> Iterator[MeasureRecord]:
    """Each fold's value (its group the fold), the pooled one (no group), and the folds'
    mean and standard deviation (``mean.<name>``, ``std.<name>``)."""
    sizes = document.get("test_sizes") or []
    groups = _fold_names(document)
    total = sum(sizes)
    for name, summary in measures.items():
        values = (summary.get("folds") or {}).values()
        for value, group, size in zip(values, groups, sizes, strict=False):
            yield _record(name, value, size, group=group, model=model)
        yield _record(name, summary.get("pooled"), total, model=model)
        for statistic in ("mean", "std"):
            yield _record(f"{statistic}.{name}", summary.get(statistic), total, model=model)


def _fold_comparison(document: Mapping[str, Any]) -> Iterator[MeasureRecord]:
    for model, measures in (document.get("summaries") or {}).items():
        yield from _folds(document, measures, str(model))
    sizes = document.get("test_sizes") or []
    groups = _fold_names(document)
    for name, values in (document.get("differences") or {}).items():
        for value, group, size in zip(values, groups, sizes, strict=False):
            yield _record(f"difference.{name}", value, size, group=group)
    level = document.get("level")
    for name, tests in (document.get("tests") or {}).items():
        test = tests.get("corrected") or {}
        if test:
            yield _record(f"difference.{name}", test.get("estimate"), sum(sizes),
                          reason=test.get("reason"), interval=test.get("interval"),
                          design=(level, test.get("method"), None))  # fmt: skip


def _fold_pairs(document: Mapping[str, Any]) -> Iterator[MeasureRecord]:
    """Three or more models: each model's folds once, each pair's differences under the
    pair's name ("b - a") as their model."""
    seen: set[tuple[str | None, str, str | None]] = set()
    for pair in document.get("pairs") or []:
        for record in _fold_comparison(pair):
            if record.measure.startswith("difference."):
                yield replace(record, model=str(pair.get("difference")))
            elif (record.model, record.measure, record.group) not in seen:
                seen.add((record.model, record.measure, record.group))
                yield record


def _comparison(document: Mapping[str, Any]) -> Iterator[MeasureRecord]:
    n = document.get("n")
    made = (document.get("level"), "percentile", document.get("replicates"))
    for model, result in (document.get("models") or {}).items():
        intervals = result.get("intervals") or {}
        reasons = result.get("undefined") or {}
        for name, value in (result.get("measures") or {}).items():
            yield _record(name, value, n, reason=reasons.get(name), interval=intervals.get(name),
                          design=made, model=str(model))  # fmt: skip
    for model, by_measure in (document.get("differences") or {}).items():
        for name, found in by_measure.items():
            yield _record(f"difference.{name}", found.get("estimate"), n,
                          reason=found.get("reason"), interval=found.get("interval"),
                          design=made, model=str(model))  # fmt: skip


def _slice_search(document: Mapping[str, Any]) -> Iterator[MeasureRecord]:
    measure = str(document.get("measure"))
    made = (document.get("level"), document.get("method"), None)
    yield _record(measure, document.get("overall"), document.get("rows"))
    for found in document.get("found") or []:
        group, n = str(found["name"]), found.get("n")
        yield _record(measure, found.get(measure), n, group=group)
        yield _record(f"rest.{measure}", found.get("rest"), _float(document.get("rows")) - n,
                      group=group)  # fmt: skip
        yield _record(f"gap.{measure}", found.get("gap"), n, interval=found.get("interval"),
                      design=made, group=group)  # fmt: skip


def measure_records(document: Mapping[str, Any]) -> list[MeasureRecord]:
    """Every value of a result document, one `MeasureRecord` each.

    Reads every kind of result document (`informed.report.result_schema.KINDS`), of the
    schema's version or written before it (version 0); a document of another schema or of
    a newer version is refused with the reason (an InputError). Per kind:

    - an evaluation: the overall measures (with their intervals and the bootstrap's level,
      method and replicates), the measures per label and the ranking's summaries (AUC,
      average hit rate, average Qrecall, PEM) on the ranking's own n, with their intervals
      when the document has them;
    - the slices or time windows (``--by``, ``--by-time``): each slice's measures, ranking
      summaries and differences from the rest and the reference (``vs_rest.<name>``,
      ``vs_reference.<name>``), its `group` the slice's name; and the disparities
      between the slices (``equalized_odds_difference``, ..., and the value over every
      slice, ``<name>.every_slice``) with no group;
    - the folds (``--folds``): each fold's value (`group` ``fold=1``), the pooled value (no
      group), the folds' ``mean.<name>`` and ``std.<name>``;
    - a comparison: each model's measures (`model` its name) and its paired difference
      from the best model (``difference.<name>``); across folds, each model's folds and
      the difference per fold and overall (the corrected resampled t-test's interval);
    - a tally: the micro average under the measure's name, ``macro.<name>``, per category;
    - the slice search: the overall value, and each slice's value, the rest's
      (``rest.<name>``) and the gap (``gap.<name>``, with its interval).

    >>> from informed import Table
    >>> doc = result_document(Table.binary(tp=12, fp=28, fn=18, tn=42), positive="+")
    >>> record = next(r for r in measure_records(doc) if r.key() == "informedness")
    >>> record.value, record.n, record.level
    (0.0, 100.0, None)
    """
    if not isinstance(document, Mapping):
        raise InputTypeError(
            f"measure_records reads a result document (a dict), got {type(document).__name__}"
        )
    document_version(document)
    kind = document_kind(document)
    if kind == "informed.evaluation":
        return list(_evaluation(document, None))
    if kind == "informed.slices_report":
        return list(_slices_report(document))
    if kind == "informed.folds_report":
        return list(_folds(document, document.get("measures") or {}, None))
    if kind == "informed.fold_comparison":
        pairs = "pairs" in document
        return list(_fold_pairs(document) if pairs else _fold_comparison(document))
    if kind == "informed.comparison":
        return list(_comparison(document))
    if kind == "informed.slice_search":
        return list(_slice_search(document))
    if kind == "informed.tally_summary":
        return list(_tally(document, None))
    return [  # informed.tally_slices
        record
        for entry in document.get("slices") or []
        for record in _tally(entry.get("tally") or {}, str(entry["name"]))
    ]


def result_document(*results: Any, positive: Any = None, summary: bool = False) -> dict[str, Any]:
    """The result document of Python results, as ``informed --format json`` writes it.

    Each of `results` is a Table (evaluated here), an Evaluation, a Bootstrap (its
    intervals; its table is evaluated when no Evaluation is given), a Ranking (summarised
    here), a RankingSummary, a RankingBootstrap (the ranking's intervals; its ranking is
    summarised when no other is given), or a result document (a dict, returned as it is
    after its version is checked). At most one of each kind, all of one table and one
    Ranking (`gather`: refused otherwise), a Table evaluated at the Bootstrap's positive
    class when `positive` is not given. Or one of: a Comparison
    (`informed.compare`), a FoldComparison (`compare_folds`), Folds (their measures that
    ``informed evaluate --folds`` reports, with `positive`) or a SliceSearch
    (`find_slices`).

    With `summary`, the evaluation's document holds the exact summaries under
    ``"summary"``: ``{"table": Table.to_dict(), "ranking": Ranking.to_dict()}`` (each None
    when not given), which `Table.from_dict`, `Ranking.from_dict` and ``informed merge``
    read; a Ranking's summary has a line per distinct score.
    """
    if len(results) == 1:
        single = _single(results[0], positive)
        if single is not None:
            return single
    evaluation, intervals, ranked, ranking, ranking_intervals, positive = gather(results, positive)
    if evaluation is None and ranked is None:
        raise InputTypeError("result_document needs at least one result")
    if positive is None and evaluation is not None:
        positive = evaluation.positive
    exact = None
    if summary:
        table = None if evaluation is None else evaluation.table.to_dict()
        exact = {"table": table, "ranking": None if ranking is None else ranking.to_dict()}
    document = results_document(
        evaluation, None, ranked, intervals, positive,
        ranking_intervals=ranking_intervals, summary=exact,
    )  # fmt: skip
    return stamp(document, "informed.evaluation")


def gather(results: tuple[Any, ...], positive: Any) -> tuple[
    Evaluation | None, Bootstrap | None, RankingSummary | None, Ranking | None,
    RankingBootstrap | None, Any,
]:  # fmt: skip
    """The results given together, at most one of each kind, checked to belong together:
    (evaluation, intervals, ranking summary, ranking, ranking intervals, positive). A
    Table is evaluated at the positive class of `positive` or of the Bootstrap; a
    Bootstrap of another table, a RankingBootstrap of another Ranking, or a positive
    class that differs between them is refused: a value with the interval of another
    would be a wrong number."""
    given: dict[type, Any] = {}
    for result in results:
        kind = next((k for k in _KINDS if isinstance(result, k)), None)
        if kind is None:
            raise InputTypeError(
                "results read together are a Table, an Evaluation, a Bootstrap, a Ranking, a "
                f"RankingSummary or a RankingBootstrap, got {type(result).__name__}"
            )
        if kind in given:  # which of the two would the values be? never the last silently
            raise InputError(
                f"results read together hold at most one {kind.__name__}; got two. Give one "
                "result of each kind (add Tables or Rankings of parts first: a + b)."
            )
        given[kind] = result
    evaluation, intervals = given.get(Evaluation), given.get(Bootstrap)
    ranked, ranking = given.get(RankingSummary), given.get(Ranking)
    ranking_intervals = given.get(RankingBootstrap)
    positive = _same_positive(positive, evaluation, intervals)
    table = given.get(Table)
    if table is None and evaluation is None and intervals is not None:
        table = intervals.table
    if table is not None and evaluation is None:
        evaluation = evaluate(table, positive=positive)
    for other, name in ((table, "Table"), (None if intervals is None else intervals.table,
                                           "Bootstrap's resampled table")):  # fmt: skip
        if other is not None and evaluation is not None and other != evaluation.table:
            raise InputError(
                f"the {name} and the Evaluation hold different counts: give the results "
                "of one table (the Table a Bootstrap resampled, the Evaluation of it)."
            )
    if ranking is not None:
        summarised = summarize_ranking(ranking)
        if ranked is not None and (ranked.n, ranked.n_positive) != (ranking.n, ranking.n_positive):
            raise InputError("the RankingSummary is not the given Ranking's: their counts differ.")
        ranked = summarised if ranked is None else ranked
    if ranking_intervals is not None:
        if ranking is not None and ranking_intervals.ranking != ranking:
            raise InputError(
                "the RankingBootstrap's intervals were drawn from another Ranking than the one "
                "given (their counts differ): pass the Ranking it resampled."
            )
        if ranked is None:
            ranking = ranking_intervals.ranking
            ranked = summarize_ranking(ranking)
    return evaluation, intervals, ranked, ranking, ranking_intervals, positive


_KINDS = (Table, Evaluation, Bootstrap, Ranking, RankingSummary, RankingBootstrap)


def _same_positive(positive: Any, *results: Evaluation | Bootstrap | None) -> Any:
    """The one positive class of `positive` (when given), an Evaluation's and a
    Bootstrap's, refused where they differ: a value of one class (or of the average over
    the labels) with the interval of another would be a wrong number."""
    named = [(f"the {type(r).__name__}'s is", r.positive) for r in results if r is not None]
    if positive is not None:
        named.insert(0, ("positive= is", positive))
    for name, other in named[1:]:
        if other != named[0][1]:
            raise InputError(
                f"positive classes differ: {named[0][0]} {named[0][1]!r}, {name} {other!r}; "
                "make the results with the same positive (None: the average over the labels)."
            )
    return named[0][1] if named else None


def _single(result: Any, positive: Any) -> dict[str, Any] | None:
    """The document of a result that is a document alone, or None."""
    from informed.comparison.folds import FoldComparison
    from informed.comparison.result import Comparison
    from informed.disparity.result import SliceSearch
    from informed.slices.folds import Folds

    if isinstance(result, Mapping):
        document_version(result)
        return dict(result)
    if isinstance(result, Comparison):
        return stamp(result.to_dict(), "informed.comparison")
    if isinstance(result, FoldComparison):
        return stamp(result.to_dict(), "informed.fold_comparison")
    if isinstance(result, SliceSearch):
        return stamp(result.to_dict(), "informed.slice_search")
    if isinstance(result, Folds):
        from informed.comparison.comparing import RANKING_COMPARED, TABLE_COMPARED
        from informed.report.folds import folds_document

        found = result.slices
        names = [*(TABLE_COMPARED if found.cells is not None else ()),
                 *(RANKING_COMPARED if found.rankings is not None else ())]  # fmt: skip
        measures = {name: result.measure(name, positive=positive) for name in names}
        document = folds_document(result, measures, "", positive=positive)
        return stamp(document, "informed.folds_report")
    return None
