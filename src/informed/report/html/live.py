"""The live operating point of the ranking section: a threshold to move, and what it makes.

The page embeds exact operating points of the ranking (`LivePoints`): each one a cut of
the tie groups, with its threshold, its 2x2 counts and the informedness and markedness
`Ranking.at_threshold` gives there. All of them when there are at most
`MAX_OPERATING_POINTS`; beyond, the ROC hull's vertices, the first operating point, the
two ends and thresholds at evenly spaced shares of the rows predicted positive (each
point exact, never binned). A slider, a click on the ROC plot or the page's address
(``report.html#threshold=0.42``) picks one, and the page's one script (`live.js`) writes
its counts, informedness, markedness, payoff per unit stake and the Bookmaker's dollar
stakes, and moves the circle on the ROC curve.

Without script the panel shows the first operating point, written here by Python with
the library's own functions (`payoff`, `Payoff.stakes`); the script computes the payoff
and the stakes with the same operations in the same order and writes numbers as Python
writes them, so the page reads the same either way.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import NDArray

from informed._common import json_floats
from informed._markup import count, escaped, number
from informed.coding.labels import keyed
from informed.measures import MEASURES, undefined_reason
from informed.plots.roc import ROC_FRAME, draw_roc
from informed.plots.style import fit
from informed.plots.svg import report_axes, svg
from informed.ranking import OperatingPoint, Ranking, auc, roc_convex_hull, roc_curve
from informed.table.payoff import payoff

__all__ = [
    "MAX_OPERATING_POINTS",
    "STAKE",
    "LivePoints",
    "axes_mapping",
    "choose_cuts",
    "js_number",
    "live_points",
    "live_roc_svg",
    "panel",
]

Floats = NDArray[np.float64]

MAX_OPERATING_POINTS = 2000
"""The page embeds at most this many operating points (about 100 bytes each)."""

STAKE = 10.0
"""What punter and bookmaker ante together on each bet, as on Powers' poster ($10)."""

MARKER = "threshold"
"""The gid of the circle `draw_roc` draws at the operating point."""


@dataclass(frozen=True)
class LivePoints:
    """The operating points a page embeds, in the order of their cuts (threshold
    descending): cut k predicts the top k tie groups positive.

    `initial` is the position of the first point shown, `asked` the threshold it was
    asked at (which may lie between two scores), `how` how it was chosen, and `chosen`
    how the points were chosen, in words.
    """

    ranking: Ranking
    cuts: NDArray[np.intp]
    thresholds: Floats
    counts: Floats
    informedness: Floats
    markedness: Floats
    initial: int
    asked: float
    how: str
    chosen: str


