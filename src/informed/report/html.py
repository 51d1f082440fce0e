"""The HTML report: one self-contained page with the terminal report's content and plots.

The page holds its CSS and its plots (inline SVG, see `informed.report.plots`); it has no
script, and nothing in it fetches anything (no external font, image, style sheet or link),
so it opens the same way offline, from a mail attachment or from a CI artifact. Every
label, file name and title given by the user is HTML-escaped.

Presentation only: each number is read from the objects passed in (an `Evaluation`, a
`Ranking`, intervals) or from the library functions that summarise them; every heading,
formula, range, chance value and source of a contingency measure comes from the registry
`informed.measures.MEASURES`, so a new measure appears here without touching this module.

>>> from informed import Table, evaluate
>>> page = html_report(evaluate(Table.binary(tp=21, fp=14, fn=9, tn=56), positive="+"))
>>> page.startswith("<!DOCTYPE html>"), "http://" in page, "https://" in page
(True, False, False)
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from informed.labels import Label, label_kind
from informed.measures.registry import MEASURES
from informed.ranking.document import ranking_report, undefined_reason
from informed.ranking.ranking import Ranking
from informed.ranking.summaries import pem_areas
from informed.report import plots
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff, payoff

__all__ = ["FIGURES", "MAX_HEATMAP_LABELS", "html_report", "write_html_report"]

MAX_HEATMAP_LABELS = 20
"""The heat map shows at most this many labels (the most frequent): beyond, its cells
would be too small to read their counts and payoffs."""

FIGURES = {
    "heatmap": "figure-heatmap",
    "labels": "figure-labels",
    "roc": "figure-roc",
    "quota": "figure-quota",
    "lift": "figure-lift",
}
"""The id of each <figure> element: table plots need an evaluation, the others a ranking."""

HEADLINE = ("informedness", "markedness", "correlation")
PER_LABEL = (
    "recall",
    "precision",
    "f_measure",
    "informedness",
    "markedness",
    "bias",
    "prevalence",
    "bias_ratio",
)

_ARBEL_ROKACH = "Arbel & Rokach, Classifier evaluation under limited resources (seed 004)"
_PROVOST_FAWCETT = "Provost & Fawcett (2001), Robust classification for imprecise environments"

# (key, heading, definition, range, chance)
_RANKING_SUMMARIES = (
    ("auc", "AUC", "area under the ROC curve; a tied pair counts 1/2 (§2.3.1)", "[0, 1]", "0.5"),
    (
        "average_hit_rate",
        "Average hit rate",
        "Σ_j t[j] HitRate(j) / n+ (eq. 12)",
        "[0, 1]",
        "prevalence",
    ),
    (
        "average_qrecall",
        "Average Qrecall",
        "mean of Qrecall(j) over j = n+ … n (eq. 13)",
        "[0, 1]",
        "—",
    ),
    ("pem", "PEM", "(S1 − S2) / S3 = 2 AUC − 1 (eq. 14–15)", "[-1, 1]", "0"),
)
_DECILE_COLUMNS = (
    ("bin", "bin"),
    ("quota", "quota (upper edge)"),
    ("positives", "positives in bin"),
    ("bin_hit_rate", "hit rate of bin"),
    ("lift", "lift"),
    ("hit_rate", "cumulative hit rate"),
    ("cumulative_lift", "cumulative lift"),
    ("cumulative_qrecall", "cumulative Qrecall (gain)"),
)
_QUOTA_COLUMNS = (
    ("hit_rate", "hit rate"),
    ("qrecall", "Qrecall"),
    ("lift", "lift (cumulative)"),
    ("pearson", "Pearson"),
    ("threshold", "threshold"),
)

_CSS = """
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa;
  --good: #1a7f37; --bad: #cf222e; --accent: #0072b2; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans",
  Arial, sans-serif; }
