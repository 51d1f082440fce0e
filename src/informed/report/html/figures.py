"""The plots of the HTML report, each one inline ``<svg>`` element.

Each is drawn by the function a notebook calls (the ``draw_*`` of `informed.plots`),
on a figure of the plot's own size, then rendered by `informed.plots.svg.drawn_svg`:
one drawing code for the notebook and the report. A plot that cannot be drawn (no actual
positives, for instance) becomes a small figure that says why (`message_svg`).
"""

from __future__ import annotations

from collections.abc import Sequence

from informed.coding.labels import Label
from informed.inference.disparities import Disparities
from informed.inference.slice_bootstrap import SliceBootstrap
from informed.inference.tally_intervals import TallyIntervals
from informed.plots.contingency import contingency_frame, draw_contingency
from informed.plots.forest import forest_frame
from informed.plots.labels import LABELS_FRAME, draw_per_label
from informed.plots.quotas import (
    HIT_RATE_FRAME,
    LIFT_FRAME,
    QRECALL_FRAME,
    draw_hit_rate,
    draw_lift,
    draw_qrecall,
    lift_reason,
    lift_title,
    quota_reason,
)
from informed.plots.roc import ROC_FRAME, draw_roc
from informed.plots.slices import TIME_FRAME, draw_slices, draw_slices_over_time, time_caption
from informed.plots.svg import drawn_svg, message_svg
from informed.plots.tally import draw_tally, shown_categories
from informed.ranking import OperatingPoint, Ranking, auc, undefined_reason
from informed.table.evaluation import Evaluation
from informed.table.payoff import Payoff
from informed.table.table import Table

__all__ = [
    "contingency_svg",
    "labels_svg",
    "lift_svg",
    "quota_svg",
    "roc_svg",
    "slices_svg",
    "slices_time_svg",
    "tally_svg",
]


def contingency_svg(
    table: Table,
    pay: Payoff,
    rows: Sequence[Label],
    columns: Sequence[Label],
    *,
    name: str = "plot-heatmap",
) -> str:
    """The heat map of `table` over the predicted labels `rows` and actual classes
    `columns`, each cell with its payoff from `pay` (`informed.plot_contingency`)."""
    return drawn_svg(
        contingency_frame(rows, columns),
        name,
        lambda axes: draw_contingency(axes, table, pay, rows, columns),
        str,
    )


def labels_svg(
    evaluation: Evaluation,
    annotate: Sequence[Label],
    *,
    drawn: Sequence[int] | None = None,
    name: str = "plot-labels",
) -> str:
    """Per-label informedness against markedness (`informed.plot_per_label`): the labels
    at positions `drawn` (default all), those in `annotate` named."""
    return drawn_svg(
        LABELS_FRAME,
        name,
        lambda axes: draw_per_label(axes, evaluation, annotate, drawn=drawn),
        str,
    )


def roc_svg(
    ranking: Ranking,
    *,
    operating_point: tuple[float, float] | None = None,
    threshold: OperatingPoint | None = None,
    name: str = "plot-roc",
) -> str:
    """The ROC curve of `ranking` with its hull, the point of the evaluated predictions
    and the threshold's point (`informed.plot_roc`)."""
    reason = undefined_reason(ranking, "roc_curve")
    if reason is not None:
        return message_svg(name, "ROC curve", reason)
    area = auc(ranking)
    return drawn_svg(
        ROC_FRAME,
        name,
        lambda axes: draw_roc(axes, ranking, operating_point=operating_point, threshold=threshold),
        lambda _: f"ROC curve, AUC {area:.4f}",
    )


def quota_svg(ranking: Ranking, *, name: str = "plot-quota") -> str:
    """Qrecall with PEM's areas and the hit rate (`informed.plot_qrecall`,
    `informed.plot_hit_rate`): two <svg> elements (ids `name` and `name`-hit-rate) in one
    <div class="pair">, side by side, one under the other on a narrow screen."""
    reason = quota_reason(ranking)
    if reason is not None:
        return message_svg(name, "Quota curves", reason)
    qrecall = drawn_svg(
        QRECALL_FRAME,
        name,
        lambda axes: draw_qrecall(axes, ranking),
        lambda pem: f"Qrecall against the quota, PEM {pem}",
    )
    hits = drawn_svg(
        HIT_RATE_FRAME,
        f"{name}-hit-rate",
        lambda axes: draw_hit_rate(axes, ranking),
        lambda _: "Hit rate against the quota",
    )
    return f'<div class="pair">{qrecall}{hits}</div>'


def lift_svg(ranking: Ranking, *, bins: int = 10, name: str = "plot-lift") -> str:
    """Lift of each bin (deciles by default) with the lift = 1 line (`informed.plot_lift`)."""
    reason = lift_reason(ranking)
    if reason is not None:
        return message_svg(name, lift_title(bins), reason)
    return drawn_svg(LIFT_FRAME, name, lambda axes: draw_lift(axes, ranking, bins), str)


PAGE_FOREST_WIDTH = 10.0
"""A forest plot on a page is drawn as wide as the page's column (about 1,000 pixels): at
a notebook's 5 inches it sat in a third of its box, the intervals squeezed together."""


def slices_svg(
    result: SliceBootstrap, shown: list[int], overall: float, *, name: str = "plot-slices"
) -> str:
    """Each shown slice's informedness with its interval against the overall value
    (`informed.plot_slices`)."""
    return drawn_svg(
        forest_frame(len(shown), width=PAGE_FOREST_WIDTH),
        name,
        lambda axes: draw_slices(axes, result, shown, overall),
        lambda title: f"{title}: {len(shown)} slices with intervals",
    )


def slices_time_svg(
    result: SliceBootstrap,
    disparities: Disparities | None,
    overall: float,
    *,
    name: str = "plot-slices-time",
) -> tuple[str, str]:
    """Informedness window by window with its interval band, the windows that differ from
    the reference marked (`informed.plot_slices_over_time`); the SVG and its caption."""
    image = drawn_svg(
        TIME_FRAME,
        name,
        lambda axes: draw_slices_over_time(axes, result, overall, disparities),
        lambda title: f"{title}: {len(result.evaluation.n)} windows with interval bands",
    )
    return image, time_caption(result, disparities)


def tally_svg(
    result: TallyIntervals, measure: str = "informedness", *, name: str = "plot-tally"
) -> str:
    """Each category's value with its interval, micro and macro (`informed.plot_tally`)."""
    if not result.tally.categories:
        return message_svg(name, "Categories", "no categories")
    return drawn_svg(
        forest_frame(len(shown_categories(result, measure)), width=PAGE_FOREST_WIDTH),
        name,
        lambda axes: draw_tally(axes, result, measure),
        lambda title: f"{title}, with intervals",
    )