def choose_cuts(
    ranking: Ranking, keep: list[int], limit: int = MAX_OPERATING_POINTS
) -> tuple[NDArray[np.intp], str]:
    """The cuts to embed (sorted) and a sentence saying how they were chosen."""
    groups = ranking.n_groups
    total = groups + 1
    if total <= limit:
        return np.arange(total, dtype=np.intp), (
            f"The page holds every operating point of these scores: all {groups:,} distinct "
            "thresholds and “predict none”, each exact."
        )
    hull = roc_convex_hull(ranking).index
    if hull.size > limit // 2:
        hull = hull[np.unique(np.linspace(0, hull.size - 1, limit // 2).round().astype(np.intp))]
    required = np.unique(np.concatenate([[0, 1, groups], np.asarray(keep, np.intp), hull]))
    curve = roc_curve(ranking)
    # rows predicted positive at each cut, to spread the others evenly over the rows
    selected = (
        curve.true_positive_rate * ranking.n_positive
        + curve.false_positive_rate * ranking.n_negative
    )
    spread = max(limit - required.size, 0)
    targets = np.linspace(0.0, float(selected[-1]), spread + 2)[1:-1]
    even = np.minimum(np.searchsorted(selected, targets), groups)
    cuts = np.unique(np.concatenate([required, even]))
    share = 100.0 / (spread + 1)
    return cuts.astype(np.intp), (
        f"The page holds {cuts.size:,} of the {total:,} operating points of these scores, "
        f"each exact: the {hull.size:,} vertices of the ROC convex hull, the first point "
        f"shown, both ends, and thresholds at evenly spaced shares of the rows predicted "
        f"positive (about every {share:.2g} %). A threshold between two of them shows the "
        "nearest, and says so."
    )


def live_points(ranking: Ranking, point: OperatingPoint, how: str) -> LivePoints:
    """The points to embed for `ranking`, the first shown being the cut of `point`."""
    cuts, chosen = choose_cuts(ranking, [point.groups])
    thresholds, counts = ranking.cut_tables(cuts)
    if not ranking.weighted:
        counts = np.rint(counts)  # whole counts, as `at_threshold`'s table holds them
    initial = int(np.searchsorted(cuts, point.groups))
    return LivePoints(
        ranking=ranking,
        cuts=cuts,
        thresholds=thresholds,
        counts=counts,
        informedness=np.asarray(MEASURES["informedness"](counts), dtype=np.float64),
        markedness=np.asarray(MEASURES["markedness"](counts), dtype=np.float64),
        initial=initial,
        asked=float(point.threshold),
        how=how,
        chosen=chosen,
    )


# ---------------------------------------------------------------------- numbers as written
def js_number(value: float) -> str:
    """`value` as JavaScript writes it (`String(x)`): the shortest digits that read back
    as the same float, in JavaScript's layout (5 not 5.0, 1e-7 not 1e-07).

    >>> js_number(5.0), js_number(0.42), js_number(1e-07), js_number(1e-06), js_number(1e21)
    ('5', '0.42', '1e-7', '0.000001', '1e+21')
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    exact = Decimal(repr(abs(value))).as_tuple()
    digits = "".join(map(str, exact.digits)).rstrip("0")
    n = int(exact.exponent) + len(exact.digits)  # value = 0.digits x 10^n
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    power = f"e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + power


def _threshold(value: float) -> str:
    return "∞" if math.isinf(value) and value > 0 else js_number(value)


def _signed(value: float) -> str:
    return "0" if value == 0 else f"{value:+.4f}"


def _money(value: float) -> str:
    return f"${value:,.2f}"


def _amount(value: float) -> str:
    """A bet's amount: four decimals at most, trailing zeros dropped ($7, $6.275)."""
    text = f"{value:,.4f}"
    return "$" + (text.rstrip("0").rstrip(".") if "." in text else text)


def _term(cases: float, each: float) -> str:
    """ "59 × $6.46", never broken over two lines (no-break spaces)."""
    return f"{count(cases)}\u00a0×\u00a0{_amount(each)}"


def _data_value(value: float) -> str:
    return "nan" if math.isnan(value) else repr(float(value))


def _cell(value: float, whole: bool) -> float | int:
    return int(value) if whole else float(value)


# ---------------------------------------------------------------------- the ROC plot
def live_roc_svg(
    ranking: Ranking,
    points: LivePoints,
    operating_point: tuple[float, float] | None,
    name: str = "plot-roc",
) -> tuple[str, dict[str, Any]]:
    """The ROC plot with the circle at the first point, and the affine map from (fallout,
    recall) to the SVG's coordinates that lets the script move it."""
    initial = points.ranking.at_threshold(points.asked)
    with report_axes(ROC_FRAME, name) as axes:
        draw_roc(
            axes,
            ranking,
            operating_point=operating_point,
            threshold=initial,
            threshold_name="the operating point of the panel",
        )
        figure = axes.get_figure(root=True)
        assert isinstance(figure, Figure)
        fit(figure)
        mapping = axes_mapping(axes, figure)
        mapping.update(
            plot=name,
            marker=f"{name}-{MARKER}",
            fpr0=initial.false_positive_rate,
            tpr0=initial.true_positive_rate,
        )
        return svg(figure, name, f"ROC curve, AUC {auc(ranking):.4f}"), mapping


def axes_mapping(axes: Axes, figure: Figure) -> dict[str, Any]:
    """x_svg = ax + bx * x, y_svg = ay + by * y (fallout and recall on the ROC plot), in
    the SVG's user units (points: matplotlib writes SVG at 72 per inch, y downwards)."""
    box = axes.get_position()  # after the equal aspect is applied
    width, height = (float(v) * 72.0 for v in figure.get_size_inches())
    (x0, x1), (y0, y1) = axes.get_xlim(), axes.get_ylim()
    bx = box.width * width / (x1 - x0)
    by = -box.height * height / (y1 - y0)
    return {
        "ax": box.x0 * width - x0 * bx,
        "ay": height - box.y0 * height - y0 * by,
        "bx": bx,
        "by": by,
    }


# ---------------------------------------------------------------------- the panel
def _data(
    points: LivePoints,
    mapping: dict[str, Any],
    note: str,
    positive_first: bool,
    decision: dict[str, Any] | None,
) -> str:
    ranking = points.ranking
    whole = not ranking.weighted
    ends = ranking.cut_tables([0, ranking.n_groups])[1]
    markedness = MEASURES["markedness"]
    flat = points.counts.reshape(-1, 4)
    data = {
        "k": points.cuts.tolist(),
        "t": [None if math.isinf(t) else float(t) for t in points.thresholds],
        "tp": [_cell(v, whole) for v in flat[:, 0]],
        "fp": [_cell(v, whole) for v in flat[:, 1]],
        "b": json_floats(points.informedness),
        "m": json_floats(points.markedness),
        "initial": points.initial,
        "initial_note": note,
        "weighted": ranking.weighted,
        # fn = positives - tp and tn = negatives - fp, the subtraction `cut_tables` makes
        "positives": _cell(ends[0][1, 0], whole),
        "negatives": _cell(ends[0][1, 1], whole),
        "positive_first": positive_first,
        "total": STAKE,
        "reasons": {
            "no_positive": undefined_reason(markedness, ends[0]),
            "no_negative": undefined_reason(markedness, ends[1]),
        },
        "svg": mapping,
        # the decision curve's marker (report/html/calibration.py), when the page has one
        "decision": decision,
    }
    text = json.dumps(data, allow_nan=False, separators=(",", ":"))
    # inside <script>: no "</" can close it, no "<!--" can open a comment
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _note(points: LivePoints) -> str:
    shown = float(points.thresholds[points.initial])
    if shown == points.asked:
        return ""
    return (
        f"score ≥ {_threshold(points.asked)} predicts the same rows as score ≥ "
        f"{_threshold(shown)}, the lowest score at least {_threshold(points.asked)}."
    )


def panel(
    points: LivePoints,
    mapping: dict[str, Any],
    positive: Any,
    negative: Any,
    decision: dict[str, Any] | None = None,
) -> str:
    """The panel's HTML, showing the first point, with its data and its script; with
    `decision` (the calibration section's marker) the script moves the decision curve's
    marker too."""
    ranking = points.ranking
    point = ranking.at_threshold(points.asked)
    tp, fp, fn, tn = point.cells
    pay = payoff(point.table)
    stakes = pay.stakes(total=STAKE)
    where = {keyed(label): i for i, label in enumerate(pay.labels)}
    p, n = where[keyed(point.positive)], where[keyed(point.negative)]
    matrix = pay.block([p, n], [p, n])
    shown = float(points.thresholds[points.initial])
    note = _note(points)
    pos, neg = escaped(positive), escaped(negative)
    markedness = ranking.at_threshold(points.asked, "markedness")
    why = "" if markedness.reason is None else f"undefined: {markedness.reason}"

    def cell(key: str, value: float) -> str:
        return f'<td class="num" id="live-{key}" data-value="{_data_value(value)}">'

    def signed(key: str, value: float) -> str:
        return f"{cell(key, value)}{_signed(value)}</td>"

    size = points.cuts.size
    odds = stakes.odds
    body = (
        '<div class="live" id="live">'
        '<div id="live-controls" class="live-controls" hidden>'
        '<label for="live-slider">Move the threshold</label> '
        f'<input type="range" id="live-slider" min="0" max="{size - 1}" step="1" '
        f'value="{size - 1 - points.initial}" aria-label="threshold">'
        '<span class="small"> lower ← · → higher; or click the ROC curve</span></div>'
        f"<p>Predict <strong>{pos}</strong> when score ≥ "
        f'<strong id="live-threshold" data-value="{_data_value(shown)}">'
        f'{_threshold(shown)}</strong><span id="live-first">, {escaped(points.how)}</span>.</p>'
        f'<p class="note" id="live-note"{"" if note else " hidden"}>{escaped(note)}</p>'
        '<div class="scroll"><table id="live-table"><thead><tr><th>predicted \\ actual</th>'
        f'<th class="num">{pos}</th><th class="num">{neg}</th></tr></thead><tbody>'
        f"<tr><th>{pos}</th>{cell('tp', tp)}{count(tp)}</td>{cell('fp', fp)}{count(fp)}</td></tr>"
        f"<tr><th>{neg}</th>{cell('fn', fn)}{count(fn)}</td>{cell('tn', tn)}{count(tn)}</td></tr>"
        "</tbody></table></div>"
        '<div class="cards live-cards">'
        f'<div class="card"><h3>{escaped(MEASURES["informedness"].title)}</h3>'
        f'<div class="value" id="live-informedness" data-value="{_data_value(point.value)}">'
        f'{number(point.value)}</div><p class="small">recall + inverse recall − 1</p></div>'
        f'<div class="card"><h3>{escaped(MEASURES["markedness"].title)}</h3>'
        f'<div class="value" id="live-markedness" '
        f'data-value="{_data_value(markedness.value)}">{number(markedness.value)}</div>'
        '<p class="small">precision + inverse precision − 1</p>'
        f'<p class="small" id="live-markedness-reason">{escaped(why)}</p></div></div>'
        "<h4>Payoff per unit stake (fair odds)</h4>"
        '<div class="scroll"><table id="live-payoff"><thead><tr><th>predicted \\ actual</th>'
        f'<th class="num">{pos}</th><th class="num">{neg}</th><th class="num">won</th>'
        f"</tr></thead><tbody><tr><th>{pos}</th>"
        f"{signed('payoff-tp', matrix[0, 0])}{signed('payoff-fp', matrix[0, 1])}"
        f"{signed('won-positive', pay.won[p])}</tr><tr><th>{neg}</th>"
        f"{signed('payoff-fn', matrix[1, 0])}{signed('payoff-tn', matrix[1, 1])}"
        f"{signed('won-negative', pay.won[n])}</tr></tbody></table></div>"
        f'<p id="live-stakes">On ${STAKE:g} a bet at fair odds ({pos} '
        f"{odds[point.positive]}, {neg} {odds[point.negative]}): won "
        f'<span id="live-won-terms">{_term(tp, stakes.prize[p])} + {_term(tn, stakes.prize[n])}'
        "</span> = "
        f'<strong id="live-gained" data-value="{_data_value(stakes.won)}">{_money(stakes.won)}'
        f'</strong>; lost <span id="live-lost-terms">{_term(fn, stakes.stake[n])} + '
        f"{_term(fp, stakes.stake[p])}</span> = "
        f'<strong id="live-lost" data-value="{_data_value(stakes.lost)}">{_money(stakes.lost)}'
        f'</strong>; net <strong id="live-net" data-value="{_data_value(stakes.net)}">'
        f"{_money(stakes.net)}</strong> (Powers, the Bookmaker poster).</p>"
        f'<p class="small" id="live-how">{escaped(points.chosen)}</p></div>'
    )
    script = resources.files("informed.report.html").joinpath("live.js").read_text("utf-8")
    return (
        f'{body}<script type="application/json" id="live-data">'
        f"{_data(points, mapping, note, p == 0, decision)}</script><script>{script}</script>"
    )