main { max-width: 1140px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 1.7rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 36px 0 10px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 22px 0 8px; }
p { margin: 6px 0; }
.meta, .note, figcaption, .small { color: var(--muted); font-size: 0.9rem; }
.note { background: var(--soft); border-left: 3px solid var(--accent); padding: 6px 10px; }
nav { margin: 10px 0 0; font-size: 0.92rem; }
nav a { color: var(--accent); margin-right: 14px; text-decoration: none; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.card h3 { margin: 0; font-size: 1rem; }
.card .value { font-size: 2rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .undefined { font-size: 1.3rem; }
.meter { position: relative; height: 10px; background: var(--soft);
  border: 1px solid var(--line); border-radius: 5px; margin: 8px 0 4px; }
.meter .chance { position: absolute; top: -4px; bottom: -4px; width: 2px; background: #888; }
.meter .interval { position: absolute; top: 1px; bottom: 1px; background: #9ecae1;
  border-radius: 3px; }
.meter .dot { position: absolute; top: -4px; width: 4px; height: 16px; margin-left: -2px;
  background: var(--accent); border-radius: 2px; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 0.9rem; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 9px; text-align: left;
  vertical-align: top; }
thead th { background: var(--soft); border-bottom: 2px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
td.nowrap { white-space: nowrap; }
.alias { color: var(--muted); font-size: 0.82rem; font-weight: normal; }
td.total, th.total, tr.total td, tr.total th { background: #fbfbfc; font-weight: 600; }
td.diagonal { background: #eaf3fb; }
td.undefined, span.undefined { color: var(--bad); }
td.neg { color: var(--bad); }
th.label { min-width: 5em; max-width: 18em; overflow-wrap: anywhere; font-weight: 600; }
.formula { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.82rem; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(440px, 1fr));
  gap: 22px; margin: 14px 0; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 10px; }
figure.wide { grid-column: 1 / -1; }
figure svg { display: block; height: auto; margin: 0 auto; }
figcaption { margin-top: 6px; }
details { margin: 6px 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 0.85rem;
  border-top: 1px solid var(--line); padding-top: 8px; }
"""


# ---------------------------------------------------------------------- formatting
def _number(value: float | None, digits: int = 4) -> str:
    if value is None or math.isnan(value):
        return "undefined"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{digits}f}"


def _count(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def _bound(value: float) -> str:
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:g}"


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def _sentence(text: str) -> str:
    """`text` escaped, ending with one full stop."""
    return _text(text) if text.endswith(".") else _text(text) + "."


def _range(low: float, high: float) -> str:
    """[low, high], with an open bracket at an infinite end."""
    return (
        f"{'(' if math.isinf(low) else '['}{_bound(low)}, "
        f"{_bound(high)}{')' if math.isinf(high) else ']'}"
    )


def _value_cell(value: float | None, reason: str | None = None, digits: int = 4) -> str:
    if value is None or math.isnan(value):
        why = reason or "undefined"
        return f'<td class="num undefined" title="{_text(why)}">undefined</td>'
    css = "num neg" if value < 0 else "num"
    return f'<td class="{css}">{_number(value, digits)}</td>'


def _key(label: Label) -> tuple[str, Label]:
    return (label_kind(label), label)


def _percent(value: float, low: float, high: float) -> float:
    """Where `value` sits between `low` and `high`, in percent of the meter (clipped)."""
    return min(max(100.0 * (value - low) / (high - low), 0.0), 100.0)


# ---------------------------------------------------------------------- the page
def html_report(
    evaluation: Evaluation | None = None,
    ranking: Ranking | None = None,
    *,
    intervals: Mapping[str, Sequence[float | None]] | None = None,
    level: float | None = None,
    title: str = "Classifier evaluation",
    source: str = "",
    ranking_positive: Any = None,
    quotas: Sequence[float] = (),
    bins: int = 10,
    max_labels: int = 30,
) -> str:
    """One self-contained HTML document reporting an evaluation, a ranking, or both.

    Parameters
    ----------
    evaluation : Evaluation, optional
        Gives the headline, the contingency table and its heat map, the payoff matrix, all
        measures with the reasons for undefined values, the per-label table and plot.
    ranking : Ranking, optional
        Gives the ranking section: AUC, average hit rate, average Qrecall, PEM, the lift
        table and the ROC, quota and lift plots.
    intervals : dict, optional
        Measure name -> [low, high] (None where undefined), as from
        `informed.inference.intervals_report`; needs `level` and an `evaluation`.
    level : float, optional
        The confidence level of `intervals`, such as 0.95.
    title : str
        The page's heading.
    source : str
        Where the data came from (a file name), shown under the heading.
    ranking_positive : label, optional
        The class the scores rank, named in the ranking section.
    quotas : sequence of float
        Quotas at which the ranking section lists hit rate, Qrecall, lift and Pearson.
    bins : int
        Bins of the lift table and plot (deciles by default).
    max_labels : int
        Tables list at most this many labels, the most frequent ones (by the larger of
        prevalence and bias), with a note saying how many are left out; the heat map
        shows at most `min(max_labels, MAX_HEATMAP_LABELS)`.

    Returns
    -------
    str
        The HTML document.

    Raises
    ------
    TypeError
        `evaluation` is not an `Evaluation`, or `ranking` not a `Ranking`.
    ValueError
        Neither an evaluation nor a ranking; intervals without a level or an evaluation
        (or a level without intervals); quotas without a ranking; `max_labels` below 1.
    """
    if evaluation is None and ranking is None:
        msg = "html_report needs an `evaluation`, a `ranking` or both; got neither."
        raise ValueError(msg)
    if evaluation is not None and not isinstance(evaluation, Evaluation):
        msg = (
            f"`evaluation` must be an Evaluation (from `informed.evaluate`); got "
            f"{type(evaluation).__name__}."
        )
        raise TypeError(msg)
    if ranking is not None and not isinstance(ranking, Ranking):
        msg = (
            f"`ranking` must be a Ranking (from `Ranking.from_scores`); got "
            f"{type(ranking).__name__}."
        )
        raise TypeError(msg)
    if (intervals is None) != (level is None):
        msg = (
            "`intervals` and `level` go together; got "
            f"intervals={'given' if intervals is not None else None}, level={level!r}."
        )
        raise ValueError(msg)
    if intervals is not None and evaluation is None:
        msg = "`intervals` are intervals of an evaluation's measures; pass the `evaluation`."
        raise ValueError(msg)
    if len(quotas) and ranking is None:
        msg = f"`quotas` ({list(quotas)}) need a `ranking`; got ranking=None."
        raise ValueError(msg)
    if isinstance(max_labels, bool) or not isinstance(max_labels, int) or max_labels < 1:
        msg = f"`max_labels` must be a positive integer; got {max_labels!r}."
        raise ValueError(msg)

    sections: list[tuple[str, str, str]] = []  # (id, heading, html)
    if evaluation is not None:
        sections += _evaluation_sections(evaluation, intervals, level, max_labels)
    if ranking is not None:
        sections.append(
            (
                "ranking",
                "Ranking by score",
                _ranking_section(ranking, ranking_positive, quotas, bins, evaluation),
            )
        )
    nav = "".join(f'<a href="#{sid}">{escape(heading)}</a>' for sid, heading, _ in sections)
    body = "".join(
        f'<section id="{sid}"><h2>{escape(heading)}</h2>{content}</section>'
        for sid, heading, content in sections
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="informed"><title>{_text(title)}</title>'
        f"<style>{_CSS}</style></head>\n<body><main>"
        f"<header><h1>{_text(title)}</h1>{_meta(evaluation, ranking, source)}"
        f"<nav>{nav}</nav></header>\n{body}\n{_footer(ranking is not None)}"
        "</main></body></html>\n"
    )


def write_html_report(
    path: str | os.PathLike[str],
    evaluation: Evaluation | None = None,
    ranking: Ranking | None = None,
    *,
    intervals: Mapping[str, Sequence[float | None]] | None = None,
    level: float | None = None,
    title: str = "Classifier evaluation",
    source: str = "",
    ranking_positive: Any = None,
    quotas: Sequence[float] = (),
    bins: int = 10,
    max_labels: int = 30,
) -> Path:
    """Write `html_report(...)` to `path` atomically; return the path written.

    The page is written to a temporary file in the same folder, then moved over `path`
    with `os.replace`: a reader never sees half a report, and an error leaves any earlier
    report in place.
    """
    page = html_report(
        evaluation,
        ranking,
        intervals=intervals,
        level=level,
        title=title,
        source=source,
        ranking_positive=ranking_positive,
        quotas=quotas,
        bins=bins,
        max_labels=max_labels,
    )
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent if str(target.parent) else "."
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(page)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def _meta(evaluation: Evaluation | None, ranking: Ranking | None, source: str) -> str:
    parts = []
    if source:
        parts.append(f"Source: <strong>{_text(source)}</strong>")
    if evaluation is not None:
        table = evaluation.table
        parts.append(f"N = {_count(table.n)}{' (weighted)' if table.weighted else ''}")
        parts.append(
            f"{len(table.predicted)} predicted labels × {len(table.actual)} actual classes"
        )
        if evaluation.positive is not None:
            parts.append(f"positive label <strong>{_text(evaluation.positive)}</strong>")
    if ranking is not None:
        parts.append(
            f"ranking of {_count(ranking.n)} scored rows ({_count(ranking.n_positive)} positive, "
            f"{_count(ranking.n_negative)} negative; {ranking.n_groups:,} distinct scores)"
        )
    return f'<p class="meta">{" · ".join(parts)}</p>'


def _footer(with_ranking: bool) -> str:
    sources = sorted({m.source for m in MEASURES.values()})
    if with_ranking:
        sources += [_ARBEL_ROKACH, _PROVOST_FAWCETT]
    items = "".join(f"<li>{_text(s)}</li>" for s in sources)
    return (
        "<footer><p>Made by <code>informed</code>: a self-contained page (no script, nothing "
        "fetched). Rows of every contingency table are predicted labels, columns actual "
        f"classes, as in the seeds.</p><p>Sources:</p><ul>{items}</ul></footer>"
    )


def _figure(key: str, svg: str, caption: str, *, wide: bool = False) -> str:
    css = ' class="wide"' if wide else ""
    return f'<figure id="{FIGURES[key]}"{css}>{svg}<figcaption>{caption}</figcaption></figure>'


# ---------------------------------------------------------------------- evaluation
def _shown_labels(evaluation: Evaluation, limit: int) -> tuple[Label, ...]:
    """At most `limit` labels, the most frequent first picked, kept in the table's order."""
    labels = list(evaluation.per_label)
    if len(labels) <= limit:
        return tuple(labels)

    def frequency(label: Label) -> float:
        values = evaluation.per_label[label]
        known = [v for v in (values["prevalence"], values["bias"]) if math.isfinite(v)]
        return max(known, default=-1.0)

    ranked = sorted(range(len(labels)), key=lambda i: (-frequency(labels[i]), i))[:limit]
    return tuple(labels[i] for i in sorted(ranked))


def _left_out(shown: int, total: int, what: str) -> str:
    if shown >= total:
        return ""
    return (
        f'<p class="note">Showing {shown} of {total} {what}, the most frequent (by the larger '
        f"of prevalence and bias); {total - shown} are left out here and are all in the JSON "
        "output (<code>--format json</code>).</p>"
    )


def _evaluation_sections(
    evaluation: Evaluation,
    intervals: Mapping[str, Sequence[float | None]] | None,
    level: float | None,
    max_labels: int,
) -> list[tuple[str, str, str]]:
    pay = payoff(evaluation.table)
    shown = _shown_labels(evaluation, max_labels)
    return [
        ("headline", "Headline", _headline(evaluation, intervals, level)),
        (
            "contingency",
            "Contingency table and payoff",
            _contingency(evaluation, pay, shown, max_labels),
        ),
        ("measures", "All measures", _measures(evaluation, intervals, level)),
        ("per-label", "Per label (one-vs-rest)", _per_label(evaluation, shown)),
    ]


def _interval(
    intervals: Mapping[str, Sequence[float | None]] | None, name: str
) -> tuple[float, float] | None:
    if intervals is None or name not in intervals:
        return None
    low, high = intervals[name]
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return None
    return float(low), float(high)


def _headline(
    evaluation: Evaluation,
    intervals: Mapping[str, Sequence[float | None]] | None,
    level: float | None,
) -> str:
    cards = []
    for name in HEADLINE:
        measure = MEASURES[name]
        value = evaluation.measures[name]
        bounds = _interval(intervals, name)
        if math.isnan(value):
            shown = (
                '<div class="value undefined">undefined</div>'
                f'<p class="small">{_text(evaluation.reasons.get(name, "undefined"))}</p>'
            )
        else:
            shown = f'<div class="value" data-value="{value!r}">{_number(value)}</div>'
        interval = ""
        meter = ""
        if bounds is not None and level is not None:
            interval = (
                f'<p class="small interval">{100 * level:g} % interval '
                f"[{_number(bounds[0])}, {_number(bounds[1])}]</p>"
            )
        if math.isfinite(measure.low) and math.isfinite(measure.high):
            parts = []
            if measure.chance is not None:
                at = _percent(measure.chance, measure.low, measure.high)
                parts.append(f'<span class="chance" style="left:{at:.2f}%"></span>')
            if bounds is not None:
                start = _percent(bounds[0], measure.low, measure.high)
                end = _percent(bounds[1], measure.low, measure.high)
                parts.append(
                    f'<span class="interval" style="left:{start:.2f}%;width:{end - start:.2f}%">'
                    "</span>"
                )
            if not math.isnan(value):
                at = _percent(value, measure.low, measure.high)
                parts.append(f'<span class="dot" style="left:{at:.2f}%"></span>')
            meter = f'<div class="meter" aria-hidden="true">{"".join(parts)}</div>'
        chance = "" if measure.chance is None else f"; chance {_bound(measure.chance)}"
        cards.append(
            f'<div class="card" data-measure="{name}"><h3>{_text(measure.title)}</h3>{shown}'
            f"{interval}{meter}"
            f'<p class="small">range {_range(measure.low, measure.high)}{chance}</p>'
            f'<p class="small formula">{_text(measure.formula)}</p></div>'
        )
    scope = (
        f"for the positive label <strong>{_text(evaluation.positive)}</strong> (one-vs-rest)"
        if evaluation.positive is not None
        else "over all labels, as each measure's registry entry combines them"
    )
    return f'<p>Beyond chance, {scope}.</p><div class="cards">{"".join(cards)}</div>'


def _contingency(evaluation: Evaluation, pay: Payoff, shown: Sequence[Label], limit: int) -> str:
    table = evaluation.table
    keep = {_key(x) for x in shown}
    rows = [i for i, x in enumerate(table.predicted) if _key(x) in keep]
    cols = [j for j, x in enumerate(table.actual) if _key(x) in keep]
    counts = table.counts
    row_totals = counts.sum(axis=1).tolist()
    col_totals = counts.sum(axis=0).tolist()
    head = "".join(f'<th class="num label">{_text(table.actual[j])}</th>' for j in cols)
    body = []
    for i in rows:
        cells = []
        for j in cols:
            css = "num diagonal" if _key(table.predicted[i]) == _key(table.actual[j]) else "num"
            cells.append(f'<td class="{css}">{_count(counts[i, j].item())}</td>')
        body.append(
            f'<tr><th class="label">{_text(table.predicted[i])}</th>{"".join(cells)}'
            f'<td class="num total">{_count(row_totals[i])}</td></tr>'
        )
    totals = "".join(f'<td class="num">{_count(col_totals[j])}</td>' for j in cols)
    body.append(
        f'<tr class="total"><th>total</th>{totals}<td class="num">{_count(table.n)}</td></tr>'
    )
    left_out = len(table.predicted) - len(rows) + len(table.actual) - len(cols)
    note = _left_out(len(shown), len(evaluation.per_label), "labels")
    if left_out:
        note += '<p class="small">Totals include the rows and columns left out.</p>'
    contingency = (
        "<h3>Counts (rows predicted, columns actual)</h3>"
        f'{note}<div class="scroll"><table id="contingency-table"><thead><tr>'
        f'<th>predicted \\ actual</th>{head}<th class="num total">total</th></tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
    heat = _shown_labels(evaluation, min(limit, MAX_HEATMAP_LABELS))
    heat_keys = {_key(x) for x in heat}
    heat_rows = [x for x in table.predicted if _key(x) in heat_keys]
    heat_cols = [x for x in table.actual if _key(x) in heat_keys]
    hidden = len(evaluation.per_label) - len(heat)
    heat_note = (
        f" The plot shows the {len(heat)} most frequent of {len(evaluation.per_label)} labels; "
        f"{hidden} are left out of it."
        if hidden
        else ""
    )
    if max(len(heat_rows), len(heat_cols)) > plots.PAYOFF_IN_CELLS:
        heat_note += (
            f" With more than {plots.PAYOFF_IN_CELLS} labels the cells show their counts only; "
            "the payoffs are in the table below."
        )
    informedness = MEASURES["informedness"]
    caption = (
        "The contingency table as a heat map, shaded by count, each cell also giving its "
        "fair-odds payoff per unit stake: a bet on predicted label l pays 1/pR(l) per case "
        "whose class is l and costs 1/(1 − pR(l)) per other case, so each row adds up to "
        "the label's informedness. <b>Good:</b> the counts pile up on the diagonal and each "
        "row wins up to 1. <b>Chance:</b> every row's counts follow the column margins, and "
        "the wins and losses of each row cancel to 0. Source: Powers (2003), Recall and "
        "Precision versus the Bookmaker (seed 001, Figure 1); "
        f"{_sentence(informedness.source)}{heat_note}"
    )
    figure = _figure(
        "heatmap",
        plots.contingency_svg(table, pay, heat_rows, heat_cols, name="plot-heatmap"),
        caption,
        wide=True,
    )
    return contingency + f'<div class="figures">{figure}</div>' + _payoff_table(pay, shown)


def _payoff_table(pay: Payoff, shown: Sequence[Label]) -> str:
    keep = {_key(x) for x in shown}
    index = [i for i, x in enumerate(pay.labels) if _key(x) in keep]
    head = "".join(f'<th class="num label">{_text(pay.labels[j])}</th>' for j in index)
    body = []
    for i in index:
        cells = "".join(_value_cell(float(pay.matrix[i, j])) for j in index)
        reason = "no fair odds: the label is never (or always) the real class"
        body.append(
            f'<tr data-label="{_text(pay.labels[i])}"><th class="label">{_text(pay.labels[i])}'
            f"</th>{cells}{_value_cell(float(pay.won[i]), reason)}"
            f"{_value_cell(float(pay.weighted[i]), reason)}</tr>"
        )
    odds = "".join(_value_cell(float(pay.odds[j]), "the label never occurs") for j in index)
    body.append(f'<tr class="total"><th>fair odds against</th>{odds}<td></td><td></td></tr>')
    total = pay.informedness
    informedness = MEASURES["informedness"]
    return (
        "<h3>Fair-odds payoff per unit stake (rows predicted)</h3>"
        '<p class="small">Won = the row sum, the informedness B(l) of the predicted label; '
        "weighted = pP(l) × B(l). The weighted wins add up to the "
        f"{_text(informedness.title.lower())} of the table: "
        f'<strong id="payoff-total">{_number(total)}</strong>.</p>'
        f'<div class="scroll"><table id="payoff-table"><thead><tr><th>predicted \\ actual</th>'
        f'{head}<th class="num">won</th><th class="num">weighted</th></tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _measures(
    evaluation: Evaluation,
    intervals: Mapping[str, Sequence[float | None]] | None,
    level: float | None,
) -> str:
    with_ci = intervals is not None and level is not None
    ci_head = f'<th class="num">{100 * level:g} % interval</th>' if with_ci and level else ""
    rows = []
    for name, measure in MEASURES.items():
        value = evaluation.measures[name]
        reason = evaluation.reasons.get(name)
        ci = ""
        if with_ci:
            bounds = _interval(intervals, name)
            shown = "—" if bounds is None else f"[{_number(bounds[0])}, {_number(bounds[1])}]"
            ci = f'<td class="num">{shown}</td>'
        other_names = [a for a in measure.aliases if a.lower() != measure.title.lower()]
        aliases = (
            f'<br><span class="alias">{_text(", ".join(other_names))}</span>' if other_names else ""
        )
        chance = "—" if measure.chance is None else _bound(measure.chance)
        rows.append(
            f'<tr data-measure="{name}"><th>{_text(measure.title)}{aliases}</th>'
            f"{_value_cell(value, reason)}{ci}"
            f'<td class="num">{_range(measure.low, measure.high)}</td>'
            f'<td class="num">{chance}</td><td><span class="formula">{_text(measure.formula)}'
            f'</span><br><span class="alias">{_text(measure.source)}</span></td>'
            f'<td class="small">{"" if reason is None else "undefined: " + _text(reason)}</td></tr>'
        )
    scope = (
        f"one-vs-rest for the positive label {_text(evaluation.positive)}"
        if evaluation.positive is not None
        else "combined over labels as each registry entry says (micro, macro, bias- or "
        "prevalence-weighted)"
    )
    return (
        f'<p class="small">Every measure of the registry, {scope}.</p>'
        '<div class="scroll"><table id="measures-table"><thead><tr><th>measure</th>'
        f'<th class="num">value</th>{ci_head}<th class="num">range</th>'
        '<th class="num">chance</th><th>formula and source</th><th>note</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _bias_diagnosis(values: Mapping[str, float]) -> str:
    ratio = values["bias_ratio"]
    if math.isnan(ratio):
        return "never predicted, never occurs"
    if math.isinf(ratio):
        return "predicted, never occurs"
    if ratio > 1:
        return f"over-predicted ×{ratio:.2f}"
    if ratio < 1:
        return "never predicted" if ratio == 0 else f"under-predicted ×{ratio:.2f}"
    return "predicted as often as it occurs"


def _per_label(evaluation: Evaluation, shown: Sequence[Label]) -> str:
    head = "".join(f'<th class="num">{_text(MEASURES[n].title)}</th>' for n in PER_LABEL)
    rows = []
    notes = []
    for label in shown:
        values = evaluation.per_label[label]
        reasons = evaluation.per_label_reasons.get(label, {})
        cells = "".join(_value_cell(values[n], reasons.get(n)) for n in PER_LABEL)
        rows.append(
            f'<tr data-label="{_text(label)}"><th class="label">{_text(label)}</th>{cells}'
            f'<td class="small nowrap">{_bias_diagnosis(values)}</td></tr>'
        )
        undefined = [n for n in PER_LABEL if n in reasons]
        if undefined:
            why = "; ".join(f"{_text(MEASURES[n].title)}: {_text(reasons[n])}" for n in undefined)
            notes.append(f"<li><strong>{_text(label)}</strong>: {why}</li>")
    why_undefined = (
        f"<details open><summary>Why some values are undefined</summary><ul>{''.join(notes)}"
        "</ul></details>"
        if notes
        else ""
    )
    informedness, markedness = MEASURES["informedness"], MEASURES["markedness"]
    caption = (
        f"Each label's {informedness.title.lower()} B ({_text(informedness.formula)}: how "
        f"consistently the label is predicted when it is the real class) against its "
        f"{markedness.title.lower()} M ({_text(markedness.formula)}: how much a prediction of "
        "the label tells about the real class). <b>Good:</b> near (1, 1). <b>Chance:</b> at "
        f"({_bound(informedness.chance or 0.0)}, {_bound(markedness.chance or 0.0)}), where "
        "the grey lines cross. As B·pR(1 − pR) = M·pP(1 − pP), a label off the B = M diagonal "
        "is predicted at a rate (bias pP) other than its prevalence pR: a rare label above the "
        "diagonal is under-predicted, below it over-predicted. The star is the overall value. "
        f"Sources: {_text(informedness.source)}; {_sentence(markedness.source)}"
    )
    figure = _figure("labels", plots.labels_svg(evaluation, shown, name="plot-labels"), caption)
    return (
        _left_out(len(shown), len(evaluation.per_label), "labels")
        + '<div class="scroll"><table id="per-label-table"><thead><tr><th>label</th>'
        f"{head}<th>bias diagnosis</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        + why_undefined
        + f'<div class="figures">{figure}</div>'
    )


# ---------------------------------------------------------------------- ranking
def _operating_point(evaluation: Evaluation | None, positive: Any) -> tuple[float, float] | None:
    """The evaluated predictions on the ROC plane, when they are about the ranked class."""
    if evaluation is None or evaluation.positive is None or positive is None:
        return None
    if _key(evaluation.positive) != _key(positive):
        return None
    return evaluation.measures["fallout"], evaluation.measures["recall"]


def _ranking_section(
    ranking: Ranking,
    positive: Any,
    quotas: Sequence[float],
    bins: int,
    evaluation: Evaluation | None,
) -> str:
    point = _operating_point(evaluation, positive)
    report = ranking_report(ranking, quotas=tuple(quotas), bins=bins)
    named = (
        "the positive class" if positive is None else f"class <strong>{_text(positive)}</strong>"
    )
    rows = []
    for key, heading, definition, bounds, chance in _RANKING_SUMMARIES:
        reason = undefined_reason(ranking, key)
        rows.append(
            f'<tr data-measure="{key}"><th>{heading}</th>{_value_cell(report[key], reason)}'
            f'<td class="num">{bounds}</td><td class="num">{chance}</td>'
            f'<td class="formula">{_text(definition)}</td>'
            f'<td class="small">{"" if reason is None else "undefined: " + _text(reason)}</td></tr>'
        )
    s1, s2, s3 = pem_areas(ranking)
    areas_reason = undefined_reason(ranking, "pem_areas")
    for key, value, definition in (
        ("s1", s1, "area of Qrecall above the random order"),
        ("s2", s2, "area of Qrecall below the random order"),
        ("s3", s3, "area of the optimal order above the random one, n−/2"),
    ):
        rows.append(
            f'<tr data-measure="{key}"><th>{key.upper()}</th>{_value_cell(value, areas_reason)}'
            f'<td class="num">[0, ∞)</td><td class="num">—</td>'
            f'<td class="formula">{_text(definition)}</td><td class="small"></td></tr>'
        )
    summary = (
        f"<p>Scores rank {named} against the rest. Ties are exact: a tie group of m1 rows with "
        "m2 positives counts m2/m1 per position (eq. 5), so no result depends on the input "
        "order.</p>"
        '<div class="scroll"><table id="ranking-table"><thead><tr><th>summary</th>'
        '<th class="num">value</th><th class="num">range</th><th class="num">chance</th>'
        f"<th>definition (seed 004)</th><th>note</th></tr></thead><tbody>{''.join(rows)}"
        "</tbody></table></div>"
    )
    at_quota = report["at_quota"]
    quota_table = ""
    if at_quota:
        head = "".join(f'<th class="num">{t}</th>' for _, t in _QUOTA_COLUMNS)
        body = "".join(
            f'<tr data-quota="{_text(q)}"><th class="num">{_text(q)}</th>'
            + "".join(_value_cell(values[k]) for k, _ in _QUOTA_COLUMNS)
            + "</tr>"
            for q, values in at_quota.items()
        )
        quota_table = (
            "<h3>At the quotas asked for</h3>"
            f'<div class="scroll"><table id="quota-table"><thead><tr><th class="num">quota</th>'
            f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
        )
    deciles = report["deciles"]
    head = "".join(f'<th class="num">{t}</th>' for _, t in _DECILE_COLUMNS)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{_count(row[k])}</td>'
            if k in ("bin", "quota")
            else _value_cell(row[k])
            for k, _ in _DECILE_COLUMNS
        )
        + "</tr>"
        for row in deciles
    )
    decile_table = (
        f"<h3>Lift table ({bins} bins of equal size, top first)</h3>"
        f'<div class="scroll"><table id="lift-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )
    figures = [
        _figure(
            "roc",
            plots.roc_svg(ranking, operating_point=point, name="plot-roc"),
            "The ROC curve: each point is a threshold on the scores, at (fallout, recall); a "
            "tie group is one straight segment. <b>Good:</b> the curve bows towards the top-left "
            "corner (0, 1) and AUC nears 1. <b>Chance:</b> it follows the diagonal, AUC 0.5; the "
            "height of any point above the diagonal is the informedness (recall − fallout) of "
            "that threshold. The convex hull joins the thresholds that are optimal for some "
            f"costs and class priors. Sources: {_ARBEL_ROKACH}, §2.2.2 and §2.3.1; "
            f"{_PROVOST_FAWCETT}; {_sentence(MEASURES['informedness'].source)}"
            + (
                " The diamond is the evaluated predictions, at their (fallout, recall)."
                if point is not None
                else ""
            ),
        ),
        _figure(
            "lift",
            plots.lift_svg(ranking, bins=bins, name="plot-lift"),
            "Lift of each bin: its rate of positives over the overall rate. <b>Good:</b> lift "
            "well above 1 in the top bins, falling below 1 towards the bottom. <b>Chance:</b> "
            "lift 1 in every bin (the dashed line). The line is the cumulative lift. Tie groups "
            f"cut by a bin edge are shared pro rata. Source: {_ARBEL_ROKACH}, §2.2.5.",
        ),
        _figure(
            "quota",
            plots.quota_svg(ranking, name="plot-quota"),
            "Qrecall(j), the share of all positives caught in the top j (eq. 6), and the hit "
            "rate, the share of positives among those j (eq. 4). <b>Good:</b> the curves follow "
            "the optimal order (all positives first): Qrecall climbs straight to 1 at j = n+ "
            "and the hit rate stays at 1 until then. <b>Chance:</b> they follow the random "
            "order: Qrecall = j/n, hit rate = the prevalence. Shaded: PEM's S1 (above random, "
            "green) and S2 (below, red); PEM = (S1 − S2)/S3 is 1 for the optimal order, 0 for "
            f"a random one and −1 for the worst (eq. 14–15). Source: {_ARBEL_ROKACH}, "
            "§2.2.3–2.3.4.",
            wide=True,
        ),
    ]
    return summary + f'<div class="figures">{"".join(figures)}</div>' + decile_table + quota_table
